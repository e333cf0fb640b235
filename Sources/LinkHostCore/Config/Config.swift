/// The whole validated configuration of one linkhost instance.
///
/// Values here are already checked: code that receives a `Config` never re-validates it.
public struct Config: Sendable, Equatable {
    /// Where and how the server listens.
    public var server: ServerSettings
    /// The iOS apps that may open links on this domain.
    public var apps: [AppleApp]
    /// The Android apps that may open links on this domain.
    public var android: [AndroidApp]
    /// Which paths are call links and how their page is built.
    public var callLinks: CallLinkSettings
    /// How the apple-app-site-association file is generated and served.
    public var aasa: AASASettings
    /// How files in `public/` are served.
    public var staticFiles: StaticFileSettings
    /// Access logs, health probe and metrics.
    public var observability: ObservabilitySettings = ObservabilitySettings()

    /// The app identifiers (`TEAMID.bundle.id`) of every iOS app, in config order.
    public var appIDs: [String] { apps.map(\.appID) }
}

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
    /// Seconds that in-flight requests get to finish after SIGTERM.
    public var shutdownTimeout: Int = 10
    /// Bytes of memory per connection for the request line, headers and response headers; larger requests
    /// get 414/431. libmicrohttpd clears this memory between requests, so it is kept small.
    public var connectionMemoryLimit: Int = 8192
    /// Certificate and key files; when set, the listener speaks HTTPS only.
    public var tls: TLSSettings?
}

/// PEM files for HTTPS, re-read on every reload.
public struct TLSSettings: Sendable, Equatable {
    /// The certificate chain, leaf first (PEM).
    public var certificateFile: String
    /// The private key of the leaf certificate (PEM, unencrypted).
    public var privateKeyFile: String
}

/// One iOS app.
public struct AppleApp: Sendable, Equatable {
    /// Display name, shown on the call page.
    public var name: String
    /// Apple Developer Team ID: 10 characters of A-Z and 0-9.
    public var teamID: String
    /// Bundle identifier in reverse-DNS form.
    public var bundleID: String
    /// Numeric App Store ID, for store links and the Smart App Banner.
    public var appStoreID: String?
    /// Custom URL scheme that reopens the app from its own domain's page.
    public var urlScheme: String?

    /// `TEAMID.bundleID`, the identifier iOS uses in the AASA.
    public var appID: String { "\(teamID).\(bundleID)" }
}

/// One Android app for Digital Asset Links.
public struct AndroidApp: Sendable, Equatable {
    /// Application ID (package name).
    public var packageName: String
    /// SHA-256 fingerprints of the signing certificates, uppercase hex pairs joined by ":".
    public var sha256CertFingerprints: [String]
}

/// Which paths carry call links and what their page shows.
public struct CallLinkSettings: Sendable, Equatable {
    /// First path segments of call links, e.g. `call` for `/call/{callId}`.
    public var paths: [String] = ["call"]
    /// Call type used when the link has no `type` query item.
    public var defaultType: String = "default"
    /// The page template, relative to the working directory unless absolute; never served as a file.
    public var template: String = "public/call.html"
    /// Public origin of call links, e.g. `https://links.example.com`; without it the request's Host is used.
    public var baseURL: String?
    /// Web-join URL template with `{callId}` and `{callType}`; the page offers it when set.
    public var webJoinURL: String?
    /// Custom-scheme URL template that reopens the app; defaults to `{urlScheme}://{path}/{callId}?type={callType}`.
    public var openInAppURL: String?
    /// File in the static folder used as the link-preview image (`og:image`), e.g. `og-image.png`.
    public var previewImage: String?
    /// `Cache-Control: max-age` of call pages, in seconds: short, so a CDN absorbs bursts.
    public var cacheMaxAge: Int = 60
    /// Rendered pages kept in memory per snapshot, so a link shared to thousands renders once; 0 renders every time.
    public var pageCacheSize: Int = 256
}

