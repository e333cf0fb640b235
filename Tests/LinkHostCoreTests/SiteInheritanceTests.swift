import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// How a site gets the top level's keys: a section it leaves out whole, and inside a section it writes,
/// each key `ConfigKeyTable` marks `byKey`; `null` clears one.
@Suite("Site inheritance")
struct SiteInheritanceTests {
    /// A value for every key inherited by key, other than its default.
    static let samples: [String: String] = [
        "callLinks.links": #"["/join/{callId}"]"#, "callLinks.paths": #"["meet"]"#, "callLinks.defaultType": #""video""#,
        "callLinks.template": #""brand/call.html""#, "callLinks.locales": #""brand/locales""#, "callLinks.defaultLocale": #""de""#,
        "callLinks.webJoinURL": #""https://web.example.com/{callType}/{callId}""#, "callLinks.previewImage": #""og.png""#,
        "callLinks.cacheMaxAge": "30", "callLinks.pageCacheSize": "10",
        "aasa.cacheMaxAge": "60", "static.root": #""brand""#, "static.cacheMaxAge": "30",
    ]

    /// A member a site can write to have a section of its own without the key under test.
    static func filler(_ section: String, besides key: String) -> String {
        switch section {
        case "callLinks": return #""baseURL": "https://b.example.com""#
        case "aasa": return #""format": "modern""#
        default: return key == "root" ? #""cacheMaxAge": 1"# : #""root": "other""#
        }
    }

    /// The site of a config whose top level writes `top` and whose one site writes `site` in `section`.
    static func site(_ section: String, top: String?, site: String) throws -> SiteConfig {
        let topLevel = top.map { #", "\#(section)": {\#($0)}"# } ?? ""
        let text = #"{"apps": [{"name": "A", "teamID": "ABCDE12345", "bundleID": "com.example.a"}]\#(topLevel), "sites": [{"hosts": ["b.example.com"], "\#(section)": {\#(site)}}]}"#
        return try Fixtures.config(text).sites[1]
    }

    /// The section's settings of a site, to compare.
    static func section(_ name: String, of site: SiteConfig) -> String {
        switch name {
        case "callLinks": return "\(site.callLinks)"
        case "aasa": return "\(site.aasa)"
        default: return "\(site.staticFiles)"
        }
    }

    @Test("every key inherited by key has a sample here", arguments: ConfigKeys.siteSections)
    func everyKeyHasASample(section: String) {
        for key in ConfigKeys.inheritedByKey(in: section) {
            #expect(Self.samples["\(section).\(key)"] != nil, "add a sample for \(section).\(key)")
        }
    }

    @Test("a site that writes the section but not the key gets the top level's value; null clears it", arguments: Self.samples.keys.sorted())
    func inheritsByKey(path: String) throws {
        let (section, key) = (String(path.split(separator: ".")[0]), String(path.split(separator: ".")[1]))
        #expect(ConfigKeys.key(path)?.inheritance == .byKey)
        let value = try #require(Self.samples[path])
        let filler = Self.filler(section, besides: key)
        let inherited = try Self.site(section, top: #""\#(key)": \#(value)"#, site: filler)
        let own = try Self.site(section, top: nil, site: #"\#(filler), "\#(key)": \#(value)"#)
        #expect(Self.section(section, of: inherited) == Self.section(section, of: own))
        #expect(inherited.sections.source(section, key) == "\(section).\(key)", "a problem with it names where it was written")
        #expect(own.sections.source(section, key) == "sites[0].\(section).\(key)")

        let cleared = try Self.site(section, top: #""\#(key)": \#(value)"#, site: #"\#(filler), "\#(key)": null"#)
        let neither = try Self.site(section, top: nil, site: filler)
        #expect(Self.section(section, of: cleared) == Self.section(section, of: neither))
        #expect(Self.section(section, of: cleared) != Self.section(section, of: inherited), "the sample is the default: pick another")
    }

    @Test("links and paths are one choice: a site that writes either gets none of the top level's shapes")
    func shapesAreOneGroup() throws {
        let site = try Self.site("callLinks", top: #""links": ["/join/{callId}"]"#, site: #""paths": ["meet"]"#)
        #expect(site.callLinks.links.templates.map(\.description) == CallLinkSettings.shorthand("meet"))
        #expect(site.linkSource(0) == "sites[0].callLinks.paths[0]")
        let inherited = try Self.site("callLinks", top: #""links": ["/join/{callId}"]"#, site: #""template": "brand/call.html""#)
        #expect(inherited.linkSource(0) == "callLinks.links[0]")
        #expect(!inherited.aasa.ruleSources.isEmpty && Set(inherited.aasa.ruleSources) == ["callLinks.links[0]"], "derived rules name the template they come from")
    }

    @Test("keys that come with their section are not inherited by a site that writes the section")
    func withSectionKeys() throws {
        let site = try Self.site("callLinks", top: #""baseURL": "https://a.example.com", "openInAppURL": "app://{path}/{callId}""#, site: #""template": "brand/call.html""#)
        #expect(site.callLinks.baseURL == nil)
        #expect(site.callLinks.openInAppURL == nil)
        #expect(site.sections.source("callLinks", "baseURL") == "sites[0].callLinks.baseURL")
        let aasa = try Self.site("aasa", top: #""format": "both", "cacheMaxAge": 60"#, site: #""webcredentials": true"#)
        #expect(aasa.aasa.format == .modern)
        #expect(aasa.aasa.cacheMaxAge == 60)
    }

    @Test("a site without the section keeps the top level's whole, as before")
    func wholeSection() throws {
        let text = #"{"apps": [{"name": "A", "teamID": "ABCDE12345", "bundleID": "com.example.a"}], "callLinks": {"baseURL": "https://a.example.com", "template": "t.html"}, "sites": [{"hosts": ["b.example.com"]}]}"#
        let config = try Fixtures.config(text)
        #expect(config.sites[1].callLinks == config.sites[0].callLinks)
        #expect(config.sites[1].sections.source("callLinks", "baseURL") == "callLinks.baseURL")
    }

    @Test("null is no value where nothing is inherited: the top level, and keys that come with their section")
    func nullStaysAnError() throws {
        let top = try Fixtures.diagnostics(try Fixtures.validConfig(setting: "callLinks.template", to: "null"))
        #expect(top.contains { $0.path == "callLinks.template" && $0.code == .lh105 })
        let site = try Fixtures.diagnostics(try Fixtures.validConfig(setting: "sites", to: #"[{"hosts": ["b.example.com"], "callLinks": {"baseURL": null}}]"#))
        #expect(site.contains { $0.path == "sites[0].callLinks.baseURL" && $0.code == .lh105 })
    }
}
