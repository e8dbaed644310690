import SketchCore

/// Named starting points for the simplification parameters.
public enum SimplificationPreset: String, CaseIterable, Sendable {
    /// `SimplificationOptions.google`.
    case google
    /// `SimplificationOptions.parityV1`.
    case parityV1 = "parity-v1"
    /// `SimplificationOptions.specBaseline`.
    case specBaseline = "spec-baseline"

    public var options: SimplificationOptions {
        switch self {
        case .google: .google
        case .parityV1: .parityV1
        case .specBaseline: .specBaseline
        }
    }
}

