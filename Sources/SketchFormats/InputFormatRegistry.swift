/// The one table of input formats: each entry is a plug-in type (``InputFormatPlugin``) holding
/// the format's content rule, file suffixes, chunking, word rule, raw-or-simplified declaration,
/// reading side and decoder. Adding an input format is one new plug-in file, one case of
/// `DrawingFileFormat` and one row here (docs/formats.md).
package enum InputFormatRegistry {
    /// The plug-ins, in the order `--format auto` asks them (``DrawingFileFormat/detect(_:)``):
    /// the zip magic first, `.bin`'s structural check last.
    package static let entries: [any InputFormatPlugin.Type] = [
        Stroke3InputFormat.self,
        NDJSONInputFormat.self,
        KaggleCSVInputFormat.self,
        SVGInputFormat.self,
        GoogleBinaryInputFormat.self,
    ]

    /// The plug-in of `format`.
    package static func plugin(of format: DrawingFileFormat) -> any InputFormatPlugin.Type {
        entries.first { $0.format == format }!
    }

    /// File name endings a directory is searched for, over every entry.
    package static var fileSuffixes: [String] { entries.reversed().flatMap { $0.fileSuffixes } }

    /// File name endings searched for at every level below a directory, over every entry.
    package static var recursiveFileSuffixes: [String] { entries.flatMap { $0.recursiveFileSuffixes } }
}

extension DrawingFileFormat {
    /// The format's plug-in (``InputFormatRegistry``).
    package var plugin: any InputFormatPlugin.Type { InputFormatRegistry.plugin(of: self) }
}
