import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One answered request, as the access log records it.
public struct AccessLogEntry: Sendable {
    /// Client address.
    public var remote: String
    /// Request method.
    public var method: String
    /// Request path without the query (queries may carry tokens).
    public var path: String
    /// Response status.
    public var status: Int
    /// Body bytes sent.
    public var bytes: Int
    /// Time from the request's headers to its answer, in microseconds.
    public var durationMicroseconds: Int
    /// User-Agent header.
    public var userAgent: String?
    /// Referer header (Combined format only).
    public var referer: String?
}

/// Access-log lines on stdout, written in batches by a timer rather than one syscall per line.
///
/// Each worker thread appends to a buffer of its own (found by thread ID), so writers on different
/// threads never wait for each other; the flusher takes each buffer briefly every 100 ms.
public final class AccessLog: Sendable {
    private final class Slot: Sendable {
        let owner = Atomic<UInt>(0)
        let buffer = Mutex<[UInt8]>([])
    }

    /// Buffer size that triggers an early flush of one slot, bounding memory under bursts.
    static let flushThreshold = 64 * 1024
    private let format: ObservabilitySettings.AccessLogFormat
    private let slots: [Slot]
    private let flusher: Task<Void, Never>
    private let output: Int32

    /// Starts a log in the given format writing to file descriptor `output` (stdout by default).
    public init(format: ObservabilitySettings.AccessLogFormat, output: Int32 = 1) {
        self.format = format
        self.output = output
        slots = (0..<64).map { _ in Slot() }
        let slots = self.slots
        flusher = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                for slot in slots { Self.drain(slot, to: output) }
            }
        }
    }

    deinit { flusher.cancel() }

    /// Appends one line for a request; no syscall unless this thread's buffer is full.
    public func record(_ entry: AccessLogEntry) {
        guard format != .off else { return }
        let line = Self.line(entry, format: format)
        let slot = slotForCurrentThread()
        let full = slot.buffer.withLock { buffer -> Bool in
            buffer.append(contentsOf: line.utf8)
            return buffer.count >= Self.flushThreshold
        }
        if full { Self.drain(slot, to: output) }
    }

    /// Writes everything buffered; called on shutdown.
    public func flush() {
        for slot in slots { Self.drain(slot, to: output) }
    }

    private func slotForCurrentThread() -> Slot {
        let me = UInt(bitPattern: Int(bitPattern: UInt(pthread_self())))
        var index = Int(me % UInt(slots.count))
        for _ in 0..<slots.count {
            let slot = slots[index]
            let owner = slot.owner.load(ordering: .relaxed)
            if owner == me { return slot }
            if owner == 0 && slot.owner.compareExchange(expected: 0, desired: me, ordering: .relaxed).exchanged { return slot }
            index = (index + 1) % slots.count
        }
        return slots[Int(me % UInt(slots.count))]
    }

    private static func drain(_ slot: Slot, to output: Int32) {
        let pending = slot.buffer.withLock { buffer -> [UInt8] in
            let taken = buffer
            buffer.removeAll(keepingCapacity: true)
            return taken
        }
        var rest = pending[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            // A full disk or closed pipe must not stop serving: the lines are dropped.
            guard written > 0 else { return }
            rest = rest.dropFirst(written)
        }
    }

    /// One log line, newline included.
    static func line(_ entry: AccessLogEntry, format: ObservabilitySettings.AccessLogFormat) -> String {
        let (seconds, milliseconds) = LogTime.now()
        switch format {
        case .json, .off:
            var line = "{\"time\":\"\(LogTime.iso8601(seconds: seconds, milliseconds: milliseconds))\",\"remote\":"
            appendJSONString(entry.remote, to: &line)
            line += ",\"method\":"
            appendJSONString(entry.method, to: &line)
            line += ",\"path\":"
            appendJSONString(entry.path, to: &line)
            line += ",\"status\":\(entry.status),\"bytes\":\(entry.bytes),\"duration_us\":\(entry.durationMicroseconds),\"user_agent\":"
            appendJSONString(entry.userAgent ?? "", to: &line)
            return line + "}\n"
        case .common, .combined:
            var line = "\(entry.remote) - - [\(LogTime.commonLog(seconds: seconds))] \""
            appendQuoted(entry.method, to: &line)
            line += " "
            appendQuoted(entry.path, to: &line)
            line += " HTTP/1.1\" \(entry.status) \(entry.bytes)"
            if format == .combined {
                line += " \""
                appendQuoted(entry.referer ?? "-", to: &line)
                line += "\" \""
                appendQuoted(entry.userAgent ?? "-", to: &line)
                line += "\""
            }
            return line + "\n"
        }
    }

    /// JSON string with every control character escaped: a request can never forge a log line.
    static func appendJSONString(_ value: String, to line: inout String) {
        line += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }

    /// Common-log field text: quotes, backslashes and control characters become `\xHH`.
    static func appendQuoted(_ value: String, to line: inout String) {
        for byte in value.utf8 {
            if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                let hex = String(byte, radix: 16, uppercase: true)
                line += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                line.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
    }
}
