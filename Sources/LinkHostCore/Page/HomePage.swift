/// A site's home page (`/`): its static folder's `index.html`, when it is a template, baked in the site's
/// default locale with the site's app name, so a guest who lands on the bare domain reads whose links these
/// are and what to do next. An `index.html` without `{{` is a team's own page and is served as it is.
///
/// It may use what the not-found page may (`{{t.name}}` strings, `{{appName}}`, `{{lang}}`, `{{dir}}`,
/// `{{languages}}`): it has no call either.
enum HomePage {
    /// The static file that is the home page's template.
    static let path = "/index.html"

    /// The strings the shipped `index.html` uses, for locale folders written before it had any.
    static let builtInStrings: [String: String] = [
        "homeTitle": "{appName} call links",
        "homeHeading": "Call links for {appName}",
        "homeLead": "This domain opens {appName}’s call links.",
        "notFoundNext": NotFoundPages.builtInStrings["notFoundNext"] ?? "",
    ]

    /// The template in `bytes` (the file at `diskPath`), or nil when it has no placeholder; a problem is an
    /// error at `setting` naming the line.
    static func template(_ bytes: [UInt8], diskPath: String, setting: String) throws(ConfigError) -> PageTemplate? {
        guard bytes.indices.contains(where: { bytes[$0] == UInt8(ascii: "{") && $0 + 1 < bytes.count && bytes[$0 + 1] == UInt8(ascii: "{") }) else { return nil }
        return try NotFoundPages.template(bytes, path: diskPath, setting: setting)
    }

    /// The page's bytes in `locale` for `appName`.
    static func body(_ template: PageTemplate, locale: PageLocale, languages: String, appName: String) -> [UInt8] {
        let baked = template.baked(strings: builtInStrings.merging(locale.strings) { $1 }) { field in
            NotFoundPages.value(of: field, locale: locale, languages: languages, appName: appName)
        }
        var body: [UInt8] = []
        // Fields left over (a string's own {callId}) have no call to fill them: they stay empty.
        baked.render(into: &body) { _ in "" }
        return body
    }
}
