import SketchFormats

/// The three dataset splits, in the order shards and manifests list them.
public enum SplitName: String, Sendable, Codable, CaseIterable, Comparable {
    /// Training examples.
    case train
    /// Validation examples.
    case val
    /// Held-out test examples.
    case test

    /// Orders train < val < test.
    public static func < (a: SplitName, b: SplitName) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Deterministic train/val/test assignment by a hash of the drawing's key_id, so a drawing stays
/// in the same split whatever else is in the run and in whatever order it arrives.
///
/// `bucket = FNV1a64(UTF-8 key_id) % 10000`; the drawing goes to train if
/// `bucket < train% × 100`, else to val if `bucket < (train% + val%) × 100`, else to test.
/// Percentages are resolved to basis points (hundredths of a percent).
public struct DatasetSplit: Sendable, Equatable, Encodable {
    /// Share of train, in percent.
    public var train: Double
    /// Share of validation, in percent.
    public var val: Double
    /// Share of test, in percent.
    public var test: Double

    /// Creates a split; throws unless each share is in 0…100 and they add up to 100.
    public init(train: Double, val: Double, test: Double) throws {
        for (name, share) in [("train", train), ("val", val), ("test", test)] where !(0...100).contains(share) {
            throw DatasetError(.configuration, "split \(name) must be between 0 and 100 percent, got \(share)")
        }
        guard abs(train + val + test - 100) < 1e-9 else {
            throw DatasetError(.configuration, "split percentages must add up to 100, got \(train + val + test)")
        }
        self.train = train
        self.val = val
        self.test = test
    }

    /// 80 / 10 / 10.
    public static let standard = try! DatasetSplit(train: 80, val: 10, test: 10)

    /// The split of the drawing with `keyID`.
    public func split(forKeyID keyID: String) -> SplitName {
        let bucket = Int(FNV1a64.hash(keyID) % 10_000)
        let trainEnd = Int((train * 100).rounded())
        let valEnd = trainEnd + Int((val * 100).rounded())
        if bucket < trainEnd { return .train }
        if bucket < valEnd { return .val }
        return .test
    }
}
