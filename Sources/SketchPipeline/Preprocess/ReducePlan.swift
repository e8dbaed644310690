import Foundation
import SketchDataset
import SketchFormats
import SketchIO

/// The class list of a dataset with its word lookup: words in label order, and the words
/// quarantined with their class because they collide with an earlier one
/// (``DataName/separateCollisions(_:caseInsensitive:)``). Looking up a record's word allocates nothing.
struct ClassTable {
    let classes: [String]
    /// Colliding word bytes → the earlier class.
    let colliding: [[UInt8]: String]
    private var byHash: [UInt64: [(word: [UInt8], label: Int)]] = [:]
    private let collidingWords: [String]

    enum Lookup {
        case label(Int)
        case colliding(word: String, earlier: String)
        case unknown
    }

    init(words: [String], caseInsensitive: Bool) {
        (classes, colliding) = DataName.separateCollisions(words, caseInsensitive: caseInsensitive)
        collidingWords = colliding.keys.map { String(decoding: $0, as: UTF8.self) }.sorted()
        for (label, word) in classes.enumerated() { byHash[Self.hash(Array(word.utf8)), default: []].append((Array(word.utf8), label)) }
        for (index, word) in collidingWords.enumerated() {
            byHash[Self.hash(Array(word.utf8)), default: []].append((Array(word.utf8), -1 - index))
        }
    }

    func lookup(_ word: UnsafeRawBufferPointer) -> Lookup {
        guard let candidates = byHash[Self.hash(word)] else { return .unknown }
        for candidate in candidates where candidate.word.withUnsafeBytes({ RunRecord.compareBytes($0, word) == 0 }) {
            if candidate.label >= 0 { return .label(candidate.label) }
            let name = collidingWords[-1 - candidate.label]
            return .colliding(word: name, earlier: colliding[candidate.word]!)
        }
        return .unknown
    }

    private static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return h
    }
}

/// The quota rule of every dataset, applied in dataset order: an example of class c in split s is
/// kept while fewer than `max_per_class` examples of c and fewer than `split.counts[s]` examples
/// of c in s have been kept; the others are filtered.
struct QuotaState {
    let maximumPerClass: Int?
    let splitCaps: [Int?]
    private(set) var perClass: [Int]
    private(set) var perClassSplit: [Int]

    init(classes: Int, maximumPerClass: Int?, splitCounts: [SplitName: Int]) {
        self.maximumPerClass = maximumPerClass
        splitCaps = SplitName.allCases.map { splitCounts[$0] }
        perClass = [Int](repeating: 0, count: classes)
        perClassSplit = [Int](repeating: 0, count: 3 * classes)
    }

    var hasCaps: Bool { maximumPerClass != nil || splitCaps.contains { $0 != nil } }

    /// Whether the next example of class `label` in split `split` (0…2) is kept; counts it when so.
    mutating func admit(_ label: Int, _ split: Int) -> Bool {
        if let cap = maximumPerClass, perClass[label] >= cap { return false }
        if let cap = splitCaps[split], perClassSplit[3 * label + split] >= cap { return false }
        perClass[label] += 1
        perClassSplit[3 * label + split] += 1
        return true
    }

    /// Counts `n` examples of `label` in `split` as kept (a bucket the plan decided without reading it).
    mutating func keep(_ label: Int, _ split: Int, _ n: Int) {
        perClass[label] += n
        perClassSplit[3 * label + split] += n
    }

    /// What happens to a bucket of class `label` holding `counts` examples per split, judged from
    /// the counts: the examples kept per split, or nil when a quota is reached inside the bucket,
    /// so that the order of its examples decides.
    func decide(_ label: Int, counts: ArraySlice<UInt32>) -> [Int]? {
        if let cap = maximumPerClass, perClass[label] >= cap { return [0, 0, 0] }
        var kept = [0, 0, 0]
        for split in 0..<3 {
            let n = Int(counts[counts.startIndex + split])
            guard n > 0 else { continue }
            let have = perClassSplit[3 * label + split]
            if let cap = splitCaps[split] {
                if have >= cap { continue }
                if have + n > cap { return nil }
            }
            kept[split] = n
        }
        if let cap = maximumPerClass, perClass[label] + kept.reduce(0, +) > cap { return nil }
        return kept
    }
}

