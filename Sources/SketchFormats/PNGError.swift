/// Why a PNG could not be decoded or encoded; `reason` is libpng's own message where it gave one.
public struct PNGError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Human-readable cause, e.g. `"Not a PNG file"` or `"IDAT: incorrect data check"`.
    public let reason: String

    /// Creates an error with a reason.
    public init(_ reason: String) { self.reason = reason }

    /// The reason, as printed to the user.
    public var description: String { reason }
}
