import Foundation
import ArgumentParser
import SketchCore
import SketchPipeline

extension SimplificationOptions.ScaleFormula: ExpressibleByArgument {}
extension SimplificationOptions.Resampling: ExpressibleByArgument {}
extension SimplificationOptions.RDPDistance: ExpressibleByArgument {}
extension SimplificationOptions.Rounding: ExpressibleByArgument {}

extension SimplificationPreset: ExpressibleByArgument {}

/// The simplification parameters as command-line options, shared by `simplify`, `parity` and
/// `bench simplify`. Each option overrides the chosen preset.
struct SimplificationOptionGroup: ParsableArguments {
    @Option(help: "Starting parameter set: google (most faithful to Google's files, docs/parity.md rule v3), parity-v1 (np.interp resampling, rule v1) or spec-baseline (v*(255/m) scaling with carried-distance resampling, the first reading).")
    var preset: SimplificationPreset = .google

    @Option(help: "RDP tolerance in scaled pixels; a point is kept when strictly farther. (default: 2.0)")
    var epsilon: Double?

    @Option(name: .customLong("resample-step"), help: "Resampling spacing along each stroke, in scaled pixels. (default: 1.0)")
    var resampleStep: Double?

    @Option(name: .customLong("scale-target"), help: "Size the larger extent of a drawing is scaled to. (default: 255)")
    var scaleTarget: Double?

    @Option(name: .customLong("scale-formula"), help: "Float formula of the scaling step: mul-div = v*255/m, div-mul = v/m*255, mul-factor = v*(255/m). (default: mul-div)")
    var scaleFormula: SimplificationOptions.ScaleFormula?

    @Option(help: "Resampling method: lerp (a·(1−u)+b·u at integer arc lengths), interp (np.interp over arc length), carry (segment walk carrying the remainder) or none. (default: lerp)")
    var resampling: SimplificationOptions.Resampling?

    @Option(name: .customLong("rdp-distance"), help: "RDP distance: line (to the infinite line through the end points) or segment. (default: line)")
    var rdpDistance: SimplificationOptions.RDPDistance?

    @Option(help: "Final rounding: half-even (Python round) or half-up. (default: half-even)")
    var rounding: SimplificationOptions.Rounding?

    func validate() throws {
        if let problem = options.validationProblem {
            let flag = problem.key.split(separator: " / ").map { "--" + $0.replacingOccurrences(of: "_", with: "-") }
                .joined(separator: " / ")
            throw ValidationError("\(flag) \(problem.requirement)")
        }
    }

    /// The preset with every given option applied.
    var options: SimplificationOptions {
        var options = preset.options
        if let epsilon { options.epsilon = epsilon }
        if let resampleStep { options.resampleStep = resampleStep }
        if let scaleTarget { options.scaleTarget = scaleTarget }
        if let scaleFormula { options.scaleFormula = scaleFormula }
        if let resampling { options.resampling = resampling }
        if let rdpDistance { options.rdpDistance = rdpDistance }
        if let rounding { options.rounding = rounding }
        return options
    }
}

extension SimplificationOptionGroup {
    /// The resolved options as explicit command-line arguments (to pass to a child process).
    var commandLineArguments: [String] {
        let options = self.options
        return [
            "--scale-target", "\(options.scaleTarget)", "--scale-formula", options.scaleFormula.rawValue,
            "--resampling", options.resampling.rawValue, "--resample-step", "\(options.resampleStep)",
            "--epsilon", "\(options.epsilon)", "--rdp-distance", options.rdpDistance.rawValue,
            "--rounding", options.rounding.rawValue,
        ]
    }
}

extension SimplificationOptions {
    /// The options as a flat JSON-friendly description for reports.
    var reportFields: [String: String] {
        [
            "scale_target": "\(scaleTarget)", "scale_formula": scaleFormula.rawValue,
            "resampling": resampling.rawValue, "resample_step": "\(resampleStep)",
            "epsilon": "\(epsilon)", "rdp_distance": rdpDistance.rawValue, "rounding": rounding.rawValue,
        ]
    }
}
extension InputFormat: ExpressibleByArgument {}
