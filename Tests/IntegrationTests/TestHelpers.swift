import Foundation
import Testing

/// Parses JSON bytes with Foundation, recording the text when they are not JSON.
func parseJSON(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Any? {
    do {
        return try JSONSerialization.jsonObject(with: Data(bytes))
    } catch {
        Issue.record("not JSON (\(error)): \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        return nil
    }
}

/// The app IDs listed in an AASA document's applinks details (modern `appIDs` and legacy `appID`).
func aasaAppIDs(_ document: Any?) -> [String] {
    let applinks = (document as? [String: Any])?["applinks"] as? [String: Any]
    let details = applinks?["details"] as? [[String: Any]] ?? []
    return details.flatMap { detail in
        (detail["appIDs"] as? [String] ?? []) + [detail["appID"] as? String].compactMap { $0 }
    }
}

/// Checks a strong entity tag: a quoted opaque tag, not `W/`.
func isStrongETag(_ tag: String?) -> Bool {
    guard let tag else { return false }
    return tag.count >= 2 && tag.hasPrefix("\"") && tag.hasSuffix("\"")
}

/// Reads `max-age=N` from a Cache-Control value.
func maxAge(_ cacheControl: String?) -> Int? {
    guard let cacheControl else { return nil }
    for directive in cacheControl.split(separator: ",") {
        let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
        if parts.count == 2, parts[0].lowercased() == "max-age" { return Int(parts[1]) }
    }
    return nil
}

/// Polls `condition` (which may await a request) every 20 ms until it holds; false when `timeout` passes first.
/// Checked once more after the deadline, so a condition that came true while this task waited is still seen.
func eventually(timeout: Duration = happensWithin, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        // Pacing, the one poll's: what `condition` looks at (a counter, a file, a kernel table) sends no news.
        try await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
