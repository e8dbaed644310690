import SketchCore
import SketchIO

/// The layout of Google's Quick, Draw! binary files (`<word>.bin`, as the `quickdraw` PyPI
/// package downloads them), all integers little-endian, one record after another:
///
///     key_id uint64, country 2 bytes (ASCII), recognized uint8, timestamp uint32 (Unix seconds),
///     n_strokes uint16, then per stroke: n_points uint16, x uint8[n_points], y uint8[n_points]
///
/// The word is not in the records; it is the file name without `.bin` / `.bin.gz`.
package enum GoogleBinaryFormat {
    /// Bytes before the first stroke.
    static let headerLength = 17
    /// Where a record's country code (2 bytes) lies in its header.
    static let countryOffset = 8
    /// Where a record's `recognized` byte lies in its header.
    static let recognizedOffset = 10
    /// Where a record's timestamp (uint32 seconds) starts in its header.
    static let timestampOffset = 11
    /// Where a record's n_strokes (uint16) starts in its header.
    static let strokeCountOffset = 15

    /// The uint16 at `offset` of `bytes` (little-endian): a record's n_strokes (at
    /// ``strokeCountOffset``) or a stroke's n_points.
    @inline(__always)
    static func uint16<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: Int) -> Int where Bytes.Index == Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    /// Why the record header at `offset` of `bytes` (``headerLength`` bytes) cannot start a
    /// record, nil when it can: the first of n_strokes 0, `recognized` other than 0 or 1, a
    /// country code that is not ASCII. The one header rule that reading a record, its fast path
    /// and format detection share (the stroke limit is the reader's own).
    @inline(__always)
    static func headerProblem<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at offset: Int) -> String?
    where Bytes.Index == Int {
        if uint16(bytes, at: offset + strokeCountOffset) == 0 { return "n_strokes is 0" }
        let recognized = bytes[offset + recognizedOffset]
        if recognized > 1 { return "recognized is \(recognized), not 0 or 1" }
        if bytes[offset + countryOffset] >= 0x80 || bytes[offset + countryOffset + 1] >= 0x80 { return "country code is not ASCII" }
        return nil
    }

    /// The word of a `.bin` file: its base name without `.bin.gz` or `.bin` (any other name as is).
    package static func word(forPath path: String) -> String {
        let suffixes = [".bin.gz", ".bin"]
        let utf8 = path.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
            for suffix in suffixes where name.hasSuffix(suffix) && name.count > suffix.count {
                return String(name.dropLast(suffix.count))
            }
            return name
        }
        // An ASCII path's characters are its bytes (a "\r\n" pair, one character, is neither '/'
        // nor part of a suffix), so the same rule reads its bytes: one pass, no character breaking
        // (which cost 32 K instructions a call, one call per input of a read).
        let name = utf8[(utf8.lastIndex(of: UInt8(ascii: "/")).map(utf8.index(after:)) ?? utf8.startIndex)...]
        for suffix in suffixes where name.count > suffix.utf8.count && name.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) {
            return String(decoding: name.dropLast(suffix.utf8.count), as: UTF8.self)
        }
        return String(decoding: name, as: UTF8.self)
    }

    /// `YYYY-MM-DD HH:MM:SS UTC` for `seconds` since 1970-01-01 UTC (proleptic Gregorian).
    package static func timestampText(seconds: UInt32) -> String {
        let days = Int(seconds / 86_400)
        let secondOfDay = Int(seconds % 86_400)
        // Days to civil date (H. Hinnant's algorithm).
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // uint32 seconds end in 2106: the year has four digits.
        return String(unsafeUninitializedCapacity: 23) { text in
            // Two digits of a value below 100 (every one put here), without overflow checks.
            func put(_ value: Int, at index: Int) {
                let value = UInt8(truncatingIfNeeded: value)
                text[index] = 0x30 &+ value / 10
                text[index &+ 1] = 0x30 &+ value % 10
            }
            put(year / 100, at: 0)
            put(year % 100, at: 2)
            put(month, at: 5)
            put(day, at: 8)
            put(secondOfDay / 3600, at: 11)
            put(secondOfDay / 60 % 60, at: 14)
            put(secondOfDay % 60, at: 17)
            (text[4], text[7], text[10], text[13], text[16]) = (0x2D, 0x2D, 0x20, 0x3A, 0x3A)
            (text[19], text[20], text[21], text[22]) = (0x20, 0x55, 0x54, 0x43)
            return 23
        }
    }

    /// The country written for a record without one (stroke-3, SVG): `ZZ`, the ISO 3166 code for an
    /// unknown country.
    package static let unknownCountry = "ZZ"

    /// Seconds since 1970-01-01 UTC of a Quick, Draw! timestamp `YYYY-MM-DD HH:MM:SS[.fraction] UTC`
    /// (the fraction is dropped), or nil when the text has another form or lies outside uint32.
    package static func seconds(fromTimestamp text: String) -> UInt32? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 23, bytes.suffix(4) == Array(" UTC".utf8) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A, bytes[16] == 0x3A,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        let fraction = bytes[19..<(bytes.count - 4)]
        if !fraction.isEmpty {
            guard fraction.first == 0x2E, fraction.count > 1,
                fraction.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else { return nil }
        }
        // Civil date to days (H. Hinnant's algorithm).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let total = days * 86_400 + hour * 3600 + minute * 60 + second
        guard total >= 0 && total <= Int(UInt32.max) else { return nil }
        return UInt32(total)
    }
}