/// One ordered rule of the AASA, in the vocabulary of iOS 13+ components.
public struct AASARule: Sendable, Equatable {
    /// The query pattern: one string for the whole query, or name → pattern items.
    public enum Query: Sendable, Equatable {
        /// Matches the whole query string.
        case whole(String)
        /// Matches the listed query items only, in the listed order.
        case items([(name: String, pattern: String)])

        /// Compares item lists member by member (tuples are not Equatable).
        public static func == (lhs: Query, rhs: Query) -> Bool {
            switch (lhs, rhs) {
            case (.whole(let a), .whole(let b)): return a == b
            case (.items(let a), .items(let b)):
                return a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.pattern == $1.pattern }
            default: return false
            }
        }
    }

    /// Path pattern (`/` component); nil means any path.
    public var path: String?
    /// Query pattern (`?` component).
    public var query: Query?
    /// Fragment pattern (`#` component).
    public var fragment: String?
    /// True when a match keeps the link in the browser.
    public var exclude: Bool = false
    /// Overrides the default case sensitivity for this rule.
    public var caseSensitive: Bool?
    /// Overrides whether the URL is matched percent-encoded for this rule.
    public var percentEncoded: Bool?
    /// A note for people; written into the AASA as `comment`.
    public var comment: String?
}

/// Which AASA dialect to write.
public enum AASAFormat: String, Sendable, Equatable, CaseIterable {
    /// iOS 13+: `appIDs` and `components`.
    case modern
    /// iOS 9–12: `apps: []`, `appID` and `paths` with `NOT ` exclusions.
    case legacy
    /// Both in one document, for fleets that still have iOS 12 devices.
    case both
}

/// Settings of the generated apple-app-site-association file.
public struct AASASettings: Sendable, Equatable {
    /// The dialect to generate.
    public var format: AASAFormat = .modern
    /// Ordered rules; when the config has none, one rule per call-link path is generated.
    public var rules: [AASARule] = []
    /// `applinks.defaults`: caseSensitive and percentEncoded for every rule.
    public var defaultCaseSensitive: Bool?
    /// `applinks.defaults.percentEncoded`.
    public var defaultPercentEncoded: Bool?
    /// `applinks.substitutionVariables`, name → values, in config order.
    public var substitutionVariables: [(name: String, values: [String])] = []
    /// App IDs listed under `webcredentials` (shared web credentials); empty leaves the section out.
    public var webcredentials: [String] = []
    /// App Clip IDs listed under `appclips`; empty leaves the section out.
    public var appclips: [String] = []
    /// App IDs listed under `activitycontinuation` (Handoff); empty leaves the section out.
    public var activitycontinuation: [String] = []
    /// `Cache-Control: max-age` of the AASA and assetlinks responses, in seconds.
    public var cacheMaxAge: Int = 3600

    /// Compares settings, spelling out the tuple list.
    public static func == (lhs: AASASettings, rhs: AASASettings) -> Bool {
        lhs.format == rhs.format && lhs.rules == rhs.rules
            && lhs.defaultCaseSensitive == rhs.defaultCaseSensitive
            && lhs.defaultPercentEncoded == rhs.defaultPercentEncoded
            && lhs.substitutionVariables.count == rhs.substitutionVariables.count
            && zip(lhs.substitutionVariables, rhs.substitutionVariables).allSatisfy { $0.name == $1.name && $0.values == $1.values }
            && lhs.webcredentials == rhs.webcredentials && lhs.appclips == rhs.appclips
            && lhs.activitycontinuation == rhs.activitycontinuation && lhs.cacheMaxAge == rhs.cacheMaxAge
    }
}

/// Settings of the static file tree.
public struct StaticFileSettings: Sendable, Equatable {
    /// Folder of static files, relative to the working directory unless absolute.
    public var root: String = "public"
    /// `Cache-Control: max-age` of static files, in seconds.
    public var cacheMaxAge: Int = 300
}
