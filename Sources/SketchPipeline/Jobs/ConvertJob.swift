import Foundation
import SketchCore
import SketchFormats
import SketchDataset

/// The output format of `sketchprep convert`.
package enum ConvertTarget: String, Sendable, CaseIterable {
    /// Google's `.bin`, one `<word>.bin` per category.
    case bin
    /// Simplified NDJSON in Google's layout, one `<word>.ndjson` per category.
    case ndjson
    /// sketch-rnn stroke-3, one `<word>.npz` per category.
    case stroke3

    /// The output file name of `word`.
    package func fileName(word: String) -> String {
        switch self {
        case .bin: return "\(word).bin"
        case .ndjson: return "\(word).ndjson"
        case .stroke3: return "\(word).npz"
        }
    }
}

/// What a convert run did.
package struct ConvertResult: Sendable {
    /// Records read, written and rejected (quarantined); `read = written + notSelected + rejected`.
    package var read = 0
    /// Records written.
    package var written = 0
    /// Records beyond a class's stroke-3 split sizes (stroke-3 output only).
    package var notSelected = 0
    /// Records of float64 stroke-3 input written as int16 (`--stroke3-dtype int16`): positions rounded.
    package var roundedToInt16 = 0
    /// Records rejected.
    package var rejected = 0
    /// Damaged or unreadable inputs (`RejectedLine.isSourceError`), counted apart from records.
    package var sourceErrors = 0
    /// Output files with their record counts, in write order.
    package var files: [(path: String, count: Int)] = []
    /// Wall-clock seconds.
    package var seconds = 0.0

    /// Whether every record read is accounted for.
    package var isReconciled: Bool { read == written + notSelected + rejected }
}

