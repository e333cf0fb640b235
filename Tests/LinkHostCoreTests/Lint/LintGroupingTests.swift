import LinkHostCore
import Testing

/// A mistake repeated across many sites reads as one line for people and stays every one in JSON.
@Suite("Lint grouping")
struct LintGroupingTests {
    static func report(sites: Int) -> LintReport {
        let repeated = (0..<sites).map { LintDiagnostic(.lh301, .error, path: "sites[\($0)].callLinks.links[0]", "link \($0) does not open the app") }
        let other = LintDiagnostic(.lh403, .warning, path: "android[0].sha256CertFingerprints", "one fingerprint")
        return LintReport(source: "c.json", diagnostics: repeated + [other])
    }

    @Test("three or more sites with the same problem at the same place: one line with the count, the sites and the first one's words")
    func grouped() {
        let text = Self.report(sites: 1000).humanText(validSummary: "")
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3, "\(text)")
        #expect(lines[1] == "  error LH301 in 1000 sites (sites[0], sites[1], sites[2] … sites[998], sites[999]), at sites[N].callLinks.links[0]; first: link 0 does not open the app")
        #expect(lines[2].hasPrefix("  warning LH403 android[0]"))
        #expect(lines[0] == "c.json: 1000 errors, 1 warning", "the counts still count every one")
    }

    @Test("two sites stay two lines; JSON keeps every diagnostic")
    func notGrouped() {
        let two = Self.report(sites: 2)
        #expect(two.humanText(validSummary: "").split(separator: "\n").count == 4)
        #expect(Self.report(sites: 1000).jsonText.components(separatedBy: "\"LH301\"").count - 1 == 1000)
    }
}
