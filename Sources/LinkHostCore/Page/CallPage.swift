import CallLinks

/// A site's call-link page: a baked template plus everything about the app known at load.
///
/// Rendering only fills the per-call values (ID, type, URLs, QR code) into a byte buffer.
package struct CallPage: Sendable {
    let template: PageTemplate
    let settings: CallLinkSettings
    /// `openInAppURL`, or the default built from the app's URL scheme; nil when the page cannot open the app.
    let openInAppTemplate: ParsedURLTemplate?
    /// `webJoinURL`, split at load.
    let webJoinTemplate: ParsedURLTemplate?
    let app: AppleApp?
    let androidApp: AndroidApp?
    let playStoreURL: String
    package let headers: [HTTPHeader]
    let usesQRCode: Bool

    /// Headers of every call page. No script runs on it, so the policy allows styles and images from the origin only.
    static func pageHeaders(maxAge: Int) -> [HTTPHeader] {
        PreparedResponses.commonHeaders + [
            HTTPHeader("Content-Type", "text/html; charset=utf-8"),
            HTTPHeader("Cache-Control", "public, max-age=\(maxAge)"),
            // The page differs for iOS, Android and desktop visitors.
            HTTPHeader("Vary", "User-Agent"),
            HTTPHeader("X-Robots-Tag", "noindex"),
        ] + securityHeaders
    }

    /// Headers for every HTML page linkhost serves.
    static let securityHeaders = [
        HTTPHeader("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        // Call IDs are in the URL: never hand them to the stores or other sites as a referrer.
        HTTPHeader("Referrer-Policy", "no-referrer"),
        HTTPHeader("X-Frame-Options", "DENY"),
    ]

    /// Bakes a parsed template for a site: app name, store links and every other per-site value.
    init(site: SiteConfig, template parsed: PageTemplate) {
        let callLinks = site.callLinks
        settings = callLinks
        app = site.apps.first
        openInAppTemplate = (callLinks.openInAppURL ?? site.apps.first?.urlScheme.map { "\($0)://{path}/{callId}?type={callType}" })
            .map(ParsedURLTemplate.init)
        webJoinTemplate = callLinks.webJoinURL.map(ParsedURLTemplate.init)
        androidApp = site.android.first
        playStoreURL = androidApp.map { "https://play.google.com/store/apps/details?id=\($0.packageName)" } ?? ""
        let app = self.app
        let playStoreURL = self.playStoreURL
        let imageURL: String? = callLinks.previewImage.map { image in callLinks.baseURL.map { "\($0)/\(image)" } } ?? ""
        template = parsed.baked { field in
            switch field {
            case .appName: return app?.name ?? ""
            case .appStoreID: return app?.appStoreID ?? ""
            case .appStoreURL: return app?.appStoreID.map { "https://apps.apple.com/app/id\($0)" } ?? ""
            case .playStoreURL: return playStoreURL
            case .imageURL: return imageURL
            case .webJoinURL: return callLinks.webJoinURL == nil ? "" : nil
            case .openInAppURL: return callLinks.openInAppURL == nil && app?.urlScheme == nil ? "" : nil
            default: return nil
            }
        }
        usesQRCode = template.usedFields.contains(.qrCode)
        headers = Self.pageHeaders(maxAge: settings.cacheMaxAge)
    }

    /// The origin for absolute URLs: the configured base URL, else the request's Host when it is a plain host name.
    func origin(host: String?) -> String? {
        if let base = settings.baseURL { return base }
        guard let host, !host.isEmpty, host.utf8.count <= 255,
              host.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x3A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") })
        else { return nil }
        return "https://\(host)"
    }

    /// The custom-scheme URL, or on Android an intent URL that falls back to the store (or the page) when the app is missing.
    func openInAppURL(for link: CallLink, path: String, platform: Platform, canonicalURL: String) -> String {
        guard let template = openInAppTemplate else { return "" }
        let schemeURL = template.fill(callID: link.callID, callType: link.callType, path: path)
        guard platform == .android, let android = androidApp, let separator = schemeURL.firstRange(of: "://") else { return schemeURL }
        let scheme = schemeURL[..<separator.lowerBound]
        let rest = schemeURL[separator.upperBound...]
        let fallback = playStoreURL.isEmpty ? canonicalURL : playStoreURL
        return "intent://\(rest)#Intent;scheme=\(scheme);package=\(android.packageName);S.browser_fallback_url=\(HTMLEscaping.percentEncode(fallback));end"
    }

    /// Renders the page for one call and visitor.
    ///
    /// Every link shape of the call points to one canonical URL, built from the site's canonical template;
    /// `{path}` in the URL templates is that template's literal path, e.g. `call`.
    func render(_ link: CallLink, platform: Platform, host: String?) -> Response {
        let origin = origin(host: host)
        let canonical = settings.links.canonicalTemplate(for: link)
        let canonicalURL = (origin ?? "") + canonical.fill(callID: link.callID, callType: link.callType)
        let path = canonical.literalPrefix.joined(separator: "/")
        let openURL = openInAppURL(for: link, path: path, platform: platform, canonicalURL: canonicalURL)
        let webJoin = webJoinTemplate?.fill(callID: link.callID, callType: link.callType, path: path) ?? ""
        let imageURL = settings.previewImage.flatMap { image in origin.map { "\($0)/\(image)" } } ?? ""
        // A QR code helps only a desktop visitor with the app on a phone; phones and relative URLs skip the work.
        let qrCode = usesQRCode && platform == .desktop && origin != nil ? QRCodeMarkup.svg(for: canonicalURL) : ""
        var body: [UInt8] = []
        body.reserveCapacity(8192)
        template.render(into: &body) { field in
            switch field {
            case .callId: return link.callID
            case .callType: return link.callType
            case .canonicalURL: return canonicalURL
            case .openInAppURL: return openURL
            case .webJoinURL: return webJoin
            case .imageURL: return imageURL
            case .qrCode: return qrCode
            case .platform: return platform.rawValue
            case .appName, .appStoreID, .appStoreURL, .playStoreURL: return ""
            }
        }
        return Response(status: 200, headers: headers, body: body, route: .callPage)
    }
}
