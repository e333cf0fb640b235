import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `linkhost stats` and `linkhost print hosts` at a fleet's size, against the real binary (issue 42).
@Suite("Fleet commands", .timeLimit(.minutes(4)))
struct FleetCommandTests {
    /// A metrics page of `count` sites: site `sNNNN` has NNNN page views on iOS, a tap for every tenth site, and
    /// two pages served; plus the default site's zeros, as linkhost writes them.
    static func metrics(sites count: Int) -> String {
        var text = "# TYPE linkhost_page_views_total counter\nlinkhost_page_views_total{site=\"default\",platform=\"ios\"} 0\n"
        for index in 1...count {
            text += "linkhost_page_views_total{site=\"s\(String(format: "%04d", index))\",platform=\"ios\"} \(index)\n"
        }
        for index in stride(from: 10, through: count, by: 10) {
            text += "linkhost_page_actions_total{site=\"s\(String(format: "%04d", index))\",action=\"store\",platform=\"ios\"} \(count - index + 1)\n"
        }
        for index in 1...count {
            text += "linkhost_requests_total{site=\"s\(String(format: "%04d", index))\",route=\"call_page\",status=\"2xx\"} 2\n"
        }
        return text
    }

    @Test("stats: a summary first (totals, sites, the busiest), then the 10 busiest; --top N and --by choose; --all prints every site")
    func statsSummaryAndTop() async throws {
        let count = 1_000
        let server = try CheckCannedServer(["GET /metrics": CheckCannedServer.response("200 OK", type: "text/plain; version=0.0.4", Self.metrics(sites: count))])
        let url = server.origin + "/metrics"
        let views = count * (count + 1) / 2
        let taps = (1...(count / 10)).reduce(0) { $0 + count - $1 * 10 + 1 }

        let plain = try await LinkHostCLI.run(["stats", "--url", url])
        #expect(plain.exitCode == 0, "\(plain)")
        let lines = plain.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 150, "\(lines.count) lines for \(count) sites: a summary and ten tables, not every site")
        #expect(lines.first == "\(count + 1) sites, \(count) with page views: \(views) page views, \(taps) taps; \(2 * count) pages served by this server", "\(plain.stdout.prefix(400))")
        #expect(plain.stdout.contains("busiest by page views: s1000 (1000), s0999 (999), s0998 (998)"), "\(plain.stdout.prefix(400))")
        let shown = plain.stdout.matches(of: #/\nsite (s\d{4}): /#).map { String($0.1) }
        #expect(shown == (991...1000).reversed().map { "s\(String(format: "%04d", $0))" }, "\(shown)")
        #expect(plain.stdout.contains("the other 991 sites: --top N or --all"), "\(plain.stdout.suffix(300))")

        let top = try await LinkHostCLI.run(["stats", "--url", url, "--top", "3", "--by", "taps"])
        #expect(top.exitCode == 0, "\(top)")
        #expect(top.stdout.matches(of: #/\nsite (s\d{4}): /#).map { String($0.1) } == ["s0010", "s0020", "s0030"], "\(top.stdout)")
        #expect(top.stdout.contains("busiest by taps: s0010 (991), s0020 (981), s0030 (971)"), "\(top.stdout.prefix(400))")

        let all = try await LinkHostCLI.run(["stats", "--url", url, "--all"])
        #expect(all.exitCode == 0 && all.stdout.matches(of: #/(^|\n)site [^:]+: /#).count == count + 1, "\(all.stdout.prefix(300))")
        #expect(all.stdout.hasPrefix("site default: "), "every site as before, no summary: \(all.stdout.prefix(200))")

        let json = try await LinkHostCLI.run(["stats", "--url", url, "--format", "json", "--top", "2"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdoutBytes)) as? [[String: Any]], "\(json)")
        #expect(array.map { $0["site"] as? String } == ["s1000", "s0999"])
        let everything = try await LinkHostCLI.run(["stats", "--url", url, "--format", "json"])
        #expect((try JSONSerialization.jsonObject(with: Data(everything.stdoutBytes)) as? [Any])?.count == count + 1, "JSON lists every site unless --top")

