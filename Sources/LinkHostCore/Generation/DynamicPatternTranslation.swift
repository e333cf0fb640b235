/// How one AASA pattern (variables already expanded) is written for Android, and where the two read it
/// differently.
///
/// iOS compares the percent-encoded URL unless `percentEncoded` is false; Android's intent filters compare
/// the decoded URL (`Uri.getPath()`), so an encoded pattern's escapes are decoded. iOS ignores trailing
/// slashes and lets `/buy/*` match `/buy`; Android compares paths as they are, so a path pattern can
/// become two Android patterns.
enum DynamicPatternTranslation {
    /// The pattern in the decoded form Android compares, or nil when its escapes do not decode to text that
    /// means the same on Android (bytes that are not UTF-8, or an escaped `*` or `?`, which Android would
    /// read as a wildcard).
    static func decoded(_ pattern: String, percentEncoded: Bool) -> String? {
        guard percentEncoded, pattern.utf8.contains(UInt8(ascii: "%")) else { return pattern }
        guard let text = SplitURL.percentDecoded(pattern) else { return nil }
        let wildcards = text.utf8.filter { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") }.count
        let written = pattern.utf8.filter { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") }.count
        return wildcards == written ? text : nil
    }

    /// The Android path patterns that together match what iOS's path pattern matches, in documented form.
    ///
    /// `*` and `/*` match every path: Android's `*`. A pattern iOS reads with a trailing slash (`/join`)
    /// becomes `/join` and `/join/`; one ending in `/*` also gets the path without that slash (`/buy`).
    static func paths(_ pattern: String) -> [String] {
        let normalized = AndroidPattern(PathNormalization.pattern(pattern)).normalizedSource
        if normalized == "/*" { return ["*"] }
        if normalized == "/" { return ["/"] }
        if normalized.hasSuffix("/*") {
            return [normalized, String(normalized.dropLast(2))]
        }
        if normalized.hasSuffix("*") { return [normalized] }
        return [String(normalized.dropLast()), normalized]
    }

    /// A text iOS's pattern matches and Android's (lazy `*`) does not, to show the difference, or nil.
    ///
    /// The first `*` with pattern after it is filled with `x`, the literal that follows it, and `x` again:
    /// iOS's `*` can take the literal, Android's stops at it.
    static func lazyStarWitness(_ android: AndroidPattern, accepts apple: (String) -> Bool) -> String? {
        var text: [UInt16] = []
        var filled = false
        let x = UInt16(UInt8(ascii: "x"))
        for (index, token) in android.tokens.enumerated() {
            switch token {
            case .literal(let unit): text.append(unit)
            case .any: text.append(x)
            case .star:
                guard !filled, index + 1 < android.tokens.count, case .literal(let next) = android.tokens[index + 1] else { continue }
                text += [x, next, x]
                filled = true
            }
        }
        let witness = String(decoding: text, as: UTF16.self)
        return filled && apple(witness) && !android.matches(witness) ? witness : nil
    }

    /// True when Android's code makes a glob of the pattern (two wildcards, or one not at the end) and a
    /// `.` of it does not directly follow a `*`: `DalComponentParser` escapes it as `\.`, and outside a
    /// `.*` scan `PatternMatcher.matchGlobPattern` then matches any character there.
    static func hasAnyCharacterDot(_ pattern: String) -> Bool {
        guard AndroidPatternMatcher(expression: pattern)?.kind == .glob else { return false }
        var previous: Character?
        for character in pattern {
            if character == ".", previous != "*" { return true }
            previous = character
        }
        return false
    }

    /// The first literal a lazy `*` stops at, shown in notes: `"/"`.
    static func stopCharacter(_ android: AndroidPattern) -> String {
        for (index, token) in android.tokens.enumerated() where token == .star && index + 1 < android.tokens.count {
            if case .literal(let unit) = android.tokens[index + 1] { return "\"" + String(decoding: [unit], as: UTF16.self) + "\"" }
        }
        return "the next character"
    }

    /// The pattern with its letters swapped in case, to show what a case-insensitive rule matches on iOS only;
    /// nil when it has no letters.
    static func caseVariant(_ pattern: String) -> String? {
        var changed = false
        let swapped = String(String.UnicodeScalarView(pattern.unicodeScalars.map { scalar -> Unicode.Scalar in
            guard scalar.isASCII, scalar.properties.isAlphabetic else { return scalar }
            changed = true
            let value = UInt8(scalar.value)
            return Unicode.Scalar(value >= 0x61 ? value - 0x20 : value + 0x20)
        }))
        return changed ? swapped : nil
    }
}
