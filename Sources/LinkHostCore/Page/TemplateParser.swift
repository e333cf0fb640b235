/// The scanner behind `PageTemplate`: splits `{{…}}` tags from HTML while tracking the HTML context.
struct TemplateParser {
    private enum HTMLState {
        case text
        case tag(name: String)
        case attributeName(tag: String, name: String)
        case afterEquals(tag: String, name: String)
        case quoted(tag: String, name: String, quote: UInt8)
        case unquoted(tag: String, name: String)
        case comment
        case rawText(endTag: String)
    }

    private let bytes: [UInt8]
    private var index = 0
    private var state = HTMLState.text

    init(bytes: [UInt8]) { self.bytes = bytes }

    private func line(at position: Int) -> Int {
        1 + bytes[0..<min(position, bytes.count)].lazy.filter { $0 == 0x0A }.count
    }

    private func fail(_ message: String, at position: Int) -> PageTemplate.ParseError {
        PageTemplate.ParseError(line: line(at: position), message: message)
    }

    mutating func parseAll() throws(PageTemplate.ParseError) -> [PageTemplate.Segment] {
        let (segments, closing) = try parseSegments(until: nil)
        if let closing { throw fail("{{/\(closing.rawValue)}} closes a section that was never opened", at: index) }
        if case .comment = state { throw fail("an HTML comment is not closed", at: index) }
        return segments
    }

