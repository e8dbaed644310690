import Foundation
import SketchDataset

/// Runs a bundled model over shard splits in batches and ranks its outputs.
public struct Evaluator {
    /// Predictions for one split.
    public struct SplitPredictions: Sendable {
        /// One per example, in shard order. `label` is the model's index of the example's class, or -1
        /// when the shard's class is not one of the model's classes.
        public let predictions: [RankedPrediction]
        /// Examples whose class the model does not know (label -1).
        public var unknownClassCount: Int { predictions.lazy.filter { $0.label < 0 }.count }
        /// The examples with a class the model knows (the ones accuracy is measured on).
        public var labelled: [RankedPrediction] { predictions.filter { $0.label >= 0 } }
    }

    private let session: InferenceSession
    /// The model's class words.
    public let classNames: [String]
    /// The single model input.
    public let input: TensorDescription
    /// Static per-example input shape (the input shape without its batch dimension).
    public let exampleShape: [Int]
    /// The output read as class probabilities (the model's first output).
    public let outputName: String

    /// Throws `OnnxRuntimeError.inputMismatch` when the model's classes and the dataset's have no
    /// word in common, so that no example could be scored: the message gives both lists, each
    /// shortened to its first `shown` words and how many more there are.
    public static func requireCommonClasses(model: [String], dataset: [String], datasetName: String, shown: Int = 8) throws {
        guard Set(model).isDisjoint(with: dataset) else { return }
        func list(_ words: [String]) -> String {
            let head = words.prefix(shown).joined(separator: ", ")
            return words.count > shown ? "\(head), … (\(words.count - shown) more)" : head
        }
        throw OnnxRuntimeError.inputMismatch(
            "no class in common between the model (\(model.count) classes: \(list(model))) and \(datasetName) "
                + "(\(dataset.count) classes: \(list(dataset))): no example could be scored")
    }

    /// Checks that `session` has one float32 input with only its batch dimension dynamic.
    public init(session: InferenceSession, classNames: [String]) throws {
        guard session.inputs.count == 1, let input = session.inputs.first, input.isFloat32 else {
            throw OnnxRuntimeError.inputMismatch(
                "expected one float32 input, the model has \(session.inputs.map { "\($0.name) \($0.shapeText)" })")
        }
        let example = input.shape.dropFirst().compactMap { $0 }
        guard example.count == input.shape.count - 1, !example.isEmpty else {
            throw OnnxRuntimeError.inputMismatch("input '\(input.name)' \(input.shapeText) must be static apart from the batch dimension")
        }
        guard let output = session.outputs.first else { throw OnnxRuntimeError.inputMismatch("the model has no output") }
        self.session = session
        self.classNames = classNames
        self.input = input
        self.exampleShape = example
        self.outputName = output.name
    }

    /// Predicts every example of `reader`'s split, `batchSize` at a time, keeping the best `k`
    /// classes; `progress(examplesDone, shardIndex, shardCount)` is called after each batch.
    public func predict(
        _ reader: ShardSplitReader, batchSize: Int = 256, k: Int = 3,
        progress: (Int, Int, Int) -> Void = { _, _, _ in }
    ) throws -> SplitPredictions {
        let modelIndex = Dictionary(classNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let labelMap = reader.classNames.map { modelIndex[$0] ?? -1 }
        let width = exampleShape.reduce(1, *)
        var predictions: [RankedPrediction] = []
        for (shardIndex, stem) in reader.stems.enumerated() {
            let shard = try reader.shard(stem)
            guard shard.exampleShape.reduce(1, *) == width else {
                throw OnnxRuntimeError.inputMismatch(
                    "\(reader.directory)/\(stem): examples of shape \(shard.exampleShape) do not fit input '\(input.name)' \(input.shapeText)"
                )
            }
            var start = 0
            while start < shard.keys.count {
                let end = min(start + batchSize, shard.keys.count)
                let batch = try FloatTensor(
                    shape: [end - start] + exampleShape,
                    values: Array(shard.features[(start * width)..<(end * width)]))
                guard let scores = try session.run([input.name: batch], outputNames: [outputName])[outputName],
                    scores.shape == [end - start, classNames.count]
                else {
                    throw OnnxRuntimeError.inferenceFailed(
                        "output '\(outputName)' does not have shape [batch, \(classNames.count)] (classes.txt has \(classNames.count) classes)"
                    )
                }
                for row in 0..<(end - start) {
                    let label = shard.labels[start + row]
                    let mapped = labelMap.indices.contains(label) ? labelMap[label] : -1
                    predictions.append(RankedPrediction(key: shard.keys[start + row], label: mapped, scores: scores.row(row), k: k))
                }
                start = end
                progress(predictions.count, shardIndex + 1, reader.stems.count)
            }
        }
        return SplitPredictions(predictions: predictions)
    }

    /// The model inputs of the examples with the given keys (for thumbnails), read again from the shards.
    public static func inputs(forKeys keys: Set<String>, in reader: ShardSplitReader) throws -> [String: [Float]] {
        var found: [String: [Float]] = [:]
        guard !keys.isEmpty else { return found }
        for stem in reader.stems {
            let shard = try reader.shard(stem)
            let width = shard.exampleShape.reduce(1, *)
            for (row, key) in shard.keys.enumerated() where keys.contains(key) && found[key] == nil {
                found[key] = Array(shard.features[(row * width)..<((row + 1) * width)])
            }
            if found.count == keys.count { break }
        }
        return found
    }
}
