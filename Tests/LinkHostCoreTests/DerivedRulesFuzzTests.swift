import Foundation
import Testing
import CallLinks
@testable import LinkHostCore
import LinkHostTestSupport

/// Fuzzes the rules derived from link templates: on random URLs built around each template shape, the
/// generated AASA (Apple's matching) and dynamic rules (AOSP's matching) open the app exactly when the
/// site's templates (`CallLinkMatcher`, what the server and `CallLinkParser` decide) accept the URL.
///
/// The bounded run is seeded and takes seconds. `LINKHOST_FUZZ_RULES_SECONDS=300` runs each shape that
/// long with a seed from the clock (printed), for the longer run by hand.
@Suite("Derived rules agree with the templates on random URLs")
struct DerivedRulesFuzzTests {
    /// Template sets, one site each: every shape, alone and together.
    static let shapes: [[String]] = [
        ["/call/{callId}"],
        ["/call/{callType}:{callId}"],
        ["/join/{callId}?type={callType}"],
        ["/join?call_id={callId}&call_type={callType}"],
        ["/video/demos/join/{callId}"],
        ["/c/{callId}/x"],
        ["/c/{callType}:{callId}/x/y"],
        ["/join/{callId}?type={callType}", "/call/{callType}:{callId}"],
        ["/call/{callId}?type={callType}", "/join/{callType}:{callId}", "/join/{callId}", "/video/demos/join/{callId}", "/join?call_id={callId}&call_type={callType}"],
        ["/call/{callId}", "/call/{callType}:{callId}", "/call/{callId}/x"],
    ]

    static let appID = "ABCDE12345.com.example.video"
    static let package = "com.example.video"

