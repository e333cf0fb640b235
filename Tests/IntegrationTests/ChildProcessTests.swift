import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The harness's own promise: a child keeps only stdin, stdout and stderr, whatever the test process has open.
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
}
