import Foundation
import Testing

/// Issue 39 over the real binary: wildcards stop at a registrable domain (Debian's Public Suffix List),
/// `/.well-known/acme-challenge/` is linkhost's alone, one memory budget holds every site's static files, and
/// the addresses of one IPv6 /64 share one beacon share.
@Suite("Tenant limits", .timeLimit(.minutes(4)))
struct TenantLimitsTests {
    @Test("*.com, *.co.uk, *.github.io and * capture nothing and are refused (LH137, LH116) while *.calls.tenant.example serves")
    func publicSuffixWildcards() async throws {
        try #require(FileManager.default.fileExists(atPath: "/usr/share/publicsuffix/public_suffix_list.dat"), "make test-deps installs publicsuffix")
        let wildcards = ["com": "*.com", "couk": "*.co.uk", "github": "*.github.io", "star": "*", "good": "*.calls.tenant.example"]
        var files: [String: String] = [:]
        for (id, host) in wildcards {
            let team = String(repeating: id.prefix(1).uppercased(), count: 10)
            files["sites.d/\(id).json"] = #"{"id": "\#(id)", "hosts": ["\#(host)"], "apps": [{"name": "\#(id)", "teamID": "\#(team)", "bundleID": "com.\#(id).app"}], "android": []}"#
        }
        for strict in [true, false] {
            let site = try TenantPathsTests.fixture(files)
            var config = TestConfig()
            config.extra = ["siteFiles": "sites.d/*.json"]
            config.serverExtra = ["strictHosts": strict]
            try site.writeConfig(config)
            let server = try await LinkHostProcess.start(site)
            for host in ["shop.example.com", "bank.co.uk", "someone.github.io", "x.y.z"] {
                let answer = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", host)])
                let ids = answer.status == 200 ? aasaAppIDs(parseJSON(answer.body)) : []
                #expect(ids.allSatisfy { $0 == TestConfig().appID } && (strict ? answer.status == 404 : answer.status == 200), "strict \(strict), \(host): \(answer)")
            }
            let good = try await server.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "a.calls.tenant.example")])
            #expect(good.status == 200 && aasaAppIDs(parseJSON(good.body)) == ["GGGGGGGGGG.com.good.app"], "\(good)")
            for id in ["com", "couk", "github", "star"] {
                #expect(server.stderr.contains("(sites.d/\(id).json): LH133"), "\(id): \(server.stderr)")
            }
            guard strict else { continue }
            let validate = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
            #expect(validate.status == 2)
            for id in ["com", "couk", "github"] {
                #expect(validate.stderr.contains("LH133 site \"\(id)\" (sites[\(id).json])") && validate.stderr.contains("First: LH137 sites[\(id).json].hosts[0]"),
                        "\(id): \(validate.stderr)")
            }
            #expect(validate.stderr.contains("LH116 site \"star\" (sites[star.json]) hosts[0]"), "\(validate.stderr)")
            #expect(!validate.stderr.split(separator: "\n").contains { $0.contains("error") && $0.contains("site \"good\"") }, "\(validate.stderr)")
        }
        // The operator's own `sites` are held to the same rule: the config is refused.
        var config = TestConfig()
        config.extra = ["sites": [["id": "all", "hosts": ["*.co.uk"]]]]
        let inline = try SiteFixture(config)
        let validate = try await LinkHostCLI.run(["validate", "--config", inline.configPath], directory: inline.directory)
        #expect(validate.status == 2 && (validate.stdout + validate.stderr).contains("LH137"), "\(validate)")
    }

    @Test("a static .well-known/acme-challenge/ file is not answered, on any host; validate warns LH136")
    func acmeChallengeIsLinkhosts() async throws {
        let site = try TenantPathsTests.fixture([
            "public/.well-known/acme-challenge/TOKEN1": "TOKEN1.thumbprint-of-someone-else\n",
            "sites.d/globex.json": TenantPathsTests.tenant("globex", #", "static": {"root": "static"}"#),
            "sites.d/globex/static/.well-known/acme-challenge/TOKEN2": "TOKEN2.thumbprint\n",
            "sites.d/globex/static/.well-known/security.txt": "Contact: mailto:security@globex.example\n",
        ])
        let server = try await LinkHostProcess.start(site)
        for (host, token) in [("localhost", "TOKEN1"), ("globex.example", "TOKEN2"), ("globex.example", "TOKEN1")] {
            let answer = try await server.request("GET", "/.well-known/acme-challenge/\(token)", headers: [("Host", host)])
            #expect(answer.status == 404 && !answer.text.contains("thumbprint"), "\(host) \(token): \(answer)")
        }
        #expect(try await server.request("GET", "/.well-known/security.txt", headers: [("Host", "globex.example")]).status == 200, "the rest of .well-known/ serves")
        let validate = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect((validate.stdout + validate.stderr).contains("LH136") && (validate.stdout + validate.stderr).contains(".well-known/acme-challenge"), "\(validate)")
    }

    @Test("five tenants of 60 MiB of static files each: one fits server.staticFilesBytes (64 MiB), four fail alone (LH135), resident memory stays under 160 MB")
    func staticFilesBudget() async throws {
        var files: [String: String] = [:]
        let ids = ["alpha", "bravo", "charlie", "delta", "echo"]
        for id in ids { files["sites.d/\(id).json"] = TenantPathsTests.tenant(id, #", "static": {"root": "static"}"#) }
        let site = try TenantPathsTests.fixture(files)
        for id in ids {
            let folder = site.directory + "/sites.d/\(id)/static"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Four files of 15 MiB (each under the 16 MiB a file may have), sparse on disk, whole in memory once read.
            for part in 0..<4 {
                try #require(FileManager.default.createFile(atPath: folder + "/part\(part).bin", contents: nil))
                let handle = try #require(FileHandle(forWritingAtPath: folder + "/part\(part).bin"))
                try handle.truncate(atOffset: 15 * 1_048_576)
                try handle.close()
            }
        }
        let server = try await LinkHostProcess.start(site, timeout: .seconds(60))
        let resident = try HardeningRoundThreeTests.residentKB(server)
        print("five 60 MiB tenants: resident \(resident) kB")
        #expect(resident < 160_000, "resident \(resident) kB")
        let failed = ids.filter { server.stderr.contains("site \"\($0)\" (sites.d/\($0).json): LH133") }
        #expect(failed.count == 4 && server.stderr.contains("LH135"), "\(failed): \(server.stderr)")
        let serving = try #require(ids.first { !failed.contains($0) })
        let part = try await server.request("HEAD", "/part0.bin", headers: [("Host", "\(serving).example")])
        #expect(part.status == 200 && part.header("Content-Length") == "\(15 * 1_048_576)", "\(part)")

        // The operator's own sites over the budget refuse the config.
        var config = TestConfig()
        config.serverExtra = ["staticFilesBytes": 1_000]
        let operatorSite = try SiteFixture(config)
        let validate = try await LinkHostCLI.run(["validate", "--config", operatorSite.configPath], directory: operatorSite.directory)
        #expect(validate.status == 2 && (validate.stdout + validate.stderr).contains("LH135"), "\(validate)")
    }

    @Test("128 addresses of one IPv6 /64 behind a trusted proxy share one beacon share: other visitors' beacons are still counted")
    func oneSlashSixtyFourIsOneClient() async throws {
        var config = TestConfig()
        config.baseURL = nil
        config.serverExtra = ["strictHosts": true, "trustedProxies": ["127.0.0.1/32"]]
        config.extra = ["sites": [["id": "customer1", "hosts": ["one.example"]]]]
        let server = try await LinkHostProcess.start(try SiteFixture(config))
        let client = try await server.connect(timeout: .seconds(20))
        var statuses: [Int: Int] = [:]
        // Eight beacons from each of 128 addresses of one /64: 1,024, twice the site's burst. As 128 clients they
        // would have 128 shares of 30; as one client, one share: 30 and 5 a second however long the flood takes.
        let started = ContinuousClock.now
        for host in 0..<128 {
            for _ in 0..<8 {
                let response = try await client.request("POST", BeaconWire.path + "?e=view&p=ios", headers: [
                    ("Host", "one.example"), ("X-Forwarded-For", "2001:db8:77:1:\(String(host * 4099 % 0x10000, radix: 16)):0:0:\(String(host + 1, radix: 16))"),
                    ("Sec-Fetch-Site", "same-origin"),
                ])
                statuses[response.status, default: 0] += 1
            }
        }
        let seconds = Int((ContinuousClock.now - started).components.seconds) + 1
        let oneShare = BeaconWire.perClientBurst + BeaconWire.perClientPerSecond * seconds
        #expect((statuses[204] ?? 0) <= oneShare, "the /64 was counted as one client (at most \(oneShare) in \(seconds) s): \(statuses)")
        // Visitors from other /64s and IPv4 still count (one may share the /64's slot; most do not).
        var accepted = 0
        for other in ["2001:db8:78::1", "2001:db8:79::2", "2001:db8:7a::3", "2001:db8:7b::4", "198.51.100.7", "198.51.100.8", "203.0.113.9", "203.0.113.10"] {
            let response = try await client.request("POST", BeaconWire.path + "?e=view&p=android",
                                                    headers: [("Host", "one.example"), ("X-Forwarded-For", other), ("Sec-Fetch-Site", "same-origin")])
            if response.status == 204 { accepted += 1 }
        }
        #expect(accepted >= 6, "\(accepted) of 8 other visitors' beacons counted")
    }
}
