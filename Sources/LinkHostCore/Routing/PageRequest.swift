import CallLinks

/// What a call link's request asks for: its page in a language, or its QR-code image.
@usableFromInline
package enum PageKind: Hashable, Sendable {
    /// The HTML page, in the chosen locale.
    case page(LanguageChoice)
    /// The SVG image of the canonical URL (`…/qr.svg`), the same in every language.
    case qrCode
    /// The same image as PNG (`…/qr.png`).
    case qrCodePNG
}

/// Which call a request names, whichever link shape it used, and what of it: its page or its QR code.
@usableFromInline
package struct PageTarget: Sendable {
    /// The call.
    package let link: CallLink
    /// The page in a language, or the QR code.
    package let kind: PageKind

    /// Makes a target.
    @usableFromInline
    package init(link: CallLink, kind: PageKind) {
        self.link = link
        self.kind = kind
    }
}

/// One call page or QR code to render: everything its bytes depend on, which is also its cache key.
package struct PageRequest: Sendable {
    /// The site whose page it is.
    package let site: Site
    /// The call, whichever link shape named it.
    package let link: CallLink
    /// The page in a language, or the QR code.
    package let kind: PageKind
    /// The host of the page's absolute URLs when the site builds them from the Host (`PageHost`), as chosen
    /// from the request's: part of the cache key.
    package let host: String?

    /// The page `target` names on `site`; `host` is the one `PageHost` chose, nil under a base URL.
    package init(site: Site, target: PageTarget, host: String?) {
        self.site = site
        link = target.link
        kind = target.kind
        self.host = host
    }

    /// The rendered page (or image) with its 304; nil for a QR code when the site has no origin to encode.
    package func render() -> Resource? {
        switch kind {
        case .page(let language): return site.callPage.render(link, language: language, host: host)
        case .qrCode: return site.callPage.renderQRCode(link, host: host)
        case .qrCodePNG: return site.callPage.renderQRCode(link, host: host, png: true)
        }
    }

    /// The position of the rendered page's headers in `CallPage.headerSets`; nil for a QR code.
    package var headerSet: Int? {
        guard case .page(let language) = kind else { return nil }
        return site.callPage.headerSet(for: language)
    }
}