    @Test("seeded: 1,000 URLs per template set, no URL that only one side opens", arguments: shapes.indices)
    func seeded(_ shape: Int) throws {
        var random = SplitMix(state: UInt64(shape) &* 7919 &+ 23)
        let disagreements = try Self.run(Self.shapes[shape], urls: 1_000, random: &random)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(8).joined(separator: "\n"))")
    }

    @Test("linkhost's own assetlinks.json for every template shape is in Google's documented format: no LH406", arguments: shapes.indices)
    func generatedRulesAreDocumented(_ shape: Int) throws {
        let site = try Self.site(Self.shapes[shape])
        let found = AssetLinksLinter.diagnostics(bytes: AssetLinksGenerator.bytes(for: site)).filter { $0.code == .lh406 }
        #expect(found.isEmpty, "\(Self.shapes[shape]): \(found.prefix(3).map(\.description))")
    }

    @Test("the three non-call URLs of the issue stay in the browser on both platforms; real links open")
    func issueExamples() throws {
        let site = try Self.site(["/join/{callId}?type={callType}", "/call/{callType}:{callId}"])
        let aasa = AASAMatcher(document: AASAGenerator.document(for: site))
        let android = AndroidLinkMatcher(document: AssetLinksGenerator.document(for: site))
        for path in ["/call/abc123", "/join/abc/def", "/join/abc123/qr.svg", "/call/a:b:c", "/join/abc?type=a.b", "/call/x:"] {
            let url = "https://meet.acmemeet.com\(path)"
            #expect(aasa.match(url: url, appID: Self.appID, domain: "").decision != .match, "AASA opens \(url)")
            #expect(!android.match(url: url, packageName: Self.package, domain: "").opensApp, "Android opens \(url)")
        }
        for path in ["/call/video:abc123", "/join/abc123", "/join/abc123/", "/join/abc123?type=video", "/call/\(String(repeating: "a", count: 64)):\(String(repeating: "b", count: 64))"] {
            let url = "https://meet.acmemeet.com\(path)"
            #expect(aasa.match(url: url, appID: Self.appID, domain: "").decision == .match, "AASA keeps \(url) out")
            #expect(android.match(url: url, packageName: Self.package, domain: "").opensApp, "Android keeps \(url) out")
        }
    }

    @Test("long run by hand: LINKHOST_FUZZ_RULES_SECONDS seconds per template set", .enabled(if: ProcessInfo.processInfo.environment["LINKHOST_FUZZ_RULES_SECONDS"] != nil))
    func long() throws {
        let seconds = Double(ProcessInfo.processInfo.environment["LINKHOST_FUZZ_RULES_SECONDS"] ?? "0") ?? 0
        let seed = UInt64(Date().timeIntervalSince1970 * 1000)
        var random = SplitMix(state: seed)
        var total = 0
        for shape in Self.shapes {
            let end = Date().addingTimeInterval(seconds / Double(Self.shapes.count))
            while Date() < end {
                let disagreements = try Self.run(shape, urls: 1_000, random: &random)
                total += 1_000
                #expect(disagreements.isEmpty, "seed \(seed): \(disagreements.prefix(8).joined(separator: "\n"))")
                if !disagreements.isEmpty { return }
            }
        }
        print("derived-rules fuzz: seed \(seed), \(total) URLs, \(Self.shapes.count) template sets, no disagreement")
    }

    @Test("the server answers two of the non-call URLs with 404 and the third with the link's QR image, never a call page")
    func served() throws {
        let config = try Fixtures.config("""
        {"apps": [{"name": "V", "teamID": "ABCDE12345", "bundleID": "com.example.video"}],
         "callLinks": {"links": ["/join/{callId}?type={callType}", "/call/{callType}:{callId}"]},
         "sites": [{"hosts": ["meet.acmemeet.com"]}, {"hosts": ["staging-meet.acmemeet.com"]}]}
        """)
        let router = Router(snapshot: try Snapshot(config: config))
        func answer(_ path: String) -> Response { router.respond(to: Request(path: path, host: "meet.acmemeet.com")) }
        #expect(answer("/call/abc123").status == 404)
        #expect(answer("/join/abc/def").status == 404)
        // `{link}/qr.svg` is the link's QR code, an image the browser must load: the rules keep it out of the app.
        #expect(answer("/join/abc123/qr.svg").status == 200 && answer("/join/abc123/qr.svg").header("Content-Type")?.hasPrefix("image/svg+xml") == true)
        #expect(answer("/call/video:abc123").status == 200 && answer("/call/video:abc123").header("Content-Type")?.hasPrefix("text/html") == true)
    }

    static func site(_ templates: [String]) throws -> SiteConfig {
        try config(templates).defaultSite
    }

    static func config(_ templates: [String]) throws -> Config {
        let links = templates.map { "\"\($0)\"" }.joined(separator: ", ")
        return try Fixtures.config("""
        {"apps": [{"name": "V", "teamID": "ABCDE12345", "bundleID": "com.example.video"}],
         "android": [{"packageName": "com.example.video", "sha256CertFingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}],
         "callLinks": {"links": [\(links)], "defaultType": "default"}}
        """)
    }

    /// The URLs of `urls` random tries on which a platform and the templates disagree, described.
    static func run(_ templates: [String], urls: Int, random: inout SplitMix) throws -> [String] {
        let site = try site(templates)
        let aasa = AASAMatcher(document: AASAGenerator.document(for: site))
        let android = AndroidLinkMatcher(document: AssetLinksGenerator.document(for: site))
        let links = site.callLinks.links
        var generator = URLGenerator(templates: links.templates)
        var found: [String] = []
        for _ in 0..<urls {
            let pathAndQuery = generator.next(&random)
            let url = "https://meet.acmemeet.com" + pathAndQuery
            let accepted = links.match(pathAndQuery: pathAndQuery) != nil
            let limits = Limits(pathAndQuery, names: links.queryItemNames)
            let iOS = aasa.match(url: url, appID: appID, domain: "").decision == .match
            if iOS && !accepted && !limits.iOSPathNormalized || !iOS && accepted && !limits.repeatedItem {
                found.append("iOS \(iOS ? "opens" : "does not open") \(pathAndQuery), templates \(accepted ? "accept" : "refuse")")
            }
            let onAndroid = android.match(url: url, packageName: package, domain: "").opensApp
            if !limits.androidDecodes, onAndroid && !accepted && !limits.repeatedItem || !onAndroid && accepted && !limits.repeatedItem && !limits.longIDWithSlash {
                found.append("Android \(onAndroid ? "opens" : "does not open") \(pathAndQuery), templates \(accepted ? "accept" : "refuse")")
            }
        }
        return found
    }

    /// The URLs where a platform's reading, not the rules, makes the difference (docs/derived-rules.md).
    struct Limits {
        /// iOS drops every trailing `/` and leading `/`: `/call/abc//` reads as `/call/abc`.
        let iOSPathNormalized: Bool
        /// A bound query item given twice: the templates read the first; iOS's rules exclude the URL, Android's
        /// cannot say an empty first one (`?call_id=&call_id=abc` opens the app there).
        let repeatedItem: Bool
        /// Android decodes escapes and splits the query at `;` as well as `&`.
        let androidDecodes: Bool
        /// A 64-character ID with a trailing `/` is excluded on Android (a run of 65 counts the `/`).
        let longIDWithSlash: Bool

        init(_ pathAndQuery: String, names: [String]) {
            let parts = pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            let path = parts[0], query = parts.count > 1 ? parts[1] : ""
            iOSPathNormalized = path.hasPrefix("//") || path.hasSuffix("//")
            let itemNames = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0] }
            repeatedItem = names.contains { name in itemNames.filter { $0 == name }.count > 1 }
            androidDecodes = pathAndQuery.contains("%") || query.contains(";")
            longIDWithSlash = path.hasSuffix("/") && path.split(separator: "/").contains { $0.count >= 64 }
        }
    }
}

