import LinkHostCore
import Testing

/// `AnsweredHosts`, what `linkhost print hosts` lists: every host answered by name, with its site, each once.
@Suite("Answered hosts")
struct AnsweredHostsTests {
    @Test("the top level's ACME hosts, baseURL host and openInAppHost where no site lists them, then each site's hosts, wildcards marked")
    func everyHostOnce() throws {
        let config = try ConfigLoader.parse(Array("""
        {"server": {"port": 8443, "httpPort": 8080, "tls": {"acme": {"email": "ops@example.com", "stateDirectory": "state",
                    "hosts": ["www.example.com", "links.example.com"]}}},
         "apps": [{"name": "X", "teamID": "ABCDE12345", "bundleID": "com.x.app"}],
         "callLinks": {"paths": ["call"], "baseURL": "https://links.example.com", "openInAppHost": "open.example.com"},
         "sites": [{"id": "a", "hosts": ["a.example", "open.a.example"], "callLinks": {"openInAppHost": "open.a.example"}},
                   {"hosts": ["open.example.com", "c.example"]}]}
        """.utf8))
        let entries = AnsweredHosts(config: config).entries
        #expect(entries.map { "\($0.host) \($0.site)" } == [
            "links.example.com default", "www.example.com default",
            "a.example a", "open.a.example a", "open.example.com open.example.com", "c.example open.example.com",
        ], "open.example.com is the site's that lists it; links.example.com once, though both baseURL and ACME name it")

        let wildcards = try ConfigLoader.parse(Array("""
        {"apps": [{"name": "X", "teamID": "ABCDE12345", "bundleID": "com.x.app"}], "callLinks": {"paths": ["call"], "baseURL": "https://x.b.example"},
         "sites": [{"id": "b", "hosts": ["*.b.example", "b.example"]}]}
        """.utf8))
        let listed = AnsweredHosts(config: wildcards).entries
        #expect(listed.map(\.host) == ["*.b.example", "b.example"], "the baseURL's host is the wildcard's: its certificate serves it")
        #expect(listed.map(\.isWildcard) == [true, false])
    }
}
