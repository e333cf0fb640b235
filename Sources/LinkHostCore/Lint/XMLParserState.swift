/// The reading position of `XMLReader` over a document's scalars, with the namespaces in scope.
struct XMLParserState {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1
    /// Prefix → namespace URI, one frame per open element; the empty prefix is the default namespace.
    private var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private var atEnd: Bool { index >= scalars.count }

    private func failure(_ message: String) -> XMLReader.Failure {
        XMLReader.Failure(message: message, line: line, column: column)
    }

    private func peek(_ text: String) -> Bool {
        var position = index
        for scalar in text.unicodeScalars {
            guard position < scalars.count, scalars[position] == scalar else { return false }
            position += 1
        }
        return true
    }

    /// Refuses the control characters XML 1.0 does not allow anywhere (tab, line feed and return are fine).
    private func checkCharacter() throws(XMLReader.Failure) {
        let value = scalars[index].value
        if value < 0x20 && value != 0x9 && value != 0xA && value != 0xD || value == 0xFFFE || value == 0xFFFF {
            throw failure("the control character U+\(String(value, radix: 16, uppercase: true)) is not allowed in XML")
        }
    }

    private mutating func advance() -> Unicode.Scalar {
        let scalar = scalars[index]
        index += 1
        if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        return scalar
    }

    private mutating func skip(_ text: String) -> Bool {
        guard peek(text) else { return false }
        for _ in text.unicodeScalars { _ = advance() }
        return true
    }

