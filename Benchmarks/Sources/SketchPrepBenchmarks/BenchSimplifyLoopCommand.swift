import ArgumentParser
import Foundation
import SketchCore
import SketchFormats

/// `sketchprep-benchmarks simplify-loop` (hidden): parses raw drawings, then simplifies them in
/// `simplifyAll`, the one function `instructions` counts under callgrind; prints the number of
/// drawings simplified.
struct BenchSimplifyLoopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simplify-loop",
        abstract: "Simplifies the drawings of raw NDJSON files in one function (run by `instructions` under callgrind).",
        shouldDisplay: false)

    @Argument(help: "Raw NDJSON files.")
    var files: [String]

    func run() throws {
        var parser = QuickDrawLineParser(keepsTimestamps: false)
        var drawings: [FlatStrokes] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { throw BenchmarkError("\(file): cannot read") }
            for line in data.split(separator: 0x0A) where !line.isEmpty {
                var strokes = FlatStrokes()
                _ = try Array(line).withUnsafeBufferPointer { try parser.parse($0, strokesInto: &strokes) }
                drawings.append(strokes)
            }
        }
        let points = try simplifyAll(drawings)
        print("\(drawings.count) drawings, \(points) points")
    }
}

/// `simplifyAll`'s symbol (its `@_silgen_name`), which callgrind's `--toggle-collect` names:
/// instructions count only inside that function.
let simplifyAllSymbol = "sketchprep_benchmarks_simplify_all"

/// Simplifies each of `drawings` with Google's rule as `sketchprep simplify` does (one reused
/// `Simplifier` and output buffer); returns the points written, so that the work is used.
@_silgen_name("sketchprep_benchmarks_simplify_all")
@inline(never)
func simplifyAll(_ drawings: [FlatStrokes]) throws(DrawingLimitError) -> Int {
    var simplifier = Simplifier()
    var simplified = FlatStrokes()
    var points = 0
    for drawing in drawings {
        try simplifier.simplify(drawing, into: &simplified)
        points += simplified.x.count
    }
    return points
}
