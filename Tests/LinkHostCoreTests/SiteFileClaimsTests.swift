@testable import LinkHostCore
import LinkHostJSON
import Testing

/// `SiteFileClaims` alone: who keeps a host, id or app among site files, the same whatever order the files come in.
@Suite("Site file claims")
struct SiteFileClaimsTests {
    /// The top level every site inherits from: one app of the operator's.
    static func topLevel() throws -> SiteDraft {
        var reader = ConfigReader()
        let object = try #require(try JSONParser.parse(#"{"apps": [{"name": "Op", "teamID": "OPERATOR12", "bundleID": "com.op.app"}]}"#).objectValue)
        return SiteDraft(object, at: "", reader: &reader)
    }

    /// The site of file `name` with `hosts`, id `id` and (when given) an iOS app of its own.
    static func site(_ name: String, id: String, hosts: [String], app: String? = nil) throws -> SiteConfig {
        let apps = app.map { #", "apps": [{"name": "X", "teamID": "TEAMTEAM12", "bundleID": "\#($0)"}], "android": []"# } ?? ""
        let json = #"{"id": "\#(id)", "hosts": [\#(hosts.map { "\"\($0)\"" }.joined(separator: ", "))]\#(apps)}"#
        let (site, found) = SiteFiles.site(Array(json.utf8), name: name, shown: name, topLevel: try topLevel())
        #expect(!found.contains { $0.severity == .error }, "\(found)")
        return try #require(site)
    }

    @Test("incumbents keep what they hold (a broken one too), a dropped host is free, contests fail every claimant, in any order")
    func orderIndependent() throws {
        // The record: a.json held h1 and the id "a"; f.json held h4 and the id "f", and its file is now broken.
        let record: [SiteClaim: String] = [.host("h1.example"): "a.json", .name("a"): "a.json", .host("h4.example"): "f.json", .name("f"): "f.json",
                                           .host("h5.example"): "e5.json", .name("e5"): "e5.json"]
        let files: [SiteFileClaims.File] = [
            .init(name: "a.json", current: try Self.site("a.json", id: "a", hosts: ["h2.example"])),        // drops h1, claims h2 (contested by c)
            .init(name: "0-b.json", current: try Self.site("0-b.json", id: "b", hosts: ["h1.example"])),    // takes a's host: a falls back and holds it
            .init(name: "c.json", current: try Self.site("c.json", id: "c", hosts: ["h2.example"])),        // contests h2 with a
            .init(name: "d.json", current: try Self.site("d.json", id: "d", hosts: ["h3.example"], app: "com.d.app")),
            .init(name: "e.json", current: try Self.site("e.json", id: "e", hosts: ["h6.example"], app: "com.d.app")),  // contests d's app
            .init(name: "f.json", current: nil),
            .init(name: "0-g.json", current: try Self.site("0-g.json", id: "f", hosts: ["h7.example"])),    // the broken incumbent's id
            .init(name: "e5.json", current: try Self.site("e5.json", id: "e5", hosts: ["h8.example"])),     // drops h5 and serves: h5 is free
            .init(name: "h.json", current: try Self.site("h.json", id: "h", hosts: ["h5.example"])),        // takes the freed h5
            .init(name: "i.json", current: try Self.site("i.json", id: "i", hosts: ["h9.example"], app: "com.op.app")),  // the operator's app
        ]
        var claims = SiteFileClaims(operatorHolds: [.iOSApp("OPERATOR12.com.op.app"): "apps[0]", .name("default"): "the top level"], record: record)
        claims.operatorHolds[.iOSApp("TEAMTEAM12.com.op.app")] = "apps[0]"
        let expected = ["a.json": false, "0-b.json": false, "c.json": false, "d.json": false, "e.json": false, "f.json": false,
                        "0-g.json": false, "e5.json": true, "h.json": true, "i.json": false]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<30 {
            let order = round == 0 ? files : files.shuffled(using: &generator)
            let fates = claims.resolve(order)
            let serving = Dictionary(uniqueKeysWithValues: zip(order, fates).map { ($0.name, $1 == .current) })
            #expect(serving == expected, "round \(round): \(order.map(\.name))")
            let reasons = Dictionary(uniqueKeysWithValues: zip(order, fates).map { file, fate in (file.name, fate) })
            if round == 0 {
                func codes(_ name: String) -> [LintCode] {
                    guard case .failed(let found)? = reasons[name] else { return [] }
                    return found.map(\.code)
                }
                #expect(codes("0-b.json") == [.lh138] && codes("0-g.json") == [.lh138] && codes("c.json") == [.lh140] && codes("a.json") == [.lh140])
                #expect(codes("e.json") == [.lh139] && codes("d.json") == [.lh139] && codes("i.json") == [.lh139], "\(fates)")
            } else {
                // The reasons are read off the final state: the same words in any order.
                #expect(reasons == Dictionary(uniqueKeysWithValues: zip(files, claims.resolve(files)).map { ($0.name, $1) }), "round \(round)")
            }
        }
    }

    @Test("sharedApps lets the sites it names list one app, and no other")
    func shared() throws {
        let files: [SiteFileClaims.File] = [
            .init(name: "a.json", current: try Self.site("a.json", id: "acme", hosts: ["a.example"], app: "com.acme.app")),
            .init(name: "b.json", current: try Self.site("b.json", id: "acme-eu", hosts: ["b.example"], app: "com.acme.app")),
            .init(name: "c.json", current: try Self.site("c.json", id: "evil", hosts: ["c.example"], app: "com.acme.app")),
        ]
        let claims = SiteFileClaims(record: [.iOSApp("TEAMTEAM12.com.acme.app"): "c.json"], shared: ["TEAMTEAM12.com.acme.app": ["acme", "acme-eu"]])
        #expect(claims.resolve(files).map { $0 == .current } == [true, true, false])
    }
}
