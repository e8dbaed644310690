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
/// The filter is separable: a horizontal pass into a `Float` buffer, then a vertical pass that
/// combines whole rows eight pixels at a time (SIMD), rounding only once at the end. Each pass sums
/// a handful of terms of 0–255 in Float, accurate to about 1e-4, far below the final rounding step.
public struct AreaDownscaler: Sendable {
    /// Output width and height in pixels.
    public let side: Int

    /// Creates a resampler to `side`×`side` pixels.
    public init(side: Int) {
        precondition(side > 0, "output side must be positive")
        self.side = side
    }

    /// The resampled image (all white for an empty input).
    public func resample(_ image: GrayImage) -> GrayImage {
        guard image.width > 0, image.height > 0 else { return GrayImage(width: side, height: side, filledWith: 255) }
        let square = max(image.width, image.height)
        let columns = AxisCoverage(sourceCount: image.width, frame: square, outputCount: side)
        let rows = AxisCoverage(sourceCount: image.height, frame: square, outputCount: side)
        let side = self.side
        var horizontal = [Float](repeating: 0, count: image.height * side)
        image.pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { target in
                for row in 0..<image.height {
                    columns.apply(to: UnsafeBufferPointer(rebasing: source[(row * image.width)...]),
                                  into: UnsafeMutableBufferPointer(rebasing: target[(row * side)...]))
                }
            }
        }
        var pixels = [UInt8](repeating: 0, count: side * side)
        horizontal.withUnsafeBufferPointer { partial in
            pixels.withUnsafeMutableBufferPointer { output in
                for row in 0..<side {
                    rows.combineRows(of: row, from: partial.baseAddress!, width: side,
                                     into: output.baseAddress! + row * side)
                }
            }
        }
        return GrayImage(width: side, height: side, pixels: pixels)
    }
}

/// Precomputed coverage weights of one axis: for each output pixel, the source pixels it overlaps
/// and the fraction of its footprint each covers, plus the fraction that falls in the white padding.
struct AxisCoverage {
    /// Source index of each output pixel's first tap.
    private(set) var firstSource: [Int] = []
    /// Index into `weights` of each output pixel's first tap; one extra entry closes the last range.
    private(set) var weightStart: [Int] = []
    /// Coverage fractions, output pixel after output pixel.
    private(set) var weights: [Float] = []
    /// Fraction of each output pixel that lies in the white padding.
    private(set) var paddingWeight: [Float] = []

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
                    weights.append(Float(overlap / footprint))
                    covered += overlap
                }
            }
            paddingWeight.append(Float(max(0, footprint - covered) / footprint))
        }
        weightStart.append(weights.count)
    }

    /// One line through this axis: `source` (sourceCount bytes) → `target` (outputCount values).
    func apply(to source: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableBufferPointer<Float>) {
        weights.withUnsafeBufferPointer { weights in
            for output in 0..<paddingWeight.count {
                var sum = paddingWeight[output] * 255
                var sourceIndex = firstSource[output]
                for k in weightStart[output]..<weightStart[output + 1] {
                    sum += weights[k] * Float(source[sourceIndex])
                    sourceIndex += 1
                }
                target[output] = sum
            }
        }
    }

    /// Output row `output` of the vertical pass: the weighted sum of the source rows it covers
    /// (rows of `width` floats in `rows`) plus its white padding, rounded half up to bytes.
    func combineRows(of output: Int, from rows: UnsafePointer<Float>, width: Int, into target: UnsafeMutablePointer<UInt8>) {
        let padding = paddingWeight[output] * 255
        let first = firstSource[output]
        let tapRange = weightStart[output]..<weightStart[output + 1]
        weights.withUnsafeBufferPointer { weights in
            var column = 0
            while column + 8 <= width {
                var sum = SIMD8<Float>(repeating: padding + 0.5)
                for k in tapRange {
                    let row = UnsafeRawPointer(rows + (first + k - tapRange.lowerBound) * width + column)
                    sum += weights[k] * row.loadUnaligned(as: SIMD8<Float>.self)
                }
                for lane in 0..<8 { target[column + lane] = UInt8(truncatingIfNeeded: Int32(min(sum[lane], 255))) }
                column += 8
            }
            while column < width {
                var sum = padding + 0.5
                for k in tapRange { sum += weights[k] * rows[(first + k - tapRange.lowerBound) * width + column] }
                target[column] = UInt8(min(255, sum))
                column += 1
            }
        }
    }
}
