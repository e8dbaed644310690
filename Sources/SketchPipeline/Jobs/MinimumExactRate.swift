/// The exact rate below which `parity` fails (`--min-exact`): a rate between 0 and 1 (`0.9999`) or a
/// percentage with `%` (`99.99%`), as the report prints it. A bare number above 1 is refused, naming the
/// percentage it probably meant, so `99.99` never silently means a rate no run can reach.
package struct MinimumExactRate: Sendable, Equatable {
    /// The rate, 0…1.
    package var rate: Double

    /// Parses `text`; throws `PipelineError` naming what to write instead.
    package init(parsing text: String) throws(PipelineError) {
        let isPercentage = text.hasSuffix("%")
        let number = isPercentage ? String(text.dropLast()) : text
        // `99.99%` is read as the decimal 99.99e-2, rounded once, so that it equals the rate 0.9999 exactly.
        guard let value = Double(isPercentage ? "\(number)e-2" : number), value.isFinite, !number.isEmpty else {
            throw PipelineError(
                .configuration, "--min-exact \(text) is neither a rate between 0 and 1 (0.9999) nor a percentage with % (99.99%)")
        }
        guard (0...1).contains(value) else {
            if !isPercentage, value > 1, value <= 100 {
                throw PipelineError(
                    .configuration, "--min-exact \(text) is above 1: write the percentage with % (\(text)%) or the rate (0…1)")
            }
            throw PipelineError(
                .configuration, "--min-exact \(text) is outside 0…1 (0%…100%): give a rate such as 0.9999 or a percentage such as 99.99%")
        }
        rate = value
    }
}
