import LinkHostCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Access-log lines on stdout, written in batches by a timer rather than one syscall per line.
///
/// Each worker thread appends to a buffer of its own (found by thread ID), so writers on different
/// threads never wait for each other; the flusher takes each buffer briefly every 100 ms. Lines are
/// formatted straight into that buffer from the request's bytes: logging allocates nothing per request.
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
        slots = (0..<64).map { _ in
            let slot = Slot()
            slot.buffer.withLock { $0.reserveCapacity(Self.flushThreshold + 4096) }
            return slot
        }
        let slots = self.slots
        flusher = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                for slot in slots { Self.drain(slot, to: output) }
            }
        }
    }

    deinit { flusher.cancel() }

    /// Appends one line for an answered request; no syscall unless this thread's buffer is full.
    public func record(remote: Span<UInt8>, method: Span<UInt8>, path: Span<UInt8>, status: Int, bytes: Int,
                       durationMicroseconds: Int, userAgent: Span<UInt8>, referer: Span<UInt8>) {
        guard format != .off else { return }
        let slot = slotForCurrentThread()
        let full = slot.buffer.withLock { buffer -> Bool in
            var line = LogLineWriter(buffer: buffer)
            buffer = []
            line.write(format: format, remote: remote, method: method, path: path, status: status, bytes: bytes,
                       durationMicroseconds: durationMicroseconds, userAgent: userAgent, referer: referer)
            buffer = line.buffer
            return buffer.count >= Self.flushThreshold
        }
        if full { Self.drain(slot, to: output) }
    }

    /// Writes everything buffered; called on shutdown.
    public func flush() {
        for slot in slots { Self.drain(slot, to: output) }
    }

    private func slotForCurrentThread() -> Slot {
        let me = UInt(pthread_self())
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
        // Swap in an empty buffer of the same capacity so the writer side keeps appending without growing;
        // an idle slot is left alone, so an idle server allocates nothing.
        guard !slot.buffer.withLock({ $0.isEmpty }) else { return }
        var pending = [UInt8]()
        pending.reserveCapacity(flushThreshold + 4096)
        slot.buffer.withLock { swap(&$0, &pending) }
        var rest = pending[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            // A full disk or closed pipe must not stop serving: the lines are dropped.
            guard written > 0 else { return }
            rest = rest.dropFirst(written)
        }
    }
}
