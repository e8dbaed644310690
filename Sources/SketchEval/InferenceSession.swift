import COnnxRuntime
import Foundation
import SketchIO

/// Name, element type and shape of one model input or output as the model declares it.
public struct TensorDescription: Sendable, Equatable {
    /// The input/output name used to feed or fetch it.
    public let name: String
    /// Whether the element type is float32 (the only type SketchEval feeds and fetches).
    public let isFloat32: Bool
    /// Declared dimensions; `nil` for a dynamic one (e.g. the batch size).
    public let shape: [Int?]

    /// Whether a concrete `shape` fits this declaration (same rank, equal static dimensions).
    public func accepts(_ concrete: [Int]) -> Bool {
        concrete.count == shape.count && zip(shape, concrete).allSatisfy { $0 == nil || $0 == $1 }
    }

    /// The declared shape as text, `?` for dynamic dimensions, e.g. "[?, 75, 3]".
    public var shapeText: String { "[" + shape.map { $0.map(String.init) ?? "?" }.joined(separator: ", ") + "]" }
}

/// One ONNX model loaded for CPU inference. Inputs are validated against the model's declared
/// names, types and shapes before running, so mistakes come back as `OnnxRuntimeError.inputMismatch`.
public final class InferenceSession {
    private let runtime: OnnxRuntime
    private let handle: OpaquePointer
    /// The model's inputs, in declaration order.
    public let inputs: [TensorDescription]
    /// The model's outputs, in declaration order.
    public let outputs: [TensorDescription]
    private static let maxRank = 8

    /// Loads the model at `modelPath`, running with `threads` intra-op threads (0 = ONNX Runtime's default).
    public init(runtime: OnnxRuntime, modelPath: String, threads: Int = 0) throws {
        guard let status = try? FileSystem.status(modelPath), !status.isDirectory else {
            throw OnnxRuntimeError.modelUnavailable(path: modelPath, reason: "no such file")
        }
        var message = [CChar](repeating: 0, count: 1024)
        guard let handle = sp_ort_session_open(runtime.handle, modelPath, Int32(clamping: threads), &message, message.count) else {
            throw OnnxRuntimeError.modelUnavailable(path: modelPath, reason: String(nulTerminated: message))
        }
        self.runtime = runtime
        self.handle = handle
        do {
            inputs = try Self.describe(handle, isOutput: false)
            outputs = try Self.describe(handle, isOutput: true)
        } catch {
            sp_ort_session_close(handle)
            throw error
        }
    }

    deinit {
        sp_ort_session_close(handle)
    }

    private static func describe(_ handle: OpaquePointer, isOutput: Bool) throws -> [TensorDescription] {
        let flag: Int32 = isOutput ? 1 : 0
        return try (0..<sp_ort_session_io_count(handle, flag)).map { index in
            var name = [CChar](repeating: 0, count: 512)
            var message = [CChar](repeating: 0, count: 1024)
            var shape = [Int64](repeating: 0, count: maxRank)
            var rank = 0
            var elementType: Int32 = 0
            guard
                sp_ort_session_io_info(
                    handle, flag, index, &name, name.count, &elementType, &shape, shape.count, &rank,
                    &message, message.count) == 0
            else {
                throw OnnxRuntimeError.inferenceFailed(String(nulTerminated: message))
            }
            let dims = shape.prefix(min(rank, maxRank)).map { $0 < 0 ? nil : Int($0) }
            return TensorDescription(name: String(nulTerminated: name), isFloat32: elementType == 1, shape: dims)
        }
    }

    /// Runs the model on `feeds` (one tensor per declared input, by name) and returns the requested
    /// `outputNames` (all outputs when nil). The batch dimension may be any size the model allows.
    public func run(_ feeds: [String: FloatTensor], outputNames: [String]? = nil) throws -> [String: FloatTensor] {
        try validate(feeds)
        let wanted = outputNames ?? outputs.map(\.name)
        for name in wanted where !outputs.contains(where: { $0.name == name }) {
            throw OnnxRuntimeError.inputMismatch(
                "the model has no output '\(name)' (outputs: \(outputs.map(\.name).joined(separator: ", ")))")
        }
        let ordered = inputs.compactMap { input in feeds[input.name].map { (input.name, $0) } }  // all present: validated
        let shapes = ordered.flatMap { $0.1.shape.map(Int64.init) }
        let ranks = ordered.map { $0.1.shape.count }
        var outputData = [UnsafeMutablePointer<Float>?](repeating: nil, count: wanted.count)
        var outputShapes = [Int64](repeating: 0, count: wanted.count * Self.maxRank)
        var outputRanks = [Int](repeating: 0, count: wanted.count)
        var message = [CChar](repeating: 0, count: 2048)

        let status = withCStrings(ordered.map(\.0)) { inputNames in
            withCStrings(wanted) { outputNamePointers in
                withFloatPointers(ordered.map(\.1.values)) { dataPointers in
                    sp_ort_session_run(
                        handle, inputNames, dataPointers, shapes, ranks, ordered.count,
                        outputNamePointers, wanted.count, Self.maxRank,
                        &outputData, &outputShapes, &outputRanks, &message, message.count)
                }
            }
        }
        defer { for pointer in outputData { sp_ort_free(pointer) } }
        guard status == 0 else { throw OnnxRuntimeError.inferenceFailed(String(nulTerminated: message)) }

        var results: [String: FloatTensor] = [:]
        for (index, name) in wanted.enumerated() {
            let shape = outputShapes[(index * Self.maxRank)..<(index * Self.maxRank + outputRanks[index])].map { Int($0) }
            let count = shape.reduce(1, *)
            let values = outputData[index].map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
            results[name] = try FloatTensor(shape: shape, values: values)
        }
        return results
    }

    private func validate(_ feeds: [String: FloatTensor]) throws {
        for name in feeds.keys where !inputs.contains(where: { $0.name == name }) {
            throw OnnxRuntimeError.inputMismatch("the model has no input '\(name)' (inputs: \(inputs.map(\.name).joined(separator: ", ")))")
        }
        for input in inputs {
            guard let tensor = feeds[input.name] else {
                throw OnnxRuntimeError.inputMismatch("missing input '\(input.name)' of shape \(input.shapeText)")
            }
            guard input.isFloat32 else {
                throw OnnxRuntimeError.inputMismatch("input '\(input.name)' is not float32; SketchEval only feeds float32 tensors")
            }
            guard input.accepts(tensor.shape) else {
                throw OnnxRuntimeError.inputMismatch(
                    "input '\(input.name)' expects shape \(input.shapeText), got \(tensor.shape)")
            }
        }
    }
}

/// Calls `body` with a C array of NUL-terminated copies of `strings`, valid only during the call.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { UnsafePointer($0) })
}

/// Calls `body` with base pointers of each array in `arrays`, valid only during the call.
private func withFloatPointers<R>(_ arrays: [[Float]], _ body: ([UnsafePointer<Float>?]) -> R) -> R {
    func nest(_ index: Int, _ collected: [UnsafePointer<Float>?]) -> R {
        if index == arrays.count { return body(collected) }
        return arrays[index].withUnsafeBufferPointer { nest(index + 1, collected + [$0.baseAddress]) }
    }
    return nest(0, [])
}
