import LinkHostTestSupport
import Testing
@testable import LinkHostCore

/// A pattern without variables is matched directly, not by the automaton (issue 33): the direct match must
/// decide every text as the automaton does.
@Suite("Match: direct wildcard match agrees with the automaton")
struct WildcardDirectMatchTests {
    /// Scalars patterns and texts are drawn from: wildcards, letters in both cases, a separator, non-ASCII.
    static let patternScalars: [Unicode.Scalar] = ["*", "?", "a", "b", "A", "/", ".", "É", "é"]
    static let textScalars: [Unicode.Scalar] = ["a", "b", "A", "B", "/", ".", "*", "?", "É", "é"]

    static func draw(_ scalars: [Unicode.Scalar], upTo length: Int, _ random: inout SplitMix) -> String {
        var view = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...length, using: &random) { view.append(scalars.randomElement(using: &random)!) }
        return String(view)
    }

    /// A text the pattern matches when case does not count (each `*` filled with up to three scalars, each `?`
    /// with one, letters swapped in case at random), then perhaps changed in one place.
    static func instance(of source: String, _ random: inout SplitMix) -> String {
        var view = String.UnicodeScalarView()
        for scalar in source.unicodeScalars {
            switch scalar {
            case "*": for _ in 0..<Int.random(in: 0...3, using: &random) { view.append(textScalars.randomElement(using: &random)!) }
            case "?": view.append(textScalars.randomElement(using: &random)!)
            default:
                let swapped = Bool.random(using: &random) ? scalar.properties.uppercaseMapping : scalar.properties.lowercaseMapping
                view.append(contentsOf: swapped.unicodeScalars.count == 1 ? swapped.unicodeScalars : String(scalar).unicodeScalars)
            }
        }
        if !view.isEmpty, Int.random(in: 0..<4, using: &random) == 0 {
            let at = view.index(view.startIndex, offsetBy: Int.random(in: 0..<view.count, using: &random))
            view.replaceSubrange(at...at, with: [textScalars.randomElement(using: &random)!])
        }
        return String(view)
    }

    @Test("random patterns and texts: the same answer, case-sensitive and folded", arguments: [false, true])
    func randomAgreement(caseSensitive: Bool) {
        var random = SplitMix(state: caseSensitive ? 31 : 37)
        var (matched, refused) = (0, 0)
        for _ in 0..<3_000 {
            let source = Self.draw(Self.patternScalars, upTo: 8, &random)
            let direct = WildcardPattern(source, caseSensitive: caseSensitive)
            let automaton = WildcardPattern(source, caseSensitive: caseSensitive, variables: SubstitutionVariables(), direct: false)
            #expect(direct.prefix == automaton.prefix && direct.isLiteral == automaton.isLiteral, "\(source)")
            for _ in 0..<8 {
                let text = Bool.random(using: &random) ? Self.instance(of: source, &random) : Self.draw(Self.textScalars, upTo: 10, &random)
                let answer = direct.matches(text)
                #expect(answer == automaton.matches(text), "\(source) vs \(text), caseSensitive \(caseSensitive)")
                if answer { matched += 1 } else { refused += 1 }
            }
        }
        // Both answers must come up often, or agreement says little.
        #expect(matched > 1_000 && refused > 1_000, "matched \(matched), refused \(refused)")
    }

    @Test("stars that must give back scalars: the last star takes more, the earlier keep theirs", arguments: [
        ("*a*b", "xaxbxb", true), ("*a*b", "xaxbxc", false), ("a*a*a", "aaa", true), ("a*a*a", "aa", false),
        ("*?a", "a", false), ("*?a", "ba", true), ("/*/?*", "/x/", false), ("/*/?*", "/x//", true),
        ("*.*", "/join/a.b", true), ("*.*", "/join/ab", false), ("a**?", "a", false), ("a**?", "ab", true),
    ])
    func backtracking(pattern: String, text: String, expected: Bool) {
        #expect(WildcardPattern(pattern).matches(text) == expected, "\(pattern) vs \(text)")
        #expect(WildcardPattern(pattern, caseSensitive: true, variables: SubstitutionVariables(), direct: false).matches(text) == expected, "automaton: \(pattern) vs \(text)")
    }
}
