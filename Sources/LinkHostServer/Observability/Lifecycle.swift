#if canImport(Glibc)
import Glibc
#endif

/// Lifecycle messages on stderr, one line each, prefixed so they stand apart from access logs.
///
/// Under systemd with stderr connected to the journal (`JOURNAL_STREAM` names the device and inode of
/// fd 2, systemd.exec(5)), each line starts with its syslog priority instead (`<3>` error, `<4>` warning,
/// `<6>` the rest, sd-daemon(3)), so `journalctl -p err` finds the errors; the journal already names the
/// process, so `linkhost:` is not repeated on every line there.
enum Lifecycle {
    /// A lifecycle event (start, reload, stop): priority 6.
    static func info(_ message: String) { write([message], priority: 6, word: "") }
    /// Something likely wrong that does not stop serving: priority 4.
    static func warning(_ message: String) { write([message], priority: 4, word: "warning: ") }
    /// A failure (a reload, an order, a listener): priority 3.
    static func error(_ message: String) { write([message], priority: 3, word: "error: ") }
    /// Several error lines in one write, so a reader waiting for the first never sees it without the rest.
    static func errors(_ messages: [String]) { write(messages, priority: 3, word: "error: ") }

    /// True when stderr is the journal's stream: decided once, as the process starts writing.
    static let writesToJournal: Bool = {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(2, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }()

    /// The messages, each with its prefix, in one write. In the journal every physical line needs its
    /// priority (a message may hold several, e.g. a config error's diagnostics); elsewhere as it always was.
    private static func write(_ messages: [String], priority: Int, word: String) {
        let text: String
        if writesToJournal {
            text = messages.map { message in
                message.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                    .map { "<\(priority)>\($0.offset == 0 ? word : "")\($0.element)" }.joined(separator: "\n")
            }.joined(separator: "\n")
        } else {
            text = messages.map { "linkhost: \(word)\($0)" }.joined(separator: "\n")
        }
        StandardStreams.error(text + "\n")
    }
}
