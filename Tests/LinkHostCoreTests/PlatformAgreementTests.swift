import Testing
import CallLinks
@testable import LinkHostCore
import LinkHostTestSupport

/// The "done when": one config with two sites, all five link shapes and one Android app gives an
/// assetlinks.json, an android-manifest fragment and an entitlements fragment that agree with the AASA on
/// every link template, and a CallLinkParser that reads every link as the server does.
@Suite("Both platforms and the app agree with the AASA")
struct PlatformAgreementTests {
    static let config: Config = try! Fixtures.config(try! golden("assetlinks-sites.config.json"))

    @Test("the config has two sites, the five shapes and one Android app")
    func fixture() {
        let shapes = ["/call/{callId}?type={callType}", "/join/{callType}:{callId}", "/join/{callId}", "/video/demos/join/{callId}", "/join?call_id={callId}&call_type={callType}"]
        #expect(Self.config.sites.count == 3, "the default site and two sites")
        #expect(Self.config.sites[1].callLinks.links.templates.map(\.text) == shapes)
        #expect(Set(Self.config.sites.flatMap(\.android).map(\.packageName)) == ["com.example.video"])
    }

    @Test("every link of every template opens the app by the AASA, the dynamic rules, the manifest and the entitlements, and parses as served")
    func everyTemplate() throws {
        let served = ServedHosts(config: Self.config)
        let manifest = try AndroidManifestFile.read(Array(AndroidManifestGenerator.fragment(for: served, source: "c").utf8)).get()
        let entitlements = try EntitlementsFile.read(Array(EntitlementsGenerator.fragment(for: served, developer: false, source: "c").utf8)).get()
        #expect(served.entries.count == 2)
        var checked = 0
        for entry in served.entries {
            let site = entry.site
            let aasa = AASAMatcher(document: AASAGenerator.document(for: site))
            let android = AndroidLinkMatcher(document: AssetLinksGenerator.document(for: site))
            let parser = try CallLinkParser(templates: site.callLinks.links.templates.map(\.text), defaultType: site.callLinks.defaultType, hosts: entry.hosts)
            for host in entry.hosts {
                let device = host.hasPrefix("*.") ? "x" + host.dropFirst(1) : host
                #expect(entitlements.domains.contains { $0.service == "applinks" && ($0.host == host || CallLinkHost.covers($0.host, host: device)) }, "entitlements miss \(host)")
                for (index, template) in site.callLinks.links.templates.enumerated() {
                    let samples = ServedConsistency.samples(of: template, defaultType: site.callLinks.defaultType)
                    for sample in samples + samples.map(Self.withTrailingSlash) {
                        let url = "https://\(device)\(sample)"
                        let served = site.callLinks.links.match(pathAndQuery: sample)
                        #expect(served != nil, "\(sample) is a link of \(template)")
                        #expect(aasa.match(url: url, appID: site.appIDs[0], domain: "").decision == .match, "AASA: \(url)")
                        #expect(android.match(url: url, packageName: "com.example.video", domain: "").opensApp, "dynamic rules: \(url)")
                        let path = String(sample[..<(sample.firstIndex(of: "?") ?? sample.endIndex)])
                        #expect(manifest.filters.contains { $0.autoVerify && $0.handlesWebLinks && $0.claims(host: device, path: path) }, "manifest: \(url) (template \(site.linkSource(index)))")
                        #expect(parser.parse(url) == served?.link, "parser: \(url)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked >= 30)
    }

    @Test("what is not a call link stays in the browser on both platforms, and the parser gives nil")
    func notCallLinks() throws {
        for entry in ServedHosts(config: Self.config).entries {
            let site = entry.site
            let aasa = AASAMatcher(document: AASAGenerator.document(for: site))
            let android = AndroidLinkMatcher(document: AssetLinksGenerator.document(for: site))
            let parser = try CallLinkParser(templates: site.callLinks.links.templates.map(\.text), defaultType: site.callLinks.defaultType, hosts: entry.hosts)
            let other = Self.config.sites.first { $0.hosts != site.hosts && !$0.hosts.isEmpty }!
            let foreign = other.callLinks.links.templates.map { $0.fill(callID: "abc", callType: "video") }
                .filter { site.callLinks.links.match(pathAndQuery: $0) == nil }
            for path in ["/", "/call/", "/join", "/join?call_id=", "/.well-known/assetlinks.json", "/apple-app-site-association", "/style.css"] + foreign {
                let url = "https://\(entry.hosts[0])\(path)"
                #expect(aasa.match(url: url, appID: site.appIDs[0], domain: "").decision != .match, "AASA opens \(url)")
                #expect(!android.match(url: url, packageName: "com.example.video", domain: "").opensApp, "dynamic rules open \(url)")
                #expect(parser.parse(url) == nil, "parser reads \(url)")
            }
        }
    }

    @Test("validate finds nothing in the printed files and no platform disagreement in the config")
    func lintClean() throws {
        let served = ServedHosts(config: Self.config)
        let entitlements = AppFilesLinter.lint(entitlements: Array(EntitlementsGenerator.fragment(for: served, developer: false, source: "c").utf8), source: "e", config: Self.config)
        let manifest = AppFilesLinter.lint(androidManifest: Array(AndroidManifestGenerator.fragment(for: served, source: "c").utf8), source: "m", config: Self.config)
        #expect(entitlements.diagnostics.isEmpty, "\(entitlements.diagnostics)")
        #expect(manifest.diagnostics.isEmpty, "\(manifest.diagnostics)")
        for site in Self.config.sites {
            #expect(AssetLinksGenerator.dynamicRules(for: site).notes.isEmpty)
        }
    }

    static func withTrailingSlash(_ sample: String) -> String {
        let question = sample.firstIndex(of: "?") ?? sample.endIndex
        return String(sample[..<question]) + "/" + String(sample[question...])
    }
}
