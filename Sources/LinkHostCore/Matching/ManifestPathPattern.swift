/// A path attribute of an `AndroidManifest.xml` `<data>` element, matched against a URL's decoded path as
/// Android's intent filters match it (`android.os.PatternMatcher`, documented under `<data>`):
///
/// - `path`: the whole path; `pathPrefix`: its start; `pathSuffix` (API 31): its end;
/// - `pathPattern`: a simple glob: `.` any character, `x*` zero or more `x`, `.*` any characters up to the
///   first occurrence of the pattern's next character (no backtracking), `\` escapes;
/// - `pathAdvancedPattern` (API 31): `.`, `[a-z]`, `[^…]`, then `*`, `+`, `{n}`, `{n,}` or `{n,m}`, `\`
///   escapes, each token taking as many characters as it can (no backtracking).
///
/// Values are read as aapt reads the manifest's strings first: `\\` becomes `\` (so `\\.` in the file is an
/// escaped dot), `\uXXXX` a character, and a backslash before any other character is dropped.
public struct ManifestPathPattern: Sendable, Equatable {
    /// The attributes that claim paths.
    public static let attributes = ["path", "pathPrefix", "pathSuffix", "pathPattern", "pathAdvancedPattern"]

    /// The attribute, e.g. `pathPrefix`.
    public let attribute: String
    /// The value as written in the file.
    public let value: String
    private let units: [UInt16]
    private let advanced: [AdvancedToken]?

    /// Reads a path attribute; nil for an unknown attribute or an advanced pattern Android refuses.
    public init?(attribute: String, value: String) {
        guard Self.attributes.contains(attribute) else { return nil }
        self.attribute = attribute
        self.value = value
        units = Array(Self.aaptUnescaped(value).utf16)
        if attribute == "pathAdvancedPattern" {
            guard let tokens = Self.parseAdvanced(units) else { return nil }
            advanced = tokens
        } else {
            advanced = nil
        }
    }

    /// Whether the decoded `path` is claimed.
    public func matches(_ path: String) -> Bool {
        let text = Array(path.utf16)
        switch attribute {
        case "path": return text == units
        case "pathPrefix": return text.starts(with: units)
        case "pathSuffix": return text.count >= units.count && Array(text.suffix(units.count)) == units
        case "pathPattern": return Self.simpleGlob(units, text)
        default: return advanced.map { Self.matchAdvanced($0, text) } ?? false
        }
    }

    /// The string a manifest attribute holds once aapt has read it.
    static func aaptUnescaped(_ value: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = value.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\", let next = scalars.next() else { result.append(scalar); continue }
            switch next {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "u":
                var hex = ""
                for _ in 0..<4 { if let digit = scalars.next() { hex.unicodeScalars.append(digit) } }
                if let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) { result.append(decoded) }
            default: result.append(next)
            }
        }
        return String(result)
    }

    private static let dot = UInt16(UInt8(ascii: ".")), star = UInt16(UInt8(ascii: "*")), backslash = UInt16(UInt8(ascii: "\\"))

    /// Android's simple glob, read from its documented behaviour.
    static func simpleGlob(_ pattern: [UInt16], _ text: [UInt16]) -> Bool {
        var p = 0
        var t = 0
        while p < pattern.count {
            // Android stops once the text is used up: only a final `.*` may be left of the pattern.
            if t == text.count { return pattern.count - p == 2 && pattern[p] == dot && pattern[p + 1] == star }
            var unit = pattern[p]
            var escaped = false
            if unit == backslash, p + 1 < pattern.count { p += 1; unit = pattern[p]; escaped = true }
            let repeated = p + 1 < pattern.count && pattern[p + 1] == star
            p += repeated ? 2 : 1
            if repeated && unit == dot && !escaped {
                guard p < pattern.count else { return true }
                var next = pattern[p]
                if next == backslash, p + 1 < pattern.count { p += 1; next = pattern[p] }
                guard let found = text[t...].firstIndex(of: next) else { return false }
                t = found + 1
                p += 1
            } else if repeated {
                while t < text.count, text[t] == unit { t += 1 }
            } else {
                guard t < text.count, (unit == dot && !escaped) || text[t] == unit else { return false }
                t += 1
            }
        }
        return t == text.count
    }

    /// One token of an advanced pattern with how often it may repeat.
    struct AdvancedToken: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            case literal(UInt16)
            case any
            /// Ranges of code units; `inverted` for `[^…]`.
            case set([ClosedRange<UInt16>], inverted: Bool)
        }

        let kind: Kind
        var minimum = 1
        var maximum = 1

        func accepts(_ unit: UInt16) -> Bool {
            switch kind {
            case .literal(let literal): return unit == literal
            case .any: return true
            case .set(let ranges, let inverted): return ranges.contains { $0.contains(unit) } != inverted
            }
        }
    }

    static func parseAdvanced(_ pattern: [UInt16]) -> [AdvancedToken]? {
        var tokens: [AdvancedToken] = []
        var index = 0
        func unit(_ character: Character) -> UInt16 { UInt16(character.asciiValue ?? 0) }
        while index < pattern.count {
            let current = pattern[index]
            switch current {
            case unit("["):
                index += 1
                let inverted = index < pattern.count && pattern[index] == unit("^")
                if inverted { index += 1 }
                var ranges: [ClosedRange<UInt16>] = []
                while index < pattern.count, pattern[index] != unit("]") {
                    var low = pattern[index]
                    if low == backslash, index + 1 < pattern.count { index += 1; low = pattern[index] }
                    if index + 2 < pattern.count, pattern[index + 1] == unit("-"), pattern[index + 2] != unit("]") {
                        let high = pattern[index + 2]
                        guard low <= high else { return nil }
                        ranges.append(low...high)
                        index += 3
                    } else {
                        ranges.append(low...low)
                        index += 1
                    }
                }
                guard index < pattern.count, !ranges.isEmpty else { return nil }
                index += 1
                tokens.append(AdvancedToken(kind: .set(ranges, inverted: inverted)))
            case unit("*"), unit("+"), unit("{"):
                guard var last = tokens.popLast(), last.minimum == 1, last.maximum == 1 else { return nil }
                if current == unit("*") { (last.minimum, last.maximum) = (0, Int.max); index += 1 }
                else if current == unit("+") { (last.minimum, last.maximum) = (1, Int.max); index += 1 }
                else {
                    guard let close = pattern[index...].firstIndex(of: unit("}")) else { return nil }
                    let body = String(decoding: pattern[(index + 1)..<close], as: UTF16.self)
                    let parts = body.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                    guard let low = Int(parts[0]) else { return nil }
                    let high = parts.count == 1 ? low : parts[1].isEmpty ? Int.max : Int(parts[1])
                    guard let high, low <= high else { return nil }
                    (last.minimum, last.maximum) = (low, high)
                    index = close + 1
                }
                tokens.append(last)
            case unit("."):
                tokens.append(AdvancedToken(kind: .any))
                index += 1
            case backslash:
                guard index + 1 < pattern.count else { return nil }
                tokens.append(AdvancedToken(kind: .literal(pattern[index + 1])))
                index += 2
            default:
                tokens.append(AdvancedToken(kind: .literal(current)))
                index += 1
            }
        }
        return tokens
    }

    static func matchAdvanced(_ tokens: [AdvancedToken], _ text: [UInt16]) -> Bool {
        var position = 0
        for token in tokens {
            var taken = 0
            while taken < token.maximum, position + taken < text.count, token.accepts(text[position + taken]) { taken += 1 }
            guard taken >= token.minimum else { return false }
            position += taken
        }
        return position == text.count
    }
}