        for wrong in [["--top", "0"], ["--by", "visits"], ["--top", "3", "--all"], ["--site", "s0001", "--top", "3"]] {
            let run = try await LinkHostCLI.run(["stats", "--url", url] + wrong)
            #expect(run.exitCode == 2 && run.stdout.isEmpty, "\(wrong): \(run)")
        }
    }

    /// Writes `files` (name, text) into `folder` with stdio on a thread of its own: Foundation's writes flush each
    /// file to disk (fsync), which costs a minute for ten thousand files on a busy machine.
    static func writeFiles(in folder: String, _ files: [(name: String, text: String)]) async throws {
        let failed = await onThread("writing \(files.count) files") {
            files.first { file in
                guard let stream = fopen(folder + "/" + file.name, "w") else { return true }
                let wrote = fputs(file.text, stream) >= 0
                return fclose(stream) != 0 || !wrote
            }?.name
        }
        if let failed { throw HarnessError("could not write \(folder)/\(failed)") }
    }

    /// Tenant `index`: host `tNNNNN.example`, every tenth also `*.tNNNNN.example`, every twentieth `www.tNNNNN.example`.
    static func hosts(_ index: Int) -> [String] {
        let host = "t\(String(format: "%05d", index)).example"
        return [host] + (index % 10 == 0 ? ["*." + host] : []) + (index % 20 == 0 ? ["www." + host] : [])
    }

    @Test("print hosts lists every host of 10,000 tenants' site files, with its site and whether it is a wildcard, as lines and JSON")
    func printHostsOfTenThousand() async throws {
        let count = 10_000
        var config = TestConfig()
        config.extra = ["siteFiles": "sites.d/*.json"]
        let site = try SiteFixture(config)
        try FileManager.default.createDirectory(atPath: site.directory + "/sites.d", withIntermediateDirectories: false)
        var expected: [String: (site: String, wildcard: Bool)] = ["links.example.com": ("default", false)]
        for index in 0..<count {
            for host in Self.hosts(index) { expected[host] = ("t\(String(format: "%05d", index))", host.hasPrefix("*.")) }
        }
        try await Self.writeFiles(in: site.directory + "/sites.d", (0..<count).map { index in
            let id = "t\(String(format: "%05d", index))"
            let list = Self.hosts(index).map { "\"\($0)\"" }.joined(separator: ", ")
            return (id + ".json", "{\"id\": \"\(id)\", \"hosts\": [\(list)]}")
        })

        let started = ContinuousClock.now
        let lines = try await LinkHostCLI.run(["print", "hosts", "--config", site.configPath], timeout: .seconds(120))
        let took = ContinuousClock.now - started
        #expect(lines.exitCode == 0, "\(lines.stderr.prefix(600))")
        // Problems are gathered and expected once: an #expect per host costs seconds over ten thousand.
        var seen: [String: (site: String, wildcard: Bool)] = [:]
        var problems: [String] = []
        for line in lines.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count != 2 { problems.append("not HOST SITE: \(line)") }
            if seen[String(fields[0])] != nil { problems.append("twice: \(line)") }
            seen[String(fields[0])] = (String(fields.last ?? ""), fields[0].hasPrefix("*."))
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(seen.count == expected.count, "\(seen.count) hosts printed, \(expected.count) served")
        #expect(expected.allSatisfy { seen[$0.key]?.site == $0.value.site }, "\(expected.first { seen[$0.key]?.site != $0.value.site }.map { "\($0.key): \(seen[$0.key].map { "\($0)" } ?? "missing")" } ?? "")")
        #expect(lines.stdout.hasPrefix("links.example.com default\nt00000.example t00000\n*.t00000.example t00000\nwww.t00000.example t00000\nt00001.example t00001\n"), "\(lines.stdout.prefix(200))")
        #expect(took < .seconds(60), "print hosts of \(count) tenants took \(took)")

        let json = try await LinkHostCLI.run(["print", "hosts", "--config", site.configPath, "--format", "json"], timeout: .seconds(120))
        #expect(json.exitCode == 0, "\(json.stderr.prefix(600))")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdoutBytes)) as? [[String: Any]])
        #expect(entries.count == expected.count)
        let wrong = entries.filter { entry in
            let host = entry["host"] as? String ?? ""
            return entry.count != 3 || expected[host]?.site != entry["site"] as? String || expected[host]?.wildcard != entry["wildcard"] as? Bool
        }
        #expect(wrong.isEmpty, "host, site and wildcard as served: \(wrong.prefix(5))")
    }

    @Test("print hosts: a broken site file exits 1 naming it (its hosts would be missing); a config naming no host exits 1")
    func printHostsRefusesAShortList() async throws {
        var config = TestConfig()
        config.extra = ["siteFiles": "sites.d/*.json"]
        let site = try SiteFixture(config)
        try FileManager.default.createDirectory(atPath: site.directory + "/sites.d", withIntermediateDirectories: false)
        try site.write("{\"id\": \"a\", \"hosts\": [\"a.example\"]}", to: "sites.d/a.json")
        try site.write("{\"id\": \"b\", \"hosts\": [", to: "sites.d/b.json")
        let run = try await LinkHostCLI.run(["print", "hosts", "--config", site.configPath])
        #expect(run.exitCode == 1, "\(run)")
        #expect(run.stdout == "links.example.com default\na.example a\n", "\(run.stdout)")
        #expect(run.stderr.contains("sites.d/b.json") && run.stderr.contains("LH133"), "\(run.stderr)")

        var bare = TestConfig()
        bare.baseURL = nil
        let bareSite = try SiteFixture(bare)
        let none = try await LinkHostCLI.run(["print", "hosts", "--config", bareSite.configPath])
        #expect(none.exitCode == 1 && none.stdout.isEmpty && none.stderr.contains("names no host"), "\(none)")
    }
}
