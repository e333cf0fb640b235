import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The harness's own promises (ChildProcess.swift): a child keeps only stdin, stdout and stderr; a deadline
/// fires even while the child's output is open; input reaches it; stdout and stderr stay apart; a missing
/// program is a clear error.
@Suite("Child processes")
struct ChildProcessTests {
    @Test("a child inherits no descriptor but 0, 1 and 2, even a pipe opened without close-on-exec")
    func inheritsOnlyStandardDescriptors() async throws {
        // A pipe as Foundation makes one (not close-on-exec): had a server inherited its write end, the tool
        // writing to it would never be seen to finish.
        let leaky = Pipe()
        let leakyWriter = leaky.fileHandleForWriting.fileDescriptor
        #expect(fcntl(leakyWriter, F_GETFD) & FD_CLOEXEC == 0)
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "ls /proc/$$/fd"],
                                     environment: [:], directory: "/")
        let ended = try await child.waitForExit(timeout: .seconds(20))
        let descriptors = ended.stdout.split(whereSeparator: \.isNewline).compactMap { Int($0) }.sorted()
        // The shell's own listing may hold one more descriptor of its own (the folder it reads), never ours.
        #expect(!descriptors.contains(Int(leakyWriter)), "the child holds the test process's pipe: \(descriptors)")
        #expect(descriptors.filter { $0 > 2 }.count <= 1, "unexpected descriptors: \(descriptors)")
        try leaky.fileHandleForWriting.close()
    }

    @Test("a run to the end is killed at its deadline while its output is still open, with what it printed so far",
          arguments: [false, true])
    func deadlineFiresWithOutputOpen(blocking: Bool) async throws {
        // The shell waits two minutes for a grandchild that holds stdout and stderr too: only killing the group
        // ends it, and a runner that read to end of file before looking at its deadline would wait them out.
        let script = "echo started; echo warming up >&2; sleep 120 & wait"
        let outcome: (Result<Termination, any Error>, elapsed: Duration)
        if blocking {
            // The blocking form on a thread of its own, as non-async helpers call it, timed on that thread.
            outcome = await onThreads([script], width: 1) { script in
                let started = ContinuousClock.now
                let result = Result { try runTool("sh", ["-c", script], timeout: .seconds(1)) }
                return (result, ContinuousClock.now - started)
            }[0]
        } else {
            let started = ContinuousClock.now
            do {
                outcome = (.success(try await runTool("sh", ["-c", script], timeout: .seconds(1))), ContinuousClock.now - started)
            } catch {
                outcome = (.failure(error), ContinuousClock.now - started)
            }
        }
        // Generous for a loaded machine (a full run shares two cores), and still half the child's two minutes.
        #expect(outcome.elapsed < .seconds(60), "the deadline of 1 s fired only after \(outcome.elapsed)")
        guard case .failure(let error) = outcome.0, let timeout = error as? ChildTimeout else {
            Issue.record("a child sleeping for two minutes ended before its deadline of 1 s: \(outcome.0)")
            return
        }
        #expect(timeout.soFar.stdout == "started\n", "\(timeout)")
        #expect(timeout.soFar.stderr == "warming up\n", "\(timeout)")
        #expect(timeout.soFar.signal == SIGKILL, "\(timeout)")
        #expect(timeout.description.contains("did not finish within"), "\(timeout)")
    }

    @Test("a long-lived child's deadline kills what it started too: nothing holds its output afterwards")
    func deadlineKillsTheGroup() async throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "sleep 120 & echo $!; wait"])
        try await child.waitForOutput(containing: "\n")
        let started = ContinuousClock.now
        await #expect(throws: ChildTimeout.self) { try await child.waitForExit(timeout: .milliseconds(300)) }
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(!child.isRunning)
        // The grandchild held the write end of stdout; once it is dead the reader sees end of file.
        #expect(try await eventually { child.stdout.isFinished }, "a grandchild still holds stdout")
    }

    @Test("given input reaches the child's stdin, then end of file; an open stdin takes writes as they come")
    func inputReachesTheChild() async throws {
        let lines = (1...5_000).map { "line \($0)" }.joined(separator: "\n") + "\n"  // more than a pipe holds
        let counted = try await runTool("sh", ["-c", "wc -l; cat >/dev/null"], input: lines)
        #expect(counted.exitCode == 0 && counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "5000", "\(counted)")
        let echoed = try await runTool("cat", [], input: "héllo\n")
        #expect(echoed.stdout == "héllo\n", "\(echoed)")
        let none = try await runTool("cat", [])
        #expect(none.exitCode == 0 && none.stdout.isEmpty, "without input a child reads end of file at once: \(none)")

        let interactive = try ChildProcess(executable: try requireTool("sh"), arguments: ["-c", "read first; echo \"got $first\"; read second; echo \"got $second\""],
                                           input: .open)
        #expect(interactive.writeInput("one\n"))
        try await interactive.waitForOutput(containing: "got one\n")
        #expect(interactive.writeInput("two\n"))
        interactive.closeInput()
        let ended = try await interactive.waitForExit(timeout: .seconds(10))
        #expect(ended.stdout == "got one\ngot two\n", "\(ended)")
    }

    @Test("stdout and stderr are kept apart, each in its own order, with the exit code")
    func outputsStayApart() async throws {
        let ended = try await runTool("sh", ["-c", "echo out 1; echo err 1 >&2; echo out 2; echo err 2 >&2; exit 3"])
        #expect(ended.stdout == "out 1\nout 2\n", "\(ended)")
        #expect(ended.stderr == "err 1\nerr 2\n", "\(ended)")
        #expect(ended.exitCode == 3 && ended.signal == nil && ended.status == 3, "\(ended)")
        let killed = try await runTool("sh", ["-c", "kill -TERM $$"])
        #expect(killed.exitCode == nil && killed.signal == SIGTERM && killed.status == 128 + SIGTERM, "\(killed)")
    }

    @Test("a wait for output wakes on the line that arrives later, and ends at the child's end of file, not its deadline")
    func outputWaitsWakeOnNews() async throws {
        // The line comes after a pause and several other chunks: a wait that woke only on its first look would miss it.
        let late = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "for i in 1 2 3; do echo chunk $i >&2; sleep 0.1; done; echo ready >&2; exec sleep 120"])
        defer { late.stop() }
        try await late.waitForStderr(containing: "ready", timeout: .seconds(20))
        #expect(late.isRunning, "the wait returned on the line, while the child still runs")

        // A child that ends without the line: the wait reports its end (with what it printed), well before the
        // 60 s deadline a test would otherwise sit out; the message says which of the two happened.
        let quitter = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo not it >&2; exit 3"])
        do {
            try await quitter.waitForStderr(containing: "never printed", timeout: .seconds(60))
            Issue.record("a wait for a line the child never printed returned")
        } catch {
            #expect("\(error)".contains("ended before stderr contained") && "\(error)".contains("exit code 3") && "\(error)".contains("not it"), "\(error)")
        }

        // linkhost that cannot start: `start` says it exited, with its stderr, instead of waiting out its 10 s.
        var config = TestConfig()
        config.extra["sites"] = "not a list"
        let broken = try SiteFixture(config)
        do {
            _ = try await LinkHostProcess.start(broken, timeout: .seconds(60))
            Issue.record("linkhost started on a config whose sites are not a list")
        } catch {
            #expect("\(error)".contains("linkhost exited before listening") && "\(error)".contains("exit code"), "\(error)")
        }
    }

    @Test("a missing program is a clear error that names it")
    func missingProgram() async throws {
        let name = "linkhost-no-such-tool-\(UUID().uuidString.prefix(8))"
        #expect(findTool(name) == nil)
        do {
            _ = try requireTool(name)
            Issue.record("requireTool found \(name)")
        } catch {
            #expect("\(error)".contains("\(name) is not installed") && "\(error)".contains("make test-deps"), "\(error)")
        }
        do {
            _ = try ChildProcess(executable: "/nonexistent/\(name)", arguments: ["x"])
            Issue.record("a missing executable started")
        } catch {
            #expect("\(error)".contains("cannot start /nonexistent/\(name) x") && "\(error)".contains("No such file or directory"), "\(error)")
        }
        #expect(try requireTool("sh").hasSuffix("/sh"))
    }
}
