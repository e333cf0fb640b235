import CTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Short, bounded versions of scripts/slowloris.py and scripts/flood.py that fit in `swift test` on two
/// cores: what they show is the protection itself (per-IP and global connection limits), not capacity.
@Suite("Overload, bounded", .timeLimit(.minutes(1)), .serialized)
struct HostileLoadTests {
    /// The normal client's request, read with the hostile exchange so a slow or broken answer is seen as such.
    static let aasaProbe = HostileCase(
        id: "probe", expected: ["200:other open"], source: "",
        bytes: RawHTTPClient.requestBytes("GET", "/.well-known/apple-app-site-association"), note: "", line: 0)

    @Test("Slowloris: 200 connections from 127.0.0.1 trickle headers for 5 s; a client on 127.0.0.2 gets the AASA within 1 s every time")
    func slowloris() async throws {
        let attackers = 200
        let perIPLimit = 64
        var config = TestConfig()
        config.serverExtra = ["perIPConnectionLimit": perIPLimit]
        let server = try await LinkHostProcess.start(SiteFixture(config))
        let (host, port) = (server.host, server.port)

        let reports = await onThreads([LoadRole.attack, LoadRole.probe], width: 2) { role -> LoadReport in
            switch role {
            case .attack:
                return .attack(Self.trickle(host: host, port: port, count: attackers, duration: .seconds(5), interval: .seconds(1)))
            case .probe:
                return .probe(Self.probe(host: host, port: port, source: "127.0.0.2", duration: .seconds(5), every: .milliseconds(200)))
            }
        }
        guard case .attack(let attack) = reports[0], case .probe(let probe) = reports[1] else {
            Issue.record("the load threads returned \(reports)")
            return
        }
        #expect(attack.connectFailed == 0, "every attacker should connect (the kernel accepts before libmicrohttpd decides): \(attack)")
        // libmicrohttpd admits perIPLimit connections from one address and closes the rest at once.
        #expect(attack.closedByServer == attackers - perIPLimit, "\(attack)")
        // Each admitted one sends a byte a second, well inside the 15 s idle timeout, so it is still held.
        #expect(attack.openAtEnd == perIPLimit, "\(attack)")
        #expect(attack.answered == 0, "a half-sent request got an answer: \(attack)")

        #expect(probe.latencies.count >= 10, "the normal client ran too few requests: \(probe)")
        #expect(probe.failures.isEmpty, "the normal client was refused or answered wrongly: \(probe)")
        let slowest = probe.latencies.max() ?? .zero
        #expect(slowest <= .seconds(1), "the AASA took \(slowest) under slowloris: \(probe)")
        #expect(server.isRunning, "\(server.stderr)")
    }

    @Test("Connection limit: 64 connections to a server allowing 32 → the surplus is never answered, the admitted are, and new clients are served once they go")
    func connectionLimit() async throws {
        let limit = 32
        let attempts = 64
        var config = TestConfig()
        config.serverExtra = ["connectionLimit": limit, "perIPConnectionLimit": 0, "threads": 1]
        let server = try await LinkHostProcess.start(SiteFixture(config))
        _ = lhtest_raise_fd_limit(Int(attempts) + 256)

        var descriptors: [Int32] = []
        defer { for descriptor in descriptors { close(descriptor) } }
        for _ in 0..<attempts {
            let descriptor = lhtest_connect(server.host, Int32(server.port), 2_000)
            #expect(descriptor >= 0, "connect failed: \(errorText(errno))")
            if descriptor >= 0 { descriptors.append(descriptor) }
        }
        // Every connection asks for the health probe at once; only admitted ones can be answered.
        let request = RawHTTPClient.requestBytes("GET", "/healthz")
        for descriptor in descriptors { _ = lhtest_send_nowait(descriptor, request, request.count) }
        var answered = 0
        var closedUnanswered = 0
        var silent = 0
        var deadline = ContinuousClock.now + .seconds(3)
        var undecided = Set(descriptors)
        while !undecided.isEmpty && ContinuousClock.now < deadline {
            // Once the admitted ones have answered, a short look is enough to see no others are.
            if answered >= limit { deadline = min(deadline, ContinuousClock.now + .milliseconds(300)) }
            for descriptor in undecided {
                var reader = SocketReader(descriptor: descriptor)
                switch reader.read(for: .milliseconds(5)) {
                case .data(let bytes):
                    if bytes.starts(with: Array("HTTP/1.1 200".utf8)) { answered += 1 } else { closedUnanswered += 1 }
                    undecided.remove(descriptor)
                case .closed:
                    closedUnanswered += 1
                    undecided.remove(descriptor)
                case .quiet:
                    break
                }
            }
        }
        silent = undecided.count
        print("connection limit: \(answered) answered, \(closedUnanswered) closed unanswered, \(silent) left waiting (of \(attempts), limit \(limit))")
        #expect(answered == limit, "the server admits exactly connectionLimit connections: answered \(answered), closed \(closedUnanswered), silent \(silent)")
        #expect(answered + closedUnanswered + silent == attempts)
        // Connections over the limit are either closed at once or left waiting in the listen backlog;
        // none gets a wrong answer (counted with closedUnanswered above when bytes were not a 200).
        for descriptor in descriptors { close(descriptor) }
        descriptors = []
        let freed = try await eventually(timeout: .seconds(5)) {
            (try? server.request("GET", "/healthz").status) == 200
        }
        #expect(freed, "after the flood went away the server must serve again")
        #expect(server.isRunning, "\(server.stderr)")
    }

