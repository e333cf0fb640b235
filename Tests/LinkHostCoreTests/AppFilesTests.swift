import Testing
@testable import LinkHostCore
import LinkHostTestSupport

@Suite("The app's side: entitlements, manifest, parser line")
struct AppFilesTests {
    static func sites() throws -> Config { try Fixtures.config(try golden("assetlinks-sites.config.json")) }

    @Test("entitlements: applinks and webcredentials for every host of every site, developer mode marked")
    func entitlements() throws {
        let served = ServedHosts(config: try Self.sites())
        let text = EntitlementsGenerator.fragment(for: served, developer: false, source: "c.json")
        #expect(text == """
        <!-- linkhost print entitlements: the Associated Domains of c.json; paste into the app's .entitlements -->
        <key>com.apple.developer.associated-domains</key>
        <array>
        \t<string>applinks:links.example.com</string>
        \t<string>webcredentials:links.example.com</string>
        \t<string>applinks:*.links.example.com</string>
        \t<string>webcredentials:*.links.example.com</string>
        \t<string>applinks:meet.example.org</string>
        \t<string>webcredentials:meet.example.org</string>
        </array>

        """)
        let developer = EntitlementsGenerator.fragment(for: served, developer: true, source: "c.json")
        #expect(developer.contains("<string>applinks:meet.example.org?mode=developer</string>"))
        #expect(developer.contains("remove it before release"))
        // Reading the fragment back gives the same entries, and developer mode is LH706.
        let read = try EntitlementsFile.read(Array(developer.utf8)).get()
        #expect(read.domains.map(\.host) == ["links.example.com", "links.example.com", "*.links.example.com", "*.links.example.com", "meet.example.org", "meet.example.org"])
        #expect(read.problems.allSatisfy { $0.code == .lh706 } && read.problems.count == 6)
    }

    @Test("the app lists the appclips: of its clip's exact hosts, in their own block")
    func appClips() throws {
        let config = try Fixtures.config(#"{"apps": [{"name": "A", "teamID": "ABCDE12345", "bundleID": "com.example.a"}], "aasa": {"appclips": ["ABCDE12345.com.example.a.Clip"]}, "sites": [{"hosts": ["a.example.com", "*.a.example.com"]}]}"#)
        let text = EntitlementsGenerator.fragment(for: ServedHosts(config: config), developer: false, source: "c")
        #expect(text.contains("<!-- appclips: the hosts whose AASA lists the App Clip ABCDE12345.com.example.a.Clip; Apple asks for them in the app's entitlements and the clip's alike -->\n\t<string>appclips:a.example.com</string>\n</array>"))
        #expect(!text.contains("appclips:*."))
    }

    @Test("manifest: one verified filter per site, pathPrefix for a placeholder, path for a query-only template")
    func manifest() throws {
        let text = AndroidManifestGenerator.fragment(for: ServedHosts(config: try Self.sites()), source: "c.json")
        #expect(text.contains("""
        <intent-filter android:autoVerify="true">
            <action android:name="android.intent.action.VIEW" />
            <category android:name="android.intent.category.DEFAULT" />
            <category android:name="android.intent.category.BROWSABLE" />
            <data android:scheme="https" />
            <data android:host="links.example.com" />
            <data android:host="*.links.example.com" />
            <data android:pathPrefix="/call/" />
            <data android:pathPrefix="/join/" />
            <data android:pathPrefix="/video/demos/join/" />
            <data android:path="/join" />
            <data android:path="/join/" />
        </intent-filter>
        """))
        #expect(text.components(separatedBy: "<intent-filter").count == 3)
        let file = try AndroidManifestFile.read(Array(text.utf8)).get()
        #expect(file.filters.count == 2 && file.filters.allSatisfy { $0.handlesWebLinks && $0.autoVerify && $0.exported })
        #expect(file.problems.isEmpty)
    }

    @Test("a manifest's data elements merge within their filter, and activities that are not exported are noted")
    func manifestReading() throws {
        let file = try AndroidManifestFile.read(Array("""
        <manifest xmlns:a="http://schemas.android.com/apk/res/android">
          <application>
            <activity a:name=".Main" a:exported="false">
              <intent-filter a:autoVerify="true">
                <action a:name="android.intent.action.VIEW"/><category a:name="android.intent.category.DEFAULT"/><category a:name="android.intent.category.BROWSABLE"/>
                <data a:scheme="https" a:host="a.example.com"/><data a:host="@string/host" a:pathPattern="/c/..*"/>
              </intent-filter>
            </activity>
            <activity-alias a:name=".Alias"><intent-filter><action a:name="android.intent.action.MAIN"/></intent-filter></activity-alias>
          </application>
        </manifest>
        """.utf8)).get()
        #expect(file.filters.count == 2)
        let filter = file.filters[0]
        #expect(filter.activity == ".Main" && !filter.exported && filter.hosts == ["a.example.com"] && filter.paths.map(\.attribute) == ["pathPattern"])
        #expect(filter.claims(host: "a.example.com", path: "/c/x") && !filter.claims(host: "a.example.com", path: "/c/") && !filter.claims(host: "b.example.com", path: "/c/x"))
        #expect(file.problems.map(\.code) == [.lh701], "the resource reference cannot be resolved: \(file.problems)")
        #expect(!file.filters[1].handlesWebLinks)
    }

    @Test("manifest path attributes as Android matches them", arguments: [
        ("path", "/join", "/join", true), ("path", "/join", "/join/", false),
        ("pathPrefix", "/call/", "/call/abc", true), ("pathPrefix", "/call/", "/call", false),
        ("pathSuffix", ".pdf", "/a/b.pdf", true), ("pathSuffix", ".pdf", "/a/b.pdfx", false),
        ("pathPattern", "/call/..*", "/call/a", true), ("pathPattern", "/call/..*", "/call/", false),
        ("pathPattern", "/c/.*/join", "/c/a/join", true), ("pathPattern", "/c/.*/join", "/c/a/b/join", false),
        ("pathPattern", "/a\\\\.b", "/a.b", true), ("pathPattern", "/a\\\\.b", "/axb", false),
        ("pathPattern", "/x*y", "/xxxy", true), ("pathPattern", "/x*y", "/y", true), ("pathPattern", "/call/x*", "/call/", false),
        ("pathAdvancedPattern", "/call/[a-z0-9]+", "/call/abc1", true), ("pathAdvancedPattern", "/call/[a-z0-9]+", "/call/ABC", false),
        ("pathAdvancedPattern", "/c/[^/]{2,3}", "/c/abc", true), ("pathAdvancedPattern", "/c/[^/]{2,3}", "/c/a", false),
        ("pathAdvancedPattern", "/c/.*x", "/c/aax", false),
    ] as [(String, String, String, Bool)])
    func manifestPaths(attribute: String, value: String, path: String, matches: Bool) throws {
        let pattern = try #require(ManifestPathPattern(attribute: attribute, value: value))
        #expect(pattern.matches(path) == matches, "android:\(attribute)=\"\(value)\" on \(path)")
    }

    @Test("an advanced pattern Android refuses is refused")
    func refusedAdvanced() {
        for value in ["/a/[z-a]", "*x", "/a/[", "/a{2", "/a{3,1}"] {
            #expect(ManifestPathPattern(attribute: "pathAdvancedPattern", value: value) == nil, "\(value)")
        }
    }

    @Test("the parser line carries the site's templates, default type and hosts")
    func parserLine() throws {
        let site = try Self.sites().site(forHost: "meet.example.org")
        #expect(SwiftParserLine.line(for: site, hosts: ["meet.example.org"]) == #"let parser = try CallLinkParser(templates: ["/meet/{callId}?type={callType}", "/m/{callType}:{callId}"], defaultType: "default", hosts: ["meet.example.org"])"# + "\n")
        #expect(SwiftParserLine.literal(#"a"b\c"#) == #""a\"b\\c""#)
    }

    @Test("entitlements entries: services, wildcards, modes, build settings")
    func entitlementEntries() {
        #expect((try? EntitlementsFile.entry("applinks:*.Example.com?mode=developer+managed").get()) == EntitlementsFile.Domain(service: "applinks", host: "*.example.com", mode: "developer+managed", text: "applinks:*.Example.com?mode=developer+managed", index: 0))
        for bad in ["applinks", "applink:example.com", "applinks:example.com?mode=debug", "applinks:https://example.com", "applinks:$(LINK_HOST)"] {
            guard case .failure(let problem) = EntitlementsFile.entry(bad) else { Issue.record("\(bad) accepted"); continue }
            #expect(problem.code == .lh701)
            #expect((problem.severity == .warning) == bad.contains("$("), "\(bad): \(problem)")
        }
    }
}
