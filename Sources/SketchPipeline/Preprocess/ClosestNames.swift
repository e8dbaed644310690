/// The names closest to a mistyped one, for "did you mean" suggestions: by edit distance over
/// lower-cased Unicode scalars, at most a third of the name's length (at least `minimumBound`) away.
package enum ClosestNames {
    /// Up to `limit` names of `candidates` closest to `name`, nearest first (ties in byte order).
    package static func suggest(for name: String, among candidates: [String], limit: Int = 3, minimumBound: Int = 2) -> [String] {
        let target = Array(name.lowercased().unicodeScalars)
        let bound = max(minimumBound, target.count / 3)
        var scored: [(distance: Int, name: String)] = []
        for candidate in candidates {
            let scalars = Array(candidate.lowercased().unicodeScalars)
            guard abs(scalars.count - target.count) <= bound else { continue }
            let distance = editDistance(target, scalars)
            if distance <= bound { scored.append((distance, candidate)) }
        }
        scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return scored.prefix(limit).map(\.name)
    }

    /// Levenshtein distance (insert, delete, substitute: 1 each).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// ` (did you mean 'a', 'b'?)`, or empty when there is nothing close.
    package static func hint(for name: String, among candidates: [String], minimumBound: Int = 2) -> String {
        let close = suggest(for: name, among: candidates, minimumBound: minimumBound)
        return close.isEmpty ? "" : " (did you mean \(close.map { "'\($0)'" }.joined(separator: ", "))?)"
    }
}
