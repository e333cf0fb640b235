/// A site's answer for unknown paths and invalid call links: its static folder's `404.html` baked in each
/// of the site's page locales, so a guest who mistyped a link reads why in the call page's language.
///
/// `404.html` is a small template: `{{t.name}}` strings, `{{appName}}`, `{{lang}}`, `{{dir}}` and
/// `{{languages}}`; it has no call, so call fields are refused. A file without strings is one page for all.
///
/// A page that names the app is baked once for every site of the same static tree and locales
/// (`NotFoundBake`) and rendered per request with the site's app name, as the call page is: prepared per
/// site, seven languages of it cost a tenant of a white-label platform about 30 KB (issue 33). A page that
/// does not name the app is prepared at load, once for all those sites.
struct NotFoundPages: Sendable {
    /// The pages prepared at load, in the locales' order (a single one when the bodies do not differ);
    /// empty when `bake` renders them.
    private let prepared: [Response]
    /// The bake shared by the sites of one static tree and locales, rendered per request; nil when prepared.
    let bake: NotFoundBake?
    /// The site's app name, which `bake` leaves to each request.
    private let appName: String

    /// The strings the shipped `404.html` uses, with the text a locale folder that lacks them gets: folders
    /// written before the not-found page spoke other languages keep loading without a new error.
    static let builtInStrings: [String: String] = [
        "notFoundTitle": "Link not found",
        "notFoundHeading": "This link doesn’t work",
        "notFoundLead": "The page or call you’re looking for isn’t here. Check that you copied the whole link, or ask the person who sent it for a new one.",
        "notFoundNext": "If someone sent you a call link, open it on the phone where {appName} is installed. On a computer, the call’s page shows a QR code to scan with that phone.",
    ]

    /// The static file that is the not-found page's template.
    static let path = "/404.html"

    /// The fields a not-found page may use: everything else needs a call it does not have.
    private static let allowedFields: Set<PageTemplate.Field> = [.appName, .lang, .dir, .languages]

    /// The plain-text page of a site whose static folder has no `404.html`.
    static func plain(prepared: inout PreparedResponses) -> NotFoundPages {
        NotFoundPages(prepared: [prepared.add(Response(
            status: 404,
            headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8"), cacheControl],
            body: Array("Not Found\n".utf8), route: .notFound))])
    }

