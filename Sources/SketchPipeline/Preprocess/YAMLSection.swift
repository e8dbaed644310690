import SketchDataset
import SketchFormats
import Yams

extension PipelineError {
    /// A configuration file error: `file:line: key: message` (the line when known, the dotted key).
    package init(file: String, node: Node?, key: String, _ message: String) {
        let line = node?.mark.map { ":\($0.line)" } ?? ""
        self.init(.configuration, key.isEmpty ? "\(file)\(line): \(message)" : "\(file)\(line): \(key): \(message)")
    }
}

/// One YAML mapping of a pipeline file, read with strict checking: unknown keys and values of
/// the wrong type are errors naming the file, line and dotted key path.
package struct YAMLSection {
    package let file: String
    /// Dotted path of this mapping (`""` for the document root).
    package let path: String
    package let node: Node
    private let entries: [(key: String, value: Node)]

    /// Wraps `node`, which must be a mapping whose keys are all in `allowed` (`nil`: any key, for a
    /// first look at a key, such as `kind`, that decides which others are allowed).
    package init(_ node: Node, file: String, path: String, allowed: [String]?) throws {
        self.file = file
        self.path = path
        self.node = node
        guard case let .mapping(mapping) = node else {
            throw PipelineError(file: file, node: node, key: path, "expected a mapping of keys to values")
        }
        var entries: [(String, Node)] = []
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else {
                throw PipelineError(file: file, node: keyNode, key: path, "keys must be strings")
            }
            if let allowed, !allowed.contains(key) {
                throw PipelineError(
                    file: file, node: keyNode, key: Self.join(path, key),
                    "unknown key (allowed here: \(allowed.joined(separator: ", ")))")
            }
            entries.append((key, value))
        }
        self.entries = entries
    }

    /// The raw node of `key`, or nil when absent or `null`.
    package func value(_ key: String) -> Node? {
        guard let node = entries.first(where: { $0.key == key })?.value else { return nil }
        return node.null == nil ? node : nil
    }

    /// Whether `key` is present at all (even with a `null` value).
    package func has(_ key: String) -> Bool { entries.contains { $0.key == key } }

    /// The nested mapping at `key`, or nil when absent.
    package func section(_ key: String, allowed: [String]) throws -> YAMLSection? {
        guard let node = value(key) else { return nil }
        return try YAMLSection(node, file: file, path: Self.join(path, key), allowed: allowed)
    }

    package func string(_ key: String) throws -> String? {
        guard let node = value(key) else { return nil }
        guard case .scalar = node, let text = node.string else { throw error(key, node, "expected a string") }
        return text
    }

    package func bool(_ key: String) throws -> Bool? {
        guard let node = value(key) else { return nil }
        guard let flag = node.bool else { throw error(key, node, "expected true or false, got \(Self.show(node))") }
        return flag
    }

    package func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let node = value(key) else { return nil }
        guard let number = node.int else { throw error(key, node, "expected an integer, got \(Self.show(node))") }
        guard range.contains(number) else {
            throw error(key, node, "must be between \(range.lowerBound) and \(range.upperBound), got \(number)")
        }
        return number
    }

    package func double(_ key: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let node = value(key), let number = try double(key) else { return nil }
        guard range.contains(number) else {
            throw error(key, node, "must be between \(range.lowerBound) and \(range.upperBound), got \(number)")
        }
        return number
    }

    /// A number with no range check here (for values whose bounds are checked elsewhere).
    package func double(_ key: String) throws -> Double? {
        guard let node = value(key) else { return nil }
        guard let number = node.float ?? node.int.map(Double.init) else {
            throw error(key, node, "expected a number, got \(Self.show(node))")
        }
        return number
    }

    package func stringList(_ key: String) throws -> [String]? {
        guard let node = value(key) else { return nil }
        guard case let .sequence(sequence) = node else { throw error(key, node, "expected a list of strings") }
        return try sequence.map { item in
            guard case .scalar = item, let text = item.string else { throw error(key, item, "expected a list of strings") }
            return text
        }
    }

    /// A value that must be one of `E`'s raw values.
    package func choice<E: RawRepresentable & CaseIterable>(_ key: String, of type: E.Type) throws -> E? where E.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let match = E(rawValue: text) else {
            throw error(key, value(key), "unknown value '\(text)' (expected one of: \(E.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return match
    }

    package func error(_ key: String, _ node: Node?, _ message: String) -> PipelineError {
        PipelineError(file: file, node: node ?? self.node, key: Self.join(path, key), message)
    }

    private static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : key.isEmpty ? path : "\(path).\(key)"
    }

    private static func show(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar, .alias: return node.string.map { "'\($0)'" } ?? "an alias"
        }
    }
}
