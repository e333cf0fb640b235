import Foundation
import Testing
@testable import LinkHostCore

@Suite("Page languages")
struct PageLanguageTests {
    static let shipped = ["en", "ar", "de", "es", "fr", "ja", "pt-BR"]

    @Test("Accept-Language picks by weight, then by the four matching steps; nothing fitting gives the default", arguments: [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        ("pt-PT", "pt-BR"),
        ("pt", "pt-BR"),
        ("PT-br", "pt-BR"),
        ("en;q=0.5, ja", "ja"),
        ("ja;q=0, de;q=0.1", "de"),
        ("sv, nb;q=0.9", "en"),
        ("sv, *;q=0.5, de;q=0.1", "en"),
        ("ar-EG", "ar"),
        ("de;q=1.000, fr;q=1", "de"),
        ("de;q=2, fr;q=0.5", "fr"),
        ("de;q=0.1234, es;q=0.5", "es"),
        ("zh-Hant-TW, es-419;q=0.8", "es"),
        ("", "en"),
        (",,;;q=,", "en"),
    ])
    func negotiation(field: String, expected: String) {
        let chooser = LanguageChooser(tags: Self.shipped, defaultIndex: 0)
        #expect(Self.shipped[chooser.negotiate(field)] == expected)
    }

    /// One row of the table the page script's tests read too.
    struct SharedCase: Decodable, CustomStringConvertible {
        let tags: [String]
        let ranges: [String]
        let expected: String
        var description: String { "\(ranges) of \(tags)" }
    }

    /// Tests/Shared/language-choice-cases.json: what call.js's chooseLanguage must also answer.
    static let sharedCases: [SharedCase] = {
        struct Table: Decodable { let cases: [SharedCase] }
        guard let data = FileManager.default.contents(atPath: "Tests/Shared/language-choice-cases.json"),
              let table = try? JSONDecoder().decode(Table.self, from: data) else { return [] }
        return table.cases
    }()

    @Test("the server's choice agrees with call.js's on the shared case table")
    func sharedTable() throws {
        try #require(Self.sharedCases.count >= 20, "Tests/Shared/language-choice-cases.json is missing or unreadable")
        for entry in Self.sharedCases {
            let chooser = LanguageChooser(tags: entry.tags, defaultIndex: 0)
            // navigator.languages in order is an Accept-Language of equal weights in that order.
            #expect(entry.tags[chooser.negotiate(entry.ranges.joined(separator: ", "))] == entry.expected, "\(entry)")
        }
    }

    @Test("pt-PT falls back to pt-BR only while it is the one Portuguese; the default otherwise")
    func portugueseFallback() {
        #expect(LanguageChooser(tags: ["en", "pt-BR"], defaultIndex: 0).negotiate("pt-PT") == 1)
        #expect(LanguageChooser(tags: ["en", "de"], defaultIndex: 0).negotiate("pt-PT") == 0)
        #expect(LanguageChooser(tags: ["de", "en"], defaultIndex: 0).negotiate("pt-PT, en;q=0.5") == 1)
    }

    @Test("?lang= overrides Accept-Language when it names a locale, and then the page does not vary")
    func override() {
        let chooser = LanguageChooser(tags: Self.shipped, defaultIndex: 0)
        #expect(chooser.choose(override: "ja", acceptLanguage: "de") == LanguageChoice(index: 5, negotiated: false))
        #expect(chooser.choose(override: "pt-br", acceptLanguage: nil) == LanguageChoice(index: 6, negotiated: false))
        #expect(chooser.choose(override: "xx", acceptLanguage: "de") == LanguageChoice(index: 2, negotiated: true))
        #expect(chooser.choose(override: nil, acceptLanguage: nil) == LanguageChoice(index: 0, negotiated: true))
    }

    @Test("a hostile header is read in bounded time and never matches by accident")
    func hostileHeader() {
        let chooser = LanguageChooser(tags: Self.shipped, defaultIndex: 0)
        let long = Array(repeating: "xx-YY;q=0.9", count: 10_000).joined(separator: ",") + ",de"
        #expect(LanguageChooser.ranges(long).count <= LanguageChooser.maximumRanges)
        #expect(chooser.negotiate(long) == 0)
        #expect(chooser.negotiate("de\u{0}, <script>") == 0)
    }

    @Test("language tags are checked and put in canonical case", arguments: [
        ("pt-br", "pt-BR"), ("EN", "en"), ("zh-hant-tw", "zh-Hant-TW"), ("es-419", "es-419"), ("de-CH-1996", "de-CH-1996"), ("sl-rozaj", "sl-rozaj"),
    ])
    func tags(text: String, canonical: String) {
        #expect(LanguageTag(text)?.text == canonical)
    }

    @Test("malformed tags are refused", arguments: ["", "e", "english", "pt_BR", "en-", "-en", "en--US", "en-US-x-private", "12", "de-DEUTSCH-LAND-XXXXXXXXX"])
    func badTags(text: String) {
        #expect(LanguageTag(text) == nil)
    }

    @Test("Arabic, Hebrew, Persian and Urdu are right to left; the rest left to right")
    func directions() {
        #expect(["ar", "he", "fa", "ur", "ar-EG"].allSatisfy { LanguageTag($0)!.isRightToLeft })
        #expect(!["en", "de", "ja", "pt-BR", "zh-Hant"].contains { LanguageTag($0)!.isRightToLeft })
    }
}
