import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// What an operator's tenants share however each writes its own origin and apps (issue 42): the call page's
/// bake and the rules derived from the top level's link templates are made once, and each tenant's page and
/// files still name its own origin and apps.
@Suite("Operator tenants share what is the same")
struct TenantSharingTests {
    /// Three tenants of their own `baseURL`, two with an App Clip of their own, one with an open host.
    static let config = """
    {
      "apps": [ { "name": "Platform", "teamID": "PLATFORM00", "bundleID": "com.platform.video" } ],
      "callLinks": { "links": ["/call/{callId}?type={callType}", "/j/{callId}"] },
      "sites": [
        { "hosts": ["a.example.com"], "callLinks": { "baseURL": "https://a.example.com" },
          "apps": [ { "name": "A", "teamID": "AAAAA12345", "bundleID": "com.a.video", "appStoreID": "111", "appClipBundleID": "com.a.video.Clip" } ] },
        { "hosts": ["b.example.com"], "callLinks": { "baseURL": "https://b.example.com" },
          "apps": [ { "name": "B", "teamID": "BBBBB12345", "bundleID": "com.b.video", "appStoreID": "222", "appClipBundleID": "com.b.video.Clip" } ] },
        { "hosts": ["c.example.com", "open.c.example.com"], "callLinks": { "baseURL": "https://c.example.com", "openInAppHost": "open.c.example.com" },
          "apps": [ { "name": "C", "teamID": "CCCCC12345", "bundleID": "com.c.video", "appStoreID": "333" } ] }
      ]
    }
    """

    /// Where an array's elements are stored: the same for arrays that share their storage.
    static func storage<Element>(_ array: [Element]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("tenants of their own baseURL and App Clip share one page bake; each page names its own origin and clip")
    func pageBakeShared() throws {
        let snapshot = try Snapshot(config: try Fixtures.config(Self.config))
        let (a, b) = (snapshot.sites[1], snapshot.sites[2])
        #expect(Self.storage(a.callPage.programs) == Self.storage(b.callPage.programs), "a tenant's origin or clip baked its own page")
        let router = Router(snapshot: snapshot)
        for (host, clip) in [("a.example.com", "com.a.video.Clip"), ("b.example.com", "com.b.video.Clip")] {
            let page = router.respond(to: Request(path: "/call/abc", query: ["type": "video"], host: host)).bodyText
            #expect(page.contains(#"<meta property="og:image" content="https://\#(host)/linkhost-preview.png">"#), "\(page)")
            #expect(page.contains("app-clip-bundle-id=\(clip), app-clip-display=card, app-argument=https://\(host)/call/abc"), "\(page)")
        }
        let plain = router.respond(to: Request(path: "/j/abc", host: "c.example.com")).bodyText
        #expect(plain.contains("app-id=333, app-argument=https://c.example.com/call/abc") && !plain.contains("app-clip"), "\(plain)")
    }

    @Test("a tenant that writes its own callLinks but keeps the top level's templates shares the rules derived from them")
    func derivedRulesShared() throws {
        let config = try Fixtures.config(Self.config)
        let (top, tenant) = (config.sites[0].aasa, config.sites[3].aasa)
        #expect(tenant.rulesDerived && !tenant.rules.isEmpty)
        #expect(Self.storage(tenant.rules) == Self.storage(top.rules), "the tenant derived its own copy of the rules")
        #expect(tenant.ruleSources == top.ruleSources && tenant.derivedAndroid === top.derivedAndroid)
        #expect(config.sites[1].aasa.appclips == ["AAAAA12345.com.a.video.Clip"], "its own App Clip, not the top level's none")
        // A tenant of other templates derives its own.
        let other = try Fixtures.config(Self.config.replacing(#""callLinks": { "baseURL": "https://a.example.com" }"#,
                                                                          with: #""callLinks": { "baseURL": "https://a.example.com", "links": ["/meet/{callId}"] }"#))
        #expect(other.sites[1].aasa.rules != other.sites[0].aasa.rules)
        #expect(other.sites[1].aasa.ruleSources.allSatisfy { $0.hasPrefix("sites[0].callLinks") }, "\(other.sites[1].aasa.ruleSources)")
    }
}

/// The origin of a tenant's URLs read without parsing when it is plainly `https://name`: what `SplitURL` reads.
@Suite("Plain origins")
struct PlainOriginTests {
    @Test("a plain origin is what SplitURL reads it as, and anything else is parsed", arguments: [
        "https://a.example.com", "https://t9.tenants.example", "https://x", "https://a-b.c", "https://A.example.com", "https://a.example.com.",
        "https://.a.com", "https://-a.com", "https://a.example.com/", "https://a.example.com:8443", "http://a.example.com", "https://a_b.com",
        "https://[::1]", "https://", "https://a.example.com?x", "https://user@a.com",
    ])
    func plainOrigin(text: String) {
        let parsed = (try? SplitURL(text + "/")).map { "\($0.scheme)://\($0.host)" + ($0.port.map { ":\($0)" } ?? "") == text && $0.path == "/" } ?? false
        if ServedConsistency.isPlainOrigin(text) { #expect(parsed, "\(text) read plain, parsed otherwise") }
        #expect(ServedConsistency.isPlainOrigin(text) == ["https://a.example.com", "https://t9.tenants.example", "https://x", "https://a-b.c"].contains(text))
    }
}
