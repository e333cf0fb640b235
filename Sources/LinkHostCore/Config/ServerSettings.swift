import LinkHostJSON

/// Listener and connection settings.
public struct ServerSettings: Sendable, Equatable {
    /// Address to bind: "::" is dual stack (IPv6 and IPv4), "0.0.0.0" IPv4 only, or one address.
    public var host: String = "::"
    /// TCP port; 0 binds an ephemeral port.
    public var port: Int = 8080
    /// Worker threads; 0 means one per core.
    public var threads: Int = 0
    /// Seconds a connection may stay idle before it is closed (libmicrohttpd has no limit by default).
    public var connectionTimeout: Int = 15
    /// Most connections held at once; more are refused at accept.
    public var connectionLimit: Int = 4096
    /// Most connections from one IP address; 0 turns the limit off (behind a proxy every client shares its IP).
    public var perIPConnectionLimit: Int = 256
    /// Seconds a request head may take to arrive whole, from the connection's start or the previous
    /// response's end, however slowly it trickles in (slowloris); 0 turns the deadline off.
    public var headerTimeout: Int = 10
    /// Seconds that in-flight requests get to finish after SIGTERM.
    public var shutdownTimeout: Int = 10
    /// Bytes of memory per connection for the request line, headers and response headers; larger requests
    /// get 414/431. libmicrohttpd clears this memory between requests, so it is kept small.
    public var connectionMemoryLimit: Int = 8192
    /// Bytes that rendered call pages and QR images may hold in memory, over every site together (the
    /// per-site `callLinks.pageCacheSize` counts pages, which many sites could multiply past a pod's memory
    /// limit); 0 keeps none.
    public var pageCacheBytes: Int = 32 * 1_048_576
    /// Bytes the static files of every site may hold together (a folder several sites share counts once): a
    /// site file whose folder would pass it fails alone, the operator's sites refuse the config.
    public var staticFilesBytes: Int = 64 * 1_048_576
    /// True: a host no site lists gets 404 (`no-store`) instead of the default site's files; the top level
    /// then answers only the names in `server.tls.acme.hosts` (and every host's health and metrics paths).
    public var strictHosts = false
    /// Certificate and key files; when set, the listener speaks HTTPS only.
    public var tls: TLSSettings?
    /// Automatic HTTPS from an ACME CA (`server.tls.acme`); when set, the listener speaks HTTPS only.
    public var acme: ACMESettings?
    /// Port of the plain-HTTP listener beside HTTPS: ACME challenges, association files, health and metrics,
    /// and a 308 to HTTPS for everything else. Required with ACME; nil: no such listener.
    public var httpPort: Int?
    /// `Strict-Transport-Security` on every HTTPS response (`server.tls.hsts`); nil: off. Never on plain HTTP.
    public var hsts: HSTSSettings? = HSTSSettings()
    /// Reload by itself when the config file changes (a rename over it, a ConfigMap's `..data` swap, an edit),
    /// as SIGHUP does: all or nothing.
    public var watchConfig: Bool = false
    /// Peers whose `X-Forwarded-For` / `CF-Connecting-IP` the access log believes (addresses and CIDR blocks);
    /// from any other peer those fields are ignored.
    public var trustedProxies: [AddressRange] = []
    /// `server.stateDirectory`: where `serve` keeps what must outlive the process (each site file's last good
    /// version and who held what: `SiteState`; the ACME store's default, `acme` under it); nil keeps none.
    public var stateDirectory: String?

    /// True when `port` speaks HTTPS, from certificate files or from ACME.
    public var servesHTTPS: Bool { tls != nil || acme != nil }

    /// Settings with every default.
    public init() {}
}

/// PEM files for HTTPS, re-read on every reload.
public struct TLSSettings: Sendable, Equatable {
    /// The certificate chain, leaf first (PEM).
    public var certificateFile: String
    /// The private key of the leaf certificate (PEM, unencrypted).
    public var privateKeyFile: String
}

/// Reads the `server` section and the environment variables that override it.
enum ServerSettingsReader {
    static func read(_ value: JSONValue?, environment: [String: String], reader: inout ConfigReader) -> ServerSettings {
        var settings = ServerSettings()
        var choices = ACMESettingsReader.FileChoices()
        if let value {
            choices = readFile(value, into: &settings, reader: &reader)
        }
        ACMESettingsReader.applyEnvironment(environment, to: &settings, file: choices, reader: &reader)
        applyEnvironment(environment, to: &settings, reader: &reader)
        return settings
    }

