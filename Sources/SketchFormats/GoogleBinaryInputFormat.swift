import SketchCore

/// Google's binary `.bin` layout (`GoogleBinaryFormat`; plain or gzip): the reading thread cuts
/// record blocks by their length prefixes (`GoogleBinaryCursor`, which also rejects the records
/// whose framing or header is inconsistent); each block is decoded on a worker. Its drawings are
/// Google's simplified ones; the word is the file name's (`GoogleBinaryFormat.word(forPath:)`)
/// unless `--word` names one.
package enum GoogleBinaryInputFormat: InputFormatPlugin {
    package static let format = DrawingFileFormat.bin
    package static let fileSuffixes = [".bin", ".bin.gz"]
    package static let drawings = DrawingsDeclaration.alwaysSimplified

    /// The first records (up to 4) are structurally consistent: at least one stroke, `recognized`
    /// 0 or 1, an ASCII country, every stroke with at least one point, and at least one complete
    /// record (or the sniffed bytes end inside the first).
    package static func detects(_ bytes: [UInt8]) -> Bool { answer(bytes, isWholeSniff: true) ?? false }

    /// Decided by an inconsistency in `prefix`, or by four complete consistent records in it.
    package static func decides(prefix: [UInt8]) -> Bool? { answer(prefix, isWholeSniff: false) }

    /// The rule of ``detects(_:)`` on `bytes`; when they are not the whole sniff, nil where the
    /// answer depends on the bytes after them.
    private static func answer(_ bytes: [UInt8], isWholeSniff: Bool) -> Bool? {
        var offset = 0
        var complete = 0
        while complete < 4 {
            guard offset + GoogleBinaryFormat.headerLength <= bytes.count else { break }
            if GoogleBinaryFormat.headerProblem(bytes, at: offset) != nil { return false }
            let strokes = GoogleBinaryFormat.uint16(bytes, at: offset + GoogleBinaryFormat.strokeCountOffset)
            offset += GoogleBinaryFormat.headerLength
            for _ in 0..<strokes {
                guard offset + 2 <= bytes.count else { return endedInside(bytes, complete: complete, isWholeSniff: isWholeSniff) }
                let points = GoogleBinaryFormat.uint16(bytes, at: offset)
                if points == 0 { return false }
                offset += 2 + 2 * points
                if offset > bytes.count { return endedInside(bytes, complete: complete, isWholeSniff: isWholeSniff) }
            }
            complete += 1
            if offset == bytes.count { break }
        }
        return complete == 4 ? true : isWholeSniff ? complete > 0 : nil
    }

    /// The answer when `bytes` end inside a record after `complete` whole ones.
    private static func endedInside(_ bytes: [UInt8], complete: Int, isWholeSniff: Bool) -> Bool? {
        isWholeSniff ? bytes.count >= DrawingFileFormat.sniffLength && complete == 0 : nil
    }

    package static func word(ofFile file: String, given: String?) -> String { given ?? GoogleBinaryFormat.word(forPath: file) }

    package static func batchReader(_ request: BatchReaderRequest) -> any LineBatchReading { RecordBlocks(request) }

    /// The record of one block (header and strokes, whole and consistent as the cursor cut it):
    /// the batch's word, the key_id's decimal text, the country's two bytes, the timestamp as
    /// `YYYY-MM-DD HH:MM:SS UTC`. A word, key_id, country or timestamp that `DataName` refuses
    /// rejects the record with its NDJSON line, as for an NDJSON record. The record's quarantine
    /// form is the block itself, made into that line only when asked (``record(ofBlock:word:)``).
    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, in batch: RawLineBatch, with scratch: inout RecordDecodingScratch
    ) -> PluginDecoding {
        guard bytes.count >= GoogleBinaryFormat.headerLength else {
            return .rejected(reason: "record block shorter than its header", bytes: nil)
        }
        guard let totalPoints = pointCount(ofBlock: bytes) else {
            return .rejected(reason: "record block shorter than its strokes", bytes: nil)
        }
        var strokes: [Stroke] = []
        if scratch.flatPoints {
            scratch.strokes.removeAll()
            let strokeCount = GoogleBinaryFormat.uint16(bytes, at: GoogleBinaryFormat.strokeCountOffset)
            withUnsafeTemporaryAllocation(of: Int.self, capacity: strokeCount) { ends in
                var stroke = 0
                scratch.strokes.appendPoints(count: totalPoints) { xs, ys in
                    var point = 0
                    forEachStroke(ofBlock: bytes) { x, y in
                        let xOut = UnsafeMutableBufferPointer(rebasing: xs[point..<(point + x.count)])
                        let yOut = UnsafeMutableBufferPointer(rebasing: ys[point..<(point + x.count)])
                        for index in 0..<x.count {
                            xOut[index] = Double(x[index])
                            yOut[index] = Double(y[index])
                        }
                        point += x.count
                        ends[stroke] = point
                        stroke += 1
                    }
                }
                scratch.strokes.endStrokes(at: UnsafeBufferPointer(rebasing: ends[..<stroke]))
            }
        } else {
            strokes = Self.strokes(ofBlock: bytes)
        }
        let record = record(ofBlock: bytes, word: batch.word, strokes: strokes)
        let line = RecordLine(binaryBlock: bytes, word: batch.word)
        if let problem = DataName.recordProblem(record) { return .rejected(reason: problem, bytes: line.bytes) }
        return .record(record, line)
    }

    /// The record of a block that ``decode(_:in:with:)`` decodes, with its strokes (the record its
    /// NDJSON line holds).
    package static func record(ofBlock bytes: UnsafeBufferPointer<UInt8>, word: String) -> SketchRecord {
        record(ofBlock: bytes, word: word, strokes: strokes(ofBlock: bytes))
    }

    private static func record(ofBlock bytes: UnsafeBufferPointer<UInt8>, word: String, strokes: [Stroke]) -> SketchRecord {
        let raw = UnsafeRawBufferPointer(bytes)
        let keyID = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let seconds = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: GoogleBinaryFormat.timestampOffset, as: UInt32.self))
        let country = GoogleBinaryFormat.countryOffset
        return SketchRecord(
            word: word, countryCode: String(decoding: bytes[country..<country + 2], as: UTF8.self),
            timestamp: GoogleBinaryFormat.timestampText(seconds: seconds), recognized: bytes[GoogleBinaryFormat.recognizedOffset] == 1,
            keyID: decimalText(keyID), drawing: Drawing(strokes: strokes), kind: .simplified)
    }

    /// `String(value)`, written digit by digit from the last: the standard library's conversion
    /// goes through its radix formatter, about 500 instructions a key_id (3.6 % of a `.bin` read).
    static func decimalText(_ value: UInt64) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var start = digits.count
            repeat {
                start &-= 1
                digits[start] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            } while rest != 0
            return String(decoding: UnsafeBufferPointer(rebasing: digits[start...]), as: UTF8.self)
        }
    }

    /// The points of the strokes of a block with its whole header, or nil when it ends inside a stroke.
    private static func pointCount(ofBlock bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var total = 0
        var offset = GoogleBinaryFormat.headerLength
        for _ in 0..<GoogleBinaryFormat.uint16(bytes, at: GoogleBinaryFormat.strokeCountOffset) {
            guard offset + 2 <= bytes.count else { return nil }
            let points = GoogleBinaryFormat.uint16(bytes, at: offset)
            offset += 2 + 2 * points
            guard offset <= bytes.count else { return nil }
            total += points
        }
        return total
    }

    /// Each stroke's x and y bytes in turn, in a block whose lengths ``pointCount(ofBlock:)`` checked:
    /// per stroke, a u16 point count, then its x bytes, then its y bytes.
    @inline(__always)
    private static func forEachStroke(
        ofBlock bytes: UnsafeBufferPointer<UInt8>, _ body: (_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var offset = GoogleBinaryFormat.headerLength
        for _ in 0..<GoogleBinaryFormat.uint16(bytes, at: GoogleBinaryFormat.strokeCountOffset) {
            let points = GoogleBinaryFormat.uint16(bytes, at: offset)
            body(
                UnsafeBufferPointer(rebasing: bytes[(offset + 2)..<(offset + 2 + points)]),
                UnsafeBufferPointer(rebasing: bytes[(offset + 2 + points)..<(offset + 2 + 2 * points)]))
            offset += 2 + 2 * points
        }
    }

    /// A checked block's strokes as `Stroke`s.
    private static func strokes(ofBlock bytes: UnsafeBufferPointer<UInt8>) -> [Stroke] {
        var strokes: [Stroke] = []
        strokes.reserveCapacity(GoogleBinaryFormat.uint16(bytes, at: GoogleBinaryFormat.strokeCountOffset))
        forEachStroke(ofBlock: bytes) { x, y in strokes.append(Stroke(x: x.map { Double($0) }, y: y.map { Double($0) })) }
        return strokes
    }

    /// The reading side: batches of record blocks (`GoogleBinaryCursor`), always the whole input.
    private final class RecordBlocks: LineBatchReading {
        private let cursor: GoogleBinaryCursor
        private let chunk: Int
        private let batchLines: Int
        private let recordLimit: Int?
        private var records = 0
        private var reservation = BatchByteReservation()

        init(_ request: BatchReaderRequest) {
            cursor = GoogleBinaryCursor(path: request.path, hashing: request.hashing)
            chunk = request.chunk
            batchLines = max(1, request.batchLines)
            recordLimit = request.recordLimit
        }

        var consumedInputBytes: Int { cursor.consumedInputBytes }

        func digest() -> String? { cursor.digest() }

        func nextBatch() -> RawLineBatch? {
            var batch = RawLineBatch(chunk: chunk)
            reservation.reserve(&batch)
            while batch.entries.count < batchLines, batch.bytes.count < InputChunkReader.batchByteTarget,
                records < recordLimit ?? Int.max
            {
                let start = batch.bytes.count
                guard let item = cursor.next(appendingTo: &batch.bytes) else { break }
                switch item {
                case .record(let number):
                    records += 1
                    batch.entries.append(.init(lineInChunk: number, kind: .line, range: start..<batch.bytes.count))
                case .rejected(let rejected):
                    records += 1
                    batch.bytes += rejected.bytes
                    batch.entries.append(
                        .init(lineInChunk: rejected.location.line, kind: .failed(rejected.reason), range: start..<batch.bytes.count))
                case .unopened(let reason):
                    batch.entries.append(.init(lineInChunk: 0, kind: .unopened(reason: reason), range: start..<start))
                case let .sourceError(byteOffset, reason):
                    batch.entries.append(
                        .init(lineInChunk: 0, kind: .sourceError(byteOffset: byteOffset, reason: reason), range: start..<start))
                }
            }
            reservation.filled(batch)
            return batch.entries.isEmpty ? nil : batch
        }
    }
}
