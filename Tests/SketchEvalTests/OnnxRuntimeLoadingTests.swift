import Foundation
import SketchTestSupport
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

    private static let nowhere = OnnxRuntimeLibraryLocator.SearchPlaces(
        executableDirectory: nil, pythonPackageDirectories: [], systemDirectories: [])

    @Test func explicitPathWinsOverEnvironmentAndEveryDirectory() throws {
        let path = try OnnxRuntimeLibraryLocator.resolve(
            explicit: "/a/lib.so", environment: ["SKETCHPREP_ORT_LIBRARY": "/b/lib.so"], places: Self.nowhere)
        #expect(path == "/a/lib.so")
    }

    @Test func environmentWinsOverTheDirectories() throws {
        let root = try Self.directories(["bin/libonnxruntime.so"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = try OnnxRuntimeLibraryLocator.resolve(
            explicit: nil, environment: ["SKETCHPREP_ORT_LIBRARY": "/b/lib.so"],
            places: .init(executableDirectory: "\(root)/bin", pythonPackageDirectories: [], systemDirectories: []))
        #expect(path == "/b/lib.so")
    }

    @Test func directoriesAreSearchedBinaryThenPythonPackageThenSystem() throws {
        let root = try Self.directories([
            "bin/README", "site/onnxruntime/capi/libonnxruntime.so.1.20.1",
            "system/libonnxruntime.so", "other/libonnxruntime.so.1.19.0",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        func found(binary: String, site: [String], system: [String]) throws -> String {
            try OnnxRuntimeLibraryLocator.resolve(
                explicit: nil, environment: [:],
                places: .init(
                    executableDirectory: "\(root)/\(binary)", pythonPackageDirectories: site.map { "\(root)/\($0)" },
                    systemDirectories: system.map { "\(root)/\($0)" }))
        }
        #expect(try found(binary: "other", site: ["site"], system: ["system"]) == "\(root)/other/libonnxruntime.so.1.19.0")
        #expect(
            try found(binary: "bin", site: ["missing", "site"], system: ["system"])
                == "\(root)/site/onnxruntime/capi/libonnxruntime.so.1.20.1")
        #expect(try found(binary: "bin", site: [], system: ["missing", "system"]) == "\(root)/system/libonnxruntime.so")
    }

    @Test func theActivePythonEnvironmentsPackageIsFound() throws {
        // python3 on PATH is the one the test suite runs with: `make test` puts .venv/bin first, where scripts/requirements.txt
        // installs onnxruntime.
        let sitePackages = OnnxRuntimeLibraryLocator.pythonSitePackages(environment: ProcessInfo.processInfo.environment)
        #expect(!sitePackages.isEmpty)
        let path = try OnnxRuntimeLibraryLocator.resolve(
            explicit: nil,
            environment: ProcessInfo.processInfo.environment.filter {
                $0.key != OnnxRuntimeLibraryLocator.environmentVariable
            }, places: .init(executableDirectory: nil, pythonPackageDirectories: sitePackages, systemDirectories: []))
        #expect(path.contains("/onnxruntime/capi/libonnxruntime.so"))
    }

    @Test func nothingFoundIsAClearErrorNamingThePlaces() {
        do {
            _ = try OnnxRuntimeLibraryLocator.resolve(
                explicit: nil, environment: [:],
                places: .init(
                    executableDirectory: "/nonexistent/bin", pythonPackageDirectories: [], systemDirectories: ["/nonexistent/lib"]))
            Issue.record("a library was found nowhere")
        } catch let OnnxRuntimeError.libraryUnavailable(reason) {
            #expect(reason.contains("--ort-library") && reason.contains("/nonexistent/bin, /nonexistent/lib"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    /// A temporary directory holding empty files at `paths` (relative); returns its path.
    private static func directories(_ paths: [String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ort-locator-\(UUID().uuidString)").path
        for path in paths {
            let file = "\(root)/\(path)"
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: file))
        }
        return root
    }
}
