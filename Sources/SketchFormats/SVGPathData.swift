import Foundation

/// A 2-D affine map `(x, y) → (a x + c y + e, b x + d y + f)`, SVG's `matrix(a b c d e f)`.
package struct SVGAffine: Equatable, Sendable {
    package var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0

    package static let identity = SVGAffine()

    package init(a: Double = 1, b: Double = 0, c: Double = 0, d: Double = 1, e: Double = 0, f: Double = 0) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// The point `point` mapped.
    package func apply(_ point: SVGPoint) -> SVGPoint {
        SVGPoint(x: a * point.x + c * point.y + e, y: b * point.x + d * point.y + f)
    }

    /// `self` after `inner`: the map that applies `inner` first (SVG's `transform="self inner"`).
    package func then(_ inner: SVGAffine) -> SVGAffine {
        SVGAffine(
            a: a * inner.a + c * inner.b, b: b * inner.a + d * inner.b,
            c: a * inner.c + c * inner.d, d: b * inner.c + d * inner.d,
            e: a * inner.e + c * inner.f + e, f: b * inner.e + d * inner.f + f)
    }
}

/// A point in SVG user space.
package struct SVGPoint: Equatable, Sendable {
    package var x: Double
    package var y: Double

    package init(x: Double, y: Double) { (self.x, self.y) = (x, y) }
}

/// One piece of a path in absolute coordinates: quadratic curves are raised to cubics and arcs
/// are cubics of at most 90° each (exact up to the usual 2.7·10⁻⁴ relative radius error of the
/// quarter-circle Bézier), so only lines and cubics remain.
package enum SVGSegment: Equatable, Sendable {
    case move(SVGPoint)
    case line(SVGPoint)
    case cubic(SVGPoint, SVGPoint, SVGPoint)
}

