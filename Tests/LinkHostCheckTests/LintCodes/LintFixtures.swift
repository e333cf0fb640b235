import Testing
@testable import LinkHostCore
import LinkHostTestSupport
@testable import LinkHostCheck
import LinkHostHTTPClient
import LinkHostJSON

/// One input to lint: a config (the base config with some members replaced), a bare file, or a deployment.
enum LintInput: Sendable {
    /// The base config with members replaced: dotted path (`apps.0.teamID`) → raw JSON, nil removes it.
    case config([String: String?], files: [String: String] = [:])
    /// A config given as raw text (for syntax-level problems).
    case configText(String)
    /// An apple-app-site-association document.
    case aasa(String)
    /// An assetlinks.json document.
    case assetlinks(String)
    /// A deployment: the good canned deployment with some responses replaced, by `METHOD path` (or `CDN`).
    /// With `expectingApps`, `check --config` on the base config: its apps must open and verify (and with
    /// `appClip`, the app's App Clip bundle ID, be listed).
    case deployment([String: CannedResponse], cdn: Bool = false, expectedAASA: String? = nil, now: Int? = nil, expectingApps: Bool = false, appClip: String? = nil)
    /// An iOS app's .entitlements, compared with the base config serving links.example.com.
    case entitlements(String)
    /// An Android app's AndroidManifest.xml, compared with the base config serving links.example.com; with
    /// `app`, as `validate --android-manifest --app PACKAGE` compares it.
    case androidManifest(String, app: String? = nil)
    /// An iOS app's Info.plist, compared with the base config.
    case infoPlist(String)
    /// An App Clip's .entitlements, compared with the base config whose app has the clip `LintFixtures.clipID`.
    case appClipEntitlements(String)
}

/// A canned answer for the fake fetcher: a response, or a transport failure.
enum CannedResponse: Sendable {
    case response(FetchedResponse)
    case failure(FetchError)

    /// A 200 with a content type and a body.
    static func ok(_ body: String, type: String = "application/json") -> CannedResponse {
        .response(FetchedResponse(status: 200, reason: "OK", headers: [HTTPHeader("Content-Type", type), HTTPHeader("Content-Length", "\(body.utf8.count)")], body: Array(body.utf8)))
    }

    /// `ok(body)` over HTTPS with `LintFixtures.certificate` as the server's certificate.
    static func certified(_ body: String) -> CannedResponse {
        .response(FetchedResponse(status: 200, reason: "OK", headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Content-Length", "\(body.utf8.count)")],
                                  body: Array(body.utf8), peerCertificates: Array(LintFixtures.certificate.utf8)))
    }

    /// The HEAD answer matching `ok(body, type:)`.
    static func head(_ body: String, type: String = "application/json") -> CannedResponse {
        .response(FetchedResponse(status: 200, reason: "OK", headers: [HTTPHeader("Content-Type", type), HTTPHeader("Content-Length", "\(body.utf8.count)")]))
    }
}

/// Fixtures of the linter tests: a base config with its files, a base AASA and assetlinks, a good deployment.
enum LintFixtures {
    static let appID = "QRSTU67890.com.acme.video"
    /// A self-signed certificate for links.example.com, valid from 2026-12-01T09:12:04Z to `certificateNotAfter`.
    static let certificate = """
    -----BEGIN CERTIFICATE-----
    MIIBrDCCAVGgAwIBAgIUemfrYrt4b3EtkimxvG/vL4u7bqUwCgYIKoZIzj0EAwIw
    HDEaMBgGA1UEAwwRbGlua3MuZXhhbXBsZS5jb20wHhcNMjYxMjAxMDkxMjA0WhcN
    MjcwMzAxMDkxMjA0WjAcMRowGAYDVQQDDBFsaW5rcy5leGFtcGxlLmNvbTBZMBMG
    ByqGSM49AgEGCCqGSM49AwEHA0IABO1EMVuySWcu46VEUsSZChlO9mTtyfmMNi93
    jQV3sWG183JpXW7amQN2lJr+uJ8FhkaAmtB2oijdDCLWnLnBfiejcTBvMB0GA1Ud
    DgQWBBT7HyZVUoJd/CNwBaI/oPqQ8V1F1zAfBgNVHSMEGDAWgBT7HyZVUoJd/CNw
    BaI/oPqQ8V1F1zAPBgNVHRMBAf8EBTADAQH/MBwGA1UdEQQVMBOCEWxpbmtzLmV4
    YW1wbGUuY29tMAoGCCqGSM49BAMCA0kAMEYCIQCqhPjPkfcoKRUi++eqK0YUH8+H
    eNWP17Cur9aSa17IgQIhAMnpONpjFOd79kM7nBmYmRUhe/X+U34F10mV1aqZ1+oR
    -----END CERTIFICATE-----
"""
    /// The end of `certificate`'s validity, Unix seconds (2027-03-01T09:12:04Z).
    static let certificateNotAfter = 1_803_892_324
    static let fingerprints = [
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5",
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E6",
    ]

    /// A clean AASA: one app, call links only.
    static let aasa = #"{"applinks": {"details": [{"appIDs": ["QRSTU67890.com.acme.video"], "components": [{"/": "/call/*"}]}]}}"#

