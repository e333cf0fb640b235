import LinkHostCore

/// The client address the access log shows behind proxies the config trusts (`server.trustedProxies`).
///
/// The forwarding fields are believed only from a peer in the list: anyone else can write them. Each proxy
/// appends to `X-Forwarded-For` the address it received the request from, so the list is read from the right,
/// skipping hops that are trusted proxies themselves; the first hop that is not one is the client, and
/// anything left of it may have been written by that client and is not looked at. When every hop is trusted,
/// the leftmost is the client. Only without any `X-Forwarded-For` is `CF-Connecting-IP` (Cloudflare's one
/// address) used: a field that is present but too long or holds a hop that is not an IP address leaves the
/// peer's address in the log, never another field's, since the client may have made it unreadable on
/// purpose to have its own `CF-Connecting-IP` believed. What is returned is the address re-written from its
/// parsed bytes (`IPAddress.text`), so a zone, quote or space a client appended never reaches a log.
package enum ForwardedClient {
    /// An `X-Forwarded-For` field as the server read it.
    package enum Field: Equatable {
        /// The request has no such field.
        case absent
        /// The field is there but longer than the server reads (its lines joined).
        case tooLong
        /// The field's lines joined with ", ".
        case value(String)
    }

    /// The client's address as text, or nil to log the peer's. The fields are read only for a trusted peer.
    package static func address(
        peer: some Collection<UInt8>, trusted: [AddressRange],
        forwardedFor: () -> Field, connectingIP: () -> String?
    ) -> String? {
        guard !trusted.isEmpty, let peerAddress = IPAddress.parse(peer), isTrusted(peerAddress, trusted) else { return nil }
        switch forwardedFor() {
        case .tooLong:
            return nil
        case .value(let forwardedFor):
            var leftmost: [UInt8]?
            for hop in forwardedFor.split(separator: ",", omittingEmptySubsequences: false).reversed() {
                guard let address = IPAddress.parse(trimmed(hop).utf8) else { return nil }
                if !isTrusted(address, trusted) { return IPAddress.text(address) }
                leftmost = address
            }
            return leftmost.map(IPAddress.text)
        case .absent:
            return connectingIP().flatMap { IPAddress.parse(trimmed(Substring($0)).utf8) }.map(IPAddress.text)
        }
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func isTrusted(_ address: [UInt8], _ trusted: [AddressRange]) -> Bool {
        trusted.contains { $0.contains(address) }
    }
}