/// Converts drawings between NDJSON, Google `.bin` and sketch-rnn stroke-3, one output file per
/// category, in bounded memory.
///
/// Raw drawings (`DrawingKind.detect`, and every SVG sketch) are simplified first with `options`,
/// except that SVG sketches go to NDJSON raw, with their times (`SVGSketch.indexTimes`); records
/// of stroke-3 input (key_id `<file>#<split>#<index>`) are taken as they are. A record the target cannot
/// hold (see `GoogleBinaryWriter`; int16 stroke-3 values outside int16 once positions are rounded,
/// `Stroke3.int16Array`; a word that cannot be a file name) is quarantined with its location, as simplified NDJSON. Records are spilled per category
/// to temporary files (in-memory buffers up to `spillBufferBytes` in all), then each category
/// is written in turn, so only one category is in memory at a time (stroke-3 output) or none
/// (`.bin`, NDJSON, streamed). Stroke-3 splits: input from stroke-3 keeps its split and order;
/// other records are placed by `Stroke3SplitQuota` (the one split rule, as in a sketch-rnn pipeline). `stroke3Epsilon` applies
/// Ramer–Douglas–Peucker to each stroke before stroke-3 encoding, as sketch-rnn's data was made.
package struct ConvertJob {
    /// The inputs.
    package var source: DrawingSource
    /// The output format.
    package var target: ConvertTarget
    /// Directory receiving one file per category.
    package var outputDirectory: String
    /// Quarantine file (written atomically, possibly empty).
    package var quarantinePath: String
    /// Simplification of raw input.
    package var options: SimplificationOptions = .google
    /// Stroke-3 split sizes per class.
    package var quota: Stroke3SplitQuota
    /// Optional RDP tolerance for stroke-3 output.
    package var stroke3Epsilon: Double?
    /// Element type of stroke-3 output; nil keeps the input's (float64 for a class read from a
    /// float64 stroke-3 file, int16 otherwise).
    package var stroke3ElementType: Stroke3ElementType?
    /// Layout of stroke-3 output files.
    package var stroke3Layout = Stroke3Layout.standard
    /// In-memory spill buffers, in bytes over all categories, before they go to temporary files.
    package var spillBufferBytes = 64 << 20
    /// Whether to print progress and rejection messages on stderr.
    package var showsProgress = true

    /// Creates a job.
    package init(source: DrawingSource, target: ConvertTarget, outputDirectory: String, quarantinePath: String,
                quota: Stroke3SplitQuota) {
        self.source = source
        self.source.keepsTimestamps = false
        self.target = target
        self.outputDirectory = outputDirectory
        self.quarantinePath = quarantinePath
        self.quota = quota
    }

    /// Runs the conversion; throws only for output failures and unusable inputs.
    package func run() throws -> ConvertResult {
        let start = Date()
        var result = ConvertResult()
        let quarantine = try QuarantineWriter(path: quarantinePath, maximumMessages: showsProgress ? 20 : 0)
        let progress = ProgressReporter(unit: "drawings", totalBytes: source.inputByteCount, enabled: showsProgress)
        let spill = try CategorySpill(bufferLimit: spillBufferBytes)
        var simplifier = Simplifier(options: options)
        let float64Words = target == .stroke3 ? Self.float64Words(of: source) : []
        var line: [UInt8] = []
        var scratch: [UInt8] = []
        var firstLocation: [[UInt8]: SourceLocation] = [:]
        var inputFormats: [String: DrawingFileFormat?] = [:]
        func reject(_ rejected: RejectedLine) throws {
            if rejected.isSourceError {
                result.sourceErrors += 1
            } else {
                result.read += 1
                result.rejected += 1
            }
            try quarantine.add(rejected)
        }
        try source.read(
            onRecord: { record, location in
                var record = record
                // Only a record decoded from a stroke-3 file (its format known from the file's
                // content, never from the record) keeps its published split.
                if inputFormats[location.file] == nil { inputFormats[location.file] = source.inputFormat(location.file) }
                let fileFormat = inputFormats[location.file]!
                let isStroke3 = fileFormat == .stroke3 && Stroke3Split.place(ofKey: record.keyID) != nil
                if fileFormat == .svg && target == .ndjson {
                    // An SVG sketch is written raw, its times (not kept while reading) put back.
                    record.drawing.strokes = SVGSketch.indexTimes(record.drawing.strokes)
                } else if !isStroke3 && (fileFormat == .svg || DrawingKind.detect(record.drawing) == .raw) {
                    record.drawing = try simplifier.simplify(record.drawing)
                }
                line.removeAll(keepingCapacity: true)
                SimplifiedNDJSONWriter.encode(record, into: &line)
                if let problem = problem(with: record, float64Words: float64Words, scratch: &scratch) {
                    try reject(RejectedLine(location: location, reason: "cannot write as \(target.rawValue): \(problem)", bytes: line))
                    return
                }
                result.read += 1
                line.append(0x0A)
                if firstLocation[Array(record.word.utf8)] == nil { firstLocation[Array(record.word.utf8)] = location }
                try spill.add(line, word: record.word)
                progress.advance()
            },
            onRejected: { try reject($0) },
            onProgress: { progress.update(bytesConsumed: $0) })
        try spill.flush()
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        let (_, colliding) = DataName.separateCollisions(spill.files.map(\.word), caseInsensitive: true)
        for (word, spillPath) in spill.files {
            let reader = try QuickDrawReader(inputs: [spillPath])
            if let earlier = colliding[Array(word.utf8)] {
                // Its file would overwrite the earlier class's on a case-insensitive file system.
                let location = firstLocation[Array(word.utf8)]!
                try reader.read(onRecord: { record, _ in
                    line.removeAll(keepingCapacity: true)
                    SimplifiedNDJSONWriter.encode(record, into: &line)
                    result.read -= 1
                    try reject(RejectedLine(location: location, reason: DataName.collisionReason(word, earlier: earlier), bytes: line))
                }, onRejected: spillDamaged)
                continue
            }
            let path = "\(outputDirectory)/\(target.fileName(word: word))"
            var count = 0
            switch target {
            case .ndjson:
                let writer = try SimplifiedNDJSONWriter(path: path)
                try reader.read(onRecord: { record, _ in try writer.write(record); count += 1 }, onRejected: spillDamaged)
                try writer.commit()
            case .bin:
                let writer = try GoogleBinaryWriter(path: path)
                try reader.read(onRecord: { record, _ in try writer.write(record); count += 1 }, onRejected: spillDamaged)
                try writer.commit()
            case .stroke3:
                var keys: [String] = []
                var arrays: [NumericArray] = []
                let elementType = stroke3ElementType(word: word, float64Words: float64Words)
                try reader.read(onRecord: { record, _ in
                    keys.append(record.keyID)
                    arrays.append(try stroke3Array(of: record, elementType: elementType))
                }, onRejected: spillDamaged)
                let splits = Self.place(keys: keys, arrays: arrays, quota: quota)
                count = splits.reduce(0) { $0 + $1.arrays.count }
                result.notSelected += keys.count - count
                if elementType == .int16 && float64Words.contains(word) { result.roundedToInt16 += count }
                try Stroke3NPZ.write(splits, elementType: elementType, layout: stroke3Layout, to: path)
            }
            result.written += count
            result.files.append((path, count))
        }
        spill.removeFiles()
        try quarantine.finish()
        progress.finish()
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    private func spillDamaged(_ line: RejectedLine) throws {
        throw PipelineError("temporary spill file damaged at \(line): \(line.reason)")
    }

    /// The stroke-3 rows of `record` as written: reduced by `stroke3Epsilon` when set, then
    /// int16 with positions rounded (`Stroke3.int16Array`) or float64 as they are (exact deltas
    /// kept, `Stroke3.array(of:)`).
    private func stroke3Array(of record: SketchRecord, elementType: Stroke3ElementType) throws(FormatError) -> NumericArray {
        var reduced = record
        if let stroke3Epsilon { reduced.drawing = RamerDouglasPeucker(epsilon: stroke3Epsilon).reduce(record.drawing) }
        return elementType == .int16 ? try Stroke3.int16Array(of: reduced.drawing) : Stroke3.array(of: reduced)
    }

    /// The element type `word`'s stroke-3 file is written with.
    private func stroke3ElementType(word: String, float64Words: Set<String>) -> Stroke3ElementType {
        stroke3ElementType ?? (float64Words.contains(word) ? .float64 : .int16)
    }

    /// The words of `source`'s stroke-3 inputs that store float64 values (those files are decoded
    /// once more here; a file that cannot be read is reported when it is read).
    private static func float64Words(of source: DrawingSource) -> Set<String> {
        Set(source.engineInputs().inputs.filter { input in
            input.format == .stroke3 && Stroke3NPZ.isFloat64(path: input.path)
        }.map(\.word))
    }

    /// Why `record` cannot be written in the target format, or nil.
    private func problem(with record: SketchRecord, float64Words: Set<String>, scratch: inout [UInt8]) -> String? {
        if record.drawing.strokes.isEmpty { return "drawing has no strokes" }
        switch target {
        case .ndjson:
            return nil
        case .bin:
            scratch.removeAll(keepingCapacity: true)
            do { try GoogleBinaryWriter.encode(record, into: &scratch) } catch { return error.description }
            return nil
        case .stroke3:
            do { _ = try stroke3Array(of: record, elementType: stroke3ElementType(word: record.word, float64Words: float64Words)) } catch {
                return error.reason
            }
            return nil
        }
    }

    /// The splits of one class: stroke-3 keys keep their split and index order; others by quota.
    static func place(keys: [String], arrays: [NumericArray], quota: Stroke3SplitQuota) -> [(split: Stroke3Split, arrays: [NumericArray])] {
        let places = keys.map(Stroke3Split.place(ofKey:))
        if !keys.isEmpty && places.allSatisfy({ $0 != nil }) {
            return Stroke3Split.allCases.map { split in
                let members = places.indices.filter { places[$0]!.split == split }.sorted { places[$0]!.index < places[$1]!.index }
                return (split, members.map { arrays[$0] })
            }
        }
        let assigned = quota.assign(keyIDs: keys)
        return [(.train, assigned.train.map { arrays[$0] }), (.valid, assigned.valid.map { arrays[$0] }),
                (.test, assigned.test.map { arrays[$0] })]
    }
}
