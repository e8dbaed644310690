import SketchFormats

/// One encoded example on its way to the shards, with everything that decides where it goes.
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
    /// The split the source assigns itself (image split directories); nil: by key_id hash.
    package var split: SplitName?
    /// The features.
    package var payload: TensorPayload
    /// The record's other fields (carried to WebDataset's `.json`).
    package var facts: RecordFacts

    package init(sortKey: UInt64, keyID: String, chunk: UInt32, ordinal: UInt64, word: String, split: SplitName?, payload: TensorPayload,
                 facts: RecordFacts = RecordFacts()) {
        self.sortKey = sortKey
        self.keyID = keyID
        self.chunk = chunk
        self.ordinal = ordinal
        self.word = word
        self.split = split
        self.payload = payload
        self.facts = facts
    }

    /// The dataset order.
    package static func precedes(_ a: SortedExample, _ b: SortedExample) -> Bool {
        if a.sortKey != b.sortKey { return a.sortKey < b.sortKey }
        if a.keyID != b.keyID { return a.keyID.utf8.lexicographicallyPrecedes(b.keyID.utf8) }
        if a.chunk != b.chunk { return a.chunk < b.chunk }
        return a.ordinal < b.ordinal
    }

    /// Approximate memory held by the example (for spill budgets).
    package var footprint: Int {
        return 96 + keyID.utf8.count + word.utf8.count + facts.countryCode.utf8.count + facts.timestamp.utf8.count
            + payload.count * payload.dtype.size
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
}

extension SortedExample {
    /// Appends the binary form used in run files (little-endian, length-prefixed strings).
    package func serialize(into out: inout [UInt8]) {
        out.appendLE(sortKey)
        out.appendString(keyID)
        out.appendLE(chunk)
        out.appendLE(ordinal)
        out.appendString(word)
        out.appendString(facts.countryCode)
        out.append(facts.recognized ? 1 : 0)
        out.appendString(facts.timestamp)
        out.append(split.map { UInt8(SplitName.allCases.firstIndex(of: $0)! + 1) } ?? 0)
        let shape = payload.shape
        out.append(UInt8(shape.count))
        for dimension in shape { out.appendLE(UInt32(dimension)) }
        switch payload {
        case let .float32(values, _):
            out.append(1)
            out.appendLE(UInt32(values.count))
            values.withUnsafeBytes { out.append(contentsOf: $0) }
        case let .uint8(values, _):
            out.append(2)
            out.appendLE(UInt32(values.count))
            out.append(contentsOf: values)
        case let .float64(values, _):
            out.append(3)
            out.appendLE(UInt32(values.count))
            values.withUnsafeBytes { out.append(contentsOf: $0) }
        }
    }

    /// Longest key_id or word a run file may hold (a key_id comes from one input line).
    package static let maximumStringBytes = 1 << 20
    /// Most dimensions of an example's shape.
    package static let maximumRank = 8
    /// Most values of one example (a 100,000 × 3 stroke tensor, a 4096² raster fit).
    package static let maximumValues = 1 << 25

    /// Reads one example written by ``serialize(into:)`` at `offset`, advancing it; nil when the
    /// bytes end before the example does (each length is checked as soon as it is read, so a
    /// reader never buffers more than one capped example to find out). Run files are read back as untrusted: every length,
    /// code and shape is checked against the framing, and one that cannot be right throws
    /// `DatasetError` naming the field (a string over ``maximumStringBytes``, a rank over
    /// ``maximumRank``, a value count over ``maximumValues`` or other than the shape's product,
    /// an unknown split or payload code).
    package static func deserialize(_ bytes: UnsafeRawBufferPointer, offset: inout Int) throws(DatasetError) -> SortedExample? {
        var reader = ByteReader(bytes: bytes, offset: offset)
        func bad(_ field: String, _ detail: String) -> DatasetError { DatasetError("example at byte \(offset): \(field) \(detail)") }
        func string(_ field: String) throws(DatasetError) -> String?? {
            guard let length: UInt32 = reader.le() else { return .some(nil) }
            guard Int(length) <= maximumStringBytes else { throw bad("\(field) length", "\(length) is over \(maximumStringBytes)") }
            return .some(reader.string(length: length))
        }
        guard let sortKey: UInt64 = reader.le(), let keyID = try string("key_id") ?? nil, let chunk: UInt32 = reader.le(),
              let ordinal: UInt64 = reader.le(), let word = try string("word") ?? nil,
              let countryCode = try string("countrycode") ?? nil, let recognized = reader.byte() else { return nil }
        guard recognized <= 1 else { throw bad("recognized", "\(recognized) is not 0 or 1") }
        guard let timestamp = try string("timestamp") ?? nil, let splitCode = reader.byte() else { return nil }
        guard splitCode <= SplitName.allCases.count else { throw bad("split code", "\(splitCode) is not 0…\(SplitName.allCases.count)") }
        guard let rank = reader.byte() else { return nil }
        guard rank <= maximumRank else { throw bad("rank", "\(rank) is over \(maximumRank)") }
        var shape: [Int] = []
        for _ in 0..<rank {
            guard let dimension: UInt32 = reader.le() else { return nil }
            shape.append(Int(dimension))
        }
        guard let kind = reader.byte(), let count32: UInt32 = reader.le() else { return nil }
        let count = Int(count32)
        guard count <= maximumValues else { throw bad("value count", "\(count) is over \(maximumValues)") }
        guard NPYFormat.checkedProduct(shape) == count else { throw bad("value count", "\(count) does not match the shape \(shape)") }
        let payload: TensorPayload
        switch kind {
        case 1:
            guard let values = reader.values(count, of: Float.self) else { return nil }
            payload = .float32(values, shape: shape)
        case 2:
            guard let values = reader.values(count, of: UInt8.self) else { return nil }
            payload = .uint8(values, shape: shape)
        case 3:
            guard let values = reader.values(count, of: Double.self) else { return nil }
            payload = .float64(values, shape: shape)
        default:
            throw bad("payload code", "\(kind) is not 1 (float32), 2 (uint8) or 3 (float64)")
        }
        offset = reader.offset
        return SortedExample(sortKey: sortKey, keyID: keyID, chunk: chunk, ordinal: ordinal, word: word,
                             split: splitCode == 0 ? nil : SplitName.allCases[Int(splitCode) - 1], payload: payload,
                             facts: RecordFacts(countryCode: countryCode, recognized: recognized == 1, timestamp: timestamp))
    }
}

private struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset: Int

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func le<T: FixedWidthInteger>() -> T? {
        let size = MemoryLayout<T>.size
        guard offset + size <= bytes.count else { return nil }
        defer { offset += size }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, offset + count <= bytes.count else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    /// `count` values of `T` in machine byte order (as ``SortedExample/serialize(into:)`` writes them).
    mutating func values<T: BitwiseCopyable>(_ count: Int, of type: T.Type) -> [T]? {
        guard let raw = bytes(count * MemoryLayout<T>.stride) else { return nil }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
            initialized = count
        }
    }

    mutating func string(length: UInt32) -> String? {
        guard let raw = bytes(Int(length)) else { return nil }
        return String(decoding: raw, as: UTF8.self)
    }
}

extension [UInt8] {
    mutating func appendLE<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func appendString(_ text: String) {
        appendLE(UInt32(text.utf8.count))
        append(contentsOf: text.utf8)
    }
}
