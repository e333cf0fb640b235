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
/// A slot has two buffers, swapped when one is written out, so a flush allocates nothing either.
package final class AccessLog: Sendable {
    /// One thread's lines.
    private final class Slot: Sendable {
        let owner = Atomic<UInt>(0)
        /// The buffer being filled and the one waiting to be, under one short lock.
        let buffers = Mutex(SlotBuffers())
        /// Held while a buffer is written out: a second drain waits, so it never swaps in the buffer
        /// still being written.
        let writing = Mutex(())

        // The last reference goes when both the log and its flusher task are done with the slot.
        deinit {
            buffers.withLock { buffers in
                buffers.filling.release()
                buffers.spare.release()
            }
        }
    }

    /// A slot's two buffers and its time stamp of the current second.
    private struct SlotBuffers: ~Copyable {
        var filling = LogBuffer()
        var spare = LogBuffer()
        var clock = LogClock()
    }

    /// Buffer size that triggers an early flush of one slot, bounding memory under bursts.
    static let flushThreshold = 64 * 1024
    /// Room in a buffer: the threshold and the longest usual line above it.
    static let bufferCapacity = flushThreshold + 16 * 1024
    private let format: ObservabilitySettings.AccessLogFormat
    private let slots: [Slot]
    private let flusher: Task<Void, Never>
    private let output: Int32

    /// Starts a log in the given format writing to file descriptor `output` (stdout by default).
    package init(format: ObservabilitySettings.AccessLogFormat, output: Int32 = 1) {
        self.format = format
        self.output = output
        // Buffers are allocated when a thread first logs: an idle server holds none.
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

    /// Appends one line for an answered request; no syscall unless this thread's buffer is full.
    func record(_ fields: LogFields) {
        guard format != .off else { return }
        let needed = LogLineWriter.maximumLength(of: fields)
        let slot = slotForCurrentThread()
        if needed > Self.bufferCapacity {
            // Longer than a buffer (a huge request head under a large connectionMemoryLimit): written alone.
            Self.drain(slot, to: output)
            writeAlone(fields, length: needed, slot: slot)
            return
        }
        for attempt in 0..<2 {
            let state = slot.buffers.withLock { buffers -> AppendState in
                guard buffers.filling.reserve(Self.bufferCapacity), buffers.filling.count + needed <= Self.bufferCapacity else {
                    return buffers.filling.base == nil ? .noMemory : .full
                }
                var writer = LogLineWriter(base: buffers.filling.base!, count: buffers.filling.count)
                writer.write(format: format, fields, clock: &buffers.clock)
                buffers.filling.count = writer.count
                return buffers.filling.count >= Self.flushThreshold ? .flushNow : .written
            }
            switch state {
            case .written: return
            case .flushNow: Self.drain(slot, to: output); return
            case .noMemory: return // the line is dropped; serving goes on
            case .full: if attempt == 0 { Self.drain(slot, to: output) }
            }
        }
    }

    private enum AppendState { case written, flushNow, full, noMemory }

    /// Writes everything buffered; called on shutdown.
    package func flush() {
        for slot in slots { Self.drain(slot, to: output) }
    }

    private func writeAlone(_ fields: LogFields, length: Int, slot: Slot) {
        guard let base = malloc(length)?.assumingMemoryBound(to: UInt8.self) else { return }
        defer { free(base) }
        var writer = LogLineWriter(base: base, count: 0)
        var clock = LogClock()
        writer.write(format: format, fields, clock: &clock)
        slot.writing.withLock { _ in Self.write(UnsafeBufferPointer(start: base, count: writer.count), to: output) }
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
        slot.writing.withLock { _ in
            // Swap in the spare so the writer side keeps appending; an idle slot is left alone.
            let full = slot.buffers.withLock { buffers -> LogBuffer? in
                guard buffers.filling.count > 0 else { return nil }
                let full = buffers.filling
                buffers.filling = buffers.spare
                buffers.filling.count = 0
                buffers.spare = LogBuffer()
                return full
            }
            guard var full else { return }
            write(UnsafeBufferPointer(start: full.base, count: full.count), to: output)
            full.count = 0
            slot.buffers.withLock { buffers in
                if buffers.spare.base == nil { buffers.spare = full } else { full.release() }
            }
        }
    }

    private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to output: Int32) {
        var rest = bytes
        while !rest.isEmpty {
            let written = Glibc.write(output, rest.baseAddress, rest.count)
            if written < 0 && errno == EINTR { continue }
            // A full disk or closed pipe must not stop serving: the lines are dropped.
            guard written > 0 else { return }
            rest = UnsafeBufferPointer(rebasing: rest[written...])
        }
    }
}

/// A malloc'd byte buffer of `AccessLog.bufferCapacity` bytes, allocated on first use.
///
/// Unchecked: a buffer is only touched under its slot's locks, and moved between them whole.
private struct LogBuffer: @unchecked Sendable {
    var base: UnsafeMutablePointer<UInt8>?
    var count = 0

    /// Allocates the buffer if it has none; false when there is no memory.
    mutating func reserve(_ capacity: Int) -> Bool {
        if base == nil { base = malloc(capacity)?.assumingMemoryBound(to: UInt8.self) }
        return base != nil
    }

    mutating func release() {
        free(base)
        base = nil
        count = 0
    }
}
