import Testing
@testable import LinkHostCore
import LinkHostJSON
import LinkHostTestSupport

/// Tenants' association files spliced from a shape their settings share (`DocumentShapes`) are the very bytes
/// the generators write for each of them: whatever the format, the app lists, App Clips, fingerprints and rules.
@Suite("Association files from shared shapes")
struct DocumentShapeTests {
    /// A top level of three link shapes and one site file's worth of tenants of every kind an operator writes,
    /// twice over (a shape is made the second time its settings come), in four groups of AASA settings.
    static let config: String = {
        var sites: [String] = []
        for index in 0..<64 {
            let kind = index % 8
            let app = #"{"name": "T\#(index)", "teamID": "T\#(padded(index))", "bundleID": "com.t\#(index).video", "appStoreID": "\#(1000 + index)""#
                + (kind == 1 || kind == 5 ? #", "appClipBundleID": "com.t\#(index).video.Clip""# : "") + "}"
            let fingerprints = (0...(kind % 3)).map { "\"" + Self.fingerprint(index * 4 + $0) + "\"" }.joined(separator: ", ")
            let android = #"{"name": "T\#(index)", "packageName": "com.t\#(index).video", "sha256CertFingerprints": [\#(fingerprints)]"#
                + (kind == 4 ? #", "dynamicRules": false"# : "") + "}"
            let apps = kind == 2 ? "[]" : "[\(app)" + (kind == 6 ? #", {"name": "U\#(index)", "teamID": "U\#(padded(index))", "bundleID": "com.u\#(index)"}"# : "") + "]"
            let androidApps = kind == 3 ? "[]" : "[\(android)" + (kind == 7 ? #", {"name": "V", "packageName": "com.v\#(index)", "sha256CertFingerprints": ["\#(Self.fingerprint(999))"]}"# : "") + "]"
            var site = #"{"hosts": ["t\#(index).example.com"], "callLinks": {"baseURL": "https://t\#(index).example.com"}, "apps": \#(apps), "android": \#(androidApps)"#
            switch index / 16 {
            case 1: site += #", "aasa": {"format": "both", "webcredentials": true, "appclips": ["ABCDE12345.com.hand.Clip"]}"#
            case 2: site += #", "aasa": {"activitycontinuation": true, "rules": [{"path": "/call/$(x)/*", "comment": "x"}], "substitutionVariables": {"x": ["a", "b"]}}"#
            case 3: site += #", "aasa": {"format": "legacy", "rules": [{"path": "/call/*"}, {"path": "/call/x", "exclude": true}]}"#
            default: break
            }
            sites.append(site + "}")
        }
        return #"{"apps": [{"name": "P", "teamID": "PLATFORM00", "bundleID": "com.platform.video"}], "#
            + #""callLinks": {"links": ["/call/{callId}?type={callType}", "/call/{callType}:{callId}", "/j/{callId}"]}, "#
            + #""sites": [\#(sites.joined(separator: ", "))]}"#
    }()

    static func fingerprint(_ seed: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        return (0..<32).map { byte in
            let value = (seed * 31 + byte * 7) % 256
            return String([digits[value / 16], digits[value % 16]])
        }.joined(separator: ":")
    }

    static func padded(_ index: Int) -> String {
        String(repeating: "0", count: 9 - String(index).count) + String(index)
    }

    @Test("every site's AASA and assetlinks.json from the shapes are the bytes written whole")
    func splicedBytesAreWrittenBytes() throws {
        let sites = try Fixtures.config(Self.config).sites
        var shapes = DocumentShapes()
        for site in sites {
            if !site.apps.isEmpty { #expect(shapes.aasaBytes(for: site) == AASAGenerator.bytes(for: site), "\(site.hosts)") }
            if !site.android.isEmpty { #expect(shapes.assetLinksBytes(for: site) == AssetLinksGenerator.bytes(for: site), "\(site.hosts)") }
        }
    }

    @Test("a tenant's AASA and assetlinks.json have a shape, which gives another tenant's bytes")
    func tenantsShareAShape() throws {
        let sites = try Fixtures.config(Self.config).sites
        // Two tenants of the same kind (an App Clip), the default site before them: one shape made from the
        // first, filled with the second's names.
        let (first, second) = (sites[2], sites[10])
        #expect(first.aasa.rules == second.aasa.rules)
        let aasa = try #require(DocumentShape(values: first.appIDs.count + first.aasa.appclips.count) { standIns in
            var settings = first.aasa
            settings.appclips = Array(standIns.dropFirst(first.appIDs.count))
            return AASAGenerator.document(settings: settings, appIDs: Array(standIns.prefix(first.appIDs.count)))
        })
        #expect(aasa.bytes(second.appIDs + second.aasa.appclips) == AASAGenerator.bytes(for: second))
        let assetLinks = try #require(DocumentShape(values: 1 + first.android[0].sha256CertFingerprints.count) { standIns in
            var app = first.android[0]
            (app.packageName, app.sha256CertFingerprints) = (standIns[0], Array(standIns.dropFirst()))
            return AssetLinksGenerator.document(apps: [app], rules: AssetLinksGenerator.dynamicRules(for: first))
        })
        #expect(assetLinks.bytes([second.android[0].packageName] + second.android[0].sha256CertFingerprints) == AssetLinksGenerator.bytes(for: second))
    }

    @Test("values are escaped as the writer escapes them", arguments: ["plain", "quote \" and \\ backslash", "tab\tline\nend", "\u{7F}\u{1}", "ünï 😀", ""])
    func valuesEscapedAsWritten(value: String) throws {
        func document(_ values: [String]) -> JSONValue {
            .object(JSONObject([JSONMember("a", .array(values.map(JSONValue.string))), JSONMember("b", .string(values[0]))]))
        }
        let shape = try #require(DocumentShape(values: 2, document))
        #expect(shape.bytes([value, "x"]) == JSONWriter.bytes(document([value, "x"]), style: .pretty))
    }

    @Test("a document holding a string that looks like a stand-in has no shape: it is written whole", arguments: ["\u{0}0\u{0}", "x\u{0}", "\u{0}", "\u{0}00\u{0}"])
    func lookalikeRefused(text: String) {
        #expect(DocumentShape(values: 1) { .array([.string($0[0]), .string(text)]) } == nil)
        #expect(DocumentShape(values: 1) { .array([.string($0[0]), .string(text + "y")]) } == nil)
    }
}
