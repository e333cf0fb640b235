extension ConfigKeyTable {
    /// The site-level sections: the top level's are the default site's and what sites inherit.
    static let siteLevel: [ConfigKey] = apps + callLinks + aasa + staticFiles

    /// `apps` and `android`: one unit per site, so one tenant's visitors are never sent to another's app.
    static let apps: [ConfigKey] = [
        ConfigKey("apps", "array of objects", note: "required (or `android`)", site: .withSection,
                  "iOS apps that open links on these hosts. `apps` and `android` are one unit: a site that writes either takes neither from the top level (`\"android\": []` says \"none\"; `validate` asks for it, LH125); a site that writes neither takes both"),
        ConfigKey("apps[].name", "string", site: .wholeList, "display name shown on the call page"),
        ConfigKey("apps[].teamID", "10 × `A-Z0-9`", site: .wholeList, "Apple Developer Team ID"),
        ConfigKey("apps[].bundleID", "reverse-DNS string", site: .wholeList, "bundle identifier"),
        ConfigKey("apps[].appStoreID", "digits, string or number", site: .wholeList, "App Store ID: store links and the Smart App Banner"),
        ConfigKey("apps[].urlScheme", "string", site: .wholeList, "custom URL scheme for the open-in-app button"),
        ConfigKey("apps[].appClipBundleID", "reverse-DNS string", site: .wholeList,
                  "the app's App Clip (same team, the app's bundle ID and a suffix, e.g. `com.example.video.Clip`): the sites of this app list it under `appclips` in their AASA, and their call page's Smart App Banner shows its card (`app-clip-display=card`); see [docs/app-clip.md](docs/app-clip.md)"),
        ConfigKey("apps[].installURL", "https URL or `false`", note: "the App Store, by `appStoreID`", site: .wholeList,
                  "for an app outside the App Store (TestFlight, an internal build): the page's install link goes to this page instead, or with `false` the page shows none; not with `appStoreID`"),
        ConfigKey("android", "array of objects", site: .withSection,
                  "Android apps for `/.well-known/assetlinks.json`; one unit with `apps`: a site that writes either takes neither from the top level (`[]` for none, LH125)"),
        ConfigKey("android[].name", "string", site: .wholeList, "the call page's app name when the site has no iOS app; such a site needs one (LH108)"),
        ConfigKey("android[].packageName", "string", site: .wholeList, "application ID"),
        ConfigKey("android[].sha256CertFingerprints", "array of strings", site: .wholeList, "signing certificate fingerprints, any case (served uppercase); list the Play app-signing key too"),
        ConfigKey("android[].dynamicRules", "boolean", default: "true", site: .wholeList,
                  "the site's rules as Android 15+ dynamic rules in assetlinks.json (see [Android 15+ dynamic rules](#android-15-dynamic-rules)); `false` leaves the manifest alone to decide"),
        ConfigKey("android[].installURL", "https URL or `false`", note: "Google Play", site: .wholeList,
                  "for an app outside Google Play (Firebase App Distribution, an internal build): the page's install link and the open button's fallback go to this page instead of a Play listing that does not exist, or with `false` the page shows none"),
        ConfigKey("android[].lint", "object", site: .wholeList, "lint warnings that do not apply to this app"),
        ConfigKey("android[].lint.ignore", "array of codes", note: "none", site: .wholeList,
                  "codes to leave out for this app: `[\"LH403\"]` drops \"add the Play signing key\" for a build Play never signs (packages ending in `.debug`, `.dev`, `.staging`, `.qa`, `.test` get none anyway)"),
    ]

    /// `callLinks`: the link shapes and their page.
    static let callLinks: [ConfigKey] = [
        ConfigKey("callLinks", "object", site: .withSection, "call links: their shapes and their page; a site inherits its members one by one (see [Sites](#sites))"),
        ConfigKey("callLinks.links", "array of link templates", note: "from `paths`", site: .byKey,
                  "the link shapes, in order, the first canonical (see [Link shapes](#link-shapes)); a site that writes `links` or `paths` replaces both"),
        ConfigKey("callLinks.paths", "array of path prefixes", default: "[\"call\"]", site: .byKey,
                  "shorthand: `\"call\"` stands for `/call/{callId}?type={callType}` and `/call/{callType}:{callId}`; a prefix may have several segments (`video/demos/join`); not together with `links`"),
        ConfigKey("callLinks.defaultType", "call type", default: "\"default\"", site: .byKey, "call type when the link has none"),
        ConfigKey("callLinks.template", "string", default: "\"public/call.html\"", site: .byKey, "page template (never served as a file); at this default with nothing at `public/call.html`, the one built into linkhost ([docs/call-page.md](docs/call-page.md#the-page-built-into-linkhost)); in a site file, a path in the file's own folder (LH134, see `siteFiles`)"),
        ConfigKey("callLinks.locales", "string", default: "\"public/locales\"", site: .byKey, "folder of the page's locale files, `<tag>.json` each (never served as files); at this default with nothing at `public/locales`, the ones built into linkhost; in a site file, a path in the file's own folder"),
        ConfigKey("callLinks.defaultLocale", "language tag", default: "\"en\"", site: .byKey,
                  "language tag of the locale visitors get when `Accept-Language` names none of the site's; its strings fill gaps in the others"),
        ConfigKey("callLinks.baseURL", "origin URL", site: .withSection,
                  "public origin for canonical URLs, previews and QR codes, e.g. `https://links.example.com`; without it the request's `Host` is used only when the config names it (a host the site lists, a name in `server.tls.acme.hosts`, or a loopback name such as `localhost:8080`), and a call link asked for with any other `Host` is a `404` (`Cache-Control: no-store`), so a cache cannot be poisoned with a forged `Host` ([docs/cdn.md](docs/cdn.md#the-host-header-and-the-cache-key)). Set it on a real domain. Not inherited by a site that writes `callLinks`: it names the top level's domain"),
        ConfigKey("callLinks.webJoinURL", "https URL template", site: .byKey, "web-join URL template with `{callId}`, `{callType}`, `{path}` (the canonical shape's literal path, e.g. `call`)"),
        ConfigKey("callLinks.openInAppURL", "custom-scheme URL template", note: "the scheme, `://`, the canonical path and query without the leading `/`: `examplevideo://call/abc?type=video`", site: .withSection,
                  "custom-scheme URL template; not inherited by a site that writes `callLinks`: it names the top level's app's scheme"),
        ConfigKey("callLinks.desktopScheme", "boolean", default: "false", site: .withSection,
                  "a desktop app (macOS, Windows) declares the page's custom scheme, so a computer is offered it too; without it only phones are, as a computer would answer a phone app's scheme with nothing"),
        ConfigKey("callLinks.openInAppHost", "host name", site: .withSection,
                  "a second host of the same site (one of its `hosts`): the iPhone's open button is the call on that host, a universal link to another domain than the page's, so iOS opens the app; without the app iOS shows that host's page, which then leads with the App Store (see [Every guest reaches the call](#every-guest-reaches-the-call)). Not inherited by a site that writes `callLinks`: it must be one of the site's own hosts"),
        ConfigKey("callLinks.previewImage", "file name", note: "linkhost's 1200 × 630 picture (the page's camera mark on its accent colour), served at `/linkhost-preview.png`", site: .byKey,
                  "file in the static folder for `og:image`"),
        ConfigKey("callLinks.cacheMaxAge", "integer 0–86400", default: "60", site: .byKey, "`Cache-Control` max-age of call pages"),
        ConfigKey("callLinks.pageCacheSize", "integer 0–100000", default: "256", site: .byKey, "rendered pages kept in memory, so a viral link renders once per reload; `0` renders every request"),
    ]

    /// `aasa`: how the apple-app-site-association is generated. Its rules and app lists name the top level's
    /// links and apps, so only the cache lifetime is inherited on its own.
    static let aasa: [ConfigKey] = [
        ConfigKey("aasa", "object", site: .withSection, "the generated apple-app-site-association"),
        ConfigKey("aasa.format", "`modern`, `legacy` or `both`", default: "\"modern\"", site: .withSection,
                  "`modern` (iOS 13+ `components`), `legacy` (iOS 9–12 `paths`), `both`; it decides which rule keys are allowed, so it comes with the site's rules"),
        ConfigKey("aasa.rules", "array of objects", note: "one rule per link shape, exactly the call links", site: .withSection, "ordered rules; the first that matches a URL decides"),
        ConfigKey("aasa.rules[].path", "pattern", site: .wholeList, "path pattern: `*` any run, `?` one character, `?*` one or more, `$(variable)`"),
        ConfigKey("aasa.rules[].query", "pattern, or object of name → pattern", site: .wholeList, "query pattern: a string for the whole query, or query item name → pattern"),
        ConfigKey("aasa.rules[].fragment", "pattern", site: .wholeList, "fragment pattern"),
        ConfigKey("aasa.rules[].exclude", "boolean", default: "false", site: .wholeList, "when true, a matching URL stays in the browser"),
        ConfigKey("aasa.rules[].caseSensitive", "boolean", site: .wholeList, "overrides `aasa.defaults.caseSensitive` for this rule"),
        ConfigKey("aasa.rules[].percentEncoded", "boolean", site: .wholeList, "overrides `aasa.defaults.percentEncoded` for this rule"),
        ConfigKey("aasa.rules[].comment", "string", site: .wholeList, "a note for people, written into the AASA"),
        ConfigKey("aasa.defaults", "object", site: .withSection, "`caseSensitive`, `percentEncoded` for every rule"),
        ConfigKey("aasa.defaults.caseSensitive", "boolean", site: .withSection, "whether every rule matches case"),
        ConfigKey("aasa.defaults.percentEncoded", "boolean", site: .withSection, "whether every rule's patterns are percent-encoded"),
        ConfigKey("aasa.substitutionVariables", "object of name → array of strings", site: .withSection, "variables the rules use as `$(name)`"),
        ConfigKey("aasa.webcredentials", "`true` or array of app IDs", note: "off", site: .withSection, "`true` lists every app of the site"),
        ConfigKey("aasa.appclips", "array of app IDs", site: .withSection, "App Clip app IDs"),
        ConfigKey("aasa.activitycontinuation", "`true` or array of app IDs", note: "off", site: .withSection, "`true` lists every app of the site"),
        ConfigKey("aasa.cacheMaxAge", "integer 0–31536000", default: "3600", site: .byKey, "`Cache-Control` max-age of the AASA and assetlinks"),
    ]

    /// `static`: the static folder.
    static let staticFiles: [ConfigKey] = [
        ConfigKey("static", "object", site: .withSection, "the static files"),
        ConfigKey("static.root", "string", default: "\"public\"", site: .byKey, "folder of static files, relative to the working directory (in a site file: to the file's own folder, `.` for that folder itself); at this default with nothing at `public`, the files built into linkhost (the page's script, styles, favicon, home and 404 pages); all sites' static files together are held to `server.staticFilesBytes`; no folder answers `/.well-known/acme-challenge/` (LH136), which only linkhost's own ACME responder does"),
        ConfigKey("static.cacheMaxAge", "integer 0–31536000", default: "300", site: .byKey, "`Cache-Control` max-age of static files"),
    ]

    /// `sites`: more sites in the same process.
    static let sites: [ConfigKey] = [
        ConfigKey("sites", "array of objects", site: .topLevelOnly,
                  "more sites, chosen by the request's `Host`: `hosts` plus any of `apps`, `android`, `callLinks`, `aasa`, `static`, inherited as this column says (see [Sites](#sites))"),
        ConfigKey("sites[].hosts", "array of host names", site: .siteOnly,
                  "host names, any case, port ignored; `*.example.com` matches every subdomain, but never of a public suffix (`*.com`, `*.co.uk`, `*.github.io`: LH137, judged by the Public Suffix List of Debian's `publicsuffix` package, or the copy `LINKHOST_PUBLIC_SUFFIX_LIST` names; without it a site file's wildcard is refused, the operator's warned about); a host belongs to one site (LH116)"),
        ConfigKey("sites[].id", "1–64 of `A-Z a-z 0-9 . _ -`", note: "the site's first host", site: .siteOnly,
                  "the site's name in diagnostics (`site \"customer6\" (sites[6]) apps[0].teamID`), in the metrics' `site` label and in the access log's `site` field, so reordering hosts changes none of them; `default` is the top level's; two sites with one id are an error (LH122)"),
        ConfigKey("siteFiles", "path pattern", note: "none", site: .topLevelOnly,
                  "files that each hold one site (the keys of `sites[]`), joined after `sites` in the byte order of their names (which decides nothing else): a folder relative to the config file, then a name pattern where `*` matches any run of characters and `?` one (no other glob syntax; names starting with `.` never match, so a folder of mounted ConfigMaps works), e.g. `\"sites.d/*.json\"`; SIGHUP and `server.watchConfig` pick up files added, removed or changed; the paths a file writes (`callLinks.template`, `callLinks.locales`, `static.root`) are read in its own folder, beside it and named as the file without its extension (`sites.d/acme/` for `sites.d/acme.json`): an absolute path, `..`, a link leading out or one of the operator's files (state folders, TLS files, the config, the operator's sites' folders) fails that site alone (LH134), and a file that writes none takes the top level's; a file that fails (LH131–LH133) harms its own site only: it keeps its last good version on a reload, and at start with `server.stateDirectory`, and is left out otherwise; a host, id or app a serving site holds stays with it, and a file claiming it fails (LH138–LH140; see [docs/kubernetes.md](docs/kubernetes.md))"),
        ConfigKey("sharedApps", "object of arrays of site names", note: "none", site: .topLevelOnly,
                  "app identities (iOS app ID `TEAMID.bundle.id`, App Clip ID, Android package) that several sites may list, each with the sites' names (ids, else first hosts): `{\"ABCDE12345.com.acme.meet\": [\"acme\", \"acme-eu\"]}`; otherwise an app a site file lists belongs to that file alone, and one the top level or an inline site lists to the operator (LH139); `print … --app` includes a site file's hosts only for an app it lists and owns"),
    ]
}
