/// The stable code of every problem `linkhost validate` and `linkhost check` report.
///
/// Codes never change meaning once released: CI configurations filter on them. The hundreds group them:
/// 1xx file format, 2xx rules, 3xx consistency with what is served, 4xx Android, 5xx live deployment,
/// 6xx the call page's locale files, 7xx the app's own files (entitlements, Android manifest).
/// `docs/diagnostics.md` is generated from `meaning` and `fix` (a test keeps the two in step).
public enum LintCode: String, Sendable, CaseIterable, Comparable {
    /// File format: JSON, identifiers, types, keys, size, defaults, legacy/modern mixing, files the config names.
    case lh100 = "LH100", lh101 = "LH101", lh102 = "LH102", lh103 = "LH103", lh104 = "LH104"
    /// File format, continued.
    case lh105 = "LH105", lh106 = "LH106", lh107 = "LH107", lh108 = "LH108", lh109 = "LH109"
    /// File format, continued.
    case lh110 = "LH110", lh111 = "LH111", lh112 = "LH112", lh113 = "LH113", lh114 = "LH114"
    /// File format, continued: link templates and sites.
    case lh115 = "LH115", lh116 = "LH116"
    /// File format, continued: automatic HTTPS (ACME).
    case lh117 = "LH117", lh118 = "LH118", lh119 = "LH119"
    /// File format, continued: permissions of the config and of private keys (LH120); the shipped example's identity (LH121).
    case lh120 = "LH120", lh121 = "LH121"
    /// File format, continued: two sites with one id (LH122).
    case lh122 = "LH122"
    /// One team's config, coherent: the open-in-app host the apps claim (LH123) and not the link host (LH124),
    /// a site's apps on both platforms its own (LH125).
    case lh123 = "LH123", lh124 = "LH124", lh125 = "LH125"
    /// One team's config, continued: a site whose link host or open host another site answers (LH126), a
    /// pre-release app beside its release (LH127), an iPhone guest without the app offered nothing (LH128).
    case lh126 = "LH126", lh127 = "LH127", lh128 = "LH128"
    /// File format, continued: site files (`siteFiles`), each failing for its own site alone.
    case lh130 = "LH130", lh131 = "LH131", lh132 = "LH132", lh133 = "LH133"
    /// A tenant is a boundary: a site file's paths stay in its own folder (LH134), the static files of all
    /// sites fit one budget (LH135), a static `acme-challenge/` folder is never served (LH136), a wildcard host
    /// stops at a registrable domain (LH137).
    case lh134 = "LH134", lh135 = "LH135", lh136 = "LH136", lh137 = "LH137"
    /// Who holds what among site files: a serving site's host or name, an app identity, a contested claim,
    /// and the state folder that keeps the record.
    case lh138 = "LH138", lh139 = "LH139", lh140 = "LH140", lh141 = "LH141"
    /// Rules: unreachable rules, blocking exclusions, substitution variables, rule-less apps, pattern shapes.
    case lh201 = "LH201", lh202 = "LH202", lh203 = "LH203", lh204 = "LH204", lh205 = "LH205"
    /// Rules, continued.
    case lh206 = "LH206", lh207 = "LH207", lh208 = "LH208", lh209 = "LH209"
    /// Consistency with what the server answers: call links, association files, `/`, static files.
    case lh301 = "LH301", lh302 = "LH302", lh303 = "LH303", lh304 = "LH304", lh305 = "LH305", lh306 = "LH306"
    /// Consistency, continued: hand-written rules that open URLs no link template accepts.
    case lh307 = "LH307"
    /// Consistency, continued: the top level's `/.well-known/` files, which the sites do not serve.
    case lh310 = "LH310"
    /// Android: package names, fingerprints, statements.
    case lh401 = "LH401", lh402 = "LH402", lh403 = "LH403", lh404 = "LH404", lh405 = "LH405"
    /// Android 15+ dynamic rules: malformed in a file, meaning lost in translation, platforms disagreeing,
    /// read by Android's code otherwise than written.
    case lh406 = "LH406", lh407 = "LH407", lh408 = "LH408", lh409 = "LH409"
    /// Live deployment: reachability, TLS, redirects, status, type, copies, HEAD, Apple's CDN.
    case lh501 = "LH501", lh502 = "LH502", lh503 = "LH503", lh504 = "LH504", lh505 = "LH505"
    /// Live deployment, continued.
    case lh506 = "LH506", lh507 = "LH507", lh508 = "LH508", lh509 = "LH509", lh510 = "LH510"
    /// Live deployment, continued.
    case lh511 = "LH511", lh512 = "LH512", lh513 = "LH513", lh514 = "LH514"
    /// Live deployment, continued: live dynamic rules that keep a call link out of an Android app, a live
    /// AASA without the config's App Clip.
    case lh515 = "LH515", lh516 = "LH516"
    /// The call page's locale files: tags, unknown keys, missing and malformed strings.
    case lh601 = "LH601", lh602 = "LH602", lh603 = "LH603", lh604 = "LH604", lh605 = "LH605", lh606 = "LH606"
    /// The app's files: unreadable, hosts or templates not claimed, claims the server does not serve, developer mode.
    case lh701 = "LH701", lh702 = "LH702", lh703 = "LH703", lh704 = "LH704", lh705 = "LH705", lh706 = "LH706"
    /// The app's files, continued: a custom scheme the page links to that the app does not declare.
    case lh707 = "LH707"
    /// The app's files, continued: an app's App Clip (`apps[].appClipBundleID`) malformed, of another team,
    /// not the app's, or without the App Store ID its card banner should carry.
    case lh713 = "LH713", lh714 = "LH714", lh715 = "LH715", lh716 = "LH716"
    /// The app's files, continued: an App Clip's entitlements without its parent app or naming another app,
    /// and an app's entitlements naming a parent as a clip's do.
    case lh717 = "LH717", lh718 = "LH718", lh719 = "LH719"
    /// The app's files, continued: one host claimed twice alike by verified filters of one activity.
    case lh708 = "LH708"
    /// The app's files, continued: a manifest of another package than `--app`.
    case lh709 = "LH709"

