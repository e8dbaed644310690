import Foundation

/// The checked-in instruction counts of `instructions` (`Benchmarks/Thresholds/instructions.json`):
/// each figure's baseline and the tolerance above it.
///
/// Unlike the speed-ups, these are absolute: a count depends only on the build (compiler, code)
/// and the fixed input, so the same count comes back on every run, loaded machine or not. A
/// figure more than `tolerancePercent` above its baseline is a regression; one more than that below
/// it is an improvement to record (`make bench-instructions-update`).
struct InstructionBudget: Codable {
    /// How far above its baseline a figure may go, in percent.
    var tolerancePercent: Double
    /// When and with what the baselines were recorded (written by `--update`).
    var recorded: String
    /// Figure name → instructions.
    var baselines: [String: Int]

    enum CodingKeys: String, CodingKey {
        case tolerancePercent = "tolerance_percent"
        case recorded, baselines
    }

    /// The budget file of `directory`.
    static func file(in directory: String) -> String { "\(directory)/instructions.json" }

    /// Reads `directory/instructions.json`.
    static func read(directory: String) throws -> InstructionBudget {
        let file = file(in: directory)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw BenchmarkError("\(file): cannot read the instruction baselines (`make bench-instructions-update` writes them)")
        }
        do {
            return try JSONDecoder().decode(InstructionBudget.self, from: data)
        } catch {
            throw BenchmarkError("\(file): not an object of tolerance_percent, recorded and baselines (figure name → instructions)")
        }
    }

    /// Writes the budget to `directory/instructions.json`, keys sorted.
    func write(directory: String) throws {
        try writeSortedJSON(self, to: Self.file(in: directory))
    }

    /// Prints each figure against its baseline; throws when one is above its baseline by more
    /// than the tolerance, or is missing.
    func check(_ measured: [String: Int], file: String) throws {
        var failures: [String] = []
        for (name, baseline) in baselines.sorted(by: { $0.key < $1.key }) {
            guard let count = measured[name] else {
                failures.append("\(name): not measured (the baselines name a figure `instructions` does not produce)")
                continue
            }
            let change = (Double(count) / Double(baseline) - 1) * 100
            let verdict: String
            if change > tolerancePercent {
                verdict = "REGRESSION"
                failures.append(String(format: "%@ %d > %d + %.0f %% (%+.2f %%)", name, count, baseline, tolerancePercent, change))
            } else if change < -tolerancePercent {
                verdict = "improved: record it with `make bench-instructions-update`"
            } else {
                verdict = "ok"
            }
            print(
                String(
                    format: "baseline %@: %d instructions, baseline %d (%+.3f %%, tolerance +%.0f %%) %@",
                    name, count, baseline, change, tolerancePercent, verdict))
        }
        if !failures.isEmpty {
            throw BenchmarkError("\(file): " + failures.joined(separator: "; "))
        }
    }
}
