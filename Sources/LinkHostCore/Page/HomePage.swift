/// A site's home page (`/`): its static folder's `index.html`, when it is a template, baked in the site's
/// default locale with the site's app name, so a guest who lands on the bare domain reads whose links these
/// are and what to do next. An `index.html` that uses neither `{{appName}}` nor a `{{t.…}}` string is a
/// team's own page (a web app's `{{ message }}` included) and is served as it is.
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

    /// The template in `bytes` (the file at `diskPath`), or nil when it uses none of linkhost's placeholders; a
    /// problem is an error at `setting` naming the line.
    static func template(_ bytes: [UInt8], diskPath: String, setting: String) throws(ConfigError) -> PageTemplate? {
        guard contains(bytes, "{{appName}}") || contains(bytes, "{{t.") else { return nil }
        return try NotFoundPages.template(bytes, path: diskPath, setting: setting)
    }

    /// Whether `text` occurs in `bytes`.
    private static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { start in bytes[start..<(start + needle.count)].elementsEqual(needle) }
    }

    /// The site's home page as a resource made per request from `bake` (shared by the sites of one static tree
    /// and locales) with its app's name: the bytes, headers and tag `body` and a prepared resource would have.
    struct Rendered: ResourcePage {
        let bake: Bake
        let appName: String
        let maxAge: Int

        func resource() -> Resource {
            var body: [UInt8] = []
            // Fields left over (a string's own {callId}) have no call to fill them: they stay empty.
            bake.template.render(into: &body) { [appName] field in field == .appName ? appName : "" }
            return PreparedResponses.unregistered(body: body, contentType: "text/html; charset=utf-8", maxAge: maxAge,
                                                  route: .staticFile, extraHeaders: CallPage.securityHeaders)
        }
    }

    /// The home page's template baked in a site's default locale with the app's name left to each request.
    final class Bake: Sendable {
        let template: PageTemplate

        init(_ template: PageTemplate, locale: PageLocale, languages: String) {
            self.template = template.baked(strings: builtInStrings.merging(locale.strings) { $1 }) { field in
                field == .appName ? nil : NotFoundPages.value(of: field, locale: locale, languages: languages, appName: "")
            }
        }
    }
}
