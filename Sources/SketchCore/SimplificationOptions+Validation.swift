/// One out-of-bounds simplification parameter: which one (by its pipeline-file key) and why.
package struct SimplificationOptionProblem: Equatable, Sendable, CustomStringConvertible {
    /// The parameter's pipeline-file key: `epsilon`, `resample_step` or `scale_target`
    /// (`scale_target / resample_step` names both).
    package var key: String
    /// What the value must be.
    package var requirement: String

    /// `key requirement`.
    package var description: String { "\(key) \(requirement)" }
}

extension SimplificationOptions {
    /// Largest accepted `epsilon`.
    package static let maximumEpsilon = 1_000.0
    /// Largest accepted `resampleStep`.
    package static let maximumResampleStep = 1_000.0
    /// Largest accepted `scaleTarget`: simplified coordinates lie in `0...scaleTarget`, and
    /// 65,535 keeps them exact in every output type (float32, 16-bit integers).
    package static let maximumScaleTarget = 65_535.0

    /// The first parameter outside its documented bounds, or nil when all are valid. The one
    /// check behind both the command-line options and the pipeline file's `simplify:` section:
    ///
    /// - `epsilon`: finite, `0...maximumEpsilon`;
    /// - `resample_step`: finite, `> 0` and `≤ maximumResampleStep`;
    /// - `scale_target`: finite, `> 0` and `≤ maximumScaleTarget`;
    /// - `scale_target / resample_step ≤ DrawingLimits.maximumScaleOverStep` (it sets the
    ///   resampled points per unit of scaled path).
    package var validationProblem: SimplificationOptionProblem? {
        if !(epsilon >= 0 && epsilon <= Self.maximumEpsilon) {
            return SimplificationOptionProblem(key: "epsilon", requirement: "must be a number in 0...\(Int(Self.maximumEpsilon))")
        }
        if !(resampleStep > 0 && resampleStep <= Self.maximumResampleStep) {
            return SimplificationOptionProblem(
                key: "resample_step", requirement: "must be a number > 0 and ≤ \(Int(Self.maximumResampleStep))")
        }
        if !(scaleTarget > 0 && scaleTarget <= Self.maximumScaleTarget) {
            return SimplificationOptionProblem(
                key: "scale_target",
                requirement:
                    "must be a number > 0 and ≤ \(Int(Self.maximumScaleTarget)) (simplified coordinates are integers in 0...scale_target)")
        }
        if !(scaleTarget / resampleStep <= DrawingLimits.maximumScaleOverStep) {
            return SimplificationOptionProblem(
                key: "scale_target / resample_step",
                requirement:
                    "must be ≤ \(Int(DrawingLimits.maximumScaleOverStep)) (it sets the resampled points per stroke; docs/limits.md)")
        }
        return nil
    }
}
