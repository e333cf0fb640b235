import Foundation
import Testing

/// The command line surface: help, version, usage errors.
@Suite("Command line", .timeLimit(.minutes(1)))
struct CommandLineTests {
    @Test("--help of every command exits 0 and shows USAGE on stdout", arguments: [
        ["--help"], ["-h"], ["help"], ["serve", "--help"], ["validate", "--help"], ["print", "--help"], ["print", "-h"],
    ])
    func help(arguments: [String]) async throws {
        let directory = NSTemporaryDirectory()
        let ended = try await LinkHostCLI.run(arguments, directory: directory)
        #expect(ended.exitCode == 0, "\(ended)")
        #expect(ended.stdout.contains("USAGE"), "\(ended)")
        #expect(ended.stderr.isEmpty, "\(ended)")
    }

    @Test("--version prints `linkhost X.Y.Z` and exits 0")
    func version() async throws {
        let ended = try await LinkHostCLI.run(["--version"], directory: NSTemporaryDirectory())
        #expect(ended.exitCode == 0, "\(ended)")
        #expect(ended.stdout.wholeMatch(of: /linkhost \d+\.\d+\.\d+\n/) != nil, "\(ended)")
    }

    @Test("A mistyped option or command exits 2 with a did-you-mean and nothing on stdout", arguments: [
        (["serve", "--prot", "8080"], "--port"),
        (["--hots", "127.0.0.1"], "--host"),
        (["validate", "--confg", "x.json"], "--config"),
        (["print", "aasa", "--confi", "x.json"], "--config"),
        (["servr"], "serve"),
        (["valdate"], "validate"),
    ])
    func usageError(arguments: [String], suggestion: String) async throws {
        let ended = try await LinkHostCLI.run(arguments, directory: NSTemporaryDirectory())
        #expect(ended.exitCode == 2, "\(ended)")
        #expect(ended.stderr.contains("did you mean '\(suggestion)'"), "\(ended)")
        #expect(ended.stdout.isEmpty, "\(ended)")
    }

    @Test("`print` without aasa|assetlinks exits 2; `print assetlinks` with no Android app exits 1")
    func printErrors() async throws {
        var config = TestConfig()
        config.includesAndroid = false
        let site = try SiteFixture(config)
        let nothing = try await LinkHostCLI.run(["print", "--config", site.configPath], directory: site.directory)
        #expect(nothing.exitCode == 2, "\(nothing)")
        let noAndroid = try await LinkHostCLI.run(["print", "assetlinks", "--config", site.configPath], directory: site.directory)
        #expect(noAndroid.exitCode == 1, "\(noAndroid)")
        #expect(noAndroid.stdout.isEmpty, "\(noAndroid)")
    }
}
