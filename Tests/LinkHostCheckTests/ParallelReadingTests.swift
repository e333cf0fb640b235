@testable import LinkHostCore
import LinkHostJSON
import LinkHostTestSupport
import Testing

/// Many sites are read, built and linted on several cores (issue 33): whatever the number of cores, the config,
/// the snapshot and every finding are those of one core, host clashes and failed site files included.
@Suite("Parallel reading and linting")
struct ParallelReadingTests {
    /// 120 inline sites and 120 site files, with the mistakes whose handling depends on the other sites:
    /// file 30 takes inline site 5's host, file 60 claims file 40's (with no record, both fail), file 90 is not JSON, file 100 has a bad
    /// team ID; with `inlineClashes`, inline site 70 takes site 10's host and site 80 lists its own host twice
    /// (errors of the main file: nothing is built then). Every site repeats a rule finding (LH307 under
    /// hand-written rules).
    static func folder(inlineClashes: Bool) throws -> String {
        var files = LintFixtures.files
        for index in 0..<120 {
            let name = "f" + String(1000 + index).dropFirst() + ".json"
            var hosts = #"["f\#(index).example.com"]"#
            if index == 30 { hosts = #"["s5.example.com"]"# }
            if index == 60 { hosts = #"["f40.example.com"]"# }
            var text = #"{"id": "f\#(index)", "hosts": \#(hosts)}"#
            if index == 90 { text = "{\"id\": " }
            if index == 100 { text = #"{"id": "f100", "hosts": ["f100.example.com"], "apps": [{"name": "X", "teamID": "bad", "bundleID": "com.x.video"}]}"# }
            files["sites.d/" + name] = text
        }
        let folder = try Fixtures.temporaryFolder(files: files)
        let sites = (0..<120).map { index -> String in
            let hosts = inlineClashes && index == 70 ? #"["s10.example.com"]"#
                : inlineClashes && index == 80 ? #"["s80.example.com", "S80.example.com"]"# : #"["s\#(index).example.com"]"#
            return #"{"id": "s\#(index)", "hosts": \#(hosts)}"#
        }
        var text = LintFixtures.config.replacing("FOLDER", with: folder)
        let members = #""siteFiles": "sites.d/*.json", "aasa": {"rules": [{"path": "/call/?*"}]}, "sites": [\#(sites.joined(separator: ", "))]"#
        text.insert(contentsOf: "  \(members),\n", at: text.index(after: text.firstIndex(of: "\n")!))
        try writeFile(folder + "/linkhost.json", text)
        return folder
    }

    @Test("validate on one core and on four: the same findings, in the same order, and the same snapshot")
    func lintAgrees() throws {
        let folder = try Self.folder(inlineClashes: false)
        defer { removeItem(folder) }
        let one = ConfigLinter.lint(path: folder + "/linkhost.json", cores: 1)
        let four = ConfigLinter.lint(path: folder + "/linkhost.json", cores: 4)
        #expect(OrderedChunks.chunkCount(for: 240, cores: 4) > 1, "four cores cut 240 sites into chunks")
        #expect(one.report.diagnostics == four.report.diagnostics)
        let messages = one.report.diagnostics.map(\.description)
        // The clashes are found against the sites before, as one core finds them.
        #expect(messages.contains("error LH116 sites[f030.json].hosts[0]: \"s5.example.com\" is already a host of sites[5].hosts[0]; a host belongs to one site"), "\(messages.prefix(8))")
        // Two files claiming one host with no record of who held it: both fail, each naming the other (LH140).
        #expect(messages.contains { $0.hasPrefix("error LH140 sites[f060.json].hosts[0]: host \"f40.example.com\" is also claimed by sites[f040.json] (sites.d/f040.json)") })
        #expect(messages.contains { $0.hasPrefix("error LH140 sites[f040.json].hosts[0]: host \"f40.example.com\" is also claimed by sites[f060.json] (sites.d/f060.json)") })
        #expect(messages.contains { $0.contains("sites[f090.json]") && $0.contains("not valid JSON") })
        #expect(one.report.diagnostics.filter { $0.code == .lh307 }.count > 200, "every site's own finding")
        let (oneSites, fourSites) = (try #require(one.snapshot).sites, try #require(four.snapshot).sites)
        #expect(oneSites.map(\.config) == fourSites.map(\.config))
        #expect(oneSites.map(\.aasaBytes) == fourSites.map(\.aasaBytes))
        #expect(oneSites.map(\.assetLinksBytes) == fourSites.map(\.assetLinksBytes))
        #expect(oneSites.map(\.callPage.canonicalLinks.count) == fourSites.map(\.callPage.canonicalLinks.count))
    }

    @Test("serve's reading on one core and on four: the same config, failures and last good versions")
    func loadAgrees() throws {
        let folder = try Self.folder(inlineClashes: true)
        defer { removeItem(folder) }
        let document = try JSONParser.parse(try ConfigLoader.read(path: folder + "/linkhost.json"))
        let (first, _) = ConfigLoader.validate(document, configPath: folder + "/linkhost.json", cores: 1)
        let lastGood = Dictionary(uniqueKeysWithValues: try #require(first).sites.compactMap { site in site.file.map { ($0, site) } })
        // The broken file's last good version: as if it had been valid in the snapshot serving.
        var good = try #require(lastGood["f089.json"])
        (good.file, good.hosts) = ("f090.json", ["f90.example.com"])
        var withLastGood = lastGood
        withLastGood["f090.json"] = good
        for previous in [[:], withLastGood] {
            let (one, oneFound) = ConfigLoader.validate(document, configPath: folder + "/linkhost.json", lastGood: previous, cores: 1)
            let (four, fourFound) = ConfigLoader.validate(document, configPath: folder + "/linkhost.json", lastGood: previous, cores: 4)
            #expect(one == four)
            #expect(oneFound == fourFound)
            let messages = fourFound.map(\.description)
            #expect(messages.contains { $0.contains("sites[70].hosts[0]") && $0.contains("already a host of sites[10].hosts[0]") }, "\(messages.prefix(8))")
            #expect(messages.contains { $0.contains("sites[80].hosts[1]") && $0.contains("already a host of sites[80].hosts[0]") })
            #expect(one?.siteFileFailures.map(\.servesLastGood) == four?.siteFileFailures.map(\.servesLastGood))
        }
    }
}
