import Foundation
import Testing

/// `linkhost match`: exit codes and words for each decision, and the conformance line protocol.
@Suite("match command")
struct CheckMatchCommandTests {
    static let aasa = #"""
    {"applinks": {"details": [
      {"appIDs": ["ABCDE12345.com.example.video"], "components": [
        {"/": "/call/admin", "exclude": true, "comment": "admin pages stay on the web"},
        {"/": "/call/*", "?": {"type": "?*"}},
        {"/": "/call/?*"}
      ]}
    ]}}
    """#

    private func aasaFile() throws -> CheckSite {
        try CheckSite(files: ["site.aasa": Self.aasa, "call.html": "x"])
    }

    @Test("match: exit 0, names the decision, the rule's index and JSON, and why")
    func match() async throws {
        let site = try aasaFile()
        let run = try await LinkHostCLI.run(["match", "https://example.com/call/abc?type=video", "--aasa", site.directory + "/site.aasa"])
        #expect(run.exitCode == 0, "\(run)")
        #expect(run.stdout.contains("ABCDE12345.com.example.video: match, opens in the app"), "\(run)")
        #expect(run.stdout.contains(#"rule: details[0].components[1] (component 2 of details[0]) {"/":"/call/*","?":{"type":"?*"}}"#), "\(run)")
        #expect(run.stdout.contains(#"the query item "type" ("video") matches "?*""#), "\(run)")
    }

    @Test("exclude: exit 1, and the exclusion is named")
    func exclude() async throws {
        let site = try aasaFile()
        let run = try await LinkHostCLI.run(["match", "https://example.com/call/admin", "--aasa", site.directory + "/site.aasa"])
        #expect(run.exitCode == 1, "\(run)")
        #expect(run.stdout.contains("exclude, stays in the browser: an exclusion matches"), "\(run)")
        #expect(run.stdout.contains("details[0].components[0]"), "\(run)")
        #expect(run.stdout.contains("admin pages stay on the web"), "\(run)")
    }

    @Test("no_match: exit 1, and why nothing matched", arguments: [
        ("https://example.com/join/abc", "no_match, stays in the browser: no rule matches", "none of the 3 rules of details[0] matches"),
        ("https://other.example/call/abc", "no_match, stays in the browser\n", "the URL's host \"other.example\" is not \"example.com\""),
    ])
    func noMatch(url: String, verdict: String, words: String) async throws {
        let site = try aasaFile()
        let run = try await LinkHostCLI.run(["match", url, "--aasa", site.directory + "/site.aasa", "--domain", "example.com"])
        #expect(run.exitCode == 1, "\(run)")
        #expect(run.stdout.contains(verdict), "\(run)")
        #expect(run.stdout.contains(words), "\(run)")
    }

    @Test("with a config, the AASA is generated from it and the domain is the URL's host")
    func config() async throws {
        let site = try CheckSite()
        let matched = try await LinkHostCLI.run(["match", "https://links.example.com/call/xyz", "--config", site.configPath])
        #expect(matched.exitCode == 0, "\(matched)")
        #expect(matched.stdout.contains("on links.example.com, by the AASA generated from \(site.configPath)"), "\(matched)")
        let excluded = try await LinkHostCLI.run(["match", "https://links.example.com/call/admin", "--config", site.configPath, "--app", "ABCDE12345.com.example.video"])
        #expect(excluded.exitCode == 1, "\(excluded)")
        let otherApp = try await LinkHostCLI.run(["match", "https://links.example.com/call/xyz", "--config", site.configPath, "--app", "ABCDE12345.com.example.other"])
        #expect(otherApp.exitCode == 1, "\(otherApp)")
        #expect(otherApp.stdout.contains("no applinks detail lists the app ID"), "\(otherApp)")
    }

    /// The issue's two-app config: production and staging sites, two link shapes, no hand-written rules.
    static let meetConfig = """
    {
      "server": { "host": "127.0.0.1", "port": 0 },
      "apps": [ { "name": "Meet", "teamID": "ABCDE12345", "bundleID": "com.acmemeet.app" } ],
      "android": [ { "packageName": "com.acmemeet.app", "sha256CertFingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"] } ],
      "callLinks": { "template": "FOLDER/call.html", "links": ["/join/{callId}?type={callType}", "/call/{callType}:{callId}"] },
      "static": { "root": "FOLDER/public" },
      "sites": [
        { "hosts": ["meet.acmemeet.com"] },
        { "hosts": ["staging-meet.acmemeet.com"], "apps": [ { "name": "Meet β", "teamID": "ABCDE12345", "bundleID": "com.acmemeet.app.staging" } ] }
      ]
    }
    """

    @Test("a host no site lists is reported as not served, with its own exit code, before what the default site would serve")
    func unservedHost() async throws {
        let site = try CheckSite(config: Self.meetConfig)
        let unserved = try await LinkHostCLI.run(["match", "https://web.acmemeet.com/join/abc123?type=video", "--config", site.configPath])
        #expect(unserved.exitCode == 3, "\(unserved)")
        #expect(unserved.stdout.contains("host web.acmemeet.com: not served: no site of \(site.configPath) lists it (the sites list meet.acmemeet.com, staging-meet.acmemeet.com)"), "\(unserved)")
        #expect(unserved.stdout.contains("what the default site would serve:"), "\(unserved)")
        #expect(unserved.stdout.contains("linkhost: 404 on this host, which the config does not name (on a host it names: the call page of call \"abc123\""), "\(unserved)")
        let android = try await LinkHostCLI.run(["match", "https://WEB.acmemeet.com:8443/join/abc123", "--platform", "android", "--config", site.configPath])
        #expect(android.exitCode == 3 && android.stdout.contains("host web.acmemeet.com: not served"), "\(android)")

        let served = try await LinkHostCLI.run(["match", "https://meet.acmemeet.com/join/abc123?type=video", "--config", site.configPath])
        #expect(served.exitCode == 0 && !served.stdout.contains("not served"), "\(served)")
        let loopback = try await LinkHostCLI.run(["match", "http://localhost:8080/join/abc123", "--config", site.configPath])
        #expect(loopback.exitCode == 0 && !loopback.stdout.contains("not served"), "\(loopback)")
        try site.write(Self.aasa, to: "site.aasa")
        let file = try await LinkHostCLI.run(["match", "https://web.acmemeet.com/call/abc", "--aasa", site.directory + "/site.aasa"])
        #expect(file.exitCode == 0 && !file.stdout.contains("not served"), "a file names no sites: \(file)")
    }

    @Test("the issue's non-call URLs stay in the browser on both platforms, and real call links open", arguments: [
        ("/call/abc123", 1), ("/join/abc/def", 1), ("/join/abc123/qr.svg", 1), ("/call/video:abc123", 0), ("/join/abc123?type=video", 0), ("/join/abc123", 0),
    ])
    func exactRules(path: String, exit: Int32) async throws {
        let site = try CheckSite(config: Self.meetConfig)
        let run = try await LinkHostCLI.run(["match", "https://meet.acmemeet.com" + path, "--platform", "both", "--config", site.configPath])
        #expect(run.exitCode == exit, "\(run)")
        if exit == 1 {
            #expect(run.stdout.contains("ABCDE12345.com.acmemeet.app: exclude") || run.stdout.contains("ABCDE12345.com.acmemeet.app: no_match"), "\(run)")
            #expect(run.stdout.contains("not a call link of this site"), "\(run)")
        } else {
            #expect(run.stdout.contains("ABCDE12345.com.acmemeet.app: match") && run.stdout.contains("the call page of call"), "\(run)")
        }
        #expect(run.stdout.contains("agree"), "\(run)")
    }

    @Test("usage errors exit 2", arguments: [
        ["match"],
        ["match", "https://a.example/x", "https://b.example/y"],
        ["match", "not a url", "--aasa", "x"],
        ["match", "https://a.example/x", "--config", "a", "--aasa", "b"],
        ["match", "--jsonl", "https://a.example/x"],
        ["match", "https://a.example/x", "--aasa", "/nonexistent/aasa.json"],
        ["match", "https://a.example/x", "--frobnicate"],
    ])
    func usage(arguments: [String]) async throws {
        let run = try await LinkHostCLI.run(arguments)
        #expect(run.exitCode == 2, "\(run)")
        #expect(!run.stderr.isEmpty, "\(run)")
    }

    /// `Tests/Shared/Conformance/aasa-match-cases.json`, inside the repository (its README names the source and licence).
    static var conformancePath: String { SiteFixture.repositoryRoot + "/Tests/Shared/Conformance/aasa-match-cases.json" }

    @Test("--jsonl answers the conformance cases: 100 of 100, one line each, in order")
    func conformance() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.conformancePath))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(root["matching"] as? [[String: Any]])
        #expect(cases.count == 100)
        var input = ""
        for (index, testCase) in cases.enumerated() {
            let line: [String: Any] = [
                "id": index, "aasa": testCase["aasa"] ?? NSNull(), "domain": testCase["domain"] ?? "",
                "appId": testCase["appId"] ?? "", "url": testCase["url"] ?? "",
            ]
            input += String(decoding: try JSONSerialization.data(withJSONObject: line), as: UTF8.self) + "\n"
            if index == 10 { input += "\n" }  // a blank line asks nothing and gets no answer
        }
        let run = try await LinkHostCLI.run(["match", "--jsonl"], input: input)
        #expect(run.exitCode == 0, "\(run)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == cases.count, "one answer per case")
        var passed = 0
        var failures: [String] = []
        for (index, line) in lines.enumerated() {
            let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let expected = cases[index]["expect"] as? String
            if answer?["id"] as? Int == index, answer?["decision"] as? String == expected {
                passed += 1
            } else {
                failures.append("\(cases[index]["name"] ?? index): expected \(expected ?? "?"), got \(line)")
            }
        }
        #expect(passed == 100, "\(passed)/100 passed; failures:\n\(failures.joined(separator: "\n"))")
    }

    @Test("--jsonl answers a line that cannot be decided with an error line and carries on")
    func jsonlErrors() async throws {
        let input = "{\"id\":1}\nnot json\n{\"id\":2,\"aasa\":{},\"domain\":\"\",\"appId\":\"A\",\"url\":\"https://x.example/\"}\n"
        let run = try await LinkHostCLI.run(["match", "--jsonl"], input: input)
        #expect(run.exitCode == 0, "\(run)")
        #expect(run.stdout == "{\"id\":1,\"error\":\"missing \\\"aasa\\\"\"}\n" + run.stdout.split(separator: "\n")[1] + "\n{\"id\":2,\"decision\":\"no_match\"}\n", "\(run)")
        #expect(run.stdout.split(separator: "\n")[1].hasPrefix("{\"id\":null,\"error\":\"the line is not JSON"), "\(run)")
    }
}
