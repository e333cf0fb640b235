import CallLinks

/// A site's call-link page: one baked template per locale plus everything about the app known at load.
///
/// The page is the same bytes for every device: what differs between Android, iPhone and computer is
/// decided in the browser by `/call.js`, so any cache in front may store one copy per link and language.
/// Rendering only fills the per-call values (ID, type, URLs) into a byte buffer.
@usableFromInline
package struct CallPage: Sendable {
    /// The template baked for each locale, in the order of `locales`: the default first.
    let templates: [PageTemplate]
    /// `templates`, flattened for rendering.
    let programs: [PageProgram]
    /// The site's locales, the default first.
    package let locales: [PageLocale]
    /// Picks a locale per request.
    @usableFromInline package let chooser: LanguageChooser
    let settings: CallLinkSettings
    /// `openInAppURL` as configured; nil when the page uses the default form or has no scheme.
    let openInAppTemplate: ParsedURLTemplate?
    /// `SCHEME:/`, which with a canonical path (`/call/abc?type=video`) makes the default custom-scheme URL
    /// `SCHEME://call/abc?type=video`: the form `CallLinkParser(schemes:)` reads for every template.
    let schemePrefix: URLText?
    /// `https://` and `openInAppHost`: the origin of the iPhone open button's universal link.
    let openInAppHostOrigin: URLText?
    /// `webJoinURL`, split at load.
    let webJoinTemplate: ParsedURLTemplate?
    let androidApp: AndroidApp?
    /// The canonical path of a call and of its QR code for each link template, and what `{path}` stands for.
    let canonicalLinks: [CanonicalLink]
    /// `baseURL`, the origin of every absolute URL when it is set.
    let baseURLText: URLText?
    /// The Google Play URL up to the percent-encoded canonical URL, with the Android app's package name, in
    /// the two forms the page writes it (escaped, percent-encoded): a tenant's own, so no form it never uses.
    let playStorePrefix: (escaped: [UInt8], encoded: [UInt8])
    /// The intent URL's fixed part between the open-in-app URL's scheme and the Play URL, escaped.
    let intentPackagePart: [UInt8]
    /// Where an Android app outside Google Play is installed from (`android[].installURL`); nil: Play.
    let androidInstallPage: InstallPage?
    /// `androidInstallPage`'s URL, for the intent's fallback.
    let androidInstallURL: URLText?
    /// `/` and the preview image's name: the image URL after the origin, escaped.
    let previewImagePath: [UInt8]
    /// The app's name, App Store ID, App Store URL and App Clip as the page shows them (empty when there is
    /// none): the bake leaves them to each request, so sites of different apps share it (`BakedPages`).
    package let appValues: [(field: PageTemplate.Field, text: String)]
    /// `appValues` escaped for HTML, once at load.
    let appBytes: [(field: PageTemplate.Field, bytes: [UInt8])]
    /// The per-request fields the templates use (`usedFields` without the ones baked at load).
    let renderedFields: PageFieldSet
    /// Bytes reserved for a page's values: enough for the shipped page's without growing.
    let valueCapacity = 2048
    /// The fields left for each request, so a render computes only those.
    let usedFields: Set<PageTemplate.Field>
    /// The headers of a rendered page by `headerSet(for:)`, without the page's own `ETag`.
    package let headerSets: [[HTTPHeader]]

    /// `Cache-Control` of QR-code images: a call's canonical URL, and so its image, does not change.
    static let qrCodeMaxAge = 86_400

    /// Headers of every HTML page linkhost serves (the 404 page too).
    static let securityHeaders = [
        HTTPHeader("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        // Call IDs are in the URL: never hand them to the stores or other sites as a referrer.
        HTTPHeader("Referrer-Policy", "no-referrer"),
        HTTPHeader("X-Frame-Options", "DENY"),
    ]

    /// The call page's policy: the 404's, plus the same-origin script that adapts the page to the device and
    /// its beacons (`connect-src 'self'` governs `navigator.sendBeacon`), to this origin only.
    static let pageSecurityHeaders = [
        HTTPHeader("Content-Security-Policy", "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    ] + securityHeaders.dropFirst()

    /// A site's page from its bake (shared by sites that show the same app the same way) and its own links;
    /// `canonicalLinks` and `chooser` are made once for sites of the same templates and locales (`shared`).
    init(site: SiteConfig, baked: BakedPages, locales: [PageLocale], headerSets: [[HTTPHeader]],
         shared: (canonicalLinks: [CanonicalLink], chooser: LanguageChooser)? = nil) {
        let callLinks = site.callLinks
        settings = callLinks
        self.locales = locales
        let app = site.apps.first
        openInAppTemplate = callLinks.openInAppURL.map(ParsedURLTemplate.init)
        schemePrefix = callLinks.openInAppURL == nil ? app?.urlScheme.map { URLText("\($0):/") } : nil
        openInAppHostOrigin = callLinks.openInAppHost.map { URLText("https://\($0)") }
        webJoinTemplate = callLinks.webJoinURL.map(ParsedURLTemplate.init)
        androidApp = site.android.first
        // Never an empty name for a loaded config: a site with no name anywhere is an error (LH108).
        appValues = [(.appName, site.appName ?? ""), (.appStoreID, app?.appStoreID ?? ""),
                     // An app outside a store links to its own install page, or to nothing: never to a listing that does not exist.
                     (.appStoreURL, app?.installPage.map { $0.url ?? "" } ?? app?.appStoreID.map { "https://apps.apple.com/app/id\($0)" } ?? ""),
                     (.appClipBundleID, app?.appClipBundleID ?? "")]
        appBytes = appValues.map { value in
            var bytes: [UInt8] = []
            HTMLEscaping.append(value.text, to: &bytes)
            return (value.field, bytes)
        }
        templates = baked.templates
        programs = baked.programs
        usedFields = baked.usedFields
        canonicalLinks = shared?.canonicalLinks ?? callLinks.links.templates.map(CanonicalLink.init)
        baseURLText = callLinks.baseURL.map(URLText.init)
        let playStore = URLText("https://play.google.com/store/apps/details?id=\(androidApp?.packageName ?? "")&referrer=")
        playStorePrefix = (playStore.escaped, playStore.encoded)
        intentPackagePart = URLText(";package=\(androidApp?.packageName ?? "");S.browser_fallback_url=").escaped
        androidInstallPage = androidApp?.installPage
        androidInstallURL = androidApp?.installPage?.url.map(URLText.init)
        previewImagePath = URLText(BakedPages.previewImagePath(callLinks)).escaped
        renderedFields = PageFieldSet(usedFields)
        chooser = shared?.chooser ?? LanguageChooser(tags: locales.map(\.tag.text), defaultIndex: 0)
        self.headerSets = headerSets
    }

    /// The header sets of a page in `locales` (`headerSet(for:)` numbers them): the same for every site of the
    /// same locales and `cacheMaxAge`, so a snapshot makes them once and its sites share them (`SnapshotBuild`).
    static func headerSets(locales: [PageLocale], maxAge: Int) -> [[HTTPHeader]] {
        var sets = Array(repeating: [HTTPHeader](), count: locales.count * HeaderVariant.allCases.count)
        for index in locales.indices {
            for variant in HeaderVariant.allCases {
                let language = LanguageChoice(index: index, negotiated: variant == .negotiated)
                sets[headerSet(for: language)] = pageHeaders(locale: locales[index], maxAge: maxAge, varies: variant == .negotiated && locales.count > 1)
            }
        }
        return sets
    }

    /// The header sets of one locale's page: `Accept-Language` chose it (with `Vary` when the site has more than
    /// one), or `?lang=` did (no `Vary`: the URL decides).
    enum HeaderVariant: Int, CaseIterable {
        case negotiated, asked

        init(_ language: LanguageChoice) { self = language.negotiated ? .negotiated : .asked }
    }

    /// Headers of a call page in one locale; `varies` when `Accept-Language` chose it among several.
    static func pageHeaders(locale: PageLocale, maxAge: Int, varies: Bool) -> [HTTPHeader] {
        PreparedResponses.commonHeaders + [
            HTTPHeader("Content-Type", "text/html; charset=utf-8"),
            HTTPHeader("Content-Language", locale.tag.text),
            HTTPHeader("Cache-Control", "public, max-age=\(maxAge)"),
        ] + (varies ? [HTTPHeader("Vary", "Accept-Language")] : []) + [
            HTTPHeader("X-Robots-Tag", "noindex"),
        ] + pageSecurityHeaders
    }

    /// The position in `headerSets` of a page in the chosen language: the locale's sets in locale order, each
    /// locale's in `HeaderVariant` order; `headerSets` places each set by this, so the two cannot disagree.
    package func headerSet(for language: LanguageChoice) -> Int { Self.headerSet(for: language) }

    /// `headerSet(for:)`, for `headerSets` before a page exists.
    static func headerSet(for language: LanguageChoice) -> Int {
        language.index * HeaderVariant.allCases.count + HeaderVariant(language).rawValue
    }

    /// The origin for absolute URLs: the configured base URL, else the request's Host when it is a plain host name.
    func origin(host: String?) -> String? {
        if let base = settings.baseURL { return base }
        guard let host, Self.isOriginHost(host) else { return nil }
        return "https://\(host)"
    }

    /// A Host value that can stand in an absolute URL: a plain host name (or bracketed IPv6 literal).
    static func isOriginHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255
            && host.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x3A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") })
    }

    /// The call's canonical URL (absolute when there is an origin): every link shape of a call points to
    /// one URL, built from the site's canonical template.
    func canonicalURL(_ link: CallLink, origin: String?) -> String {
        (origin ?? "") + settings.links.canonicalPath(for: link)
    }

    /// Renders the page for one call in one language, with its ETag and the matching 304.
    func render(_ link: CallLink, language: LanguageChoice, host: String?) -> Resource {
        let plan = plan(link, language: language, host: host)
        var body: [UInt8] = []
        body.reserveCapacity(plan.length)
        plan.write(into: &body)
        return Self.resource(body: body, headers: headerSets[headerSet(for: language)], route: .callPage,
                             etag: EntityTag.strong(digest: plan.entityDigest, length: body.count))
    }

    /// The page for one call in one language, its values computed and its length known, ready to be
    /// written wherever its bytes should go (the server: the very buffer libmicrohttpd sends).
    package func plan(_ link: CallLink, language: LanguageChoice, host: String?) -> PagePlan {
        var values = PageValues(capacity: valueCapacity)
        fill(&values, link: link, host: host)
        let program = programs[language.index]
        return PagePlan(program: program, values: values, length: program.length(values))
    }

    /// The QR-code image of a call's canonical URL, as SVG or (`png`) PNG; nil when the site has no origin
    /// to put in it.
    func renderQRCode(_ link: CallLink, host: String?, png: Bool = false) -> Resource? {
        guard let origin = origin(host: host) else { return nil }
        let url = canonicalURL(link, origin: origin)
        guard let body = png ? QRCodeMarkup.png(for: url) : QRCodeMarkup.image(for: url).map({ Array($0.utf8) }) else { return nil }
        // Opened on its own, an SVG is a document: this one needs nothing and may run nothing.
        let policy = png ? [] : [HTTPHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")]
        let headers = PreparedResponses.commonHeaders + [
            HTTPHeader("Content-Type", png ? "image/png" : "image/svg+xml"),
            HTTPHeader("Cache-Control", "public, max-age=\(Self.qrCodeMaxAge)"),
        ] + policy + [HTTPHeader("X-Robots-Tag", "noindex")]
        return Self.resource(body: body, headers: headers, route: .callQRCode)
    }

    /// The fields of a rendered page's headers its 304 repeats (before the ETag): the validators and
    /// caching fields (RFC 9110 §15.4.5).
    package static func notModifiedHeaders(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        let kept: Set<String> = ["server", "cache-control", "vary", "content-language", "x-content-type-options"]
        return headers.filter { kept.contains($0.name.lowercased()) }
    }

    /// A rendered body as a 200 with a strong ETag (after `headers`; the body's own unless `etag` is given) and the 304 that repeats the
    /// validators and caching fields (RFC 9110 §15.4.5).
    static func resource(body: [UInt8], headers: [HTTPHeader], route: Route, etag: String? = nil) -> Resource {
        let etag = etag ?? EntityTag.strong(for: body)
        let ok = Response(status: 200, headers: headers + [HTTPHeader("ETag", etag)], body: body, route: route)
        var notModified = Response(status: 304, headers: notModifiedHeaders(headers) + [HTTPHeader("ETag", etag)], route: route)
        notModified.representationLength = body.count
        return Resource(ok: ok, notModified: notModified, etag: etag)
    }
}
