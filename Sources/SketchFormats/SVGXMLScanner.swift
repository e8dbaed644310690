/// A small, non-validating XML reader for SVG files that expands nothing and fetches nothing:
/// it reports start and end tags with their attributes and skips text, comments, processing
/// instructions, CDATA sections and a DOCTYPE without an internal subset (its external DTD is
/// never read). Refused with a `FormatError` naming the byte offset: a DOCTYPE with an internal
/// subset (where entities would be declared), any entity reference in an attribute other than
/// XML's five (`&lt;` `&gt;` `&amp;` `&quot;` `&apos;`) and character references, other `<!…>`
/// declarations, elements nested deeper than `maximumDepth`, more than `maximumAttributes` on one
/// element, mismatched or unclosed tags, and a document without one root element.
package struct SVGXMLScanner {
    /// Deepest element nesting read.
    package static let maximumDepth = 64
    /// Most attributes on one element.
    package static let maximumAttributes = 256

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Calls `onStart` with each element's local name (any `prefix:` dropped), its attributes
    /// (local names, decoded values) and depth (root 1), and `onEnd` after its content, in
    /// document order.
    package static func scan(
        _ bytes: [UInt8], onStart: (String, [String: String], Int) throws(FormatError) -> Void,
        onEnd: (String) throws(FormatError) -> Void
    ) throws(FormatError) {
        var scanner = SVGXMLScanner(bytes: bytes)
        try scanner.run(onStart: onStart, onEnd: onEnd)
    }

    private func fail(_ reason: String) -> FormatError { FormatError(.record, "XML byte \(index): \(reason)") }

    private mutating func run(
        onStart: (String, [String: String], Int) throws(FormatError) -> Void,
        onEnd: (String) throws(FormatError) -> Void
    ) throws(FormatError) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        var open: [String] = []
        var sawRoot = false
        while let next = find(UInt8(ascii: "<")) {
            index = next
            if starts(with: "<?") {
                try skip(past: "?>")
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<![CDATA[") {
                try skip(past: "]]>")
            } else if starts(with: "<!DOCTYPE") {
                guard let end = find(UInt8(ascii: ">")) else { throw fail("DOCTYPE not closed") }
                if bytes[index..<end].contains(UInt8(ascii: "[")) {
                    throw fail("DOCTYPE with an internal subset (entity declarations are not read)")
                }
                index = end + 1
            } else if starts(with: "<!") {
                throw fail("markup declaration outside a DOCTYPE")
            } else if starts(with: "</") {
                index += 2
                let name = try self.name()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw fail("expected '>' after </\(name)") }
                index += 1
                guard open.last == name else { throw fail("</\(name)> closes <\(open.last ?? "nothing")>") }
                open.removeLast()
                try onEnd(Self.localName(name))
            } else {
                index += 1
                let name = try self.name()
                guard open.isEmpty ? !sawRoot : true else { throw fail("a second root element <\(name)>") }
                guard open.count < Self.maximumDepth else { throw fail("elements nested deeper than \(Self.maximumDepth)") }
                let (attributes, closed) = try self.attributes()
                sawRoot = true
                try onStart(Self.localName(name), attributes, open.count + 1)
                if closed { try onEnd(Self.localName(name)) } else { open.append(name) }
            }
        }
        guard sawRoot else { throw fail("no element") }
        guard open.isEmpty else { throw fail("<\(open.last!)> not closed") }
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    private func find(_ byte: UInt8) -> Int? { bytes[index...].firstIndex(of: byte) }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { Array($0) == Array(bytes[index..<(index + count)]) }
    }

    private mutating func skip(past text: StaticString) throws(FormatError) {
        let pattern = text.withUTF8Buffer { Array($0) }
        var position = index
        while position + pattern.count <= bytes.count {
            if bytes[position] == pattern[0] && Array(bytes[position..<(position + pattern.count)]) == pattern {
                index = position + pattern.count
                return
            }
            position += 1
        }
        throw fail("\(text) missing")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, SVGNumbers.isWhitespace(bytes[index]) { index += 1 }
    }

    private mutating func name() throws(FormatError) -> String {
        let start = index
        while index < bytes.count, !SVGNumbers.isWhitespace(bytes[index]),
            !"/>=\"'<".utf8.contains(bytes[index])
        { index += 1 }
        guard index > start, let name = String(validating: bytes[start..<index], as: UTF8.self) else { throw fail("expected a name") }
        return name
    }

    /// The attributes up to `>` or `/>` (true when the element closes itself).
    private mutating func attributes() throws(FormatError) -> ([String: String], Bool) {
        var attributes: [String: String] = [:]
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw fail("tag not closed") }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return (attributes, false)
            }
            if starts(with: "/>") {
                index += 2
                return (attributes, true)
            }
            let name = try self.name()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw fail("attribute \(name) has no value") }
            index += 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw fail("attribute \(name): value not quoted")
            }
            let quote = bytes[index]
            index += 1
            guard let end = find(quote) else { throw fail("attribute \(name): quote not closed") }
            let value = try decode(bytes[index..<end])
            index = end + 1
            guard attributes.count < Self.maximumAttributes else { throw fail("more than \(Self.maximumAttributes) attributes") }
            attributes[Self.localName(name)] = value
        }
    }

    /// An attribute value with its references replaced (only XML's own; nothing is expanded).
    private func decode(_ raw: ArraySlice<UInt8>) throws(FormatError) -> String {
        guard raw.contains(UInt8(ascii: "&")) else {
            guard let text = String(validating: raw, as: UTF8.self) else { throw fail("attribute value is not UTF-8") }
            return text
        }
        var out: [UInt8] = []
        var position = raw.startIndex
        while position < raw.endIndex {
            guard raw[position] == UInt8(ascii: "&") else {
                out.append(raw[position])
                position += 1
                continue
            }
            guard let semicolon = raw[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                throw fail("'&' outside a reference")
            }
            let reference = String(decoding: raw[(position + 1)..<semicolon], as: UTF8.self)
            let predefined: [String: String] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
            if let text = predefined[reference] {
                out += Array(text.utf8)
            } else if reference.hasPrefix("#"),
                let code = reference.hasPrefix("#x") ? UInt32(reference.dropFirst(2), radix: 16) : UInt32(reference.dropFirst()),
                let scalar = Unicode.Scalar(code)
            {
                out += Array(String(Character(scalar)).utf8)
            } else {
                throw fail("entity reference &\(reference.prefix(20)); (entities are not expanded)")
            }
            position = semicolon + 1
        }
        guard let text = String(validating: out, as: UTF8.self) else { throw fail("attribute value is not UTF-8") }
        return text
    }
}
