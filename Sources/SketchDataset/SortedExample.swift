import Foundation
import SketchFormats

/// The element type of an example's body (``SortedExample/element``).
package enum BodyElement: UInt8, Sendable, CaseIterable {
    case float32 = 1
    case uint8 = 2
    case float64 = 3
    case int16 = 4

    /// The NPY element type of the same values.
    package var dtype: NPYDType {
        switch self {
        case .float32: return .float32
        case .uint8: return .uint8
        case .float64: return .float64
        case .int16: return .int16
        }
    }
}

/// One example on its way to the dataset: its final, label-free output bytes (``body``, made on
/// the map side by ``ExampleBody``) and everything that decides where it goes.
///
/// Examples are ordered by ``sortKey`` (a seeded hash of the key_id, see ``SortKey``), then by
/// key_id bytes, then by input chunk and position in the chunk: an order that depends on nothing
/// but the data, so the same examples give the same shards however they arrived.
package struct SortedExample: Sendable, Equatable {
    /// ``SortKey/of(keyID:seed:)``.
    package var sortKey: UInt64
    /// The example's id: a drawing's key_id, an image's path relative to its class directory.
    package var keyID: String
    /// Index of the input chunk it came from (tie-break for repeated key_ids).
    package var chunk: UInt32
    /// Position of the record in its chunk (tie-break for repeated key_ids).
    package var ordinal: UInt64
    /// Class word (the class index is known only when every class has been seen).
    package var word: String
    /// The example's split: its source's own (image split directories, stroke-3 files) or the
    /// split rule's (``DatasetSplit``), resolved on the map side.
    package var split: SplitName
    /// Element type and shape of the values the body holds.
    package var element: BodyElement
    package var shape: [Int]
    /// ``ExampleBody/Flags`` (e.g. the body holds PNG image features).
    package var flags: UInt8
    /// The output bytes of the example without its label (``ExampleBody``).
    package var body: [UInt8]
    /// CRC-32C of ``body`` (the reduce side frames TFRecords with ``CRC32C/combine(_:_:lengthB:)``).
    package var bodyCRC: UInt32

    package init(
        sortKey: UInt64, keyID: String, chunk: UInt32, ordinal: UInt64, word: String, split: SplitName,
        body: ExampleBody
    ) {
        self.sortKey = sortKey
        self.keyID = keyID
        self.chunk = chunk
        self.ordinal = ordinal
        self.word = word
        self.split = split
        element = body.element
        shape = body.shape
        flags = body.flags
        self.body = body.bytes
        bodyCRC = CRC32C.checksum(body.bytes)
    }

    /// The dataset order.
    package static func precedes(_ a: SortedExample, _ b: SortedExample) -> Bool {
        if a.sortKey != b.sortKey { return a.sortKey < b.sortKey }
        if a.keyID != b.keyID { return a.keyID.utf8.lexicographicallyPrecedes(b.keyID.utf8) }
        if a.chunk != b.chunk { return a.chunk < b.chunk }
        return a.ordinal < b.ordinal
    }
}

/// The order of a dataset: `SplitMix64` finalizer of `FNV1a64(key_id) ^ seed`.
///
/// Hashing spreads every class over the whole dataset (a shuffle that needs no memory), and the
/// seed gives another order without changing which split a drawing is in (the split uses
/// `FNV1a64(key_id)` alone, ``DatasetSplit``), so one key_id is in the same split in every
/// dataset built from the same drawings.
package enum SortKey {
    package static func of(keyID: String, seed: UInt64) -> UInt64 {
        var generator = SplitMix64(seed: FNV1a64.hash(keyID) ^ seed)
        return generator.next()
    }

    /// Buckets of the sort-key space the map side counts examples in (``bucket(of:)``): the reduce
    /// side finds every reducer's offsets and shard range from these counts alone.
    package static let bucketCount = 1024

    /// The bucket of `sortKey`: its top 10 bits, so buckets follow the dataset order.
    package static func bucket(of sortKey: UInt64) -> Int { Int(sortKey >> 54) }

    /// The sort keys of buckets `range`.
    package static func keys(ofBuckets range: ClosedRange<Int>) -> ClosedRange<UInt64> {
        (UInt64(range.lowerBound) << 54)...(UInt64(range.upperBound) << 54 | ((1 << 54) - 1))
    }
}

extension SortedExample {
    /// Bytes of a record's fixed part (after its length): sort key, chunk, ordinal, split, element,
    /// flags, rank, body CRC, key_id and word lengths.
    static let fixedBytes = 36

    /// Appends the run-file record: `u32 length` of the rest, then the fixed part, the shape
    /// (`u32` per dimension), the key_id, the word and the body (little-endian throughout).
    package func serialize(into out: inout [UInt8]) {
        let length = Self.fixedBytes + 4 * shape.count + keyID.utf8.count + word.utf8.count + body.count
        out.appendLE(UInt32(length))
        out.appendLE(sortKey)
        out.appendLE(chunk)
        out.appendLE(ordinal)
        out.append(UInt8(SplitName.allCases.firstIndex(of: split)!))
        out.append(element.rawValue)
        out.append(flags)
        out.append(UInt8(shape.count))
        out.appendLE(bodyCRC)
        out.appendLE(UInt32(keyID.utf8.count))
        out.appendLE(UInt32(word.utf8.count))
        for dimension in shape { out.appendLE(UInt32(dimension)) }
        out.append(contentsOf: keyID.utf8)
        out.append(contentsOf: word.utf8)
        out.append(contentsOf: body)
    }

