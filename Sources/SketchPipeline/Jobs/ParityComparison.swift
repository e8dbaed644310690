import SketchCore
import SketchDataset
import SketchFormats

/// Compares our simplified drawings with official ones and accumulates the parity statistics.
///
/// A drawing is *exact* when every stroke has the same points in the same order. *Same point
/// count* means the same number of strokes and the same number of points in each. For drawings
/// with the same point counts, the largest absolute coordinate difference goes into the
/// deviation histogram; the others are counted under `point count differs`.
package struct ParityComparison: Sendable {
    /// One drawing that did not match, for the worst-drawings list.
    package struct Miss: Codable, Equatable, Sendable {
        /// Google's key_id.
        package var keyID: String
        /// Category (`word`).
        package var word: String
        /// `stroke count`, `point count` or `coordinates`.
        package var kind: String
        /// Sum over strokes of |our points − official points| (plus 1000 per missing stroke).
        package var pointCountDifference: Int
        /// Largest absolute coordinate difference over the strokes with equal point counts.
        package var maximumDeviation: Int

        enum CodingKeys: String, CodingKey {
            case keyID = "key_id"
            case word, kind
            case pointCountDifference = "point_count_difference"
            case maximumDeviation = "max_deviation"
        }
    }

    /// Matched pairs compared.
    package private(set) var pairs = 0
    /// Pairs whose drawings are identical.
    package private(set) var exact = 0
    /// Pairs with the same stroke and per-stroke point counts.
    package private(set) var samePointCount = 0
    /// Drawings per deviation bucket (`0`, `1`, `2`, `3-5`, `6-10`, `>10`, `point count differs`).
    package private(set) var deviationHistogram: [String: Int] = [:]
    /// Pairs and exact pairs per category.
    package private(set) var byCategory: [String: (pairs: Int, exact: Int)] = [:]
    /// How many misses to keep.
    package let worstLimit: Int
    private var misses: [Miss] = []

    /// Most misses a comparison keeps for the worst list; larger limits are clamped to it.
    package static let maximumWorstLimit = 100_000

    /// Creates an empty comparison keeping the `worstLimit` worst misses (clamped to
    /// `0...maximumWorstLimit`).
    package init(worstLimit: Int = 25) {
        self.worstLimit = min(max(worstLimit, 0), Self.maximumWorstLimit)
    }

    /// Share of exact pairs (0 when there are none).
    package var exactRate: Double { pairs == 0 ? 0 : Double(exact) / Double(pairs) }
    /// Share of pairs with the same point counts.
    package var samePointCountRate: Double { pairs == 0 ? 0 : Double(samePointCount) / Double(pairs) }

    /// The worst misses, worst first: stroke-count mismatches, then by point-count difference,
    /// then by deviation, then by key_id.
    package var worst: [Miss] { Array(misses.sorted(by: Self.isWorse).prefix(worstLimit)) }

    /// Adds one pair.
    package mutating func add(keyID: String, word: String, ours: Drawing, official: Drawing) {
        pairs += 1
        var category = byCategory[word] ?? (0, 0)
        category.pairs += 1
        defer { byCategory[word] = category }
        if ours == official {
            exact += 1
            samePointCount += 1
            category.exact += 1
            deviationHistogram["0", default: 0] += 1
            return
        }
        var pointDifference = 1000 * abs(ours.strokes.count - official.strokes.count)
        var deviation = 0
        for (a, b) in zip(ours.strokes, official.strokes) {
            if a.count != b.count {
                pointDifference += abs(a.count - b.count)
                continue
            }
            for index in 0..<a.count {
                deviation = max(deviation, Int(abs(a.x[index] - b.x[index])), Int(abs(a.y[index] - b.y[index])))
            }
        }
        let kind: String
        if ours.strokes.count != official.strokes.count {
            kind = "stroke count"
        } else if pointDifference > 0 {
            kind = "point count"
        } else {
            kind = "coordinates"
            samePointCount += 1
        }
        deviationHistogram[pointDifference > 0 ? "point count differs" : Self.bucket(deviation), default: 0] += 1
        misses.append(
            Miss(
                keyID: keyID, word: word, kind: kind, pointCountDifference: pointDifference,
                maximumDeviation: deviation))
        if misses.count > 4 * max(worstLimit, 1) {
            misses = worst
        }
    }

    private static func bucket(_ deviation: Int) -> String {
        switch deviation {
        case 0...2: "\(deviation)"
        case 3...5: "3-5"
        case 6...10: "6-10"
        default: ">10"
        }
    }

    private static func isWorse(_ a: Miss, _ b: Miss) -> Bool {
        if a.pointCountDifference != b.pointCountDifference { return a.pointCountDifference > b.pointCountDifference }
        if a.maximumDeviation != b.maximumDeviation { return a.maximumDeviation > b.maximumDeviation }
        return a.keyID < b.keyID
    }
}
