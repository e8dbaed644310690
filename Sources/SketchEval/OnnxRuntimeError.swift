/// Why loading ONNX Runtime, loading a model or running it failed. Messages are meant for the user.
public enum OnnxRuntimeError: Error, Equatable, CustomStringConvertible {
    /// The shared library could not be located, loaded or does not provide the requested C API.
    case libraryUnavailable(String)
    /// The model file is missing or ONNX Runtime rejected it.
    case modelUnavailable(path: String, reason: String)
    /// The caller's inputs do not match what the model declares.
    case inputMismatch(String)
    /// A tensor's shape and value count disagree.
    case invalidTensor(String)
    /// ONNX Runtime reported an error while running the model.
    case inferenceFailed(String)

    /// The message, as printed to the user.
    public var description: String {
        switch self {
        case .libraryUnavailable(let reason): return reason
        case .modelUnavailable(let path, let reason): return "cannot load model '\(path)': \(reason)"
        case .inputMismatch(let reason): return "input mismatch: \(reason)"
        case .invalidTensor(let reason): return "invalid tensor: \(reason)"
        case .inferenceFailed(let reason): return reason
        }
    }
}
