/// Finds the placeholder a template author most likely meant by a misspelled one (`{callID}`, `{call_id}`,
/// `{calltype}:{callid}`), so the error can name it instead of only restating the template rules.
enum PlaceholderSpelling {
    /// The one of `candidates` that `text` is a near miss of: equal ignoring case and `_`/`-`, or at most
    /// two edits away (about one misspelled letter per placeholder); nil when none is that close.
    /// Only a text in braces is a placeholder at all: `x{callId}` is a placement mistake, not a spelling one.
    static func nearest(_ text: String, among candidates: [String]) -> String? {
        guard text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
        let folded = fold(text)
        if let same = candidates.first(where: { fold($0) == folded }) { return same }
        let scored = candidates.map { ($0, EditDistance.between(Array(folded.utf8), Array(fold($0).utf8))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    /// Lowercased ASCII without `_` and `-`: `{Call_ID}` and `{callId}` fold alike.
    private static func fold(_ text: String) -> String {
        String(decoding: text.utf8.compactMap { byte -> UInt8? in
            if byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") { return nil }
            return byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
        }, as: UTF8.self)
    }
}
