import Foundation
import Testing

/// `linkhost validate` as a linter: exit codes, JSON for CI, files instead of configs.
@Suite("validate command as a linter")
struct CheckValidateCommandTests {
    /// The `{code, severity, path, message}` objects of a JSON report.
    static func diagnostics(_ run: Termination) -> [[String: String]] {
        (run.json as? [[String: Any]] ?? []).map { object in object.compactMapValues { $0 as? String } }
    }

    /// The check fixture's config with an app of its own: the shipped example's Team ID and package are LH121.
    static let config = CheckSite.config.replacingOccurrences(of: "ABCDE12345", with: "QRSTU67890")
        .replacingOccurrences(of: "com.example.video", with: "com.acme.video")
    /// The same with the rules derived from the link templates: `/call/?*` written by hand also opens
    /// `/call/a/a`, which no template accepts (LH307).
    static let derived = config.replacingOccurrences(of: #"  "aasa": { "rules": [ { "path": "/call/admin", "exclude": true }, { "path": "/call/?*" } ] },"# + "\n", with: "")

    @Test("a clean config: exit 0, an empty JSON array")
    func clean() async throws {
        #expect(Self.derived != Self.config)
        let site = try CheckSite(config: Self.derived)
        let run = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--format", "json"], directory: site.directory)
        #expect(run.exitCode == 0, "\(run)")
        #expect(run.stdout == "[]\n", "\(run)")
        let human = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(human.exitCode == 0, "\(human)")
        #expect(human.stdout.contains("valid (1 iOS app, 1 Android app, AASA"), "\(human)")
    }

    @Test("errors: exit 2, every diagnostic with its four members and a stable code")
    func errors() async throws {
        let config = Self.config
            .replacingOccurrences(of: #""teamID": "QRSTU67890""#, with: #""teamID": "abc""#)
            .replacingOccurrences(of: #", "\#(CheckSite.fingerprints[1])""#, with: "")
        let site = try CheckSite(config: config)
        let run = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--format", "json"], directory: site.directory)
        #expect(run.exitCode == 2, "\(run)")
        let found = Self.diagnostics(run)
        #expect(found.map { $0["code"] ?? "" } == ["LH101", "LH403"], "\(run)")
        #expect(found.first == ["code": "LH101", "severity": "error", "path": "apps[0].teamID", "message": "\"abc\" is not 10 characters of A-Z and 0-9"])
        #expect(found.allSatisfy { Set($0.keys) == ["code", "severity", "path", "message"] })

        let human = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(human.exitCode == 2, "\(human)")
        #expect(human.stderr.contains("1 error, 1 warning"), "\(human)")
        #expect(human.stderr.contains("error LH101 apps[0].teamID: \"abc\""), "\(human)")
    }

    @Test("a config whose rules send pages into the app: exit 2 with the consistency codes")
    func consistency() async throws {
        let config = CheckSite.config.replacingOccurrences(of: #"{ "path": "/call/?*" }"#, with: #"{ "path": "*" }"#)
        let site = try CheckSite(config: config)
        let run = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--format", "json"], directory: site.directory)
        #expect(run.exitCode == 2, "\(run)")
        let codes = Set(Self.diagnostics(run).compactMap { $0["code"] })
        #expect(codes.isSuperset(of: ["LH302", "LH303", "LH304"]), "\(run)")
    }

    @Test("warnings only: exit 0")
    func warningsOnly() async throws {
        let config = Self.config.replacingOccurrences(of: #"{ "path": "/call/?*" }"#, with: #"{ "path": "/call/?*" }, { "path": "/call/x" }"#)
        let site = try CheckSite(config: config)
        let run = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--format", "json"], directory: site.directory)
        #expect(run.exitCode == 0, "\(run)")
        #expect(Set(Self.diagnostics(run).map { $0["code"] ?? "" }) == ["LH201", "LH307"], "\(run)")
    }

    @Test("--aasa and --assetlinks lint files")
    func files() async throws {
        let site = try CheckSite(files: [
            "bad.aasa": #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.video"], "components": [{"/": "*", "exclude": true}, {"/": "/call/$(id)"}]}]}}"#,
            "good.aasa": #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.video"], "components": [{"/": "/call/*"}]}]}}"#,
            "assetlinks.json": #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.video", "sha256_cert_fingerprints": ["zz"]}}]"#,
        ])
        let bad = try await LinkHostCLI.run(["validate", "--aasa", site.directory + "/bad.aasa", "--format", "json"])
        #expect(bad.exitCode == 2, "\(bad)")
        #expect(Set(Self.diagnostics(bad).compactMap { $0["code"] }) == ["LH203", "LH204"], "\(bad)")
        let good = try await LinkHostCLI.run(["validate", "--aasa", site.directory + "/good.aasa"])
        #expect(good.exitCode == 0, "\(good)")
        let links = try await LinkHostCLI.run(["validate", "--assetlinks", site.directory + "/assetlinks.json", "--format", "json"])
        #expect(links.exitCode == 2, "\(links)")
        #expect(Self.diagnostics(links).first?["code"] == "LH402", "\(links)")
    }

    @Test("usage errors exit 2", arguments: [
        ["validate", "--format", "xml"],
        ["validate", "--aasa", "a", "--config", "b"],
        ["validate", "extra"],
    ])
    func usage(arguments: [String]) async throws {
        let run = try await LinkHostCLI.run(arguments)
        #expect(run.exitCode == 2, "\(run)")
        #expect(run.stderr.contains("Run 'linkhost validate --help'"), "\(run)")
    }
}