/// Reads one Google `.bin` file (plain or gzip, or stdin) record by record in constant memory.
///
/// A record that is inconsistent (no strokes, a stroke without points, `recognized` other than
/// 0 or 1, a country byte outside ASCII) or over `DrawingLimits` (strokes, points) is rejected and reading goes on after it, its declared
/// lengths telling where the next record starts; a record cut short by the end of the input is
/// rejected as truncated. A rejection names the record's byte offset and the reason; its
/// quarantined bytes are one JSON line `{"byte_offset":N,"reason":"…","record_hex":"…"}` (hex of
/// at most the first 64 KiB of the record), since binary bytes cannot go into a line file verbatim.
public struct GoogleBinaryReader {
    /// The file (`-` for stdin).
    package let path: String
    /// The word every record gets.
    package let word: String

    /// A reader of `path` whose records belong to `word` (by default the file name's word).
    /// Public for the `Fuzz/` package's harness; the CLI reads `.bin` through `DrawingSource`.
    public init(path: String, word: String? = nil) {
        self.path = path
        self.word = word ?? GoogleBinaryFormat.word(forPath: path)
    }

    /// Reads every record through the one read path (a `DrawingSource` of `.bin`); `onRecord` gets
    /// the record and its 1-based record number. Throws `FormatError` when `path` does not exist
    /// or cannot be opened (after reporting it as a source error).
    public func read(
        onRecord: (SketchRecord, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws {
        let source = try DrawingSource(inputs: [path], format: .bin, word: word, fileSuffixes: [], recursiveFileSuffixes: [])
        try source.read(onRecord: onRecord, onRejected: onRejected, onProgress: onProgress)
    }
}

/// The reading side of `.bin` (`GoogleBinaryInputFormat`): cuts the input into record blocks,
/// one per `next(appendingTo:)`, by the layout's length prefixes (the header's `n_strokes`, each
/// stroke's `n_points`), without decoding them; the engine's workers decode the blocks. The
/// checks that need only the lengths and the header are made here, where the framing is read: a
/// record that is inconsistent (no strokes, a stroke without points, `recognized` other than
/// 0 or 1, a country byte outside ASCII) or over `DrawingLimits` (strokes, points) is rejected and
/// reading goes on after it, its declared lengths telling where the next record starts, so no
/// block handed on is larger than the limits allow. A file that cannot be opened yields one
/// `unopened` item. A read error or a damaged gzip stretch ends the input: the record it cuts
/// short is rejected, and each is then one `sourceError` item, after the records.
package final class GoogleBinaryCursor {
    /// One step of the reading.
    package enum Item {
        /// A record block, appended to the caller's buffer, and its 1-based record number.
        case record(Int)
        /// A rejected record.
        case rejected(RejectedLine)
        /// The input cannot be opened, for this reason.
        case unopened(reason: String)
        /// A damaged or unreadable stretch of the input at a stored byte offset.
        case sourceError(byteOffset: Int, reason: String)
    }

    /// Records hex-quoted in a rejection keep at most this many bytes.
    package static let quarantinedBytesLimit = 1 << 16

    private let path: String
    private let source: ByteSource?
    private var stream: BufferedByteStream?
    private var openFailure: String?
    private var recordNumber = 0
    private var offset = 0
    private var skipped: [UInt8] = []
    private var finished = false
    /// The read error that ended the input, at its stored byte offset.
    private var readError: (byteOffset: Int, reason: String)?
    /// The source errors still to hand out once the records are read (nil before).
    private var pendingSourceErrors: [(byteOffset: Int, reason: String)]?

    /// Opens `path` (`-`: stdin); `hashing` computes the SHA-256 of its stored bytes (``digest()``).
    /// Records the read buffer (`bufferBytes`) holds whole are cut in one step, others field by
    /// field, with the same outcome.
    package init(path: String, hashing: Bool, bufferBytes: Int = 1 << 18) {
        self.path = path
        do {
            let source = try ByteSource(path: path, hashing: hashing)
            self.source = source
            stream = BufferedByteStream(source: source, capacity: bufferBytes)
        } catch {
            source = nil
            openFailure = (error as? IOError)?.reason ?? "\(error)"
        }
    }

    /// Stored bytes consumed so far.
    package var consumedInputBytes: Int { source?.consumedInputBytes ?? 0 }

    /// SHA-256 of the stored bytes (when hashing), after the last record.
    package func digest() -> String? { source?.digest() }

    /// The next record block (appended to `block`) or rejection, then the source errors; nil at
    /// the end of the input.
    package func next(appendingTo block: inout [UInt8]) -> Item? {
        if let reason = openFailure {
            openFailure = nil
            finished = true
            return .unopened(reason: reason)
        }
        guard let source else { return nil }
        if !finished, let item = readRecord(appendingTo: &block) { return item }
        finished = true
        if pendingSourceErrors == nil {
            pendingSourceErrors = source.damage.map { ($0.byteOffset, $0.reason) } + (readError.map { [$0] } ?? [])
        }
        guard let (byteOffset, reason) = pendingSourceErrors?.first else { return nil }
        pendingSourceErrors?.removeFirst()
        return .sourceError(byteOffset: byteOffset, reason: reason)
    }

    /// Reads one record into `block`: its item, or nil at the end of the input. The end of the
    /// data inside a record (truncation, a read error, a damaged gzip stretch) ends the input
    /// (`finished`). A rejected record leaves `block` as it was.
    private func readRecord(appendingTo block: inout [UInt8]) -> Item? {
        if let length = stream?.appendBuffered(to: &block, Self.consistentRecordLength) {
            recordNumber += 1
            offset += length
            return .record(recordNumber)
        }
        let start = offset
        let blockStart = block.count
        var problem: String?
        let got = readOrFail(GoogleBinaryFormat.headerLength, into: &block, cap: nil)
        if got == 0 {
            finished = true
            return nil
        }
        recordNumber += 1
        offset += got
        if got < GoogleBinaryFormat.headerLength {
            finished = true
            return rejection(
                start, cutShortReason(start, "file ends \(got) bytes into the 17-byte record header"), &block, blockStart)
        }
        let strokeCount = GoogleBinaryFormat.uint16(block, at: blockStart + GoogleBinaryFormat.strokeCountOffset)
        problem = GoogleBinaryFormat.headerProblem(block, at: blockStart)
        if strokeCount > DrawingLimits.maximumStrokes {
            problem = problem ?? "\(strokeCount) strokes, over the limit of \(DrawingLimits.maximumStrokes)"
        }
        var pointTotal = 0
        for strokeIndex in 0..<strokeCount {
            // Once refused, a record keeps only its first bytes for the quarantine.
            let cap = problem == nil ? nil : blockStart + Self.quarantinedBytesLimit
            let countAt = block.count
            let countGot = readOrFail(2, into: &block, cap: cap)
            offset += countGot
            if countGot < 2 {
                finished = true
                return rejection(
                    start, cutShortReason(start, "stroke \(strokeIndex + 1) of \(strokeCount): file ends inside n_points"), &block,
                    blockStart)
            }
            let pointCount =
                block.count >= countAt + 2 ? GoogleBinaryFormat.uint16(block, at: countAt) : GoogleBinaryFormat.uint16(skipped, at: 0)
            if pointCount == 0 { problem = problem ?? "stroke \(strokeIndex + 1) has 0 points" }
            pointTotal += pointCount
            if pointTotal > DrawingLimits.maximumPoints {
                problem = problem ?? "more than \(DrawingLimits.maximumPoints) points, the limit per drawing"
            }
            let pointsGot = readOrFail(2 * pointCount, into: &block, cap: problem == nil ? nil : blockStart + Self.quarantinedBytesLimit)
            offset += pointsGot
            if pointsGot < 2 * pointCount {
                finished = true
                return rejection(
                    start,
                    cutShortReason(
                        start,
                        "stroke \(strokeIndex + 1) of \(strokeCount): "
                            + "file ends after \(pointsGot) of \(2 * pointCount) coordinate bytes"), &block, blockStart)
            }
        }
        if let problem {
            return rejection(start, "record at byte offset \(start): inconsistent (\(problem))", &block, blockStart)
        }
        return .record(recordNumber)
    }

    /// The length of the record at the start of `bytes` when `bytes` hold all of it and it passes
    /// every check of ``readRecord(appendingTo:)`` (the records that become `.record` there); nil
    /// otherwise, and that function reads it field by field.
    private static func consistentRecordLength(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= GoogleBinaryFormat.headerLength else { return nil }
        let strokeCount = GoogleBinaryFormat.uint16(bytes, at: GoogleBinaryFormat.strokeCountOffset)
        guard strokeCount <= DrawingLimits.maximumStrokes, GoogleBinaryFormat.headerProblem(bytes, at: 0) == nil else { return nil }
        var end = GoogleBinaryFormat.headerLength
        var pointTotal = 0
        for _ in 0..<strokeCount {
            guard end + 2 <= bytes.count else { return nil }
            let pointCount = GoogleBinaryFormat.uint16(bytes, at: end)
            pointTotal += pointCount
            guard pointCount > 0, pointTotal <= DrawingLimits.maximumPoints else { return nil }
            end += 2 + 2 * pointCount
            guard end <= bytes.count else { return nil }
        }
        return end
    }

    /// Reads `count` bytes onto `block` (beyond `cap`, into scratch and dropped); fewer at the end
    /// of the data. A read error ends the data there and is kept for its source error.
    private func readOrFail(_ count: Int, into block: inout [UInt8], cap: Int?) -> Int {
        do {
            guard let cap else { return try stream!.append(count, to: &block) }
            if skipped.count < count { skipped = [UInt8](repeating: 0, count: count) }
            let got = try stream!.read(into: &skipped, count: count)
            let room = cap - block.count
            if room > 0 { block += skipped[0..<min(room, got)] }
            return got
        } catch {
            readError = (consumedInputBytes, (error as? IOError)?.reason ?? "\(error)")
            return 0
        }
    }

    /// The reason of a record the end of the data cuts short: `truncated (detail)` when the file
    /// ends there, or cut short by the read error or gzip damage reported as a source error.
    private func cutShortReason(_ start: Int, _ detail: String) -> String {
        if readError != nil || source?.stoppedByDamage == true {
            return
                "record at byte offset \(start): cut short by a damaged or unreadable input (\(detail); see the source error that follows)"
        }
        return "record at byte offset \(start): truncated (\(detail))"
    }

    /// The rejection of the record whose bytes start at `blockStart` of `block` (taken off it):
    /// one JSON line `{"byte_offset":N,"reason":"…","record_hex":"…"}` of its first bytes.
    private func rejection(_ offset: Int, _ reason: String, _ block: inout [UInt8], _ blockStart: Int) -> Item {
        var line: [UInt8] = Array(#"{"byte_offset":\#(offset),"reason":"#.utf8)
        SimplifiedNDJSONWriter.appendString(reason, to: &line)
        line += Array(#","record_hex":""#.utf8)
        for byte in block[blockStart..<min(block.count, blockStart + Self.quarantinedBytesLimit)] {
            HexDigits.append(byte, to: &line)
        }
        line += Array("\"}".utf8)
        block.removeSubrange(blockStart...)
        return .rejected(RejectedLine(location: SourceLocation(file: path, line: recordNumber), reason: reason, bytes: line))
    }
}

/// Exact-count reads over a `ByteSource` (which hands out whatever one read holds), through a
/// buffer the stream owns and frees once, when the stream goes away.
final class BufferedByteStream {
    private let source: ByteSource
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0

    init(source: ByteSource, capacity: Int = 1 << 18) {
        self.source = source
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Hands the buffered bytes not yet consumed to `measure`; when it returns a length, appends
    /// that many of them to `target`, consumes them and returns the length. Reads nothing from the source.
    func appendBuffered(to target: inout [UInt8], _ measure: (UnsafeRawBufferPointer) -> Int?) -> Int? {
        let available = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
        guard let length = measure(available), length <= available.count else { return nil }
        target.append(contentsOf: UnsafeRawBufferPointer(rebasing: available[0..<length]))
        start += length
        return length
    }

    /// Appends up to `count` bytes to `target`; fewer only at the end of the input. Throws the
    /// source's read error.
    func append(_ count: Int, to target: inout [UInt8]) throws -> Int {
        try consume(count) { piece, _ in target.append(contentsOf: piece) }
    }

    /// Copies up to `count` bytes into `target[0..<count]`; fewer only at the end of the input.
    /// Throws the source's read error.
    func read(into target: inout [UInt8], count: Int) throws -> Int {
        try consume(count) { piece, filled in
            target.withUnsafeMutableBytes { raw in (raw.baseAddress! + filled).copyMemory(from: piece.baseAddress!, byteCount: piece.count)
            }
        }
    }

    /// Hands up to `count` bytes to `take` piece by piece (each with the count handed before it),
    /// refilling the buffer from the source as it empties; fewer only at the end of the input.
    private func consume(_ count: Int, _ take: (UnsafeRawBufferPointer, Int) -> Void) throws -> Int {
        var filled = 0
        while filled < count {
            if start == end {
                start = 0
                end = try source.read(into: buffer)
                if end == 0 { break }
            }
            let length = min(count - filled, end - start)
            take(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + length)]), filled)
            start += length
            filled += length
        }
        return filled
    }
}

/// Writes records in Google's `.bin` layout (see `GoogleBinaryFormat`) through an
/// `AtomicFileWriter`. A record the layout cannot hold is refused with `FormatError`
/// (the caller quarantines it): a key_id that is not a decimal UInt64, a country code that is not
/// 2 ASCII bytes, a timestamp not of the form `YYYY-MM-DD HH:MM:SS[.f] UTC` within uint32
/// seconds (an empty country is written as `unknownCountry`, an empty timestamp as 0), coordinates that are not integers in 0…255, more than 65,535 strokes or points per stroke.
package final class GoogleBinaryWriter {

    private let file: AtomicFileWriter
    private var bytes: [UInt8] = []
    /// Records written so far.
    package private(set) var count = 0

    /// Opens `path` for writing (atomically).
    package init(path: String) throws { file = try AtomicFileWriter(path: path) }

    /// The `.bin` bytes of `record`, or a refusal.
    package static func encode(_ record: SketchRecord, into bytes: inout [UInt8]) throws(FormatError) {
        guard let keyID = UInt64(record.keyID) else { throw FormatError(.binaryLayout, "key_id \(record.keyID) does not fit a uint64") }
        // A record that has no country or time (stroke-3, SVG) gets "ZZ" (unknown) and 0 (1970).
        let country = record.countryCode.isEmpty ? Array(GoogleBinaryFormat.unknownCountry.utf8) : Array(record.countryCode.utf8)
        guard country.count == 2, country.allSatisfy({ $0 < 0x80 }) else {
            throw FormatError(.binaryLayout, "country code \"\(record.countryCode)\" is not 2 ASCII bytes")
        }
        guard let seconds = record.timestamp.isEmpty ? 0 : GoogleBinaryFormat.seconds(fromTimestamp: record.timestamp) else {
            throw FormatError(.binaryLayout, "timestamp \"\(record.timestamp)\" is not YYYY-MM-DD HH:MM:SS UTC within uint32 seconds")
        }
        let strokes = record.drawing.strokes
        guard !strokes.isEmpty, strokes.count <= 65_535 else { throw FormatError(.binaryLayout, "\(strokes.count) strokes (1…65535 fit)") }
        withUnsafeBytes(of: keyID.littleEndian) { bytes += $0 }
        bytes += country
        bytes.append(record.recognized ? 1 : 0)
        withUnsafeBytes(of: seconds.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: UInt16(strokes.count).littleEndian) { bytes += $0 }
        for (index, stroke) in strokes.enumerated() {
            guard stroke.count >= 1, stroke.count <= 65_535 else {
                throw FormatError(.binaryLayout, "stroke \(index + 1) has \(stroke.count) points (1…65535 fit)")
            }
            withUnsafeBytes(of: UInt16(stroke.count).littleEndian) { bytes += $0 }
            for values in [stroke.x, stroke.y] {
                for value in values {
                    guard value >= 0, value <= 255, value == value.rounded() else {
                        throw FormatError(.binaryLayout, "stroke \(index + 1): coordinate \(value) is not an integer in 0…255")
                    }
                    bytes.append(UInt8(value))
                }
            }
        }
    }

    /// Appends `record`, or throws a `FormatError` of kind `binaryLayout` (nothing written) when the layout cannot hold it.
    package func write(_ record: SketchRecord) throws {
        bytes.removeAll(keepingCapacity: true)
        try Self.encode(record, into: &bytes)
        try file.write(bytes)
        count += 1
    }

    /// Flushes and moves the file into place.
    package func commit() throws { try file.commit() }
}
