import CTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended.
struct Termination: Sendable, CustomStringConvertible {
    /// The exit code, or nil when a signal killed it.
    let exitCode: Int32?
    /// The signal that killed it, or nil when it exited.
    let signal: Int32?
    /// Everything it wrote to stdout.
    let stdout: String
    /// Everything it wrote to stderr.
    let stderr: String

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

/// The text of an errno value, e.g. "No such file or directory".
func errorText(_ code: Int32) -> String {
    let size: Int32 = 256
    var buffer = [CChar](repeating: 0, count: Int(size))
    lhtest_error_text(code, &buffer, size)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Bytes a child writes to one pipe, collected by a reader thread until end of file.
final class OutputCapture: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var finished = false
    }

    private let state = Mutex(State())

    /// Starts a thread that reads `descriptor` until end of file, then closes it.
    init(reading descriptor: Int32, name: String) {
        let thread = Thread { [self] in
            let size = 16_384
            var buffer = [UInt8](repeating: 0, count: size)
            while true {
                let count = read(descriptor, &buffer, size)
                if count > 0 {
                    let chunk = buffer[0..<count]
                    state.withLock { $0.bytes.append(contentsOf: chunk) }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(descriptor)
            state.withLock { $0.finished = true }
        }
        thread.name = name
        thread.start()
    }

    /// What has been read so far.
    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    /// True once the writer side closed (the child exited) and everything was read.
    var isFinished: Bool { state.withLock { $0.finished } }
}

/// A child process started through `lhtest_spawn`, with captured stdout and stderr.
///
/// It is killed with SIGKILL and reaped when the object goes away, so a failing or throwing test
/// leaves no process behind; if the whole test run dies, PR_SET_PDEATHSIG kills it instead.
final class ChildProcess: Sendable {
    /// The process ID (only signalled while the child is known not to have been reaped).
    let pid: pid_t
    /// The executable and arguments, for messages.
    let commandLine: String
    let stdout: OutputCapture
    let stderr: OutputCapture

    private let ended = Mutex<(exitCode: Int32?, signal: Int32?)?>(nil)

    /// Starts `executable` with `arguments` (without argv[0]) in `directory`, with exactly `environment`.
    init(executable: String, arguments: [String], environment: [String: String], directory: String) throws {
        var argumentBlock: [CChar] = []
        for word in [executable] + arguments { argumentBlock += word.utf8CString }
        var environmentBlock: [CChar] = []
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { environmentBlock += "\(name)=\(value)".utf8CString }
        if environmentBlock.isEmpty { environmentBlock = [0] }

        var stdoutFD: Int32 = -1
        var stderrFD: Int32 = -1
        var errorNumber: Int32 = 0
        let pid = lhtest_spawn(executable, argumentBlock, Int32(arguments.count + 1),
                               environmentBlock, Int32(environment.count), directory,
                               &stdoutFD, &stderrFD, &errorNumber)
        commandLine = ([executable] + arguments).joined(separator: " ")
        guard pid > 0 else {
            throw HarnessError("cannot start \(commandLine) in \(directory): \(errorText(errorNumber))")
        }
        self.pid = pid
        stdout = OutputCapture(reading: stdoutFD, name: "stdout of \(pid)")
        stderr = OutputCapture(reading: stderrFD, name: "stderr of \(pid)")
    }

    deinit {
        if ended.withLock({ $0 }) == nil {
            kill(pid, SIGKILL)
            _ = reap(timeoutMilliseconds: 5_000)
        }
    }

    /// True until the child has been seen to end.
    var isRunning: Bool { reap(timeoutMilliseconds: 0) == nil }

    /// Sends a signal, unless the child has already been reaped (its pid may belong to someone else by now).
    func send(_ signal: Int32) {
        ended.withLock { state in
            if state == nil { kill(pid, signal) }
        }
    }

    /// Waits for the child to end and for its output to be complete; throws when it outlives `timeout`.
    func waitForExit(timeout: Duration) async throws -> Termination {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = reap(timeoutMilliseconds: 0) {
                // The pipes close when it exits; give the reader threads a moment to drain them.
                let drainDeadline = ContinuousClock.now + .seconds(2)
                while !(stdout.isFinished && stderr.isFinished) && ContinuousClock.now < drainDeadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
                return Termination(exitCode: status.exitCode, signal: status.signal, stdout: stdout.text, stderr: stderr.text)
            }
            if ContinuousClock.now >= deadline {
                throw HarnessError("""
                    \(commandLine) is still running after \(timeout)
                    --- stdout so far ---
                    \(stdout.text)--- stderr so far ---
                    \(stderr.text)---------------------
                    """)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until captured stderr contains `text`; throws with the whole stderr when it does not in time.
    func waitForStderr(containing text: String, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while !stderr.text.contains(text) {
            if ContinuousClock.now >= deadline {
                throw HarnessError("stderr of \(commandLine) never contained \"\(text)\" within \(timeout); it was:\n\(stderr.text)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Reaps the child if it has ended (waiting up to the timeout); nil while it runs.
    private func reap(timeoutMilliseconds: Int32) -> (exitCode: Int32?, signal: Int32?)? {
        ended.withLock { state in
            if let state { return state }
            var exitCode: Int32 = 0
            var signal: Int32 = 0
            switch lhtest_wait(pid, timeoutMilliseconds, &exitCode, &signal) {
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
    }
}
