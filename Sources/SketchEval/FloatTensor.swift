/// A dense row-major float32 tensor: the only element type SketchEval feeds to and reads from models.
public struct FloatTensor: Sendable, Equatable {
    /// Dimensions, outermost first (e.g. `[batch, 75, 3]`).
    public let shape: [Int]
    /// `shape.reduce(1, *)` values in row-major order.
    public let values: [Float]

    /// Wraps `values` as a tensor of `shape`; throws when the counts disagree or a dimension is negative.
    public init(shape: [Int], values: [Float]) throws {
        guard shape.allSatisfy({ $0 >= 0 }) else {
            throw OnnxRuntimeError.invalidTensor("negative dimension in shape \(shape)")
        }
        let count = shape.reduce(1, *)
        guard count == values.count else {
            throw OnnxRuntimeError.invalidTensor("shape \(shape) needs \(count) values, got \(values.count)")
        }
        self.shape = shape
        self.values = values
    }

    /// Row `index` of the outermost dimension, flattened (e.g. one sample's class scores).
    public func row(_ index: Int) -> ArraySlice<Float> {
        let width = shape.dropFirst().reduce(1, *)
        return values[(index * width)..<((index + 1) * width)]
    }
}
