/// One language of a site's call page: its tag, writing direction and strings.
///
/// Strings are complete: a string the locale's file lacks holds the default locale's text, so
/// rendering never has to look elsewhere.
public struct PageLocale: Sendable, Equatable {
    /// The tag in canonical case, sent as `Content-Language` and `<html lang>`.
    public let tag: LanguageTag
    /// True for right-to-left scripts: `<html dir="rtl">`.
    public let isRightToLeft: Bool
    /// Text by name (`joinHeading` for `{{t.joinHeading}}`), with `{appName}`, `{callId}`, `{callType}` unfilled.
    public let strings: [String: String]

    /// Makes a locale value.
    public init(tag: LanguageTag, isRightToLeft: Bool, strings: [String: String]) {
        self.tag = tag
        self.isRightToLeft = isRightToLeft
        self.strings = strings
    }

    /// The placeholders a locale string may use, each filled like the template's field of that name.
    static let placeholders: [String: PageTemplate.Field] = ["{appName}": .appName, "{callId}": .callId, "{callType}": .callType]

    /// A string split into literal text and placeholders, for baking into a template.
    static func pieces(of text: String) -> [StringPiece] {
        var pieces: [StringPiece] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if let field = placeholders[String(rest[open...close])] {
                if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
                pieces.append(.field(field))
            } else {
                pieces.append(.text(String(rest[...close])))
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }

    /// The first `{…}` in a string that is not a known placeholder, or an unclosed brace.
    static func unknownPlaceholder(in text: String) -> String? {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { return String(rest[open...]) }
            let name = String(rest[open...close])
            if placeholders[name] == nil { return name }
            rest = rest[rest.index(after: close)...]
        }
        return nil
    }

    /// A piece of a locale string.
    enum StringPiece: Equatable {
        case text(String)
        case field(PageTemplate.Field)
    }
}
