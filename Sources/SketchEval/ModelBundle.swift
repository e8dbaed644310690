import Foundation
import SketchDataset
import SketchFormats

/// A bundled model directory: `model.onnx` (one float32 input with a dynamic batch dimension, one
/// output of class probabilities) and `classes.txt` (one class word per line, output index order).
public struct ModelBundle: Sendable {
    /// The directory.
    public let directory: String
    /// Class words in output order.
    public let classNames: [String]

    /// Path of the ONNX file.
    public var modelPath: String { (directory as NSString).appendingPathComponent("model.onnx") }

    /// Reads `classes.txt`; throws `.modelUnavailable` when the directory or file is missing or empty.
    public init(directory: String) throws {
        let classesPath = (directory as NSString).appendingPathComponent(DatasetLayout.classes)
        guard let text = try? String(contentsOfFile: classesPath, encoding: .utf8) else {
            throw OnnxRuntimeError.modelUnavailable(path: directory, reason: "no classes.txt (expected model.onnx + classes.txt)")
        }
        let names = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw OnnxRuntimeError.modelUnavailable(path: classesPath, reason: "no class names") }
        // Class words reach report markup and the terminal: they follow the one name rule.
        if let problem = names.lazy.compactMap({ DataName.wordProblem($0) }).first {
            throw OnnxRuntimeError.modelUnavailable(path: classesPath, reason: problem)
        }
        self.directory = directory
        self.classNames = names
    }
}
