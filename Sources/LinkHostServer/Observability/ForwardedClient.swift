import LinkHostCore

/// The client address the access log shows behind proxies the config trusts (`server.trustedProxies`).
///
/// The forwarding fields are believed only from a peer in the list: anyone else can write them. Each proxy
/// appends to `X-Forwarded-For` the address it received the request from, so the list is read from the right,
/// skipping hops that are trusted proxies themselves; the first hop that is not one is the client, and
/// anything left of it may have been written by that client and is not looked at. When every hop is trusted,
/// the leftmost is the client. Without `X-Forwarded-For`, `CF-Connecting-IP` (Cloudflare's one address) is
/// used. A hop that is not an IP address (`unknown`, garbage) leaves the peer's address in the log.
package enum ForwardedClient {
    /// The client's address as text, or nil to log the peer's. The fields are read only for a trusted peer.
    package static func address(
        peer: some Collection<UInt8>, trusted: [AddressRange],
        forwardedFor: () -> String?, connectingIP: () -> String?
    ) -> String? {
        guard !trusted.isEmpty, let peerAddress = IPAddress.parse(peer), isTrusted(peerAddress, trusted) else { return nil }
        if let forwardedFor = forwardedFor(), forwardedFor.contains(where: { $0 != " " && $0 != "," }) {
            var leftmost: String?
            for hop in forwardedFor.split(separator: ",").reversed() {
                let text = String(hop.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
                guard let address = IPAddress.parse(text.utf8) else { return nil }
                if !isTrusted(address, trusted) { return text }
                leftmost = text
            }
            return leftmost
        }
        if let connectingIP = connectingIP() {
            let text = String(connectingIP.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            return IPAddress.parse(text.utf8) == nil ? nil : text
        }
        return nil
    }

    private static func isTrusted(_ address: [UInt8], _ trusted: [AddressRange]) -> Bool {
        trusted.contains { $0.contains(address) }
    }
}
