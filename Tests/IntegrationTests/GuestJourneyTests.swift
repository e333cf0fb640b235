import Foundation
import Testing

/// docs/guest-journey.md's rows that a browser can show, through the real server and Debian's headless
/// Chromium: the first action per User-Agent and viewport, the in-app browser escapes, and the
/// copy-then-store sequence with the clipboard read through the DevTools protocol.
@Suite("Guest journey in Chromium", .serialized, .timeLimit(.minutes(5)))
struct GuestJourneyTests {
    /// The shipped page with an iOS app (scheme `examplevideo`), an Android app and a web join.
    static func site(openInAppHost: String? = nil) throws -> SiteFixture {
        let site = try SiteFixture()
        var config = TestConfig(urlScheme: "examplevideo")
        var callLinks: [String: Any] = ["paths": ["call"], "webJoinURL": "https://meet.example.com/j/{callId}", "template": site.publicPath + "/call.html"]
        if let openInAppHost { callLinks["openInAppHost"] = openInAppHost }
        config.extra = ["callLinks": callLinks]
        try site.writeConfig(config)
        return site
    }

    static func device(_ base: HeadlessChromium.Device, agent: String, name: String) -> HeadlessChromium.Device {
        HeadlessChromium.Device(name: name, userAgent: agent, width: base.width, height: base.height, scale: base.scale, mobile: base.mobile, touchPoints: base.touchPoints)
    }

    static let instagramIOS = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/21E236 Instagram 326.0.3.29.95 (iPhone15,2; iOS 17_4; en_US; en; scale=3.00; 1179x2556; 590072163)"
    static let facebookAndroid = "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.64 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/452.0.0.39.110;]"

    @Test("Android: the intent targets the https filter print android-manifest declares; iPhone never leads with the scheme; a computer joins in the browser")
    func firstActions() async throws {
        let site = try Self.site()
        let server = try await LinkHostProcess.start(site)
        let url = "http://127.0.0.1:\(server.port)/call/abc123?type=video"
        let android = try await HeadlessChromium.visit(url, as: .android)
        let intent = try #require(android.href(id: "open-app"))
        #expect(intent.hasPrefix("intent://127.0.0.1:\(server.port)/call/abc123?type=video#Intent;scheme=https;package=com.example.linkhost.android;S.browser_fallback_url=https%3A%2F%2Fplay.google.com"), "\(intent)")
        #expect(android.tag(id: "open-app")?.contains("button primary") == true && !android.isHidden(id: "open-app"))
        let manifest = try await LinkHostCLI.run(["print", "android-manifest", "--config", site.configPath, "--host", "127.0.0.1"], directory: site.directory)
        #expect(manifest.stdout.contains(#"<data android:scheme="https" />"#) && manifest.stdout.contains(#"<data android:pathPrefix="/call/" />"#), "\(manifest.stdout)")
        #expect(manifest.stdout.contains(#"<data android:scheme="examplevideo" />"#), "the page writes the scheme, so the manifest declares it")
        // What print writes, validate accepts; an app without the scheme is told it lacks what the page relies on.
        let plist = try await LinkHostCLI.run(["print", "info-plist", "--config", site.configPath, "--host", "127.0.0.1"], directory: site.directory)
        #expect(plist.stdout.contains("<key>CFBundleURLSchemes</key>") && plist.stdout.contains("<string>examplevideo</string>"), "\(plist.stdout)")
        try site.write(plist.stdout, to: "Info.plist")
        try site.write(manifest.stdout, to: "AndroidManifest.xml")
        let valid = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--info-plist", site.directory + "/Info.plist", "--android-manifest", site.directory + "/AndroidManifest.xml"], directory: site.directory)
        #expect(valid.exitCode == 0, "\(valid)")
        try site.write(plist.stdout.replacing("<string>examplevideo</string>", with: "<string>other</string>"), to: "Info.plist")
        let lacking = try await LinkHostCLI.run(["validate", "--config", site.configPath, "--info-plist", site.directory + "/Info.plist"], directory: site.directory)
        #expect(lacking.exitCode == 2 && lacking.stderr.contains("LH707"), "\(lacking)")

        let iPhone = try await HeadlessChromium.visit(url, as: .iPhone)
        #expect(iPhone.href(id: "open-app") == "examplevideo://call/abc123?type=video")
        #expect(iPhone.tag(id: "open-app")?.contains("button secondary") == true, "\(iPhone.tag(id: "open-app") ?? "")")
        #expect(iPhone.tag(id: "app-store")?.contains("button primary") == true, "the store leads: \(iPhone.tag(id: "app-store") ?? "")")
        #expect(!iPhone.htmlTag.contains("data-webview"))

        let desktop = try await HeadlessChromium.visit(url, as: .desktop)
        #expect(desktop.tag(id: "web-join")?.contains("button primary") == true)
    }