    /// The clean AASA listing the app's App Clip `com.acme.video.Clip`.
    static let aasaWithClip = #"{"applinks": {"details": [{"appIDs": ["QRSTU67890.com.acme.video"], "components": [{"/": "/call/*"}]}]}, "appclips": {"apps": ["QRSTU67890.com.acme.video.Clip"]}}"#

    /// A clean assetlinks.json: one app with two fingerprints.
    static let assetlinks = """
    [{"relation": ["delegate_permission/common.handle_all_urls"],
      "target": {"namespace": "android_app", "package_name": "com.acme.video",
                 "sha256_cert_fingerprints": ["\(fingerprints[0])", "\(fingerprints[1])"]}}]
    """

    /// The clean assetlinks.json with `components` as its app's dynamic rules.
    static func assetlinks(dynamicRules components: String) -> String {
        assetlinks.replacing("}}]", with: "}, \"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": {\"dynamic_app_link_components\": \(components)}}}]")
    }

    /// The base config; `FOLDER` is replaced by the fixture folder holding the template and `public/`.
    static let config = """
    {
      "server": { "host": "127.0.0.1", "port": 8080 },
      "apps": [ { "name": "Example Video", "teamID": "QRSTU67890", "bundleID": "com.acme.video", "appStoreID": "1234567890", "urlScheme": "examplevideo" } ],
      "android": [ { "packageName": "com.acme.video", "sha256CertFingerprints": ["\(fingerprints[0])", "\(fingerprints[1])"] } ],
      "callLinks": { "paths": ["call"], "template": "FOLDER/call.html", "locales": "FOLDER/locales" },
      "static": { "root": "FOLDER/public" }
    }
    """

    /// A clean .entitlements for the base config on links.example.com, as Xcode writes it.
    static let entitlements = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>com.apple.developer.associated-domains</key>
    \t<array>
    \t\t<string>applinks:links.example.com</string>
    \t</array>
    </dict>
    </plist>
    """

    /// The App Clip of the base config's app, when `appClipConfig` gives it one.
    static let clipID = "QRSTU67890.com.acme.video.Clip"

    /// A clean .entitlements of that clip: its host and its app.
    static let clipEntitlements = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>com.apple.developer.associated-domains</key>
    \t<array><string>appclips:links.example.com</string></array>
    \t<key>com.apple.developer.parent-application-identifiers</key>
    \t<array><string>QRSTU67890.com.acme.video</string></array>
    </dict>
    </plist>
    """

    /// A clean Info.plist for the base config: its scheme registered.
    static let infoPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>CFBundleIdentifier</key><string>com.example.video</string>
    \t<key>CFBundleURLTypes</key>
    \t<array><dict><key>CFBundleURLName</key><string>com.example.video</string>
    \t<key>CFBundleURLSchemes</key><array><string>ExampleVideo</string></array></dict></array>
    </dict>
    </plist>
    """

    /// A clean AndroidManifest.xml for the base config on links.example.com.
    static let androidManifest = """
    <?xml version="1.0" encoding="utf-8"?>
    <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.acme.video">
      <application android:label="Example Video">
        <activity android:name=".CallActivity" android:exported="true">
          <intent-filter android:autoVerify="true">
            <action android:name="android.intent.action.VIEW" />
            <category android:name="android.intent.category.DEFAULT" />
            <category android:name="android.intent.category.BROWSABLE" />
            <data android:scheme="https" android:host="links.example.com" android:pathPrefix="/call/" />
          </intent-filter>
          <intent-filter>
            <action android:name="android.intent.action.VIEW" />
            <category android:name="android.intent.category.DEFAULT" />
            <category android:name="android.intent.category.BROWSABLE" />
            <data android:scheme="examplevideo" />
          </intent-filter>
        </activity>
      </application>
    </manifest>
    """

    /// The base config with the host the app files are compared on.
    static func appConfig(appClip: String? = nil) throws -> Config {
        // The base config's app already has its App Store ID, which a clip's card banner needs (LH716).
        let clip = appClip.map { #""urlScheme": "examplevideo", "appClipBundleID": "\#($0)""# } ?? #""urlScheme": "examplevideo""#
        return try Fixtures.config(config.replacing("FOLDER", with: "/nonexistent").replacing(#""template": "#, with: #""baseURL": "https://links.example.com", "template": "#)
            .replacing(#""urlScheme": "examplevideo""#, with: clip))
    }

    /// Where a case's files put a Public Suffix List of their own (`publicSuffixes`).
    static let publicSuffixFile = "public_suffix_list.dat"
    /// A few rules in the list's format: ICANN and private suffixes, a wildcard, an exception, a Unicode rule.
    static let publicSuffixes = "// ===BEGIN ICANN DOMAINS===\ncom\nuk\nco.uk\n*.ck\n!www.ck\ncn\n公司.cn\n// ===BEGIN PRIVATE DOMAINS===\ngithub.io\n"

    /// `appConfig` with an App Clip for its app (`clipID`).
    static func appClipConfig() throws -> Config {
        try appConfig(appClip: "com.acme.video.Clip")
    }

    /// The files of the base config's folder.
    static let files = [
        // Every element /call.js uses (PageScriptContract), so the base is clean of LH606.
        "call.html": "<!doctype html><title>call</title>" + PageScriptContract.elementIDs.map { "<p id=\"\($0.id)\"></p>" }.joined() + "\n",
        "public/index.html": "<!doctype html><title>home</title>\n",
        "public/style.css": "body {}\n",
    ]

    /// The codes found in `input`, and whether any is an error.
    static func lint(_ input: LintInput) throws -> (codes: [LintCode], hasErrors: Bool, diagnostics: [LintDiagnostic]) {
        switch input {
        case .config(let edits, let extraFiles):
            let folder = try Fixtures.temporaryFolder(files: files.merging(extraFiles) { $1 })
            defer { removeItem(folder) }
            var document = try JSONParser.parse(config.replacing("FOLDER", with: folder))
            for (path, json) in edits.sorted(by: { $0.key < $1.key }) {
                document = Fixtures.replace(document, path: path.split(separator: ".").map(String.init), with: try json.map { try JSONParser.parse($0.replacing("FOLDER", with: folder)) })
            }
            // A fixture's Public Suffix List, when it brings one, rather than the machine's.
            let environment = extraFiles.keys.first { $0.hasSuffix(publicSuffixFile) }.map { [PublicSuffixList.environmentVariable: folder + "/" + $0] } ?? [:]
            // As if the config were a file in the folder: `siteFiles` is read relative to it.
            return summarize(ConfigLinter.lint(bytes: JSONWriter.bytes(document), source: "test", environment: environment,
                                               configPath: folder + "/linkhost.json").report.diagnostics)
        case .configText(let text):
            return summarize(ConfigLinter.lint(bytes: Array(text.utf8), source: "test").report.diagnostics)
        case .aasa(let text):
            return summarize(AASALinter.diagnostics(bytes: Array(text.utf8)))
        case .assetlinks(let text):
            return summarize(AssetLinksLinter.diagnostics(bytes: Array(text.utf8)))
        case .deployment(let overrides, let cdn, let expected, let now, let expectingApps, let appClip):
            return summarize(deployment(overrides, cdn: cdn, expectedAASA: expected, now: now, expectingApps: expectingApps, appClip: appClip).diagnostics)
        case .entitlements(let text):
            return summarize(AppFilesLinter.lint(entitlements: Array(text.utf8), source: "test", config: try appConfig()).diagnostics)
        case .androidManifest(let text, let app):
            let config = try appConfig()
            let served = try app.map { try ServedHosts(config: config).chosen([$0], kind: .android, config: config) }
            return summarize(AppFilesLinter.lint(androidManifest: Array(text.utf8), source: "test", config: config, served: served).diagnostics)
        case .infoPlist(let text):
            return summarize(AppFilesLinter.lint(infoPlist: Array(text.utf8), source: "test", config: try appConfig()).diagnostics)
        case .appClipEntitlements(let text):
            let config = try appClipConfig()
            let served = try ServedHosts(config: config).chosen([clipID], kind: .appClip, config: config)
            return summarize(AppClipEntitlementsLinter.lint(entitlements: Array(text.utf8), source: "test", served: served).diagnostics)
        }
    }

    /// Runs the deployment check against the good canned deployment with `overrides`.
    static func deployment(_ overrides: [String: CannedResponse], cdn: Bool = false, expectedAASA: String? = nil, now: Int? = nil,
                           expectingApps: Bool = false, appClip: String? = nil) -> DeploymentReport {
        var canned: [String: CannedResponse] = [
            "GET /.well-known/apple-app-site-association": .ok(aasa),
            "HEAD /.well-known/apple-app-site-association": .head(aasa),
            "GET /apple-app-site-association": .ok(aasa),
            "GET /.well-known/assetlinks.json": .ok(assetlinks),
            "HEAD /.well-known/assetlinks.json": .head(assetlinks),
            "CDN": .ok(aasa),
        ]
        canned.merge(overrides) { $1 }
        let responses = canned
        var options = DeploymentCheckOptions(origin: FetchOrigin(scheme: "https", host: "links.example.com", port: nil), checkCDN: cdn)
        options.expectedAASA = expectedAASA.map { Array($0.utf8) }
        options.now = now
        if expectingApps, let config = try? appConfig(appClip: appClip) {
            options.expectations = HostExpectations(config: config, host: "links.example.com", origin: "https://links.example.com")
        }
        return DeploymentCheck.run(options) { request in
            let key = request.origin.host == "links.example.com" ? "\(request.method) \(request.path)" : "CDN"
            switch responses[key] {
            case .response(let response)?: return .success(response)
            case .failure(let error)?: return .failure(error)
            case nil: return .success(FetchedResponse(status: 404, reason: "Not Found"))
            }
        }
    }

    private static func summarize(_ diagnostics: [LintDiagnostic]) -> (codes: [LintCode], hasErrors: Bool, diagnostics: [LintDiagnostic]) {
        (diagnostics.map(\.code), diagnostics.contains { $0.severity == .error }, diagnostics)
    }

}
