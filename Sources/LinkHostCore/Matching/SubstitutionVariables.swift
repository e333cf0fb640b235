import LinkHostJSON

/// The `$(name)` variables a pattern may use: Apple's predefined ones and a document's own.
public struct SubstitutionVariables: Sendable, Equatable {
    /// What one variable stands for.
    public enum Value: Sendable, Equatable {
        /// Exactly one character from the set (the predefined character classes).
        case oneOf(Set<Unicode.Scalar>)
        /// Any one of the strings, taken literally (`$(region)`, `$(lang)`).
        case literals([String])
        /// Any one of the strings, each read as a pattern with `*` and `?` (custom variables).
        case patterns([String])
    }

    /// The names Apple predefines, in the order its documentation lists them.
    public static let predefinedNames = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    /// The document's own variables, name → values, as `applinks.substitutionVariables` gives them.
    public let custom: [String: [String]]

    /// Variables with only the predefined names plus `custom`.
    public init(custom: [String: [String]] = [:]) {
        self.custom = custom
    }

    /// Reads `applinks.substitutionVariables`; members that are not arrays are dropped and so are non-string values,
    /// since Apple ignores what it cannot use rather than rejecting the whole file.
    public init(json: JSONValue?) {
        var custom: [String: [String]] = [:]
        for member in json?.objectValue?.members ?? [] {
            guard let values = member.value.arrayValue else { continue }
            custom[member.key] = values.compactMap(\.stringValue)
        }
        self.init(custom: custom)
    }

    /// What `name` stands for, or nil when it is neither custom nor predefined.
    ///
    /// A custom variable shadows a predefined one of the same name: the document's author said what they meant.
    public func value(of name: String) -> Value? {
        if let values = custom[name] { return .patterns(values) }
        return Self.predefined(name)
    }

    /// The predefined variable `name`, or nil.
    public static func predefined(_ name: String) -> Value? {
        switch name {
        case "alpha": return .oneOf(upper.union(lower))
        case "upper": return .oneOf(upper)
        case "lower": return .oneOf(lower)
        case "alnum": return .oneOf(upper.union(lower).union(digits))
        case "digit": return .oneOf(digits)
        case "xdigit": return .oneOf(digits.union(scalars("ABCDEFabcdef")))
        case "region": return .literals(ISOCodes.regions)
        case "lang": return .literals(ISOCodes.languages)
        default: return nil
        }
    }

    private static let upper = scalars("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    private static let lower = scalars("abcdefghijklmnopqrstuvwxyz")
    private static let digits = scalars("0123456789")

    private static func scalars(_ text: String) -> Set<Unicode.Scalar> { Set(text.unicodeScalars) }
}

/// One piece of a pattern's text once `$(name)` references have been found.
enum PatternPiece: Equatable {
    /// Text with `*` and `?` wildcards.
    case text(String)
    /// A `$(name)` reference.
    case variable(String)

    /// Splits a pattern into text and `$(name)` references.
    ///
    /// Names may hold any character but `$`, `(` and `)`; a `$` that does not open a well-formed reference is
    /// plain text, so a URL that really contains `$(` can still be written.
    static func split(_ pattern: String) -> [PatternPiece] {
        // Most patterns use no variable: they are one piece of text as they are.
        guard pattern.utf8.contains(UInt8(ascii: "$")) else { return pattern.isEmpty ? [] : [.text(pattern)] }
        let scalars = Array(pattern.unicodeScalars)
        var pieces: [PatternPiece] = []
        var text = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "$", index + 1 < scalars.count, scalars[index + 1] == "(",
               let close = closingParenthesis(in: scalars, from: index + 2) {
                if !text.isEmpty { pieces.append(.text(String(text))) }
                text = String.UnicodeScalarView()
                var name = String.UnicodeScalarView()
                name.append(contentsOf: scalars[(index + 2)..<close])
                pieces.append(.variable(String(name)))
                index = close + 1
                continue
            }
            text.append(scalars[index])
            index += 1
        }
        if !text.isEmpty { pieces.append(.text(String(text))) }
        return pieces
    }

    private static func closingParenthesis(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index < scalars.count {
            switch scalars[index] {
            case ")": return index
            case "$", "(": return nil
            default: index += 1
            }
        }
        return nil
    }
}
