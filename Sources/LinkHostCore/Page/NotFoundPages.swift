/// A site's answer for unknown paths and invalid call links: its static folder's `404.html` baked in each
/// of the site's page locales, so a guest who mistyped a link reads why in the call page's language.
///
/// `404.html` is a small template: `{{t.name}}` strings, `{{appName}}`, `{{lang}}`, `{{dir}}` and
/// `{{languages}}`; it has no call, so call fields are refused. A file without strings is one page for all.
struct NotFoundPages: Sendable {
    /// One prepared response per locale, in the locales' order; a single one when the bodies do not differ.
    let responses: [Response]

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
        NotFoundPages(responses: [prepared.add(Response(
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

    /// Bakes `template` in each of `locales` for `appName`, adding the responses to `prepared`.
    init(template: PageTemplate, path: String, setting: String, locales: [PageLocale], appName: String,
         prepared: inout PreparedResponses) throws(ConfigError) {
        let languages = locales.map(\.tag.text).joined(separator: " ")
        var bodies: [[UInt8]] = []
        for locale in locales {
            let baked = template.baked(strings: Self.builtInStrings.merging(locale.strings) { $1 }) { field in
                Self.value(of: field, locale: locale, languages: languages, appName: appName)
            }
            // A string's own {callId} or {callType} is left over once the strings are in.
            if let left = baked.usedFields.first {
                throw ConfigError(source: path, diagnostics: [ConfigDiagnostic(.lh114, path: setting, message: "\(path) shows a string that uses {\(left.rawValue)} in \(locale.tag); a not-found page has no call, so its strings may use {appName} only")])
            }
            var body: [UInt8] = []
            baked.render(into: &body) { _ in "" }
            bodies.append(body)
        }
        let html = [HTTPHeader("Content-Type", "text/html; charset=utf-8")] + CallPage.securityHeaders
        if bodies.dropFirst().allSatisfy({ $0 == bodies[0] }) {
            responses = [prepared.add(Response(status: 404, headers: html + [Self.cacheControl], body: bodies[0], route: .notFound))]
        } else {
            responses = zip(locales, bodies).map { locale, body in
                prepared.add(Response(status: 404, headers: html + [
                    HTTPHeader("Content-Language", locale.tag.text), HTTPHeader("Vary", "Accept-Language"), Self.cacheControl,
                ], body: body, route: .notFound))
            }
        }
    }

    private init(responses: [Response]) { self.responses = responses }

    /// What a page without a call (this one, the home page) bakes `field` to; nil for a field it has no value of.
    static func value(of field: PageTemplate.Field, locale: PageLocale, languages: String, appName: String) -> String? {
        switch field {
        case .appName: return appName
        case .lang: return locale.tag.text
        case .dir: return locale.isRightToLeft ? "rtl" : "ltr"
        case .languages: return languages
        default: return nil
        }
    }

    /// Kept a minute: a link that is 404 now may be a page after the next deploy.
    private static let cacheControl = HTTPHeader("Cache-Control", "public, max-age=60")

    /// The page in the default locale, for answers that read no language.
    var standard: Response { responses[0] }

    /// The page for a request, its language chosen as the call page's is; the headers are read only when the
    /// page has more than one language.
    func response(chooser: LanguageChooser, language: () -> String?, acceptLanguage: () -> String?) -> Response {
        guard responses.count > 1 else { return responses[0] }
        let index = chooser.choose(override: language(), acceptLanguage: acceptLanguage()).index
        return responses[index < responses.count ? index : 0]
    }
}
