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
        let mark = Array("parts \(part.count)\ninput \(input.identity)\nconfig \(hasher.finalize().hexString)\n".utf8)
        let path = "\(config.output.directory)/\(DatasetLayout.reduceRunMark)"
        if try DirectorySwap.createExclusively(path, bytes: mark) { return }
        guard let existing = try? InputFile.readAll(path, maximumBytes: 4096), existing == mark else {
            throw PipelineError(
                .partials,
                "\(config.output.directory) holds the reduce parts of another merge (other partials, settings or number of parts, see \(path)); "
                    + "finish that run with `sketchprep merge … --finalize`, or remove \(config.output.directory) to start over")
        }
    }
}