    @Test("openInAppHost: the iPhone's open button is the call on that host; served there, the page knows the app is missing")
    func openInAppHost() async throws {
        let server = try await LinkHostProcess.start(try Self.site(openInAppHost: "localhost"))
        let iPhone = try await HeadlessChromium.visit("http://127.0.0.1:\(server.port)/call/abc123?type=video", as: .iPhone)
        #expect(iPhone.href(id: "open-app") == "https://localhost/call/abc123?type=video")
        #expect(iPhone.tag(id: "open-app")?.contains("button primary") == true)
        #expect(iPhone.isHidden(id: "app-missing"))
        let missing = try await HeadlessChromium.visit("http://localhost:\(server.port)/call/abc123?type=video", as: .iPhone)
        #expect(missing.isHidden(id: "open-app"), "\(missing.tag(id: "open-app") ?? "")")
        #expect(!missing.isHidden(id: "app-missing"))
        #expect(missing.tag(id: "app-store")?.contains("button primary") == true)
    }

    @Test("in-app browsers: data-webview, the escape and the instruction; a hostile User-Agent changes no markup")
    func inAppBrowsers() async throws {
        let server = try await LinkHostProcess.start(try Self.site())
        let url = "http://127.0.0.1:\(server.port)/call/abc123?type=video"
        let instagram = try await HeadlessChromium.visit(url, as: Self.device(.iPhone, agent: Self.instagramIOS, name: "Instagram iOS"))
        #expect(instagram.htmlTag.contains("data-webview=\"instagram\""), "\(instagram.htmlTag)")
        #expect(instagram.href(id: "leave-webview") == "x-safari-https://127.0.0.1:\(server.port)/call/abc123?type=video")
        #expect(!instagram.isHidden(id: "webview") && !instagram.isHidden(id: "webview-hint-ios") && instagram.isHidden(id: "webview-hint-android"))

        let facebook = try await HeadlessChromium.visit(url, as: Self.device(.android, agent: Self.facebookAndroid, name: "Facebook Android"))
        #expect(facebook.htmlTag.contains("data-webview=\"facebook\""))
        #expect(facebook.href(id: "leave-webview") == "intent://127.0.0.1:\(server.port)/call/abc123?type=video#Intent;scheme=https;action=android.intent.action.VIEW;end")
        #expect(!facebook.isHidden(id: "webview-hint-android"))

        let hostile = Self.instagramIOS + " \"><img src=x onerror=alert(1)><script>document.title='owned'</script>"
        let attacked = try await HeadlessChromium.visit(url, as: Self.device(.iPhone, agent: hostile, name: "hostile"))
        #expect(attacked.htmlTag.contains("data-webview=\"instagram\""))
        #expect(!attacked.dom.contains("onerror") && !attacked.dom.contains("owned"))
    }

