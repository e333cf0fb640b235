import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// `server.tls.acme`, `server.httpPort` and the `LINKHOST_ACME_*` environment.
@Suite("ACME config")
struct ACMEConfigTests {
    static func config(server: String, sites: String = "[]") -> String {
        Fixtures.validConfig.replacing(#""server": { "host": "127.0.0.1", "port": 8080 },"#, with: #""server": \#(server), "sites": \#(sites),"#)
    }

    @Test("defaults: Let's Encrypt production, state/acme, the default site's hosts")
    func defaults() throws {
        let config = try Fixtures.config(Self.config(server: #"{"port": 8443, "httpPort": 8080, "tls": {"acme": {"hosts": ["Links.Example.com"]}}}"#))
        let acme = try #require(config.server.acme)
        #expect(acme.directory == ACMESettings.letsEncryptProduction)
        #expect(acme.stateDirectory == "state/acme")
        #expect(acme.hosts == ["links.example.com"])
        #expect(config.server.httpPort == 8080 && config.server.servesHTTPS && config.server.tls == nil)
    }

    @Test("certificate files and acme together is one error naming both")
    func filesAndACME() throws {
        let found = try Fixtures.diagnostics(Self.config(server: #"{"httpPort": 8081, "tls": {"certificateFile": "c.pem", "privateKeyFile": "k.pem", "acme": {"hosts": ["a.example.com"]}}}"#))
        let conflict = found.filter { $0.code == .lh117 }
        #expect(conflict.count == 1)
        #expect(conflict.first?.message.contains("server.tls.certificateFile and server.tls.privateKeyFile") == true && conflict.first?.message.contains("server.tls.acme") == true)
    }

    @Test("ACME needs an HTTP port other than the HTTPS one; httpPort needs HTTPS")
    func httpPort() throws {
        let missing = try Fixtures.diagnostics(Self.config(server: #"{"tls": {"acme": {"hosts": ["a.example.com"]}}}"#))
        #expect(missing.contains { $0.code == .lh108 && $0.path == "server.httpPort" })
        let same = try Fixtures.diagnostics(Self.config(server: #"{"port": 8080, "httpPort": 8080, "tls": {"acme": {"hosts": ["a.example.com"]}}}"#))
        #expect(same.contains { $0.code == .lh109 && $0.path == "server.httpPort" })
        let plain = try Fixtures.diagnostics(Self.config(server: #"{"httpPort": 8081}"#))
        #expect(plain.contains { $0.code == .lh109 && $0.path == "server.httpPort" })
    }

    @Test("a wildcard site host with ACME on is an error naming the host; no host at all is one too")
    func hosts() throws {
        let wildcard = try Fixtures.diagnostics(Self.config(server: #"{"httpPort": 8081, "tls": {"acme": {}}}"#, sites: #"[{"hosts": ["ok.example.com", "*.example.com"]}]"#))
        #expect(wildcard.contains { $0.code == .lh118 && $0.path == "sites[0].hosts[1]" && $0.message.contains("\"*.example.com\"") })
        let none = try Fixtures.diagnostics(Self.config(server: #"{"httpPort": 8081, "tls": {"acme": {}}}"#))
        #expect(none.contains { $0.code == .lh118 && $0.path == "server.tls.acme" })
        let twice = try Fixtures.diagnostics(Self.config(server: #"{"httpPort": 8081, "tls": {"acme": {"hosts": ["a.example.com"]}}}"#, sites: #"[{"hosts": ["a.example.com"]}]"#))
        #expect(twice.contains { $0.code == .lh116 && $0.path == "server.tls.acme.hosts" })
    }

    @Test("the image's environment: LINKHOST_ACME_HOSTS turns ACME on, the DEFAULT_* ports apply only where the file names no httpPort")
    func environment() throws {
        let image = ["LINKHOST_ACME_HOSTS": "links.example.com, www.links.example.com", "LINKHOST_ACME_DEFAULT_PORT": "8443",
                     "LINKHOST_ACME_DEFAULT_HTTP_PORT": "8080", "LINKHOST_ACME_DEFAULT_STATE_DIRECTORY": "/var/lib/linkhost",
                     "LINKHOST_ACME_DIRECTORY": ACMESettings.letsEncryptStaging]
        let config = try Fixtures.config(Fixtures.validConfig, environment: image)
        #expect(config.server.acme?.hosts == ["links.example.com", "www.links.example.com"])
        #expect(config.server.port == 8443 && config.server.httpPort == 8080)
        #expect(config.server.acme?.stateDirectory == "/var/lib/linkhost" && config.server.acme?.directory == ACMESettings.letsEncryptStaging)
        // A file that chose its ports and folder keeps them.
        let own = try Fixtures.config(Self.config(server: #"{"port": 9443, "httpPort": 9080, "tls": {"acme": {"stateDirectory": "/data/acme"}}}"#), environment: image)
        #expect(own.server.port == 9443 && own.server.httpPort == 9080 && own.server.acme?.stateDirectory == "/data/acme")
        // Without ACME the defaults change nothing.
        let off = try Fixtures.config(Fixtures.validConfig, environment: ["LINKHOST_ACME_DEFAULT_PORT": "8443"])
        #expect(off.server.port == 8080 && off.server.httpPort == nil && off.server.acme == nil)
    }

    @Test("validate warns about names no public CA reaches")
    func unreachable() {
        #expect(ACMELint.unreachable("localhost") != nil)
        #expect(ACMELint.unreachable("app.localhost") != nil)
        #expect(ACMELint.unreachable("10.0.0.1") != nil)
        #expect(ACMELint.unreachable("intranet") != nil)
        #expect(ACMELint.unreachable("a.test") != nil)
        #expect(ACMELint.unreachable("links.example.com") == nil)
        #expect(ACMELint.unreachable("links.example.org") == nil)
    }
}
