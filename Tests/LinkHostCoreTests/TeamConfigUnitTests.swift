import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// The core of issue 32 without a process: a site's apps as one unit, the hosts each app's files name, and
/// `TeamAnswers` (what `linkhost init` writes).
@Suite("Team config, unit")
struct TeamConfigUnitTests {
    static let top = """
      "apps": [ { "name": "Acme", "teamID": "QRSTU67890", "bundleID": "com.acme.video" } ],
      "android": [ { "packageName": "com.acme.video", "sha256CertFingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"] } ]
    """

    @Test("a site that writes one platform's apps takes neither from the top level; one that writes neither takes both")
    func appsAsUnit() throws {
        let config = try Fixtures.config("""
        { \(Self.top), "sites": [
          { "hosts": ["t.example"], "apps": [ { "name": "T", "teamID": "TENANT1234", "bundleID": "com.tenant.app" } ] },
          { "hosts": ["a.example"], "android": [ { "name": "A", "packageName": "com.a.app", "sha256CertFingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E6"] } ] },
          { "hosts": ["same.example"] } ] }
        """)
        #expect(config.sites[1].android.isEmpty && config.sites[1].appIDs == ["TENANT1234.com.tenant.app"])
        #expect(config.sites[2].apps.isEmpty && config.sites[2].android.map(\.packageName) == ["com.a.app"])
        #expect(config.sites[3].appIDs == ["QRSTU67890.com.acme.video"] && config.sites[3].android.map(\.packageName) == ["com.acme.video"])
        let codes = SiteCoherence.diagnostics(config).map { "\($0.code.rawValue) \($0.path)" }
        #expect(codes == ["LH125 sites[0].android", "LH125 sites[1].apps"], "\(codes)")
    }

    @Test("the top level's open host joins its link host in the served hosts, unless a site lists them: then that site's entry alone names them")
    func servedHosts() throws {
        let alone = try Fixtures.config(#"{ \#(Self.top), "callLinks": { "baseURL": "https://meet.acme.example", "openInAppHost": "open.acme.example" } }"#)
        #expect(ServedHosts(config: alone).entries.map(\.hosts) == [["meet.acme.example", "open.acme.example"]])
        let listed = try Fixtures.config(#"{ \#(Self.top), "callLinks": { "baseURL": "https://meet.acme.example", "openInAppHost": "open.acme.example" }, "sites": [ { "hosts": ["meet.acme.example", "open.acme.example"] } ] }"#)
        #expect(ServedHosts(config: listed).entries.map(\.hosts) == [["meet.acme.example", "open.acme.example"]])
        #expect(SiteCoherence.diagnostics(alone).isEmpty && SiteCoherence.diagnostics(listed).isEmpty)
    }

    @Test("TeamAnswers: the display name from the host, fingerprints normalized, each bad answer naming its option")
    func answers() throws {
        let app = try TeamAnswers.android("com.acme.video=146de983c5730650d8eeb9952f34fc6416a08342e61dbea88a0496b23fcf44e5").get()
        #expect(app.fingerprints == ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"])
        let production = TeamAnswers.Environment(host: "meet.acme-video.com", openHost: "open.acme-video.com", ios: ["com.acme.video"], android: [app])
        let good = TeamAnswers(teamID: "ACME123456", name: nil, production: production, staging: nil, webJoinURL: nil)
        #expect(good.problems().isEmpty && good.displayName == "Acme Video" && good.singleFingerprint(app))
        // init silences no lint code: one fingerprint is written as given, without "lint".
        #expect(!good.text.contains("\"lint\""))
        // A staging app without a store ID of its own links no store; production's App Store ID and clip go to its first app.
        var store = production
        (store.appStoreID, store.appClip) = ("1456789012", "com.acme.video.Clip")
        let staging = TeamAnswers.Environment(host: "staging.acme-video.com", openHost: nil, ios: ["com.acme.video.staging"], android: [app])
        let withStaging = TeamAnswers(teamID: "ACME123456", name: nil, production: store, staging: staging, webJoinURL: nil)
        let config = try Fixtures.config(withStaging.text)
        #expect(withStaging.problems().isEmpty && config.sites[0].apps[0].appStoreID == "1456789012" && config.sites[0].apps[0].appClipBundleID == "com.acme.video.Clip")
        #expect(config.sites[2].apps[0].installPage == InstallPage.none && config.sites[2].android[0].installPage == InstallPage.none)
        var wrongClip = production
        (wrongClip.appStoreID, wrongClip.appClip) = ("12ab", "com.other.Clip")
        let wrong = TeamAnswers(teamID: "ACME123456", name: nil, production: wrongClip, staging: nil, webJoinURL: nil).problems()
        #expect(wrong.contains { $0.hasPrefix("--app-store-id '12ab'") } && wrong.contains { $0.hasPrefix("--app-clip 'com.other.Clip'") }, "\(wrong)")
        let bad = TeamAnswers(teamID: "acme", name: nil, production: TeamAnswers.Environment(host: "meet.acme-video.com", openHost: "meet.acme-video.com", ios: [], android: []),
                              staging: TeamAnswers.Environment(host: "*.staging.example", openHost: nil, ios: ["com.acme.video.staging"], android: []), webJoinURL: "ftp://x")
        let problems = bad.problems()
        for option in ["--team-id", "--web-join", "--open-host", "give the apps", "--staging-host"] {
            #expect(problems.contains { $0.contains(option) }, "no problem names \(option): \(problems)")
        }
        #expect(throws: TeamAnswerError.self) { try TeamAnswers.android("com.acme.video").get() }
    }
}
