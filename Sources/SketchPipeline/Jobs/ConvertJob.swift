import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO

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
        case .bin: return DatasetLayout.convertedFile(word: word, suffix: DatasetLayout.binarySuffix)
        case .ndjson: return DatasetLayout.convertedFile(word: word, suffix: DatasetLayout.drawingLinesSuffix)
        case .stroke3: return DatasetLayout.convertedFile(word: word, suffix: DatasetLayout.stroke3Suffix)
        }
    }
}

/// What a convert run did.
package struct ConvertResult: Sendable {
    /// Records read, written, rejected (quarantined) and filtered (beyond a class's stroke-3 split
    /// sizes, stroke-3 output only); source errors counted apart.
    package var counts = RecordCounts()
    /// Records of float64 stroke-3 input written as int16 (`--stroke3-dtype int16`): positions rounded.
    package var roundedToInt16 = 0
    /// Output files with their record counts, in write order.
    package var files: [(path: String, count: Int)] = []
    /// The `<word>.keys.csv` files written beside `.bin` files holding derived key_ids (`BinaryKeyIDs`).
    package var keyMaps: [String] = []
    /// Rejections grouped by reason kind (`QuarantineWriter.countsByReason`).
    package var rejectedByReason: [String: Int] = [:]
    /// Wall-clock seconds.
    package var seconds = 0.0
}

