import Foundation
import SketchDataset
import SketchFormats
import SketchIO

/// The map side's sink for resume: each chunk's examples go to run files of their own
/// (``SortedRunWriter/closeChunk(then:)``) and its quarantined lines to a file of their own; once
/// the chunk has ended and its runs are written, its ``MapCheckpoint`` is written next to them.
final class ChunkCheckpointWriter {
    private let directory: String
    private let key: (Int) -> String
    /// The chunk being mapped, and what the map has made of it so far.
    private(set) var chunk: Int?
    var current = MapOutput()
    private var quarantine: AtomicFileWriter?

    init(directory: String, key: @escaping (Int) -> String) {
        self.directory = directory
        self.key = key
    }

    /// Starts chunk `index`.
    func begin(_ index: Int) {
        chunk = index
        current = MapOutput()
    }

    /// Appends one quarantined line of the current chunk (with its newline).
    func quarantine(_ bytes: [UInt8]) throws {
        guard let chunk else { return }
        if quarantine == nil { quarantine = try AtomicFileWriter(path: "\(directory)/\(DatasetLayout.chunkQuarantine(chunk))") }
        try quarantine!.write(bytes)
        try quarantine!.write(CollectionOfOne(UInt8(ascii: "\n")))
    }

    /// Ends the current chunk: what the map made of it (its runs aside), and the writing of its
    /// files, for once its runs are written (`SortedRunWriter.closeChunk(then:)`, maybe on
    /// another thread): the commit of its quarantine file and, when its content SHA-256 is known
    /// (`digest`), its checkpoint over the runs.
    func close(
        digest: (bytes: Int, sha256: String)?, quarantined: Int
    ) -> (output: MapOutput, writeFiles: @Sendable ([SortedRunWriter.MeasuredRun]) throws -> Void) {
        guard let chunk else { return (MapOutput(), { _ in }) }
        // Handed to the thread that writes the files; this writer starts the next chunk's own.
        nonisolated(unsafe) let quarantine = quarantine
        self.quarantine = nil
        self.chunk = nil
        let output = current
        let (directory, key) = (directory, key(chunk))
        return (
            output,
            { runs in
                var files: [MapCheckpoint.FileEntry] = []
                if let quarantine {
                    try quarantine.commit()
                    let measured = try InputFile.measure(quarantine.path)
                    files.append(
                        .init(name: DatasetLayout.chunkQuarantine(chunk), bytes: measured.bytes, sha256: measured.sha256, quarantine: true))
                }
                for run in runs {
                    files.append(
                        .init(name: (run.path as NSString).lastPathComponent, bytes: run.bytes, sha256: run.sha256, quarantine: false))
                }
                guard let digest, !digest.sha256.isEmpty else { return }
                let checkpoint = MapCheckpoint(
                    key: key, chunk: chunk, bytes: digest.bytes, sha256: digest.sha256, files: files, quarantined: quarantined,
                    records: output.records, words: output.words.sorted, seenWords: output.seenWords.sorted,
                    seenCountries: output.seenCountries.sorted(), bucketCounts: output.bucketCounts.sparse)
                try writeAtomically(try PartialRun.encodeJSON(checkpoint), to: "\(directory)/\(DatasetLayout.chunkCheckpoint(chunk))")
                TestStopPoint.chunkMapped.reached()
            }
        )
    }
}

extension MapOutput {
    /// Adds `other` (another chunk's map output) to this one.
    mutating func absorb(_ other: MapOutput) {
        runs += other.runs
        bucketCounts.formUnion(other.bucketCounts)
        records.add(other.records)
        words.formUnion(other.words)
        seenWords.formUnion(other.seenWords)
        seenCountries.formUnion(other.seenCountries)
        chunks.merge(other.chunks) { $1 }
    }

    /// What a dead run's checkpoint of chunk `checkpoint.chunk` says, its run files in `directory`.
    init(reusing checkpoint: MapCheckpoint, in directory: String) throws {
        self.init()
        runs = checkpoint.files.filter { !$0.quarantine }.map { "\(directory)/\($0.name)" }
        bucketCounts = try BucketCounts(sparse: checkpoint.bucketCounts)
        records = checkpoint.records
        words = ClassWords(checkpoint.words)
        seenWords = ClassWords(checkpoint.seenWords)
        seenCountries = Set(checkpoint.seenCountries)
        chunks[checkpoint.chunk] = ChunkRecord(bytes: checkpoint.bytes, sha256: checkpoint.sha256, quarantined: checkpoint.quarantined)
    }
}