    private static func readFile(_ value: JSONValue, into settings: inout ServerSettings, reader: inout ConfigReader) -> ACMESettingsReader.FileChoices {
        var choices = ACMESettingsReader.FileChoices()
        guard let object = reader.object(value, at: "server", allowed: ConfigKeys.members(of: "server")) else { return choices }
        if let host = reader.string(object, "host", at: "server", expected: "an address such as \"::\" or \"0.0.0.0\"", rule: hostRule) {
            settings.host = host
        }
        settings.port = reader.integer(object, "port", at: "server", in: 0...65535) ?? settings.port
        settings.httpPort = reader.integer(object, "httpPort", at: "server", in: 0...65535)
        choices.setHTTPPort = object["httpPort"] != nil
        settings.threads = reader.integer(object, "threads", at: "server", in: 0...1024) ?? settings.threads
        settings.connectionTimeout = reader.integer(object, "connectionTimeout", at: "server", in: 1...3600) ?? settings.connectionTimeout
        settings.connectionLimit = reader.integer(object, "connectionLimit", at: "server", in: 1...1_000_000) ?? settings.connectionLimit
        settings.perIPConnectionLimit = reader.integer(object, "perIPConnectionLimit", at: "server", in: 0...1_000_000) ?? settings.perIPConnectionLimit
        settings.headerTimeout = reader.integer(object, "headerTimeout", at: "server", in: 0...3600) ?? settings.headerTimeout
        settings.shutdownTimeout = reader.integer(object, "shutdownTimeout", at: "server", in: 0...600) ?? settings.shutdownTimeout
        settings.connectionMemoryLimit = reader.integer(object, "connectionMemoryLimit", at: "server", in: 4096...1_048_576) ?? settings.connectionMemoryLimit
        settings.pageCacheBytes = reader.integer(object, "pageCacheBytes", at: "server", in: 0...(1 << 34)) ?? settings.pageCacheBytes
        settings.staticFilesBytes = reader.integer(object, "staticFilesBytes", at: "server", in: 0...(1 << 34)) ?? settings.staticFilesBytes
        settings.strictHosts = reader.boolean(object, "strictHosts", at: "server") ?? false
        settings.stateDirectory = reader.string(object, "stateDirectory", at: "server", expected: "a folder path such as \"/var/lib/linkhost\"", rule: ACMESettingsReader.nonEmptyRule)
        settings.watchConfig = reader.boolean(object, "watchConfig", at: "server") ?? settings.watchConfig
        settings.trustedProxies = TrustedProxiesReader.read(object, reader: &reader)
        if let tls = object["tls"], let tlsObject = reader.object(tls, at: "server.tls", allowed: ConfigKeys.members(of: "server.tls")) {
            if let hsts = tlsObject["hsts"] { settings.hsts = HSTSSettingsReader.read(hsts, reader: &reader) }
            // HSTS alone is a setting for the HTTPS that LINKHOST_ACME_HOSTS may turn on, not a request for files.
            if tlsObject.members.allSatisfy({ $0.key == "hsts" }) { return choices }
            if let acme = tlsObject["acme"] {
                settings.acme = ACMESettingsReader.read(acme, reader: &reader)
                choices.setStateDirectory = acme.objectValue?["stateDirectory"] != nil
                let files = ["certificateFile", "privateKeyFile"].filter { tlsObject[$0] != nil }
                if !files.isEmpty {
                    reader.error(.lh117, "server.tls", "sets both \(files.map { "server.tls.\($0)" }.joined(separator: " and ")) and server.tls.acme; use certificate files or ACME, not both")
                }
                return choices
            }
            let certificate = reader.string(tlsObject, "certificateFile", at: "server.tls", required: true, expected: "the PEM certificate chain's path")
            let key = reader.string(tlsObject, "privateKeyFile", at: "server.tls", required: true, expected: "the PEM private key's path")
            if let certificate, let key { settings.tls = TLSSettings(certificateFile: certificate, privateKeyFile: key) }
        }
        return choices
    }

    private static func hostRule(_ host: String) -> String? {
        let valid = !host.isEmpty && host.utf8.count <= 253
            && host.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "]") }
        return valid ? nil : "is not an address or host name (write IPv6 without brackets, e.g. \"::1\")"
    }

    /// Containers configure by environment: `LINKHOST_HOST`, `LINKHOST_PORT` and `LINKHOST_HTTP_PORT` win over the file.
    private static func applyEnvironment(_ environment: [String: String], to server: inout ServerSettings, reader: inout ConfigReader) {
        if let host = environment["LINKHOST_HOST"], !host.isEmpty {
            if let problem = hostRule(host) { reader.error(.lh109, "LINKHOST_HOST", "\"\(host)\" \(problem)") } else { server.host = host }
        }
        if let port = environment["LINKHOST_PORT"], !port.isEmpty {
            if let number = Int(port), (0...65535).contains(number) {
                server.port = number
            } else {
                reader.error(.lh109, "LINKHOST_PORT", "\"\(port)\" is not a port number from 0 to 65535")
            }
        }
        if let port = ACMESettingsReader.port(environment, "LINKHOST_HTTP_PORT", reader: &reader) { server.httpPort = port }
    }
}