/// Converts drawings between NDJSON, Google `.bin` and sketch-rnn stroke-3, one output file per
/// category, in bounded memory.
///
/// Drawings that `inputFormat` says are raw (`InputFormat.needsSimplification(_:readAs:)`: under
/// `auto` raw NDJSON and CSV records and every SVG sketch; `.bin` and stroke-3 records are taken as
/// they are) are simplified first with `options`, except that SVG sketches go to NDJSON raw, with
/// their times (`SVGSketch.indexTimes`). A record the target cannot
/// hold (see `GoogleBinaryWriter`; int16 stroke-3 values outside int16 once positions are rounded,
/// `Stroke3.int16Array`; a word that cannot be a file name) is quarantined with its location, as simplified NDJSON. Records are spilled per category
/// to temporary files (in-memory buffers up to `spillBufferBytes` in all), then each category
/// is written in turn, so only one category is in memory at a time (stroke-3 output) or none
/// (`.bin`, NDJSON, streamed). Stroke-3 splits: input from stroke-3 keeps its split and order;
/// other records are placed by `Stroke3SplitQuota` (the one split rule, as in a sketch-rnn pipeline). `stroke3Epsilon` applies
/// Ramer–Douglas–Peucker to each stroke before stroke-3 encoding, as sketch-rnn's data was made.
package struct ConvertJob: Sendable {
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
    /// Which drawings are simplified (`--input-format`).
    package var inputFormat = InputFormat.auto
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
    package init(
        source: DrawingSource, target: ConvertTarget, outputDirectory: String, quarantinePath: String,
        quota: Stroke3SplitQuota
    ) {
        self.source = source
        self.source.keepsTimestamps = false
        self.target = target
        self.outputDirectory = outputDirectory
        self.quarantinePath = quarantinePath
        self.quota = quota
    }

    /// Worker threads; the output bytes do not depend on it.
    package var jobs = 1

    /// Runs the conversion; throws only for output failures and unusable inputs.
    package func run() throws -> ConvertResult {
        let start = MonotonicClock.now()
        var result = ConvertResult()
        var stream = RecordStream(reader: source, jobs: jobs, showsProgress: showsProgress)
        stream.printsRejections = showsProgress
        // A stream's format is told by its content (a `.bin` on stdin), as a file's is.
        stream.spoolsStreams = true
        let quarantine = stream.makeQuarantine(path: quarantinePath)
        let spill = try CategorySpill<[UInt8]>(bufferLimit: spillBufferBytes)
        let stage = ConvertStage(job: self, float64Words: target == .stroke3 ? Self.float64Words(of: source) : [])
        var firstLocation: [[UInt8]: SourceLocation] = [:]
        let streamed = try stream.run(stage, quarantine: quarantine) { converted, _ in
            for record in converted {
                let key = Array(record.word.utf8)
                if firstLocation[key] == nil { firstLocation[key] = record.location }
                try spill.add(record.line, word: record.word)
            }
        }
        result.counts = streamed.tally
        result.counts.written = 0
        try spill.flush()
        try FileSystem.makeDirectories(outputDirectory)
        let (_, colliding) = DataName.separateCollisions(spill.files.map(\.word), caseInsensitive: true)
        var line: [UInt8] = []
        for (word, spillPath) in spill.files {
            let reader = try QuickDrawReader(inputs: [spillPath])
            if let earlier = colliding[Array(word.utf8)] {
                // Its file would overwrite the earlier class's on a case-insensitive file system.
                let location = firstLocation[Array(word.utf8)]!
                try reader.readWithLines(
                    onRecord: { record, spilled, _ in
                        line.removeAll(keepingCapacity: true)
                        SimplifiedNDJSONWriter.encode(record, stroke3Deltas: spilled.stroke3Deltas, into: &line)
                        result.counts.rejected += 1
                        try quarantine.add(
                            RejectedLine(location: location, reason: DataName.collisionReason(word, earlier: earlier), bytes: line))
                    }, onRejected: spillDamaged)
                continue
            }
            let path = "\(outputDirectory)/\(target.fileName(word: word))"
            var count = 0
            switch target {
            case .ndjson:
                let writer = try SimplifiedNDJSONWriter(path: path)
                try reader.readWithLines(
                    onRecord: { record, spilled, _ in
                        try writer.write(record, stroke3Deltas: spilled.stroke3Deltas)
                        count += 1
                    }, onRejected: spillDamaged)
                try writer.commit()
            case .bin:
                let writer = try GoogleBinaryWriter(path: path)
                let keysPath = "\(outputDirectory)/\(DatasetLayout.convertedFile(word: word, suffix: KeysCSVWriter.suffix))"
                var keyIDs = BinaryKeyIDs()
                var keysFile: KeysCSVWriter?
                let location = firstLocation[Array(word.utf8)]!
                try reader.readWithLines(
                    onRecord: { record, spilled, _ in
                        var written = record
                        switch keyIDs.assign(record.keyID) {
                        case .collision(let reason):
                            line.removeAll(keepingCapacity: true)
                            SimplifiedNDJSONWriter.encode(record, stroke3Deltas: spilled.stroke3Deltas, into: &line)
                            result.counts.rejected += 1
                            try quarantine.add(RejectedLine(location: location, reason: reason, bytes: line))
                            return
                        case .kept: break
                        case .derived(let value):
                            if keysFile == nil { keysFile = try KeysCSVWriter(path: keysPath, header: ["key_id", "original_key_id"]) }
                            try keysFile?.append([String(value), record.keyID])
                            written.keyID = String(value)
                        }
                        try writer.write(written)
                        count += 1
                    }, onRejected: spillDamaged)
                try writer.commit()
                if let keysFile {
                    try keysFile.commit()
                    result.keyMaps.append(keysPath)
                } else {
                    // No derived key_id: a key map left by an earlier run would describe another file.
                    try? FileSystem.remove(keysPath)
                }
            case .stroke3:
                var keys: [String] = []
                var arrays: [NumericArray] = []
                let elementType = stroke3ElementType(word: word, float64Words: stage.float64Words)
                try reader.readWithLines(
                    onRecord: { record, spilled, _ in
                        keys.append(record.keyID)
                        arrays.append(try stroke3Array(of: record, exactDeltas: spilled.stroke3Deltas, elementType: elementType))
                    }, onRejected: spillDamaged)
                let splits = Self.place(keys: keys, arrays: arrays, quota: quota)
                count = splits.reduce(0) { $0 + $1.arrays.count }
                result.counts.filtered += keys.count - count
                if elementType == .int16 && stage.float64Words.contains(word) { result.roundedToInt16 += count }
                try Stroke3NPZ.write(splits, elementType: elementType, layout: stroke3Layout, to: path)
            }
            result.counts.written += count
            result.files.append((path, count))
        }
        spill.removeFiles()
        try quarantine.finish()
        result.rejectedByReason = quarantine.countsByReason
        result.seconds = MonotonicClock.seconds(since: start)
        return result
    }

    private func spillDamaged(_ line: RejectedLine) throws {
        throw PipelineError(.spill, "temporary spill file damaged at \(line): \(line.reason)")
    }

    /// The stroke-3 rows of `record` as written: reduced by `stroke3Epsilon` when set, then
    /// int16 with positions rounded (`Stroke3.int16Array`) or float64 as they are (the
    /// `exactDeltas` it was read with kept, `Stroke3.array(of:exactDeltas:)`).
    private func stroke3Array(
        of record: SketchRecord, exactDeltas: [Double]?, elementType: Stroke3ElementType
    ) throws(FormatError) -> NumericArray {
        var reduced = record
        if let stroke3Epsilon { reduced.drawing = RamerDouglasPeucker(epsilon: stroke3Epsilon).reduce(record.drawing) }
        return elementType == .int16
            ? try Stroke3.int16Array(of: reduced.drawing) : Stroke3.array(of: reduced.drawing, exactDeltas: exactDeltas)
    }

    /// The element type `word`'s stroke-3 file is written with.
    private func stroke3ElementType(word: String, float64Words: Set<String>) -> Stroke3ElementType {
        stroke3ElementType ?? (float64Words.contains(word) ? .float64 : .int16)
    }

    /// The words of `source`'s stroke-3 inputs that store float64 values (those files are decoded
    /// once more here; a file that cannot be read is reported when it is read).
    private static func float64Words(of source: DrawingSource) -> Set<String> {
        Set(
            source.engineInputs().inputs.filter { input in
                input.format == .stroke3 && Stroke3NPZ.isFloat64(path: input.path)
            }.map(\.word))
    }

    /// Why `record` cannot be written in the target format, or nil.
    fileprivate func problem(
        with record: SketchRecord, exactDeltas: [Double]?, float64Words: Set<String>, scratch: inout [UInt8]
    ) -> String? {
        if record.drawing.strokes.isEmpty { return "drawing has no strokes" }
        switch target {
        case .ndjson:
            return nil
        case .bin:
            scratch.removeAll(keepingCapacity: true)
            var stored = record
            stored.keyID = String(BinaryKeyIDs.value(of: record.keyID))
            do { try GoogleBinaryWriter.encode(stored, into: &scratch) } catch { return error.description }
            return nil
        case .stroke3:
            do {
                _ = try stroke3Array(
                    of: record, exactDeltas: exactDeltas, elementType: stroke3ElementType(word: record.word, float64Words: float64Words))
            } catch {
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
        return [
            (.train, assigned.train.map { arrays[$0] }), (.valid, assigned.valid.map { arrays[$0] }),
            (.test, assigned.test.map { arrays[$0] }),
        ]
    }
}

/// The convert stage of the engine: each record, simplified when raw, becomes its simplified
/// NDJSON line for the category spill; a record the target cannot hold is refused with that line
/// as its quarantined form.
private struct ConvertStage: RecordStage {
    let job: ConvertJob
    /// The words whose stroke-3 input stores float64 values.
    let float64Words: Set<String>
    var input: RecordStageInput { .drawings }

    /// One record on its way to the spill: its line (with the newline), word and location.
    struct Converted: Sendable {
        var line: [UInt8]
        var word: String
        var location: SourceLocation
    }

    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch {
        Batch(stage: self, format: format, simplifier: Simplifier(options: job.options))
    }

    struct Batch: RecordStageBatch {
        let stage: ConvertStage
        /// The format of the batch's input: only a record decoded from a stroke-3 file (its
        /// format known from the file's content, never from the record) keeps its published split.
        let format: DrawingFileFormat
        var simplifier: Simplifier
        var scratch: [UInt8] = []
        private(set) var output: [Converted] = []

        init(stage: ConvertStage, format: DrawingFileFormat, simplifier: Simplifier) {
            self.stage = stage
            self.format = format
            self.simplifier = simplifier
        }

        mutating func process(
            _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
            location: SourceLocation
        ) throws(StageRejection) {
            var record = record
            let target = stage.job.target
            let simplifies = stage.job.inputFormat.needsSimplification(record, readAs: format)
            if simplifies {
                if format == .svg && target == .ndjson {
                    // An SVG sketch is written raw, its times (not kept while reading) put back.
                    record.drawing.strokes = SVGSketch.indexTimes(record.drawing.strokes)
                } else {
                    let drawing = record.drawing
                    record.drawing = try StageRejection.overLimit { () throws(DrawingLimitError) in try simplifier.simplify(drawing) }
                }
            }
            var converted: [UInt8] = []
            SimplifiedNDJSONWriter.encode(record, stroke3Deltas: line.stroke3Deltas, into: &converted)
            if let problem = stage.job.problem(
                with: record, exactDeltas: line.stroke3Deltas, float64Words: stage.float64Words, scratch: &scratch)
            {
                // A stroke-3 drawing is taken as it is, so its positions may lie outside .bin's 0…255.
                let hint =
                    format == .stroke3 && !simplifies
                    ? " (a stroke-3 drawing is taken as it is; --input-format raw simplifies it first)" : ""
                throw StageRejection("cannot write as \(target.rawValue): \(problem)\(hint)", quarantinedBytes: converted)
            }
            converted.append(0x0A)
            output.append(Converted(line: converted, word: record.word, location: location))
        }
    }
}
