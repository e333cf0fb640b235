import LinkHostJSON

/// The rule-level checks of an AASA: component types and keys, pattern shapes, substitution variables.
extension AASALintRun {
    /// Component keys that iOS reads.
    static let componentKeys = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded", "comment"]

    /// The config's rule words, which people paste into files where iOS wants the symbols.
    static let componentHints = [
        "path": "the path pattern's key is \"/\"",
        "query": "the query pattern's key is \"?\"",
        "fragment": "the fragment pattern's key is \"#\"",
    ]

    /// Which part of the URL a pattern is matched against, for messages and shape checks.
    enum PatternPlace {
        case path, query, queryItem, fragment
    }

    mutating func lintComponents(_ value: JSONValue, _ path: DocumentPath) {
        guard let components = value.arrayValue else {
            typeMismatch(value, path, expected: "an array of component objects", "iOS sees no rules in this detail")
            return
        }
        for (offset, element) in components.enumerated() {
            // Made only for a finding: a generated AASA has hundreds of components and, as a rule, no finding.
            func componentPath() -> DocumentPath { path.index(offset) }
            guard let component = element.objectValue else {
                typeMismatch(element, componentPath(), expected: "an object such as {\"/\": \"/call/*\"}", "iOS skips it")
                continue
            }
            checkKeys(component, componentPath(), known: Self.componentKeys, hints: Self.componentHints)
            for (key, place) in [("/", PatternPlace.path), ("#", .fragment)] {
                guard let pattern = component[key] else { continue }
                guard let text = pattern.stringValue else {
                    typeMismatch(pattern, componentPath().key(key), expected: "a pattern string", "iOS skips the key, so the rule matches any \(place == .path ? "path" : "fragment")")
                    continue
                }
                lintPattern(text, place, componentPath().key(key))
            }
            if let query = component["?"] { lintQuery(query, componentPath().key("?")) }
            for key in ["exclude", "caseSensitive", "percentEncoded"] {
                if let flag = component[key] { lintBoolean(flag, componentPath().key(key)) }
            }
            if let comment = component["comment"], comment.stringValue == nil {
                typeMismatch(comment, componentPath().key("comment"), expected: "a string", "a comment is for people", severity: .warning)
            }
        }
    }

    private mutating func lintQuery(_ value: JSONValue, _ path: @autoclosure () -> DocumentPath) {
        switch value {
        case .string(let text):
            lintPattern(text, .query, path())
        case .object(let items):
            for member in items.members {
                guard let text = member.value.stringValue else {
                    typeMismatch(member.value, path().key(member.key), expected: "a pattern string", "iOS then ignores the whole query dictionary, so the rule matches any query")
                    continue
                }
                if member.key.isEmpty { add(.lh209, .warning, path().key(member.key), "names a query item with an empty name") }
                lintPattern(text, .queryItem, path().key(member.key))
            }
        default:
            typeMismatch(value, path(), expected: "a pattern string or an object of query item name → pattern", "iOS skips the key, so the rule matches any query")
        }
    }

    mutating func lintLegacyPaths(_ value: JSONValue, _ path: DocumentPath) {
        guard let paths = value.arrayValue else {
            typeMismatch(value, path, expected: "an array of path strings", "iOS 12 and earlier see no rules in this detail")
            return
        }
        for (offset, element) in paths.enumerated() {
            guard let text = element.stringValue else {
                typeMismatch(element, path.index(offset), expected: "a path string such as \"/call/*\" or \"NOT /call/admin\"", "iOS skips it")
                continue
            }
            lintPattern(text.hasPrefix("NOT ") ? String(text.dropFirst(4)) : text, .path, path.index(offset))
        }
    }

