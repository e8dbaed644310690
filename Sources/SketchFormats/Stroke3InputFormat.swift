import SketchCore
import SketchIO

/// sketch-rnn stroke-3 `.npz` (`Stroke3NPZ`): the reading thread opens the archive (read whole,
/// at most `Stroke3NPZ.maximumFileSize`) and cuts it into one entry per array, the splits in the
/// zip's entry order; each array becomes its record on a worker. Drawings are taken as they are.
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

    package static func word(ofFile file: String, given: String?) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return given ?? (name.hasSuffix(".npz") ? String(name.dropLast(4)) : name)
    }

    package static func batchReader(_ request: BatchReaderRequest) -> any LineBatchReading { Arrays(request) }

    /// The record of one array entry (``Arrays``: key, element type, shape, values). An array that
    /// is not `(n, 3)` of finite values whose positions stay within the coordinate bound, or a
    /// drawing over `DrawingLimits`, is rejected with its key as the quarantined bytes.
    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, in batch: RawLineBatch, with scratch: inout RecordDecodingScratch
    ) -> PluginDecoding {
        guard let (key, array) = Arrays.entry(bytes) else { return .rejected(reason: "stroke-3 entry is damaged", bytes: nil) }
        guard let drawing = Stroke3.drawing(of: array) else {
            return .rejected(
                reason:
                    "\(key): coordinate out of range or not a stroke-3 array: a drawing is a non-empty (n, 3) array of finite values whose positions stay within ±\(DrawingLimits.maximumCoordinateMagnitude)",
                bytes: Array(key.utf8))
        }
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

    /// The reading side: the archive's arrays, one entry each (`key length` UInt32, key,
    /// `isFloat64` byte, rows and columns Int64, the values as Double, all little-endian).
    private final class Arrays: LineBatchReading {
        private let path: String
        private let chunk: Int
        private let hashing: Bool
        private let batchLines: Int
        private let recordLimit: Int?
        private var items: [(key: String, array: NumericArray)]?
        private var next = 0
        private var failure: String?
        private var bytes = 0
        private var sha256: String?

        init(_ request: BatchReaderRequest) {
            path = request.path
            chunk = request.chunk
            hashing = request.hashing
            batchLines = max(1, request.batchLines)
            recordLimit = request.recordLimit
        }

        var consumedInputBytes: Int { bytes }

        func digest() -> String? { sha256 }

        func nextBatch() -> RawLineBatch? {
            if items == nil { open() }
            var batch = RawLineBatch(chunk: chunk)
            if let reason = failure {
                failure = nil
                batch.entries.append(.init(lineInChunk: 0, kind: .sourceError(byteOffset: 0, reason: reason), range: 0..<0))
                return batch
            }
            while batch.entries.count < batchLines, batch.bytes.count < InputChunkReader.batchByteTarget,
                next < min(items?.count ?? 0, recordLimit ?? Int.max), let (key, array) = items?[next]
            {
                next += 1
                let start = batch.bytes.count
                withUnsafeBytes(of: UInt32(key.utf8.count).littleEndian) { batch.bytes += $0 }
                batch.bytes += key.utf8
                batch.bytes.append(array.isFloat64 ? 1 : 0)
                withUnsafeBytes(of: Int64(array.rows).littleEndian) { batch.bytes += $0 }
                withUnsafeBytes(of: Int64(array.columns).littleEndian) { batch.bytes += $0 }
                array.values.withUnsafeBytes { batch.bytes += $0 }
                batch.entries.append(.init(lineInChunk: next, kind: .line, range: start..<batch.bytes.count))
            }
            return batch.entries.isEmpty ? nil : batch
        }

        /// An entry's key and array, or nil when the bytes are not one.
        static func entry(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, NumericArray)? {
            let raw = UnsafeRawBufferPointer(bytes)
            guard raw.count >= 4 else { return nil }
            let keyLength = Int(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let shapeAt = 4 + keyLength + 1
            guard raw.count >= shapeAt + 16 else { return nil }
            let rows = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: shapeAt, as: Int64.self)))
            let columns = Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: shapeAt + 8, as: Int64.self)))
            let values = raw[(shapeAt + 16)...]
            guard rows >= 0, columns >= 0, values.count % 8 == 0, rows.multipliedReportingOverflow(by: columns) == (values.count / 8, false)
            else { return nil }
            let doubles = [Double](unsafeUninitializedCapacity: values.count / 8) { buffer, count in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: values))
                count = values.count / 8
            }
            let key = String(decoding: bytes[4..<(4 + keyLength)], as: UTF8.self)
            return (key, NumericArray(rows: rows, columns: columns, values: doubles, isFloat64: bytes[4 + keyLength] == 1))
        }

        /// Reads the archive's arrays (or the failure that stops the file), then the file's
        /// stored size and SHA-256.
        private func open() {
            items = []
            let name = path.split(separator: "/").last.map(String.init) ?? path
            do {
                for (split, arrays) in try Stroke3NPZ.read(path: path) {
                    for (index, array) in arrays.enumerated() { items?.append(("\(name)#\(split.rawValue)#\(index)", array)) }
                }
            } catch let error as FormatError {
                items = []
                failure = error.description
            } catch {
                items = []
                failure = "cannot read \(path): \(error)"
            }
            (bytes, sha256) = WholeFile.measure(path: path, hashing: hashing)
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
