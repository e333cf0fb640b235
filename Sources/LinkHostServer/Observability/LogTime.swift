#if canImport(Glibc)
import Glibc
#endif

/// Clocks and timestamp text for logs, without Foundation's ICU-backed date formatting.
enum LogTime {
    /// Monotonic nanoseconds, for durations.
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Wall-clock time as seconds and milliseconds since the Unix epoch.
    static func now() -> (seconds: Int, milliseconds: Int) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return (Int(time.tv_sec), Int(time.tv_nsec) / 1_000_000)
    }
}