/// Parses SVG 1.1 path data (`d`): absolute and relative `M L H V C S Q T A Z`, implicit repeated
/// commands (after `M`/`m` they are `L`/`l`), numbers with signs, fractions and exponents and no
/// separator where the grammar allows none (`M10-20.5.5e1`), arc flags as single digits. `Z`
/// ends a subpath with a line back to its start; a command after `Z` other than `M` starts a new
/// subpath there. Throws `FormatError` naming the byte offset and what is wrong; at most
/// `maximumSegments` segments.
package struct SVGPathData {
    private let bytes: [UInt8]
    private var index = 0
    private var segments: [SVGSegment] = []
    private let maximumSegments: Int

    /// The segments of `text`.
    package static func segments(of text: String, maximumSegments: Int) throws(FormatError) -> [SVGSegment] {
        var parser = SVGPathData(bytes: Array(text.utf8), maximumSegments: maximumSegments)
        try parser.parse()
        return parser.segments
    }

    private init(bytes: [UInt8], maximumSegments: Int) {
        self.bytes = bytes
        self.maximumSegments = maximumSegments
    }

    private func fail(_ reason: String) -> FormatError { FormatError(.record, "path data byte \(index): \(reason)") }

    private mutating func parse() throws(FormatError) {
        var current = SVGPoint(x: 0, y: 0)
        var start = current
        var lastCubicControl: SVGPoint?
        var lastQuadraticControl: SVGPoint?
        var afterClose = false
        var command: UInt8?
        skipWhitespace()
        while index < bytes.count {
            if isCommand(bytes[index]) {
                command = bytes[index]
                index += 1
            } else if command == nil {
                throw fail("path data must start with M or m")
            } else if command == UInt8(ascii: "Z") || command == UInt8(ascii: "z") {
                throw fail("a number after Z")
            }
            guard let letter = command else { break }
            if segments.isEmpty && letter | 0x20 != UInt8(ascii: "m") { throw fail("path data must start with M or m") }
            let relative = letter >= UInt8(ascii: "a")
            let base = relative ? current : SVGPoint(x: 0, y: 0)
            func point(_ x: Double, _ y: Double) -> SVGPoint { SVGPoint(x: base.x + x, y: base.y + y) }
            if afterClose && letter != UInt8(ascii: "M") && letter != UInt8(ascii: "m") && letter != UInt8(ascii: "Z")
                && letter != UInt8(ascii: "z")
            {
                try add(.move(current))
            }
            afterClose = false
            var cubicControl: SVGPoint?
            var quadraticControl: SVGPoint?
            switch letter | 0x20 {
            case UInt8(ascii: "m"):
                current = point(try number(), try number())
                start = current
                try add(.move(current))
                command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")
            case UInt8(ascii: "l"):
                current = point(try number(), try number())
                try add(.line(current))
            case UInt8(ascii: "h"):
                let x = try number()
                current = SVGPoint(x: relative ? current.x + x : x, y: current.y)
                try add(.line(current))
            case UInt8(ascii: "v"):
                let y = try number()
                current = SVGPoint(x: current.x, y: relative ? current.y + y : y)
                try add(.line(current))
            case UInt8(ascii: "c"):
                let c1 = point(try number(), try number())
                let c2 = point(try number(), try number())
                let end = point(try number(), try number())
                try add(.cubic(c1, c2, end))
                (current, cubicControl) = (end, c2)
            case UInt8(ascii: "s"):
                let c1 = lastCubicControl.map { SVGPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let c2 = point(try number(), try number())
                let end = point(try number(), try number())
                try add(.cubic(c1, c2, end))
                (current, cubicControl) = (end, c2)
            case UInt8(ascii: "q"):
                let control = point(try number(), try number())
                let end = point(try number(), try number())
                try add(Self.raised(from: current, control, end))
                (current, quadraticControl) = (end, control)
            case UInt8(ascii: "t"):
                let control = lastQuadraticControl.map { SVGPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let end = point(try number(), try number())
                try add(Self.raised(from: current, control, end))
                (current, quadraticControl) = (end, control)
            case UInt8(ascii: "a"):
                let rx = try number()
                let ry = try number()
                let rotation = try number()
                let large = try flag()
                let sweep = try flag()
                let end = point(try number(), try number())
                let arc = SVGArc.cubics(from: current, to: end, rx: rx, ry: ry, rotation: rotation, large: large, sweep: sweep)
                guard let arc else { throw fail("arc radii \(rx), \(ry) give no finite ellipse through its end points") }
                for segment in arc {
                    try add(segment)
                }
                current = end
            case UInt8(ascii: "z"):
                try add(.line(start))
                current = start
                afterClose = true
            default:
                throw fail("unknown command '\(Character(Unicode.Scalar(letter)))'")
            }
            lastCubicControl = cubicControl
            lastQuadraticControl = quadraticControl
            skipSeparator()
        }
    }

    /// A quadratic Bézier as the cubic that draws the same curve.
    private static func raised(from start: SVGPoint, _ control: SVGPoint, _ end: SVGPoint) -> SVGSegment {
        .cubic(
            SVGPoint(x: start.x + 2 * (control.x - start.x) / 3, y: start.y + 2 * (control.y - start.y) / 3),
            SVGPoint(x: end.x + 2 * (control.x - end.x) / 3, y: end.y + 2 * (control.y - end.y) / 3), end)
    }

    private mutating func add(_ segment: SVGSegment) throws(FormatError) {
        guard segments.count < maximumSegments else { throw FormatError(.record, "more than \(maximumSegments) path segments") }
        segments.append(segment)
    }

    private func isCommand(_ byte: UInt8) -> Bool {
        switch byte | 0x20 {
        case UInt8(ascii: "m"), UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "v"), UInt8(ascii: "c"), UInt8(ascii: "s"),
            UInt8(ascii: "q"), UInt8(ascii: "t"), UInt8(ascii: "a"), UInt8(ascii: "z"):
            return true
        default:
            return false
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, SVGNumbers.isWhitespace(bytes[index]) { index += 1 }
    }

    /// Whitespace, at most one comma, whitespace.
    private mutating func skipSeparator() {
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: ",") { index += 1 }
        skipWhitespace()
    }

    private mutating func number() throws(FormatError) -> Double {
        skipSeparator()
        guard let value = SVGNumbers.number(in: bytes, at: &index) else { throw fail("expected a number") }
        return value
    }

    private mutating func flag() throws(FormatError) -> Bool {
        skipSeparator()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1") else {
            throw fail("expected an arc flag 0 or 1")
        }
        index += 1
        return bytes[index - 1] == UInt8(ascii: "1")
    }
}