    static let firefoxAndroid = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"
    static let whatsAppAndroid = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.7390.124 Mobile Safari/537.36 [WA4A/2.25.32.75;]"
    static let whatsAppIOS = "Mozilla/5.0 (iPhone; CPU iPhone OS 26_0_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0.1 Mobile/15E148 Safari/604.1 [WAiOS/2.25.31]"

    @Test("Firefox for Android: the intent with the package and no S.browser_fallback_url, which its AppLinksInterceptor would load instead of the app")
    func firefoxAndroid() async throws {
        let server = try await LinkHostProcess.start(try Self.site())
        let url = "http://127.0.0.1:\(server.port)/call/abc123?type=video"
        let firefox = try await HeadlessChromium.visit(url, as: Self.device(.android, agent: Self.firefoxAndroid, name: "Firefox Android"))
        let intent = try #require(firefox.href(id: "open-app"))
        #expect(intent == "intent://127.0.0.1:\(server.port)/call/abc123?type=video#Intent;scheme=https;package=com.example.linkhost.android;end", "\(intent)")
        // The fallback stays only in the data attribute the script reads: no link on the page carries it.
        #expect(!firefox.dom.contains("href=\"intent://127.0.0.1:\(server.port)/call/abc123?type=video#Intent;scheme=https;package=com.example.linkhost.android;S.browser_fallback_url"))
        #expect(firefox.tag(id: "open-app")?.contains("button primary") == true && !firefox.isHidden(id: "open-app"))
        #expect(firefox.isHidden(id: "webview"))
        // Chrome, on the same page, keeps its fallback to Play.
        let chrome = try await HeadlessChromium.visit(url, as: .android)
        #expect(chrome.href(id: "open-app")?.contains(";S.browser_fallback_url=https%3A%2F%2Fplay.google.com") == true)
    }

    @Test("WhatsApp's in-app browser is recognised and gets the way out, on Android and on iPhone")
    func whatsApp() async throws {
        let server = try await LinkHostProcess.start(try Self.site())
        let url = "http://127.0.0.1:\(server.port)/call/abc123?type=video"
        let android = try await HeadlessChromium.visit(url, as: Self.device(.android, agent: Self.whatsAppAndroid, name: "WhatsApp Android"))
        #expect(android.htmlTag.contains("data-webview=\"whatsapp\""), "\(android.htmlTag)")
        #expect(android.href(id: "leave-webview") == "intent://127.0.0.1:\(server.port)/call/abc123?type=video#Intent;scheme=https;action=android.intent.action.VIEW;end")
        #expect(!android.isHidden(id: "webview") && !android.isHidden(id: "webview-hint-android") && android.isHidden(id: "open-app"))
        let iPhone = try await HeadlessChromium.visit(url, as: Self.device(.iPhone, agent: Self.whatsAppIOS, name: "WhatsApp iOS"))
        #expect(iPhone.htmlTag.contains("data-webview=\"whatsapp\""), "\(iPhone.htmlTag)")
        #expect(iPhone.href(id: "leave-webview") == "x-safari-https://127.0.0.1:\(server.port)/call/abc123?type=video")
        #expect(!iPhone.isHidden(id: "webview-hint-ios"))
    }

    @Test("copy then store: the tap copies the canonical link (and nothing else), says so, then opens the store", arguments: [("app-store", "https://apps.apple.com/"), ("play-store", "https://play.google.com/")])
    func copyThenStore(store: String, prefix: String) async throws {
        let server = try await LinkHostProcess.start(try Self.site())
        let url = "http://127.0.0.1:\(server.port)/call/abc123?type=video"
        let visit = try await HeadlessChromium.visit(url, as: store == "app-store" ? .iPhone : .android, click: store)
        #expect(visit.clipboard == "https://127.0.0.1:\(server.port)/call/abc123?type=video", "\(visit.clipboard ?? "nothing")")
        #expect(!visit.isHidden(id: "link-copied"))
        #expect(visit.navigations.count == 1 && visit.navigations.first?.hasPrefix(prefix) == true, "\(visit.navigations)")
    }
}
