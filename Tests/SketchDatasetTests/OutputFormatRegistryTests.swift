import Testing

@testable import SketchDataset

@Test func everyOutputFormatIsFoundByItsNameAndNamesAreUnique() {
    let names = OutputFormat.allCases.map(\.name)
    #expect(Set(names).count == names.count)
    for format in OutputFormat.allCases { #expect(OutputFormat(rawValue: format.name) == format) }
    #expect(OutputFormat(rawValue: "parquet") == nil)
}

@Test func aDatasetsFilesTellItsFormatThroughTheRegistry() {
    #expect(OutputFormat.of(files: ["train-00000-of-00001.x.npy", "train-00000-of-00001.y.npy"]) == .npy)
    #expect(OutputFormat.of(files: ["val-00000-of-00002.tfrecord"]) == .tfrecord)
    #expect(OutputFormat.of(files: ["training.tfrecord-00000-of-00001"]) == .tfrecord)
    #expect(OutputFormat.of(files: ["test-00000-of-00001.tar"]) == .webdataset)
    #expect(OutputFormat.of(files: ["cat.npz", "dog.npz"]) == .npz)
    #expect(OutputFormat.of(files: ["notes.txt"]) == nil)
    #expect(DatasetInfo.kind(of: ["cat.npz"]) == "npz" && DatasetInfo.kind(of: []) == "unknown")
}

@Test func aFormatRefusesTheEncodingsItCannotHoldWithTheReason() {
    #expect(OutputFormat.npz.entry.refusal(of: .strokeTensors) == "npz holds stroke-3 arrays; set encode.kind: stroke3")
    #expect(OutputFormat.npz.entry.refusal(of: .stroke3Rows) == nil)
    for format in [OutputFormat.npy, .tfrecord, .webdataset] {
        #expect(format.entry.refusal(of: .stroke3Rows)?.contains("set output.format: npz") == true)
        #expect(format.entry.refusal(of: .rasters(uint8: true)) == nil && format.entry.refusal(of: .strokeTensors) == nil)
    }
}

@Test func shardFileNamesAreTheRegisteredFormatsSuffixes() {
    #expect(OutputFormat.shardSuffixes == [".x.npy", ".y.npy", ".keys.txt", ".tfrecord", ".tar"])
    #expect(ShardNaming.isShardFileName("train-00000-of-00001.tar"))
    #expect(!ShardNaming.isShardFileName("train-00000-of-00001.png"))
}

@Test func onlyFormatsThatNameFilesByWordCompareWordsCaseInsensitively() {
    #expect(OutputFormat.allCases.filter { $0.entry.namesFilesByWord }.map(\.name) == ["npz", "imagefolder"])
}
