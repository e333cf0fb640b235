import Foundation
import Testing

/// Issue 39, item 1 over the real binary: a site file names only its own files. Every path it writes is read
/// in the folder beside it (`sites.d/globex/` for `sites.d/globex.json`); a path that leads anywhere else fails
/// that site alone (LH134), on stderr and in `validate`, while every other tenant serves.
@Suite("Tenant paths", .timeLimit(.minutes(3)))
struct TenantPathsTests {
    /// What the planted private files hold: it must never be served.
    static let secret = "TENANT-PATH-SECRET-5d1e"

    /// One tenant's site file: host `<id>.example`, an app whose Team ID is the id's first letter ten times,
    /// and `members` (JSON text starting with a comma) after.
    static func tenant(_ id: String, _ members: String = "") -> String {
        let team = String(repeating: id.prefix(1).uppercased(), count: 10)
        return #"{"id": "\#(id)", "hosts": ["\#(id).example"], "apps": [{"name": "\#(id)", "teamID": "\#(team)", "bundleID": "com.\#(id).app"}], "android": []\#(members)}"#
    }

    /// A config reading `sites.d/*.json` with strict hosts; `files` are written under the fixture.
    static func fixture(_ files: [String: String]) throws -> SiteFixture {
        var config = TestConfig()
        config.extra = ["siteFiles": "sites.d/*.json"]
        config.serverExtra = ["strictHosts": true]
        let site = try SiteFixture(config)
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: site.directory + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try site.write(text, to: path)
        }
        return site
    }

    /// The escapes of the issue, one file each, and Globex, a tenant whose own files serve. The state folder
    /// is the default `state/acme` in the server's working directory; `tls/key.pem` stands for a TLS key.
    static func escapes() throws -> SiteFixture {
        let site = try fixture([
            "state/acme/account.key.pem": secret + " account key\n",
            "tls/key.pem": secret + " tls key\n",
            "sites.d/globex.json": tenant("globex", #", "callLinks": {"template": "call.html"}, "static": {"root": "static"}"#),
            "sites.d/globex/static/globex.txt": "GLOBEX-OWN-FILE\n",
            "sites.d/absolute.json": tenant("absolute", #", "callLinks": {"template": "TLSKEY"}"#),
            "sites.d/dotdot.json": tenant("dotdot", #", "static": {"root": "../globex/static"}"#),
            "sites.d/state.json": tenant("state", #", "static": {"root": "STATE"}"#),
            "sites.d/linked.json": tenant("linked", #", "callLinks": {"template": "page.html"}, "static": {"root": "keys"}"#),
            "sites.d/neighbour.json": tenant("neighbour", #", "static": {"root": "other"}"#),
        ])
        let manager = FileManager.default
        try manager.copyItem(atPath: site.publicPath + "/call.html", toPath: site.directory + "/sites.d/globex/call.html")
        // The absolute paths are the fixture's own.
        for (file, placeholder, path) in [("absolute", "TLSKEY", "/tls/key.pem"), ("state", "STATE", "/state/acme")] {
            let text = try String(contentsOfFile: site.directory + "/sites.d/\(file).json", encoding: .utf8)
            try site.write(text.replacingOccurrences(of: placeholder, with: site.directory + path), to: "sites.d/\(file).json")
        }
        // Links inside a tenant's folder that lead out of it: to the state folder, the TLS key, another tenant's folder.
        try manager.createDirectory(atPath: site.directory + "/sites.d/linked", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: site.directory + "/sites.d/linked/keys", withDestinationPath: site.directory + "/state/acme")
        try manager.createSymbolicLink(atPath: site.directory + "/sites.d/linked/page.html", withDestinationPath: site.directory + "/tls/key.pem")
        try manager.createDirectory(atPath: site.directory + "/sites.d/neighbour", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: site.directory + "/sites.d/neighbour/other", withDestinationPath: "../globex/static")
        return site
    }

    /// Each failing file, and a key it must be named by.
    static let refused: [(id: String, key: String)] = [
        ("absolute", "callLinks.template"), ("dotdot", "static.root"), ("state", "static.root"),
        ("linked", "callLinks.template"), ("linked", "static.root"), ("neighbour", "static.root"),
    ]

    @Test("absolute, .., another tenant's folder, the state folder and the TLS key publish nothing; each fails alone, named on stderr and by validate (exit 2), while Globex serves its own files")
    func escapesPublishNothing() async throws {
        let site = try Self.escapes()
        let server = try await LinkHostProcess.start(site)
        let globex = [("Host", "globex.example")]
        let aasa = try await server.request("GET", "/.well-known/apple-app-site-association", headers: globex)
        #expect(aasa.status == 200 && aasaAppIDs(parseJSON(aasa.body)) == ["GGGGGGGGGG.com.globex.app"], "\(aasa)")
        #expect(try await server.request("GET", "/globex.txt", headers: globex).text == "GLOBEX-OWN-FILE\n")
        let page = try await server.request("GET", "/call/abc", headers: globex)
        #expect(page.status == 200 && page.text.contains("globex"), "\(page.status)")
        #expect(try await server.request("GET", "/call.html", headers: globex).status == 404, "its own template is a source, not a page")

        for id in Set(Self.refused.map(\.id)) {
            let host = [("Host", "\(id).example")]
            for path in ["/.well-known/apple-app-site-association", "/call/abc", "/account.key.pem", "/globex.txt", "/key.pem"] {
                let answer = try await server.request("GET", path, headers: host)
                #expect(answer.status == 404 && !answer.text.contains(Self.secret) && !answer.text.contains("GLOBEX-OWN"), "\(id) \(path): \(answer)")
            }
            #expect(server.stderr.contains("site \"\(id)\" (sites.d/\(id).json): LH133") && server.stderr.contains("LH134"), "\(id): \(server.stderr)")
        }
        let validate = try await LinkHostCLI.run(["validate", "--config", site.configPath], directory: site.directory)
        #expect(validate.status == 2, "\(validate)")
        let lines = validate.stderr.split(separator: "\n")
        for (id, key) in Self.refused {
            // One line per site, or one for the sites of the same problem at the same key.
            let named = lines.contains { $0.contains("LH134 site \"\(id)\" (sites[\(id).json]) \(key)") }
                || lines.contains { $0.contains("LH134 in ") && $0.contains(", at sites[N].\(key);") && $0.contains(id) }
            #expect(named, "\(id) \(key): \(validate.stderr)")
            #expect(lines.contains { $0.contains("LH133 site \"\(id)\" (sites[\(id).json])") }, "\(id)")
        }
        #expect(!validate.stderr.contains("LH134 site \"globex\""), "\(validate.stderr)")
    }

    @Test("a site file that names no paths still inherits the top level's template, locales and static folder")
    func inheritsWithoutPaths() async throws {
        let site = try Self.fixture(["sites.d/plain.json": Self.tenant("plain")])
        let server = try await InProcessServer.start(site)
        let plain = [("Host", "plain.example")]
        #expect(try await server.request("GET", "/style.css", headers: plain).text == "body { color: #123456 }\n")
        let page = try await server.request("GET", "/call/abc", headers: plain)
        #expect(page.status == 200 && page.text.contains("plain"), "\(page.status)")
    }

    @Test("R5 across tenants: a tenant's template naming a file in another tenant's folder hides nothing there")
    func templateHidesNothingAcrossTenants() async throws {
        // On main the template could name ../globex/static/logo.svg, and Globex lost its logo; now that path is
        // refused (LH134) and Globex keeps serving it.
        let site = try Self.fixture([
            "sites.d/globex.json": Self.tenant("globex", #", "static": {"root": "static"}"#),
            "sites.d/globex/static/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n",
            "sites.d/initech.json": Self.tenant("initech", #", "callLinks": {"template": "../globex/static/logo.svg"}"#),
        ])
        let server = try await LinkHostProcess.start(site)
        let logo = try await server.request("GET", "/logo.svg", headers: [("Host", "globex.example")])
        #expect(logo.status == 200 && logo.text.contains("<svg"), "\(logo)")
        #expect(server.stderr.contains("site \"initech\" (sites.d/initech.json): LH133"), "\(server.stderr)")
    }

    @Test("a tenant's own template in its own static folder is left out of that folder only")
    func ownTemplateHiddenInOwnFolder() async throws {
        let site = try Self.fixture([
            "sites.d/globex.json": Self.tenant("globex", #", "callLinks": {"template": "call.html"}, "static": {"root": "."}"#),
            "sites.d/globex/brand.css": "body { color: #0a0 }\n",
        ])
        try FileManager.default.copyItem(atPath: site.publicPath + "/call.html", toPath: site.directory + "/sites.d/globex/call.html")
        let server = try await InProcessServer.start(site)
        let globex = [("Host", "globex.example")]
        #expect(try await server.request("GET", "/brand.css", headers: globex).status == 200)
        let raw = try await server.request("GET", "/call.html", headers: globex)
        #expect(raw.status == 404 && !raw.text.contains("{{"), "\(raw.status)")
        #expect(try await server.request("GET", "/call/abc", headers: globex).status == 200)
    }
}
