import Foundation

/// Finds the real `linkhost` binary and runs its commands to completion.
enum LinkHostCLI {
    /// Where the binary was found, or why it was not.
    static let binary: Result<String, HarnessError> = locate()

    /// The binary's path; throws naming every place that was tried.
    static func binaryPath() throws -> String { try binary.get() }

    /// The test process's environment without `LINKHOST_*`, so a developer's shell settings
    /// never change what a test sees; each test adds exactly the variables it means to.
    static var baseEnvironment: [String: String] { ChildProcess.inheritedEnvironment }

    /// Runs `linkhost ARGUMENTS` (in `directory`, reading `input`) to its end, killing it after `timeout`.
    static func run(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:], directory: String? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> Termination {
        let child = try ChildProcess(
            executable: try binaryPath(), arguments: arguments, input: input.map { .text($0) } ?? .none,
            environment: baseEnvironment.merging(environment) { $1 }, directory: directory)
        return try await child.waitForExit(timeout: timeout)
    }

    /// `run(_:)` started, waited for and timed on a thread of its own, for tests that bound how long a command
    /// takes: an `await` resumes only when the cooperative pool has a free thread, which on a busy machine
    /// added seconds that were not the command's.
    static func runTimed(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> (Termination, Duration) {
        let binary = try binaryPath()
        return try await onThread("timed linkhost run") {
            let started = ContinuousClock.now
            let child = try ChildProcess(executable: binary, arguments: arguments, environment: baseEnvironment)
            let termination = try child.waitForExitBlocking(timeout: timeout)
            return (termination, ContinuousClock.now - started)
        }
    }

    /// `LINKHOST_BINARY`, else `linkhost` beside the running test bundle (SwiftPM builds the
    /// executable target the integration tests depend on into the same folder), else the package's
    /// `.build/debug/linkhost`.
    private static func locate() -> Result<String, HarnessError> {
        if let path = ProcessInfo.processInfo.environment["LINKHOST_BINARY"], !path.isEmpty {
            return FileManager.default.isExecutableFile(atPath: path)
                ? .success(path)
                : .failure(HarnessError("LINKHOST_BINARY is \(path), which is not an executable file"))
        }
        var candidates: [String] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(folder(of: executable) + "/linkhost")
        }
        if let first = CommandLine.arguments.first, first.contains("/") {
            let absolute = first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first
            candidates.append(folder(of: absolute) + "/linkhost")
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        candidates.append(packageRoot + "/.build/debug/linkhost")
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            return .success(found)
        }
        return .failure(HarnessError("cannot find the linkhost binary; build it (swift build) or set LINKHOST_BINARY. Tried: \(candidates.joined(separator: ", "))"))
    }

    private static func folder(of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().path
    }
}
