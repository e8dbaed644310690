import SketchTestSupport
import Foundation
import Testing
@testable import SketchEval

@Suite("Loading the ONNX Runtime library")
struct OnnxRuntimeLoadingTests {
    @Test func loadsTheConfiguredLibraryAndReportsItsVersion() throws {
        let runtime = try OrtTestSupport.runtime()
        #expect(!runtime.version.isEmpty)
        #expect(OnnxRuntime.requestedAPIVersion > 0)
    }

    @Test func missingLibraryIsAClearError() {
        do {
            _ = try OnnxRuntime(libraryPath: "/nonexistent/libonnxruntime.so")
            Issue.record("a missing library loaded")
        } catch let OnnxRuntimeError.libraryUnavailable(reason) {
            #expect(reason.contains("not found at '/nonexistent/libonnxruntime.so'"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func aFileThatIsNotALibraryIsAClearError() throws {
        do {
            _ = try OnnxRuntime(libraryPath: OrtTestSupport.tinyModel)
            Issue.record("an ONNX model loaded as a shared library")
        } catch let OnnxRuntimeError.libraryUnavailable(reason) {
            #expect(reason.hasPrefix("cannot load the ONNX Runtime library"))
        }
    }

    @Test func explicitPathWinsOverEnvironmentAndRecordedPath() throws {
        let path = try OnnxRuntimeLibraryLocator.resolve(
            explicit: "/a/lib.so", environment: ["SKETCHPREP_ORT_LIBRARY": "/b/lib.so"], searchingFrom: "/")
        #expect(path == "/a/lib.so")
    }

    @Test func environmentWinsOverRecordedPath() throws {
        let path = try OnnxRuntimeLibraryLocator.resolve(
            explicit: nil, environment: ["SKETCHPREP_ORT_LIBRARY": "/b/lib.so"],
            searchingFrom: OrtTestSupport.repositoryRoot.path)
        #expect(path == "/b/lib.so")
    }

    @Test func nothingConfiguredIsAClearError() {
        #expect(throws: OnnxRuntimeError.self) {
            try OnnxRuntimeLibraryLocator.resolve(explicit: nil, environment: [:], searchingFrom: "/")
        }
    }
}
