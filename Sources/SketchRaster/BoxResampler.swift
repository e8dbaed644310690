import SketchCore

/// Resamples a gray image to `side`×`side` with Pillow's BOX filter, reproducing
/// `Image.resize((side, side), Image.BOX)` (Pillow 13) bit for bit, in both directions.
///
/// **Framing.** A non-square image is first pasted on a white (255) square canvas of side
/// `max(width, height)` at `((side − width) / 2, (side − height) / 2)`, divisions rounded down, i.e.
/// centred, any odd pixel of padding going to the right or bottom. Aspect ratio is kept, never stretched.
///
/// **Filter** (per axis, separable; `n` source pixels → `m` output pixels, `scale = n / m`).
/// Output pixel `i` has its centre at `c = (i + 0.5) · scale` in source coordinates and a box window
/// of width `max(1, scale)` around it. It is the plain mean of the source pixels whose *centres* lie
/// in that window, half-open on the left: `−w/2 < (j + 0.5 − c) ≤ w/2`.
/// - Downscaling (`scale > 1`, e.g. TU-Berlin's 1111 → 256): about `scale` pixels per axis are averaged,
///   a pixel on the window border counting fully or not at all (area averaging on pixel centres).
/// - Upscaling (`scale ≤ 1`, e.g. the shared 150×150 subset → 256): exactly one source pixel per
///   output pixel, the nearest one (ties go to the higher index) — nearest-neighbour enlargement.
///
/// **Rounding**, as Pillow's 8-bit path: each tap weight `1/k` becomes the 22-bit fixed-point integer
/// `⌊0.5 + 2²² / k⌋`; the horizontal pass runs first and rounds to bytes (`(Σ p·w + 2²¹) >> 22`,
/// clamped to 0–255), then the vertical pass does the same on those bytes.
public struct BoxResampler: Sendable {
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
        let square = Self.framedInWhiteSquare(image)
        let taps = BoxFilterTaps(sourceCount: square.width, outputCount: side)
        if taps.selectsOnePixel { return Self.selecting(square, taps: taps, side: side) }
        let side = self.side
        let horizontal = [UInt8](unsafeUninitializedCapacity: square.height * side) { target, count in
            square.pixels.withUnsafeBufferPointer { source in
                for row in 0..<square.height {
                    taps.filterLine(source.baseAddress! + row * square.width, into: target.baseAddress! + row * side)
                }
            }
            count = square.height * side
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: side * side) { output, count in
            horizontal.withUnsafeBufferPointer { rows in
                for row in 0..<side {
                    taps.combineRows(of: row, from: rows.baseAddress!, width: side, into: output.baseAddress! + row * side)
                }
            }
            count = side * side
        }
        return GrayImage(width: side, height: side, pixels: pixels)
    }

    /// The resampled image when every output pixel is one source pixel (``BoxFilterTaps/selectsOnePixel``,
    /// upscaling): the two passes reduce to picking pixels, so each output row is picked from its
    /// source row once, and copied from the row above when that row has the same source row.
    private static func selecting(_ square: GrayImage, taps: BoxFilterTaps, side: Int) -> GrayImage {
        let pixels = [UInt8](unsafeUninitializedCapacity: side * side) { output, count in
            square.pixels.withUnsafeBufferPointer { source in
                taps.firstSource.withUnsafeBufferPointer { picked in
                    var previous = -1
                    for row in 0..<side {
                        let target = output.baseAddress! + row * side
                        let sourceRow = picked[row]
                        if sourceRow == previous {
                            target.update(from: target - side, count: side)
                        } else {
                            let line = source.baseAddress! + sourceRow * square.width
                            for column in 0..<side { target[column] = line[picked[column]] }
                        }
                        previous = sourceRow
                    }
                }
            }
            count = side * side
        }
        return GrayImage(width: side, height: side, pixels: pixels)
    }

    /// `image` pasted on a white square of side `max(width, height)`, offset by half the padding
    /// (rounded down) on each axis; square images are returned as they are.
    static func framedInWhiteSquare(_ image: GrayImage) -> GrayImage {
        guard image.width != image.height else { return image }
        let square = max(image.width, image.height)
        let left = (square - image.width) / 2
        let top = (square - image.height) / 2
        var pixels = [UInt8](repeating: 255, count: square * square)
        for row in 0..<image.height {
            let start = (top + row) * square + left
            pixels[start..<(start + image.width)] = image.pixels[(row * image.width)..<((row + 1) * image.width)]
        }
        return GrayImage(width: square, height: square, pixels: pixels)
    }
}

/// The taps of Pillow's BOX filter along one axis: for each output pixel, the run of source pixels
/// it averages and their common fixed-point weight (Pillow's `precompute_coeffs` followed by
/// `normalize_coeffs_8bpc`, specialised to the box kernel, whose weights are all equal).
struct BoxFilterTaps {
    /// Bits after the binary point of the fixed-point weights (Pillow's `PRECISION_BITS`, 32 − 8 − 2).
    static let precisionBits = 22
    /// Added before the final shift: rounds half up.
    static let half = 1 << (precisionBits - 1)

