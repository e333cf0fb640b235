@testable import LinkHostCore
@testable import LinkHostCheck
import LinkHostHTTPClient

/// For every diagnostic code: an input that must report it, and a close one that must not (and has no error).
struct LintCodeCase: Sendable, CustomStringConvertible {
    let code: LintCode
    let failing: LintInput
    let passing: LintInput
    /// What differs, for the test's name.
    let note: String

    var description: String { "\(code.rawValue): \(note)" }

    init(_ code: LintCode, _ note: String, failing: LintInput, passing: LintInput) {
        self.code = code
        self.note = note
        self.failing = failing
        self.passing = passing
    }
}

extension LintCodeCase {
    /// A component list for the base AASA's single detail.
    static func components(_ json: String) -> LintInput {
        .aasa(#"{"applinks": {"details": [{"appIDs": ["QRSTU67890.com.acme.video"], "components": \#(json)}]}}"#)
    }

    /// The base AASA with its `applinks` extended by `members` (JSON object members, no braces).
    static func applinks(_ members: String, components: String = #"[{"/": "/call/*"}]"#) -> LintInput {
        .aasa(#"{"applinks": {\#(members), "details": [{"appIDs": ["QRSTU67890.com.acme.video"], "components": \#(components)}]}}"#)
    }

    /// An AASA with `count` distinct rules, to cross the 128 KB limit.
    static func largeAASA(rules count: Int) -> LintInput {
        let rules = (0..<count).map { #"{"/": "/call/\#($0)-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/*"}"# }.joined(separator: ",")
        return components("[\(rules)]")
    }

    /// The base config with `siteFiles` set to `pattern` and `files` in its `sites.d` folder.
    static func siteFiles(_ pattern: String, _ files: [String: String]) -> LintInput {
        .config(["siteFiles": "\"\(pattern)\""], files: Dictionary(uniqueKeysWithValues: files.map { ("sites.d/" + $0.key, $0.value) }))
    }

    /// Site files with `server.stateDirectory` in the fixture, whose record gives `a.json` the host and id of
    /// `tenant("a")` (or holds `record` as it is).
    static func recorded(_ files: [String: String], record: String? = nil) -> LintInput {
        let written = record ?? #"{"linkhostSiteRecord": 1, "files": {"a.json": {"digest": "", "claims": ["host a.example.com", "name a"]}}}"#
        return .config(["siteFiles": #""sites.d/*.json""#, "server.stateDirectory": #""FOLDER/state""#],
                       files: Dictionary(uniqueKeysWithValues: files.map { ("sites.d/" + $0.key, $0.value) }).merging(["state/sites/record.json": written]) { $1 })
    }

    /// One tenant's site file: its id, host `<host>.example.com` and an app of its own.
    static func tenant(_ id: String, host: String? = nil, teamID: String = "TENANT1234", members: String = "") -> String {
        #"{"id": "\#(id)", "hosts": ["\#(host ?? id).example.com"], "apps": [{"name": "\#(id)", "teamID": "\#(teamID)", "bundleID": "com.\#(id).video"}], "android": []\#(members)}"#
    }

    /// The config's rules replaced by `json`.
    static func rules(_ json: String, files: [String: String] = [:]) -> LintInput {
        .config(["aasa.rules": json], files: files)
    }

    /// A template that uses locale strings, with locale files (`tag` → JSON of its `strings`).
    static func locales(_ files: [String: String], template: String = "<!doctype html><title>{{t.heading}}</title>") -> LintInput {
        var all = ["call.html": template + "\n"]
        for (tag, strings) in files { all["locales/\(tag).json"] = #"{"strings": \#(strings)}"# }
        return .config([:], files: all)
    }

    static let base = LintInput.config([:])
    /// The base config with ACME on for one public host.
    static let acme = LintInput.config(["server.httpPort": "8081", "server.tls": #"{"acme": {"hosts": ["links.example.com"]}}"#])
    /// The base config with its links on links.example.com and the iPhone's open button on open.example.com.
    static let openHost = LintInput.config(["callLinks.baseURL": #""https://links.example.com""#, "callLinks.openInAppHost": #""open.example.com""#])
    /// The base manifest's verified filter, once more.
    static let duplicateFilter = #"<intent-filter android:autoVerify="true"><action android:name="android.intent.action.VIEW" /><category android:name="android.intent.category.DEFAULT" /><category android:name="android.intent.category.BROWSABLE" /><data android:scheme="https" android:host="links.example.com" android:pathPrefix="/call/" /></intent-filter>"#
    static let fingerprint = LintFixtures.fingerprints[0]
    static let other = LintFixtures.fingerprints[1]

    static let all: [LintCodeCase] = [
        LintCodeCase(.lh100, "config not JSON", failing: .configText("{ \"apps\": "), passing: base),
        LintCodeCase(.lh100, "AASA not JSON", failing: .aasa("{applinks}"), passing: .aasa(LintFixtures.aasa)),
        LintCodeCase(.lh101, "config Team ID", failing: .config(["apps.0.teamID": #""abcde12345""#]), passing: base),
        LintCodeCase(.lh101, "AASA Team ID", failing: components(#"[{"/": "/call/*"}]"#).replacingAppID("ABCDE123.com.acme.video"), passing: .aasa(LintFixtures.aasa)),
        LintCodeCase(.lh102, "config bundle ID", failing: .config(["apps.0.bundleID": #""com..video""#]), passing: base),
        LintCodeCase(.lh102, "AASA bundle ID", failing: .aasa(LintFixtures.aasa).replacingAppID("QRSTU67890.video"), passing: .aasa(LintFixtures.aasa)),
        LintCodeCase(.lh103, "AASA app ID without a dot", failing: .aasa(LintFixtures.aasa).replacingAppID("QRSTU67890"), passing: .aasa(LintFixtures.aasa)),
        LintCodeCase(.lh103, "config webcredentials app ID", failing: .config(["aasa.webcredentials": #"["QRSTU67890"]"#]), passing: .config(["aasa.webcredentials": #"["QRSTU67890.com.acme.video"]"#])),
        LintCodeCase(.lh104, "config app listed twice", failing: .config(["apps": #"[{"name": "A", "teamID": "QRSTU67890", "bundleID": "com.acme.video"}, {"name": "B", "teamID": "QRSTU67890", "bundleID": "com.acme.video"}]"#]), passing: base),
        LintCodeCase(.lh104, "AASA app in two details", failing: .aasa(#"{"applinks": {"details": [{"appIDs": ["QRSTU67890.com.acme.video"], "components": [{"/": "/call/*"}]}, {"appIDs": ["QRSTU67890.com.acme.video"], "components": [{"/": "/join/*"}]}]}}"#), passing: .aasa(#"{"applinks": {"details": [{"appIDs": ["QRSTU67890.com.acme.video"], "components": [{"/": "/call/*"}, {"/": "/join/*"}]}]}}"#)),
        LintCodeCase(.lh105, "config type", failing: .config(["server.port": #""8080""#]), passing: base),
        LintCodeCase(.lh105, "AASA exclude as a string", failing: components(#"[{"/": "/call/admin", "exclude": "true"}, {"/": "/call/*"}]"#), passing: components(#"[{"/": "/call/admin", "exclude": true}, {"/": "/call/*"}]"#)),
        LintCodeCase(.lh106, "config unknown key", failing: .config(["apps.0.bundleId": #""x""#]), passing: base),
        LintCodeCase(.lh106, "AASA misspelled exclude", failing: components(#"[{"/": "/call/admin", "exlude": true}, {"/": "/call/*"}]"#), passing: components(#"[{"/": "/call/admin", "exclude": true}, {"/": "/call/*"}]"#)),
        LintCodeCase(.lh107, "duplicate key", failing: .aasa(#"{"applinks": {"details": [{"appIDs": ["QRSTU67890.com.acme.video"], "components": [{"/": "/call/*", "/": "/join/*"}]}]}}"#), passing: .aasa(LintFixtures.aasa)),
        LintCodeCase(.lh108, "config app without teamID", failing: .config(["apps.0.teamID": nil]), passing: base),
        LintCodeCase(.lh108, "AASA detail naming no app", failing: .aasa(#"{"applinks": {"details": [{"components": [{"/": "/call/*"}]}]}}"#), passing: .aasa(LintFixtures.aasa)),
        LintCodeCase(.lh109, "config port out of range", failing: .config(["server.port": "70000"]), passing: base),
        LintCodeCase(.lh110, "AASA over 128 KB", failing: largeAASA(rules: 2500), passing: largeAASA(rules: 100)),
        LintCodeCase(.lh110, "generated AASA over 128 KB", failing: rules("[" + (0..<2000).map { #"{"path": "/call/\#($0)-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/*"}"# }.joined(separator: ",") + #", {"path": "/call/*"}]"#), passing: base),
        LintCodeCase(.lh111, "config defaults key", failing: .config(["aasa.defaults": #"{"caseSensitiv": false}"#]), passing: .config(["aasa.defaults": #"{"caseSensitive": false}"#])),
        LintCodeCase(.lh111, "AASA defaults key", failing: applinks(#""defaults": {"percentEncode": false}"#), passing: applinks(#""defaults": {"percentEncoded": false}"#)),
        LintCodeCase(.lh112, "config legacy with a query", failing: .config(["aasa.format": #""legacy""#, "aasa.rules": #"[{"path": "/call/*", "query": "x=*"}]"#]), passing: .config(["aasa.format": #""modern""#, "aasa.rules": #"[{"path": "/call/*", "query": "*"}]"#])),
        LintCodeCase(.lh112, "AASA appIDs with legacy paths", failing: .aasa(#"{"applinks": {"apps": [], "details": [{"appIDs": ["QRSTU67890.com.acme.video"], "paths": ["/call/*"]}]}}"#), passing: .aasa(#"{"applinks": {"apps": [], "details": [{"appID": "QRSTU67890.com.acme.video", "paths": ["/call/*"]}]}}"#)),
        LintCodeCase(.lh113, "AASA without applinks", failing: .aasa(#"{"webcredentials": {"apps": ["QRSTU67890.com.acme.video"]}}"#), passing: .aasa(#"{"webcredentials": {"apps": ["QRSTU67890.com.acme.video"]}, "applinks": {"details": [{"appIDs": ["QRSTU67890.com.acme.video"], "components": [{"/": "/call/*"}]}]}}"#)),
        LintCodeCase(.lh114, "missing template", failing: .config(["callLinks.template": #""/nonexistent/linkhost/call.html""#]), passing: base),
        LintCodeCase(.lh115, "config link template without an ID", failing: .config(["callLinks.paths": nil, "callLinks.links": #"["/call/{callId}", "/call"]"#]), passing: .config(["callLinks.paths": nil, "callLinks.links": #"["/call/{callId}", "/call/{callType}:{callId}"]"#])),
        LintCodeCase(.lh115, "config paths entry with a slash", failing: .config(["callLinks.paths": #"["/call"]"#]), passing: base),
        LintCodeCase(.lh116, "config host in two sites", failing: .config(["sites": #"[{"hosts": ["a.example.com"]}, {"hosts": ["A.example.com"]}]"#]), passing: .config(["sites": #"[{"hosts": ["a.example.com"]}, {"hosts": ["b.example.com"]}]"#])),
        LintCodeCase(.lh116, "config host with a port", failing: .config(["sites": #"[{"hosts": ["a.example.com:443"]}]"#]), passing: .config(["sites": #"[{"hosts": ["a.example.com"]}]"#])),
        LintCodeCase(.lh117, "certificate files and ACME", failing: .config(["server.httpPort": "8081", "server.tls": #"{"certificateFile": "c.pem", "privateKeyFile": "k.pem", "acme": {"hosts": ["links.example.com"]}}"#]), passing: acme),
        LintCodeCase(.lh118, "wildcard host with ACME", failing: .config(["server.httpPort": "8081", "server.tls": #"{"acme": {}}"#, "sites": #"[{"hosts": ["*.example.com"]}]"#]), passing: .config(["server.httpPort": "8081", "server.tls": #"{"acme": {}}"#, "sites": #"[{"hosts": ["links.example.com"]}]"#])),
        LintCodeCase(.lh118, "localhost with ACME", failing: .config(["server.httpPort": "8081", "server.tls": #"{"acme": {"hosts": ["localhost"]}}"#]), passing: acme),
        LintCodeCase(.lh118, "IP address with ACME", failing: .config(["server.httpPort": "8081", "server.tls": #"{"acme": {"hosts": ["203.0.113.7"]}}"#]), passing: acme),
        LintCodeCase(.lh119, "state folder that cannot be created", failing: .config(["server.httpPort": "8081", "server.tls": #"{"acme": {"hosts": ["links.example.com"], "stateDirectory": "/etc/hostname/acme"}}"#]), passing: acme),
        // /etc/passwd is readable by everyone and /proc/self/environ by its owner alone, on every Linux.
        LintCodeCase(.lh120, "private key readable by others", failing: .config(["server.tls": #"{"certificateFile": "/etc/passwd", "privateKeyFile": "/etc/passwd"}"#]),
                     passing: .config(["server.tls": #"{"certificateFile": "/etc/passwd", "privateKeyFile": "/proc/self/environ"}"#])),
        LintCodeCase(.lh121, "the example's Team ID", failing: .config(["apps.0.teamID": #""ABCDE12345""#]), passing: base),
        LintCodeCase(.lh121, "the example's Android package", failing: .config(["android.0.packageName": #""com.example.video""#]), passing: base),
        LintCodeCase(.lh121, "a config marked as the example", failing: .config(["example": "true"]), passing: .config(["example": "false"])),
        LintCodeCase(.lh121, "the example's package under automatic HTTPS, marker or not", failing: .config(["server.httpPort": "8081", "server.tls": #"{"acme": {"hosts": ["links.example.com"]}}"#, "android.0.packageName": #""com.example.video""#]), passing: acme),
        LintCodeCase(.lh123, "top-level open host without baseURL", failing: .config(["callLinks.openInAppHost": #""open.example.com""#]), passing: openHost),
        LintCodeCase(.lh123, "top-level open host another site answers", failing: .config(["callLinks.baseURL": #""https://links.example.com""#, "callLinks.openInAppHost": #""open.example.com""#, "sites": #"[{"hosts": ["open.example.com"], "callLinks": {"paths": ["call"]}, "apps": [{"name": "B", "teamID": "QRSTU67890", "bundleID": "com.acme.b"}], "android": []}]"#]), passing: openHost),
        LintCodeCase(.lh124, "open host that is the link host", failing: .config(["callLinks.baseURL": #""https://links.example.com""#, "callLinks.openInAppHost": #""links.example.com""#]), passing: openHost),
        LintCodeCase(.lh125, "site with its own apps and no android", failing: .config(["sites": #"[{"hosts": ["b.example.com"], "apps": [{"name": "B", "teamID": "QRSTU67890", "bundleID": "com.acme.b"}]}]"#]),
                     passing: .config(["sites": #"[{"hosts": ["b.example.com"], "apps": [{"name": "B", "teamID": "QRSTU67890", "bundleID": "com.acme.b"}], "android": []}]"#])),
        LintCodeCase(.lh126, "a site whose baseURL is another site's host",
                     failing: .config(["sites": #"[{"id": "production", "hosts": ["links.example.com"]}, {"id": "staging", "hosts": ["staging.example.com"], "callLinks": {"paths": ["call"], "baseURL": "https://links.example.com"}}]"#]),
                     passing: .config(["sites": #"[{"id": "production", "hosts": ["links.example.com"]}, {"id": "staging", "hosts": ["staging.example.com"], "callLinks": {"paths": ["call"], "baseURL": "https://staging.example.com"}}]"#])),
        LintCodeCase(.lh126, "a site whose open host is another site's host",
                     failing: .config(["sites": #"[{"id": "production", "hosts": ["links.example.com", "open.example.com"]}, {"id": "staging", "hosts": ["staging.example.com", "staging-open.example.com"], "callLinks": {"paths": ["call"], "openInAppHost": "open.example.com"}}]"#]),
                     passing: .config(["sites": #"[{"id": "production", "hosts": ["links.example.com", "open.example.com"]}, {"id": "staging", "hosts": ["staging.example.com", "staging-open.example.com"], "callLinks": {"paths": ["call"], "openInAppHost": "staging-open.example.com"}}]"#])),
        LintCodeCase(.lh127, "a staging app beside its release",
                     failing: .config(["android": "[{\"packageName\": \"com.acme.video\", \"sha256CertFingerprints\": [\"\(fingerprint)\", \"\(other)\"]}, {\"packageName\": \"com.acme.video.staging\", \"sha256CertFingerprints\": [\"\(other)\"]}]"]),
                     passing: .config(["android": "[{\"packageName\": \"com.acme.video\", \"sha256CertFingerprints\": [\"\(fingerprint)\", \"\(other)\"]}, {\"packageName\": \"com.acme.chat.staging\", \"sha256CertFingerprints\": [\"\(other)\"]}]"])),
        LintCodeCase(.lh127, "a beta iOS app beside its release",
                     failing: .config(["apps": #"[{"name": "A", "teamID": "QRSTU67890", "bundleID": "com.acme.video", "appStoreID": "1234567890", "urlScheme": "examplevideo"}, {"name": "B", "teamID": "QRSTU67890", "bundleID": "com.acme.video.beta"}]"#]),
                     passing: .config(["apps": #"[{"name": "A", "teamID": "QRSTU67890", "bundleID": "com.acme.video", "appStoreID": "1234567890", "urlScheme": "examplevideo"}, {"name": "B", "teamID": "QRSTU67890", "bundleID": "com.acme.videobeta"}]"#])),
        LintCodeCase(.lh128, "an iOS app with no App Store ID and no install page", failing: .config(["apps.0.appStoreID": nil]), passing: .config(["apps.0.appStoreID": nil, "apps.0.installURL": "false"])),
        LintCodeCase(.lh122, "two sites with one id", failing: .config(["sites": #"[{"hosts": ["a.example.com"], "id": "acme"}, {"hosts": ["b.example.com"], "id": "acme"}]"#]),
                     passing: .config(["sites": #"[{"hosts": ["a.example.com"], "id": "acme"}, {"hosts": ["b.example.com"], "id": "brand"}]"#])),
        LintCodeCase(.lh122, "an id that is another site's first host", failing: .config(["sites": #"[{"hosts": ["a.example.com"]}, {"hosts": ["b.example.com"], "id": "a.example.com"}]"#]),
                     passing: .config(["sites": #"[{"hosts": ["a.example.com"]}, {"hosts": ["b.example.com"], "id": "b.example.com"}]"#])),
        LintCodeCase(.lh130, "siteFiles with a wildcard in its folder", failing: siteFiles("sites.d/*/site.json", ["a.json": tenant("a")]), passing: siteFiles("sites.d/*.json", ["a.json": tenant("a")])),
        LintCodeCase(.lh130, "siteFiles naming a folder that is not there", failing: siteFiles("tenants/*.json", ["a.json": tenant("a")]), passing: siteFiles("sites.d/*.json", ["a.json": tenant("a")])),
        LintCodeCase(.lh131, "a site file that is not JSON", failing: siteFiles("sites.d/*.json", ["a.json": tenant("a"), "b.json": #"{"id": "b", "hosts": ["b.example.com"]"#]),
                     passing: siteFiles("sites.d/*.json", ["a.json": tenant("a"), "b.json": tenant("b")])),
        LintCodeCase(.lh132, "a site file with the top level's name", failing: siteFiles("sites.d/*.json", ["a.json": tenant("a"), "b.json": tenant("default", host: "b")]),
                     passing: siteFiles("sites.d/*.json", ["a.json": tenant("a"), "b.json": tenant("b")])),
        LintCodeCase(.lh138, "a site file claiming a host the state folder's record gives another", failing: recorded(["a.json": tenant("a"), "b.json": #"{"id": "b", "hosts": ["a.example.com"], "apps": [{"name": "b", "teamID": "TENANT1234", "bundleID": "com.b.video"}], "android": []}"#]),
                     passing: recorded(["a.json": tenant("a"), "b.json": tenant("b")])),
        LintCodeCase(.lh139, "two site files listing one app", failing: siteFiles("sites.d/*.json", ["a.json": tenant("a"), "b.json": #"{"id": "b", "hosts": ["b.example.com"], "apps": [{"name": "b", "teamID": "TENANT1234", "bundleID": "com.a.video"}], "android": []}"#]),
                     passing: siteFiles("sites.d/*.json", ["a.json": tenant("a"), "b.json": tenant("b")])),
        LintCodeCase(.lh139, "a site file listing the top level's app", failing: siteFiles("sites.d/*.json", ["a.json": #"{"id": "a", "hosts": ["a.example.com"], "apps": [{"name": "a", "teamID": "QRSTU67890", "bundleID": "com.acme.video"}], "android": []}"#]),
                     passing: siteFiles("sites.d/*.json", ["a.json": tenant("a")])),
        LintCodeCase(.lh140, "two site files with one id, and no record of who held it", failing: siteFiles("sites.d/*.json", ["a.json": tenant("a"), "b.json": #"{"id": "a", "hosts": ["b.example.com"], "apps": [{"name": "b", "teamID": "TENANT1234", "bundleID": "com.b.video"}], "android": []}"#]),
                     passing: siteFiles("sites.d/*.json", ["a.json": tenant("a"), "b.json": tenant("b")])),
        LintCodeCase(.lh141, "a state folder whose record linkhost did not write", failing: recorded(["a.json": tenant("a")], record: "not a record"),
                     passing: recorded(["a.json": tenant("a")])),
        LintCodeCase(.lh133, "a site file with an error inside", failing: siteFiles("sites.d/*.json", ["a.json": tenant("a"), "b.json": tenant("b", teamID: "bad")]),
                     passing: siteFiles("sites.d/*.json", ["a.json": tenant("a"), "b.json": tenant("b", teamID: "BBBBB12345")])),
        LintCodeCase(.lh134, "a site file's template outside its folder",
                     failing: siteFiles("sites.d/*.json", ["a.json": tenant("a", members: #", "callLinks": {"template": "../../call.html"}"#)]),
                     passing: siteFiles("sites.d/*.json", ["a.json": tenant("a", members: #", "callLinks": {"template": "call.html"}"#), "a/call.html": LintFixtures.files["call.html"]!])),
        LintCodeCase(.lh135, "static files over server.staticFilesBytes", failing: .config(["server": #"{"staticFilesBytes": 10}"#]), passing: .config(["server": #"{"staticFilesBytes": 100000}"#])),
        LintCodeCase(.lh136, "a static acme-challenge folder", failing: .config([:], files: ["public/.well-known/acme-challenge/token": "token.thumbprint"]),
                     passing: .config([:], files: ["public/.well-known/security.txt": "Contact: x"])),
        LintCodeCase(.lh137, "a site file's wildcard over a public suffix",
                     failing: siteFiles("sites.d/*.json", ["a.json": tenant("a").replacing("a.example.com", with: "*.co.uk"), LintFixtures.publicSuffixFile: LintFixtures.publicSuffixes]),
                     passing: siteFiles("sites.d/*.json", ["a.json": tenant("a", host: "*.calls.a"), LintFixtures.publicSuffixFile: LintFixtures.publicSuffixes])),
        LintCodeCase(.lh606, "template without the elements call.js uses", failing: .config([:], files: ["call.html": "<!doctype html><title>call</title>\n"]),
                     passing: base),
        LintCodeCase(.lh601, "locale file not named after a tag", failing: locales(["en": #"{"heading": "Join"}"#, "english": #"{"heading": "Join"}"#]), passing: locales(["en": #"{"heading": "Join"}"#, "pt-BR": #"{"heading": "Entrar"}"#])),
        LintCodeCase(.lh601, "no file for the default locale", failing: locales(["de": #"{"heading": "Beitreten"}"#]), passing: locales(["en": #"{"heading": "Join"}"#, "de": #"{"heading": "Beitreten"}"#])),
        LintCodeCase(.lh602, "string the template does not use", failing: locales(["en": #"{"heading": "Join", "headng": "Join"}"#]), passing: locales(["en": #"{"heading": "Join"}"#])),
        LintCodeCase(.lh603, "locale lacks a string", failing: locales(["en": #"{"heading": "Join"}"#, "de": "{}"]), passing: locales(["en": #"{"heading": "Join"}"#, "de": #"{"heading": "Beitreten"}"#])),
        LintCodeCase(.lh604, "default locale lacks a used string", failing: locales(["en": #"{"heading": "Join"}"#], template: "<!doctype html><title>{{t.heading}}</title><p>{{t.lead}}</p>"), passing: locales(["en": #"{"heading": "Join", "lead": "Open it"}"#], template: "<!doctype html><title>{{t.heading}}</title><p>{{t.lead}}</p>")),
        LintCodeCase(.lh605, "string with an unknown placeholder", failing: locales(["en": #"{"heading": "Join {name}"}"#]), passing: locales(["en": #"{"heading": "Join {appName}"}"#])),
        LintCodeCase(.lh605, "string that is not text", failing: locales(["en": #"{"heading": 7}"#]), passing: locales(["en": #"{"heading": "7"}"#])),
        LintCodeCase(.lh201, "rule after a broader one", failing: rules(#"[{"path": "/call/*"}, {"path": "/call/admin", "exclude": true}]"#), passing: rules(#"[{"path": "/call/admin", "exclude": true}, {"path": "/call/*"}]"#)),
        LintCodeCase(.lh201, "AASA rule after a catch-all query", failing: components(#"[{"/": "/call/*"}, {"/": "/call/*", "?": {"type": "video"}}]"#), passing: components(#"[{"/": "/call/*", "?": {"type": "video"}}, {"/": "/call/*"}]"#)),
        LintCodeCase(.lh202, "case-insensitive rule after a case-sensitive one", failing: components(#"[{"/": "/call/a*"}, {"/": "/call/a*", "caseSensitive": false}]"#), passing: components(#"[{"/": "/call/a*"}, {"/": "/call/b*", "caseSensitive": false}]"#)),
        LintCodeCase(.lh203, "exclude everything first", failing: components(#"[{"/": "*", "exclude": true}, {"/": "/call/*"}]"#), passing: components(#"[{"/": "/call/*"}, {"/": "*", "exclude": true}]"#)),
        LintCodeCase(.lh204, "undefined variable", failing: rules(#"[{"path": "/call/$(callid)*"}]"#), passing: rules(#"[{"path": "/call/$(alnum)*"}]"#)),
        LintCodeCase(.lh205, "unclosed variable", failing: components(#"[{"/": "/call/$(digit*"}]"#), passing: components(#"[{"/": "/call/$(digit)*"}]"#)),
        LintCodeCase(.lh206, "config variable name", failing: .config(["aasa.substitutionVariables": #"{"my-ids": ["a*"]}"#]), passing: .config(["aasa.substitutionVariables": #"{"ids": ["a*"]}"#, "aasa.rules": #"[{"path": "/call/$(ids)"}, {"path": "/call/*"}]"#])),
        LintCodeCase(.lh206, "AASA empty variable", failing: applinks(#""substitutionVariables": {"ids": []}"#, components: #"[{"/": "/call/$(ids)"}]"#), passing: applinks(#""substitutionVariables": {"ids": ["a*"]}"#, components: #"[{"/": "/call/$(ids)"}]"#)),
        LintCodeCase(.lh207, "unused variable", failing: applinks(#""substitutionVariables": {"ids": ["a*"]}"#), passing: applinks(#""substitutionVariables": {"ids": ["a*"]}"#, components: #"[{"/": "/call/$(ids)"}]"#)),
        LintCodeCase(.lh208, "config without rules", failing: rules("[]"), passing: base),
        LintCodeCase(.lh208, "AASA detail without rules", failing: .aasa(#"{"applinks": {"details": [{"appIDs": ["QRSTU67890.com.acme.video"]}]}}"#), passing: .aasa(LintFixtures.aasa)),
        LintCodeCase(.lh209, "config empty pattern", failing: rules(#"[{"path": "/call/*", "fragment": ""}]"#), passing: rules(#"[{"path": "/call/*", "fragment": "*"}]"#)),
        LintCodeCase(.lh209, "AASA path with a host", failing: components(#"[{"/": "https://links.example.com/call/*"}]"#), passing: .aasa(LintFixtures.aasa)),
        LintCodeCase(.lh209, "AASA query pasted with its ?", failing: components(#"[{"/": "/call/*", "?": "?type=video"}]"#), passing: components(#"[{"/": "/call/*", "?": "?*"}]"#)),
        LintCodeCase(.lh209, "AASA query in a path pattern", failing: components(#"[{"/": "/call/*?type=video"}]"#), passing: components(#"[{"/": "/call/*", "?": {"type": "video"}}]"#)),
        LintCodeCase(.lh301, "call links not matched", failing: rules(#"[{"path": "/meet/*"}]"#), passing: rules(#"[{"path": "/call/*"}]"#)),
        LintCodeCase(.lh301, "call links excluded by type", failing: rules(#"[{"path": "/call/*", "query": {"type": "default"}, "exclude": true}, {"path": "/call/*"}]"#), passing: rules(#"[{"path": "/call/*", "query": {"type": "webinar"}, "exclude": true}, {"path": "/call/*"}]"#)),
        LintCodeCase(.lh302, "association files matched", failing: rules(#"[{"path": "/call/*"}, {"path": "/.well-known/*"}]"#), passing: rules(#"[{"path": "/call/*"}, {"path": "/join/*"}]"#)),
        LintCodeCase(.lh303, "home page matched", failing: rules(#"[{"path": "/call/*"}, {"path": "/"}]"#), passing: base),
        LintCodeCase(.lh304, "static file matched", failing: rules(#"[{"path": "/call/*"}, {"path": "/*.css"}]"#), passing: rules(#"[{"path": "/call/*"}, {"path": "/*.pdf"}]"#)),
        LintCodeCase(.lh306, "a site's template inside another site's static folder",
                     failing: .config(["static.root": #""public""#, "sites": #"[{"hosts": ["b.example.com"], "static": {"root": "docs"}, "callLinks": {"paths": ["call"], "template": "public/call.html", "locales": "public/locales"}}]"#]),
                     passing: .config(["static.root": #""public""#, "sites": #"[{"hosts": ["b.example.com"], "static": {"root": "docs"}}]"#])),
        LintCodeCase(.lh307, "a rule that opens a second segment no template accepts",
                     failing: rules(#"[{"path": "/call/?*"}]"#),
                     passing: rules(#"[{"path": "/call/*/?*", "exclude": true}, {"path": "/call/?*"}]"#)),
        LintCodeCase(.lh307, "a rule without the query item that carries the ID",
                     failing: .config(["callLinks.paths": nil, "callLinks.links": #"["/join?call_id={callId}"]"#, "aasa.rules": #"[{"path": "/join"}]"#]),
                     passing: .config(["callLinks.paths": nil, "callLinks.links": #"["/join?call_id={callId}"]"#, "aasa.rules": #"[{"path": "/join", "query": {"call_id": "?*"}}]"#])),
        LintCodeCase(.lh305, "static file at a generated path", failing: .config([:], files: ["public/.well-known/assetlinks.json": "[]"]), passing: .config([:], files: ["public/.well-known/security.txt": "Contact: x"])),
        LintCodeCase(.lh310, "a top-level /.well-known/ file while the config has sites",
                     failing: .config(["sites": #"[{"hosts": ["b.example.com"]}]"#], files: ["public/.well-known/security.txt": "Contact: x"]),
                     passing: .config([:], files: ["public/.well-known/security.txt": "Contact: x"])),
        LintCodeCase(.lh401, "config package name", failing: .config(["android.0.packageName": #""1example""#]), passing: base),
        LintCodeCase(.lh401, "assetlinks package name", failing: .assetlinks(LintFixtures.assetlinks.replacing("\"com.acme.video\"", with: "\"com example\"")), passing: .assetlinks(LintFixtures.assetlinks)),
        LintCodeCase(.lh402, "config fingerprint", failing: .config(["android.0.sha256CertFingerprints": #"["14:6D:E9"]"#]), passing: base),
        LintCodeCase(.lh402, "assetlinks fingerprint", failing: .assetlinks(LintFixtures.assetlinks.replacing(fingerprint, with: "SHA256:abc")), passing: .assetlinks(LintFixtures.assetlinks)),
        LintCodeCase(.lh403, "config single fingerprint", failing: .config(["android.0.sha256CertFingerprints": "[\"\(fingerprint)\"]"]), passing: base),
        LintCodeCase(.lh403, "assetlinks single fingerprint", failing: .assetlinks(LintFixtures.assetlinks.replacing("\"\(fingerprint)\", ", with: "")), passing: .assetlinks(LintFixtures.assetlinks)),
        LintCodeCase(.lh404, "config fingerprint twice", failing: .config(["android.0.sha256CertFingerprints": "[\"\(fingerprint)\", \"\(fingerprint.lowercased())\"]"]), passing: base),
        LintCodeCase(.lh404, "assetlinks fingerprint twice", failing: .assetlinks(LintFixtures.assetlinks.replacing(other, with: fingerprint.lowercased())), passing: .assetlinks(LintFixtures.assetlinks)),
        LintCodeCase(.lh405, "assetlinks statement without target", failing: .assetlinks(#"[{"relation": ["delegate_permission/common.handle_all_urls"]}]"#), passing: .assetlinks(LintFixtures.assetlinks)),
        LintCodeCase(.lh405, "assetlinks granting no App Links", failing: .assetlinks(LintFixtures.assetlinks.replacing("common.handle_all_urls", with: "common.get_login_creds")), passing: .assetlinks(LintFixtures.assetlinks)),
        LintCodeCase(.lh406, "assetlinks dynamic rules empty", failing: .assetlinks(LintFixtures.assetlinks(dynamicRules: "[]")), passing: .assetlinks(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/*"}]"#))),
        LintCodeCase(.lh406, "assetlinks dynamic rule with an undocumented key", failing: .assetlinks(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/*", "caseSensitive": false}]"#)), passing: .assetlinks(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/*"}]"#))),
        LintCodeCase(.lh409, "assetlinks statement with a null Android's JsonParser refuses", failing: .assetlinks(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/*", "comments": null}]"#)), passing: .assetlinks(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/*", "comments": "calls"}]"#))),
        LintCodeCase(.lh409, "assetlinks exclusion written as a string", failing: .assetlinks(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/admin", "exclude": "true"}, {"/": "/call/*"}]"#)), passing: .assetlinks(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/admin", "exclude": true}, {"/": "/call/*"}]"#))),
        LintCodeCase(.lh409, "assetlinks second statement for the same app", failing: .assetlinks(LintFixtures.assetlinks.replacing("}}]", with: "}}, " + LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/*"}]"#).dropFirst())), passing: .assetlinks(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/*"}]"#))),
        LintCodeCase(.lh407, "config rule Android reads case-sensitively", failing: rules(#"[{"path": "/call/?*", "caseSensitive": false}]"#), passing: rules(#"[{"path": "/call/?*"}]"#)),
        LintCodeCase(.lh407, "config rule with a whole-query pattern", failing: rules(#"[{"path": "/call/?*", "query": "type=*"}, {"path": "/call/?*"}]"#), passing: rules(#"[{"path": "/call/?*", "query": {"type": "*"}}, {"path": "/call/?*"}]"#)),
        LintCodeCase(.lh408, "exclusion Android's lazy * does not reach", failing: rules(#"[{"path": "/call/*/admin", "exclude": true}, {"path": "/call/?*"}]"#), passing: rules(#"[{"path": "/call/admin/*", "exclude": true}, {"path": "/call/?*"}]"#)),
        LintCodeCase(.lh501, "unreachable", failing: .deployment(["GET /.well-known/apple-app-site-association": .failure(FetchError(kind: .connect, message: "refused"))]), passing: .deployment([:])),
        LintCodeCase(.lh502, "untrusted certificate", failing: .deployment(["GET /.well-known/apple-app-site-association": .failure(FetchError(kind: .certificate, message: "not trusted"))]), passing: .deployment([:])),
        LintCodeCase(.lh503, "redirect", failing: .deployment(["GET /.well-known/apple-app-site-association": .response(FetchedResponse(status: 301, headers: [HTTPHeader("Location", "https://www.example.com/.well-known/apple-app-site-association")]))]), passing: .deployment([:])),
        LintCodeCase(.lh504, "server error", failing: .deployment(["GET /.well-known/assetlinks.json": .response(FetchedResponse(status: 500, reason: "Internal Server Error"))]), passing: .deployment([:])),
        LintCodeCase(.lh505, "text/plain", failing: .deployment(["GET /.well-known/apple-app-site-association": .ok(LintFixtures.aasa, type: "text/plain"), "HEAD /.well-known/apple-app-site-association": .head(LintFixtures.aasa, type: "text/plain")]), passing: .deployment(["GET /.well-known/apple-app-site-association": .ok(LintFixtures.aasa, type: "application/json; charset=utf-8"), "HEAD /.well-known/apple-app-site-association": .head(LintFixtures.aasa, type: "application/json; charset=utf-8")])),
        LintCodeCase(.lh506, "root copy differs", failing: .deployment(["GET /apple-app-site-association": .ok("{}")]), passing: .deployment(["GET /apple-app-site-association": .response(FetchedResponse(status: 404))])),
        LintCodeCase(.lh507, "HEAD disagrees", failing: .deployment(["HEAD /.well-known/assetlinks.json": .head("[]")]), passing: .deployment([:])),
        LintCodeCase(.lh508, "CDN copy differs", failing: .deployment(["CDN": .ok("{}")], cdn: true), passing: .deployment([:], cdn: true)),
        LintCodeCase(.lh509, "CDN failure reason", failing: .deployment(["CDN": .response(FetchedResponse(status: 404, headers: [HTTPHeader("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response"), HTTPHeader("Apple-Failure-Details", "404")]))], cdn: true), passing: .deployment([:], cdn: true)),
        LintCodeCase(.lh511, "served AASA is not the config's", failing: .deployment([:], expectedAASA: LintFixtures.aasa + " "), passing: .deployment([:], expectedAASA: LintFixtures.aasa)),
        LintCodeCase(.lh512, "certificate expiring in 3 days", failing: .deployment(["GET /.well-known/apple-app-site-association": .certified(LintFixtures.aasa)], now: LintFixtures.certificateNotAfter - 3 * 86_400), passing: .deployment(["GET /.well-known/apple-app-site-association": .certified(LintFixtures.aasa)], now: LintFixtures.certificateNotAfter - 30 * 86_400)),
        LintCodeCase(.lh701, "entitlements not well-formed", failing: .entitlements("<plist version=\"1.0\"><dict>"), passing: .entitlements(LintFixtures.entitlements)),
        LintCodeCase(.lh701, "manifest defining entities", failing: .androidManifest(LintFixtures.androidManifest.replacing("<manifest ", with: "<!DOCTYPE manifest [<!ENTITY h \"links.example.com\">]>\n<manifest ")), passing: .androidManifest(LintFixtures.androidManifest)),
        LintCodeCase(.lh701, "entitlements entry with an unknown service", failing: .entitlements(LintFixtures.entitlements.replacing("<string>applinks:links.example.com</string>", with: "<string>applinks:links.example.com</string><string>applink:links.example.com</string>")), passing: .entitlements(LintFixtures.entitlements)),
        LintCodeCase(.lh702, "entitlements without the served host", failing: .entitlements(LintFixtures.entitlements.replacing("applinks:links.example.com", with: "applinks:www.example.com")), passing: .entitlements(LintFixtures.entitlements.replacing("applinks:links.example.com", with: "applinks:*.example.com"))),
        LintCodeCase(.lh703, "entitlements with a host no site serves", failing: .entitlements(LintFixtures.entitlements.replacing("</array>", with: "<string>applinks:old.example.com</string></array>")), passing: .entitlements(LintFixtures.entitlements)),
        LintCodeCase(.lh704, "manifest claiming another path", failing: .androidManifest(LintFixtures.androidManifest.replacing("/call/", with: "/meet/")), passing: .androidManifest(LintFixtures.androidManifest.replacing("android:pathPrefix=\"/call/\"", with: "android:pathPattern=\"/call/..*\""))),
        LintCodeCase(.lh704, "manifest filter without autoVerify", failing: .androidManifest(LintFixtures.androidManifest.replacing(" android:autoVerify=\"true\"", with: "")), passing: .androidManifest(LintFixtures.androidManifest)),
        LintCodeCase(.lh705, "manifest claiming a host no site serves", failing: .androidManifest(LintFixtures.androidManifest.replacing("<data android:scheme", with: "<data android:host=\"old.example.com\" />\n<data android:scheme")), passing: .androidManifest(LintFixtures.androidManifest)),
        LintCodeCase(.lh707, "manifest without the page's scheme", failing: .androidManifest(LintFixtures.androidManifest.replacing("android:scheme=\"examplevideo\"", with: "android:scheme=\"othervideo\"")), passing: .androidManifest(LintFixtures.androidManifest)),
        LintCodeCase(.lh707, "Info.plist without the page's scheme", failing: .infoPlist(LintFixtures.infoPlist.replacing("ExampleVideo", with: "other")), passing: .infoPlist(LintFixtures.infoPlist)),
        LintCodeCase(.lh713, "App Clip bundle ID malformed", failing: .config(["apps.0.appClipBundleID": #""com.acme.video..Clip""#]), passing: .config(["apps.0.appClipBundleID": #""com.acme.video.Clip""#, "apps.0.appStoreID": #""1234567890""#])),
        LintCodeCase(.lh714, "App Clip of another team", failing: .config(["apps.0.appClipBundleID": #""ABCDE12345.com.acme.video.Clip""#]), passing: .config(["apps.0.appClipBundleID": #""QRSTU67890.com.acme.video.Clip""#, "apps.0.appStoreID": #""1234567890""#])),
        LintCodeCase(.lh715, "App Clip not prefixed by the app's bundle ID", failing: .config(["apps.0.appClipBundleID": #""com.acme.videoclip""#]), passing: .config(["apps.0.appClipBundleID": #""com.acme.video.clip""#, "apps.0.appStoreID": #""1234567890""#])),
        LintCodeCase(.lh716, "App Clip without the app's App Store ID", failing: .config(["apps.0.appClipBundleID": #""com.acme.video.Clip""#, "apps.0.appStoreID": nil]), passing: .config(["apps.0.appClipBundleID": #""com.acme.video.Clip""#])),
        LintCodeCase(.lh709, "manifest of another package than --app", failing: .androidManifest(LintFixtures.androidManifest.replacing(#"package="com.acme.video""#, with: #"package="com.acme.vidoe""#), app: "com.acme.video"),
                     passing: .androidManifest(LintFixtures.androidManifest, app: "com.acme.video")),
        LintCodeCase(.lh717, "App Clip entitlements without the parent app", failing: .appClipEntitlements(LintFixtures.clipEntitlements.replacing("<key>com.apple.developer.parent-application-identifiers</key>", with: "<key>com.example.unrelated</key>")), passing: .appClipEntitlements(LintFixtures.clipEntitlements)),
        LintCodeCase(.lh718, "App Clip entitlements naming another app as parent", failing: .appClipEntitlements(LintFixtures.clipEntitlements.replacing("<string>QRSTU67890.com.acme.video</string>", with: "<string>A1B2C3D4E5.com.other.app</string>")), passing: .appClipEntitlements(LintFixtures.clipEntitlements.replacing("<string>QRSTU67890.com.acme.video</string>", with: "<string>$(AppIdentifierPrefix)com.acme.video</string>"))),
        LintCodeCase(.lh719, "app entitlements naming a parent app", failing: .entitlements(LintFixtures.entitlements.replacing("</dict>", with: "<key>com.apple.developer.parent-application-identifiers</key><array><string>QRSTU67890.com.acme.video</string></array></dict>")), passing: .entitlements(LintFixtures.entitlements)),
        LintCodeCase(.lh708, "manifest claiming one host twice alike", failing: .androidManifest(LintFixtures.androidManifest.replacing("<intent-filter>", with: duplicateFilter + "\n          <intent-filter>")), passing: .androidManifest(LintFixtures.androidManifest)),
        LintCodeCase(.lh706, "entitlements in developer mode", failing: .entitlements(LintFixtures.entitlements.replacing("applinks:links.example.com", with: "applinks:links.example.com?mode=developer")), passing: .entitlements(LintFixtures.entitlements)),
        LintCodeCase(.lh513, "served AASA opens another app than the config's",
                     failing: .deployment(["GET /.well-known/apple-app-site-association": .ok(LintFixtures.aasa.replacing(LintFixtures.appID, with: LintFixtures.appID + "e")),
                                           "HEAD /.well-known/apple-app-site-association": .head(LintFixtures.aasa.replacing(LintFixtures.appID, with: LintFixtures.appID + "e"))], expectingApps: true),
                     passing: .deployment([:], expectingApps: true)),
        LintCodeCase(.lh514, "served assetlinks misses a fingerprint of the config's",
                     failing: .deployment(["GET /.well-known/assetlinks.json": .ok(LintFixtures.assetlinks.replacing(", \"\(LintFixtures.fingerprints[1])\"", with: "")),
                                           "HEAD /.well-known/assetlinks.json": .head(LintFixtures.assetlinks.replacing(", \"\(LintFixtures.fingerprints[1])\"", with: ""))], expectingApps: true),
                     passing: .deployment([:], expectingApps: true)),
        LintCodeCase(.lh515, "served dynamic rules keep the config's call links out of its Android app",
                     failing: .deployment(["GET /.well-known/assetlinks.json": .ok(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/*", "exclude": true}, {"/": "*"}]"#)),
                                           "HEAD /.well-known/assetlinks.json": .head(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/*", "exclude": true}, {"/": "*"}]"#))], expectingApps: true),
                     passing: .deployment(["GET /.well-known/assetlinks.json": .ok(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/admin", "exclude": true}, {"/": "*"}]"#)),
                                           "HEAD /.well-known/assetlinks.json": .head(LintFixtures.assetlinks(dynamicRules: #"[{"/": "/call/admin", "exclude": true}, {"/": "*"}]"#))], expectingApps: true)),
        LintCodeCase(.lh516, "served AASA without the config's App Clip",
                     failing: .deployment([:], expectingApps: true, appClip: "com.acme.video.Clip"),
                     passing: .deployment(["GET /.well-known/apple-app-site-association": .ok(LintFixtures.aasaWithClip), "HEAD /.well-known/apple-app-site-association": .head(LintFixtures.aasaWithClip),
                                           "GET /apple-app-site-association": .ok(LintFixtures.aasaWithClip)], expectingApps: true, appClip: "com.acme.video.Clip")),
        LintCodeCase(.lh510, "no assetlinks", failing: .deployment(["GET /.well-known/assetlinks.json": .response(FetchedResponse(status: 404))]), passing: .deployment([:])),
    ]
}

extension LintInput {
    /// The same AASA input with the app ID replaced.
    func replacingAppID(_ appID: String) -> LintInput {
        guard case .aasa(let text) = self else { return self }
        return .aasa(text.replacing(LintFixtures.appID, with: appID))
    }
}
