import CSystem
import LinkHostCore

#if canImport(Glibc)
import Glibc
#endif

/// The listening sockets systemd passed (LISTEN_FDS, named by LISTEN_FDNAMES), sorted into the listeners
/// the config has: the public one (HTTPS when the config serves HTTPS) and the plain-HTTP one beside it.
///
/// A socket unit names its sockets with `FileDescriptorName=https` and `FileDescriptorName=http`; without
/// those names systemd passes the unit's name (`linkhost.socket`) for each. Unnamed sockets are all the
/// public listener, which is right for one plain-HTTP port but cannot say which of two ports is which: a
/// config with HTTPS and `server.httpPort` needs the names, and anything that does not fit the config is
/// an error naming the fix, never a silent guess (sd_listen_fds_with_names(3), systemd.socket(5)).
struct ActivatedSockets: Sendable {
    /// The public listener's sockets (HTTPS when the config serves it); empty: linkhost binds its own.
    let publicSockets: [Int32]
    /// The socket of the plain-HTTP listener beside HTTPS, when systemd passed one named `http`.
    let httpSocket: Int32?
    /// The names systemd gave, for the start line ("https, http"); empty when it named none.
    let names: [String]

    /// True when systemd passed any socket.
    var isEmpty: Bool { publicSockets.isEmpty && httpSocket == nil }

    /// Takes what systemd passed and sorts it for `server`; throws when the two do not fit together.
    static func take(for server: ServerSettings) throws(ServerError) -> ActivatedSockets {
        // Read before csys_listen_fds, which removes the variables so that no child process takes them.
        let nameList = getenv("LISTEN_FDNAMES").map { String(cString: $0) }
        let count = csys_listen_fds()
        guard count >= 0 else {
            throw ServerError(description: "LISTEN_FDS is set for this process but is not a number of descriptors")
        }
        let fds = (0..<count).map { 3 + Int32($0) }
        var names = nameList.map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) } ?? []
        names += Array(repeating: "unknown", count: max(0, fds.count - names.count))
        return try sort(Array(zip(fds, names)), server: server)
    }

    /// The names linkhost gives a meaning to.
    private static let known: Set<String> = ["http", "https"]

    static func sort(_ sockets: [(fd: Int32, name: String)], server: ServerSettings) throws(ServerError) -> ActivatedSockets {
        let fix = "name each ListenStream= socket's unit with FileDescriptorName=https or FileDescriptorName=http (deploy/linkhost-https.socket)"
        guard sockets.contains(where: { known.contains($0.name) }) else {
            // No names: every socket is the public listener, as before names existed.
            if !sockets.isEmpty, server.servesHTTPS, server.httpPort != nil {
                throw ServerError(description: "systemd passed \(sockets.count) socket\(sockets.count == 1 ? "" : "s") without the names https or http, but the config has HTTPS and server.httpPort: which is which cannot be told; \(fix)", exitStatus: 2)
            }
            return ActivatedSockets(publicSockets: sockets.map(\.fd), httpSocket: nil, names: [])
        }
        if let stranger = sockets.first(where: { !known.contains($0.name) }) {
            throw ServerError(description: "systemd passed descriptor \(stranger.fd) named \"\(stranger.name)\" beside named ones; linkhost knows https and http only: \(fix)", exitStatus: 2)
        }
        let https = sockets.filter { $0.name == "https" }.map(\.fd)
        let http = sockets.filter { $0.name == "http" }.map(\.fd)
        let names = sockets.map(\.name)
        guard server.servesHTTPS else {
            if !https.isEmpty {
                throw ServerError(description: "systemd passed a socket named https, but the config serves plain HTTP (no server.tls): set server.tls (certificate files or acme), or name the socket http", exitStatus: 2)
            }
            return ActivatedSockets(publicSockets: http, httpSocket: nil, names: names)
        }
        guard !https.isEmpty else {
            throw ServerError(description: "the config serves HTTPS, but systemd passed no socket named https (only http): add a ListenStream= with FileDescriptorName=https", exitStatus: 2)
        }
        switch (http.count, server.httpPort) {
        case (0, nil):
            return ActivatedSockets(publicSockets: https, httpSocket: nil, names: names)
        case (0, .some(let port)):
            throw ServerError(description: "the config has server.httpPort \(port) (the HTTP listener beside HTTPS), but systemd passed no socket named http: add a ListenStream= with FileDescriptorName=http, so that systemd holds that port too", exitStatus: 2)
        case (_, nil):
            throw ServerError(description: "systemd passed a socket named http, but the config has no server.httpPort: set server.httpPort (the socket's own address is used) or remove the socket", exitStatus: 2)
        case (1, _):
            return ActivatedSockets(publicSockets: https, httpSocket: http[0], names: names)
        default:
            throw ServerError(description: "systemd passed \(http.count) sockets named http; the HTTP listener beside HTTPS takes one (ListenStream=80 with BindIPv6Only=both covers IPv4 and IPv6)", exitStatus: 2)
        }
    }
}
