#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CallLinks
import LinkHostCore
import LinkHostJSON

/// The entry points the libFuzzer harnesses drive, shared with the tests that replay their corpora
/// and crash inputs, so a regression test runs exactly the code the fuzzer ran.
public enum FuzzTargets {
    /// Config loading and validation on arbitrary bytes.
    public static func config(_ bytes: [UInt8]) {
        if let config = try? ConfigLoader.parse(bytes) {
            for site in config.sites {
                _ = AASAGenerator.bytes(for: site)
                _ = AssetLinksGenerator.bytes(for: site)
            }
        }
    }

    /// The router on an arbitrary request: lines are method, path, type, If-None-Match, User-Agent, Host,
    /// and a raw query string whose items join `type`.
    public static func router(_ bytes: [UInt8]) {
        guard let snapshot = fixtureSnapshot else { return }
        let lines = bytes.split(separator: 0x0A, maxSplits: 6, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        func line(_ index: Int) -> String? { index < lines.count ? lines[index] : nil }
        var query = line(6).map(QueryItems.firstValues) ?? [:]
        if let type = line(2) { query["type"] = type }
        let request = Request(method: line(0) ?? "GET", path: line(1) ?? "/", query: query,
                              ifNoneMatch: line(3), userAgent: line(4), host: line(5))
        let response = Router(snapshot: snapshot).respond(to: request)
        precondition((200...599).contains(response.status), "status out of range")
        precondition(!response.headers.contains { $0.value.utf8.contains(0x0A) || $0.value.utf8.contains(0x0D) }, "a header value carries a line break")
    }

    /// The page template parser and renderer on arbitrary template text, with hostile values.
    public static func template(_ bytes: [UInt8]) {
        guard let template = try? PageTemplate(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
        var output: [UInt8] = []
        // Markup fields carry linkhost's own SVG and are inserted as they are; every other field is hostile here.
        template.render(into: &output) { $0.isMarkup ? "" : "<script>\"'&" }
        precondition(!String(decoding: output, as: UTF8.self).contains("<script>\""), "a value was not escaped")
    }

    /// The AASA matcher through its line protocol on arbitrary lines.
    public static func matcher(_ bytes: [UInt8]) {
        _ = MatchLineProtocol.respond(toInput: String(decoding: bytes, as: UTF8.self))
    }

    /// The app-file readers on arbitrary bytes: XML, then an .entitlements plist and an AndroidManifest.xml
    /// compared with a fixed config. A file either reads or is refused with LH701, never another code.
    public static func appFiles(_ bytes: [UInt8]) {
        _ = try? XMLReader.parse(bytes)
        guard let config = appConfig else { return }
        if case .failure(let problem) = EntitlementsFile.read(bytes) { precondition(problem.code == .lh701, "an unreadable entitlements file got \(problem.code)") }
        if case .failure(let problem) = AndroidManifestFile.read(bytes) { precondition(problem.code == .lh701, "an unreadable manifest got \(problem.code)") }
        _ = AppFilesLinter.lint(entitlements: bytes, source: "fuzz", config: config)
        _ = AppFilesLinter.lint(androidManifest: bytes, source: "fuzz", config: config)
    }

    /// Android's dynamic rules on arbitrary input: the first line is a URL, the rest an assetlinks.json.
    /// The matcher reads no app from a file only when the linter says Android cannot read it (an LH409 or
    /// LH105 error), and stores no rules for an empty pattern only when the linter finds one (LH406).
    public static func android(_ bytes: [UInt8]) {
        let parts = bytes.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
        let url = String(decoding: parts[0], as: UTF8.self)
        let rest = parts.count > 1 ? Array(parts[1]) : []
        guard let document = try? JSONParser.parse(rest) else { return }
        let matcher = AndroidLinkMatcher(document: document)
        let errors = Set(AssetLinksLinter.diagnostics(bytes: rest).filter { $0.severity == .error }.map(\.code))
        precondition(matcher.unreadableReason == nil || errors.contains(.lh409) || errors.contains(.lh105), "the matcher reads nothing from a file the linter does not call unreadable")
        for package in matcher.packageNames + matcher.writtenPackageNames {
            let result = matcher.match(url: url, packageName: package, domain: "")
            precondition(result.decision != .notListed || matcher.unreadableReason != nil || !matcher.packageNames.contains(package), "a listed app was not listed")
        }
    }

    /// The config the app files are compared with: two sites, every kind of host and template.
    private static let appConfig: Config? = try? ConfigLoader.parse(Array("""
        {"apps":[{"name":"Fuzz","teamID":"ABCDE12345","bundleID":"com.example.fuzz"}],
         "android":[{"packageName":"com.example.fuzz","sha256CertFingerprints":["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}],
         "aasa":{"webcredentials":true},
         "sites":[{"hosts":["links.example.com","*.example.org"],
                   "callLinks":{"links":["/call/{callId}?type={callType}","/join/{callType}:{callId}","/join?call_id={callId}&call_type={callType}"]}},
                  {"hosts":["meet.example.net"],"callLinks":{"paths":["m"]}}]}
        """.utf8))

    /// A snapshot of two sites built once from a fixed config and a small static folder in a temporary directory.
    private static let fixtureSnapshot: Snapshot? = {
        let root = FileManager.default.temporaryDirectory.path + "/linkhost-fuzz-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: root + "/public/css", withIntermediateDirectories: true)
        let files = [
            "public/call.html": "<!doctype html><title>{{appName}}</title><a href=\"{{openInAppURL}}\">{{callId}} {{callType}}</a>{{#qrCode}}{{qrCode}}{{/qrCode}}",
            "public/index.html": "<p>home</p>", "public/css/site.css": "p{}", "public/404.html": "<p>lost</p>",
        ]
        for (path, text) in files { try? Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + path)) }
        let config = """
        {"apps":[{"name":"Fuzz","teamID":"ABCDE12345","bundleID":"com.example.fuzz","appStoreID":"1","urlScheme":"fuzz"}],
         "android":[{"packageName":"com.example.fuzz","sha256CertFingerprints":["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}],
         "callLinks":{"paths":["call","meet"],"template":"\(root)/public/call.html","webJoinURL":"https://w.example/{callId}"},
         "static":{"root":"\(root)/public"},
         "sites":[{"hosts":["links.example.com","*.example.org"],
                   "callLinks":{"links":["/join/{callType}:{callId}","/video/demos/join/{callId}","/join?call_id={callId}&call_type={callType}"],
                                "template":"\(root)/public/call.html","baseURL":"https://links.example.com"}}]}
        """
        guard let parsed = try? ConfigLoader.parse(Array(config.utf8)) else { return nil }
        return try? Snapshot(config: parsed)
    }()
}
