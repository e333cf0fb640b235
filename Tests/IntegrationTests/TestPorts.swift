// The one place the tests get TCP ports. A linkhost under test needs none: it binds `--port 0` and the test
// reads its `listening on` line (LinkHostProcess.start). Programs that must be told an address and bind it
// themselves (systemd-socket-activate, nginx, Varnish, Pebble, the fake CA, a linkhost whose config names a
// second port) are started through `TestPorts.binding`, which hands out ports and starts the program again on
// new ones when it reports the address taken — no test repeats that logic.
//
//   let proxy = try await TestPorts.binding(1, "nginx") { ports in try await startNginx(port: ports[0]) }
import CTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Hands out loopback ports and retries programs that lose the race for one.
enum TestPorts {
    /// Ports are drawn from below the kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range), so no
    /// `--port 0` listener and no outgoing connection of any process on the machine is given one of them; and
    /// none is handed out twice in one test run, so two tests (or two ports of one test) never coincide. What is
    /// left — another test run on the same machine binding the same port first — is what `binding` retries.
    private static let range: Range<Int> = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? "32768 60999"
        let bounds = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
        let (low, high) = bounds.count == 2 ? (bounds[0], bounds[1]) : (32768, 60999)
        return low >= 12_000 ? 10_000..<low : (high + 1)..<65_536
    }()

    /// The next port to try (starts at a random place, so concurrent test runs mostly draw different ones).
    private static let cursor = Mutex<Int>(Int.random(in: 0..<1_000_000))

    /// `count` distinct ports of `range`, never handed out before in this run, each free when looked at.
    /// A port is only looked at, never held: the caller's program binds it, through `binding`.
    static func candidates(_ count: Int) throws -> [Int] {
        var ports: [Int] = []
        var looked = 0
        while ports.count < count {
            looked += 1
            guard looked <= range.count else { throw HarnessError("TestPorts: no free port left in \(range)") }
            let port = cursor.withLock { next -> Int in
                defer { next += 1 }
                return range.lowerBound + next % range.count
            }
            if lhtest_port_is_free(Int32(port)) == 1 { ports.append(port) }
        }
        return ports
    }

    /// Starts a program on `count` new ports: `start` gets them, starts the program and returns once it listens
    /// (or throws). When it throws because the address was taken (the error's text says "already in use",
    /// "address in use" or "could not bind", as nginx, Varnish, Pebble, systemd-socket-activate, Python and
    /// linkhost — "the port is already in use" — word it), it is called again with new ports, up to `attempts`
    /// times; any other error is thrown.
    static func binding<Started>(
        _ count: Int, _ program: String, attempts: Int = 6, _ start: ([Int]) async throws -> Started
    ) async throws -> Started {
        var taken: [String] = []
        for _ in 0..<attempts {
            let ports = try candidates(count)
            do {
                return try await start(ports)
            } catch where isAddressTaken(error) {
                taken.append("\(ports)")
            }
        }
        throw HarnessError("TestPorts: \(program) found its address taken \(attempts) times (ports \(taken.joined(separator: ", ")))")
    }

    /// True when an error's text reports a bind that failed because the address was in use.
    static func isAddressTaken(_ error: any Error) -> Bool {
        let text = "\(error)".lowercased()
        return ["already in use", "address in use", "could not bind", "eaddrinuse"].contains { text.contains($0) }
    }
}
