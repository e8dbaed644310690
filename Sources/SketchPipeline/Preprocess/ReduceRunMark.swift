import Foundation
import SketchDataset
import SketchIO

extension PipelineRunner {
    /// The `merge --reduce i/R` parts of one run share the output's staging area; the first part
    /// there writes ``DatasetLayout/reduceRunMark`` (number of parts, the reduce input's identity,
    /// the configuration's SHA-256) and every later part must match it, so a part of a run with
    /// other partials, settings or part count is refused before it writes anything.
    func refuseOtherReduceRuns(part: ReducePart, input: ReduceInput) throws {
        var hasher = SHA256Hasher()
        hasher.update(try PartialRun.encodeJSON(config.json))
        let mark = Array("parts \(part.count)\ninput \(try input.identity())\nconfig \(hasher.finalize().hexString)\n".utf8)
        let path = "\(config.output.directory)/\(DatasetLayout.reduceRunMark)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        if descriptor >= 0 {
            defer { close(descriptor) }
            let written = mark.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == mark.count else { throw PipelineError("cannot write \(path): \(String(cString: strerror(errno)))") }
            return
        }
        guard errno == EEXIST else { throw PipelineError("cannot write \(path): \(String(cString: strerror(errno)))") }
        guard let existing = try? InputFile.readAll(path, maximumBytes: 4096), existing == mark else {
            throw PipelineError(
                "\(config.output.directory) holds the reduce parts of another merge (other partials, settings or number of parts, see \(path)); "
                    + "finish that run with `sketchprep merge … --finalize`, or remove \(config.output.directory) to start over")
        }
    }
}
