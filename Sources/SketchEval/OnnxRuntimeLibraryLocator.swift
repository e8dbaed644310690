import Foundation
import SketchIO

/// Finds the ONNX Runtime shared library, in this order (docs/eval.md, "Where eval finds ONNX Runtime"):
/// 1. an explicit path (`--ort-library`);
/// 2. the `SKETCHPREP_ORT_LIBRARY` environment variable;
/// 3. `libonnxruntime.so*` next to the running binary;
/// 4. the active Python environment's `onnxruntime` package (`python3` on `PATH`, so an activated
///    virtual environment or conda environment wins): `onnxruntime/capi/libonnxruntime.so*` under
///    its site-packages directories;
/// 5. system paths: the `LD_LIBRARY_PATH` directories, then `/usr/local/lib`, the multiarch
///    `/usr/lib/<arch>-linux-gnu`, `/usr/lib64` and `/usr/lib`.
///
/// Nothing depends on the current directory or the repository, so the binary works from anywhere.
package enum OnnxRuntimeLibraryLocator {
    /// Environment variable naming the library path.
    package static let environmentVariable = "SKETCHPREP_ORT_LIBRARY"
    /// File names the library may have: `libonnxruntime.so` or a versioned `libonnxruntime.so.1.x.y`.
    package static let libraryNamePrefix = "libonnxruntime.so"

    /// The directories searched after the option and the environment variable, in order.
    package struct SearchPlaces: Sendable {
        /// Directory of the running binary (3).
        package var executableDirectory: String?
        /// site-packages directories of the active Python environment (4).
        package var pythonPackageDirectories: [String]
        /// System library directories (5).
        package var systemDirectories: [String]

        /// Creates the places; see the properties.
        package init(executableDirectory: String?, pythonPackageDirectories: [String], systemDirectories: [String]) {
            self.executableDirectory = executableDirectory
            self.pythonPackageDirectories = pythonPackageDirectories
            self.systemDirectories = systemDirectories
        }

        /// The places of this process: its binary, `python3` on `PATH`, `LD_LIBRARY_PATH` and the usual directories.
        package static func ofThisProcess(environment: [String: String]) -> SearchPlaces {
            let executable = FileSystem.symbolicLinkTarget("/proc/self/exe") ?? CommandLine.arguments.first
            let libraryPath = (environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init)
            return SearchPlaces(
                executableDirectory: executable.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path },
                pythonPackageDirectories: pythonSitePackages(environment: environment),
                systemDirectories: libraryPath + ["/usr/local/lib", "/usr/lib/\(machineArchitecture)-linux-gnu", "/usr/lib64", "/usr/lib"])
        }
    }

    /// The library path to load, or throws `.libraryUnavailable` listing where it looked.
    package static func resolve(
        explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        places: SearchPlaces? = nil
    ) throws -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty { return fromEnvironment }
        let places = places ?? .ofThisProcess(environment: environment)
        let directories =
            [places.executableDirectory].compactMap { $0 }
            + places.pythonPackageDirectories.map { "\($0)/onnxruntime/capi" }
            + places.systemDirectories
        for directory in directories {
            if let library = library(in: directory) { return library }
        }
        throw OnnxRuntimeError.libraryUnavailable(
            "no ONNX Runtime library found: pass --ort-library PATH, set \(environmentVariable), put \(libraryNamePrefix) next to "
                + "the sketchprep binary, or `pip install onnxruntime` in the active Python environment "
                + "(looked in: \(directories.joined(separator: ", ")))")
    }

    /// `directory/libonnxruntime.so` when present, else the first versioned `libonnxruntime.so.*` by name; nil if none.
    static func library(in directory: String) -> String? {
        let names = FileSystem.entryNames(of: directory)
        let candidates = names.filter { $0 == libraryNamePrefix || $0.hasPrefix(libraryNamePrefix + ".") }.sorted()
        return candidates.first.map { "\(directory)/\($0)" }
    }

    /// The site-packages directories of `python3` on `PATH` (purelib, platlib, the user site), or
    /// none when there is no `python3`.
    static func pythonSitePackages(environment: [String: String]) -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import site, sysconfig; p = sysconfig.get_paths(); "
                + "print(p['purelib']); print(p['platlib']); print(site.getusersitepackages())",
        ]
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return [] }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return [] }
        var seen = Set<String>()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter { seen.insert($0).inserted }
    }

    /// `x86_64` or `aarch64`, for the multiarch library directory.
    private static var machineArchitecture: String {
        #if arch(arm64)
        "aarch64"
        #else
        "x86_64"
        #endif
    }
}
