import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// A site's Android rules derived from its link templates are made when first read: a site without Android
/// apps never pays for them, and sites that share their AASA settings share one derivation.
@Suite("Derived Android rules, made when first read")
struct DerivedAndroidRulesTests {
    /// Two sites of their own templates without Android apps, and a third of the first one's templates.
    static let text = #"""
    {"apps": [{"name": "A", "teamID": "ABCDE12345", "bundleID": "com.example.a"}],
     "sites": [{"hosts": ["a.example.com"], "callLinks": {"links": ["/a/join/{callType}:{callId}", "/a/r/{callId}"]}},
               {"hosts": ["b.example.com"], "callLinks": {"links": ["/b/join/{callId}?type={callType}"]}},
               {"hosts": ["c.example.com"], "callLinks": {"links": ["/a/join/{callType}:{callId}", "/a/r/{callId}"]}}]}
    """#

    @Test("a site without Android apps has its Android rules derived only when they are read, and they are its templates' rules")
    func derivedWhenRead() throws {
        let config = try Fixtures.config(Self.text)
        for site in config.sites.dropFirst() {
            let kept = try #require(site.aasa.derivedAndroid)
            #expect(!kept.isDerived, "\(site.hosts): derived at load")
            let expected = DerivedAASARules.androidRules(for: site.callLinks.links.templates)
            #expect(site.aasa.derivedAndroidRules.map { $0.rule } == expected.map { $0.rule })
            #expect(kept.isDerived)
            #expect(!site.aasa.derivedAndroidRules.isEmpty)
        }
    }

    @Test("settings of the same templates are equal without deriving the rules; other templates' are not equal")
    func equality() throws {
        let config = try Fixtures.config(Self.text)
        let (a, b, c) = (config.sites[1].aasa, config.sites[2].aasa, config.sites[3].aasa)
        #expect(DerivedAndroidRules.same(a.derivedAndroid, c.derivedAndroid))
        #expect(a.derivedAndroid?.isDerived == false && c.derivedAndroid?.isDerived == false)
        #expect(!DerivedAndroidRules.same(a.derivedAndroid, b.derivedAndroid))
        var given = a
        given.derivedAndroidRules = a.derivedAndroidRules
        #expect(DerivedAndroidRules.same(given.derivedAndroid, a.derivedAndroid))
        given.derivedAndroidRules = b.derivedAndroidRules
        #expect(!DerivedAndroidRules.same(given.derivedAndroid, a.derivedAndroid))
    }
}