    /// Variable references (LH204, LH205) and shapes that cannot be meant (LH209) in one pattern.
    mutating func lintPattern(_ text: String, _ place: PatternPlace, _ path: @autoclosure () -> DocumentPath) {
        // Without a `$` a pattern is one piece of text without "$(": nothing to find or note (most patterns).
        for piece in text.utf8.contains(UInt8(ascii: "$")) ? PatternPiece.split(text) : [] {
            switch piece {
            case .text(let literal):
                // The byte test first: a derived config has thousands of patterns, and few hold a `$`.
                if literal.utf8.contains(UInt8(ascii: "$")), literal.contains("$(") {
                    add(.lh205, .warning, path(), "\(Self.quoted(text)): \"$(\" does not start a well-formed $(name) reference here, so iOS reads it as literal text")
                }
            case .variable(let name):
                if name.isEmpty || Identifiers.variableName(name) != nil {
                    add(.lh205, .warning, path(), "\(Self.quoted(text)): $(\(name)) is not a variable name (letters, digits and \"_\"), so this pattern never matches")
                } else if variables.value(of: name) == nil {
                    add(.lh204, .error, path(), "\(Self.quoted(text)) uses $(\(name)), which is neither predefined nor in substitutionVariables, so this pattern never matches")
                }
                usedVariables.insert(name)
            }
        }
        // Control characters are the bytes below 0x20 and 0x7F in UTF-8, which no other scalar's bytes are.
        if text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            add(.lh209, .warning, path(), "\(Self.quoted(text)) contains control characters, which no URL holds")
        }
        switch place {
        case .path:
            // Bytes first: "://" as characters is those three bytes, and derived patterns have ":" without it.
            if Self.holdsSchemeSeparator(text.utf8), text.contains("://") {
                add(.lh209, .warning, path(), "\(Self.quoted(text)) includes a scheme and host, but the pattern is matched against the path only, so it never matches")
            } else if text.utf8.contains(UInt8(ascii: "=")), let question = text.firstIndex(of: "?"), text[question...].contains("=") {
                add(.lh209, .warning, path(), "\(Self.quoted(text)): \"?\" in a path pattern matches any one character, not a query; put query conditions in the \"?\" component")
            }
        case .query:
            // "?*" (a non-empty query) is a fine pattern; "?type=video" is a pasted query with its "?".
            if text.hasPrefix("?"), let second = text.dropFirst().first, second != "*", second != "?", text.contains("=") {
                add(.lh209, .warning, path(), "\(Self.quoted(text)) starts with \"?\", which matches one character: the query is matched without its leading \"?\"")
            }
        case .fragment:
            if text.hasPrefix("#") {
                add(.lh209, .warning, path(), "\(Self.quoted(text)) starts with \"#\", but the fragment is matched without its leading \"#\"")
            }
        case .queryItem:
            break
        }
    }

    /// `substitutionVariables`: names of letters, digits and "_", each a non-empty array of strings.
    mutating func lintVariableDefinitions(_ value: JSONValue, _ path: DocumentPath) {
        guard let object = value.objectValue else {
            typeMismatch(value, path, expected: "an object of variable name → array of strings", "iOS ignores every variable, so patterns using them never match")
            return
        }
        for member in object.members {
            let memberPath = path.key(member.key)
            if let problem = Identifiers.variableName(member.key) {
                add(.lh206, .error, memberPath, "\(Self.quoted(member.key)) \(problem), so no $(…) reference can name it")
            } else if SubstitutionVariables.predefinedNames.contains(member.key) {
                add(.lh206, .warning, memberPath, "redefines the predefined $(\(member.key)); patterns using it get these values instead of Apple's, which readers will not expect")
            }
            guard let values = member.value.arrayValue, values.allSatisfy({ $0.stringValue != nil }) else {
                add(.lh206, .error, memberPath, "found \(AASALintRun.describe(member.value)), expected an array of strings; iOS drops what is not a string")
                continue
            }
            if values.isEmpty {
                add(.lh206, .error, memberPath, "is empty, so it stands for nothing and every pattern using it never matches")
            }
        }
    }

    /// Whether the bytes hold `://`, in one pass (a generic search for the three bytes cost more than the lint).
    static func holdsSchemeSeparator(_ bytes: String.UTF8View) -> Bool {
        var (beforeLast, last): (UInt8, UInt8) = (0, 0)
        for byte in bytes {
            if byte == UInt8(ascii: "/"), beforeLast == UInt8(ascii: ":"), last == UInt8(ascii: "/") { return true }
            (beforeLast, last) = (last, byte)
        }
        return false
    }

    static func quoted(_ text: String) -> String {
        ConfigReader.show(.string(text))
    }
}
