import ArgumentParser
import SketchFormats
import SketchIO
import SketchPipeline

extension DrawingFileFormat: ExpressibleByArgument {}
extension InputFormat: ExpressibleByArgument {}

/// How drawing inputs are read: format (by content unless given), which drawings are raw, and the
/// word of records whose input carries none. Shared by every command that reads drawings through
/// `DrawingSource` and simplifies them (`convert`, `simplify`, `encode`, `bitmap`, `stats`), so
/// `--input-format` has one name and one meaning everywhere.
struct DrawingInputOptionGroup: ParsableArguments {
    @Option(help: "Input format: ndjson, bin, stroke3, csv or svg. (default: decided by content, see docs/formats.md)")
    var format: DrawingFileFormat?

    @Option(
        name: .customLong("input-format"),
        help:
            "Which drawings are simplified first: auto (what the input says: a t array or a coordinate that is not an integer in 0–255 is raw; .bin is simplified, SVG raw, stroke-3 taken as it is), raw (every drawing) or simplified (none)."
    )
    var inputFormat = InputFormat.auto

    @Option(help: "Word of records whose input carries none (a .bin on stdin, a Kaggle test CSV; a .bin file takes it from its name).")
    var word: String?

    /// The old name of `--word`, kept working with a deprecation message: `--category` filters
    /// categories (preprocess, pipelines), so it no longer names a word.
    @Option(name: .customLong("category"), help: .hidden)
    var deprecatedCategory: String?

    func validate() throws {
        if word != nil && deprecatedCategory != nil {
            throw ValidationError("--category is the old name of --word; give only --word")
        }
    }

    /// The source reading `inputs`; prints the deprecation message when `--category` names the word.
    func source(_ inputs: [String]) throws -> DrawingSource {
        if deprecatedCategory != nil {
            printToStandardError(
                "sketchprep: --category WORD here is deprecated: use --word WORD (--category filters categories in preprocess)")
        }
        return try DrawingSource(inputs: inputs, format: format, word: word ?? deprecatedCategory)
    }
}
