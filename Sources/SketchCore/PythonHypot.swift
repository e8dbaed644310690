/// CPython's `math.hypot(x, y)` (the `vector_norm` of Python 3.11+), reproduced to the last bit.
///
/// The parity reference computes RDP chord lengths with `math.hypot`, which is not the C
/// library's `hypot`: it scales both values by a power of two, squares and sums them without
/// loss, takes a square root and applies one differential correction. The two can differ in
/// the last bit, which decides near-ties in RDP, so the simplifier uses this one where the
/// reference does. Exact products use Dekker's splitting (no FMA instruction needed); they
/// equal the `fma(x, y, -x*y)` CPython uses.
enum PythonHypot {
    /// `math.hypot(x, y)`.
    static func hypot(_ x: Double, _ y: Double) -> Double {
        let a = abs(x), b = abs(y)
        if a.isNaN || b.isNaN {
            return a.isInfinite || b.isInfinite ? .infinity : .nan
        }
        let maximum = max(a, b)
        if maximum.isInfinite || maximum == 0 { return maximum }
        return vectorNorm(a, b, maximum: maximum)
    }

    private static func vectorNorm(_ a: Double, _ b: Double, maximum: Double) -> Double {
        // frexp: maximum = m · 2^e with m in [0.5, 1).
        let exponent = Int(maximum.exponent) + 1
        if exponent < -1023 {
            let normal = Double.leastNormalMagnitude
            return normal * vectorNorm(a / normal, b / normal, maximum: maximum / normal)
        }
        let scale = Double(sign: .plus, exponent: -exponent, significand: 1)
        var sum = 1.0, fraction1 = 0.0, fraction2 = 0.0
        for value in [a, b] {
            let scaled = value * scale
            let product = twoProduct(scaled, scaled)
            let total = fastTwoSum(sum, product.high)
            sum = total.high
            fraction1 += product.low
            fraction2 += total.low
        }
        var h = (sum - 1.0 + (fraction1 + fraction2)).squareRoot()
        let product = twoProduct(-h, h)
        let total = fastTwoSum(sum, product.high)
        sum = total.high
        fraction1 += product.low
        fraction2 += total.low
        let correction = sum - 1.0 + (fraction1 + fraction2)
        h += correction / (2.0 * h)
        return h / scale
    }

    /// `a + b` and its exact rounding error, for |a| ≥ |b|.
    @inline(__always)
    private static func fastTwoSum(_ a: Double, _ b: Double) -> (high: Double, low: Double) {
        let high = a + b
        return (high, (a - high) + b)
    }

    /// `a · b` and its exact rounding error (Dekker), for operands far from overflow and underflow.
    @inline(__always)
    private static func twoProduct(_ a: Double, _ b: Double) -> (high: Double, low: Double) {
        let high = a * b
        let (aHigh, aLow) = split(a)
        let (bHigh, bLow) = split(b)
        let low = ((aHigh * bHigh - high) + aHigh * bLow + aLow * bHigh) + aLow * bLow
        return (high, low)
    }

    @inline(__always)
    private static func split(_ value: Double) -> (Double, Double) {
        let factor = 134_217_729.0 * value  // 2^27 + 1
        let high = factor - (factor - value)
        return (high, value - high)
    }
}
