import ArgumentParser
import SketchCore
import SketchIO
import SketchRaster

/// `sketchprep raster`: PNG images (e.g. TU-Berlin) → gray, resampled, one NPY array.
struct RasterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raster",
        abstract: "Decode PNG images to gray and resample them to SIZE×SIZE into one NPY array.",
        discussion: """
            Any PNG is accepted (1–16-bit gray, gray+alpha, RGB, RGBA, palette, interlaced); alpha is \
            composited over white and colour converted with BT.601 luma (Pillow's "L"). Images are \
            resampled by exact area averaging to SIZE×SIZE, non-square ones centred on white (aspect \
            kept). Output: uint8 (N, SIZE, SIZE) in input order, or float32 pixel/255 with --float32 \
            (white background = 1.0, the book's CNN input). Unreadable or corrupt files are listed in \
            the quarantine file and reported; they never stop the run.
            """
    )

    @Argument(help: "PNG files, or directories searched recursively for *.png (sorted by path).")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Output .npy file.")
    var output: String

    @Option(help: "Output side in pixels (256 is the book's TU-Berlin CNN input).")
    var size = 256

    @Flag(help: "Keep the images' own size instead of resampling (all inputs must share it).")
    var keepSize = false

    @Flag(help: "Write float32 values in [0, 1] (pixel / 255) instead of uint8.")
    var float32 = false

    @Option(help: "Where the paths of rejected files go, one per line. (default: OUTPUT with .npy replaced by .rejected.txt)")
    var quarantine: String?

    func validate() throws {
        guard size > 0 else { throw ValidationError("--size must be positive") }
    }

    func run() throws {
        let files = try ImageInputs.expand(inputs)
        try OutputPaths.createParentDirectory(of: output)
        let rejected = try QuarantineWriter(path: quarantine ?? output.replacingSuffix(".npy", with: ".rejected.txt"))
        let resampler = AreaDownscaler(side: size)
        var writer: NPYWriter?
        var tally = RunTally()
        for path in files {
            tally.read += 1
            do {
                var image = try PNGImage.readGray(path: path)
                if !keepSize { image = resampler.resample(image) }
                if writer == nil {
                    writer = try NPYWriter(path: output, dtype: float32 ? .float32 : .uint8,
                                           itemShape: [image.height, image.width])
                }
                guard let writer, writer.itemShape == [image.height, image.width] else {
                    throw PNGError("size \(image.width)x\(image.height) differs from the first image's "
                        + "\(writer?.itemShape[1] ?? 0)x\(writer?.itemShape[0] ?? 0) (--keep-size)")
                }
                if float32 {
                    try writer.append(image.pixels.map { Float($0) / 255 })
                } else {
                    try writer.append(image.pixels)
                }
                tally.written += 1
            } catch let error as PNGError {
                tally.rejected += 1
                try rejected.add(RejectedLine(location: SourceLocation(file: path, line: 0), reason: error.reason,
                                              bytes: Array(path.utf8)))
            }
        }
        if writer == nil {
            writer = try NPYWriter(path: output, dtype: float32 ? .float32 : .uint8, itemShape: [size, size])
        }
        try writer?.commit()
        try rejected.finish()
        printToStandardError("raster: \(tally) → \(output)")
    }
}
