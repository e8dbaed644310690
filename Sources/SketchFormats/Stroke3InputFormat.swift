import SketchCore
import SketchIO

/// sketch-rnn stroke-3 `.npz` (`Stroke3NPZ`): the reading thread opens the archive (read whole,
/// at most `Stroke3NPZ.maximumFileSize`, its size and SHA-256 taken from the bytes read) and cuts
/// it into one entry per array, the splits in the zip's entry order: a pickle in the writer's layout
/// (the published files', `NumpyObjectArrayPickle.storedArrays`) is walked, not interpreted, and its
/// int16 values copied as stored; each array becomes its record on a worker. Drawings are taken as they are.
/// Records get the file's name without `.npz` as word (unless `--word`), `<file name>#<split>#<index>`
/// as key_id, an empty country and timestamp and `recognized` true, and a float64 record its
/// exact deltas beside it (`RecordLine.stroke3Deltas`) when its positions alone would not give them back.
/// A file that cannot be decoded is one source error.
package enum Stroke3InputFormat: InputFormatPlugin {
    package static let format = DrawingFileFormat.stroke3
    package static let fileSuffixes = [".npz"]
    package static let drawings = DrawingsDeclaration.takenAsTheyAre

    /// The bytes start with the zip magic `PK\x03\x04`.
    package static func detects(_ bytes: [UInt8]) -> Bool { Stroke3NPZ.hasZipMagic(bytes) }

    /// The zip magic is in the first four bytes.
    package static func decides(prefix: [UInt8]) -> Bool? { prefix.count >= 4 ? detects(prefix) : nil }

    package static func word(ofFile file: String, given: String?) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return given ?? (name.hasSuffix(".npz") ? String(name.dropLast(4)) : name)
    }

    package static func batchReader(_ request: BatchReaderRequest) -> any LineBatchReading { Arrays(request) }

    /// The record of one array entry (``Arrays``: key, element type, shape, values). An array that
    /// is not `(n, 3)` of finite values whose positions stay within the coordinate bound, or a
    /// drawing over `DrawingLimits`, is rejected with its key as the quarantined bytes. An int16
    /// array goes from its stored values to the record's strokes
    /// (``int16Record(key:rows:values:in:with:)``), without a `Double` array between.
    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, in batch: RawLineBatch, with scratch: inout RecordDecodingScratch
    ) -> PluginDecoding {
        guard let entry = Arrays.Entry(bytes) else { return .rejected(reason: "stroke-3 entry is damaged", bytes: nil) }
        if entry.element == .int16, entry.columns == 3, entry.rows > 0, entry.rows <= DrawingLimits.maximumPoints,
            let decoding = int16Record(key: entry.key, rows: entry.rows, values: entry.values, in: batch, with: &scratch)
        {
            return decoding
        }
        let key = entry.key
        let array = entry.array
        guard let drawing = Stroke3.drawing(of: array) else { return outOfRange(key) }
        // The values come from the file: held to the same bounds as NDJSON coordinates, so no
        // later conversion (to int16, to pixels) meets 1e300.
        do throws(DrawingLimitError) {
            try DrawingLimits.checkInput(drawing)
        } catch {
            return .rejected(reason: "\(key): \(error.reason)", bytes: Array(key.utf8))
        }
        let record = SketchRecord(word: batch.word, countryCode: "", timestamp: "", recognized: true, keyID: key, drawing: drawing)
        let line = RecordLine(encoding: record, stroke3Deltas: Stroke3.exactDeltas(of: array, drawing: drawing))
        if let problem = DataName.recordProblem(record) { return .rejected(reason: problem, bytes: line.bytes) }
        return .record(scratch.deliver(record), line)
    }

    /// The rejection of an array that is not a stroke-3 drawing within the coordinate bound.
    private static func outOfRange(_ key: String) -> PluginDecoding {
        .rejected(
            reason:
                "\(key): coordinate out of range or not a stroke-3 array: a drawing is a non-empty (n, 3) array of finite values whose positions stay within ±\(DrawingLimits.maximumCoordinateMagnitude)",
            bytes: Array(key.utf8))
    }

    /// The decoding of a `(rows, 3)` int16 array (`values`, little-endian, as the file stores
    /// them) whose strokes are within `DrawingLimits.maximumStrokes`: its positions summed in one
    /// loop (the kind decided on the way), then cut into the record's strokes (the flat points
    /// with `scratch.flatPoints`): what `Stroke3.drawing(of:)` and `DrawingLimits.checkInput`
    /// give and refuse; nil for more strokes (the general path says why).
    private static func int16Record(
        key: String, rows: Int, values: UnsafeRawBufferPointer, in batch: RawLineBatch, with scratch: inout RecordDecodingScratch
    ) -> PluginDecoding? {
        let lifts = UnsafeRawBufferPointer(rebasing: values[4...])
        var strokeCount = 0
        for row in 0..<rows where lifts.loadUnaligned(fromByteOffset: 6 * row, as: Int16.self) != 0 || row == rows - 1 {
            strokeCount += 1
        }
        guard strokeCount <= DrawingLimits.maximumStrokes else { return nil }
        // The positions first (one loop, no strokes), then cut into strokes at the pen lifts. Sums
        // of int16 values stay integers far below 2⁵³, so summing them as Int gives the Doubles' sums.
        let bound = Int(DrawingLimits.maximumCoordinateMagnitude)
        func sumPositions(
            into xs: UnsafeMutableBufferPointer<Double>, _ ys: UnsafeMutableBufferPointer<Double>
        ) -> (inBounds: Bool, simplified: Bool) {
            var (x, y, inBounds, simplified) = (0, 0, true, true)
            for row in 0..<rows {
                x += Int(Int16(littleEndian: values.loadUnaligned(fromByteOffset: 6 * row, as: Int16.self)))
                y += Int(Int16(littleEndian: values.loadUnaligned(fromByteOffset: 6 * row + 2, as: Int16.self)))
                inBounds = inBounds && x >= -bound && x <= bound && y >= -bound && y <= bound
                simplified = simplified && x >= 0 && x <= 255 && y >= 0 && y <= 255
                xs[row] = Double(x)
                ys[row] = Double(y)
            }
            return (inBounds, simplified)
        }
        /// Each stroke's rows in turn: a stroke ends at a pen lift and at the last row.
        func forEachStroke(_ body: (ClosedRange<Int>) -> Void) {
            var start = 0
            for row in 0..<rows where lifts.loadUnaligned(fromByteOffset: 6 * row, as: Int16.self) != 0 || row == rows - 1 {
                body(start...row)
                start = row + 1
            }
        }
        var strokes: [Stroke] = []
        let simplified: Bool
        if scratch.flatPoints {
            // Summed straight into the flat storage, which grows once for the whole drawing.
            scratch.strokes.removeAll()
            var sums = (inBounds: true, simplified: true)
            scratch.strokes.appendPoints(count: rows) { xs, ys in sums = sumPositions(into: xs, ys) }
            guard sums.inBounds else { return outOfRange(key) }
            simplified = sums.simplified
            forEachStroke { stroke in scratch.strokes.endStroke(points: stroke.count) }
        } else {
            var xs: [Double] = []
            var ys: [Double] = []
            swap(&xs, &scratch.positions.x)
            swap(&ys, &scratch.positions.y)
            defer {
                swap(&xs, &scratch.positions.x)
                swap(&ys, &scratch.positions.y)
            }
            if xs.count < rows {
                xs = [Double](repeating: 0, count: rows)
                ys = [Double](repeating: 0, count: rows)
            }
            let sums = xs.withUnsafeMutableBufferPointer { xs in ys.withUnsafeMutableBufferPointer { ys in sumPositions(into: xs, ys) } }
            guard sums.inBounds else { return outOfRange(key) }
            simplified = sums.simplified
            strokes.reserveCapacity(strokeCount)
            forEachStroke { stroke in strokes.append(Stroke(x: Array(xs[stroke]), y: Array(ys[stroke]))) }
        }
        let record = SketchRecord(
            word: batch.word, countryCode: "", timestamp: "", recognized: true, keyID: key, drawing: Drawing(strokes: strokes),
            kind: simplified ? .simplified : .raw)
        let line = scratch.flatPoints ? RecordLine(encoding: record, strokes: scratch.strokes) : RecordLine(encoding: record)
        if let problem = DataName.recordProblem(record) { return .rejected(reason: problem, bytes: line.bytes) }
        return .record(record, line)
    }

    /// The reading side: the archive's arrays, one entry each (`key length` UInt32, key, element
    /// byte (``Element``), rows and columns Int64, the values, all little-endian): an array in a
    /// pickle of the writer's layout as stored (int16 or float64), others as `Double`.
    private final class Arrays: LineBatchReading {
        /// How an entry's values are stored.
        enum Element: UInt8 {
            /// `Double`, from an int16 or int32 array.
            case integerAsDouble = 0
            /// `Double`, from a float64 array.
            case float64 = 1
            /// int16, as the file stores them.
            case int16 = 2
        }

        /// One entry as the worker reads it.
        struct Entry {
            var key: String
            var element: Element
            var rows: Int
            var columns: Int
            /// The values' bytes (valid while the batch is).
            var values: UnsafeRawBufferPointer

            /// The entry of `bytes`, or nil when they are not one.
            init?(_ bytes: UnsafeBufferPointer<UInt8>) {
                let raw = UnsafeRawBufferPointer(bytes)
                guard raw.count >= 4 else { return nil }
                let keyLength = Int(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
                let shapeAt = 4 + keyLength + 1
                guard raw.count >= shapeAt + 16, let element = Element(rawValue: raw[4 + keyLength]) else { return nil }
                rows = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: shapeAt, as: Int64.self)))
                columns = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: shapeAt + 8, as: Int64.self)))
                values = UnsafeRawBufferPointer(rebasing: raw[(shapeAt + 16)...])
                let size = element == .int16 ? 2 : 8
                guard rows >= 0, columns >= 0, values.count % size == 0,
                    rows.multipliedReportingOverflow(by: columns) == (values.count / size, false)
                else { return nil }
                self.element = element
                key = String(decoding: bytes[4..<(4 + keyLength)], as: UTF8.self)
            }

            /// The array with its values as `Double`.
            var array: NumericArray {
                let count = rows * columns
                let values = self.values
                let doubles = [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
                    if element == .int16 {
                        for index in 0..<count {
                            buffer[index] = Double(Int16(littleEndian: values.loadUnaligned(fromByteOffset: 2 * index, as: Int16.self)))
                        }
                    } else {
                        UnsafeMutableRawBufferPointer(buffer).copyMemory(from: values)
                    }
                    initialized = count
                }
                return NumericArray(rows: rows, columns: columns, values: doubles, isFloat64: element == .float64)
            }
        }

        private let path: String
        private let name: String
        private let chunk: Int
        private let hashing: Bool
        private let batchLines: Int
        private let recordLimit: Int?
        private var splits: [(split: Stroke3Split, arrays: Stroke3SplitArrays)]?
        /// The next array: its split's place in `splits` and its index there.
        private var next = (split: 0, index: 0)
        private var read = 0
        private var reservation = BatchByteReservation()
        private var failure: String?
        private var bytes = 0
        private var sha256: String?

        init(_ request: BatchReaderRequest) {
            path = request.path
            name = path.split(separator: "/").last.map(String.init) ?? path
            chunk = request.chunk
            hashing = request.hashing
            batchLines = max(1, request.batchLines)
            recordLimit = request.recordLimit
        }

        var consumedInputBytes: Int { bytes }

        func digest() -> String? { sha256 }

        func nextBatch() -> RawLineBatch? {
            if splits == nil { open() }
            var batch = RawLineBatch(chunk: chunk)
            if let reason = failure {
                failure = nil
                batch.entries.append(.init(lineInChunk: 0, kind: .sourceError(byteOffset: 0, reason: reason), range: 0..<0))
                return batch
            }
            reservation.reserve(&batch)
            while batch.entries.count < batchLines, batch.bytes.count < InputChunkReader.batchByteTarget,
                read < recordLimit ?? Int.max, let splits, next.split < splits.count
            {
                let (split, arrays) = splits[next.split]
                guard next.index < arrays.count else {
                    next = (next.split + 1, 0)
                    continue
                }
                let start = batch.bytes.count
                withUnsafeBytes(of: UInt32(0).littleEndian) { batch.bytes += $0 }
                batch.bytes += name.utf8
                batch.bytes.append(UInt8(ascii: "#"))
                batch.bytes += split.rawValue.utf8
                batch.bytes.append(UInt8(ascii: "#"))
                batch.bytes += String(next.index).utf8
                let keyLength = UInt32(batch.bytes.count - start - 4).littleEndian
                withUnsafeBytes(of: keyLength) { batch.bytes.replaceSubrange(start..<(start + 4), with: $0) }
                switch arrays {
                case .decoded(let decoded):
                    let array = decoded[next.index]
                    append(array.isFloat64 ? .float64 : .integerAsDouble, rows: array.rows, columns: array.columns, to: &batch.bytes)
                    array.values.withUnsafeBytes { batch.bytes += $0 }
                case let .stored(contents, isFloat64, stored):
                    let array = stored[next.index]
                    append(isFloat64 ? .float64 : .int16, rows: array.rows, columns: array.columns, to: &batch.bytes)
                    batch.bytes += contents[array.values]
                }
                next.index += 1
                read += 1
                batch.entries.append(.init(lineInChunk: read, kind: .line, range: start..<batch.bytes.count))
            }
            reservation.filled(batch)
            return batch.entries.isEmpty ? nil : batch
        }

        /// Appends an entry's element byte and shape.
        private func append(_ element: Element, rows: Int, columns: Int, to bytes: inout [UInt8]) {
            bytes.append(element.rawValue)
            withUnsafeBytes(of: Int64(rows).littleEndian) { bytes += $0 }
            withUnsafeBytes(of: Int64(columns).littleEndian) { bytes += $0 }
        }

        /// Reads the archive's arrays (or the failure that stops the file), and the file's
        /// stored size and SHA-256: those of the bytes read, or, when the file could not be read
        /// whole, measured by reading it again.
        private func open() {
            var file: [UInt8]?
            do {
                file = try Stroke3NPZ.readFile(path: path)
                splits = try Stroke3NPZ.decodeSplits(file ?? [], path: path)
            } catch let error as FormatError {
                splits = []
                failure = error.description
            } catch {
                splits = []
                failure = "cannot read \(path): \(error)"
            }
            if let file {
                bytes = file.count
                sha256 = hashing ? SHA256Hasher.hash(file).hexString : nil
            } else {
                (bytes, sha256) = WholeFile.measure(path: path, hashing: hashing)
            }
        }
    }
}

/// Size and checksum of inputs read whole (stroke-3, SVG).
enum WholeFile {
    /// Stored size and (when hashing) SHA-256 of the file at `path`.
    static func measure(path: String, hashing: Bool) -> (Int, String?) {
        guard let source = try? ByteSource(path: path, hashing: hashing) else { return (0, nil) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        while let count = try? source.read(into: buffer), count > 0 {}
        return (source.consumedInputBytes, source.digest())
    }
}
