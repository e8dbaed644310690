import Foundation
import SketchCore
import SketchFormats
import SketchDataset

/// `sketchprep stats`: profiles Quick, Draw! inputs and writes `stats.json`, `stats.md` and a
/// self-contained `stats.html` to a directory.
///
/// Workers take whole input files from a shared queue and each builds a partial
/// `DatasetProfile`; the partials merge to the same profile whatever the job count or the order
/// files finish in, so the output bytes depend only on the inputs and the options. Memory: one
/// record per worker, fixed-size histograms per category, `thumbnailCount` drawings per category,
/// and a 2 MiB key buffer per worker (duplicates are counted from spill files, see
/// `DuplicateKeyCounter`).
package struct StatsJob {
    /// The inputs, expanded once (directory entries that cannot be read are its `rejectedSources`).
    package let reader: QuickDrawReader
    /// Input files in order (`-` for standard input), as `reader` expands them.
    package var files: [String] { reader.files }
    /// Sequence length whose truncation share is reported.
    package var length: Int
    /// Thumbnails per category.
    package var thumbnailCount: Int
    /// Worker threads.
    package var jobs: Int
    /// Whether rejected lines are reported on stderr.
    package var showsMessages: Bool

    /// Creates a job over `inputs` (files, directories, gzip, `-`); throws `InputError` for a
    /// missing input and `PipelineError` for a length or thumbnail count out of range.
    package init(inputs: [String], length: Int = 75, thumbnailCount: Int = 12, jobs: Int = 1, showsMessages: Bool = true) throws {
        guard length >= 1 else { throw PipelineError("--length must be at least 1 (got \(length))") }
        guard (0...256).contains(thumbnailCount) else {
            throw PipelineError("--thumbnails must be between 0 and 256 (got \(thumbnailCount))")
        }
        reader = try QuickDrawReader(inputs: inputs)
        self.length = length
        self.thumbnailCount = thumbnailCount
        self.jobs = max(1, jobs)
        self.showsMessages = showsMessages
    }

    /// The one place drawings come from: every record and rejected line of one input file
    /// (an input that cannot be read is one source error). Other input formats (Google `.bin`,
    /// stroke-3 `.npz`) plug in here.
    package static func readDrawings(
        _ file: String,
        onRecord: (SketchRecord, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void
    ) throws {
        let reader: QuickDrawReader
        do {
            reader = try QuickDrawReader(inputs: [file])
        } catch let error as InputError {
            try onRejected(.sourceError(file, byteOffset: 0, reason: "cannot read input: \(error)"))
            return
        }
        do {
            try reader.read(onRecord: onRecord, onRejected: onRejected)
        } catch is InputError {
            // The input could not be opened; `read` has reported it as a source error.
        }
    }

    /// Profiles every input; `spillDirectory` (created and removed here) holds the key spill files.
    package func profile(spillDirectory: String) throws -> DatasetProfile {
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(atPath: spillDirectory, withIntermediateDirectories: true)
        } catch {
            throw PipelineError("cannot create \(spillDirectory) for the key spill: \(error.localizedDescription)")
        }
        defer { try? fileManager.removeItem(atPath: spillDirectory) }
        let workers = max(1, min(jobs, files.count))
        let queue = ProfileWorkQueue(fileCount: files.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do {
                queue.deliver(try profileFiles(worker: worker, queue: queue, spillDirectory: spillDirectory))
            } catch {
                queue.fail(error)
            }
        }
        if let error = queue.error { throw error }
        var total = DatasetProfile(length: length, thumbnailCount: thumbnailCount)
        let listing = try QuarantineWriter(path: nil, maximumMessages: showsMessages ? 20 : 0)
        for rejected in reader.rejectedSources {
            let sourceError = RejectedLine.sourceError(rejected.location.file, byteOffset: 0, reason: rejected.reason)
            try total.tally.reject(sourceError, into: listing)
            total.noteRejected(sourceError, fileIndex: -1)
        }
        try listing.finish()
        total.rejectedByReason = listing.countsByReason
        for partial in queue.profiles { total.merge(partial) }
        total.duplicates = try DuplicateKeyCounter.count(directory: spillDirectory, workers: workers)
        return total
    }

    /// One worker: profiles files from `queue` until none are left.
    private func profileFiles(worker: Int, queue: ProfileWorkQueue, spillDirectory: String) throws -> DatasetProfile {
        var profile = DatasetProfile(length: length, thumbnailCount: thumbnailCount)
        let spill = KeySpill(directory: spillDirectory, worker: worker)
        let quarantine = try QuarantineWriter(path: nil, maximumMessages: showsMessages ? 20 : 0)
        var simplifier = Simplifier(options: .google)
        var strokes = FlatStrokes()
        while let index = queue.nextFile() {
            try Self.readDrawings(
                files[index],
                onRecord: { record, location in
                    let wasRaw = InputFormat.auto.needsSimplification(record.drawing)
                    if wasRaw {
                        try simplifier.simplify(record.drawing, into: &strokes)  // over a limit: rejected by the reader
                    } else {
                        strokes.replaceContents(with: record.drawing)
                    }
                    try spill.add(record.keyID)
                    profile.add(record, simplified: strokes, wasRaw: wasRaw, fileIndex: index, line: location.line)
                },
                onRejected: { rejected in
                    try profile.tally.reject(rejected, into: quarantine)
                    profile.noteRejected(rejected, fileIndex: index)
                })
        }
        try spill.finish()
        try quarantine.finish()
        profile.rejectedByReason = quarantine.countsByReason
        return profile
    }

    /// Profiles the inputs and writes `stats.json`, `stats.md` and `stats.html` into
    /// `outputDirectory` (created if missing; each file written atomically).
    package func run(outputDirectory: String) throws -> DatasetProfile {
        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw PipelineError("cannot create output directory \(outputDirectory): \(error.localizedDescription)")
        }
        let spill = "\(outputDirectory)/.stats-keys.tmp-\(ProcessInfo.processInfo.processIdentifier)"
        let profile = try profile(spillDirectory: spill)
        let thumbnails = try StatsThumbnails.render(profile)
        let report = StatsReport(profile: profile, inputs: files)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var json = try encoder.encode(report)
        json.append(0x0A)
        try writeAtomically(json, to: "\(outputDirectory)/stats.json")
        try writeAtomically(StatsMarkdownWriter.markdown(profile, inputs: files), to: "\(outputDirectory)/stats.md")
        try writeAtomically(StatsHTMLWriter.html(profile, inputs: files, thumbnails: thumbnails),
                            to: "\(outputDirectory)/stats.html")
        return profile
    }
}

/// The files still to profile and the finished partial profiles, shared by the workers.
private final class ProfileWorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let fileCount: Int
    private var next = 0
    private(set) var profiles: [DatasetProfile] = []
    private(set) var error: Error?

    init(fileCount: Int) { self.fileCount = fileCount }

    /// The next file index, or nil when all are taken or a worker failed.
    func nextFile() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard error == nil, next < fileCount else { return nil }
        next += 1
        return next - 1
    }

    func deliver(_ profile: DatasetProfile) {
        lock.lock(); defer { lock.unlock() }
        profiles.append(profile)
    }

    func fail(_ error: Error) {
        lock.lock(); defer { lock.unlock() }
        if self.error == nil { self.error = error }
    }
}
