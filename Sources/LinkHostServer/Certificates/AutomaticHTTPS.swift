import LinkHostCore

/// The HTTPS side of the supervisor: the plain-HTTP listener beside HTTPS (whenever `server.httpPort` is set)
/// and, with ACME, the certificate manager that fills the HTTPS listener's SNI table.
package final class AutomaticHTTPS: Sendable {
    private let listener: Server
    private let manager: CertificateManager?

    private init(listener: Server, manager: CertificateManager?) {
        self.listener = listener
        self.manager = manager
    }

    /// Starts the HTTP listener at once, serves the stored certificates and starts ordering the missing
    /// ones; nil when the config has no HTTP listener. Call it before the HTTPS listener starts, so a stored
    /// certificate is in place for its first handshake. `listeningSocket` is the one systemd passed named `http`;
    /// `tls` the certificate file HTTPS serves, whose names are redirected too.
    package static func start(snapshot: Snapshot, tls: TLSMaterial?, metrics: Metrics, accessLog: AccessLog?, listeningSocket: Int32? = nil) throws(ServerError) -> AutomaticHTTPS? {
        let server = snapshot.config.server
        guard let httpPort = server.httpPort, server.servesHTTPS else { return nil }
        let challenges = ChallengeResponses()
        // Checked before anything listens: with a state folder others can write to, serve does not start.
        let manager = server.acme.map { CertificateManager(settings: $0, targets: CertificateTarget.targets(for: snapshot.config), challenges: challenges, board: metrics.certificates) }
        do throws(StoreError) { try manager?.prepare() } catch { throw ServerError(description: "\(error)") }
        var settings = server
        settings.port = httpPort
        let plainHTTP = PlainHTTPListener(challenges: challenges)
        plainHTTP.name(snapshot.config, tls: tls)
        let listener = try Server(snapshot: snapshot, tls: nil, settings: settings, metrics: metrics, accessLog: accessLog,
                                  plainHTTP: plainHTTP, listeningSocket: listeningSocket)
        let shown = listener.boundHost.contains(":") ? "[\(listener.boundHost)]" : listener.boundHost
        Lifecycle.info("HTTP listener on http://\(shown):\(listener.boundPort): ACME challenges, association files, health and metrics; 308 to HTTPS for the rest")
        manager?.start()
        return AutomaticHTTPS(listener: listener, manager: manager)
    }

    /// After a reload: the HTTP listener serves the new snapshot and redirects its names (and those of the
    /// certificate file `tls`), and hosts added to sites get certificates.
    package func install(_ snapshot: Snapshot, tls: TLSMaterial?) {
        listener.plainHTTP?.name(snapshot.config, tls: tls)
        do {
            try listener.install(snapshot, tls: nil)
        } catch {
            Lifecycle.error("the HTTP listener keeps the old snapshot: \(error)")
        }
        manager?.update(CertificateTarget.targets(for: snapshot.config))
    }

    /// Stops ordering and closes the HTTP listener after its in-flight requests (up to `timeout` seconds).
    package func shutdown(timeout: Double) {
        manager?.stop(timeout: 2)
        listener.shutdown(timeout: timeout)
    }
}
