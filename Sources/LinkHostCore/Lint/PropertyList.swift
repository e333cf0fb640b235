/// A value of an XML property list (an `.entitlements` file is one), read strictly from its elements.
public indirect enum PropertyList: Sendable, Equatable {
    /// `<string>`.
    case string(String)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<integer>`, `<real>`, `<date>` or `<data>`, kept as written: entitlements never need their value.
    case scalar(kind: String, text: String)
    /// `<array>`.
    case array([PropertyList])
    /// `<dict>`: keys in order.
    case dictionary([(key: String, value: PropertyList)])

    /// Compares dictionaries member by member (tuples are not Equatable).
    public static func == (lhs: PropertyList, rhs: PropertyList) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.scalar(let k1, let t1), .scalar(let k2, let t2)): return k1 == k2 && t1 == t2
        case (.array(let a), .array(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value of `key` in a dictionary.
    public subscript(key: String) -> PropertyList? {
        guard case .dictionary(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Why a property list was refused, with the line of the element.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong.
        public let message: String
        /// The line of the element.
        public let line: Int
        /// "line 4: message".
        public var description: String { "line \(line): \(message)" }
    }

    /// The value of a `<plist>` root element.
    public static func read(_ root: XMLElement) throws(Failure) -> PropertyList {
        guard root.localName == "plist" else { throw Failure(message: "the root element is <\(root.name)>, not <plist>", line: root.line) }
        guard root.children.count == 1 else { throw Failure(message: "<plist> holds \(root.children.count) values; a property list holds one", line: root.line) }
        return try value(root.children[0])
    }

    private static func value(_ element: XMLElement) throws(Failure) -> PropertyList {
        func leaf() throws(Failure) -> String {
            guard element.children.isEmpty else { throw Failure(message: "<\(element.name)> holds elements; it holds text only", line: element.line) }
            return element.text
        }
        switch element.localName {
        case "string": return .string(try leaf())
        case "true", "false":
            guard element.children.isEmpty, element.text.allSatisfy(\.isWhitespace) else { throw Failure(message: "<\(element.name)/> is empty", line: element.line) }
            return .bool(element.localName == "true")
        case "integer", "real", "date", "data": return .scalar(kind: element.localName, text: try leaf())
        case "array":
            try onlyElements(element)
            var items: [PropertyList] = []
            for child in element.children { items.append(try value(child)) }
            return .array(items)
        case "dict":
            try onlyElements(element)
            guard element.children.count % 2 == 0 else { throw Failure(message: "<dict> has a <key> without a value", line: element.line) }
            var members: [(key: String, value: PropertyList)] = []
            var index = 0
            while index < element.children.count {
                let key = element.children[index]
                guard key.localName == "key", key.children.isEmpty else { throw Failure(message: "<dict> expects <key>, found <\(key.name)>", line: key.line) }
                if members.contains(where: { $0.key == key.text }) { throw Failure(message: "the key \"\(key.text)\" is given twice", line: key.line) }
                members.append((key.text, try value(element.children[index + 1])))
                index += 2
            }
            return .dictionary(members)
        default:
            throw Failure(message: "<\(element.name)> is not a property-list element", line: element.line)
        }
    }

    private static func onlyElements(_ element: XMLElement) throws(Failure) {
        guard element.text.allSatisfy(\.isWhitespace) else { throw Failure(message: "<\(element.name)> holds text outside its elements", line: element.line) }
    }
}