    private mutating func expect(_ text: String, _ what: String) throws(XMLReader.Failure) {
        guard skip(text) else { throw failure("expected \(what)") }
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    private mutating func skipSpace() -> Bool {
        var skipped = false
        while !atEnd, Self.isSpace(scalars[index]) { _ = advance(); skipped = true }
        return skipped
    }

    /// The whole document: prolog, one root element, then only comments, PIs and space.
    mutating func document() throws(XMLReader.Failure) -> XMLElement {
        if peek("<?xml") { try processingInstruction() }
        try misc(allowDoctype: true)
        guard peek("<"), !atEnd else { throw failure("the document has no root element") }
        let root = try element(depth: 1)
        try misc(allowDoctype: false)
        guard atEnd else { throw failure("text after the root element; a document has one root element") }
        return root
    }

    /// Comments, processing instructions, space and (before the root) one DOCTYPE.
    private mutating func misc(allowDoctype: Bool) throws(XMLReader.Failure) {
        var doctypeSeen = false
        while true {
            _ = skipSpace()
            if peek("<!--") {
                try comment()
            } else if peek("<?") {
                try processingInstruction()
            } else if peek("<!DOCTYPE") {
                guard allowDoctype, !doctypeSeen else { throw failure("a DOCTYPE may only come once, before the root element") }
                try doctype()
                doctypeSeen = true
            } else {
                return
            }
        }
    }

    private mutating func comment() throws(XMLReader.Failure) {
        try expect("<!--", "<!--")
        while !atEnd {
            if skip("-->") { return }
            if peek("--") { throw failure("\"--\" inside a comment") }
            _ = advance()
        }
        throw failure("unterminated comment")
    }

    private mutating func processingInstruction() throws(XMLReader.Failure) {
        try expect("<?", "<?")
        while !atEnd {
            if skip("?>") { return }
            _ = advance()
        }
        throw failure("unterminated processing instruction")
    }

    /// `<!DOCTYPE name PUBLIC "…" "…">`; an internal subset (`[ … ]`) is refused, as it can define entities.
    private mutating func doctype() throws(XMLReader.Failure) {
        try expect("<!DOCTYPE", "<!DOCTYPE")
        var quote: Unicode.Scalar?
        while !atEnd {
            let scalar = advance()
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == "[" {
                throw failure("the DOCTYPE has an internal subset, which can define entities; such documents are refused")
            } else if scalar == ">" {
                return
            }
        }
        throw failure("unterminated DOCTYPE")
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar == ":" || scalar.value >= 0xC0
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "." || scalar == "\u{B7}"
    }

    private mutating func name() throws(XMLReader.Failure) -> String {
        guard !atEnd, Self.isNameStart(scalars[index]) else { throw failure("expected a name") }
        var text = String.UnicodeScalarView()
        while !atEnd, Self.isNameCharacter(scalars[index]) { text.append(advance()) }
        return String(text)
    }

    /// An element and everything inside it, `<` not yet consumed.
    private mutating func element(depth: Int) throws(XMLReader.Failure) -> XMLElement {
        guard depth <= XMLReader.maximumDepth else { throw failure("elements are nested deeper than \(XMLReader.maximumDepth)") }
        let startLine = line
        try expect("<", "<")
        let qualified = try name()
        var raw: [(name: String, value: String)] = []
        while true {
            let spaced = skipSpace()
            if peek("/>") || peek(">") { break }
            guard spaced else { throw failure("expected a space before the attribute") }
            let attribute = try name()
            _ = skipSpace()
            try expect("=", "\"=\" after the attribute \(attribute)")
            _ = skipSpace()
            let value = try attributeValue()
            if raw.contains(where: { $0.name == attribute }) { throw failure("the attribute \(attribute) is given twice") }
            raw.append((attribute, value))
        }
        var scope = scopes[scopes.count - 1]
        for (attribute, value) in raw {
            if attribute == "xmlns" { scope[""] = value } else if attribute.hasPrefix("xmlns:") { scope[String(attribute.dropFirst(6))] = value }
        }
        scopes.append(scope)
        defer { scopes.removeLast() }
        let (prefix, local) = Self.split(qualified)
        guard prefix.isEmpty || scope[prefix] != nil else { throw failure("the prefix \"\(prefix)\" of <\(qualified)> is not declared") }
        var attributes: [XMLAttribute] = []
        for (attribute, value) in raw {
            let (attributePrefix, attributeLocal) = Self.split(attribute)
            if attribute == "xmlns" || attributePrefix == "xmlns" {
                attributes.append(XMLAttribute(name: attribute, localName: attributeLocal, namespace: "http://www.w3.org/2000/xmlns/", value: value))
                continue
            }
            guard attributePrefix.isEmpty || scope[attributePrefix] != nil else { throw failure("the prefix \"\(attributePrefix)\" of the attribute \(attribute) is not declared") }
            attributes.append(XMLAttribute(name: attribute, localName: attributeLocal, namespace: attributePrefix.isEmpty ? nil : scope[attributePrefix], value: value))
        }
        let namespace = prefix.isEmpty ? scope[""] : scope[prefix]
        if skip("/>") {
            return XMLElement(name: qualified, localName: local, namespace: namespace, attributes: attributes, children: [], text: "", line: startLine)
        }
        try expect(">", ">")
        var children: [XMLElement] = []
        var text = ""
        while true {
            guard !atEnd else { throw failure("<\(qualified)> (line \(startLine)) is never closed") }
            if skip("</") {
                let closing = try name()
                guard closing == qualified else { throw failure("</\(closing)> closes <\(qualified)> of line \(startLine)") }
                _ = skipSpace()
                try expect(">", ">")
                return XMLElement(name: qualified, localName: local, namespace: namespace, attributes: attributes, children: children, text: text, line: startLine)
            } else if peek("<!--") {
                try comment()
            } else if peek("<![CDATA[") {
                text += try cdata()
            } else if peek("<?") {
                try processingInstruction()
            } else if peek("<!") {
                throw failure("markup declarations are not allowed inside elements")
            } else if peek("<") {
                children.append(try element(depth: depth + 1))
            } else {
                text += try characterData()
            }
        }
    }

    private static func split(_ qualified: String) -> (prefix: String, local: String) {
        guard let colon = qualified.firstIndex(of: ":") else { return ("", qualified) }
        return (String(qualified[..<colon]), String(qualified[qualified.index(after: colon)...]))
    }

    private mutating func attributeValue() throws(XMLReader.Failure) -> String {
        guard !atEnd, scalars[index] == "\"" || scalars[index] == "'" else { throw failure("expected a quoted attribute value") }
        let quote = advance()
        var value = ""
        while true {
            guard !atEnd else { throw failure("unterminated attribute value") }
            let scalar = scalars[index]
            if scalar == quote { _ = advance(); return value }
            if scalar == "<" { throw failure("\"<\" inside an attribute value") }
            try checkCharacter()
            if scalar == "&" {
                value += try reference()
            } else {
                // Attribute-value normalization: each white-space character becomes a space.
                let read = advance()
                value.unicodeScalars.append(Self.isSpace(read) ? " " : read)
            }
        }
    }

    private mutating func characterData() throws(XMLReader.Failure) -> String {
        var text = ""
        while !atEnd, scalars[index] != "<" {
            try checkCharacter()
            if scalars[index] == "&" {
                text += try reference()
            } else {
                if peek("]]>") { throw failure("\"]]>\" in character data") }
                text.unicodeScalars.append(advance())
            }
        }
        return text
    }

    private mutating func cdata() throws(XMLReader.Failure) -> String {
        try expect("<![CDATA[", "<![CDATA[")
        var text = String.UnicodeScalarView()
        while !atEnd {
            if skip("]]>") { return String(text) }
            text.append(advance())
        }
        throw failure("unterminated CDATA section")
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;` or `&#xH;`; any other entity is refused.
    private mutating func reference() throws(XMLReader.Failure) -> String {
        try expect("&", "&")
        var body = String.UnicodeScalarView()
        while !atEnd, scalars[index] != ";" {
            guard body.count < 12 else { throw failure("\"&\" starts no entity reference; write &amp;") }
            body.append(advance())
        }
        try expect(";", "\";\" ending the entity reference")
        let name = String(body)
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let digits = name.hasPrefix("#x") ? (name.dropFirst(2), 16) : name.hasPrefix("#") ? (name.dropFirst(1), 10) : (Substring(), 0)
            guard digits.1 != 0, let value = UInt32(digits.0, radix: digits.1), let scalar = Unicode.Scalar(value),
                  value == 0x9 || value == 0xA || value == 0xD || value >= 0x20 else {
                throw failure("&\(name); is not a character reference or one of the five predefined entities; other entities are refused")
            }
            return String(Character(scalar))
        }
    }
}
