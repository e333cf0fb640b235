/// A BCP 47 language tag (RFC 5646) of the forms a page locale uses: language, optional script, region
/// and variants, e.g. `en`, `pt-BR`, `zh-Hant-TW`; kept in its canonical case.
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    /// The tag in canonical case: `pt-BR`, `zh-Hant`, `de-CH-1996`.
    public let text: String
    /// The primary language subtag, lowercased: `pt`.
    public let language: String

    /// Languages written right to left, by primary subtag: what a locale's `direction` defaults to.
    static let rightToLeft: Set<String> = ["ar", "arc", "ckb", "dv", "fa", "ha", "he", "iw", "khw", "ks", "ku", "ps", "sd", "ug", "ur", "yi"]

    /// Parses a tag in any case; nil when it is not well-formed (extensions and private use are refused:
    /// a page locale never needs them).
    public init?(_ text: String) {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...3).contains(first.count), first.allSatisfy(\.isASCIILetter) else { return nil }
        var canonical = [first.lowercased()]
        var position = 1
        // Order: script (4 letters), region (2 letters or 3 digits), variants (5–8 alphanumerics, or a digit and 3).
        if position < subtags.count, subtags[position].count == 4, subtags[position].allSatisfy(\.isASCIILetter) {
            canonical.append(subtags[position].prefix(1).uppercased() + subtags[position].dropFirst().lowercased())
            position += 1
        }
        if position < subtags.count {
            let region = subtags[position]
            if (region.count == 2 && region.allSatisfy(\.isASCIILetter)) || (region.count == 3 && region.allSatisfy(\.isASCIIDigit)) {
                canonical.append(region.uppercased())
                position += 1
            }
        }
        while position < subtags.count {
            let variant = subtags[position]
            let isVariant = ((5...8).contains(variant.count) && variant.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit })
                || (variant.count == 4 && variant.first!.isASCIIDigit && variant.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit })
            guard isVariant else { return nil }
            canonical.append(variant.lowercased())
            position += 1
        }
        self.text = canonical.joined(separator: "-")
        language = canonical[0]
    }

    /// The tag.
    public var description: String { text }

    /// True for languages written right to left.
    public var isRightToLeft: Bool { Self.rightToLeft.contains(language) }
}

extension Character {
    /// `A-Z` or `a-z`.
    var isASCIILetter: Bool { isASCII && isLetter }
    /// `0-9`.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
