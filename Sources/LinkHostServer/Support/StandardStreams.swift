#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to stdout and stderr: a line is out the moment it is written, even into a pipe.
///
/// Here rather than in the core, which writes nothing: the server logs its lifecycle with it, the CLI its output.
package enum StandardStreams {
    /// Writes text to standard output.
    package static func output(_ text: String) { write(1, text) }

    /// Writes text to standard error.
    package static func error(_ text: String) { write(2, text) }

    private static func write(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