    /// First source index of each output pixel's run.
    private(set) var firstSource: [Int] = []
    /// Length of each output pixel's run (at least 1).
    private(set) var tapCount: [Int] = []
    /// Fixed-point weight of each tap of the run, `⌊0.5 + 2²² / tapCount⌋`.
    private(set) var weight: [Int] = []
    /// Whether every run is one pixel (weight 2²², so the pixel itself): always when upscaling.
    var selectsOnePixel: Bool { tapCount.allSatisfy { $0 == 1 } }

    init(sourceCount: Int, outputCount: Int) {
        // Same operations, in the same order and precision, as Pillow's `precompute_coeffs`.
        let scale = Double(sourceCount) / Double(outputCount)
        let filterScale = max(scale, 1)
        let support = 0.5 * filterScale
        let inverseScale = 1 / filterScale
        for output in 0..<outputCount {
            let center = (Double(output) + 0.5) * scale
            let windowStart = max(0, Int(center - support + 0.5))
            let windowEnd = min(sourceCount, Int(center + support + 0.5))
            var first = windowEnd
            var count = 0
            for source in windowStart..<max(windowStart, windowEnd) {
                let offset = (Double(source) - center + 0.5) * inverseScale
                if offset > -0.5 && offset <= 0.5 {
                    if count == 0 { first = source }
                    count += 1
                }
            }
            firstSource.append(count == 0 ? windowStart : first)
            tapCount.append(count)
            weight.append(count == 0 ? 0 : Int(0.5 + (1 / Double(count)) * Double(1 << Self.precisionBits)))
        }
    }

    /// One line through this axis: `source` (sourceCount bytes) → `target` (outputCount bytes).
    func filterLine(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>) {
        firstSource.withUnsafeBufferPointer { firstSource in
            tapCount.withUnsafeBufferPointer { tapCount in
                weight.withUnsafeBufferPointer { weight in
                    for output in 0..<tapCount.count {
                        let first = firstSource[output]
                        // One tap has weight 2²² exactly: the pixel itself (every output pixel when upscaling).
                        if tapCount[output] == 1 {
                            target[output] = source[first]
                            continue
                        }
                        var sum = 0
                        for index in first..<(first + tapCount[output]) { sum += Int(source[index]) }
                        target[output] = Self.rounded(sum * weight[output])
                    }
                }
            }
        }
    }

    /// Columns summed per vector in the vertical pass.
    private typealias ColumnBlock = SIMD16<UInt32>

    /// Output row `output` of the vertical pass: the filtered sum of the rows it averages (rows of
    /// `width` bytes in `rows`), rounded to bytes. Sixteen columns at a time in 32-bit lanes (a
    /// column sums at most ``PNGImage/maximumSide`` bytes, far below 2³²), then rounded in 64-bit
    /// lanes exactly as ``rounded(_:)``; the last columns one by one.
    func combineRows(
        of output: Int, from rows: UnsafePointer<UInt8>, width: Int, into target: UnsafeMutablePointer<UInt8>
    ) {
        let first = firstSource[output]
        let taps = tapCount[output]
        if taps == 1 {
            target.update(from: rows + first * width, count: width)
            return
        }
        let weight = SIMD16<UInt64>(repeating: UInt64(weight[output]))
        let half = SIMD16<UInt64>(repeating: UInt64(Self.half))
        let largest = SIMD16<UInt64>(repeating: 255)
        let source = UnsafeRawPointer(rows)
        let blocks = width / ColumnBlock.scalarCount
        for block in 0..<blocks {
            let column = block * ColumnBlock.scalarCount
            var sums = ColumnBlock()
            for row in first..<(first + taps) {
                let bytes = source.loadUnaligned(fromByteOffset: row * width + column, as: SIMD16<UInt8>.self)
                sums &+= ColumnBlock(truncatingIfNeeded: bytes)
            }
            let scaled = (SIMD16<UInt64>(truncatingIfNeeded: sums) &* weight &+ half) &>> UInt64(Self.precisionBits)
            let clamped = scaled.replacing(with: largest, where: scaled .> largest)
            UnsafeMutableRawPointer(target).storeBytes(
                of: SIMD16<UInt8>(truncatingIfNeeded: clamped), toByteOffset: column, as: SIMD16<UInt8>.self)
        }
        for column in blocks * ColumnBlock.scalarCount..<width {
            var sum = 0
            for row in first..<(first + taps) { sum += Int(rows[row * width + column]) }
            target[column] = Self.rounded(sum * self.weight[output])
        }
    }

    /// `(value + 2²¹) >> 22` clamped to a byte, Pillow's `clip8`.
    @inline(__always)
    static func rounded(_ weightedSum: Int) -> UInt8 {
        UInt8(min(255, max(0, (weightedSum + half) >> precisionBits)))
    }
}
