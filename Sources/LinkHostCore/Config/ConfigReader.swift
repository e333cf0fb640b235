import LinkHostJSON

/// Walks a parsed JSON config, collecting every problem instead of stopping at the first.
///
/// Each accessor checks one value's type and shape, records a diagnostic with its code, the JSON path,
/// what was found and what was expected, and returns nil so the caller can carry on.
struct ConfigReader {
    private(set) var diagnostics: [ConfigDiagnostic] = []

    mutating func error(_ code: LintCode, _ path: String, _ message: String) {
        diagnostics.append(ConfigDiagnostic(code, path: path, message: message))
    }

    mutating func warning(_ code: LintCode, _ path: String, _ message: String) {
        diagnostics.append(ConfigDiagnostic(code, path: path, message: message, severity: .warning))
    }

    /// Adds problems found elsewhere (a template's load, a site's build) in document order.
    mutating func append(_ found: [ConfigDiagnostic]) {
        diagnostics.append(contentsOf: found)
    }

    /// Short JSON of a found value, so a message shows what the user wrote without flooding.
    static func show(_ value: JSONValue) -> String {
        let text = JSONWriter.string(value, style: .compact)
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// The path one member up: `sites[1].callLinks.links` → `sites[1].callLinks`.
    static func parent(of path: String) -> String {
        guard let dot = path.lastIndex(of: ".") else { return "" }
        return String(path[..<dot])
    }

    /// Records a value of the wrong type: LH105, or `code` for a family that has its own.
    mutating func typeMismatch(_ value: JSONValue, at path: String, expected: String, code: LintCode = .lh105) {
        error(code, path, "found \(value.typeDescription) \(Self.show(value)), expected \(expected)")
    }

    /// Checks that `value` is an object whose keys are all in `allowed`; unknown keys are errors with a suggestion.
    ///
    /// `unknownKey` and `wrongType` are the codes of an unknown key and of a value that is no object: LH106
    /// and LH105, or the code of the object's own family.
    mutating func object(_ value: JSONValue, at path: String, allowed: [String], unknownKey: LintCode = .lh106, wrongType: LintCode = .lh105) -> JSONObject? {
        guard case .object(let object) = value else {
            typeMismatch(value, at: path, expected: "an object", code: wrongType)
            return nil
        }
        var seen = Set<String>()
        for member in object.members {
            let memberPath = Self.join(path, member.key)
            if !seen.insert(member.key).inserted {
                error(.lh107, memberPath, "appears twice; keep one")
            } else if !allowed.contains(member.key) {
                var message = "unknown key"
                if let suggestion = Suggestion.closest(to: member.key, among: allowed) {
                    message += "; did you mean \"\(suggestion)\"?"
                } else {
                    message += "; expected one of " + allowed.map { "\"\($0)\"" }.joined(separator: ", ")
                }
                error(unknownKey, memberPath, message)
            }
        }
        return object
    }

    /// Reads a string member; `rule` returns nil when valid or the clause that completes "\"x\" …",
    /// reported with `code`.
    mutating func string(
        _ object: JSONObject, _ key: String, at path: String, required: Bool = false,
        expected: String, code: LintCode = .lh109, secret: Bool = false, rule: (String) -> String? = { _ in nil }
    ) -> String? {
        let memberPath = Self.join(path, key)
        guard let value = object[key] else {
            if required { error(.lh108, memberPath, "missing; expected \(expected)") }
            return nil
        }
        guard case .string(let string) = value else {
            // A secret's message names its type, never its text: the message reaches logs (issue 30).
            if secret { error(.lh105, memberPath, "found \(value.typeDescription), expected \(expected)") } else { typeMismatch(value, at: memberPath, expected: expected) }
            return nil
        }
        if let problem = rule(string) {
            error(code, memberPath, "\(secret ? "the value (not shown: a secret)" : Self.show(value)) \(problem)")
            return nil
        }
        return string
    }

    /// Reads an integer member within `range`.
    mutating func integer(_ object: JSONObject, _ key: String, at path: String, in range: ClosedRange<Int>) -> Int? {
        let memberPath = Self.join(path, key)
        guard let value = object[key] else { return nil }
        let expected = "an integer from \(range.lowerBound) to \(range.upperBound)"
        guard case .number(let number) = value, let integer = number.intValue else {
            typeMismatch(value, at: memberPath, expected: expected)
            return nil
        }
        guard range.contains(integer) else {
            error(.lh109, memberPath, "\(integer) is out of range; expected \(expected)")
            return nil
        }
        return integer
    }

    /// Reads a boolean member; a value of another type is reported with `code`.
    mutating func boolean(_ object: JSONObject, _ key: String, at path: String, code: LintCode = .lh105) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else {
            typeMismatch(value, at: Self.join(path, key), expected: "true or false", code: code)
            return nil
        }
        return flag
    }

    /// Reads an array member, returning each element with its path.
    mutating func array(_ object: JSONObject, _ key: String, at path: String, required: Bool = false, expected: String) -> [(value: JSONValue, path: String)]? {
        let memberPath = Self.join(path, key)
        guard let value = object[key] else {
            if required { error(.lh108, memberPath, "missing; expected \(expected)") }
            return nil
        }
        return elements(value, at: memberPath, expected: expected)
    }

    /// Checks that `value` (at `path`) is an array, returning each element with its path.
    mutating func elements(_ value: JSONValue, at path: String, expected: String) -> [(value: JSONValue, path: String)]? {
        guard case .array(let elements) = value else {
            typeMismatch(value, at: path, expected: expected)
            return nil
        }
        return elements.enumerated().map { ($0.element, "\(path)[\($0.offset)]") }
    }
}

/// Finds the allowed word a mistyped one was probably meant to be.
enum Suggestion {
    /// The closest candidate within two edits (or differing only in case), if any.
    static func closest(to word: String, among candidates: [String]) -> String? {
        var best: (String, Int)?
        for candidate in candidates {
            let distance = candidate.lowercased() == word.lowercased() ? 0 : editDistance(word, candidate)
            if distance <= 2, distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
