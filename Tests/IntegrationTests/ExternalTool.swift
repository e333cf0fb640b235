import Foundation

/// Runs a tool found on PATH (openssl, curl, python3) and returns its exit status and output.
struct ExternalTool {
    /// The tool's exit status, standard output and standard error.
    struct Result {
        let status: Int32
        let output: String
        let error: String
    }

    /// True when `name` is an executable on PATH.
    static func exists(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    /// Runs `name` with `arguments`, feeding `input` on standard input; at most `timeout` seconds.
    static func run(_ name: String, _ arguments: [String], input: String? = nil, timeout: TimeInterval = 30) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        let output = Pipe(), error = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        let collected = output.fileHandleForReading.readDataToEndOfFile()
        let collectedError = error.fileHandleForReading.readDataToEndOfFile()
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: collected, as: UTF8.self), error: String(decoding: collectedError, as: UTF8.self))
    }
}
