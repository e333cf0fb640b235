import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The directives of one systemd unit file (and its drop-ins), read as systemd reads the simple ones:
/// `Key=value` lines, repeated keys in order, `Environment=` split into its assignments.
struct UnitFile {
    private(set) var values: [String: [String]] = [:]

    init(_ paths: [String]) throws {
        for path in paths {
            for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
                let text = line.trimmingCharacters(in: .whitespaces)
                guard !text.hasPrefix("#"), !text.hasPrefix("["), let equals = text.firstIndex(of: "=") else { continue }
                let key = String(text[..<equals]), value = String(text[text.index(after: equals)...])
                // An empty assignment resets the list, as systemd does for list settings.
                if value.isEmpty { values[key] = [] } else { values[key, default: []].append(value) }
            }
        }
    }

    /// Every value of `key`, in order.
    subscript(_ key: String) -> [String] { values[key] ?? [] }

    /// `Environment=` as a dictionary (assignments separated by spaces, no quoting in these units).
    var environment: [String: String] {
        var result: [String: String] = [:]
        for line in self["Environment"] {
            for assignment in line.split(separator: " ") {
                let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { result[parts[0]] = parts[1] }
            }
        }
        return result
    }
}

/// deploy/linkhost-https.service with its socket drop-in, started the way systemd would start it — the
/// socket units' names through `systemd-socket-activate --fdname`, the unit's environment and command —
/// against Pebble, which validates HTTP-01 on the socket named `http`.
@Suite("The ACME systemd unit against Pebble", .serialized)
struct ACMEUnitTests {
    static let deploy = SiteFixture.repositoryRoot + "/deploy"

    @Test("linkhost-https.service + sockets.conf: named sockets, the StateDirectory as the default state folder, a certificate from Pebble, HTTPS with HSTS")
    func unitAgainstPebble() async throws {
        _ = try requireTool("systemd-socket-activate")
        let service = try UnitFile([Self.deploy + "/linkhost-https.service", Self.deploy + "/linkhost-https.service.d/sockets.conf"])
        let base = try UnitFile([Self.deploy + "/linkhost-https.service"])
        #expect(base["AmbientCapabilities"] == ["CAP_NET_BIND_SERVICE"] && base["CapabilityBoundingSet"] == ["CAP_NET_BIND_SERVICE"])
        #expect(service["AmbientCapabilities"].isEmpty && service["CapabilityBoundingSet"].isEmpty, "with systemd's sockets no capability is left")
        #expect(service["StateDirectory"] == ["linkhost"])
        let environment = service.environment
        #expect(environment["LINKHOST_ACME_DEFAULT_STATE_DIRECTORY"] == "/var/lib/linkhost", "the StateDirectory must be the default state folder")
        let socketUnits = service["Sockets"].flatMap { $0.split(separator: " ").map(String.init) }
        #expect(socketUnits == ["linkhost-https.socket", "linkhost-http.socket"])
        let sockets = try socketUnits.map { try UnitFile([Self.deploy + "/" + $0]) }
        #expect(sockets.map { $0["FileDescriptorName"] } == [["https"], ["http"]])
        #expect(sockets.map { $0["ListenStream"] } == [["443"], ["80"]])
        #expect(sockets.allSatisfy { $0["Service"] == ["linkhost-https.service"] })

        let folder = try ACMEFolder()
        // Pebble validates against the activator's http socket, so both start together on the ports TestPorts
        // hands out, and start again on new ones when the activator finds one taken.
        let (pebble, child, ports) = try await TestPorts.binding(2, "Pebble and systemd-socket-activate") { ports in
            let pebble = try await PebbleCA(folder: folder, httpPort: ports[1])
            // The operator's config: ACME for one host, nothing about ports or the state folder (the unit says those).
            try folder.write("""
            {"server": {"host": "127.0.0.1", "tls": {"acme": {"directory": "\(pebble.directory)", "caFile": "\(pebble.caFile)", "hosts": ["a.test"]}}},
             "apps": [{"name": "Unit", "teamID": "QRSTU67890", "bundleID": "com.acme.unit"}], "callLinks": {"template": "public/call.html"}}
            """, to: "linkhost.json")
            try folder.write("<!doctype html><title>call</title>\n", to: "public/call.html")
            var unitEnvironment = environment
            unitEnvironment["LINKHOST_CONFIG"] = folder.path + "/linkhost.json"
            // /var/lib/linkhost is systemd's to make; here a folder of the test stands in for it.
            unitEnvironment["LINKHOST_ACME_DEFAULT_STATE_DIRECTORY"] = folder.path + "/var-lib-linkhost"
            let command = try #require(service["ExecStart"].last).split(separator: " ").map(String.init)
            #expect(command == ["/usr/local/bin/linkhost", "serve"])
            let names = sockets.map { $0["FileDescriptorName"][0] }
            // The activator passes only what -E names, as systemd passes only the unit's Environment=.
            let setenv = unitEnvironment.sorted { $0.key < $1.key }.map { "-E\($0.key)=\($0.value)" }
            let child = try await SystemdTests.startActivator(ports: ports, names: names, options: setenv,
                                                              command: [try LinkHostCLI.binaryPath()] + command.dropFirst(), directory: folder.path)
            return (pebble, child, ports)
        }
        defer { pebble.stop() }
        let (httpsPort, httpPort) = (ports[0], ports[1])
        // The first connection attempt starts linkhost, as systemd would on traffic (or at boot, enabled).
        let first = try await runTool("curl", ["-sS", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(httpPort)/healthz"])
        #expect(first.stdout == "200", "\(first) \(child.stderr.text)")
        try await child.waitForStderr(containing: "serving the new certificate for a.test", timeout: .seconds(60))
        #expect(child.stderr.text.contains("named https, http"), "\(child.stderr.text)")
        #expect(pebble.pebble.output.contains("Attempting to validate w/ HTTP: http://a.test:\(httpPort)/.well-known/acme-challenge/"), "Pebble did not validate on the http socket")
        let root = try folder.write(try await pebble.root(), to: "pebble-root.pem")
        let answer = try await runTool("curl", ["-sS", "--max-time", "10", "--resolve", "a.test:\(httpsPort):127.0.0.1", "--cacert", root, "-D", "-",
                                                    "-o", "/dev/null", "https://a.test:\(httpsPort)/.well-known/apple-app-site-association"])
        #expect(answer.stdout.hasPrefix("HTTP/1.1 200") && answer.stdout.lowercased().contains("strict-transport-security: max-age=31536000"), "\(answer)")
        let stored = PebbleTests.stateFolder(folder.path + "/var-lib-linkhost", directory: pebble.directory) + "/a.test.pem"
        #expect(FileManager.default.fileExists(atPath: stored), "the certificate must be in the unit's state folder: \(stored)")
        child.send(SIGTERM)
        #expect(try await child.waitForExit(timeout: happensWithin).exitCode == 0)
    }
}
