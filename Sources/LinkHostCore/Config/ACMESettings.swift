import LinkHostJSON

/// Automatic HTTPS: certificates for every site host from an ACME CA (RFC 8555), ordered and renewed by
/// linkhost itself (`server.tls.acme`).
public struct ACMESettings: Sendable, Equatable {
    /// Let's Encrypt's production directory, the default.
    public static let letsEncryptProduction = "https://acme-v02.api.letsencrypt.org/directory"
    /// Let's Encrypt's staging directory: untrusted certificates, generous rate limits; try a setup here first.
    public static let letsEncryptStaging = "https://acme-staging-v02.api.letsencrypt.org/directory"
    /// Where keys and certificates are kept when the config and environment name no place.
    public static let defaultStateDirectory = "state/acme"

    /// Contact address given to the CA (expiry notices); optional.
    public var email: String?
    /// The CA's directory URL (HTTPS).
    public var directory: String = letsEncryptProduction
    /// PEM trust anchors for the directory's HTTPS instead of the system store (private or test CAs).
    public var caFile: String?
    /// Folder of the account key and of each site's certificate and key.
    public var stateDirectory: String = defaultStateDirectory
    /// Credentials for CAs that tie ACME accounts to an existing customer account (RFC 8555 §7.3.4).
    public var externalAccountBinding: ExternalAccountBinding?
    /// Host names of the default site (the top level, which has no `hosts` of its own), certified together;
    /// its certificate also answers handshakes without SNI.
    public var hosts: [String] = []

    /// Settings with every default.
    public init() {}

    /// `acme-v02.api.letsencrypt.org-directory`: the directory URL as the name of its subfolder of the state
    /// folder, where `serve` keeps this CA's keys and `validate` checks them.
    public static func storeFolderName(for directory: String) -> String {
        var name = directory
        for prefix in ["https://", "http://"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        let mapped = name.utf8.map { byte -> UInt8 in
            let kept = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            return kept ? byte : UInt8(ascii: "-")
        }
        return String(decoding: mapped.prefix(120), as: UTF8.self)
    }

    /// This CA's subfolder of the state folder.
    public var storeFolder: String { stateDirectory + "/" + Self.storeFolderName(for: directory) }
}

/// An ACME external account binding: the key ID and MAC key the CA issued.
public struct ExternalAccountBinding: Sendable, Equatable {
    /// The key identifier, as the CA gave it.
    public var keyID: String
    /// The MAC key, base64url as the CA gives it.
    public var hmacKey: String
}

/// Reads `server.tls.acme` and the `LINKHOST_ACME_*` environment, and checks what ACME needs of the sites.
enum ACMESettingsReader {
    /// Reads the object at `server.tls.acme`.
    static func read(_ value: JSONValue, reader: inout ConfigReader) -> ACMESettings? {
        let path = "server.tls.acme"
        guard let object = reader.object(value, at: path, allowed: ConfigKeys.members(of: "server.tls.acme")) else { return nil }
        var settings = ACMESettings()
        settings.email = reader.string(object, "email", at: path, expected: "an e-mail address such as \"ops@example.com\"", rule: emailRule)
        settings.directory = reader.string(object, "directory", at: path, expected: "the CA's directory URL", rule: directoryRule) ?? settings.directory
        settings.caFile = reader.string(object, "caFile", at: path, expected: "the path of a PEM file of CA certificates", rule: nonEmptyRule)
        settings.stateDirectory = reader.string(object, "stateDirectory", at: path, expected: "a folder path", rule: nonEmptyRule) ?? settings.stateDirectory
        if let binding = object["externalAccountBinding"],
           let bindingObject = reader.object(binding, at: "\(path).externalAccountBinding", allowed: ConfigKeys.members(of: "server.tls.acme.externalAccountBinding")) {
            let bindingPath = "\(path).externalAccountBinding"
            let keyID = reader.string(bindingObject, "keyID", at: bindingPath, required: true, expected: "the key ID the CA gave", rule: nonEmptyRule)
            let key = reader.string(bindingObject, "hmacKey", at: bindingPath, required: true, expected: "the base64url MAC key the CA gave", secret: true, rule: hmacKeyRule)
            if let keyID, let key { settings.externalAccountBinding = ExternalAccountBinding(keyID: keyID, hmacKey: key) }
        }
        if let list = reader.array(object, "hosts", at: path, expected: "an array of host names such as [\"links.example.com\"]") {
            settings.hosts = readHosts(list, reader: &reader)
        }
        return settings
    }