    /// Longest key_id or word a run file may hold (a key_id comes from one input line).
    package static let maximumStringBytes = 1 << 20
    /// Most dimensions of an example's shape.
    package static let maximumRank = 8
    /// Largest body of one example: 256 MiB (a 4096² float32 raster is 64 MiB).
    package static let maximumBodyBytes = 1 << 28
}

/// One record of a run file, read in place: its fields point into the block buffer that holds
/// it (valid until the reader moves to another block), so the reduce side reads and copies
/// examples without allocating.
package struct RunRecord {
    package let sortKey: UInt64
    package let chunk: UInt32
    package let ordinal: UInt64
    /// The split's index in `SplitName.allCases` (train 0, val 1, test 2).
    package let splitIndex: Int
    package let element: BodyElement
    package let flags: UInt8
    package let bodyCRC: UInt32
    package let shapeBytes: UnsafeRawBufferPointer
    package let keyID: UnsafeRawBufferPointer
    package let word: UnsafeRawBufferPointer
    package let body: UnsafeRawBufferPointer

    /// Dimension `index` of the shape.
    package func dimension(_ index: Int) -> Int {
        Int(UInt32(littleEndian: shapeBytes.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)))
    }

    package var rank: Int { shapeBytes.count / 4 }

    /// The example's split.
    package var split: SplitName {
        switch splitIndex {
        case 0: return .train
        case 1: return .val
        default: return .test
        }
    }

    /// The shape as an array (allocates; for checks and messages, not per record).
    package var shape: [Int] { (0..<rank).map(dimension) }

    package var keyIDString: String { String(decoding: keyID, as: UTF8.self) }
    package var wordString: String { String(decoding: word, as: UTF8.self) }

    /// The dataset order (``SortedExample/precedes(_:_:)``).
    package static func precedes(_ a: RunRecord, _ b: RunRecord) -> Bool {
        if a.sortKey != b.sortKey { return a.sortKey < b.sortKey }
        let order = compareBytes(a.keyID, b.keyID)
        if order != 0 { return order < 0 }
        if a.chunk != b.chunk { return a.chunk < b.chunk }
        return a.ordinal < b.ordinal
    }

    /// memcmp order of two byte strings, shorter first on a common prefix.
    package static func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    /// The record at `offset` of `block` (a run-file block's records), advancing `offset`. Every
    /// length is checked against the block: a record must end inside it, its key_id and word
    /// within ``SortedExample/maximumStringBytes``, its rank within ``SortedExample/maximumRank``,
    /// its codes known; anything else throws `DatasetError` naming the field.
    package static func parse(_ block: UnsafeRawBufferPointer, offset: inout Int) throws(DatasetError) -> RunRecord {
        func bad(_ field: String, _ detail: String) -> DatasetError {
            DatasetError(.runFile, "record at block byte \(offset): \(field) \(detail)")
        }
        func u32(_ at: Int) -> Int { Int(UInt32(littleEndian: block.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
        guard block.count - offset >= 4 else { throw bad("length", "is cut off by the end of the block") }
        let length = u32(offset)
        let start = offset + 4
        guard length >= SortedExample.fixedBytes, length <= block.count - start else {
            throw bad("length", "\(length) does not fit the block's \(block.count - start) remaining bytes")
        }
        let end = start + length
        let splitCode = Int(block[start + 20])
        guard splitCode < SplitName.allCases.count else { throw bad("split code", "\(splitCode) is not 0…\(SplitName.allCases.count - 1)") }
        guard let element = BodyElement(rawValue: block[start + 21]) else { throw bad("element code", "\(block[start + 21]) is not 1…4") }
        let rank = Int(block[start + 23])
        guard rank <= SortedExample.maximumRank else { throw bad("rank", "\(rank) is over \(SortedExample.maximumRank)") }
        let keyLength = u32(start + 28)
        let wordLength = u32(start + 32)
        guard keyLength <= SortedExample.maximumStringBytes else {
            throw bad("key_id length", "\(keyLength) is over \(SortedExample.maximumStringBytes)")
        }
        guard wordLength <= SortedExample.maximumStringBytes else {
            throw bad("word length", "\(wordLength) is over \(SortedExample.maximumStringBytes)")
        }
        let shapeStart = start + SortedExample.fixedBytes
        let keyStart = shapeStart + 4 * rank
        let wordStart = keyStart + keyLength
        let bodyStart = wordStart + wordLength
        guard bodyStart <= end else {
            throw bad("key_id and word lengths", "\(keyLength) + \(wordLength) run past the record's \(length) bytes")
        }
        let record = RunRecord(
            sortKey: UInt64(littleEndian: block.loadUnaligned(fromByteOffset: start, as: UInt64.self)),
            chunk: UInt32(littleEndian: block.loadUnaligned(fromByteOffset: start + 8, as: UInt32.self)),
            ordinal: UInt64(littleEndian: block.loadUnaligned(fromByteOffset: start + 12, as: UInt64.self)),
            splitIndex: splitCode, element: element, flags: block[start + 22],
            bodyCRC: UInt32(littleEndian: block.loadUnaligned(fromByteOffset: start + 24, as: UInt32.self)),
            shapeBytes: UnsafeRawBufferPointer(rebasing: block[shapeStart..<keyStart]),
            keyID: UnsafeRawBufferPointer(rebasing: block[keyStart..<wordStart]),
            word: UnsafeRawBufferPointer(rebasing: block[wordStart..<bodyStart]),
            body: UnsafeRawBufferPointer(rebasing: block[bodyStart..<end]))
        offset = end
        return record
    }
}

extension [UInt8] {
    mutating func appendLE<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
