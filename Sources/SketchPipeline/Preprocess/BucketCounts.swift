import Foundation
import SketchDataset
import SketchIO

/// Examples per class, sort-key bucket (``SortKey/bucket(of:)``) and split, counted by the map
/// side as examples go into the runs: the reduce side plans every reducer's offsets and shard
/// range from these counts alone (``ReducePlan``). Words are told apart by their bytes (two
/// spellings of one word that differ only by Unicode normalization are two words here).
package struct BucketCounts: Sendable, Equatable {
    /// Counts per word: `bucketCount × 3` of them, index `bucket × 3 + split`.
    static let countsPerWord = SortKey.bucketCount * 3

    /// Per word's UTF-8 bytes: ``countsPerWord`` counts.
    package private(set) var perWord: [[UInt8]: [UInt32]] = [:]

    package init() {}

    package mutating func add(word: String, sortKey: UInt64, split: SplitName) {
        let index = SortKey.bucket(of: sortKey) * 3 + SplitName.allCases.firstIndex(of: split)!
        perWord[Array(word.utf8), default: [UInt32](repeating: 0, count: Self.countsPerWord)][index] += 1
    }

    package mutating func formUnion(_ other: BucketCounts) {
        for (word, counts) in other.perWord {
            var mine = perWord[word] ?? [UInt32](repeating: 0, count: Self.countsPerWord)
            for index in counts.indices { mine[index] &+= counts[index] }
            perWord[word] = mine
        }
    }

    /// Examples counted in the buckets `range`, every word.
    package func total(inBuckets range: ClosedRange<Int>) -> Int {
        perWord.values.reduce(0) { sum, counts in
            sum + counts[(range.lowerBound * 3)..<((range.upperBound + 1) * 3)].reduce(0) { $0 + Int($1) }
        }
    }

    /// The counts of `word`, if it has any.
    func counts(of word: String) -> [UInt32]? { perWord[Array(word.utf8)] }

    /// The sparse form, in byte-wise word order.
    package var sparse: [Sparse] {
        perWord.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { word, counts in
            Sparse(word: String(decoding: word, as: UTF8.self), counts: counts)
        }
    }

    /// Feeds the counts to `hasher`, word by word in byte-wise order: the word's length (u32 LE),
    /// its bytes and its counts (u32 LE each).
    func hash(into hasher: inout SHA256Hasher) {
        var bytes: [UInt8] = []
        for (word, counts) in perWord.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            bytes.removeAll(keepingCapacity: true)
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: word.count).littleEndian) { bytes += $0 }
            bytes += word
            for count in counts { withUnsafeBytes(of: count.littleEndian) { bytes += $0 } }
            hasher.update(bytes)
        }
    }

    /// Counts from ``sparse``; throws `PipelineError` for counts that do not decode
    /// (``Sparse/pairs()``) or a word given twice.
    package init(sparse: [Sparse]) throws {
        for entry in sparse {
            let word = Array(entry.word.utf8)
            guard perWord[word] == nil else {
                throw PipelineError(.partials, "bucket_counts: '\(TerminalText.escaped(entry.word))' is given twice")
            }
            guard let pairs = entry.pairs() else {
                throw PipelineError(.partials, "bucket_counts of '\(TerminalText.escaped(entry.word))': \(Sparse.rule)")
            }
            var counts = [UInt32](repeating: 0, count: Self.countsPerWord)
            for pair in pairs { counts[pair.index] = UInt32(pair.count) }
            perWord[word] = counts
        }
    }
}

extension BucketCounts {
    /// One word's non-zero counts as `partial.json` stores them: `counts` is the base64 text of
    /// unsigned LEB128 varints, two per non-zero count in increasing index order: the gap to the
    /// previous index (the index + 1 for the first; the gap − 1 after it) and the count. Decoding
    /// it is a byte loop, where a JSON array of pairs took a third of a reducer's CPU.
    package struct Sparse: Codable, Equatable, Sendable {
        package var word: String
        package var counts: String

        /// What ``pairs()`` accepts, for error messages.
        static let rule =
            "counts are not base64 varint pairs (index gap, count) with indices 0..<\(countsPerWord) and counts 1…\(UInt32.max)"

        /// The `(index, count)` pairs, indices increasing; nil where `counts` is not base64, a varint
        /// is cut short or longer than 10 bytes, an index is past ``countsPerWord`` or a count is
        /// outside 1…`UInt32.max`.
        package func pairs() -> [(index: Int, count: Int)]? {
            guard let data = Data(base64Encoded: counts) else { return nil }
            return data.withUnsafeBytes { bytes -> [(index: Int, count: Int)]? in
                var pairs: [(index: Int, count: Int)] = []
                var offset = 0
                var next = 0
                while offset < bytes.count {
                    guard let gap = Self.varint(bytes, &offset), gap < UInt64(countsPerWord - next),
                        let count = Self.varint(bytes, &offset), (1...UInt64(UInt32.max)).contains(count)
                    else { return nil }
                    let index = next + Int(gap)
                    pairs.append((index, Int(count)))
                    next = index + 1
                }
                return pairs
            }
        }

        fileprivate static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }

        private static func varint(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64? {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 70, by: 7) {
                guard offset < bytes.count else { return nil }
                let byte = bytes[offset]
                offset += 1
                guard shift < 63 || byte <= 1 else { return nil }
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte < 0x80 { return value }
            }
            return nil
        }
    }
}

extension BucketCounts.Sparse {
    /// `word`'s non-zero `counts` (``BucketCounts/countsPerWord`` of them).
    init(word: String, counts: [UInt32]) {
        var bytes: [UInt8] = []
        var previous = -1
        for index in counts.indices where counts[index] != 0 {
            Self.appendVarint(UInt64(index - previous - 1), to: &bytes)
            Self.appendVarint(UInt64(counts[index]), to: &bytes)
            previous = index
        }
        self.init(word: word, counts: Data(bytes).base64EncodedString())
    }
}