    /// Orders codes by number, for tables.
    public static func < (lhs: LintCode, rhs: LintCode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The severity the code is reported with; "error or warning" codes depend on where the problem is.
    public var severities: String {
        switch self {
        case .lh104, .lh106, .lh111, .lh112: return "error (config) / warning (AASA file)"
        case .lh105, .lh209: return "error, or warning when iOS still reads the value"
        case .lh113, .lh201, .lh202, .lh205, .lh207, .lh208, .lh136, .lh305, .lh306, .lh307, .lh310, .lh403, .lh407, .lh408, .lh508, .lh511, .lh512, .lh602, .lh603, .lh606, .lh703, .lh705, .lh706, .lh708, .lh716, .lh127, .lh128, .lh719: return "warning"
        case .lh118: return "error, or warning for a host no public CA can reach"
        case .lh137: return "error, or warning for a wildcard of the operator's own sites while the list cannot be read"
        case .lh119: return "error, or warning when the folder is readable by others"
        case .lh120, .lh141: return "warning"
        case .lh121: return "warning, or error with automatic HTTPS on (serve refuses such a config)"
        case .lh503, .lh505: return "error (warning for the legacy root /apple-app-site-association)"
        case .lh504: return "error (warning for the legacy root /apple-app-site-association; not reported for a 404 AASA on a host whose site `check --config` gives no iOS app or App Clip)"
        case .lh510: return "error when the config gives the host an Android app, else warning (not reported with `check --config` when the host's site has no Android app)"
        case .lh404: return "error (config) / warning (assetlinks file)"
        case .lh405: return "error, or warning when no statement grants App Links"
        case .lh406: return "error, or warning for what Google does not document"
        case .lh409: return "error when Android reads nothing from the file, warning for a value it reads otherwise"
        case .lh701: return "error, or warning for a value that cannot be resolved"
        case .lh709: return "error, or warning when `--app` is the manifest's package with a suffix added (a source manifest of a build with `applicationIdSuffix`)"
        default: return "error"
        }
    }

    /// What the code means, in one line.
    public var meaning: String {
        switch self {
        case .lh100: return "The file cannot be read, or is not JSON."
        case .lh101: return "A Team ID is not 10 characters of A-Z and 0-9."
        case .lh102: return "A bundle ID is not reverse-DNS (A-Z, a-z, 0-9, \"-\", dot-separated)."
        case .lh103: return "An app ID is not TEAMID.bundle.id."
        case .lh104: return "An app ID is listed more than once."
        case .lh105: return "A value has the wrong JSON type; iOS ignores values of the wrong type."
        case .lh106: return "A key is unknown, usually a typo; iOS ignores it, so what it was meant to say is lost."
        case .lh107: return "A key appears twice in one object; readers disagree on which one wins."
        case .lh108: return "A required member is missing."
        case .lh109: return "A value is out of range or not allowed."
        case .lh110: return "The AASA file is larger than 128 KB, which Apple's CDN refuses."
        case .lh111: return "A `defaults` object holds something other than caseSensitive and percentEncoded booleans."
        case .lh112: return "Legacy (iOS 12) and modern (iOS 13+) AASA keys are mixed where that was not asked for."
        case .lh113: return "The AASA file defines no universal links."
        case .lh114: return "A file or folder the config names (template, static root, preview image) cannot be used."
        case .lh115: return "A call-link template (`callLinks.links` or `callLinks.paths`) is malformed, listed twice, or never decides."
        case .lh116: return "A site's host name is malformed, or claimed by two sites."
        case .lh117: return "`server.tls` sets both certificate files and `acme`."
        case .lh118: return "A host cannot get a certificate from ACME: a wildcard (HTTP-01 cannot prove it), no host at all, or a name no public CA can reach (localhost, an IP address, a private name)."
        case .lh119: return "The ACME state folder (`server.tls.acme.stateDirectory`) cannot be created or written, cannot be trusted with keys (not owned by linkhost's user, writable by others, a link in place of a subfolder), or others can read the keys in it."
        case .lh120: return "The config file is writable by its group or others, or a private key (`server.tls.privateKeyFile`, a key in the ACME state folder) is readable by them."
        case .lh122: return "Two sites have the same `id` (a site without one is named by its first host, the top level `default`): metrics, logs and diagnostics could not tell them apart."
        case .lh121: return "The config is the shipped example, or lists the example's app (Team ID `ABCDE12345`, `com.example.video`); with automatic HTTPS on, any of the example's apps, packages, fingerprints or URLs, marked or not, is an error, as `serve` refuses it."
        case .lh123: return "The iPhone's open button leads to `callLinks.openInAppHost`, but an iOS app of the site would not claim that host in the entitlements `print entitlements` writes, or another site (or no site, under `strictHosts` or automatic HTTPS) answers it: iOS shows the host's page to people who have the app."
        case .lh124: return "`callLinks.openInAppHost` is the host of the call links themselves (`baseURL`'s, or the site's only host): iOS opens no app for a tap on a link to the page's own domain, so every iPhone is told the app is missing."
        case .lh126: return "A site's `callLinks.baseURL` host, or its `openInAppHost`, is a host another site answers: the site's QR codes, canonical links and Android intents (or its open button) lead to that site's page, association files and apps."
        case .lh127: return "A site lists an app or package whose ID is another of its IDs with a pre-release suffix (`.staging`, `.debug`, `.dev`, `.beta`, …): the pre-release build is verified for the site's hosts and its printed entitlements or manifest claim them, so it opens the release's links."
        case .lh128: return "A site's first iOS app (the one its call page offers) has neither `appStoreID` nor `installURL`: an iPhone guest without the app gets no App Store button and no Smart App Banner, and the open host's page says only that the app is missing."
        case .lh125: return "A site writes one platform's apps (`apps` or `android`) but not the other while the top level has apps of the other: a site's apps are its own on both platforms, so the site has none there; say so (`\"android\": []`) or list its own."
        case .lh130: return "`siteFiles` is not a usable pattern (a wildcard outside the file name, brackets), or its folder cannot be listed: the main file fails."
        case .lh131: return "A site file cannot be read, is not JSON, or has a name that cannot name a site: that site alone fails (LH133)."
        case .lh132: return "A site file's site has a name (its id, else its first host) or a host that another site, or `server.tls.acme.hosts`, already has: that site alone fails (LH133)."
        case .lh138: return "A site file claims a host or name that another site file holds: the one serving it at the last load (on a reload), or the one `server.stateDirectory`'s record gives it to (at start, and in `validate`). The newcomer fails alone (LH133), whatever the file names sort as; the holder keeps serving, even while its own file is broken (through its last good version)."
        case .lh139: return "A site file lists an app identity (an iOS app ID, an App Clip's, an Android package) that another site holds: the operator's top level or an inline site, another site file that held it first, or one claiming it at the same time; or one that `sharedApps` gives to other sites. The file fails alone (LH133), and the app's printed entitlements and manifest never name its hosts."
        case .lh140: return "Two site files or more claim one host or name that no site held before (at a reload: newcomers together; at start or in `validate` without `server.stateDirectory`'s record: any clash): every claimant fails (LH133), naming the others; no file name decides."
        case .lh141: return "`server.stateDirectory`'s record of the site files cannot be read or trusted, or cannot be written: the site files load without it (no last good version across restarts; each clash fails every claimant), or the next start will not have this load's."
        case .lh133: return "A site file failed: its site serves its last good version (on a reload) or is left out, its hosts answering as hosts no site lists (at start, and in `validate`); every other site serves."
        case .lh134: return "A site file names a path outside its own folder (the folder beside it named as the file without its extension: `sites.d/acme/` for `sites.d/acme.json`): an absolute path, a `..`, a link leading out, the ACME state folder, a TLS file, or a folder or file of the operator's own sites; that site alone fails (LH133). Only the operator's config (its top level and `sites`) names paths anywhere."
        case .lh135: return "The static files of all sites together would pass `server.staticFilesBytes` (a folder several sites share counts once): a site file's site fails alone (LH133); the operator's own sites refuse the config."
        case .lh136: return "A static folder holds `.well-known/acme-challenge/`: no static folder answers that path, only linkhost's own ACME responder on the HTTP listener, so a site cannot prove control of a host (its own or another customer's) to a certificate authority."
        case .lh137: return "A wildcard host stops at a registrable domain: `*` alone, or `*.` before a public suffix (`*.com`, `*.co.uk`, `*.github.io`, judged by the Public Suffix List Debian ships in the `publicsuffix` package), would answer for every domain under it; a site file's wildcard is refused too while the list cannot be read."
        case .lh201: return "A rule is unreachable: an earlier rule already matches every URL it matches."
        case .lh202: return "A rule may be unreachable: an earlier rule covers its patterns, but under other case or percent-encoding settings."
        case .lh203: return "An exclude rule matches every URL before any rule lets one through: no link opens the app."
        case .lh204: return "A pattern uses an undefined substitution variable, so it never matches."
        case .lh205: return "A pattern holds a malformed `$(` reference, which iOS reads as literal text."
        case .lh206: return "A substitution variable is defined wrongly (name, values, or a predefined name)."
        case .lh207: return "A substitution variable is defined but never used."
        case .lh208: return "An app or detail has no rules, so no URL opens the app."
        case .lh209: return "A pattern is empty, holds control characters, or includes what its component never contains (a scheme, `?`, `#`)."
        case .lh301: return "A call link the server answers does not open the app under the generated AASA."
        case .lh302: return "An association file's own URL would open the app."
        case .lh303: return "The home page `/` would open the app instead of showing the page."
        case .lh304: return "A file in the static folder would open the app instead of being shown."
        case .lh305: return "A file in the static folder is ignored because linkhost generates that path."
        case .lh306: return "A page template or locale folder lies inside a static folder that a site with other page sources serves; it is not served there as a file."
        case .lh310: return "The top level's static folder holds files under /.well-known/ (other than the association files) while the config has sites: they answer only on the top level's hosts, never on a site's, whose /.well-known/ comes from its own folder."
        case .lh307: return "Hand-written AASA rules open the app for URLs that no link template accepts (two examples are named): the app's parser returns nil for them and the guest is left in the app with nothing."
        case .lh401: return "An Android package name is malformed."
        case .lh402: return "A SHA-256 certificate fingerprint is missing or malformed."
        case .lh403: return "Only one certificate fingerprint is listed for an Android app."
        case .lh404: return "An Android package or fingerprint is listed more than once."
        case .lh405: return "An assetlinks.json statement is malformed or grants no App Links."
        case .lh406: return "An app's Android 15+ dynamic rules (`dynamic_app_link_components`) depart from Google's documented format (none, a rule without a condition, an empty pattern, an undocumented key or wildcard run); the message says what Android's code does with it."
        case .lh409: return "Android's StatementService reads the served assetlinks.json otherwise than written: a null, a number or a rule that is not an object makes it read nothing (no app verifies); a value of another type is coerced; a second statement for an app is never used."
        case .lh407: return "An AASA rule means something Android's dynamic rules cannot say; the message says what Android 15+ does instead."
        case .lh408: return "A URL opens the app on one platform and not on the other: iOS by the AASA, Android 15+ by the dynamic rules."
        case .lh501: return "The server could not be reached, or did not answer HTTP."
        case .lh502: return "The server's TLS certificate is not trusted for the host."
        case .lh503: return "An association file URL redirects; Apple's and Google's fetchers follow no redirects."
        case .lh504: return "An association file is not served with status 200."
        case .lh505: return "An association file is not served as `Content-Type: application/json`."
        case .lh506: return "The root /apple-app-site-association differs from /.well-known/apple-app-site-association."
        case .lh507: return "A HEAD request answers differently from GET (status, Content-Type or Content-Length)."
        case .lh508: return "Apple's CDN serves a different AASA than the origin; the message names the apps and App Clips one copy lists and the other does not, and the JSON paths where they differ."
        case .lh509: return "Apple's CDN could not fetch the AASA (Apple-Failure-Reason)."
        case .lh510: return "No /.well-known/assetlinks.json is served, so Android App Links cannot verify."
        case .lh511: return "A served association file differs from the one the config generates for the host's site (`check --config`)."
        case .lh512: return "The host's TLS certificate expires within 14 days."
        case .lh513: return "The live AASA does not open an iOS app of the config for a call link of the site's link templates on that host (`check --config`)."
        case .lh514: return "The live assetlinks.json does not verify an Android app of the config with every fingerprint the config lists (`check --config`)."
        case .lh515: return "The live assetlinks.json's dynamic rules keep a call link of the config out of an Android app: AOSP's matching excludes it or no rule matches, so Android 15+ shows the page (`check --config`)."
        case .lh516: return "The live AASA does not list an App Clip of the config under `appclips.apps`, so iOS offers no App Clip card for the site's call links (`check --config`)."
        case .lh601: return "A locale file's name is not a language tag (BCP 47, e.g. `pt-BR.json`), two files name one tag, or `callLinks.defaultLocale` has no file."
        case .lh602: return "A locale file has a key that nothing reads: a string the page template does not use, or an unknown member."
        case .lh603: return "A locale file lacks a string the page template uses; the page shows the default locale's string there."
        case .lh604: return "The page template uses a string (`{{t.name}}`) that the default locale does not define, so there is nothing to show."
        case .lh605: return "A locale string or `direction` is malformed: not text, empty, or with a placeholder other than {appName}, {callId}, {callType}."
        case .lh606: return "The page template lacks an element ID that `/call.js` uses (`PageScriptContract`: actions, open-app, web-join, the stores, the in-app browser notice, …)."
        case .lh701: return "An app file given to `validate` (`--entitlements`, `--android-manifest`, `--info-plist`) cannot be read, is not well-formed XML, or not of its format; or a value in it cannot be resolved."
        case .lh702: return "A host the config serves iOS apps on has no `applinks:` entry in the entitlements (or no `webcredentials:`/`appclips:` entry where the AASA lists them: `appclips:` in the app's file as in its App Clip's, as Apple asks)."
        case .lh703: return "The entitlements claim a domain that no site of the config serves iOS apps on."
        case .lh704: return "A host or link template the config serves is not claimed by an App Links intent filter of the manifest (VIEW, DEFAULT, BROWSABLE, https, autoVerify)."
        case .lh705: return "An App Links intent filter of the manifest claims a host, or a path, on which the config serves no call link."
        case .lh706: return "The entitlements use an alternate mode (`?mode=developer`, `?mode=managed`), which must go before release."
        case .lh709: return "The manifest given with `validate --android-manifest --app PACKAGE` names another package (`<manifest package=…>`, which in the merged manifest is the build's applicationId): the file is another app's, or the applicationId or the config's `packageName` is misspelled, and Android verifies App Links for the applicationId alone."
        case .lh708: return "Two verified App Links intent filters of one activity claim the same host with the same paths (a leftover of a host served from two places)."
        case .lh707: return "The call page links to a custom URL scheme (the app's `urlScheme` or `callLinks.openInAppURL`) that the app does not declare: no VIEW/BROWSABLE intent filter with it in the manifest, or no `CFBundleURLTypes` entry in the Info.plist."
        case .lh713: return "An app's `appClipBundleID` is not a bundle ID."
        case .lh714: return "An app's `appClipBundleID` is written as another team's app ID (`OTHERTEAM.bundle.id`); an App Clip belongs to its app's team."
        case .lh715: return "An app's `appClipBundleID` does not start with the app's bundle ID and a dot, as Apple requires of an App Clip's identifier."
        case .lh717: return "An App Clip's entitlements (`validate --entitlements FILE --app CLIP`) have no `com.apple.developer.parent-application-identifiers`, or it is not an array of exactly one app ID: Apple ties every App Clip to exactly one app with it."
        case .lh718: return "An App Clip's `com.apple.developer.parent-application-identifiers` names another app than the clip's (the app whose `appClipBundleID` it is, or whose app ID the clip's ID extends with a dot and a name)."
        case .lh719: return "An app's entitlements carry `com.apple.developer.parent-application-identifiers`, which Apple says to add only to an App Clip target (often the clip's file checked without `--app CLIP`)."
        case .lh716: return "An app with an App Clip has no `appStoreID`: the page's Smart App Banner names the clip without `app-id`, so devices that cannot run App Clips (iOS 13 and earlier, Screen Time, MDM) get no banner to the app."
        }
    }

    /// How to fix it, in one line.
    public var fix: String {
        switch self {
        case .lh100: return "Fix the syntax at the line and column given; the file must be UTF-8 JSON."
        case .lh101: return "Copy the Team ID from the Membership page of the Apple Developer account."
        case .lh102: return "Use the bundle identifier of the app target, e.g. com.example.app."
        case .lh103: return "Write the Team ID, a dot, then the bundle ID: ABCDE12345.com.example.app."
        case .lh104: return "List each app once and merge its rules into one entry."
        case .lh105: return "Use the type the message names."
        case .lh106: return "Fix the spelling (the message suggests the nearest known key) or remove the key."
        case .lh107: return "Keep one of the two members."
        case .lh108: return "Add the member the message names."
        case .lh109: return "Use a value the message allows."
        case .lh110: return "Merge rules with wildcards or substitution variables until the file is under 128 KB."
        case .lh111: return "Keep only \"caseSensitive\" and \"percentEncoded\" in defaults, each true or false."
        case .lh112: return "In the config set \"format\" to \"modern\" or \"both\"; in a file give details appIDs + components, and appID + paths only for iOS 12."
        case .lh113: return "Add applinks.details naming the app IDs and their components."
        case .lh114: return "Create the file or folder, or fix the path (relative paths are read from the working directory)."
        case .lh115: return "Write each shape once as a path of literal segments with one {callId} or {callType}:{callId} segment, or a query item name={callId}, e.g. \"/join?call_id={callId}&call_type={callType}\"."
        case .lh116: return "Write the host name only (no scheme, port or trailing dot; *.example.com for every subdomain), and list each host in one site."
        case .lh117: return "Keep `certificateFile` and `privateKeyFile` (certificates from elsewhere) or `acme` (linkhost obtains them), not both."
        case .lh118: return "List each host of a wildcard site by name, name the default site's hosts in `server.tls.acme.hosts`, and certify only public DNS names that point at this server (or use certificate files)."
        case .lh130: return "Write a folder and a name pattern, with `*` and `?` in the name only, relative to the config file (`\"siteFiles\": \"sites.d/*.json\"`), and create the folder (it may be empty)."
        case .lh131: return "Fix the file's JSON (one site object, the keys of `sites[]`), its permissions, or rename it without `]` and control characters."
        case .lh132: return "Give the site an `id` of its own and hosts no other site lists; a host moving between tenants leaves one file before it joins the other."
        case .lh138: return "Give the newcomer hosts and an `id` of its own; to move a host between tenants, drop it from the holder's file first (a reload frees it), then add it to the other's."
        case .lh139: return "List the app in the one site file that owns it; for an app several sites really share, name them in the top level's `\"sharedApps\": {\"TEAMID.bundle.id\": [\"site-a\", \"site-b\"]}`."
        case .lh140: return "Remove the host or id from all but one of the files named; set `server.stateDirectory` so that a restart keeps each claim with the site that held it."
        case .lh141: return "Make the folder linkhost's own and writable by no one else (`mkdir -p DIR && chmod 700 DIR`, or a volume mounted there), or remove a `sites/record.json` that linkhost did not write; without a volume, say nothing: each start then begins without a record."
        case .lh133: return "Fix the errors listed for the file (`linkhost validate --site ID` checks one tenant with the rest); the next reload (SIGHUP or `server.watchConfig`) applies it."
        case .lh134: return "Put the tenant's files in its folder and write the paths relative to it (`\"template\": \"call.html\"`, `\"root\": \"static\"`), with no link leading out; or leave the keys out to use the top level's."
        case .lh135: return "Serve large files from a CDN, share one folder between sites, or raise `server.staticFilesBytes` (and the container's memory limit with it)."
        case .lh136: return "Remove the folder from the static folder; for certificates let linkhost order them (`server.tls.acme`), or answer HTTP-01 in the proxy in front (nginx: a `location /.well-known/acme-challenge/` of its own)."
        case .lh137: return "List the site's own hosts, or a wildcard below a domain that is the tenant's (`*.calls.tenant.example`); install the list (`apt-get install publicsuffix`) where it is missing."
        case .lh122: return "Give each site an `id` of its own, e.g. the customer's name: `\"id\": \"customer6\"`."
        case .lh121: return "Put your own app's `teamID`, `bundleID`, `packageName`, fingerprints and URLs in the config (`linkhost init` writes one), and remove `\"example\": true`; `LINKHOST_ALLOW_EXAMPLE=1` serves the example anyway."
        case .lh123: return "Serve the open host from the site whose apps it opens: at the top level set `callLinks.baseURL` and keep the open host out of other sites (and in `server.tls.acme.hosts` with ACME or `strictHosts`), or list the link host and the open host together as one site's `hosts`; then paste what `linkhost print entitlements --app APPID` writes."
        case .lh124: return "Give the open button a second host of the same site, e.g. `open.` before the link host: add it to the site's `hosts` (and DNS, TLS), set `openInAppHost` to it; or remove `openInAppHost`."
        case .lh126: return "Give the site a link host and an open host of its own: `baseURL` `https://` and one of its own `hosts`, `openInAppHost` another of them; a host belongs to the site whose apps it opens."
        case .lh127: return "List the pre-release app on a site of its own (its own hosts, e.g. `staging-meet.example.com`, as `linkhost init --staging-host` writes), or remove it here; keep it only if that build should open this site's links."
        case .lh128: return "Set the app's `appStoreID` (the digits after `id` in its App Store URL), or its `installURL` (e.g. a TestFlight public link), or `\"installURL\": false` to say there is none on purpose."
        case .lh125: return "Write the other platform's list in the site too: its own apps, or `[]` for none (`\"android\": []`); or leave out both to take the top level's."
        case .lh119: return "Create the folder for the user linkhost runs as (`mkdir -p DIR && chmod 700 DIR`), or mount a writable volume there (the image: `-v linkhost-acme:/var/lib/linkhost`)."
        case .lh120: return "`chmod go-w` the config file and `chmod 600` the key, so only the user linkhost runs as can read it."
        case .lh201: return "Remove the rule, or move it before the broader rule if it was meant to decide first."
        case .lh202: return "Check the two rules' caseSensitive and percentEncoded settings; remove or reorder the later rule if it never decides."
        case .lh203: return "Put the rules that open the app before the exclusion, or narrow it to the URLs that must stay in the browser."
        case .lh204: return "Define the variable in substitutionVariables, or use a predefined one: alpha, upper, lower, alnum, digit, xdigit, region, lang."
        case .lh205: return "Write $(name) with a name of letters, digits and \"_\", and close the parenthesis."
        case .lh206: return "Give each variable a name of letters, digits and \"_\" (not a predefined one) and a non-empty array of strings."
        case .lh207: return "Use the variable in a pattern, or remove it."
        case .lh208: return "Add rules, e.g. {\"/\": \"/call/*\"}, or remove the entry."
        case .lh209: return "Write the path without scheme and host, the query without its \"?\", the fragment without its \"#\"."
        case .lh301: return "Make a rule match /<path>/* for the call-link paths, with no exclusion before it that catches call links."
        case .lh302: return "Narrow the rules so /.well-known/* and /apple-app-site-association do not match."
        case .lh303: return "Narrow the rules to the call-link paths, or exclude \"/\" before a broad rule."
        case .lh304: return "Narrow the rules, or exclude the file's path before the rule that matches it."
        case .lh305: return "Remove the file from the static folder; linkhost writes that path from the config."
        case .lh306: return "Move templates and locale folders out of the static folders (e.g. `templates/brand.html`), so what a folder holds is what it serves."
        case .lh310: return "Nothing to do if the files verify only the top level's domains; for a site, put its own copy in the site's `static.root` folder."
        case .lh307: return "Narrow the rule to the templates' shapes (`/call/?*:?*` with an exclusion of `/call/*:*:*` for `/call/{callType}:{callId}`; `/join/?*` after an exclusion of `/join/*/?*` for one segment), add exclusions for the URLs named, or remove `aasa.rules` so linkhost derives exact rules from the templates."
        case .lh401: return "Use the applicationId from the app's build.gradle, e.g. com.example.app."
        case .lh402: return "Copy the SHA-256 fingerprint (32 hex pairs joined by \":\") from `keytool -list -v` or the Play Console."
        case .lh403: return "Add the Play app-signing key's fingerprint (Play Console > App integrity) beside the upload key's, if Play signs the app. Not reported for packages ending in .debug, .dev, .staging, .qa, .test and the like; for another app Play never signs, set \"lint\": {\"ignore\": [\"LH403\"]} on it."
        case .lh404: return "List each package once, with all its fingerprints in one entry, each once."
        case .lh405: return "Give each statement \"relation\": [\"delegate_permission/common.handle_all_urls\"] and a target with namespace, package_name and sha256_cert_fingerprints."
        case .lh406: return "Give a non-empty array of rules with only \"/\", \"?\" (name → pattern), \"#\" and \"exclude\", each value non-empty, and one dynamic_app_link_components per app."
        case .lh409: return "Write patterns as strings, \"exclude\" as true or false, \"?\" as an object, no null or numbers anywhere in a statement, and one statement per app with all its dynamic rules."
        case .lh407: return "Rewrite the rule in what both platforms say alike (case-sensitive, * only at the end, query items instead of a whole query), or accept the difference the message names."
        case .lh408: return "Change the rule the message names (see LH407), or check with linkhost match URL --platform both."
        case .lh501: return "Check DNS, the firewall, that the server listens on the port, and its TLS setup."
        case .lh502: return "Serve the full certificate chain from a public CA, naming the host; fetchers accept no self-signed certificate."
        case .lh503: return "Serve the file directly at this URL with status 200."
        case .lh504: return "Serve the file at this URL with status 200."
        case .lh505: return "Serve the file with Content-Type: application/json."
        case .lh506: return "Serve the same bytes at both paths, or remove the root copy."
        case .lh507: return "Make HEAD return the status, Content-Type and Content-Length of GET (a proxy or CDN in front often differs)."
        case .lh508: return "Wait for the CDN to refresh (it caches for up to a day); use developer mode (?mode=developer) while testing."
        case .lh509: return "Fix what Apple-Failure-Reason and Apple-Failure-Details say; devices read the CDN's copy."
        case .lh510: return "Configure the Android apps under \"android\" so linkhost serves assetlinks.json, if the domain has Android apps."
        case .lh511: return "Deploy the config (and reload), check that the host is listed in the right site, and that no proxy in front serves its own copy."
        case .lh513: return "Deploy the config's AASA to that host (and reload); if it is served, the app ID or the rules differ from the config: compare with `linkhost print aasa --host HOST`."
        case .lh514: return "Deploy the config's assetlinks.json to that host; if it is served, add the missing package or fingerprint (compare with `linkhost print assetlinks --host HOST`)."
        case .lh515: return "Deploy the config's assetlinks.json to that host (a proxy or CDN may serve a stale copy); compare with `linkhost print assetlinks --host HOST` and try a link with `linkhost match URL --platform android --assetlinks FILE`."
        case .lh516: return "Deploy the config's AASA to that host (and reload); compare with `linkhost print aasa --host HOST`, whose appclips.apps lists the clip."
        case .lh512: return "Renew it now: with linkhost's ACME look at its log and /healthz for the failing order; with certificate files, run the renewal and send SIGHUP."
        case .lh601: return "Name each file after its tag (language, optional script and region: de.json, pt-BR.json, zh-Hant.json), once, and ship one for the default locale."
        case .lh602: return "Fix the key's spelling to the template's {{t.name}}, or remove it; a locale file has only \"direction\" and \"strings\"."
        case .lh603: return "Translate the string the message names into the locale."
        case .lh604: return "Add the string to the default locale's file, or fix the name in the template."
        case .lh605: return "Give every string as non-empty JSON text, using only {appName}, {callId} and {callType}; \"direction\" is \"ltr\" or \"rtl\"."
        case .lh606: return "Keep the elements of the shipped `public/call.html` with these IDs (docs/call-page.md, \"The call page\"); style or reword them freely."
        case .lh701: return "Give the app's .entitlements plist or its merged AndroidManifest.xml (build/intermediates/merged_manifests/…), with build settings and resources resolved."
        case .lh702: return "Add the entry the message names (linkhost print entitlements writes them all) to the app's .entitlements file."
        case .lh703: return "Remove the entry, or add the host to a site of the config (with iOS apps)."
        case .lh704: return "Add an intent filter for it (linkhost print android-manifest writes them), with android:autoVerify=\"true\"."
        case .lh705: return "Remove the claim, or serve call links there: add the host to a site, or a link template under the path."
        case .lh706: return "Remove ?mode=… from the entitlements of release builds (use a build configuration for development)."
        case .lh709: return "Give the merged manifest of the app `--app` names (app/build/intermediates/merged_manifests/<variant>/…/AndroidManifest.xml), or make the applicationId and the config's `packageName` agree."
        case .lh708: return "Keep one verified filter per host and paths: paste what `linkhost print android-manifest --app PACKAGE` writes in place of the old filters."
        case .lh707: return "Add what linkhost print android-manifest (its scheme filter) or linkhost print info-plist writes, or stop the page linking to the scheme (remove urlScheme and openInAppURL)."
        case .lh713: return "Copy the App Clip target's bundle identifier from Xcode, e.g. com.example.app.Clip."
        case .lh714: return "Write the clip's bundle ID alone (the app's teamID is its team), or move the clip to the app of its team."
        case .lh715: return "Use the bundle ID of this app's App Clip target: the app's bundle ID, a dot and a name (Xcode proposes .Clip)."
        case .lh717: return "Add the key with one entry, the parent app's TEAMID.bundle.id (Xcode writes $(AppIdentifierPrefix)bundle.id); linkhost print entitlements --app CLIP writes it."
        case .lh718: return "Name the clip's own app (linkhost print entitlements --app CLIP writes it), or give --app the clip this file belongs to."
        case .lh719: return "Remove the key from the app's .entitlements; if the file is the clip's, check it with --app and the clip's ID."
        case .lh716: return "Set the app's appStoreID, so the banner carries app-id as Apple's example does."
        }
    }

    /// The table of `docs/diagnostics.md`.
    public static var markdown: String {
        var lines = [
            "# Diagnostic codes",
            "",
            "Codes that `linkhost validate` and `linkhost check` report (`--format json` gives them as",
            "`{\"code\", \"severity\", \"path\", \"message\"}`, and `validate` a `\"site\"` (the site's `id`) after `path`",
            "for a problem inside `sites[N]`). A code keeps its meaning once released.",
            "1xx file format, 2xx rules, 3xx consistency with what is served, 4xx Android, 5xx live deployment,",
            "6xx the call page's locale files, 7xx the app's own files (`validate --entitlements`, `validate --android-manifest`).",
            "This file is generated from `Sources/LinkHostCore/Lint/LintCode.swift`; a test checks they agree.",
            "",
            "| Code | Severity | Meaning | Fix |",
            "| --- | --- | --- | --- |",
        ]
        for code in allCases {
            lines.append("| \(code.rawValue) | \(code.severities) | \(cell(code.meaning)) | \(cell(code.fix)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func cell(_ text: String) -> String {
        text.replacing("|", with: "\\|")
    }
}
