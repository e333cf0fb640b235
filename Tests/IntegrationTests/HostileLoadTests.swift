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
                return .probe(Self.probeClient(host: host, port: port, source: "127.0.0.2", duration: .seconds(5), every: .milliseconds(200)))
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

        // Connects, sends and polls: blocking socket I/O, on a thread of its own. The descriptors stay open (the
        // admitted connections hold their slots) until the test closes them below.
        let (descriptors, answered, closedUnanswered, silent, connectErrors) = await onThread("64 connections") {
            [host = server.host, port = server.port] () -> ([Int32], Int, Int, Int, [String]) in
            var descriptors: [Int32] = []
            var connectErrors: [String] = []
            for _ in 0..<attempts {
                let descriptor = lhtest_connect(host, Int32(port), 2_000)
                if descriptor >= 0 { descriptors.append(descriptor) } else { connectErrors.append(errorText(errno)) }
            }
            // Every connection asks for the health probe at once; only admitted ones can be answered.
            let request = RawHTTPClient.requestBytes("GET", "/healthz")
            for descriptor in descriptors { _ = lhtest_send_nowait(descriptor, request, request.count) }
            var answered = 0
            var closedUnanswered = 0
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
            return (descriptors, answered, closedUnanswered, undecided.count, connectErrors)
        }
        #expect(connectErrors.isEmpty, "connect failed: \(connectErrors)")
        print("connection limit: \(answered) answered, \(closedUnanswered) closed unanswered, \(silent) left waiting (of \(attempts), limit \(limit))")
        #expect(answered == limit, "the server admits exactly connectionLimit connections: answered \(answered), closed \(closedUnanswered), silent \(silent)")
        #expect(answered + closedUnanswered + silent == attempts)
        // Connections over the limit are either closed at once or left waiting in the listen backlog;
        // none gets a wrong answer (counted with closedUnanswered above when bytes were not a 200).
        for descriptor in descriptors { close(descriptor) }
        let freed = try await eventually {
            (try? await server.request("GET", "/healthz").status) == 200
        }
        #expect(freed, "after the flood went away the server must serve again")
        #expect(server.isRunning, "\(server.stderr)")
    }

    // MARK: Load roles

    @Test("Header deadline: 120 connections from 40 addresses trickle a byte every 200 ms; each is answered 408 and closed within headerTimeout (2 s) + 1 s, and a normal client is served throughout")
    func headerDeadline() async throws {
        var config = TestConfig()
        // perIPConnectionLimit 0, as behind a proxy: only the deadline can free these slots.
        config.serverExtra = ["headerTimeout": 2, "perIPConnectionLimit": 0]
        let server = try await LinkHostProcess.start(SiteFixture(config))
        let (host, port) = (server.host, server.port)
        let reports = await onThreads([LoadRole.attack, LoadRole.probe], width: 2) { role -> LoadReport in
            switch role {
            case .attack:
                return .attack(Self.trickle(host: host, port: port, count: 120, duration: .seconds(4), interval: .milliseconds(200), sources: 40))
            case .probe:
                return .probe(Self.probeClient(host: host, port: port, source: "127.0.0.2", duration: .seconds(4), every: .milliseconds(200)))
            }
        }
        guard case .attack(let attack) = reports[0], case .probe(let probe) = reports[1] else {
            Issue.record("the load threads returned \(reports)")
            return
        }
        print("header deadline: \(attack)")
        #expect(attack.connectFailed == 0, "\(attack)")
        #expect(attack.timedOut + attack.closedByServer == 120 && attack.openAtEnd == 0, "every trickled head must be cut: \(attack)")
        #expect(attack.timedOut > 0, "plain HTTP connections get a 408 before the close: \(attack)")
        #expect(attack.answered == 0, "a half-sent request got an answer other than 408: \(attack)")
        #expect(attack.slowestCut <= .seconds(3), "the deadline is 2 s: \(attack)")
        #expect(attack.fastestCut >= .milliseconds(1800), "cut before its deadline: \(attack)")
        #expect(probe.failures.isEmpty && probe.latencies.count >= 10, "\(probe)")
        #expect(server.isRunning, "\(server.stderr)")
    }

    /// Opens `count` connections (from 127.0.0.1, or spread over `sources` addresses 127.1.0.1 …), sends
    /// half a request on each, then one more header byte per `interval` until `duration` ends; counts the
    /// ones the server closes or answers 408, and how long after connecting it did. Blocking: runs on a load thread.
    static func trickle(host: String, port: Int, count: Int, duration: Duration, interval: Duration, sources: Int = 0) -> AttackReport {
        _ = lhtest_raise_fd_limit(count + 256)
        var report = AttackReport()
        var open: [(descriptor: Int32, since: ContinuousClock.Instant)] = []
        let opening = Array("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: links.example.com\r\n".utf8)
        for index in 0..<count {
            let source = sources > 0 ? "127.1.0.\(index % sources + 1)" : "127.0.0.1"
            let descriptor = lhtest_connect_from(source, host, Int32(port), 2_000)
            guard descriptor >= 0 else { report.connectFailed += 1; continue }
            _ = lhtest_send_nowait(descriptor, opening, opening.count)
            open.append((descriptor, ContinuousClock.now))
        }
        let trickle = Array("X-Slow: 0123456789\r\n".utf8)
        var position = 0
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {
            var stillOpen: [(descriptor: Int32, since: ContinuousClock.Instant)] = []
            for (descriptor, since) in open {
                let state = lhtest_peer_state(descriptor)
                if state == 0 {
                    _ = lhtest_send_nowait(descriptor, [trickle[position % trickle.count]], 1)
                    stillOpen.append((descriptor, since))
                    continue
                }
                report.cut(after: ContinuousClock.now - since)
                if state == -1 {
                    report.closedByServer += 1
                } else {
                    var reader = SocketReader(descriptor: descriptor)
                    var received: [UInt8] = []
                    if case .data(let bytes) = reader.read(for: .milliseconds(100)) { received = bytes }
                    if received.starts(with: Array("HTTP/1.1 408".utf8)) { report.timedOut += 1 } else { report.answered += 1 }
                }
                close(descriptor)
            }
            open = stillOpen
            position += 1
            Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
        }
        report.openAtEnd = open.count
        for (descriptor, _) in open { close(descriptor) }
        return report
    }

    /// The normal client: a fresh connection from `source` and one AASA GET every `every`, timed. Blocking: runs on a load thread.
    static func probeClient(host: String, port: Int, source: String, duration: Duration, every: Duration) -> ProbeReport {
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
    /// Answered `408 Request Timeout` (the header deadline), then closed.
    var timedOut = 0
    /// Answered anything else: a half-sent request must never be.
    var answered = 0
    var openAtEnd = 0
    /// The shortest and longest time from connecting to being cut (closed, or answered).
    var fastestCut: Duration = .seconds(1_000)
    var slowestCut: Duration = .zero

    mutating func cut(after elapsed: Duration) {
        fastestCut = min(fastestCut, elapsed)
        slowestCut = max(slowestCut, elapsed)
    }

    var description: String {
        "attackers: connect failed \(connectFailed), closed by the server \(closedByServer), answered 408 \(timedOut), answered otherwise \(answered), still open at the end \(openAtEnd), cut after \(fastestCut)…\(slowestCut)"
    }
}

struct ProbeReport: Sendable, CustomStringConvertible {
    var latencies: [Duration] = []
    var failures: [String] = []

    var description: String {
        "client: \(latencies.count) answered, slowest \(latencies.max() ?? .zero), failures \(failures.prefix(5))"
    }
}
