import Foundation
import SketchDataset
import SketchFormats

/// The C ABI of the Python loaders' dataset checks: the manifest and shard checks of `sketchprep
/// info` and `sketchprep verify` (`Manifest.readValid`, `DatasetVerifier.shardProblem`) and the
/// readers' caps, so the loaders hold no rule of their own.

/// The manifest of the dataset in `directory` (`Manifest.readValid`), encoded as JSON for
/// `sketchprep_result_bytes` (sizes[0] bytes), or the message of why it is refused.
@_cdecl("sketchprep_manifest_read")
public func sketchprepManifestRead(_ directory: UnsafePointer<CChar>?, _ sizes: UnsafeMutablePointer<Int64>) -> UnsafeMutableRawPointer {
    guard let directory = CText.optional(directory) else { return BatchResult(refusing: "missing directory").reporting(to: sizes) }
    let result = BatchResult()
    do {
        let manifest = try Manifest.readValid(in: DatasetDirectory.base(directory))
        result.bytes = ByteCopy(Array(try JSONEncoder().encode(manifest)))
    } catch {
        result.message = CString("\(error)")
    }
    return result.reporting(to: sizes)
}

/// Checks shard `index` of the dataset's manifest (`DatasetVerifier.shardProblem`, hashing when
/// `hash` is non-zero): a result whose message is the problem, `file: kind: detail`, or NULL when
/// the shard passes.
@_cdecl("sketchprep_manifest_check_shard")
public func sketchprepManifestCheckShard(
    _ directory: UnsafePointer<CChar>?, _ index: Int64, _ hash: Int32, _ sizes: UnsafeMutablePointer<Int64>
) -> UnsafeMutableRawPointer? {
    guard let directory = CText.optional(directory) else { return BatchResult(refusing: "missing directory").reporting(to: sizes) }
    let base = DatasetDirectory.base(directory)
    do {
        let manifest = try Manifest.readValid(in: base)
        guard manifest.shards.indices.contains(Int(index)) else {
            return BatchResult(refusing: "shard \(index) is not listed in \(base)/\(DatasetLayout.manifest)").reporting(to: sizes)
        }
        let shard = manifest.shards[Int(index)]
        guard
            let problem = DatasetVerifier.shardProblem(
                shard, index: Int(index), in: base, manifestName: DatasetLayout.manifest, hashing: hash != 0)
        else { return nil }
        return BatchResult(refusing: "\(base)/\(problem.file): \(problem.kind): \(problem.detail)").reporting(to: sizes)
    } catch {
        return BatchResult(refusing: "\(error)").reporting(to: sizes)
    }
}

/// A cap of the readers by name (docs/limits.md), or -1 for a name it does not know.
@_cdecl("sketchprep_limit")
public func sketchprepLimit(_ name: UnsafePointer<CChar>?) -> Int64 {
    switch CText.optional(name) ?? "" {
    case "ZipArchive.maximumEntryCount": return Int64(ZipArchive.maximumEntryCount)
    case "ZipArchive.maximumEntryBytes": return Int64(ZipArchive.maximumEntryBytes)
    case "ZipArchive.maximumArchiveBytes": return Int64(ZipArchive.maximumArchiveBytes)
    case "Stroke3NPZ.maximumFileSize": return Int64(Stroke3NPZ.maximumFileSize)
    default: return -1
    }
}

/// The copy of a result's bytes (`sketchprep_manifest_read`), valid until the result is freed.
@_cdecl("sketchprep_result_bytes")
public func sketchprepResultBytes(_ result: UnsafeMutableRawPointer) -> UnsafePointer<UInt8>? {
    BatchResult.from(result).bytes.map { UnsafePointer($0.pointer) }
}

/// Dataset directory arguments.
enum DatasetDirectory {
    /// `directory` without a trailing slash, as `sketchprep info` and `verify` take it.
    static func base(_ directory: String) -> String {
        directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
    }
}
