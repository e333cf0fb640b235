import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The one owner of ports: a program that finds its address taken is started again on a new one, which rests on
/// `TestPorts.isAddressTaken` reading that program's own words for it.
@Suite("TestPorts")
struct TestPortsTests {
    @Test("linkhost's 'the port is already in use' makes TestPorts.binding start it again on a new port")
    func linkhostOnATakenPortIsStartedAgain() async throws {
        // A linkhost on port 0 holds the port the first attempt is told to use.
        let holder = try await LinkHostProcess.start(try SiteFixture())
        var told: [Int] = []
        let server = try await TestPorts.binding(1, "linkhost on a taken port") { ports in
            var config = TestConfig()
            config.serverPort = told.isEmpty ? holder.port : ports[0]
            told.append(config.serverPort)
            let site = try SiteFixture(config)
            return try await LinkHostProcess.start(site, arguments: ["serve", "--config", site.configPath, "--host", "127.0.0.1"])
        }
        #expect(told.count == 2 && told[0] == holder.port, "attempts on ports \(told); the taken one was \(holder.port)")
        #expect(server.port == told.last && server.port != holder.port)
        #expect(try await server.request("GET", "/healthz").status == 200)
        server.signal(SIGTERM)
        holder.signal(SIGTERM)
        #expect(try await server.waitForExit(timeout: happensWithin).exitCode == 0)
        #expect(try await holder.waitForExit(timeout: happensWithin).exitCode == 0)
    }
}
