import Foundation

/// Parses an SVG 1.1 `transform` attribute: a list of `matrix(a b c d e f)`, `translate(tx [ty])`,
/// `scale(sx [sy])`, `rotate(angle [cx cy])`, `skewX(angle)` and `skewY(angle)` (angles in
/// degrees, arguments separated by whitespace and/or commas, items by whitespace and/or a comma),
/// composed left to right: `transform="A B"` maps a point by B, then A.
package enum SVGTransformList {
    /// The map of `text`; throws `FormatError` naming the item that is not one of the six.
    package static func parse(_ text: String) throws(FormatError) -> SVGAffine {
        var result = SVGAffine.identity
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "," }
            if rest.isEmpty { return result }
            guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") else {
                throw FormatError(.record, "transform \"\(text.prefix(80))\": expected name(arguments)")
            }
            let name = rest[..<open].trimmingCharacters(in: .whitespaces)
            guard let arguments = SVGNumbers.list(rest[rest.index(after: open)..<close].utf8) else {
                throw FormatError(.record, "transform \(name): arguments are not numbers")
            }
            guard let item = map(name: name, arguments) else {
                throw FormatError(.record, "transform \(name) with \(arguments.count) arguments is not an SVG 1.1 transform")
            }
            result = result.then(item)
            rest = rest[rest.index(after: close)...]
        }
    }

    private static func map(name: String, _ v: [Double]) -> SVGAffine? {
        let radians = (v.first ?? 0) * .pi / 180
        switch (name, v.count) {
        case ("matrix", 6): return SVGAffine(a: v[0], b: v[1], c: v[2], d: v[3], e: v[4], f: v[5])
        case ("translate", 1), ("translate", 2): return SVGAffine(e: v[0], f: v.count == 2 ? v[1] : 0)
        case ("scale", 1), ("scale", 2): return SVGAffine(a: v[0], d: v.count == 2 ? v[1] : v[0])
        case ("rotate", 1), ("rotate", 3):
            let rotation = SVGAffine(a: cos(radians), b: sin(radians), c: -sin(radians), d: cos(radians))
            guard v.count == 3 else { return rotation }
            return SVGAffine(e: v[1], f: v[2]).then(rotation).then(SVGAffine(e: -v[1], f: -v[2]))
        case ("skewX", 1): return SVGAffine(c: tan(radians))
        case ("skewY", 1): return SVGAffine(b: tan(radians))
        default: return nil
        }
    }
}
