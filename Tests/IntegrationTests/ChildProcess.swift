// The one way the tests run another program, built on `lhtest_spawn` (Tests/CTestSupport/process.c):
// every child gets stdin (given text, an open pipe, or /dev/null), separate stdout and stderr, its own
// process group, and is killed when its object goes away or the test process dies.
//
//   Run a tool to its end:    let ended = try await runTool("openssl", ["x509", "-noout", "-text"], input: pem)
//                             (the same call without `await` blocks its thread: only inside onThread { … })
//   Start a server:           let server = try ChildProcess(executable: path, arguments: [...])
//                             try await server.waitForStderr(containing: "listening on", timeout: .seconds(10))
//                             server.send(SIGTERM); let ended = try await server.waitForExit(timeout: .seconds(10))
//   A tool the test needs:    let path = try requireTool("curl")  (README.md, Development, lists them; make test-deps)
//
// Both ends are a `Termination` (exit code or signal, stdout, stderr). A deadline kills the child and its
// group and throws `ChildTimeout`, with what the child printed so far, even while its output is still open.
// This file stands alone: LinkHostQRTests compiles it too (a link to this file).
import CTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// How long a test waits for something that should happen (a log line, a reload served, an exit after
/// SIGTERM) before calling it "never". A passing wait returns as soon as its condition holds, so the bound
/// costs nothing; it is generous because a full run of every suite at once on two cores has made a watched
/// config take 5.2 s to be served (2.0 s alone) and a 24 MB reload 24 s. A bound that is itself the behaviour
/// under test (a drain, a header deadline) is written and asserted where it is measured, not taken from here.
let happensWithin: Duration = .seconds(30)

/// How a child process ended, and everything it printed.
struct Termination: Sendable, CustomStringConvertible {
    /// The exit code, or nil when a signal killed it.
    let exitCode: Int32?
    /// The signal that killed it, or nil when it exited.
    let signal: Int32?
    /// Everything it wrote to stdout, as bytes (a tool may print binary).
    let stdoutBytes: [UInt8]
    /// Everything it wrote to stderr, as bytes.
    let stderrBytes: [UInt8]

    /// Everything it wrote to stdout, as UTF-8 text.
    var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
    /// Everything it wrote to stderr, as UTF-8 text.
    var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }

    /// The status as a shell reports it: the exit code, or 128 plus the number of the signal that killed it.
    var status: Int32 { exitCode ?? 128 + (signal ?? 0) }

    /// Standard output parsed as JSON (nil when it is not JSON).
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }

    var description: String {
        let how = exitCode.map { "exit code \($0)" } ?? "signal \(signal ?? 0)"
        return "\(how)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)--------------"
    }
}

/// A harness failure, worded so the test report explains it without a debugger.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A child outlived its deadline: it (and its process group) was killed; `soFar` holds what it printed.
struct ChildTimeout: Error, CustomStringConvertible {
    let commandLine: String
    let limit: Duration
    let soFar: Termination

    var description: String {
        "\(commandLine) did not finish within \(limit) and was killed\n--- stdout so far ---\n\(soFar.stdout)--- stderr so far ---\n\(soFar.stderr)---------------------"
    }
}

/// What a child reads on stdin.
enum ChildInput: Sendable {
    /// /dev/null: end of file at once.
    case none
    /// These bytes, then end of file.
    case text(String)
    /// A pipe the test writes with `ChildProcess.writeInput` and ends with `closeInput`.
    case open
}

/// True when the environment has CI set (to anything but "", "0" or "false"): there a missing tool fails everything that needs it.
let runningInCI: Bool = {
    let value = (ProcessInfo.processInfo.environment["CI"] ?? "").lowercased()
    return !["", "0", "false"].contains(value)
}()