    /// Applies the `LINKHOST_ACME_*` variables: `HOSTS`, `EMAIL` and `DIRECTORY` win over the file (`HOSTS`
    /// turns ACME on), the `DEFAULT_*` ones fill in what a file without ACME listeners leaves out (the image
    /// sets them: HTTPS 8443, HTTP 8080, `/var/lib/linkhost`).
    static func applyEnvironment(_ environment: [String: String], to server: inout ServerSettings, file: FileChoices, reader: inout ConfigReader) {
        if let hosts = environment["LINKHOST_ACME_HOSTS"], !hosts.isEmpty {
            var acme = server.acme ?? ACMESettings()
            let list = hosts.split(separator: ",").enumerated().map { entry -> (value: JSONValue, path: String) in
                (.string(String(entry.element).trimmingSpaces), "LINKHOST_ACME_HOSTS[\(entry.offset)]")
            }
            acme.hosts = readHosts(list, reader: &reader)
            if server.acme == nil, server.tls != nil {
                reader.error(.lh117, "LINKHOST_ACME_HOSTS", "turns on ACME while server.tls.certificateFile and server.tls.privateKeyFile are set; use one or the other")
            }
            server.acme = acme
        }
        guard var acme = server.acme else { return }
        if let email = environment["LINKHOST_ACME_EMAIL"], !email.isEmpty {
            if let problem = emailRule(email) { reader.error(.lh109, "LINKHOST_ACME_EMAIL", "\"\(email)\" \(problem)") } else { acme.email = email }
        }
        if let directory = environment["LINKHOST_ACME_DIRECTORY"], !directory.isEmpty {
            if let problem = directoryRule(directory) { reader.error(.lh109, "LINKHOST_ACME_DIRECTORY", "\"\(directory)\" \(problem)") } else { acme.directory = directory }
        }
        if !file.setStateDirectory, let folder = server.stateDirectory {
            // The operator's one state folder holds the ACME store too, in a subfolder of its own.
            acme.stateDirectory = folder + "/acme"
        } else if !file.setStateDirectory, let folder = environment["LINKHOST_ACME_DEFAULT_STATE_DIRECTORY"], !folder.isEmpty {
            acme.stateDirectory = folder
        }
        server.acme = acme
        // A file that names no HTTP port was not written for two listeners: its `port` is not the HTTPS one.
        guard !file.setHTTPPort else { return }
        if let port = port(environment, "LINKHOST_ACME_DEFAULT_PORT", reader: &reader) { server.port = port }
        if let port = port(environment, "LINKHOST_ACME_DEFAULT_HTTP_PORT", reader: &reader) { server.httpPort = port }
    }

    /// A port number from the environment; nil when unset, an error when not a port.
    static func port(_ environment: [String: String], _ name: String, reader: inout ConfigReader) -> Int? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let port = Int(text), (0...65535).contains(port) else {
            reader.error(.lh109, name, "\"\(text)\" is not a port number from 0 to 65535")
            return nil
        }
        return port
    }

    /// What the file itself set, which decides whether the environment's defaults apply.
    struct FileChoices {
        var setHTTPPort = false
        var setStateDirectory = false
    }

    /// With ACME on: an HTTP port, and hosts that HTTP-01 can certify. Sites are known only here.
    static func check(_ server: ServerSettings, sites: [SiteConfig], reader: inout ConfigReader) {
        if server.httpPort != nil, server.acme == nil, server.tls == nil {
            reader.error(.lh109, "server.httpPort", "is set without HTTPS on server.port; set server.tls (certificate files or acme), or leave httpPort out")
        }
        guard let acme = server.acme else { return }
        if server.httpPort == nil {
            reader.error(.lh108, "server.httpPort", "missing; ACME proves each host over plain HTTP (HTTP-01), so it needs an HTTP listener, e.g. 8080 behind port 80")
        } else if server.httpPort == server.port, server.port != 0 {
            reader.error(.lh109, "server.httpPort", "is server.port (\(server.port)); HTTPS and HTTP need a port each, e.g. 8443 and 8080")
        }
        var certified = acme.hosts.count
        for site in sites.dropFirst() {
            for (index, host) in site.hosts.enumerated() {
                let path = ConfigReader.join(site.path, "hosts[\(index)]")
                if host.hasPrefix("*.") {
                    reader.error(.lh118, path, "\"\(host)\" is a wildcard, which ACME's HTTP-01 challenge cannot certify; list each host, or serve certificate files (server.tls.certificateFile) from a DNS-01 client")
                } else {
                    certified += 1
                }
                if acme.hosts.contains(host) {
                    reader.error(.lh116, "server.tls.acme.hosts", "\"\(host)\" is also a host of \(site.path); a host belongs to one site")
                }
            }
        }
        if certified == 0 {
            reader.error(.lh118, "server.tls.acme", "has no host to certify; list the default site's names in server.tls.acme.hosts (or LINKHOST_ACME_HOSTS), or give sites hosts")
        }
    }

    /// Reads host names for the default site: exact names only, each once.
    private static func readHosts(_ list: [(value: JSONValue, path: String)], reader: inout ConfigReader) -> [String] {
        var hosts: [String] = []
        for (element, path) in list {
            guard case .string(let text) = element else {
                reader.typeMismatch(element, at: path, expected: "a host name string such as \"links.example.com\"")
                continue
            }
            if let problem = HostName.problem(siteHost: text) {
                reader.error(.lh116, path, "\(ConfigReader.show(element)) \(problem)")
            } else if text.hasPrefix("*.") {
                reader.error(.lh118, path, "\(ConfigReader.show(element)) is a wildcard, which ACME's HTTP-01 challenge cannot certify; list each host")
            } else if hosts.contains(text.lowercased()) {
                reader.error(.lh116, path, "\(ConfigReader.show(element)) is listed twice")
            } else {
                hosts.append(text.lowercased())
            }
        }
        return hosts
    }

    private static func emailRule(_ email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        let valid = parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && email.utf8.count <= 254
            && email.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "\"") }
        return valid ? nil : "is not an e-mail address such as \"ops@example.com\""
    }

    private static func directoryRule(_ url: String) -> String? {
        guard let split = try? SplitURL(url), split.scheme == "https", !split.host.isEmpty else {
            return "is not an https:// URL; ACME directories are served over HTTPS (Let's Encrypt: \"\(ACMESettings.letsEncryptProduction)\")"
        }
        return nil
    }

    static func nonEmptyRule(_ text: String) -> String? {
        text.isEmpty ? "is empty" : nil
    }

    private static func hmacKeyRule(_ key: String) -> String? {
        let valid = !key.isEmpty && key.utf8.allSatisfy { HostName.isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        return valid ? nil : "is not base64url (A-Z, a-z, 0-9, \"-\", \"_\", no padding), as CAs give MAC keys"
    }
}
