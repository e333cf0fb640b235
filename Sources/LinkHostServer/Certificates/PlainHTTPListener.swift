import LinkHostCore
import Synchronization

/// What the plain-HTTP listener beside HTTPS answers itself: ACME challenge answers, and a 308 to HTTPS (for
/// hosts the config names: sites' hosts, the top level's names and the certificate's, `RedirectHosts`; 404 for
/// others) for everything that is not an association file, the health probe or the metrics (those are served
/// as on HTTPS, never redirected: Apple's and Google's fetchers follow no redirects).
package final class PlainHTTPListener: Sendable {
    /// The published HTTP-01 answers.
    package let challenges: ChallengeResponses
    /// The top level's and the certificate file's names, replaced with each snapshot (`name(_:tls:)`).
    private let redirectHosts = Mutex(RedirectHosts())

    /// Makes the listener's role over `challenges`.
    package init(challenges: ChallengeResponses) {
        self.challenges = challenges
    }

    /// Redirects the names `config`'s top level and the certificate in `tls` give from now on.
    package func name(_ config: Config, tls: TLSMaterial?) {
        let hosts = RedirectHosts(config: config, tls: tls)
        redirectHosts.withLock { $0 = hosts }
    }

    /// The answer for a request on the HTTP listener, or nil when the normal request path answers it.
    func intercept<Incoming: IncomingRequest>(_ incoming: Incoming, path: UnsafeBufferPointer<UInt8>, site: Site, snapshot: Snapshot,
                                              hostField: UnsafePointer<CChar>?) -> Response? {
        let pathText = String(decoding: path, as: UTF8.self)
        if pathText.hasPrefix(ChallengeResponses.pathPrefix) {
            guard let answer = challenges.answer(forPath: pathText) else {
                return Response(status: 404, headers: Self.common + [HTTPHeader("Content-Type", "text/plain; charset=utf-8")], body: Array("Not Found\n".utf8), route: .acmeChallenge)
            }
            return Response(status: 200, headers: Self.common + [HTTPHeader("Content-Type", "application/octet-stream")], body: Array(answer.utf8), route: .acmeChallenge)
        }
        if let resource = snapshot.exactResource(path, on: site), [.aasa, .assetLinks, .health, .metrics].contains(resource.ok.route) { return nil }
        guard let host = Self.redirectHost(hostField.map { String(cString: $0) }, site: site),
              let target = Self.redirectPath(pathText) else { return snapshot.badRequest }
        // Only to a host the config names (or this machine's own loopback names, for try-outs): a redirect for
        // any Host would hand `https://evil.example/…` to a cache keyed without it (issue 30, item 12).
        guard hostField == nil || snapshot.namesHost(host.utf8, site: site) || PageHost.isLoopback(Array(host.utf8))
                || redirectHosts.withLock({ $0.contains(host) }) else {
            return snapshot.unknownHost
        }
        let location = "https://\(host)\(Self.escape(target))\(Self.query(incoming.queryItems()))"
        return Response(status: 308, headers: Self.common + [HTTPHeader("Location", location), HTTPHeader("Content-Type", "text/plain; charset=utf-8")],
                        body: Array("Permanent Redirect to \(location)\n".utf8), route: .httpsRedirect)
    }

    private static let common = [HTTPHeader("Server", "linkhost"), HTTPHeader("X-Content-Type-Options", "nosniff"), HTTPHeader("Cache-Control", "no-store")]

    /// The request's host without its port when it is a plain host name or address, else the site's first
    /// host; nil when neither can be trusted into a `Location`.
    static func redirectHost(_ field: String?, site: Site) -> String? {
        if let field {
            let host = String(decoding: HostName.host(ofAuthority: Array(field.utf8)), as: UTF8.self).lowercased()
            let plain = !host.isEmpty && host.utf8.count <= 253 && host.utf8.allSatisfy { byte in
                HostByte.isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
            let bracketed = host.hasPrefix("[") && host.hasSuffix("]") && host.dropFirst().dropLast().utf8.allSatisfy { byte in
                HostByte.isLetterOrDigit(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
            }
            if plain || bracketed { return host }
        }
        return site.config.hosts.first { !$0.hasPrefix("*.") }
    }

    /// The path a redirect names: the target itself in origin form (it starts with "/"), the path of an
    /// absolute-form target (RFC 9112 §3.2.2; its authority is the request's, already checked as the Host),
    /// nil for anything else (`*`, `@evil.example/x`), which would put text other than a path after the host.
    static func redirectPath(_ target: String) -> String? {
        if target.hasPrefix("/") { return target }
        let lowered = target.prefix(8).lowercased()
        let schemeLength = lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return nil }
        let rest = target.dropFirst(schemeLength)
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...])
    }

    /// The path with anything a URL may not hold percent-encoded (it is the raw request path, so mostly as is).
    static func escape(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "<"), byte != UInt8(ascii: ">"), byte != UInt8(ascii: "\\") {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return output
    }

    /// `?name=value&…` rebuilt from the arguments libmicrohttpd parsed (it keeps them raw, but turns `+` into a space).
    private static func query(_ items: [(name: String, value: String?)]) -> String {
        let parts = items.map { item in
            let name = escape(item.name).replacing("%20", with: "+")
            return item.value.map { name + "=" + escape($0).replacing("%20", with: "+") } ?? name
        }
        return parts.isEmpty ? "" : "?" + parts.joined(separator: "&")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