/// The path of `tool` (a name looked up on PATH and in the sbin folders, or an absolute path); a missing one
/// is an error wherever the tests run: README.md's test section lists what the suite needs, `make test-deps` installs it.
func requireTool(_ tool: String) throws -> String {
    if let found = findTool(tool) { return found }
    throw HarnessError("\(tool) is not installed, and this test needs it: `make test-deps` installs every tool the suite uses (README.md, Development)"
                       + (runningInCI ? " — CI must install it" : ""))
}

/// The path of `tool`, or nil: for a test's condition only; a test that needs a tool calls `requireTool`.
func findTool(_ tool: String) -> String? {
    if tool.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let folders = path.split(separator: ":").map(String.init) + ["/usr/local/sbin", "/usr/sbin", "/sbin"]
    return folders.map { $0 + "/" + tool }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Enables a test only where `available` holds, outside CI: for the few tests README.md's test section says skip.
/// In CI the test always runs, so there a missing prerequisite fails it.
func skipsOutsideCI(unless available: @autoclosure @escaping @Sendable () -> Bool, _ comment: Comment) -> ConditionTrait {
    .enabled(if: runningInCI || available(), comment)
}

/// Runs `tool` (see `requireTool`) to its end on the calling thread and returns how it ended; after `timeout`
/// it is killed and `ChildTimeout` thrown. For code that is not async: async code awaits the other form.
func runTool(_ tool: String, _ arguments: [String], input: String? = nil, environment: [String: String]? = nil,
             directory: String? = nil, timeout: Duration = .seconds(30)) throws -> Termination {
    let child = try ChildProcess(executable: try requireTool(tool), arguments: arguments, input: input.map { .text($0) } ?? .none,
                                 environment: environment ?? ChildProcess.inheritedEnvironment, directory: directory)
    return try child.waitForExitBlocking(timeout: timeout)
}

/// Runs `tool` to its end without holding a thread (see the blocking form).
func runTool(_ tool: String, _ arguments: [String], input: String? = nil, environment: [String: String]? = nil,
             directory: String? = nil, timeout: Duration = .seconds(30)) async throws -> Termination {
    let child = try ChildProcess(executable: try requireTool(tool), arguments: arguments, input: input.map { .text($0) } ?? .none,
                                 environment: environment ?? ChildProcess.inheritedEnvironment, directory: directory)
    return try await child.waitForExit(timeout: timeout)
}

/// The text of an errno value, e.g. "No such file or directory".
func errorText(_ code: Int32) -> String {
    let size: Int32 = 256
    var buffer = [CChar](repeating: 0, count: Int(size))
    lhtest_error_text(code, &buffer, size)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Bytes a child writes to one pipe, collected by a reader thread until end of file.
///
/// A test waiting for a line awaits the reader's news (`watch`), resumed by each chunk that arrives and by end of
/// file: no timer looks at the bytes, so a wait neither burns the pool nor misses a line printed between looks.
final class OutputCapture: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var finished = false
        var watchers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextWatcher = 0
    }

    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)

    /// Starts a thread that reads `descriptor` until end of file, then closes it.
    init(reading descriptor: Int32, name: String) {
        let thread = Thread { [self] in
            let size = 16_384
            var buffer = [UInt8](repeating: 0, count: size)
            while true {
                let count = read(descriptor, &buffer, size)
                if count > 0 {
                    let chunk = buffer[0..<count]
                    let watchers = state.withLock { state in
                        state.bytes.append(contentsOf: chunk)
                        return Array(state.watchers.values)
                    }
                    for watcher in watchers { watcher.yield() }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(descriptor)
            let watchers = state.withLock { state in
                state.finished = true
                return Array(state.watchers.values)
            }
            for watcher in watchers { watcher.yield() }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// What has been read so far.
    var bytes: [UInt8] { state.withLock { $0.bytes } }

    /// Yields to `continuation` after every chunk read and at end of file, until `unwatch`; returns the token
    /// `unwatch` takes. Yields once at once too, so nothing read before the call is missed.
    func watch(_ continuation: AsyncStream<Void>.Continuation) -> Int {
        let token = state.withLock { state in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = continuation
            return state.nextWatcher
        }
        continuation.yield()
        return token
    }

    /// Stops the news `watch` started.
    func unwatch(_ token: Int) {
        _ = state.withLock { $0.watchers.removeValue(forKey: token) }
    }

    /// What has been read so far, as UTF-8 text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether `needle` occurs in what was read, looking only from `offset` on (less the needle's length, so a
    /// match across two reads is found); returns where the next look may start.
    func find(_ needle: [UInt8], from offset: Int) -> (found: Bool, end: Int) {
        state.withLock { state in
            let bytes = state.bytes
            guard !needle.isEmpty else { return (true, bytes.count) }
            var start = max(0, min(offset, bytes.count) - needle.count + 1)
            while start + needle.count <= bytes.count {
                if bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle) { return (true, bytes.count) }
                start += 1
            }
            return (false, bytes.count)
        }
    }

    /// True once every writer closed its end (the child and anything it started) and everything was read.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Blocks until `isFinished` or `timeout` passes; returns `isFinished`. Wakes at end of file, without polling.
    func waitUntilFinished(timeout: Duration) -> Bool {
        let nanoseconds = max(0, Int(timeout.components.seconds) * 1_000_000_000 + Int(timeout.components.attoseconds / 1_000_000_000))
        if finished.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success { finished.signal() }  // leave it signalled for the next waiter
        return isFinished
    }
}

/// A child process started through `lhtest_spawn`, with captured stdout and stderr.
///
/// It and its process group are killed with SIGKILL and reaped when the object goes away, so a failing or
/// throwing test leaves no process behind; if the whole test run dies, PR_SET_PDEATHSIG kills it instead.
final class ChildProcess: Sendable {
    /// The process ID (only signalled while the child is known not to have been reaped).
    let pid: pid_t
    /// The executable and arguments, for messages.
    let commandLine: String
    /// What it writes to stdout, as it comes.
    let stdout: OutputCapture
    /// What it writes to stderr, as it comes.
    let stderr: OutputCapture

    private let ended = Mutex<(exitCode: Int32?, signal: Int32?)?>(nil)
    private let input = Mutex<Int32>(-1)

    /// The test process's environment without `LINKHOST_*`, so a developer's shell settings never change what a test sees.
    static let inheritedEnvironment: [String: String] =
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LINKHOST_") }

    /// Starts `executable` (a path) with `arguments` (without argv[0]) in `directory` (nil: the test process's),
    /// with exactly `environment`, reading `input`. A missing executable throws, naming it.
    init(executable: String, arguments: [String], input: ChildInput = .none,
         environment: [String: String] = ChildProcess.inheritedEnvironment, directory: String? = nil) throws {
        var argumentBlock: [CChar] = []
        for word in [executable] + arguments { argumentBlock += word.utf8CString }
        var environmentBlock: [CChar] = []
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { environmentBlock += "\(name)=\(value)".utf8CString }
        if environmentBlock.isEmpty { environmentBlock = [0] }

        var stdinFD: Int32 = -1
        var stdoutFD: Int32 = -1
        var stderrFD: Int32 = -1
        var errorNumber: Int32 = 0
        var wantsInput: Int32 = 1
        if case .none = input { wantsInput = 0 }
        let pid = lhtest_spawn(executable, argumentBlock, Int32(arguments.count + 1), environmentBlock, Int32(environment.count),
                               directory ?? "", wantsInput, &stdinFD, &stdoutFD, &stderrFD, &errorNumber)
        commandLine = ([executable] + arguments).joined(separator: " ")
        guard pid > 0 else {
            throw HarnessError("cannot start \(commandLine)\(directory.map { " in \($0)" } ?? ""): \(errorText(errorNumber))")
        }
        self.pid = pid
        stdout = OutputCapture(reading: stdoutFD, name: "stdout of \(pid)")
        stderr = OutputCapture(reading: stderrFD, name: "stderr of \(pid)")
        switch input {
        case .none:
            break
        case .open:
            self.input.withLock { $0 = stdinFD }
        case .text(let text):
            // A thread of its own, owning the pipe: a child that reads nothing must not stall the test on a full
            // pipe (the write fails with EPIPE once the child is gone).
            let bytes = Array(text.utf8), writeEnd = stdinFD
            Thread {
                _ = lhtest_write_all(writeEnd, bytes, bytes.count)
                close(writeEnd)
            }.start()
        }
    }

    deinit {
        if ended.withLock({ $0 }) == nil {
            killGroup()
            // Reaped on a thread of its own: the last reference may go away on a cooperative-pool thread.
            let pid = pid
            Thread {
                var exitCode: Int32 = 0, signal: Int32 = 0
                _ = lhtest_wait(pid, 5_000, &exitCode, &signal)
            }.start()
        }
        closeInput()
    }

    /// Its stdout then its stderr so far (for helpers that log to either).
    var output: String { stdout.text + stderr.text }

    /// True until the child has been seen to end.
    var isRunning: Bool { reap(timeoutMilliseconds: 0) == nil }

    /// Sends a signal to the child alone, unless it has already been reaped (its pid may belong to someone else by now).
    func send(_ signal: Int32) {
        ended.withLock { state in
            if state == nil { kill(pid, signal) }
        }
    }

    /// Writes to the child's stdin (started with `.open`); false when the child closed it or never had one.
    @discardableResult
    func writeInput(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return input.withLock { fd in fd >= 0 && lhtest_write_all(fd, bytes, bytes.count) == 0 }
    }

    /// Ends the child's stdin (it reads end of file).
    func closeInput() {
        input.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    /// Waits without holding a thread for the child to end and its output to be complete. After `timeout` the
    /// child and its group are killed and `ChildTimeout` thrown, whether or not its output is still open.
    func waitForExit(timeout: Duration) async throws -> Termination {
        let deadline = ContinuousClock.now + timeout
        // Pacing from 1 ms up to 10 ms: nothing here reports an exit as it happens (waitpid is asked without
        // blocking, so no thread is held), so a short tool is seen to end at once and a long wait costs little.
        var pause = 1
        while reap(timeoutMilliseconds: 0) == nil {
            if ContinuousClock.now >= deadline { throw killForDeadline(timeout) }
            try await Task.sleep(for: .milliseconds(pause))
            pause = min(pause * 2, 10)
        }
        // The pipes close when it exits: the reader threads' end of file is the event, within a moment.
        var news = OutputNews([stdout, stderr], until: ContinuousClock.now + .seconds(2))
        defer { news.stop() }
        while !(stdout.isFinished && stderr.isFinished), await news.next() {}
        return termination()
    }

    /// `waitForExit` on the calling thread, for code that is not async.
    func waitForExitBlocking(timeout: Duration) throws -> Termination {
        let deadline = ContinuousClock.now + timeout
        // stdout ends when the child exits (unless something it started holds it): wait for that, then reap.
        while !stdout.waitUntilFinished(timeout: .milliseconds(20)) || reap(timeoutMilliseconds: 20) == nil {
            if reap(timeoutMilliseconds: 0) != nil { break }
            if ContinuousClock.now >= deadline { throw killForDeadline(timeout) }
        }
        _ = stdout.waitUntilFinished(timeout: .seconds(2)) && stderr.waitUntilFinished(timeout: .seconds(2))
        return termination()
    }

    /// Waits until captured stderr contains `text`; throws with the whole stderr when it does not in time or the child ends first.
    func waitForStderr(containing text: String, timeout: Duration = happensWithin) async throws {
        try await waitFor(text, in: "stderr", [stderr], timeout: timeout)
    }

    /// Waits until stdout or stderr contains `text` (servers that log to either); throws like `waitForStderr`.
    func waitForOutput(containing text: String, timeout: Duration = happensWithin) async throws {
        try await waitFor(text, in: "the output", [stdout, stderr], timeout: timeout)
    }

    /// SIGTERM now, then SIGKILL to its group after `grace` and reaping, on a thread of its own: callable from a
    /// `defer` in async code without blocking it. For a stop whose outcome matters, send SIGTERM and await `waitForExit`.
    func stop(grace: Duration = .seconds(2)) {
        send(SIGTERM)
        Thread { [self] in
            let deadline = ContinuousClock.now + grace
            while reap(timeoutMilliseconds: 10) == nil && ContinuousClock.now < deadline {}
            if ended.withLock({ $0 }) == nil {
                killGroup()
                _ = reap(timeoutMilliseconds: 5_000)
            }
        }.start()
    }

    /// Each look reads only what arrived since the last one (`OutputCapture.find`): a server that logs megabytes
    /// must not make every 10 ms look copy them all on a cooperative-pool thread.
    private func waitFor(_ text: String, in stream: String, _ captures: [OutputCapture], timeout: Duration) async throws {
        let needle = Array(text.utf8)
        var searched = Array(repeating: 0, count: captures.count)
        func found() -> Bool {
            for index in captures.indices {
                let (hit, end) = captures[index].find(needle, from: searched[index])
                if hit { return true }
                searched[index] = end
            }
            return false
        }
        var news = OutputNews(captures, until: ContinuousClock.now + timeout)
        defer { news.stop() }
        while await news.next() {
            if found() { return }
            // Every pipe at end of file (it exits, a moment before it can be reaped): nothing more can come.
            if captures.allSatisfy(\.isFinished) {
                let ended = try await waitForExit(timeout: happensWithin)
                throw HarnessError("\(commandLine) ended before \(stream) contained \"\(text)\": \(ended)")
            }
        }
        if found() { return }
        throw HarnessError("\(stream) of \(commandLine) never contained \"\(text)\" within \(timeout); it was:\n\(captures.map(\.text).joined())")
    }

    private func termination() -> Termination {
        let status = reap(timeoutMilliseconds: 0)
        return Termination(exitCode: status?.exitCode, signal: status?.signal, stdoutBytes: stdout.bytes, stderrBytes: stderr.bytes)
    }

    private func killForDeadline(_ limit: Duration) -> ChildTimeout {
        killGroup()
        _ = reap(timeoutMilliseconds: 5_000)
        // Killing the group closed its ends of the pipes; a moment for the readers to catch up.
        _ = stdout.waitUntilFinished(timeout: .milliseconds(500)) && stderr.waitUntilFinished(timeout: .milliseconds(500))
        return ChildTimeout(commandLine: commandLine, limit: limit, soFar: termination())
    }

    /// SIGKILL to the child's process group and the child, only while it is unreaped: its zombie keeps the
    /// pid (and so the group's id) from being given to another process.
    private func killGroup() {
        ended.withLock { state in
            guard state == nil else { return }
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
    }

    /// Reaps the child if it has ended (waiting up to the timeout, on the calling thread); nil while it runs.
    /// The lock is held only for each look (waitpid with WNOHANG), never through the pauses between looks, so
    /// `isRunning`, `send` and other waiters are not held up by a waiting thread.
    private func reap(timeoutMilliseconds: Int32) -> (exitCode: Int32?, signal: Int32?)? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeoutMilliseconds))
        while true {
            let state: (exitCode: Int32?, signal: Int32?)? = ended.withLock { state in
                if state != nil { return state }
                var exitCode: Int32 = 0
                var signal: Int32 = 0
                switch lhtest_wait(pid, 0, &exitCode, &signal) {
                case 1:
                    state = signal == 0 ? (exitCode, nil) : (nil, signal)
                case -1:
                    // Not our child any more: nothing left to wait for or to kill.
                    state = (nil, nil)
                default:
                    break
                }
                return state
            }
            if let state { return state }
            if ContinuousClock.now >= deadline { return nil }
            usleep(500)
        }
    }
}
