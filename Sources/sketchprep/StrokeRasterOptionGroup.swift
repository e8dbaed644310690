import ArgumentParser
import SketchRaster

extension RasterPolarity: ExpressibleByArgument {}

/// Command-line options of a stroke rasterisation (defaults: Google's 28×28 numpy_bitmap recipe).
struct StrokeRasterOptionGroup: ParsableArguments {
    @Option(help: "Output side in pixels (28: Google's bitmaps; 256 for CNN input).")
    var size = 28

    @Option(help: "Pen diameter in 256-units of the simplified drawing (scaled with it).")
    var lineWidth = 16.0

    @Option(help: "Margin on each side in 256-units (half a line width is added so strokes never clip).")
    var padding = 16.0

    @Option(help: "white-on-black (Google, MNIST-like) or black-on-white (TU-Berlin, the book's app).")
    var polarity = RasterPolarity.whiteOnBlack

    func validate() throws {
        if let problem = options.validationProblem(naming: { "--\($0)" }) { throw ValidationError(problem) }
    }

    /// The renderer settings these options describe.
    var options: StrokeRenderOptions {
        StrokeRenderOptions(side: size, lineWidth: lineWidth, padding: padding, polarity: polarity)
    }
}
