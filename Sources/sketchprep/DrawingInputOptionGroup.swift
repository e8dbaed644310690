import ArgumentParser
import SketchFormats

extension DrawingFileFormat: ExpressibleByArgument {}

/// How drawing inputs are read: format (by content unless given) and the word of a `.bin` on
/// stdin. Shared by every command that reads drawings through `DrawingSource`.
struct DrawingInputOptionGroup: ParsableArguments {
    @Option(help: "Input format: ndjson, bin or stroke3. (default: decided by content, see docs/formats.md)")
    var format: DrawingFileFormat?

    @Option(help: "Word of .bin records read from stdin (a .bin file takes it from its name).")
    var category: String?

    /// The source reading `inputs`.
    func source(_ inputs: [String]) throws -> DrawingSource {
        try DrawingSource(inputs: inputs, format: format, category: category)
    }
}