/// Random URLs near a site's links: a real link of a random template, then a few random edits.
struct URLGenerator {
    let templates: [CallLinkTemplate]
    static let tokenBytes = Array("abcXYZ019_-".utf8)
    static let otherBytes = Array(".~%!$&'()+,;=:@/".utf8)

    mutating func next(_ random: inout SplitMix) -> String {
        let template = templates[Int(random.next() % UInt64(templates.count))]
        var text = Array(template.fill(callID: token(&random), callType: token(&random)).utf8)
        let queryNames = templates.flatMap(\.queryItems).map(\.name) + ["utm"]
        for _ in 0..<Int(random.next() % 4) {
            // Never before the leading `/`, which would change the host instead.
            let position = 1 + Int(random.next() % UInt64(text.count))
            switch random.next() % 9 {
            case 0, 1: text.insert(pick(Self.otherBytes, &random), at: position)
            case 2: text.insert(pick(Self.tokenBytes, &random), at: position)
            case 3: if position < text.count { text.remove(at: position) }
            case 4: text.insert(contentsOf: Array(token(&random).utf8), at: position)
            case 5:
                let name = queryNames[Int(random.next() % UInt64(queryNames.count))]
                let value = random.next() % 4 == 0 ? "" : token(&random)
                let item = random.next() % 6 == 0 ? name : name + "=" + value
                text += Array(((text.contains(UInt8(ascii: "?")) ? "&" : "?") + item).utf8)
            case 6: text.insert(UInt8(ascii: "/"), at: position)
            case 7: text += Array("/".utf8)
            default: text.insert(contentsOf: Array(String(repeating: "a", count: 60 + Int(random.next() % 8)).utf8), at: position)
            }
        }
        // `?` only separates the query; `#` would start a fragment the templates never read.
        var seenQuestion = false
        text = text.map { byte in
            guard byte == UInt8(ascii: "?") else { return byte }
            defer { seenQuestion = true }
            return seenQuestion ? UInt8(ascii: "=") : byte
        }
        return String(decoding: text, as: UTF8.self)
    }

    private func token(_ random: inout SplitMix) -> String {
        let length = random.next() % 10 == 0 ? 60 + Int(random.next() % 8) : 1 + Int(random.next() % 8)
        return String(decoding: (0..<length).map { _ in pick(Self.tokenBytes, &random) }, as: UTF8.self)
    }

    private func pick(_ bytes: [UInt8], _ random: inout SplitMix) -> UInt8 {
        bytes[Int(random.next() % UInt64(bytes.count))]
    }
}
