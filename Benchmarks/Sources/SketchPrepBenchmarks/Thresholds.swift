import Foundation

/// The checked-in minimum speed-ups of one benchmark (`Benchmarks/Thresholds/<benchmark>.json`,
/// an object of speed-up name → minimum ratio over the Python reference).
///
/// Ratios measured in the same run hold on any machine where absolute times would not: both
/// sides run on the same core, data and load.
struct Thresholds {
    var file: String
    var minimums: [String: Double]

    /// Reads `directory/benchmark.json`.
    init(directory: String, benchmark: String) throws {
        file = "\(directory)/\(benchmark).json"
        guard let data = FileManager.default.contents(atPath: file) else {
            throw BenchmarkError(
                "\(file): cannot read the thresholds of `\(benchmark)` (expected a JSON object of speed-up name → minimum)")
        }
        do {
            minimums = try JSONDecoder().decode([String: Double].self, from: data)
        } catch {
            throw BenchmarkError("\(file): not a JSON object of speed-up name → minimum number")
        }
    }

    /// Prints each speed-up against its minimum; throws when one is below it or missing.
    func check(_ speedUps: [String: Double]) throws {
        var failures: [String] = []
        for (name, minimum) in minimums.sorted(by: { $0.key < $1.key }) {
            guard let measured = speedUps[name] else {
                failures.append("\(name): not measured (thresholds name a speed-up this benchmark does not produce)")
                continue
            }
            let verdict = measured >= minimum ? "ok" : "BELOW THRESHOLD"
            print(String(format: "threshold %@: %.2f× (minimum %.2f×) %@", name, measured, minimum, verdict))
            if measured < minimum { failures.append(String(format: "%@ %.2f× < %.2f×", name, measured, minimum)) }
        }
        if !failures.isEmpty {
            throw BenchmarkError("\(file): " + failures.joined(separator: "; "))
        }
    }
}
