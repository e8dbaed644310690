import Foundation
import SketchTestSupport
import Testing

@testable import SketchDataset

@Suite struct DatasetLayoutTests {
    /// The Python package names a dataset's files from `python/sketchprep/layout.json`; every name
    /// there is `DatasetLayout`'s, so the loaders and the CLI cannot drift apart.
    @Test func pythonLayoutTableNamesTheFilesDatasetLayoutNames() throws {
        let table = TestSupport.repositoryRoot.appendingPathComponent("python/sketchprep/layout.json")
        let names = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: table))
        let expected: [String: String] = [
            "manifest": DatasetLayout.manifest, "classes": DatasetLayout.classes, "quarantine": DatasetLayout.quarantine,
            "timings": DatasetLayout.timings, "partial_manifest": DatasetLayout.partialManifest,
            "features_suffix": DatasetLayout.featuresSuffix, "labels_suffix": DatasetLayout.labelsSuffix,
            "keys_suffix": DatasetLayout.keysSuffix, "tfrecord_suffix": DatasetLayout.tfrecordSuffix,
            "tar_suffix": DatasetLayout.tarSuffix, "stroke3_suffix": DatasetLayout.stroke3Suffix,
        ]
        #expect(names == expected)
    }

    /// `merge --finalize` finds the number of reduce parts from a report's name: the name
    /// `reduceReport(part:of:)` makes reads back as its part and count, and no other name does.
    @Test func reduceReportNamesReadBackAsTheirPart() {
        let name = DatasetLayout.reduceReport(part: 2, of: 5)
        #expect(DatasetLayout.reduceReportPart(name)?.part == 2)
        #expect(DatasetLayout.reduceReportPart(name)?.parts == 5)
        #expect(DatasetLayout.reduceReportPart(DatasetLayout.reduceQuarantine(part: 2, of: 5)) == nil)
        #expect(DatasetLayout.reduceReportPart(DatasetLayout.reduceRunMark) == nil)
        #expect(DatasetLayout.reduceReportPart(".reduce-+2-of-5.json") == nil)
    }

    /// The default quarantine of each single-output command is the output's name with its
    /// suffix replaced, and none for a stream.
    @Test func commandQuarantinesAreNamedBesideTheirOutput() {
        #expect(DatasetLayout.quarantine(nil, beside: "out/cat.npy", of: .drawingArray) == "out/cat.rejected.ndjson")
        #expect(DatasetLayout.quarantine(nil, beside: "out/cat.npy", of: .imageArray) == "out/cat.rejected.txt")
        #expect(DatasetLayout.quarantine(nil, beside: "cat.ndjson", of: .drawingLines) == "cat.rejected.ndjson")
        #expect(DatasetLayout.quarantine(nil, beside: "-", of: .drawingLines) == nil)
        #expect(DatasetLayout.quarantine("q.txt", beside: "-", of: .imageArray) == "q.txt")
        #expect(DatasetLayout.quarantine(nil, besideDirectory: "converted/") == "converted.rejected.ndjson")
    }
}
