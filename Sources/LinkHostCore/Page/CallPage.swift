import CallLinks

/// A site's call-link page: one baked template per locale plus everything about the app known at load.
///
/// The page is the same bytes for every device: what differs between Android, iPhone and computer is
/// decided in the browser by `/call.js`, so any cache in front may store one copy per link and language.
/// Rendering only fills the per-call values (ID, type, URLs) into a byte buffer.
package struct CallPage: Sendable {
    /// The template baked for each locale, in the order of `locales`: the default first.
    let templates: [PageTemplate]
    /// The site's locales, the default first.
    package let locales: [PageLocale]
    /// Picks a locale per request.
    package let chooser: LanguageChooser
    let settings: CallLinkSettings
    /// `openInAppURL`, or the default built from the app's URL scheme; nil when the page cannot open the app.
    let openInAppTemplate: ParsedURLTemplate?
    /// `webJoinURL`, split at load.
    let webJoinTemplate: ParsedURLTemplate?
    let androidApp: AndroidApp?
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

    /// The call page's policy: the 404's, plus the same-origin script that adapts the page to the device.
    static let pageSecurityHeaders = [
        HTTPHeader("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    ] + securityHeaders.dropFirst()

    /// Bakes a parsed template for a site in each of its locales: app name, store links, strings and
    /// every other per-site value.
    init(site: SiteConfig, template parsed: PageTemplate, locales: [PageLocale]) {
        let callLinks = site.callLinks
        settings = callLinks
        self.locales = locales
        let app = site.apps.first
        openInAppTemplate = (callLinks.openInAppURL ?? app?.urlScheme.map { "\($0)://{path}/{callId}?type={callType}" })
            .map(ParsedURLTemplate.init)
        webJoinTemplate = callLinks.webJoinURL.map(ParsedURLTemplate.init)
        androidApp = site.android.first
        let androidApp = self.androidApp
        let canOpenApp = openInAppTemplate != nil
        let imageURL: String? = callLinks.previewImage.map { image in callLinks.baseURL.map { "\($0)/\(image)" } } ?? ""
        let languages = locales.map(\.tag.text).joined(separator: " ")
        templates = locales.map { locale in
            parsed.baked(strings: locale.strings) { field in
                switch field {
                case .appName: return app?.name ?? ""
                case .appStoreID: return app?.appStoreID ?? ""
                case .appStoreURL: return app?.appStoreID.map { "https://apps.apple.com/app/id\($0)" } ?? ""
                case .playStoreURL: return androidApp == nil ? "" : nil
                case .intentURL: return androidApp == nil || !canOpenApp ? "" : nil
                case .imageURL: return imageURL
                case .webJoinURL: return callLinks.webJoinURL == nil ? "" : nil
                case .openInAppURL: return canOpenApp ? nil : ""
                case .lang: return locale.tag.text
                case .dir: return locale.isRightToLeft ? "rtl" : "ltr"
                case .languages: return languages
                default: return nil
                }
            }
        }
        usedFields = templates.reduce(into: Set()) { $0.formUnion($1.usedFields) }
        chooser = LanguageChooser(tags: locales.map(\.tag.text), defaultIndex: 0)
        headerSets = locales.indices.flatMap { index in
            [true, false].map { negotiated in
                Self.pageHeaders(locale: locales[index], maxAge: callLinks.cacheMaxAge, varies: negotiated && locales.count > 1)
            }
        }
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

    /// The position in `headerSets` of a page in the chosen language.
    package func headerSet(for language: LanguageChoice) -> Int { language.index * 2 + (language.negotiated ? 0 : 1) }

    /// The origin for absolute URLs: the configured base URL, else the request's Host when it is a plain host name.
    func origin(host: String?) -> String? {
        if let base = settings.baseURL { return base }
        guard let host, !host.isEmpty, host.utf8.count <= 255,
              host.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x3A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") })
        else { return nil }
        return "https://\(host)"
    }

    /// The call's canonical URL (absolute when there is an origin) and the `{path}` of the URL templates:
    /// every link shape of a call points to one URL, built from the site's canonical template.
    func canonical(_ link: CallLink, origin: String?) -> (url: String, path: String) {
        let template = settings.links.canonicalTemplate(for: link)
        return ((origin ?? "") + template.fill(callID: link.callID, callType: link.callType), template.literalPrefix.joined(separator: "/"))
    }

    /// Renders the page for one call in one language, with its ETag and the matching 304.
    func render(_ link: CallLink, language: LanguageChoice, host: String?) -> Resource {
        let origin = origin(host: host)
        let (canonicalURL, path) = canonical(link, origin: origin)
        let links = AppLinks(call: link, path: path, canonicalURL: canonicalURL, openInApp: openInAppTemplate, android: androidApp)
        let webJoin = webJoinTemplate?.fill(callID: link.callID, callType: link.callType, path: path) ?? ""
        let imageURL = settings.previewImage.flatMap { image in origin.map { "\($0)/\(image)" } } ?? ""
        // The image encodes an absolute URL; without an origin there is none to encode.
        let qrCodeURL = origin == nil ? "" : settings.links.canonicalQRCodePath(for: link)
        let qrCode = usedFields.contains(.qrCode) && origin != nil ? QRCodeMarkup.svg(for: canonicalURL) : ""
        var body: [UInt8] = []
        body.reserveCapacity(8192)
        templates[language.index].render(into: &body) { field in
            switch field {
            case .callId: return link.callID
            case .callType: return link.callType
            case .canonicalURL: return canonicalURL
            case .openInAppURL: return links.openInApp
            case .intentURL: return links.intent
            case .playStoreURL: return links.playStore
            case .webJoinURL: return webJoin
            case .imageURL: return imageURL
            case .qrCodeURL: return qrCodeURL
            case .qrCode: return qrCode
            case .appName, .appStoreID, .appStoreURL, .lang, .dir, .languages: return ""
            }
        }
        let headers = headerSets[headerSet(for: language)]
        return Self.resource(body: body, headers: headers, route: .callPage)
    }

    /// The QR-code image of a call's canonical URL; nil when the site has no origin to put in it.
    func renderQRCode(_ link: CallLink, host: String?) -> Resource? {
        guard let origin = origin(host: host), let svg = QRCodeMarkup.image(for: canonical(link, origin: origin).url) else { return nil }
        let headers = PreparedResponses.commonHeaders + [
            HTTPHeader("Content-Type", "image/svg+xml"),
            HTTPHeader("Cache-Control", "public, max-age=\(Self.qrCodeMaxAge)"),
            // Opened on its own, an SVG is a document: this one needs nothing and may run nothing.
            HTTPHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"),
            HTTPHeader("X-Robots-Tag", "noindex"),
        ]
        return Self.resource(body: Array(svg.utf8), headers: headers, route: .callQRCode)
    }

    /// A rendered body as a 200 with a strong ETag (after `headers`) and the 304 that repeats the
    /// validators and caching fields (RFC 9110 §15.4.5).
    static func resource(body: [UInt8], headers: [HTTPHeader], route: Route) -> Resource {
        let etag = EntityTag.strong(for: body)
        let ok = Response(status: 200, headers: headers + [HTTPHeader("ETag", etag)], body: body, route: route)
        let kept: Set<String> = ["server", "cache-control", "vary", "content-language", "x-content-type-options"]
        var notModified = Response(status: 304, headers: headers.filter { kept.contains($0.name.lowercased()) } + [HTTPHeader("ETag", etag)], route: route)
        notModified.representationLength = body.count
        return Resource(ok: ok, notModified: notModified, etag: etag)
    }
}