    // MARK: Load roles

    /// Opens `count` connections from 127.0.0.1, sends half a request on each, then one more header byte
    /// per `interval` until `duration` ends; counts the ones the server closes.
    static func trickle(host: String, port: Int, count: Int, duration: Duration, interval: Duration) -> AttackReport {
        _ = lhtest_raise_fd_limit(count + 256)
        var report = AttackReport()
        var open: [Int32] = []
        let opening = Array("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: links.example.com\r\n".utf8)
        for _ in 0..<count {
            let descriptor = lhtest_connect_from("127.0.0.1", host, Int32(port), 2_000)
            guard descriptor >= 0 else { report.connectFailed += 1; continue }
            _ = lhtest_send_nowait(descriptor, opening, opening.count)
            open.append(descriptor)
        }
        let trickle = Array("X-Slow: 0123456789\r\n".utf8)
        var position = 0
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {
            var stillOpen: [Int32] = []
            for descriptor in open {
                switch lhtest_peer_state(descriptor) {
                case -1:
                    report.closedByServer += 1
                    close(descriptor)
                case 1:
                    report.answered += 1
                    close(descriptor)
                default:
                    _ = lhtest_send_nowait(descriptor, [trickle[position % trickle.count]], 1)
                    stillOpen.append(descriptor)
                }
            }
            open = stillOpen
            position += 1
            Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
        }
        report.openAtEnd = open.count
        for descriptor in open { close(descriptor) }
        return report
    }

    /// The normal client: a fresh connection from `source` and one AASA GET every `every`, timed.
    static func probe(host: String, port: Int, source: String, duration: Duration, every: Duration) -> ProbeReport {
        var report = ProbeReport()
        let timing = HostileTiming(firstResponse: .seconds(3), noResponse: .seconds(3), settle: .zero, close: .zero)
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {
            let started = ContinuousClock.now
            do {
                let result = try HostileExchange.run(aasaProbe, host: host, port: port, tags: [], timing: timing, source: source)
                let elapsed = ContinuousClock.now - started
                if let response = result.responses.first, response.status == 200, response.text.contains("applinks") {
                    report.latencies.append(elapsed)
                } else {
                    report.failures.append("\(result.outcome.text) after \(elapsed)")
                }
            } catch {
                report.failures.append("\(error)")
            }
            let rest = every - (ContinuousClock.now - started)
            if rest > .zero { Thread.sleep(forTimeInterval: Double(rest.components.attoseconds) / 1e18 + Double(rest.components.seconds)) }
        }
        return report
    }
}

enum LoadRole: Sendable {
    case attack, probe
}

enum LoadReport: Sendable {
    case attack(AttackReport)
    case probe(ProbeReport)
}

struct AttackReport: Sendable, CustomStringConvertible {
    var connectFailed = 0
    var closedByServer = 0
    var answered = 0
    var openAtEnd = 0

    var description: String {
        "attackers: connect failed \(connectFailed), closed by the server \(closedByServer), answered \(answered), still open at the end \(openAtEnd)"
    }
}

struct ProbeReport: Sendable, CustomStringConvertible {
    var latencies: [Duration] = []
    var failures: [String] = []

    var description: String {
        "client: \(latencies.count) answered, slowest \(latencies.max() ?? .zero), failures \(failures.prefix(5))"
    }
}