    /// Parses a static folder's `404.html`; a problem is an error at `setting` naming the line.
    static func template(_ bytes: [UInt8], path: String, setting: String) throws(ConfigError) -> PageTemplate {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(source: path, diagnostics: [ConfigDiagnostic(.lh114, path: setting, message: "\"\(path)\" is not UTF-8 text")])
        }
        let parsed: PageTemplate
        do {
            parsed = try PageTemplate(parsing: text)
        } catch {
            throw ConfigError(source: path, diagnostics: [ConfigDiagnostic(.lh114, path: setting, message: "\(path) \(error)")])
        }
        let unfillable = parsed.usedFields.subtracting(allowedFields)
        if !unfillable.isEmpty {
            let names = unfillable.map { "{{\($0.rawValue)}}" }.sorted().joined(separator: ", ")
            throw ConfigError(source: path, diagnostics: [ConfigDiagnostic(.lh114, path: setting, message: "\(path) uses \(names), which a not-found page cannot fill: it has no call; it may use {{t.…}} strings, {{appName}}, {{lang}}, {{dir}} and {{languages}}")])
        }
        return parsed
    }

    /// Bakes `template` in each of `locales` for `appName`, adding the responses to `prepared`: one site's
    /// pages, for a template `NotFoundBake` cannot bake without the app.
    init(template: PageTemplate, path: String, setting: String, locales: [PageLocale], appName: String,
         prepared: inout PreparedResponses) throws(ConfigError) {
        var bodies: [[UInt8]] = []
        for baked in try Self.baked(template, path: path, setting: setting, locales: locales, appName: appName) {
            var body: [UInt8] = []
            baked.render(into: &body) { _ in "" }
            bodies.append(body)
        }
        let headers = Self.headers(locales: locales, single: bodies.dropFirst().allSatisfy { $0 == bodies[0] })
        self.init(prepared: zip(headers, bodies).map { prepared.add(Response(status: 404, headers: $0, body: $1, route: .notFound)) })
    }

    /// The pages of one site from the bake its static tree and locales share: rendered per request when they
    /// name the app, else the bake's prepared pages.
    init(bake: NotFoundBake, appName: String) {
        self.prepared = bake.prepared
        self.bake = bake.prepared.isEmpty ? bake : nil
        self.appName = appName
    }

    private init(prepared: [Response]) {
        self.prepared = prepared
        bake = nil
        appName = ""
    }

    /// `template` baked in each of `locales`; `appName` nil leaves `{{appName}}` (and a string's `{appName}`)
    /// to each request. Throws when a string leaves another field, which a page without a call cannot fill.
    static func baked(_ template: PageTemplate, path: String, setting: String, locales: [PageLocale], appName: String?) throws(ConfigError) -> [PageTemplate] {
        let languages = locales.map(\.tag.text).joined(separator: " ")
        var result: [PageTemplate] = []
        for locale in locales {
            let baked = template.baked(strings: Self.builtInStrings.merging(locale.strings) { $1 }) { field in
                field == .appName && appName == nil ? nil : Self.value(of: field, locale: locale, languages: languages, appName: appName ?? "")
            }
            // A string's own {callId} or {callType} is left over once the strings are in.
            if let left = baked.usedFields.subtracting([.appName]).first {
                throw ConfigError(source: path, diagnostics: [ConfigDiagnostic(.lh114, path: setting, message: "\(path) shows a string that uses {\(left.rawValue)} in \(locale.tag); a not-found page has no call, so its strings may use {appName} only")])
            }
            result.append(baked)
        }
        return result
    }

    /// The header fields of the pages, in the locales' order: one set without `Content-Language` and `Vary`
    /// when the page is the same in every language (`single`).
    static func headers(locales: [PageLocale], single: Bool) -> [[HTTPHeader]] {
        let html = [HTTPHeader("Content-Type", "text/html; charset=utf-8")] + CallPage.securityHeaders
        if single { return [html + [cacheControl]] }
        return locales.map { locale in
            html + [HTTPHeader("Content-Language", locale.tag.text), HTTPHeader("Vary", "Accept-Language"), cacheControl]
        }
    }

    /// What a page without a call (this one, the home page) bakes `field` to; nil for a field it has no value of.
    static func value(of field: PageTemplate.Field, locale: PageLocale, languages: String, appName: String) -> String? {
        switch field {
        case .appName: return appName
        case .lang: return locale.tag.text
        case .dir: return locale.isRightToLeft ? "rtl" : "ltr"
        case .languages: return languages
        case .callId, .callType, .appStoreID, .openInAppURL, .intentURL, .appStoreURL, .playStoreURL, .webJoinURL, .canonicalURL, .imageURL,
             .qrCodeURL, .qrCode, .openInAppHostURL, .appClipBundleID, .desktopScheme, .inPlayStore:
            return nil
        }
    }

    /// Kept a minute: a link that is 404 now may be a page after the next deploy.
    static let cacheControl = HTTPHeader("Cache-Control", "public, max-age=60")

    /// The page in the default locale, for answers that read no language.
    var standard: Response { page(0) }

    /// The page for a request, its language chosen as the call page's is; the headers are read only when the
    /// page has more than one language.
    func response(chooser: LanguageChooser, language: () -> String?, acceptLanguage: () -> String?) -> Response {
        guard (bake?.templates.count ?? prepared.count) > 1 else { return page(0) }
        return page(chooser.choose(override: language(), acceptLanguage: acceptLanguage()).index)
    }

    /// The page in locale `index` (the first when it has one for all): prepared, or rendered now with the app's name.
    private func page(_ index: Int) -> Response {
        guard let bake else { return prepared[index < prepared.count ? index : 0] }
        let index = index < bake.templates.count ? index : 0
        var body: [UInt8] = []
        body.reserveCapacity(bake.sizes[index] + 64)
        bake.templates[index].render(into: &body) { [appName] field in field == .appName ? appName : "" }
        return Response(status: 404, headers: bake.headers[index], body: body, route: .notFound)
    }
}

/// A static tree's `404.html` baked in one set of locales with the app left open, shared by every site of
/// that tree and those locales whatever its app; or, for a page that does not name the app, its prepared pages.
final class NotFoundBake: Sendable {
    /// The baked templates, in the locales' order: one when the page is the same in every language.
    let templates: [PageTemplate]
    /// Each template's header fields, the common ones first (as `PreparedResponses` adds them).
    let headers: [[HTTPHeader]]
    /// Each template's rendered size without the app's name, to reserve a body's bytes at once.
    let sizes: [Int]
    /// The prepared pages of a template that does not name the app; empty when rendered per request.
    let prepared: [Response]

    /// Bakes `template` in `locales` for any app; nil when it cannot be baked without the app (a string leaving
    /// another field), so each site bakes it with its own app name and reports what is wrong.
    init?(template: PageTemplate, path: String, setting: String, locales: [PageLocale], prepared: inout PreparedResponses) {
        guard let baked = try? NotFoundPages.baked(template, path: path, setting: setting, locales: locales, appName: nil) else { return nil }
        // Bodies with a stand-in name no text contains: equal with it, they are equal whatever the app.
        let probe = "\u{1}"
        let bodies = baked.map { page in
            var body: [UInt8] = []
            page.render(into: &body) { $0 == .appName ? probe : "" }
            return body
        }
        let single = bodies.dropFirst().allSatisfy { $0 == bodies[0] }
        let kept = single ? [baked[0]] : baked
        let headers = NotFoundPages.headers(locales: locales, single: single)
        sizes = kept.map { page in
            var body: [UInt8] = []
            page.render(into: &body) { _ in "" }
            return body.count
        }
        if kept.contains(where: { $0.usedFields.contains(.appName) }) {
            templates = kept
            self.headers = headers.map { PreparedResponses.commonHeaders + $0 }
            self.prepared = []
        } else {
            templates = []
            self.headers = []
            self.prepared = zip(headers, kept).map { headers, page in
                var body: [UInt8] = []
                page.render(into: &body) { _ in "" }
                return prepared.add(Response(status: 404, headers: headers, body: body, route: .notFound))
            }
        }
    }
}
