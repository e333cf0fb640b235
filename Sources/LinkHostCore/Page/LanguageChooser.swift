/// Which of a site's page locales answers a request.
public struct LanguageChoice: Sendable, Hashable {
    /// The locale's position among the site's locales.
    public let index: Int
    /// True when `Accept-Language` decided (the page then varies by it); false for a valid `?lang=`.
    public let negotiated: Bool
}

/// Picks a page locale from `?lang=` or `Accept-Language` (RFC 9110 §12.5.4), falling back to the default.
///
/// Ranges are tried by weight (`q`, highest first; equal weights keep their order; `q=0` never
/// matches). For each range, in order: the same tag; a locale the range is a prefix of (`pt` → `pt-BR`);
/// a prefix of the range (`de-AT` → `de`); a locale of the same language (`pt-PT` → `pt-BR`). `*` stands
/// for the default. No range matching: the default locale.
public struct LanguageChooser: Sendable {
    /// The locales' tags, lowercased, in the site's order.
    private let tags: [String]
    private let languages: [String]
    /// The default locale's position.
    public let defaultIndex: Int

    /// The most ranges read from one header: real browsers send fewer than ten.
    static let maximumRanges = 32

    /// A chooser over locale tags (any case), with the default's position.
    public init(tags: [String], defaultIndex: Int) {
        self.tags = tags.map { $0.lowercased() }
        languages = self.tags.map { String($0.prefix { $0 != "-" }) }
        self.defaultIndex = defaultIndex
    }

    /// The locale for a request's `?lang=` value and `Accept-Language` field.
    public func choose(override: String?, acceptLanguage: String?) -> LanguageChoice {
        if let override, let index = tags.firstIndex(of: override.lowercased()) {
            return LanguageChoice(index: index, negotiated: false)
        }
        return LanguageChoice(index: negotiate(acceptLanguage), negotiated: true)
    }

    /// The locale `Accept-Language` asks for, or the default.
    public func negotiate(_ field: String?) -> Int {
        guard tags.count > 1, let field else { return defaultIndex }
        for range in Self.ranges(field) {
            if range == "*" { return defaultIndex }
            if let index = match(range) { return index }
        }
        return defaultIndex
    }

    private func match(_ range: String) -> Int? {
        if let exact = tags.firstIndex(of: range) { return exact }
        if let longer = tags.firstIndex(where: { $0.hasPrefix(range + "-") }) { return longer }
        var shorter = Substring(range)
        while let dash = shorter.lastIndex(of: "-") {
            shorter = shorter[..<dash]
            if let index = tags.firstIndex(where: { $0 == shorter }) { return index }
        }
        let language = range.prefix { $0 != "-" }
        return languages.firstIndex { $0 == language }
    }

    /// The language ranges of a field with a weight above zero, lowercased, highest weight first.
    static func ranges(_ field: String) -> [String] {
        var weighted: [(range: String, weight: Int, order: Int)] = []
        for (order, item) in field.split(separator: ",", omittingEmptySubsequences: true).prefix(maximumRanges).enumerated() {
            let parts = item.split(separator: ";", omittingEmptySubsequences: false)
            let range = String(parts[0]).trimmingSpaces.lowercased()
            guard !range.isEmpty, range.utf8.count <= 64, range.allSatisfy({ $0 == "*" || $0 == "-" || $0.isASCIILetter || $0.isASCIIDigit }) else { continue }
            var weight = 1000
            var valid = true
            for parameter in parts.dropFirst() {
                let text = String(parameter).trimmingSpaces
                guard text.lowercased().hasPrefix("q=") else { continue }
                if let parsed = qValue(text.dropFirst(2)) { weight = parsed } else { valid = false }
            }
            if valid && weight > 0 { weighted.append((range, weight, order)) }
        }
        return weighted.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.order < $1.order }.map(\.range)
    }

    /// A qvalue (`0`, `0.5`, `1.000`) in thousandths; nil when malformed.
    static func qValue(_ text: Substring) -> Int? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, whole == "0" || whole == "1" else { return nil }
        let fraction = parts.count > 1 ? parts[1] : ""
        guard fraction.count <= 3, fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        let thousandths = Int(fraction.padding(toLength: 3)) ?? 0
        if whole == "1" { return thousandths == 0 ? 1000 : nil }
        return thousandths
    }
}

extension Substring {
    /// The digits padded with zeros on the right to `length`.
    fileprivate func padding(toLength length: Int) -> String {
        String(self) + String(repeating: "0", count: Swift.max(0, length - count))
    }
}
