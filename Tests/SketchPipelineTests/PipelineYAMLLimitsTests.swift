import Foundation
import Testing

@testable import SketchPipeline

/// Pipeline text is bounded before Yams composes it (docs/limits.md, "Pipeline files").
@Suite struct PipelineYAMLLimitsTests {
    private let valid = "source: {kind: quickdraw-ndjson}\nencode: {kind: strokes, length: 75}\n"

    private func message(_ text: String) -> String {
        do {
            _ = try PipelineConfig.parse(text: text, file: "p.yaml")
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test("an alias fan-out used as a mapping key is refused before composing (it never finished parsing)")
    func aliasAsMappingKeyIsRefused() {
        var text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<8 {
            text +=
                "l\(level): &l\(level) [" + Array(repeating: "*\(level == 1 ? "a" : "l\(level - 1)")", count: 9).joined(separator: ", ")
                + "]\n"
        }
        text += "? *l7\n: value\n" + valid
        let refused = message(text)
        #expect(refused.contains("p.yaml") && refused.contains("alias"), "\(refused)")
        #expect(message("base: &b x\n*b : 1\n").contains("line 2: an alias is used as a mapping key"))
    }

    @Test("nested anchors that expand past the node cap are refused (the billion laughs)")
    func exponentialExpansionIsRefused() {
        var text = "a: &a [x, x]\n"
        for level in 1...30 {
            text += "l\(level): &l\(level) [*\(level == 1 ? "a" : "l\(level - 1)"), *\(level == 1 ? "a" : "l\(level - 1)")]\n"
        }
        #expect(message(text).contains("expand to more than \(YAMLAliasCheck.maximumExpandedNodes) nodes"))
    }

    @Test("more alias references than the cap are refused")
    func tooManyAliasesAreRefused() {
        let text =
            "a: &a x\nlist: [" + Array(repeating: "*a", count: YAMLAliasCheck.maximumAliasReferences + 1).joined(separator: ", ") + "]\n"
        #expect(message(text).contains("more than \(YAMLAliasCheck.maximumAliasReferences) alias references"))
    }

    @Test("a few aliases used as values still work")
    func aliasesAsValuesAreAccepted() throws {
        let text = "source: &s {kind: quickdraw-ndjson}\nencode: {kind: strokes, length: 75}\nname: &n p\n"
        #expect(try PipelineConfig.parse(text: text, file: "p.yaml").name == "p")
    }

    @Test("pipeline text over 1 MiB is refused, in a file and in merge's stored copy")
    func oversizedTextIsRefused() {
        let text = valid + "# " + String(repeating: "x", count: PipelineConfig.maximumTextBytes) + "\n"
        #expect(message(text).contains("longer than \(PipelineConfig.maximumTextBytes) bytes"))
    }
}
