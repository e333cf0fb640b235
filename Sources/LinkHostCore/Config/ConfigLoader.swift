#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LinkHostJSON

/// Reads, validates and completes a linkhost config: from a file, bytes or parsed JSON.
public enum ConfigLoader {
    /// The config file used when neither `--config` nor `LINKHOST_CONFIG` names one.
    public static let defaultPath = "config/linkhost.json"

    /// Loads the file at `path`, applies environment overrides, and returns the config or every problem.
    public static func load(path: String, environment: [String: String] = [:]) throws(ConfigError) -> Config {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path)
        } catch {
            throw ConfigError(source: path, diagnostics: [ConfigDiagnostic(path: "", message: "cannot read the config file: \(error)")])
        }
        return try parse(bytes, source: path, environment: environment)
    }

    /// Validates config bytes; `source` names them in errors.
    public static func parse(_ bytes: [UInt8], source: String = "config", environment: [String: String] = [:]) throws(ConfigError) -> Config {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ConfigError(source: source, diagnostics: [ConfigDiagnostic(path: "", message: "not valid JSON at line \(error.line), column \(error.column): \(error.message)")])
        }
        let (config, diagnostics) = validate(document, environment: environment)
        guard let config, !diagnostics.contains(where: { $0.severity == .error }) else {
            throw ConfigError(source: source, diagnostics: diagnostics)
        }
        return config
    }

    /// Validates a parsed document; returns the config (nil when unusable) and all diagnostics, warnings included.
    public static func validate(_ document: JSONValue, environment: [String: String] = [:]) -> (Config?, [ConfigDiagnostic]) {
        var reader = ConfigReader()
        let sections = ["$schema", "server", "apps", "android", "callLinks", "aasa", "static", "observability"]
        guard let root = reader.object(document, at: "", allowed: sections) else { return (nil, reader.diagnostics) }

        var server = readServer(root["server"], reader: &reader)
        applyEnvironment(environment, to: &server, reader: &reader)
        let apps = readApps(root, reader: &reader)
        let android = readAndroid(root, reader: &reader)
        if root["apps"] == nil && root["android"] == nil {
            reader.error("apps", "missing; expected at least one app in \"apps\" (iOS) or \"android\"")
        }
        let callLinks = readCallLinks(root["callLinks"], reader: &reader)
        let aasa = AASASettingsReader.read(root["aasa"], appIDs: apps.map(\.appID), callLinks: callLinks, reader: &reader)
        let staticFiles = readStatic(root["static"], reader: &reader)
        let observability = readObservability(root["observability"], reader: &reader)

        let config = Config(server: server, apps: apps, android: android, callLinks: callLinks, aasa: aasa, staticFiles: staticFiles, observability: observability)
        return (config, reader.diagnostics)
    }

    private static func readServer(_ value: JSONValue?, reader: inout ConfigReader) -> ServerSettings {
        var settings = ServerSettings()
        guard let value else { return settings }
        let keys = ["host", "port", "threads", "connectionTimeout", "connectionLimit", "perIPConnectionLimit", "shutdownTimeout", "connectionMemoryLimit", "tls"]
        guard let object = reader.object(value, at: "server", allowed: keys) else { return settings }
        if let host = reader.string(object, "host", at: "server", expected: "an address such as \"::\" or \"0.0.0.0\"", rule: hostRule) {
            settings.host = host
        }
        settings.port = reader.integer(object, "port", at: "server", in: 0...65535) ?? settings.port
        settings.threads = reader.integer(object, "threads", at: "server", in: 0...1024) ?? settings.threads
        settings.connectionTimeout = reader.integer(object, "connectionTimeout", at: "server", in: 1...3600) ?? settings.connectionTimeout
        settings.connectionLimit = reader.integer(object, "connectionLimit", at: "server", in: 1...1_000_000) ?? settings.connectionLimit
        settings.perIPConnectionLimit = reader.integer(object, "perIPConnectionLimit", at: "server", in: 0...1_000_000) ?? settings.perIPConnectionLimit
        settings.shutdownTimeout = reader.integer(object, "shutdownTimeout", at: "server", in: 0...600) ?? settings.shutdownTimeout
        settings.connectionMemoryLimit = reader.integer(object, "connectionMemoryLimit", at: "server", in: 4096...1_048_576) ?? settings.connectionMemoryLimit
        if let tls = object["tls"], let tlsObject = reader.object(tls, at: "server.tls", allowed: ["certificateFile", "privateKeyFile"]) {
            let certificate = reader.string(tlsObject, "certificateFile", at: "server.tls", required: true, expected: "the PEM certificate chain's path")
            let key = reader.string(tlsObject, "privateKeyFile", at: "server.tls", required: true, expected: "the PEM private key's path")
            if let certificate, let key { settings.tls = TLSSettings(certificateFile: certificate, privateKeyFile: key) }
        }
        return settings
    }

    private static func hostRule(_ host: String) -> String? {
        let valid = !host.isEmpty && host.utf8.count <= 253
            && host.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "]") }
        return valid ? nil : "is not an address or host name (write IPv6 without brackets, e.g. \"::1\")"
    }

    /// Containers configure by environment: `LINKHOST_HOST` and `LINKHOST_PORT` win over the file.
    private static func applyEnvironment(_ environment: [String: String], to server: inout ServerSettings, reader: inout ConfigReader) {
        if let host = environment["LINKHOST_HOST"], !host.isEmpty {
            if let problem = hostRule(host) { reader.error("LINKHOST_HOST", "\"\(host)\" \(problem)") } else { server.host = host }
        }
        if let port = environment["LINKHOST_PORT"], !port.isEmpty {
            if let number = Int(port), (0...65535).contains(number) {
                server.port = number
            } else {
                reader.error("LINKHOST_PORT", "\"\(port)\" is not a port number from 0 to 65535")
            }
        }
    }

    private static func readApps(_ root: JSONObject, reader: inout ConfigReader) -> [AppleApp] {
        guard let elements = reader.array(root, "apps", at: "", expected: "an array of apps") else { return [] }
        var apps: [AppleApp] = []
        var seen: [String: String] = [:]
        for (value, path) in elements {
            guard let object = reader.object(value, at: path, allowed: ["name", "teamID", "bundleID", "appStoreID", "urlScheme"]) else { continue }
            let name = reader.string(object, "name", at: path, required: true, expected: "the app's display name", rule: displayNameRule)
            let teamID = reader.string(object, "teamID", at: path, required: true, expected: "a string of 10 characters A-Z and 0-9", rule: Identifiers.teamID)
            let bundleID = reader.string(object, "bundleID", at: path, required: true, expected: "a reverse-DNS bundle ID", rule: Identifiers.bundleID)
            let appStoreID = readAppStoreID(object, at: path, reader: &reader)
            let urlScheme = reader.string(object, "urlScheme", at: path, expected: "a custom URL scheme such as \"examplevideo\"", rule: Identifiers.urlScheme)
            guard let name, let teamID, let bundleID else { continue }
            let app = AppleApp(name: name, teamID: teamID, bundleID: bundleID, appStoreID: appStoreID, urlScheme: urlScheme)
            if let first = seen[app.appID] {
                reader.error(path, "app ID \"\(app.appID)\" is already listed at \(first); list each app once")
                continue
            }
            seen[app.appID] = path
            apps.append(app)
        }
        return apps
    }

    private static func displayNameRule(_ name: String) -> String? {
        if name.allSatisfy(\.isWhitespace) { return "is empty; expected the app's display name" }
        if name.count > 100 { return "is longer than 100 characters" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "contains control characters" }
        return nil
    }

    /// App Store IDs are often pasted as numbers; accept both and keep the digits.
    private static func readAppStoreID(_ object: JSONObject, at path: String, reader: inout ConfigReader) -> String? {
        if case .number(let number)? = object["appStoreID"] {
            if let problem = Identifiers.appStoreID(number.text) {
                reader.error(ConfigReader.join(path, "appStoreID"), "\(number.text) \(problem)")
                return nil
            }
            return number.text
        }
        return reader.string(object, "appStoreID", at: path, expected: "the App Store ID digits, e.g. \"1234567890\"", rule: Identifiers.appStoreID)
    }

    private static func readAndroid(_ root: JSONObject, reader: inout ConfigReader) -> [AndroidApp] {
        guard let elements = reader.array(root, "android", at: "", expected: "an array of Android apps") else { return [] }
        var apps: [AndroidApp] = []
        var seen: [String: String] = [:]
        for (value, path) in elements {
            guard let object = reader.object(value, at: path, allowed: ["packageName", "sha256CertFingerprints"]) else { continue }
            let packageName = reader.string(object, "packageName", at: path, required: true, expected: "an Android package name", rule: Identifiers.packageName)
            var fingerprints: [String] = []
            let fingerprintsPath = ConfigReader.join(path, "sha256CertFingerprints")
            if let list = reader.array(object, "sha256CertFingerprints", at: path, required: true, expected: "an array of SHA-256 fingerprints") {
                if list.isEmpty { reader.error(fingerprintsPath, "is empty; expected at least one SHA-256 fingerprint") }
                for (element, elementPath) in list {
                    guard case .string(let text) = element else {
                        reader.typeMismatch(element, at: elementPath, expected: "a SHA-256 fingerprint string")
                        continue
                    }
                    guard let normalized = Identifiers.normalizedFingerprint(text) else {
                        reader.error(elementPath, "\(ConfigReader.show(element)) \(Identifiers.fingerprint(text) ?? "")")
                        continue
                    }
                    if fingerprints.contains(normalized) {
                        reader.error(elementPath, "\(ConfigReader.show(element)) is listed twice")
                    } else {
                        fingerprints.append(normalized)
                    }
                }
            }
            guard let packageName else { continue }
            if let first = seen[packageName] {
                reader.error(path, "package \"\(packageName)\" is already listed at \(first); put all its fingerprints in one entry")
                continue
            }
            seen[packageName] = path
            apps.append(AndroidApp(packageName: packageName, sha256CertFingerprints: fingerprints))
        }
        return apps
    }

    private static func readCallLinks(_ value: JSONValue?, reader: inout ConfigReader) -> CallLinkSettings {
        var settings = CallLinkSettings()
        let keys = ["paths", "defaultType", "template", "baseURL", "webJoinURL", "openInAppURL", "previewImage", "cacheMaxAge", "pageCacheSize"]
        guard let value, let object = reader.object(value, at: "callLinks", allowed: keys) else { return settings }
        if let list = reader.array(object, "paths", at: "callLinks", expected: "an array of path segments such as [\"call\"]") {
            var paths: [String] = []
            if list.isEmpty { reader.error("callLinks.paths", "is empty; expected at least one path segment such as \"call\"") }
            for (element, elementPath) in list {
                guard case .string(let segment) = element else {
                    reader.typeMismatch(element, at: elementPath, expected: "a path segment string such as \"call\"")
                    continue
                }
                if let problem = Identifiers.pathSegment(segment) {
                    reader.error(elementPath, "\(ConfigReader.show(element)) \(problem)")
                } else if paths.contains(segment) {
                    reader.error(elementPath, "\(ConfigReader.show(element)) is listed twice")
                } else if segment == ".well-known" || segment == "apple-app-site-association" {
                    reader.error(elementPath, "\(ConfigReader.show(element)) is reserved for the association files")
                } else {
                    paths.append(segment)
                }
            }
            settings.paths = paths
        }
        if let type = reader.string(object, "defaultType", at: "callLinks", expected: "a call type such as \"default\"", rule: Identifiers.callToken) {
            settings.defaultType = type
        }
        if let template = reader.string(object, "template", at: "callLinks", expected: "the page template's path, e.g. \"public/call.html\"", rule: { $0.isEmpty ? "is not a file path" : nil }) {
            settings.template = template
        }
        settings.baseURL = reader.string(object, "baseURL", at: "callLinks", expected: "the public origin, e.g. \"https://links.example.com\"", rule: URLTemplates.originRule)
        settings.webJoinURL = reader.string(object, "webJoinURL", at: "callLinks", expected: "an https URL template with {callId} and {callType}", rule: URLTemplates.webJoinRule)
        settings.openInAppURL = reader.string(object, "openInAppURL", at: "callLinks", expected: "a custom-scheme URL template with {callId} and {callType}", rule: URLTemplates.openInAppRule)
        settings.previewImage = reader.string(object, "previewImage", at: "callLinks", expected: "a file in the static folder, e.g. \"og-image.png\"", rule: { $0.isEmpty || $0.hasPrefix("/") || $0.contains("..") ? "is not a file name inside the static folder" : nil })
        settings.cacheMaxAge = reader.integer(object, "cacheMaxAge", at: "callLinks", in: 0...86_400) ?? settings.cacheMaxAge
        settings.pageCacheSize = reader.integer(object, "pageCacheSize", at: "callLinks", in: 0...100_000) ?? settings.pageCacheSize
        return settings
    }

    private static func readStatic(_ value: JSONValue?, reader: inout ConfigReader) -> StaticFileSettings {
        var settings = StaticFileSettings()
        guard let value, let object = reader.object(value, at: "static", allowed: ["root", "cacheMaxAge"]) else { return settings }
        if let root = reader.string(object, "root", at: "static", expected: "a folder path such as \"public\"", rule: { $0.isEmpty || $0.utf8.contains(0) ? "is not a folder path" : nil }) {
            settings.root = root
        }
        settings.cacheMaxAge = reader.integer(object, "cacheMaxAge", at: "static", in: 0...31_536_000) ?? settings.cacheMaxAge
        return settings
    }
}
