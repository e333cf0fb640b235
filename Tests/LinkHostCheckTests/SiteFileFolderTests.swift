@testable import LinkHostCore
import LinkHostTestSupport
import LinkHostJSON
import Testing

/// A site file's own folder (issue 39) without a server: the operator's places are refused even when the
/// operator put them in a tenant's folder, a file without an extension or sharing its folder's name has none,
/// and a path the file did not write is the top level's, not held to the folder.
@Suite("Site file folders")
struct SiteFileFolderTests {
    /// The errors of `validate` on the lint fixtures' config with `members` and `files` (paths in the folder),
    /// `FOLDER` in either replaced by the folder.
    static func errors(_ members: String, server: String? = nil, files: [String: String]) throws -> [ConfigDiagnostic] {
        let folder = try Fixtures.temporaryFolder(files: LintFixtures.files)
        defer { removeItem(folder) }
        for (path, text) in files {
            let full = folder + "/" + path
            try createFolder(String(full[..<full.lastIndex(of: "/")!]))
            try writeFile(full, text.replacing("FOLDER", with: folder))
        }
        var text = LintFixtures.config.replacing(#""server": { "host": "127.0.0.1", "port": 8080 }"#, with: #""server": "# + (server ?? "{}")).replacing("FOLDER", with: folder)
        text.insert(contentsOf: "  \(members.replacing("FOLDER", with: folder)),\n", at: text.index(after: text.firstIndex(of: "\n")!))
        try writeFile(folder + "/linkhost.json", text)
        let (config, diagnostics) = ConfigLoader.validate(try JSONParser.parse(Array(text.utf8)), configPath: folder + "/linkhost.json")
        let failures = try #require(config, "\(diagnostics)").siteFileFailures
        return failures.flatMap(\.diagnostics)
    }

    static func tenant(_ id: String, _ members: String = "") -> String {
        #"{"id": "\#(id)", "hosts": ["\#(id).example.com"], "apps": [{"name": "\#(id)", "teamID": "TENANT1234", "bundleID": "com.\#(id).video"}], "android": []\#(members)}"#
    }

    @Test("the operator's TLS key placed in a tenant's folder is refused to that tenant's static folder")
    func operatorPlacesInsideTheFolder() throws {
        let errors = try Self.errors(#""siteFiles": "sites.d/*.json""#, server: #"{"tls": {"certificateFile": "FOLDER/sites.d/a/cert.pem", "privateKeyFile": "FOLDER/sites.d/a/keys/key.pem"}}"#,
                                     files: ["sites.d/a.json": Self.tenant("a", #", "static": {"root": "."}"#), "sites.d/a/keys/key.pem": "KEY\n", "sites.d/a/cert.pem": "CERT\n",
                                             "sites.d/b.json": Self.tenant("b", #", "static": {"root": "static"}"#), "sites.d/b/static/x.txt": "x\n"])
        #expect(errors.count == 1 && errors[0].code == .lh134 && errors[0].path == "sites[a.json].static.root", "\(errors)")
        #expect(errors.first?.message.contains("holds server.tls.privateKeyFile") == true || errors.first?.message.contains("holds server.tls.certificateFile") == true, "\(errors)")
    }

    @Test("a file without an extension, and two files of one name, have no folder: their paths are refused, their other keys are not")
    func filesWithoutAFolder() throws {
        let errors = try Self.errors(#""siteFiles": "sites.d/*""#, files: [
            "sites.d/plain": Self.tenant("plain", #", "callLinks": {"template": "call.html"}"#),
            "sites.d/twin.json": Self.tenant("twin", #", "static": {"root": "static"}"#),
            "sites.d/twin.yaml": Self.tenant("other"),
            "sites.d/fine.json": Self.tenant("fine"),
        ])
        #expect(Set(errors.map(\.path)) == ["sites[plain].callLinks.template", "sites[twin.json].static.root"], "\(errors)")
        #expect(errors.allSatisfy { $0.code == .lh134 })
    }

    @Test("a site file that writes other keys of a section keeps the top level's paths, unconfined")
    func inheritedPathsStayTheTopLevels() throws {
        let errors = try Self.errors(#""siteFiles": "sites.d/*.json""#, files: [
            "sites.d/a.json": Self.tenant("a", #", "callLinks": {"cacheMaxAge": 30}, "static": {"cacheMaxAge": 60}"#),
        ])
        #expect(errors.isEmpty, "\(errors)")
    }
}
