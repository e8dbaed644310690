import Foundation
import SketchTestSupport
import Testing

@testable import SketchIO

@Suite struct OutputPathCheckTests {
    private func message(_ check: OutputPathCheck) -> String? {
        do {
            try check.verify()
            return nil
        } catch {
            return error.description
        }
    }

    @Test("two outputs naming the same file, spelled differently, are refused naming both options")
    func coincidingOutputsAreRefused() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var check = OutputPathCheck()
        check.outputFile(directory.path + "/out.npy", option: "--output")
        check.outputFile(directory.path + "/sub/../out.npy", option: "--quarantine")
        let text = message(check)
        #expect(text?.contains("--output") == true && text?.contains("--quarantine") == true)
    }

    @Test("- is refused as an output directory, and two outputs to standard output are refused")
    func standardOutputIsOneFileOutput() {
        var directory = OutputPathCheck()
        directory.outputDirectory("-", option: "--output")
        #expect(message(directory)?.contains("--output - (standard output) is refused") == true)
        var twice = OutputPathCheck()
        twice.outputFile("-", option: "--output")
        twice.outputFile("/dev/stdout", option: "--report-json")
        #expect(message(twice)?.contains("both write to standard output") == true)
        var once = OutputPathCheck()
        once.outputFile("-", option: "--output")
        once.outputFile("/dev/stderr", option: "--report-json")
        #expect(message(once) == nil)
    }

    @Test("no file is derived beside a stream: -, /dev/stdout, /dev/null")
    func noSidecarBesideAStream() {
        #expect(OutputTarget.sidecar(of: "out.npy", replacing: ".npy", with: ".keys.csv") == "out.keys.csv")
        #expect(OutputTarget.sidecar(of: "out", replacing: ".npy", with: ".keys.csv") == "out.keys.csv")
        for stream in ["-", "/dev/stdout", "/dev/null", "/dev/fd/1"] {
            #expect(OutputTarget.sidecar(of: stream, replacing: ".npy", with: ".rejected.ndjson") == nil)
        }
    }

    @Test("an output inside an input directory, or equal to an input file, is refused")
    func outputsInsideInputsAreRefused() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.path + "/in.ndjson"
        try Data([0x0A]).write(to: URL(fileURLWithPath: input))
        var inside = OutputPathCheck()
        inside.inputs([directory.path], option: "input")
        inside.outputFile(directory.path + "/out.ndjson", option: "--output")
        #expect(message(inside)?.contains("inside the input directory") == true)
        var same = OutputPathCheck()
        same.inputs([input], option: "input")
        same.outputFile(input, option: "--output")
        #expect(message(same)?.contains("is also an input") == true)
        var containing = OutputPathCheck()
        containing.inputs([input], option: "input")
        containing.outputDirectory(directory.path, option: "--output")
        #expect(message(containing)?.contains("rewrites") == true)
    }

    @Test("a FIFO named as two inputs is refused: the second read would find it empty")
    func streamReadTwiceIsRefused() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.path + "/in"
        #expect(mkfifo(fifo, 0o644) == 0)
        var check = OutputPathCheck()
        check.inputs([fifo], option: "--raw")
        check.inputs([directory.path + "/../\(directory.lastPathComponent)/in"], option: "--simplified")
        #expect(message(check)?.contains("same stream") == true)
    }

    @Test("distinct outputs, stdin and stream targets such as /dev/null pass")
    func distinctPathsPass() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var check = OutputPathCheck()
        check.inputs(["-"], option: "input")
        check.outputFile(directory.path + "/a.npy", option: "--output")
        check.outputFile("/dev/null", option: "--quarantine")
        check.outputFile("/dev/null", option: "--report-json")
        #expect(message(check) == nil)
    }
}
