import LinkHostJSON

/// `server.tls.hsts`: the `Strict-Transport-Security` field (RFC 6797) every HTTPS response carries, so a
/// browser that once reached the link domain over HTTPS never tries plain HTTP for it again. Never sent on
/// plain HTTP: RFC 6797 §8.1 has browsers ignore it there, and the HTTP listener beside HTTPS must stay
/// usable for ACME challenges and the association files.
public struct HSTSSettings: Sendable, Equatable {
    /// Seconds a browser remembers to use HTTPS only; 0 tells it to forget (RFC 6797 §6.1.1).
    public var maxAge: Int = HSTSSettings.defaultMaxAge
    /// The same for every subdomain of the host.
    public var includeSubDomains = false
    /// Consent to the browsers' preload list (hstspreload.org), which also needs the two above.
    public var preload = false

    /// One year: the lowest the preload list accepts, and long enough that a returning visitor stays on HTTPS.
    public static let defaultMaxAge = 31_536_000

    /// The defaults: one year, this host only, no preload.
    public init() {}

    /// The field's value, e.g. `max-age=31536000; includeSubDomains`.
    public var fieldValue: String {
        "max-age=\(maxAge)" + (includeSubDomains ? "; includeSubDomains" : "") + (preload ? "; preload" : "")
    }

    /// The header field itself.
    public var header: HTTPHeader { HTTPHeader("Strict-Transport-Security", fieldValue) }
}

/// Reads `server.tls.hsts`: `true` (the defaults), `false` (off) or an object of the three settings.
enum HSTSSettingsReader {
    static func read(_ value: JSONValue, reader: inout ConfigReader) -> HSTSSettings? {
        let path = "server.tls.hsts"
        if case .bool(let on) = value { return on ? HSTSSettings() : nil }
        guard case .object = value else {
            reader.typeMismatch(value, at: path, expected: "true, false or an object with maxAge, includeSubDomains, preload")
            return HSTSSettings()
        }
        guard let object = reader.object(value, at: path, allowed: ConfigKeys.members(of: path)) else { return HSTSSettings() }
        var settings = HSTSSettings()
        // Two years at most: longer pins a host to HTTPS past any certificate plan anyone makes.
        settings.maxAge = reader.integer(object, "maxAge", at: path, in: 0...63_072_000) ?? settings.maxAge
        settings.includeSubDomains = reader.boolean(object, "includeSubDomains", at: path) ?? false
        settings.preload = reader.boolean(object, "preload", at: path) ?? false
        // hstspreload.org refuses a submission without both; a preload token without them only misleads.
        if settings.preload && (!settings.includeSubDomains || settings.maxAge < HSTSSettings.defaultMaxAge) {
            reader.error(.lh109, path + ".preload", "the preload list needs includeSubDomains: true and maxAge of at least \(HSTSSettings.defaultMaxAge) (one year)")
        }
        return settings
    }
}
