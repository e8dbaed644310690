import Foundation
import SketchFormats
import SketchIO

extension Manifest {
    /// Largest `manifest.json` read: 64 MiB (a dataset of 10⁵ shard files takes about 20 MB).
    public static let maximumFileBytes = 64 << 20
    /// Largest count or size a manifest may state (examples, records, bytes): 10¹⁵. With at most
    /// ``maximumFileBytes`` of JSON, no sum of such counts can overflow `Int`.
    public static let maximumCount = 1_000_000_000_000_000

    /// One value of a manifest read back that cannot be right: a count that is negative or over
    /// ``maximumCount``, or a shard name that is not a plain relative path.
    package struct InvalidField: Equatable, Sendable {
        /// The key path, e.g. `records.read` or `shards[3].file`.
        package var field: String
        /// What is wrong.
        package var detail: String
    }

    /// Every invalid field, in document order; empty for a manifest sketchprep wrote. Checked
    /// before any count is added or any listed file is opened.
    package var invalidFields: [InvalidField] {
        var fields: [InvalidField] = []
        func count(_ value: Int, _ field: String) {
            if !(0...Self.maximumCount).contains(value) {
                fields.append(.init(field: field, detail: "\(value) is not a count in 0…\(Self.maximumCount)"))
            }
        }
        for (index, source) in sources.enumerated() {
            count(source.bytes, "sources[\(index)].bytes")
            if let offset = source.offset { count(offset, "sources[\(index)].offset") }
        }
        for (index, entry) in classes.enumerated() { count(entry.index, "classes[\(index)].index") }
        for split in counts.keys.sorted() {
            let splitCounts = counts[split]!
            count(splitCounts.total, "counts.\(split).total")
            for word in splitCounts.perClass.keys.sorted() { count(splitCounts.perClass[word]!, "counts.\(split).per_class.\(word)") }
        }
        for (index, shard) in shards.enumerated() {
            if let problem = DirectoryMember.lexicalProblem(shard.file) {
                fields.append(.init(field: "shards[\(index)].file", detail: "\(TerminalText.escaped(shard.file)) \(problem)"))
            }
            count(shard.examples, "shards[\(index)].examples")
            count(shard.bytes, "shards[\(index)].bytes")
        }
        count(records.read, "records.read")
        count(records.written, "records.written")
        count(records.filtered, "records.filtered")
        count(records.rejected, "records.rejected")
        count(records.sourceErrors, "records.source_errors")
        count(records.duplicateKeyIDs, "records.duplicate_key_ids")
        return fields
    }

    /// Reads the manifest `name` of `directory` as untrusted: it must be a regular file inside the
    /// directory (``DirectoryMember``: a FIFO or a link to `/dev/zero` is refused, not waited on).
    package static func read(_ name: String, in directory: String) throws -> Manifest {
        let path = "\(directory)/\(name)"
        guard case let .file(resolved, _) = try DirectoryMember.resolve(name, in: directory, field: "file", file: path) else {
            return try read(path: path)  // missing: the reader's own message
        }
        return try decode(try InputFile.readAll(resolved, maximumBytes: maximumFileBytes), path: path)
    }
}

extension Manifest {
    /// The manifest of the dataset in `base`, read with ``read(_:in:)`` and refused with a
    /// `DatasetError` naming the first value out of range (``invalidFields``): the manifest
    /// `sketchprep info` and the Python loaders (`sketchprep_manifest_read`) trust.
    package static func readValid(in base: String) throws -> Manifest {
        let manifest = try read(DatasetLayout.manifest, in: base)
        if let invalid = manifest.invalidFields.first {
            throw DatasetError(
                .dataset, "\(base)/\(DatasetLayout.manifest): \(invalid.field): \(invalid.detail) (run `sketchprep verify \(base)`)")
        }
        return manifest
    }
}

extension Manifest {
    /// The manifest in `bytes` (the in-memory entry point of ``read(path:)``); throws
    /// `DatasetError` naming `path` and the key when they are not a manifest.
    public static func decode(_ bytes: [UInt8], path: String) throws -> Manifest {
        do {
            return try JSONDecoder().decode(Manifest.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw DatasetError(
                .dataset,
                "\(path) is not a valid manifest.json: \(Self.describe(error))"
                    + " (regenerate it with sketchprep preprocess)")
        }
    }
}

/// Reads the tool's own files in memory exactly as `verify` and `merge` do, for tools outside the
/// package (the fuzzing harnesses in `Fuzz/`).
public enum DatasetFileValidation {
    /// The problems `verify` finds in `manifest.json` bytes without looking at any file: invalid
    /// values, and (when every value is in range) the count checks. Throws `DatasetError` when the
    /// bytes are not a manifest.
    public static func manifestProblems(json bytes: [UInt8]) throws -> [String] {
        let manifest = try Manifest.decode(bytes, path: DatasetLayout.manifest)
        let invalid = manifest.invalidFields.map { "\($0.field): \($0.detail)" }
        guard invalid.isEmpty else { return invalid }
        return DatasetVerifier.countProblems(manifest, manifestName: DatasetLayout.manifest).map(\.detail)
    }

    /// The number of examples in the run-file `bytes` (header included); throws `DatasetError`
    /// for a block table that does not hold (``RunFile/blockTable(size:readHeader:)``: lengths,
    /// sequence numbers, key order, the trailer's count and digest) or a block whose CRC-32C or
    /// key range does not hold or whose records break their framing (the checks
    /// ``RunRangeReader`` makes before it uses a block).
    public static func runFileExampleCount(_ bytes: [UInt8]) throws(DatasetError) -> Int {
        guard bytes.starts(with: RunFile.magic) else { throw DatasetError(.dataset, "not a sketchprep run file (wrong header)") }
        let table: [RunFile.Block]
        do {
            table = try RunFile.blockTable(size: bytes.count) { offset, count in Array(bytes[offset..<min(bytes.count, offset + count)]) }
        } catch let error as DatasetError {
            throw error
        } catch {
            throw DatasetError(.dataset, "\(error)")
        }
        var count = 0
        for (sequence, entry) in table.enumerated() {
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(DatasetError) in
                    try RunFile.checkBlock(
                        UnsafeRawBufferPointer(rebasing: raw[entry.payloadOffset..<entry.payloadOffset + entry.length]), entry,
                        sequence: sequence)
                }
            }
            count += try result.get()
        }
        return count
    }
}