/// Where every kept example of the dataset goes, computed from the map side's ``BucketCounts``
/// and the quotas alone, identically by every reducer: per class, bucket and split the number of
/// examples kept. Where a quota is reached inside a bucket (at most once per class and quota),
/// the plan reads that bucket's records (their word and split; nothing else is used) to apply
/// the rule in dataset order; without quotas it reads nothing.
struct ReducePlan {
    static let buckets = SortKey.bucketCount
    let classCount: Int
    /// Kept examples, index `(label × buckets + bucket) × 3 + split`.
    private(set) var kept: [UInt32]
    /// Per split: kept examples before each bucket (`buckets + 1` entries).
    private(set) var prefix: [[Int]] = []
    /// Buckets whose records the plan read.
    private(set) var bucketsRead = 0

    init(table: ClassTable, counts: BucketCounts, quotas: QuotaState, runs: [String]) throws {
        classCount = table.classes.count
        var perClass = [UInt32](repeating: 0, count: classCount * Self.buckets * 3)
        for (label, word) in table.classes.enumerated() {
            guard let wordCounts = counts.counts(of: word) else { continue }
            for index in wordCounts.indices { perClass[label * Self.buckets * 3 + index] = wordCounts[index] }
        }
        if quotas.hasCaps {
            kept = [UInt32](repeating: 0, count: perClass.count)
            var state = quotas
            for bucket in 0..<Self.buckets {
                var undecided: [Bool] = []
                for label in 0..<classCount {
                    let base = (label * Self.buckets + bucket) * 3
                    let counts = perClass[base..<base + 3]
                    if let decided = state.decide(label, counts: counts) {
                        for split in 0..<3 where decided[split] > 0 {
                            kept[base + split] = UInt32(decided[split])
                            state.keep(label, split, decided[split])
                        }
                    } else {
                        if undecided.isEmpty { undecided = [Bool](repeating: false, count: classCount) }
                        undecided[label] = true
                    }
                }
                guard !undecided.isEmpty else { continue }
                bucketsRead += 1
                var merge = try RunMerge(runs: runs, keys: SortKey.keys(ofBuckets: bucket...bucket))
                while let record = try merge.next() {
                    guard case let .label(label) = table.lookup(record.word), undecided[label] else { continue }
                    let split = record.splitIndex
                    if state.admit(label, split) { kept[(label * Self.buckets + bucket) * 3 + split] += 1 }
                }
            }
        } else {
            kept = perClass
        }
        for split in 0..<3 {
            var sums = [Int](repeating: 0, count: Self.buckets + 1)
            for bucket in 0..<Self.buckets {
                var n = 0
                for label in 0..<classCount { n += Int(kept[(label * Self.buckets + bucket) * 3 + split]) }
                sums[bucket + 1] = sums[bucket] + n
            }
            prefix.append(sums)
        }
    }

    /// Kept examples of each split.
    var totals: [Int] { prefix.map { $0[Self.buckets] } }

    /// The quota state after every bucket before `bucket`.
    func state(before bucket: Int, quotas: QuotaState) -> QuotaState {
        var state = quotas
        for label in 0..<classCount {
            for b in 0..<bucket {
                let base = (label * Self.buckets + b) * 3
                for split in 0..<3 where kept[base + split] > 0 { state.keep(label, split, Int(kept[base + split])) }
            }
        }
        return state
    }

    /// The bucket that holds the kept example `index` (0-based, in dataset order) of `split`.
    func bucket(holding index: Int, split: Int) -> Int {
        let sums = prefix[split]
        var low = 0
        var high = Self.buckets - 1
        while low < high {
            let middle = (low + high) / 2
            if sums[middle + 1] > index { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
