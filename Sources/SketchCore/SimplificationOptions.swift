/// The knobs of Google's raw → simplified conversion (docs/domain.md): align to the top-left,
/// scale uniformly so the larger extent becomes `scaleTarget`, resample every stroke at
/// `resampleStep`, Ramer–Douglas–Peucker with tolerance `epsilon`, round half to even.
///
/// The floating-point formulas of each step are fixed (docs/parity.md says which and why);
/// only these three values vary. `.google` reproduces Google's published simplified files.
public struct SimplificationOptions: Hashable, Sendable {
    /// Size the larger extent is scaled to (step 2).
    public var scaleTarget: Double
    /// Resampling spacing in scaled units (step 3).
    public var resampleStep: Double
    /// RDP tolerance: a point is kept when its distance is strictly greater (step 4).
    public var epsilon: Double

    /// Creates options; every parameter defaults to the `.google` value.
    public init(scaleTarget: Double = 255, resampleStep: Double = 1, epsilon: Double = 2) {
        self.scaleTarget = scaleTarget
        self.resampleStep = resampleStep
        self.epsilon = epsilon
    }

    /// Google's values: scale to 255, resample at 1.0, RDP ε = 2. Reproduces 5,555 of the
    /// 5,556 official drawings in the shared data exactly (docs/parity.md).
    public static let google = SimplificationOptions()
}

extension SimplificationOptions {
    /// The fixed formulas of the rule, as manifests and reports record them beside the three
    /// knobs: `v·target/m` scaling, `a·(1 − u) + b·u` resampling, distance to the infinite line,
    /// round half to even.
    package static let fixedFormulas: [String: String] = [
        "scale_formula": "mul-div", "resampling": "lerp", "rdp_distance": "line", "rounding": "half-even",
    ]
}
