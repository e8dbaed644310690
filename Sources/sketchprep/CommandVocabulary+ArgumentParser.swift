import ArgumentParser
import Foundation
import SketchPipeline

extension CommandVocabulary {
    /// The subcommands and long options of `command` as swift-argument-parser describes them
    /// (its JSON help dump), with the parser's built-in `help` subcommand and `--help`; nil if the
    /// description cannot be read.
    static func of(_ command: any ParsableCommand.Type) -> CommandVocabulary? {
        guard let json = try? JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8)) as? [String: Any],
            let root = json["command"] as? [String: Any]
        else { return nil }
        return vocabulary(root)
    }

    private static func vocabulary(_ info: [String: Any]) -> CommandVocabulary {
        let arguments = info["arguments"] as? [[String: Any]] ?? []
        let names = arguments.flatMap { $0["names"] as? [[String: Any]] ?? [] }
        let long = names.compactMap { $0["kind"] as? String == "long" ? $0["name"] as? String : nil }
        var subcommands = (info["subcommands"] as? [[String: Any]] ?? []).map(vocabulary)
        if !subcommands.isEmpty, !subcommands.contains(where: { $0.name == "help" }) {
            subcommands.append(CommandVocabulary(name: "help", longOptions: []))
        }
        var options = Array(Set(long + ["help"])).sorted()
        if !subcommands.isEmpty {
            options = Array(Set(options + ["version", "experimental-dump-help", "generate-completion-script"])).sorted()
        }
        return CommandVocabulary(name: info["commandName"] as? String ?? "", longOptions: options, subcommands: subcommands)
    }
}
