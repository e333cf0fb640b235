import Foundation
import Testing

/// What a reload leaves in memory, read from the real server's /proc entry.
@Suite("Reload memory")
struct ReloadMemoryTests {
    /// The server's resident memory in kB (VmRSS).
    private func residentKB(_ server: LinkHostProcess) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(server.child.pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    /// `count` sites of ten link templates each, so a snapshot is large enough to see in RSS.
    private func sites(_ count: Int) -> [[String: Any]] {
        (0..<count).map { index in
            ["hosts": ["site\(index).example.com"],
             "callLinks": ["links": (0..<10).map { "/s\(index)/t\($0)/{callId}?type={callType}" }]]
        }
    }

    /// Reloads and waits for the `reloaded` line of generation `generation`.
    private func reload(_ server: LinkHostProcess, to generation: Int) async throws {
        server.signal(SIGHUP)
        try await server.waitForStderr(containing: "(generation \(generation))", timeout: .seconds(90))
    }

    @Test("a replaced snapshot leaves memory: reloading a large config to a small one shrinks RSS, and reloads of the large one do not add up")
    func replacedSnapshotsAreFreed() async throws {
        let site = try SiteFixture()
        var config = TestConfig()
        config.extra["sites"] = sites(400)
        try site.writeConfig(config)
        let server = try await LinkHostProcess.start(site, timeout: .seconds(90))
        let large = try residentKB(server)

        config.extra["sites"] = sites(1)
        try site.writeConfig(config)
        try await reload(server, to: 2)
        // The pages go back just after the `reloaded` line, when the reload thread has let go of the old snapshot.
        var small = 0
        let shrank = try await eventually {
            small = try residentKB(server)
            return small < large / 2
        }
        // The first snapshot was once kept by the start-up code for the life of the process.
        #expect(shrank, "RSS \(large) kB with 400 sites, still \(small) kB after reloading to 1 site")

        config.extra["sites"] = sites(400)
        try site.writeConfig(config)
        for generation in 3...5 { try await reload(server, to: generation) }
        var again = 0
        let bounded = try await eventually {
            again = try residentKB(server)
            return Double(again) < Double(large) * 1.5
        }
        // Each reload builds beside the snapshot it replaces, then frees it and returns the pages.
        #expect(bounded, "RSS \(large) kB at start, \(again) kB after three reloads of the same sites")
        print("reload memory: 400 sites \(large) kB; reloaded to 1 site \(small) kB; three reloads of 400 sites \(again) kB")
    }

    /// The tenant an operator writes (issue 42): its own host and `callLinks.baseURL`, App Store ID, two signing
    /// keys; an App Clip, one platform only or an open host by its index (as `Benchmarks/harness/tenants.py`).
    static func operatorTenant(_ index: Int) -> String {
        let host = "t\(index).tenants.example"
        let team = "T" + String(repeating: "0", count: 9 - String(index).count) + String(index)
        let clip = index % 10 == 4 ? #", "appClipBundleID": "com.t\#(index).video.Clip""# : ""
        let apps = index % 10 == 1 ? "[]" : #"[{"name": "T\#(index)", "teamID": "\#(team)", "bundleID": "com.t\#(index).video", "appStoreID": "\#(1000 + index)"\#(clip)}]"#
        let prints = (0..<2).map { key in (0..<32).map { byte in String((index * 7 + key * 13 + byte * 31) % 256 + 256, radix: 16).uppercased().dropFirst() }.joined(separator: ":") }
        let android = index % 10 == 2 ? "[]" : #"[{"name": "T\#(index)", "packageName": "com.t\#(index).video", "sha256CertFingerprints": ["\#(prints[0])", "\#(prints[1])"]}]"#
        let open = index % 10 == 3
        return #"{"id": "t\#(index)", "hosts": ["\#(host)"\#(open ? #", "open.\#(host)""# : "")], "#
            + #""callLinks": {"baseURL": "https://\#(host)"\#(open ? #", "openInAppHost": "open.\#(host)""# : "")}, "apps": \#(apps), "android": \#(android)}"#
    }

    @Test("resident memory stays flat across reloads of many tenants: 20 more reloads stay within 1.15x of the size after the second")
    func flatAcrossReloads() async throws {
        var config = TestConfig()
        config.extra = ["siteFiles": "sites.d/*.json",
                        "callLinks": ["links": ["/call/{callId}?type={callType}", "/call/{callType}:{callId}", "/j/{callId}"]]]
        let site = try SiteFixture(config)
        try FileManager.default.createDirectory(atPath: site.directory + "/sites.d", withIntermediateDirectories: false)
        for index in 0..<60 { try site.write(Self.operatorTenant(index), to: "sites.d/t\(index).json") }
        let server = try await LinkHostProcess.start(site, timeout: .seconds(90))
        // Read at each reload's line, when the new snapshot serves: the same moment of every reload.
        var sizes: [Int] = []
        for generation in 2...23 {
            try await reload(server, to: generation)
            sizes.append(try residentKB(server))
        }
        let (second, last) = (sizes[0], sizes[sizes.count - 1])
        #expect(Double(last) <= Double(second) * 1.15, "RSS \(second) kB after the second reload, \(last) kB after 20 more: \(sizes)")
        print("reload memory: 60 operator tenants, RSS after reloads 2...23: \(sizes) kB")
    }
}
