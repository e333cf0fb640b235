import LinkHostJSON
import LinkHostTestSupport
import Testing
@testable import LinkHostCore

/// Sites whose `BakedPages.Key`s are equal share one bake (a snapshot bakes once per key): a value the bake
/// reads but the key leaves out would give a site another site's page. For every key of the sections a page
/// is made from (`apps`, `android`, `callLinks`), a site that differs from the top level in that key alone
/// must get the page it gets on its own, and its key must differ from the top level's when its page does.
@Suite("Baked pages key")
struct BakedPagesKeyTests {
    /// A value for each key of the page's sections, other than the base site's, as the path in the site's
    /// JSON and the JSON to put there (a new key fails `everyKeyHasASample` until it has one here).
    static let samples: [String: (path: String, json: String)] = [
        "apps": ("apps", #"[{"name": "A", "teamID": "ABCDE12345", "bundleID": "com.example.a"}, {"name": "B", "teamID": "ABCDE12345", "bundleID": "com.example.b"}]"#),
        "apps[].name": ("apps.0.name", #""Other""#),
        "apps[].teamID": ("apps.0.teamID", #""FGHIJ67890""#),
        "apps[].bundleID": ("apps.0.bundleID", #""com.example.other""#),
        "apps[].appStoreID": ("apps.0.appStoreID", #""1234567890""#),
        "apps[].urlScheme": ("apps.0.urlScheme", #""exa""#),
        "apps[].appClipBundleID": ("apps.0.appClipBundleID", #""com.example.a.Clip""#),
        "apps[].installURL": ("apps.0.installURL", #""https://install.example.com/ios""#),
        "android": ("android", "[]"),
        "android[].name": ("android.0.name", #""Droid""#),
        "android[].packageName": ("android.0.packageName", #""com.example.other""#),
        "android[].sha256CertFingerprints": ("android.0.sha256CertFingerprints", #"["AA:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]"#),
        "android[].dynamicRules": ("android.0.dynamicRules", "false"),
        "android[].installURL": ("android.0.installURL", #""https://install.example.com/android""#),
        "android[].lint": ("android.0.lint", #"{"ignore": ["LH403"]}"#),
        "android[].lint.ignore": ("android.0.lint", #"{"ignore": ["LH403"]}"#),
        "callLinks": ("callLinks.paths", #"["meet"]"#),
        "callLinks.links": ("callLinks.links", #"["/join/{callId}"]"#),
        "callLinks.paths": ("callLinks.paths", #"["meet"]"#),
        "callLinks.defaultType": ("callLinks.defaultType", #""video""#),
        "callLinks.template": ("callLinks.template", #""FOLDER/other.html""#),
        "callLinks.locales": ("callLinks.locales", #""FOLDER/other-locales""#),
        "callLinks.defaultLocale": ("callLinks.defaultLocale", #""de""#),
        "callLinks.baseURL": ("callLinks.baseURL", #""https://v.example.com""#),
        "callLinks.webJoinURL": ("callLinks.webJoinURL", #""https://web.example.com/{callType}/{callId}""#),
        "callLinks.openInAppURL": ("callLinks.openInAppURL", #""exa://{path}/{callId}""#),
        "callLinks.desktopScheme": ("callLinks.desktopScheme", "true"),
        "callLinks.openInAppHost": ("callLinks.openInAppHost", #""open.v.example.com""#),
        "callLinks.previewImage": ("callLinks.previewImage", #""og.png""#),
        "callLinks.cacheMaxAge": ("callLinks.cacheMaxAge", "30"),
        "callLinks.pageCacheSize": ("callLinks.pageCacheSize", "10"),
    ]

    /// The keys of the sections a call page is made from.
    static let pageKeys = (ConfigKeyTable.apps + ConfigKeyTable.callLinks).map(\.path)

    /// A template with every field, as a value and as a section, and a locale string: whatever the bake fills
    /// shows in its bytes.
    static let template: String = {
        var text = "<!doctype html><html lang=\"{{lang}}\" dir=\"{{dir}}\"><title>{{t.title}}</title>\n"
        for field in PageTemplate.Field.allCases {
            let name = field.rawValue
            if field.isURL {
                text += "<a href=\"{{\(name)}}\">\(name)</a>"
            } else if field.isMarkup {
                text += "<div>{{\(name)}}</div>"
            } else {
                text += "<p>\(name): {{\(name)}}</p>"
            }
            text += "{{#\(name)}}<i>\(name) set</i>{{/\(name)}}{{^\(name)}}<i>\(name) empty</i>{{/\(name)}}\n"
        }
        return text + "</html>\n"
    }()

    /// The files the configs name: the template, another template, two locale folders, a static folder with an image.
    static func folder() throws -> String {
        try Fixtures.temporaryFolder(files: [
            "call.html": template, "other.html": template.replacing("<title>", with: "<title>other "),
            "locales/en.json": #"{"strings": {"title": "Call"}}"#, "locales/de.json": #"{"strings": {"title": "Anruf"}}"#,
            "other-locales/en.json": #"{"strings": {"title": "Join"}}"#, "other-locales/de.json": #"{"strings": {"title": "Beitreten"}}"#,
            "public/og.png": "png",
        ])
    }

    /// The base site's sections: one app each, the page's files, nothing optional.
    static func base(_ folder: String) throws -> JSONValue {
        try JSONParser.parse(#"""
        {"apps": [{"name": "A", "teamID": "ABCDE12345", "bundleID": "com.example.a"}],
         "android": [{"packageName": "com.example.a", "sha256CertFingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}],
         "callLinks": {"template": "\#(folder)/call.html", "locales": "\#(folder)/locales"}}
        """#)
    }

    /// The base with one key set to its sample.
    static func variant(_ key: String, _ folder: String) throws -> JSONValue {
        let sample = try #require(samples[key])
        let value = try JSONParser.parse(sample.json.replacing("FOLDER", with: folder))
        return Fixtures.replace(try base(folder), path: sample.path.split(separator: ".").map(String.init), with: value)
    }

    /// A config of `topLevel`'s sections and, when given, one site of `site`'s (its hosts: the host its
    /// `openInAppHost` sample names among them), with the static folder; its snapshot.
    static func snapshot(topLevel: JSONValue, site: JSONValue?, folder: String) throws -> Snapshot {
        guard case .object(var top) = topLevel else { throw Failure() }
        top.append("server", try JSONParser.parse(#"{"host": "127.0.0.1", "port": 8080}"#))
        top.append("static", .object(JSONObject([JSONMember("root", .string(folder + "/public"))])))
        top.append("aasa", try JSONParser.parse(#"{"rules": [{"path": "/call/*"}]}"#))
        if case .object(var own)? = site {
            own.members.insert(JSONMember("hosts", try JSONParser.parse(#"["v.example.com", "open.v.example.com"]"#)), at: 0)
            top.append("sites", .array([.object(own)]))
        }
        return try Snapshot(config: try Fixtures.config(JSONWriter.string(.object(top))))
    }

    struct Failure: Error {}

    /// What a site's bake made: every locale's template, as segments.
    static func bake(_ site: Site) -> [[PageTemplate.Segment]] { site.callPage.templates.map(\.segments) }

    @Test("every key of the page's sections has a sample here")
    func everyKeyHasASample() {
        for key in Self.pageKeys {
            #expect(Self.samples[key] != nil, "add a sample for \(key) to BakedPagesKeyTests.samples")
        }
    }

    @Test("a site that differs from the top level in one key gets its own page, and another key when its page differs",
          arguments: Self.pageKeys.filter { Self.samples[$0] != nil })
    func keyHoldsWhatTheBakeReads(key: String) throws {
        let folder = try Self.folder()
        defer { removeItem(folder) }
        let variant = try Self.variant(key, folder)
        let shared = try Self.snapshot(topLevel: try Self.base(folder), site: variant, folder: folder)
        let alone = try Self.snapshot(topLevel: variant, site: nil, folder: folder)
        let (top, site, own) = (shared.sites[0], shared.sites[1], alone.sites[0])
        let ownBake = Self.bake(site) == Self.bake(own)
        #expect(ownBake, "\(key): the site got another site's bake; add what the bake reads of it to BakedPages.Key")
        if Self.bake(site) != Self.bake(top) {
            let keysDiffer = BakedPages.key(site: site.config, locales: site.callPage.locales) != BakedPages.key(site: top.config, locales: top.callPage.locales)
            #expect(keysDiffer, "\(key): the pages differ, the keys do not")
        }
    }

    @Test("the samples change the pages of the keys the bake reads")
    func samplesReachThePage() throws {
        let folder = try Self.folder()
        defer { removeItem(folder) }
        let base = try Self.snapshot(topLevel: try Self.base(folder), site: nil, folder: folder).sites[0]
        // Not `callLinks.baseURL` nor `apps[].appClipBundleID`: a tenant's origin and App Clip are values of each
        // request (filled into a bake tenants share, `TenantSharingTests`), so they change no bake.
        for key in ["apps[].urlScheme", "android", "android[].installURL", "callLinks.template", "callLinks.locales",
                    "callLinks.defaultLocale", "callLinks.webJoinURL", "callLinks.openInAppURL", "callLinks.openInAppHost"] {
            let variant = try Self.snapshot(topLevel: try Self.variant(key, folder), site: nil, folder: folder).sites[0]
            let changed = Self.bake(variant) != Self.bake(base)
            #expect(changed, "\(key): its sample leaves the page as it was")
        }
    }
}
