/// Everything the server answers with, computed once from a config: the immutable snapshot.
///
/// A reload builds a new `Site` beside the old one and swaps it in only when the whole build
/// succeeded, so a bad config never replaces a good one.
public final class Site: Sendable {
    /// The config this snapshot was built from.
    public let config: Config
    /// Increases by one on every successful load; shown in metrics and logs.
    public let generation: Int
    /// The AASA bytes served at both AASA paths (empty when no iOS app is configured).
    public let aasaBytes: [UInt8]
    /// The assetlinks bytes (empty when no Android app is configured).
    public let assetLinksBytes: [UInt8]
    /// Every response computed at load, indexed by `Response.preparedID`.
    public let preparedResponses: [Response]
    /// Warnings found while building, e.g. a static file shadowed by a generated one.
    public let warnings: [ConfigDiagnostic]

    /// Exact request paths → resources: association files and static files.
    package let resources: [String: Resource]
    /// The answer for unknown paths.
    package let notFound: Response
    /// The answer for methods other than GET and HEAD on served paths.
    let methodNotAllowed: Response
    /// The answer for requests whose framing or Host is ambiguous; the connection is closed after it.
    public let badRequest: Response
    /// The call-link page renderer.
    package let callPage: CallPage

    /// The paths at which the AASA is served; Apple's fetcher uses the first, older iOS the second.
    public static let aasaPaths = ["/.well-known/apple-app-site-association", "/apple-app-site-association"]
    /// The path of the Digital Asset Links file.
    public static let assetLinksPath = "/.well-known/assetlinks.json"

    /// Builds a snapshot, loading the files the config names; throws with every problem found.
    public init(config: Config, generation: Int = 1) throws(ConfigError) {
        var prepared = PreparedResponses()
        var warnings: [ConfigDiagnostic] = []

        let aasa = config.apps.isEmpty ? [] : AASAGenerator.bytes(for: config)
        if aasa.count > AASAGenerator.maximumSize {
            throw ConfigError(source: "aasa", diagnostics: [ConfigDiagnostic(path: "aasa", message: "the generated file is \(aasa.count) bytes, more than Apple's limit of \(AASAGenerator.maximumSize) bytes; merge rules or use wildcards")])
        }
        let assetLinks = config.android.isEmpty ? [] : AssetLinksGenerator.bytes(for: config.android)

        let templateBytes: [UInt8]
        do {
            templateBytes = try FileSystem.readFile(config.callLinks.template)
        } catch {
            throw ConfigError(source: config.callLinks.template, diagnostics: [ConfigDiagnostic(path: "callLinks.template", message: "\"\(config.callLinks.template)\" \(error)")])
        }
        guard let templateText = String(validating: templateBytes, as: UTF8.self) else {
            throw ConfigError(source: config.callLinks.template, diagnostics: [ConfigDiagnostic(path: "callLinks.template", message: "\"\(config.callLinks.template)\" is not UTF-8 text")])
        }
        let callPage = try CallPage(config: config, templateText: templateText)

        // The template is a source, not a page: it is never served raw.
        var resources = try StaticFiles.load(settings: config.staticFiles, excluded: [StaticFiles.resolve(config.callLinks.template)], into: &prepared)
        if let image = config.callLinks.previewImage, resources["/" + image] == nil {
            throw ConfigError(source: config.staticFiles.root, diagnostics: [ConfigDiagnostic(path: "callLinks.previewImage", message: "\"\(image)\" is not a file in \(config.staticFiles.root)")])
        }
        let generated = (aasa.isEmpty ? [] : Self.aasaPaths.map { ($0, aasa) })
            + (assetLinks.isEmpty ? [] : [(Self.assetLinksPath, assetLinks)])
        if !generated.isEmpty {
            // One prepared resource per document: both AASA paths answer with the very same bytes and ETag.
            var byDocument: [[UInt8]: Resource] = [:]
            for (path, bytes) in generated {
                if resources[path] != nil {
                    warnings.append(ConfigDiagnostic(path: "static.root", message: "the file for \(path) is ignored; linkhost generates it from the config", severity: .warning))
                }
                let resource = byDocument[bytes] ?? prepared.resource(body: bytes, contentType: "application/json", maxAge: config.aasa.cacheMaxAge, route: path == Self.assetLinksPath ? .assetLinks : .aasa)
                byDocument[bytes] = resource
                resources[path] = resource
            }
        }

        let observability = config.observability
        let health = prepared.add(Response(status: 200, headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8"), HTTPHeader("Cache-Control", "no-store")],
                                           body: Array("ok\n".utf8), route: .health))
        resources[observability.healthPath] = Resource(ok: health, notModified: health, etag: "")
        if observability.metricsEnabled && observability.metricsPort == nil {
            let metrics = Response(status: 200, headers: PreparedResponses.commonHeaders + [HTTPHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), HTTPHeader("Cache-Control", "no-store")], route: .metrics)
            resources[observability.metricsPath] = Resource(ok: metrics, notModified: metrics, etag: "")
        }

        let notFoundBody = resources["/404.html"]?.ok.body
        self.notFound = prepared.add(Response(
            status: 404,
            headers: (notFoundBody == nil ? [HTTPHeader("Content-Type", "text/plain; charset=utf-8")] : [HTTPHeader("Content-Type", "text/html; charset=utf-8")] + CallPage.securityHeaders)
                + [HTTPHeader("Cache-Control", "public, max-age=60")],
            body: notFoundBody ?? Array("Not Found\n".utf8), route: .notFound))
        self.methodNotAllowed = prepared.add(Response(
            status: 405,
            headers: [HTTPHeader("Allow", "GET, HEAD"), HTTPHeader("Content-Type", "text/plain; charset=utf-8")],
            body: Array("Method Not Allowed\n".utf8), route: .methodNotAllowed))

        self.badRequest = prepared.add(Response(
            status: 400,
            headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8"), HTTPHeader("Connection", "close")],
            body: Array("Bad Request\n".utf8), route: .badRequest))
        self.callPage = callPage
        self.config = config
        self.generation = generation
        self.aasaBytes = aasa
        self.assetLinksBytes = assetLinks
        self.resources = resources
        self.preparedResponses = prepared.all
        self.warnings = warnings
    }
}
