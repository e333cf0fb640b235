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

    /// Civil date in UTC from days since 1970-01-01 (proleptic Gregorian calendar).
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
