import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// `apps[].appClipBundleID` in the core: how its ID joins the hand-written `aasa.appclips`, the clip's
/// `appclips:` hosts and experiences, and the banner of a page whose app has no App Store ID (issue 34).
@Suite("App Clip config")
struct AppClipConfigTests {
    static let clipConfig = """
    {
      "apps": [ { "name": "Example Video", "teamID": "ABCDE12345", "bundleID": "com.example.video", "appClipBundleID": "com.example.video.Clip" } ],
      "callLinks": { "paths": ["call"], "baseURL": "https://links.example.com" },
      "aasa": { "appclips": ["ABCDE12345.com.example.video.Clip", "ABCDE12345.com.example.video.Old"] },
      "sites": [ { "hosts": ["join.example.org", "*.tenants.example.org"] } ]
    }
    """

    @Test("the app's clip comes first under appclips, hand-written IDs after it, each once")
    func appclipsUnion() throws {
        let config = try Fixtures.config(Self.clipConfig)
        #expect(config.sites.map(\.aasa.appclips) == Array(repeating: ["ABCDE12345.com.example.video.Clip", "ABCDE12345.com.example.video.Old"], count: 2))
        #expect(config.sites[0].apps[0].appClipID == "ABCDE12345.com.example.video.Clip")
        let written = try Fixtures.config(Self.clipConfig.replacing(#""appClipBundleID": "com.example.video.Clip""#, with: #""appClipBundleID": "ABCDE12345.com.example.video.Clip""#))
        #expect(written.sites[0].apps[0].appClipBundleID == "com.example.video.Clip", "an app ID of the app's own team reads as the bundle ID")
    }

    @Test("the clip's appclips: entries name exact hosts only, and one experience each, the first the default")
    func hostsAndExperiences() throws {
        let config = try Fixtures.config(Self.clipConfig)
        let served = try ServedHosts(config: config).chosen(["com.example.video.Clip"], kind: .appClip, config: config)
        #expect(served.app == "ABCDE12345.com.example.video.Clip")
        #expect(AppClipEntitlements.entries(for: served) == ["appclips:links.example.com", "appclips:join.example.org"])
        #expect(AppClipEntitlements.wildcardHosts(for: served) == ["*.tenants.example.org"])
        let experiences = AppClipExperiences(served: served)
        #expect(experiences.experiences.map(\.prefix) == ["https://links.example.com/", "https://join.example.org/"])
        #expect(experiences.deciding("https://JOIN.example.org:443/call/abc")?.prefix == "https://join.example.org/")
        #expect(experiences.deciding("https://links.example.com/call/abc")?.isDefault == true)
        #expect(experiences.deciding("https://a.tenants.example.org/call/abc") == nil)
        #expect(experiences.deciding("https://links.example.com.evil.test/call/abc") == nil, "a prefix ends at the host's slash")
        #expect(ServedHosts.iOSKind(naming: ["com.example.video"], config: config) == .iOS)
        #expect(ServedHosts.iOSKind(naming: ["com.example.video.Clip"], config: config) == .appClip)
        #expect(ServedHosts.iOSKind(naming: [], config: config) == .iOS)
    }

    @Test("an app with a clip and no App Store ID gets a banner that names the clip alone; an app without a clip gets none")
    func bannerWithoutAppStoreID() throws {
        let config = try Fixtures.config(Self.clipConfig)
        let page = Router(snapshot: try Snapshot(config: config)).respond(to: Request(path: "/call/abc", query: ["type": "video"])).bodyText
        #expect(page.contains(#"<meta name="apple-itunes-app" content="app-clip-bundle-id=com.example.video.Clip, app-clip-display=card">"#), "\(page)")
        let plain = try Fixtures.config(Fixtures.validConfig)
        let plainPage = Router(snapshot: try Snapshot(config: plain)).respond(to: Request(path: "/call/abc", query: ["type": "video"])).bodyText
        #expect(plainPage.contains("<meta name=\"apple-itunes-app\" content=\"app-id=1234567890, app-argument=") && !plainPage.contains("app-clip"))
    }

    @Test("two sites showing the same app, one with its clip and one without, do not share a page bake")
    func bakesKeepTheClip() throws {
        let config = try Fixtures.config("""
        {
          "apps": [ { "name": "Example Video", "teamID": "ABCDE12345", "bundleID": "com.example.video", "appStoreID": "1234567890", "appClipBundleID": "com.example.video.Clip" } ],
          "callLinks": { "paths": ["call"] },
          "sites": [ { "hosts": ["clip.example.com"] },
                     { "hosts": ["plain.example.com"], "apps": [ { "name": "Example Video", "teamID": "ABCDE12345", "bundleID": "com.example.video", "appStoreID": "1234567890" } ] } ]
        }
        """)
        let router = Router(snapshot: try Snapshot(config: config))
        let clip = router.respond(to: Request(path: "/call/abc", host: "clip.example.com")).bodyText
        let plain = router.respond(to: Request(path: "/call/abc", host: "plain.example.com")).bodyText
        #expect(clip.contains("app-id=1234567890, app-clip-bundle-id=com.example.video.Clip, app-clip-display=card, app-argument=https://clip.example.com/call/abc"), "\(clip)")
        #expect(plain.contains("app-id=1234567890, app-argument=https://plain.example.com/call/abc") && !plain.contains("app-clip"), "\(plain)")
    }
}