    /// Parses until the `{{/name}}` that closes `section` (or the end); returns segments and the closed field.
    private mutating func parseSegments(until section: PageTemplate.Field?) throws(PageTemplate.ParseError) -> ([PageTemplate.Segment], PageTemplate.Field?) {
        var segments: [PageTemplate.Segment] = []
        var literal: [UInt8] = []
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "{"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") {
                let start = index
                guard let end = findClose(from: index + 2) else { throw fail("\"{{\" without a closing \"}}\"", at: start) }
                let inner = String(decoding: bytes[(index + 2)..<end], as: UTF8.self).trimmingSpaces
                index = end + 2
                if !literal.isEmpty { segments.append(.literal(literal)); literal = [] }
                let sigil = inner.first
                let name = sigil == "#" || sigil == "^" || sigil == "/" ? String(inner.dropFirst()).trimmingSpaces : inner
                if name.hasPrefix("t.") {
                    segments.append(try string(String(name.dropFirst(2)), sigil: sigil, at: start))
                    continue
                }
                if let replacement = PageTemplate.removedFields[name] {
                    throw fail("{{\(name)}} is no longer a placeholder: \(replacement)", at: start)
                }
                guard let field = PageTemplate.Field(rawValue: name) else {
                    var message = "unknown placeholder {{\(inner)}}"
                    if let suggestion = Suggestion.closest(to: name, among: PageTemplate.Field.allCases.map(\.rawValue)) {
                        message += "; did you mean {{\(sigil == "#" || sigil == "^" || sigil == "/" ? String(sigil!) : "")\(suggestion)}}?"
                    } else {
                        message += "; the placeholders are " + PageTemplate.Field.allCases.map { "{{\($0.rawValue)}}" }.joined(separator: ", ")
                    }
                    throw fail(message, at: start)
                }
                switch sigil {
                case "/":
                    guard let section else { throw fail("{{/\(field.rawValue)}} closes a section that was never opened", at: start) }
                    guard field == section else { throw fail("{{/\(field.rawValue)}} does not close the open section {{#\(section.rawValue)}}", at: start) }
                    return (segments, field)
                case "#", "^":
                    let (inner, closed) = try parseSegments(until: field)
                    guard closed == field else { throw fail("section {{\(sigil!)\(field.rawValue)}} is never closed", at: start) }
                    segments.append(.section(field, inverted: sigil == "^", inner))
                default:
                    segments.append(.field(field, try context(for: "{{\(field.rawValue)}}", isURL: field.isURL, isMarkup: field.isMarkup, at: start)))
                }
                continue
            }
            advanceHTML(bytes[index])
            literal.append(bytes[index])
            index += 1
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        if let section { throw fail("section {{#\(section.rawValue)}} is never closed", at: index) }
        return (segments, nil)
    }

    private func findClose(from start: Int) -> Int? {
        var position = start
        while position + 1 < bytes.count {
            if bytes[position] == UInt8(ascii: "}") && bytes[position + 1] == UInt8(ascii: "}") { return position }
            if bytes[position] == 0x0A { return nil }
            position += 1
        }
        return nil
    }

    /// A `{{t.name}}` string: a name of letters, digits, `_` and `-`, never a section.
    private func string(_ name: String, sigil: Character?, at position: Int) throws(PageTemplate.ParseError) -> PageTemplate.Segment {
        if let sigil, sigil == "#" || sigil == "^" || sigil == "/" {
            throw fail("{{\(sigil)t.\(name)}}: a locale string cannot open or close a section", at: position)
        }
        guard !name.isEmpty, name.utf8.count <= 64, name.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == "-" }) else {
            throw fail("{{t.\(name)}} is not a string name; write letters, digits, \"_\" and \"-\" after \"t.\", e.g. {{t.joinHeading}}", at: position)
        }
        return .string(name, try context(for: "{{t.\(name)}}", isURL: false, isMarkup: false, at: position))
    }

    /// Decides how a value is escaped where it stands, or refuses the place.
    private func context(for shown: String, isURL fieldIsURL: Bool, isMarkup: Bool, at position: Int) throws(PageTemplate.ParseError) -> HTMLEscaping.Context {
        switch state {
        case .text:
            return .text
        case .quoted(let tag, let name, _):
            if isMarkup { throw fail("\(shown) is markup and belongs between tags, not in an attribute", at: position) }
            let isURL = PageTemplate.urlAttributes.contains(name) || (tag == "meta" && name == "content" && fieldIsURL)
            if isURL && !fieldIsURL && PageTemplate.urlAttributes.contains(name) {
                throw fail("\(shown) is not a URL and cannot fill the \(name) attribute", at: position)
            }
            if name.hasPrefix("on") || name == "style" {
                throw fail("placeholders are not allowed in the \(name) attribute (script or style)", at: position)
            }
            return .attribute(name: name, url: isURL)
        case .unquoted(_, let name), .afterEquals(_, let name):
            throw fail("put the \(name) attribute's value in quotes to use \(shown) in it", at: position)
        case .tag, .attributeName:
            throw fail("\(shown) stands inside a tag; placeholders go between tags or in quoted attribute values", at: position)
        case .comment:
            throw fail("\(shown) stands in an HTML comment", at: position)
        case .rawText(let endTag):
            throw fail("\(shown) stands inside <\(endTag)>; no escaping makes a value safe there", at: position)
        }
    }

    private func lookingAt(_ text: String) -> Bool {
        let pattern = Array(text.utf8)
        guard index + pattern.count <= bytes.count else { return false }
        for (offset, byte) in pattern.enumerated() where lowercase(bytes[index + offset]) != byte { return false }
        return true
    }

    private func lowercase(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    private func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }

    /// Moves the HTML state machine over one literal byte at `index`.
    private mutating func advanceHTML(_ byte: UInt8) {
        switch state {
        case .text:
            if byte == UInt8(ascii: "<") {
                if lookingAt("<!--") { state = .comment } else if index + 1 < bytes.count, isNameByte(bytes[index + 1]) || bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "!") {
                    state = .tag(name: "")
                }
            }
        case .tag(let name):
            if byte == UInt8(ascii: ">") {
                closeTag(name)
            } else if byte == UInt8(ascii: "/") && name.isEmpty {
                state = .tag(name: "/")
            } else if isNameByte(byte) {
                state = .tag(name: name + String(UnicodeScalar(lowercase(byte))))
            } else {
                state = .attributeName(tag: name, name: "")
            }
        case .attributeName(let tag, let name):
            if byte == UInt8(ascii: ">") { closeTag(tag) } else if byte == UInt8(ascii: "=") {
                state = .afterEquals(tag: tag, name: name)
            } else if isSpace(byte) || byte == UInt8(ascii: "/") {
                state = .attributeName(tag: tag, name: "")
            } else {
                state = .attributeName(tag: tag, name: name + String(UnicodeScalar(lowercase(byte))))
            }
        case .afterEquals(let tag, let name):
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                state = .quoted(tag: tag, name: name, quote: byte)
            } else if byte == UInt8(ascii: ">") {
                closeTag(tag)
            } else if !isSpace(byte) {
                state = .unquoted(tag: tag, name: name)
            }
        case .quoted(let tag, _, let quote):
            if byte == quote { state = .attributeName(tag: tag, name: "") }
        case .unquoted(let tag, _):
            if byte == UInt8(ascii: ">") { closeTag(tag) } else if isSpace(byte) { state = .attributeName(tag: tag, name: "") }
        case .comment:
            if byte == UInt8(ascii: ">"), index >= 2, bytes[index - 1] == UInt8(ascii: "-"), bytes[index - 2] == UInt8(ascii: "-") { state = .text }
        case .rawText(let endTag):
            if byte == UInt8(ascii: "<"), lookingAt("</" + endTag) { state = .tag(name: "") }
        }
    }

    private mutating func closeTag(_ name: String) {
        state = (name == "script" || name == "style") ? .rawText(endTag: name) : .text
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
