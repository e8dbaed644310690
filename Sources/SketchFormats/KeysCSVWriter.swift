import SketchIO

/// Writes the keys files: `X.keys.csv` beside the `X.npy` of `encode`, `bitmap` and `raster` (a
/// header row, then one row per array row: `key_id,word`; `raster`: `path`) and `convert --to bin`'s
/// `<word>.keys.csv` (`key_id,original_key_id`), each field quoted by RFC 4180's rule
/// (``field(_:)``), one row a line (LF). Written atomically: nothing appears at the path before
/// ``commit()``.
package final class KeysCSVWriter {
    /// The path of the keys file beside the `.npy` at `arrayPath` (`X.npy` → `X.keys.csv`), or nil
    /// when the array goes to a stream (standard output, a device, a FIFO).
    package static func path(beside arrayPath: String) -> String? {
        OutputTarget.sidecar(of: arrayPath, replacing: ".npy", with: suffix)
    }

    /// How a keys file's name ends.
    package static let suffix = ".keys.csv"

    private let file: AtomicFileWriter
    private let columns: Int
    /// Rows written after the header.
    package private(set) var rows = 0

    /// Starts the file at `path` with the `header` row.
    package init(path: String, header: [String]) throws {
        file = try AtomicFileWriter(path: path)
        columns = header.count
        try write(header)
    }

    /// Appends one row (as many fields as the header).
    package func append(_ fields: [String]) throws {
        precondition(fields.count == columns, "KeysCSVWriter: a row of \(fields.count) fields under a header of \(columns)")
        try write(fields)
        rows += 1
    }

    /// Moves the file into place.
    package func commit() throws {
        try file.commit()
    }

    private func write(_ fields: [String]) throws {
        try file.write(fields.map(Self.field).joined(separator: ",") + "\n")
    }

    /// One CSV field by RFC 4180: as it is, unless it holds a comma, a double quote, CR or LF;
    /// then in double quotes with each double quote doubled.
    package static func field(_ text: String) -> String {
        let special: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "\""), 0x0A, 0x0D]
        guard text.utf8.contains(where: special.contains) else { return text }
        return "\"" + String(text.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
    }
}
