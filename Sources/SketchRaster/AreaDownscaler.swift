import SketchCore

/// Resamples a gray image to `side`×`side` by exact area averaging (box coverage), in both directions.
///
/// The source is first framed in a square of side `max(width, height)`, centred, the extra area being
/// white (255): aspect ratio is preserved and non-square images are padded, never stretched. Output
/// pixel `i` covers the source interval `[i·s, (i+1)·s)` (with `s = max(width, height) / side`, offset
/// by the padding) on each axis; its value is the mean of the source over that square, every source
/// pixel weighted by the exact fraction of its area inside it, then rounded half up.
///
/// - Downscaling (`s > 1`, e.g. 1111 → 256): each output pixel averages about `s²` source pixels,
///   partial pixels at the border counted by their covered fraction.
/// - Upscaling (`s < 1`, e.g. the 150×150 TU-Berlin subset → 256): each output pixel lies within at
///   most 2×2 source pixels and is their area-weighted blend (no ringing, no new extrema); an output
///   pixel entirely inside one source pixel copies it.
///
/// The filter is separable: a horizontal pass into a `Double` buffer, then a vertical pass, rounding
/// only once at the end.
public struct AreaDownscaler: Sendable {
    /// Output width and height in pixels.
    public let side: Int

    /// Creates a resampler to `side`×`side` pixels.
    public init(side: Int) {
        precondition(side > 0, "output side must be positive")
        self.side = side
    }

    /// The resampled image.
    public func resample(_ image: GrayImage) -> GrayImage {
        let square = max(image.width, image.height)
        let columns = AxisCoverage(sourceCount: image.width, frame: square, outputCount: side)
        let rows = AxisCoverage(sourceCount: image.height, frame: square, outputCount: side)
        var horizontal = [Double](repeating: 0, count: image.height * side)
        image.pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { target in
                for row in 0..<image.height {
                    let sourceRow = row * image.width
                    for column in 0..<side {
                        target[row * side + column] = columns.average(output: column) { source[sourceRow + $0] }
                    }
                }
            }
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: side * side) { output, count in
            horizontal.withUnsafeBufferPointer { partial in
                for row in 0..<side {
                    for column in 0..<side {
                        let value = rows.average(output: row) { partial[$0 * side + column] }
                        output[row * side + column] = UInt8(min(255, (value + 0.5).rounded(.down)))
                    }
                }
            }
            count = side * side
        }
        return GrayImage(width: side, height: side, pixels: pixels)
    }
}

/// Precomputed coverage weights of one axis: for each output pixel, the source pixels it overlaps
/// and the fraction of its footprint each covers, plus the fraction that falls in the white padding.
struct AxisCoverage {
    private var firstSource: [Int] = []
    private var weightStart: [Int] = []
    private var weights: [Double] = []
    private var paddingWeight: [Double] = []

    init(sourceCount: Int, frame: Int, outputCount: Int) {
        let footprint = Double(frame) / Double(outputCount)
        let origin = Double(sourceCount - frame) / 2
        for output in 0..<outputCount {
            let start = origin + Double(output) * footprint
            let end = start + footprint
            let first = max(0, Int(start.rounded(.down)))
            let last = min(sourceCount, Int(end.rounded(.up)))
            firstSource.append(first)
            weightStart.append(weights.count)
            var covered = 0.0
            if first < last {
                for source in first..<last {
                    let overlap = min(end, Double(source + 1)) - max(start, Double(source))
                    weights.append(overlap / footprint)
                    covered += overlap
                }
            }
            paddingWeight.append(max(0, footprint - covered) / footprint)
        }
        weightStart.append(weights.count)
    }

    /// Area-weighted mean for output pixel `output`, reading source values through `value(at:)`.
    @inline(__always)
    func average(output: Int, _ value: (Int) -> Double) -> Double {
        var sum = paddingWeight[output] * 255
        let first = firstSource[output]
        for k in weightStart[output]..<weightStart[output + 1] {
            sum += weights[k] * value(first + k - weightStart[output])
        }
        return sum
    }

    @inline(__always)
    func average(output: Int, _ value: (Int) -> UInt8) -> Double {
        average(output: output) { Double(value($0)) }
    }
}
