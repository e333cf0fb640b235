/// A small, strict XML 1.0 reader for the app files linkhost checks: an `.entitlements` property list
/// and an `AndroidManifest.xml`.
///
/// It reads elements, attributes (with namespaces resolved), character data, CDATA, comments,
/// processing instructions and a DOCTYPE without an internal subset. It refuses what these files never
/// need and what makes XML readers dangerous: DTD internal subsets and entity definitions (so no entity
/// expansion or external fetch), undefined entities, and anything not well-formed, each with the line and
/// column. Input is UTF-8 (a BOM is allowed), at most `maximumSize` bytes and `maximumDepth` deep.
public enum XMLReader {
    /// The largest file read: far beyond any manifest or entitlements file.
    public static let maximumSize = 4 * 1024 * 1024
    /// The deepest nesting read.
    public static let maximumDepth = 64

    /// Why a document was refused, and where.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong.
        public let message: String
        /// The 1-based line.
        public let line: Int
        /// The 1-based column, in characters.
        public let column: Int

        /// "line 3, column 7: message".
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    /// The root element of `bytes`.
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> XMLElement {
        guard bytes.count <= maximumSize else { throw Failure(message: "the file is larger than \(maximumSize) bytes", line: 1, column: 1) }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else { throw Failure(message: "the file is not UTF-8", line: 1, column: 1) }
        var parser = XMLParserState(Array(text.unicodeScalars))
        return try parser.document()
    }

    /// The root element of `text`.
    public static func parse(_ text: String) throws(Failure) -> XMLElement {
        try parse(Array(text.utf8))
    }
}

/// One attribute, its name as written and resolved against the namespaces in scope.
public struct XMLAttribute: Sendable, Equatable {
    /// The name as written, e.g. `android:host`.
    public let name: String
    /// The name without its prefix, e.g. `host`.
    public let localName: String
    /// The namespace URI its prefix is bound to; nil for an unprefixed attribute.
    public let namespace: String?
    /// The value, entities replaced.
    public let value: String
}

/// One element with its attributes, child elements and the character data directly inside it.
public struct XMLElement: Sendable, Equatable {
    /// The name as written.
    public let name: String
    /// The name without its prefix.
    public let localName: String
    /// The namespace URI of the element; nil when none is in scope.
    public let namespace: String?
    /// The attributes in document order.
    public let attributes: [XMLAttribute]
    /// The child elements in order.
    public let children: [XMLElement]
    /// The character data directly inside, concatenated (CDATA included).
    public let text: String
    /// The line the element starts on, for messages.
    public let line: Int

    /// The value of the attribute `localName` in `namespace` (nil: an unprefixed attribute).
    public func attribute(_ localName: String, namespace: String? = nil) -> String? {
        attributes.first { $0.localName == localName && $0.namespace == namespace }?.value
    }

    /// The child elements named `localName`.
    public func children(named localName: String) -> [XMLElement] {
        children.filter { $0.localName == localName }
    }
}
