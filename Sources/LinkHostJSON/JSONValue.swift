/// A JSON document as data: objects keep their members in source order, numbers keep their text.
///
/// linkhost writes the AASA and assetlinks byte for byte from configuration, so key order and
/// number spelling must survive a read and a write unchanged; Foundation's types keep neither.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The value's string, when it is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value's members, when it is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The value's elements, when it is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The value's truth, when it is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The name of the value's JSON type, for error messages ("a string", "an object", …).
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON number kept as its literal text, read on demand as an integer or a double.
public struct JSONNumber: Sendable, Equatable, CustomStringConvertible {
    /// The number as it was written.
    public let text: String

    /// Wraps literal text that the parser has already checked is a JSON number.
    public init(text: String) { self.text = text }

    /// Writes an integer as a JSON number.
    public init(_ value: Int) { self.text = String(value) }

    /// The number when it is a whole number that fits `Int` and is written without fraction or exponent.
    public var intValue: Int? { Int(text) }

    /// The number as a double.
    public var doubleValue: Double? { Double(text) }

    /// The literal text.
    public var description: String { text }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The member's key.
    public var key: String
    /// The member's value.
    public var value: JSONValue

    /// Makes a member.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object whose members stay in the order they were written or added.
public struct JSONObject: Sendable, Equatable {
    /// The members in order; a key may repeat when the source repeated it.
    public var members: [JSONMember]

    /// Makes an object from members in order.
    public init(_ members: [JSONMember] = []) { self.members = members }

    /// The value of the last member named `key`, as JSON parsers conventionally keep the last duplicate.
    public subscript(key: String) -> JSONValue? {
        members.last(where: { $0.key == key })?.value
    }

    /// The keys in order, without repeats.
    public var keys: [String] {
        var seen = Set<String>()
        return members.map(\.key).filter { seen.insert($0).inserted }
    }

    /// Appends a member.
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(JSONMember(key, value))
    }
}
