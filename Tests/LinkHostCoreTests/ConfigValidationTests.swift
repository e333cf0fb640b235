import Testing
@testable import LinkHostCore
import LinkHostTestSupport

@Suite("Config validation")
struct ConfigValidationTests {
    @Test("the valid fixture loads, with fingerprints normalised to uppercase")
    func validConfigLoads() throws {
        let config = try Fixtures.config(Fixtures.validConfig)
        #expect(config.defaultSite.appIDs == ["ABCDE12345.com.example.video"])
        #expect(config.defaultSite.android[0].sha256CertFingerprints[0].hasPrefix("14:6D:E9:83"))
        #expect(config.server.host == "127.0.0.1")
        #expect(config.defaultSite.callLinks.links.templates.map(\.text) == ["/call/{callId}?type={callType}", "/call/{callType}:{callId}"])
        #expect(config.sites.count == 1)
    }

    @Test("a fingerprint read as bytes is accepted, refused and uppercased as one read a character at a time")
    func fingerprintAsBytes() {
        let valid = "14:6d:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:e5"
        func characterWise(_ value: String) -> String? {
            let pairs = value.split(separator: ":", omittingEmptySubsequences: false)
            guard pairs.count == 32, pairs.allSatisfy({ $0.utf8.count == 2 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
            return value.uppercased()
        }
        let cases = [valid, valid.uppercased(), String(valid.dropLast(3)), valid + ":AB", valid + ":", ":" + valid, valid.replacing(":", with: "-"),
                     valid.replacing("14", with: "1G"), valid.replacing("14", with: "\u{FF11}4"), valid.replacing("14:", with: "14::"),
                     valid.replacing("14", with: "1"), valid.replacing("14", with: "1é"), "", String(repeating: "A", count: 95)]
        for text in cases { #expect(Identifiers.normalizedFingerprint(text) == characterWise(text), "\(text)") }
    }

    @Test("the shipped default config is valid")
    func shippedConfigIsValid() throws {
        let file = #filePath
        let root = String(file[..<file.range(of: "/Tests/")!.lowerBound])
        let config = try ConfigLoader.load(path: root + "/config/linkhost.json")
        #expect(!config.defaultSite.apps.isEmpty)
    }

    /// One bad value each: the JSON path to change, the JSON to put there, the path and words the error must carry.
    static let badValues: [(String, String, String, String)] = [
        ("apps.0.teamID", #""abc""#, "apps[0].teamID", #""abc" is not 10 characters of A-Z and 0-9"#),
        ("apps.0.teamID", #""abcde12345""#, "apps[0].teamID", "is not 10 characters"),
        ("apps.0.teamID", "12", "apps[0].teamID", "found a number 12, expected a string"),
        ("apps.0.bundleID", #""video""#, "apps[0].bundleID", "reverse-DNS"),
        ("apps.0.bundleID", #""com.ex ample""#, "apps[0].bundleID", "reverse-DNS"),
        ("apps.0.bundleID", #""com..example""#, "apps[0].bundleID", "reverse-DNS"),
        ("apps.0.name", #""  ""#, "apps[0].name", "is empty"),
        ("apps.0.appStoreID", #""id123""#, "apps[0].appStoreID", "App Store ID of 1 to 12 digits"),
        ("apps.0.urlScheme", #""https""#, "apps[0].urlScheme", "not a custom scheme"),
        ("apps.0.urlScheme", #""example://""#, "apps[0].urlScheme", "is not a URL scheme"),
        ("apps.0.teamId", #""ABCDE12345""#, "apps[0].teamId", #"did you mean "teamID"?"#),
        ("android.0.packageName", #""com""#, "android[0].packageName", "Android package name"),
        ("android.0.packageName", #""com.1example""#, "android[0].packageName", "Android package name"),
        ("android.0.sha256CertFingerprints", #"["14:6D"]"#, "android[0].sha256CertFingerprints[0]", "SHA-256 fingerprint"),
        ("android.0.sha256CertFingerprints", "[]", "android[0].sha256CertFingerprints", "at least one"),
        ("android.0.sha256CertFingerprints", #""14:6D""#, "android[0].sha256CertFingerprints", "found a string"),
        ("server.port", "70000", "server.port", "70000 is out of range; expected an integer from 0 to 65535"),
        ("server.port", #""8080""#, "server.port", "expected an integer"),
        ("server.port", "80.5", "server.port", "expected an integer"),
        ("server.host", #""""#, "server.host", "is not an address"),
        ("server.connectionTimeout", "0", "server.connectionTimeout", "out of range"),
        ("server.prot", "1", "server.prot", #"did you mean "port"?"#),
        ("callLinks.paths", "[]", "callLinks.paths", "at least one path prefix"),
        ("callLinks.paths", #"["/call"]"#, "callLinks.paths[0]", "is not a path prefix"),
        ("callLinks.paths", #"["ca ll"]"#, "callLinks.paths[0]", "has a space in the segment \"ca ll\""),
        ("callLinks", #"{"links": []}"#, "callLinks.links", "at least one link template"),
        ("callLinks", #"{"links": ["/join"]}"#, "callLinks.links[0]", "has no {callId}"),
        ("callLinks", #"{"links": ["/join/{callId}", "/join/{callId}"]}"#, "callLinks.links[1]", "is listed twice (at callLinks.links[0])"),
        ("callLinks", #"{"links": ["/join/{callId}", "/join/{callId}?type={callType}"]}"#, "callLinks.links[1]", "never decides: callLinks.links[0] before it"),
        ("callLinks", #"{"links": [7]}"#, "callLinks.links[0]", "found a number 7, expected a link template string"),
        ("sites", #"[{"hosts": ["links.example.com"]}, {"hosts": ["Links.Example.com"]}]"#, "sites[1].hosts[0]", "is already a host of sites[0].hosts[0]"),
        ("sites", #"[{"hosts": ["https://links.example.com"]}]"#, "sites[0].hosts[0]", "is a URL"),
        ("sites", #"[{"hosts": ["bücher.example"]}]"#, "sites[0].hosts[0]", "xn--"),
        ("sites", #"[{"hosts": ["a.*.example"]}]"#, "sites[0].hosts[0]", "other than a leading"),
        ("sites", #"[{"hosts": []}]"#, "sites[0].hosts", "at least one host"),
        ("sites", #"[{"apps": []}]"#, "sites[0].hosts", "missing; expected an array of host names"),
        ("sites", #"[{"hosts": ["a.example"], "server": {}}]"#, "sites[0].server", "unknown key"),
        ("sites", #"[{"hosts": ["a.example"], "callLinks": {"links": ["/x/{callId}"], "cacheMaxAge": -1}}]"#, "sites[0].callLinks.cacheMaxAge", "out of range"),
        ("callLinks.paths", #"["call", "call"]"#, "callLinks.paths[1]", "listed twice"),
        ("sites", #"[{"hosts": ["a.example"], "callLinks": {"openInAppHost": "open.b.example"}}]"#, "sites[0].callLinks.openInAppHost", "is not one of the hosts of sites[0] (a.example)"),
        ("sites", #"[{"hosts": ["*.a.example"], "callLinks": {"openInAppHost": "*.a.example"}}]"#, "sites[0].callLinks.openInAppHost", "is a wildcard"),
        ("callLinks.openInAppHost", #""https://open.example""#, "callLinks.openInAppHost", "is a URL"),
        ("callLinks.paths", #"[".well-known"]"#, "callLinks.paths[0]", "reserved"),
        ("callLinks.defaultType", #""a b""#, "callLinks.defaultType", "1 to 64 characters"),
        ("aasa.format", #""modem""#, "aasa.format", "is not a format"),
        ("aasa.rules", #"[{"path": "/a", "qeury": "x"}]"#, "aasa.rules[0].qeury", #"did you mean "query"?"#),
        ("aasa.rules", #"[{"path": ""}]"#, "aasa.rules[0].path", "is empty"),
        ("aasa.rules", #"[{"path": "/a", "exclude": "yes"}]"#, "aasa.rules[0].exclude", "expected true or false"),
        ("aasa.rules", #"[{"path": "/a", "query": {"x": 1}}]"#, "aasa.rules[0].query.x", "expected a pattern string"),
        ("aasa.rules", #"[{"path": "/a", "query": 5}]"#, "aasa.rules[0].query", "expected a pattern string or an object"),
        ("aasa.rules", #""/call/*""#, "aasa.rules", "expected an array of rules"),
        ("aasa.defaults", #"{"caseSensitiv": false}"#, "aasa.defaults.caseSensitiv", #"did you mean "caseSensitive"?"#),
        ("aasa.substitutionVariables", #"{"alpha": ["x"]}"#, "aasa.substitutionVariables.alpha", "predefined"),
        ("aasa.substitutionVariables", #"{"food": []}"#, "aasa.substitutionVariables.food", "non-empty array of strings"),
        ("aasa.substitutionVariables", #"{"my-var": ["x"]}"#, "aasa.substitutionVariables.my-var", "substitution variable name"),
        ("aasa.webcredentials", #""yes""#, "aasa.webcredentials", "true, false or an array of app IDs"),
        ("aasa.appclips", #"["ABCDE12345"]"#, "aasa.appclips[0]", "is not an app ID"),
        ("aasa.cacheMaxAge", "-1", "aasa.cacheMaxAge", "out of range"),
        ("static.root", #""""#, "static.root", "is not a folder path"),
        ("extra", "1", "extra", "unknown key"),
    ]

    @Test("each bad value is reported with its JSON path, what was found and what is expected", arguments: badValues)
    func badValue(path: String, json: String, reportedPath: String, words: String) throws {
        let text = try Fixtures.validConfig(setting: path, to: json)
        let errors = try Fixtures.diagnostics(text).filter { $0.severity == .error }
        #expect(errors.contains { $0.path == reportedPath && $0.message.contains(words) },
                "expected an error at \(reportedPath) containing \(words); got \(errors.map(\.description))")
        #expect(throws: ConfigError.self) { try Fixtures.config(text) }
    }

    @Test("legacy and both formats refuse rules they cannot express", arguments: ["legacy", "both"])
    func legacyRefusesQueries(format: String) throws {
        let pathsOnly = try Fixtures.validConfig(setting: "aasa.format", to: "\"\(format)\"")
        #expect(try Fixtures.config(pathsOnly).defaultSite.aasa.format.rawValue == format)
        let broken = pathsOnly.replacingOccurrences(of: #""path":"/call/?*""#, with: #""path":"/a","query":"x=1","fragment":"f""#)
        let errors = try Fixtures.diagnostics(broken).map(\.description)
        #expect(errors.contains { $0.hasPrefix("aasa.rules[0].query:") && $0.contains("cannot be expressed in the \(format) format") })
        #expect(errors.contains { $0.hasPrefix("aasa.rules[0].fragment:") })
    }

    @Test("every problem is reported at once, in document order")
    func reportsEverything() throws {
        let text = #"{"apps": [{"name": "A", "teamID": "bad", "bundleID": "x"}], "server": {"port": -1}, "aasa": {"format": "new"}}"#
        do {
            _ = try Fixtures.config(text)
            Issue.record("a config with three errors loaded")
        } catch let error as ConfigError {
            #expect(error.errors.map(\.path) == ["server.port", "apps[0].teamID", "apps[0].bundleID", "aasa.format"])
            #expect(error.description.hasPrefix("test: 4 errors"))
        }
    }

    @Test("syntax errors name the line and column")
    func syntaxError() throws {
        do {
            _ = try Fixtures.config("{\n  \"apps\": [,]\n}")
            Issue.record("broken JSON loaded")
        } catch let error as ConfigError {
            #expect(error.description.contains("line 2, column 12"))
        }
    }

    @Test("duplicate app IDs and duplicate keys are errors")
    func duplicates() throws {
        let twice = try Fixtures.validConfig(setting: "apps", to: #"[{"name":"A","teamID":"ABCDE12345","bundleID":"com.a.b"},{"name":"B","teamID":"ABCDE12345","bundleID":"com.a.b"}]"#)
        #expect(try Fixtures.diagnostics(twice).contains { $0.path == "apps[1]" && $0.message.contains("already listed at apps[0]") })
        let repeatedKey = #"{"apps": [], "apps": []}"#
        #expect(try Fixtures.diagnostics(repeatedKey).contains { $0.path == "apps" && $0.message.contains("appears twice") })
    }

    @Test("a config with no app at all is refused")
    func noApps() throws {
        #expect(try Fixtures.diagnostics("{}").contains { $0.path == "apps" && $0.message.contains("at least one app") })
    }

    @Test("without rules, each call-link template gets its exclusions and one rule that opens the app")
    func defaultRules() throws {
        let text = try Fixtures.validConfig(setting: "aasa", to: nil)
            .replacingOccurrences(of: #""paths":["call"]"#, with: #""paths":["call","meet"]"#)
        let config = try Fixtures.config(text)
        let rules = config.defaultSite.aasa.rules
        let opening = rules.indices.filter { !rules[$0].exclude }
        // `type:id` blocks first, since a plain ID's block excludes the `:` they need.
        #expect(opening.map { rules[$0].path } == ["/call/?*:?*", "/meet/?*:?*", "/call/?*", "/meet/?*"])
        #expect(opening.map { config.defaultSite.aasa.ruleSources[$0] } == ["callLinks.paths[0]", "callLinks.paths[1]", "callLinks.paths[0]", "callLinks.paths[1]"])
        #expect(rules.contains { $0.path == "/call/*/?*" && $0.exclude } && rules.contains { $0.path == "/meet/*:*:*" && $0.exclude })
        #expect(opening.last == rules.count - 1)
    }

    @Test("environment overrides win over the file and are validated")
    func environment() throws {
        let config = try Fixtures.config(Fixtures.validConfig, environment: ["LINKHOST_HOST": "::1", "LINKHOST_PORT": "0"])
        #expect(config.server.host == "::1")
        #expect(config.server.port == 0)
        #expect(throws: ConfigError.self) { try Fixtures.config(Fixtures.validConfig, environment: ["LINKHOST_PORT": "http"]) }
    }

    @Test("true under webcredentials lists every app; an array lists what it names")
    func appLists() throws {
        let all = try Fixtures.config(try Fixtures.validConfig(setting: "aasa.webcredentials", to: "true"))
        #expect(all.defaultSite.aasa.webcredentials == ["ABCDE12345.com.example.video"])
        let named = try Fixtures.config(try Fixtures.validConfig(setting: "aasa.activitycontinuation", to: #"["ZYXWV98765.com.other"]"#))
        #expect(named.defaultSite.aasa.activitycontinuation == ["ZYXWV98765.com.other"])
    }

    @Test("suggestions come from edit distance and case")
    func suggestions() {
        #expect(Suggestion.closest(to: "TeamID", among: ["teamID", "name"]) == "teamID")
        #expect(Suggestion.closest(to: "bundleId", among: ["bundleID"]) == "bundleID")
        #expect(Suggestion.closest(to: "zzzzzz", among: ["teamID"]) == nil)
    }
}