/// SVG's number grammar, shared by path data, transforms and point lists.
package enum SVGNumbers {
    /// Largest magnitude of a number read from an SVG file (`SVGSketch` refuses others).
    package static let maximumMagnitude = 1e9

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }

    /// Reads `sign? (digits ('.' digits?)? | '.' digits) (('e'|'E') sign? digits)?` at `index`;
    /// nil (index unchanged) when there is none or it is not finite within `maximumMagnitude`.
    static func number(in bytes: [UInt8], at index: inout Int) -> Double? {
        var end = index
        func digits() -> Int {
            let start = end
            while end < bytes.count, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
            return end - start
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
        var mantissa = digits()
        if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
            end += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if end < bytes.count, bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E") {
            var exponentEnd = end + 1
            if exponentEnd < bytes.count, bytes[exponentEnd] == UInt8(ascii: "+") || bytes[exponentEnd] == UInt8(ascii: "-") {
                exponentEnd += 1
            }
            let saved = end
            end = exponentEnd
            if digits() == 0 { end = saved }  // "e" not followed by digits is not part of the number
        }
        guard end - index <= 64, let value = Double(String(decoding: bytes[index..<end], as: UTF8.self)),
            value.isFinite, abs(value) <= maximumMagnitude
        else { return nil }
        index = end
        return value
    }

    /// All numbers of `text` separated by whitespace and/or one comma (a point list, a transform's
    /// arguments); nil when anything else is there.
    static func list(_ text: some Collection<UInt8>) -> [Double]? {
        let bytes = Array(text)
        var index = 0
        var values: [Double] = []
        while true {
            while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: ","), !values.isEmpty { index += 1 }
            while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
            if index == bytes.count { return values }
            guard let value = number(in: bytes, at: &index) else { return nil }
            values.append(value)
        }
    }
}

/// SVG's elliptical arc (`A`) as cubic Béziers, by the center parameterization of the SVG 1.1
/// implementation notes (F.6.5, F.6.6: zero radii draw a line, radii too small are scaled up).
/// Every value derived from the file's numbers is checked before it is used: radii that underflow
/// when squared (`1e-300`) or overflow make the arc nil, never a trap or a NaN point.
enum SVGArc {
    /// The cubics of the arc, or nil when its numbers give no finite ellipse (the caller refuses
    /// the record).
    static func cubics(
        from start: SVGPoint, to end: SVGPoint, rx: Double, ry: Double, rotation: Double,
        large: Bool, sweep: Bool
    ) -> [SVGSegment]? {
        if start == end { return [] }
        var rx = abs(rx)
        var ry = abs(ry)
        if rx == 0 || ry == 0 { return [.line(end)] }
        let phi = rotation * .pi / 180
        let (cosPhi, sinPhi) = (cos(phi), sin(phi))
        let dx = (start.x - end.x) / 2
        let dy = (start.y - end.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy
        let y1 = -sinPhi * dx + cosPhi * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { (rx, ry) = (rx * lambda.squareRoot(), ry * lambda.squareRoot()) }
        guard lambda.isFinite, rx.isFinite, ry.isFinite, (rx * rx * ry * ry).isNormal else { return nil }
        let numerator = max(0, rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1)
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coefficient = denominator == 0 ? 0 : (numerator / denominator).squareRoot()
        if large == sweep { coefficient = -coefficient }
        let cx1 = coefficient * rx * y1 / ry
        let cy1 = -coefficient * ry * x1 / rx
        let cx = cosPhi * cx1 - sinPhi * cy1 + (start.x + end.x) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (start.y + end.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double { atan2(ux * vy - uy * vx, ux * vx + uy * vy) }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep && delta > 0 { delta -= 2 * .pi }
        if sweep && delta < 0 { delta += 2 * .pi }
        // delta is within ±2π when finite, so at most 4 pieces.
        guard delta.isFinite, let quarters = Int(exactly: (abs(delta) / (.pi / 2)).rounded(.up)), quarters <= 4 else { return nil }
        let pieces = max(1, quarters)
        let step = delta / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        func onEllipse(_ t: Double) -> (SVGPoint, SVGPoint) {
            let (ct, st) = (cos(t), sin(t))
            let point = SVGPoint(x: cx + rx * ct * cosPhi - ry * st * sinPhi, y: cy + rx * ct * sinPhi + ry * st * cosPhi)
            let tangent = SVGPoint(x: -rx * st * cosPhi - ry * ct * sinPhi, y: -rx * st * sinPhi + ry * ct * cosPhi)
            return (point, tangent)
        }
        var segments: [SVGSegment] = []
        var (from, fromTangent) = onEllipse(theta1)
        from = start
        for piece in 1...pieces {
            let t = theta1 + Double(piece) * step
            var (to, toTangent) = onEllipse(t)
            if piece == pieces { to = end }
            segments.append(
                .cubic(
                    SVGPoint(x: from.x + k * fromTangent.x, y: from.y + k * fromTangent.y),
                    SVGPoint(x: to.x - k * toTangent.x, y: to.y - k * toTangent.y), to))
            (from, fromTangent) = (to, toTangent)
        }
        let finite = segments.allSatisfy { segment in
            guard case let .cubic(c1, c2, to) = segment else { return true }
            return [c1.x, c1.y, c2.x, c2.y, to.x, to.y].allSatisfy(\.isFinite)
        }
        return finite ? segments : nil
    }
}
