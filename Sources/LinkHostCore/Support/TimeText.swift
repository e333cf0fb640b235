/// Unix seconds from and to the text forms the web writes times in: `Retry-After` (RFC 9110 §10.2.3: seconds,
/// or an HTTP date) and RFC 3339 timestamps (ACME Renewal Information's windows; logs, `/healthz`, `check`).
/// What is read comes from someone else (a CA, a server), so anything odd is nil.
package enum TimeText {
    /// Seconds to wait from `now` (Unix seconds), never negative; nil when absent or unreadable.
    package static func retryAfter(_ value: String?, now: Int) -> Int? {
        guard let value = value.map({ String($0.drop { $0 == " " }) }), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return min(seconds, 30 * 86_400) }
        guard let date = httpDate(value) else { return nil }
        return max(0, min(date - now, 30 * 86_400))
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate) as Unix seconds.
    package static func httpDate(_ text: String) -> Int? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]) else { return nil }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let month = months.firstIndex(of: String(parts[2])) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        return unixTime(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2])
    }

    /// `2025-01-02T03:04:05Z`, with optional fractional seconds and a `±hh:mm` offset, as Unix seconds.
    package static func rfc3339(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(String(decoding: bytes[range], as: UTF8.self))
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
        var index = 19
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        }
        guard index < bytes.count, let base = unixTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else { return nil }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") { return index + 1 == bytes.count ? base : nil }
        guard bytes.count == index + 6, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
              let offsetHours = number((index + 1)..<(index + 3)), bytes[index + 3] == UInt8(ascii: ":"),
              let offsetMinutes = number((index + 4)..<(index + 6)) else { return nil }
        let offset = (offsetHours * 60 + offsetMinutes) * 60
        return bytes[index] == UInt8(ascii: "+") ? base - offset : base + offset
    }

    /// `2025-01-02T03:04:05Z` for Unix seconds, for logs and /healthz.
    package static func format(_ time: Int) -> String {
        let days = time >= 0 ? time / 86_400 : (time - 86_399) / 86_400
        let seconds = time - days * 86_400
        let (year, month, day) = CivilDate.date(days: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))Z"
    }

    /// Unix seconds of a UTC calendar time; nil when a field is out of range.
    static func unixTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }
}
