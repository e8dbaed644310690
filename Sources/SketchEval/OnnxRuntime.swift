import COnnxRuntime
import Foundation
import SketchIO

/// A loaded ONNX Runtime shared library (dlopen()ed at run time, never linked) with one environment.
///
/// Create it once per process and open any number of ``InferenceSession``s from it.
public final class OnnxRuntime {
    let handle: OpaquePointer
    /// The library's version string, e.g. "1.31.1".
    public let version: String
    /// Path of the library that was loaded.
    public let libraryPath: String

    /// The ORT C API version requested from the library (the header's ORT_API_VERSION; 0 when this
    /// build has no header, in which case every load fails with an explanation).
    public static var requestedAPIVersion: UInt32 { sp_ort_requested_api_version() }

    /// Loads the library at `libraryPath`; throws `.libraryUnavailable` with the reason when the
    /// file is missing, is not ONNX Runtime, or is older than the requested API version.
    public init(libraryPath: String) throws {
        guard FileSystem.exists(libraryPath) else {
            throw OnnxRuntimeError.libraryUnavailable(
                "ONNX Runtime library not found at '\(libraryPath)' (pass --ort-library or set \(OnnxRuntimeLibraryLocator.environmentVariable); `pip install onnxruntime` installs it)"
            )
        }
        var message = [CChar](repeating: 0, count: 1024)
        guard let handle = sp_ort_runtime_open(libraryPath, &message, message.count) else {
            throw OnnxRuntimeError.libraryUnavailable(String(nulTerminated: message))
        }
        self.handle = handle
        self.libraryPath = libraryPath
        self.version = String(validatingCString: sp_ort_runtime_version(handle)) ?? ""
    }

    deinit {
        sp_ort_runtime_close(handle)
    }
}
