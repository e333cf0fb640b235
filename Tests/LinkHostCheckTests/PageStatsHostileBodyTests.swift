import LinkHostCheck
import LinkHostCore
import LinkHostTestSupport
import Testing

/// `linkhost stats` reads whatever the URL answers: huge, negative and non-numeric counters, control bytes in
/// labels, and random bodies must print a table, never trap or write a control sequence to the terminal.
@Suite("Page stats on hostile bodies")
struct PageStatsHostileBodyTests {
    /// Every character the table may hold besides printable text: line feeds and the bar.
    static func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            scalar.value != 0x0A && (scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value))
        }
    }

    /// Reads `body` and renders both outputs, checking what holds for any body.
    static func render(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) -> [SiteStats] {
        let sites = PageStats.read(body)
        for site in sites {
            #expect(site.views.values.allSatisfy { $0 >= 0 } && site.totalViews >= 0 && site.totalTaps >= 0 && site.pagesServed >= 0,
                    "a count below zero: \(site)", sourceLocation: sourceLocation)
        }
        let table = PageStats.table(sites, barWidth: 20)
        #expect(isClean(table), "a control character reached the table: \(table.debugDescription)", sourceLocation: sourceLocation)
        for line in table.split(separator: "\n") {
            #expect(line.filter { $0 == "█" }.count <= 20, "a bar longer than its width: \(line)", sourceLocation: sourceLocation)
        }
        _ = PageStats.json(sites)
        return sites
    }

    @Test("a counter of 800000000000000000 (which trapped in the bar width) and sums past Int.max print")
    func hugeCounters() throws {
        let sites = Self.render("""
        linkhost_page_views_total{site="big",platform="ios"} 800000000000000000
        linkhost_page_views_total{site="big",platform="android"} 8.9e18
        linkhost_page_views_total{site="big",platform="desktop"} 8.9e18
        linkhost_page_actions_total{site="big",action="store",platform="ios"} 8.9e18
        linkhost_page_actions_total{site="big",action="store",platform="android"} 8.9e18
        linkhost_requests_total{site="big",route="call_page",status="2xx"} 8.9e18
        linkhost_requests_total{site="big",route="call_page",status="2xx"} 8.9e18
        """)
        let big = try #require(sites.first)
        #expect(big.totalViews == Int.max && big.taps(.store) == Int.max && big.pagesServed == Int.max, "\(big)")
        #expect(big.views[.ios] == 800_000_000_000_000_000)
    }

    @Test("negative, NaN, infinite and too large values are not counters, and are skipped", arguments: [
        "-5", "-0.5", "NaN", "nan", "+Inf", "-Inf", "Inf", "1e19", "9.3e18", "1e400", "", "x", "0x",
    ])
    func notCounters(value: String) throws {
        let sites = Self.render("""
        linkhost_page_views_total{site="s",platform="ios"} 3
        linkhost_page_views_total{site="s",platform="android"} \(value)
        """)
        let site = try #require(sites.first)
        #expect(site.totalViews == 3 && site.views[.android] == nil, "\(value): \(site)")
    }

    @Test("control bytes in a site label or a reason are escaped in the table (ESC, BEL, CR, LF, C1)")
    func controlBytesInLabels() throws {
        let sites = Self.render("""
        linkhost_page_views_total{site="ev\u{1B}]0;pwned\u{07}il\\nnext\u{0D}x\u{9B}",platform="ios"} 1
        linkhost_beacons_dropped_total{site="ev\u{1B}]0;pwned\u{07}il\\nnext\u{0D}x\u{9B}",reason="r\u{1B}[2J"} 1
        """)
        let table = PageStats.table(sites)
        #expect(table.contains("site ev\\x1B]0;pwned\\x07il\\x0Anext\\x0Dx\\u{9B}: 1 page views"), "\(table.debugDescription)")
        #expect(table.contains("1 r\\x1B[2J"), "\(table.debugDescription)")
    }

    static let pieces = [
        "linkhost_page_views_total", "linkhost_page_actions_total", "linkhost_beacons_dropped_total", "linkhost_requests_total",
        "{", "}", "site=\"", "platform=\"ios\"", "platform=\"android\"", "action=\"store\"", "reason=\"rate\"", "route=\"call_page\"",
        "status=\"2xx\"", "\"", ",", "=", " ", "\\", "\\n", "\n", "#", "9223372036854775807", "800000000000000000", "-1", "NaN", "+Inf",
        "1e308", "0", "7", "\u{1B}[31m", "\u{07}", "\r", "\u{9B}", "\u{202E}", "é", "\u{0}",
    ]

    @Test("random bodies built from the exposition's own pieces, and random bytes, never trap or leak a control byte")
    func randomBodies() {
        for seed in UInt64(1)...400 {
            var random = SplitMix(state: seed)
            var body = ""
            for _ in 0..<Int.random(in: 1...80, using: &random) {
                if Int.random(in: 0..<8, using: &random) == 0 {
                    body += String(decoding: (0..<Int.random(in: 1...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, as: UTF8.self)
                } else {
                    body += Self.pieces.randomElement(using: &random)!
                }
            }
            let site = "linkhost_page_views_total{site=\"s\(seed)\",platform=\"ios\"} \(UInt64.random(in: 0...UInt64(Int.max), using: &random))\n"
            _ = Self.render(site + body)
        }
    }
}
