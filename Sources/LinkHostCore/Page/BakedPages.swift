/// A page template baked in each of a site's locales and flattened for rendering: the part of a call page
/// that depends on the app and the language but not on the site's link shapes or hosts.
///
/// Sites that bake the same template and locales share one value, whatever their app: with seven locales a
/// bake is most of a site's load time and memory, and a platform of thousands of tenants, each with its own
/// app, has one bake (issue 33). The app's name, App Store ID, App Store URL and App Clip are therefore left to
/// each request (`CallPage.appValues`), a few dozen bytes per site, like the link's own values; so is every URL
/// under the site's origin (`callLinks.baseURL`), which each operator's tenant has of its own (issue 42).
struct BakedPages: Sendable {
    /// The template baked for each locale, in the order of the locales: the default first.
    let templates: [PageTemplate]
    /// `templates`, flattened for rendering.
    let programs: [PageProgram]
    /// The fields the baked templates still leave for each request.
    let usedFields: Set<PageTemplate.Field>

    /// Everything a bake reads: two sites with equal keys bake to the same bytes.
    struct Key: Hashable {
        let templatePath: String
        let locales: [LocaleKey]
        let hasAndroidApp: Bool
        let installPages: [InstallPage?]
        let desktopScheme: Bool
        let canOpenApp: Bool
        let hasOpenInAppHost: Bool
        let hasWebJoinURL: Bool

        /// A locale as the bake sees it.
        struct LocaleKey: Hashable {
            let tag: String
            let isRightToLeft: Bool
            let strings: [String: String]

            /// Hashes the tag, direction and number of strings, not every string: a config of a thousand
            /// sites looks its bakes up a thousand times, and equal keys still compare every string.
            func hash(into hasher: inout Hasher) {
                hasher.combine(tag)
                hasher.combine(isRightToLeft)
                hasher.combine(strings.count)
            }
        }
    }

    /// What decides the bake of `site`'s page in `locales`.
    static func key(site: SiteConfig, locales: [PageLocale]) -> Key {
        let callLinks = site.callLinks
        return Key(templatePath: callLinks.template,
                   locales: locales.map { Key.LocaleKey(tag: $0.tag.text, isRightToLeft: $0.isRightToLeft, strings: $0.strings) },
                   hasAndroidApp: !site.android.isEmpty,
                   installPages: [site.apps.first?.installPage, site.android.first?.installPage], desktopScheme: callLinks.desktopScheme,
                   canOpenApp: canOpenApp(site), hasOpenInAppHost: callLinks.openInAppHost != nil, hasWebJoinURL: callLinks.webJoinURL != nil)
    }

    /// True when the page has a custom-scheme URL: `openInAppURL`, or the default built from the app's scheme.
    static func canOpenApp(_ site: SiteConfig) -> Bool {
        site.callLinks.openInAppURL != nil || site.apps.first?.urlScheme != nil
    }

    /// `/` and the preview image's file name, or the default picture's path.
    static func previewImagePath(_ callLinks: CallLinkSettings) -> String {
        callLinks.previewImage.map { "/" + $0 } ?? DefaultPreviewImage.path
    }

    /// Bakes `parsed` for `site` in each of `locales`: strings, store links and every other value sites of the
    /// same key share.
    init(site: SiteConfig, template parsed: PageTemplate, locales: [PageLocale]) {
        let callLinks = site.callLinks
        let hasAndroidApp = !site.android.isEmpty
        let androidInstallPage = site.android.first?.installPage
        let canOpenApp = Self.canOpenApp(site)
        let languages = locales.map(\.tag.text).joined(separator: " ")
        templates = locales.map { locale in
            parsed.baked(strings: locale.strings) { field in
                switch field {
                // Per site, at each request: sites of different apps share the bake. The card names the clip
                // of the app the banner names (its app-id): the first app's.
                case .appName, .appStoreID, .appStoreURL, .appClipBundleID: return nil
                // An app outside a store links to its own install page, or to nothing: never to a listing that does not exist.
                case .playStoreURL: return hasAndroidApp ? androidInstallPage.map { $0.url ?? "" } : ""
                case .inPlayStore: return hasAndroidApp && androidInstallPage == nil ? "true" : ""
                case .desktopScheme: return callLinks.desktopScheme && canOpenApp ? "true" : ""
                // The intent opens the app through its https App Links filter: no custom scheme needed.
                case .intentURL: return hasAndroidApp ? nil : ""
                case .openInAppHostURL: return callLinks.openInAppHost == nil ? "" : nil
                // Under the site's origin (`baseURL` or the Host), at each request: tenants of their own origin share the bake.
                case .imageURL: return nil
                case .webJoinURL: return callLinks.webJoinURL == nil ? "" : nil
                case .openInAppURL: return canOpenApp ? nil : ""
                case .lang: return locale.tag.text
                case .dir: return locale.isRightToLeft ? "rtl" : "ltr"
                case .languages: return languages
                // The call's own values.
                case .callId, .callType, .canonicalURL, .qrCodeURL, .qrCode: return nil
                }
            }
        }
        usedFields = templates.reduce(into: Set()) { $0.formUnion($1.usedFields) }
        programs = templates.map(PageProgram.init)
    }
}
