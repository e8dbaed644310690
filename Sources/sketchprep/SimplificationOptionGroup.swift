import ArgumentParser
import Foundation
import SketchCore
import SketchPipeline

/// The knobs of Google's simplification rule as command-line options, shared by `simplify` and
/// `parity`. Each defaults to Google's value.
struct SimplificationOptionGroup: ParsableArguments {
    @Option(help: "RDP tolerance in scaled pixels; a point is kept when strictly farther. (default: 2.0)")
    var epsilon: Double?

    @Option(name: .customLong("resample-step"), help: "Resampling spacing along each stroke, in scaled pixels. (default: 1.0)")
    var resampleStep: Double?

    @Option(name: .customLong("scale-target"), help: "Size the larger extent of a drawing is scaled to. (default: 255)")
    var scaleTarget: Double?

    func validate() throws {
        if let problem = options.validationProblem {
            let flag = problem.key.split(separator: " / ").map { "--" + $0.replacingOccurrences(of: "_", with: "-") }
                .joined(separator: " / ")
            throw ValidationError("\(flag) \(problem.requirement)")
        }
    }

    /// Google's values with every given option applied.
    var options: SimplificationOptions {
        var options = SimplificationOptions.google
        if let epsilon { options.epsilon = epsilon }
        if let resampleStep { options.resampleStep = resampleStep }
        if let scaleTarget { options.scaleTarget = scaleTarget }
        return options
    }
}
