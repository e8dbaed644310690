import CYaml

/// The check a pipeline text passes before Yams composes it: libyaml's event stream is read once
/// and refused when an alias is used as a mapping key, when it holds more than
/// ``maximumAliasReferences`` aliases, or when expanding its aliases would give more than
/// ``maximumExpandedNodes`` nodes (nested anchors double at each level: 30 levels of two aliases
/// are 2³⁰ nodes from a few hundred bytes). Memory and time of the scan are linear in the text.
enum YAMLAliasCheck {
    /// Most alias references (`*name`) in one pipeline text (the bundled pipelines use none).
    static let maximumAliasReferences = 100
    /// Most nodes the document may hold once every alias is expanded.
    static let maximumExpandedNodes = 100_000

    /// Throws `PipelineError` naming `file` and the line when `text` breaks a rule above. Syntax
    /// errors are left to the composer, which reports them with their line.
    static func check(_ text: String, file: String) throws {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        try bytes.withUnsafeMutableBufferPointer { buffer in
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var scan = Scan(file: file)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return }
                try scan.take(event)
            }
        }
    }

    /// The state of one scan: open collections and the expanded size of every anchor.
    private struct Scan {
        struct Frame {
            var isMapping: Bool
            var expectsKey = true
            var size = 1
            var anchor: String?
        }
        let file: String
        var frames: [Frame] = []
        var anchorSizes: [String: Int] = [:]
        var aliases = 0
        var expanded = 0

        mutating func take(_ event: yaml_event_t) throws {
            let (file, line) = (self.file, Int(event.start_mark.line) + 1)
            let fail = { (reason: String) in PipelineError(file: file, node: nil, key: "", "line \(line): \(reason)") }
            switch event.type {
            case YAML_ALIAS_EVENT:
                aliases += 1
                guard aliases <= YAMLAliasCheck.maximumAliasReferences else {
                    throw fail("more than \(YAMLAliasCheck.maximumAliasReferences) alias references (docs/limits.md)")
                }
                if let parent = frames.last, parent.isMapping && parent.expectsKey {
                    throw fail("an alias is used as a mapping key (refused: keys are plain names)")
                }
                try add(anchorSizes[Self.text(event.data.alias.anchor)] ?? 1, fail)
                nodeEnded(size: 1, anchor: nil)
            case YAML_SCALAR_EVENT:
                try add(1, fail)
                nodeEnded(size: 1, anchor: Self.optionalText(event.data.scalar.anchor))
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                try add(1, fail)
                let anchor = event.type == YAML_SEQUENCE_START_EVENT ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
                frames.append(Frame(isMapping: event.type == YAML_MAPPING_START_EVENT, anchor: Self.optionalText(anchor)))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = frames.popLast() else { return }
                // The collection itself was counted into its parent when it started; now its contents.
                if !frames.isEmpty { frames[frames.count - 1].size += frame.size - 1 }
                nodeEnded(size: frame.size, anchor: frame.anchor)
            default:
                return
            }
        }

        /// Counts `count` more expanded nodes into the running total and the open collections.
        private mutating func add(_ count: Int, _ fail: (String) -> PipelineError) throws {
            expanded += count
            guard expanded <= YAMLAliasCheck.maximumExpandedNodes else {
                throw fail("the aliases expand to more than \(YAMLAliasCheck.maximumExpandedNodes) nodes (docs/limits.md)")
            }
            if !frames.isEmpty { frames[frames.count - 1].size += count }
        }

        /// A node (scalar, alias or finished collection) ended: its anchor's size is recorded, and
        /// the enclosing mapping moves between key and value.
        private mutating func nodeEnded(size: Int, anchor: String?) {
            if let anchor { anchorSizes[anchor] = size }
            if let index = frames.indices.last, frames[index].isMapping { frames[index].expectsKey.toggle() }
        }

        private static func optionalText(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: $0) }
        }

        private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
            optionalText(pointer) ?? ""
        }
    }
}
