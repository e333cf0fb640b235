import LinkHostCore
import LinkHostServer

/// `linkhost validate`: lints a config (or a saved AASA or assetlinks.json) without serving it.
enum ValidateCommand: Command {
    static let name = "validate"
    static let summary = "Lint a config (or an AASA or assetlinks.json file) and report every problem."
    static let help = """
    USAGE: linkhost validate [--config PATH | --aasa FILE | --assetlinks FILE]
                             [--site ID] [--format human|json]
           linkhost validate --entitlements FILE [--android-manifest FILE] [--app APPID]...
                             [--config PATH]
           linkhost validate --android-manifest FILE [--app PACKAGE] [--config PATH]
           linkhost validate --info-plist FILE [--app APPID] [--config PATH]

    Loads the config, the static files and everything generated from them, exactly as
    serve would, and lints beyond what loading needs. Every problem has a stable code
    (listed in docs/diagnostics.md), a severity and a JSON path:
      - formats and sizes: Team and bundle IDs, the 128 KB AASA limit, the JSON type
        of every value, defaults keys, legacy and modern AASA keys mixed;
      - rules: rules an earlier rule makes unreachable, an exclusion that blocks every
        link, undefined or malformed $(...) variables, apps listed twice;
      - what is served: every call-link shape (/<path>/<id>, /<path>/<type>:<id>, with
        and without ?type=) must open every app, while /, the association files and the
        files of the static folder must not;
      - Android: package names, fingerprints, and a single fingerprint (the Play
        app-signing key is the one usually forgotten);
      - both platforms: AASA rules whose meaning Android 15+'s dynamic rules cannot keep
        (and what Android does instead), and URLs that open the app on one platform
        and not on the other;
      - across sites: an openInAppHost every iOS app of its site claims and its site
        answers (LH123), never the link host itself (LH124), and a site that writes one
        platform's apps writing the other's too, "android": [] for none (LH125).
    With --aasa or --assetlinks, lints that file instead, e.g. one saved from a server
    (for assetlinks.json also its dynamic rules, against Google's format and as
    Android's code reads them: LH406, LH409).

    With --entitlements or --android-manifest, reads the app's own files and compares
    them with the config: hosts the server serves that the app does not claim (no
    applinks: entry; no App Links intent filter with autoVerify for a link template),
    and claims the server does not serve. Give the merged manifest the build writes
    (app/build/intermediates/merged_manifests/...), whose resources are resolved; the
    fragments linkhost print writes are read too. Where the call page links to a custom
    scheme, the manifest must declare it in a VIEW/BROWSABLE filter and --info-plist
    (the iOS app's Info.plist) in CFBundleURLTypes (LH707). An app's files must claim
    exactly the hosts whose association files name that app: with several apps served
    on different hosts, say which app the file is for with --app (given twice when
    checking an iOS and an Android file together); without it linkhost lists the apps
    and exits 2. With --app naming an App Clip, --entitlements is the clip target's:
    every exact host whose AASA lists the clip needs its appclips: entry.

    OPTIONS:
      --config PATH       Config file (default: $LINKHOST_CONFIG or config/linkhost.json).
      --aasa FILE         An apple-app-site-association file to lint.
      --assetlinks FILE   An assetlinks.json file to lint.
      --entitlements FILE The iOS app's .entitlements property list, to compare with the config.
      --android-manifest FILE
                          The Android app's AndroidManifest.xml, to compare with the config.
      --info-plist FILE   The iOS app's Info.plist: the custom scheme the page links to.
      --app APPID         The app the files belong to: TEAMID.bundle.id (or the bundle ID)
                          for --entitlements and --info-plist, the package for
                          --android-manifest. May be given twice.
      --site ID           Check one site of the config in the context of the rest (its hosts
                          and id against every other site's): by id, first host, or site
                          file name (acme.json). Reports its problems and the main file's
                          errors; a site file that fails is named with its file (LH133).
                          A name no site has is a usage error (exit 2).
      --format FORMAT     human (default) or json: an array of
                          {"code", "severity", "path", "message"}.
      -h, --help          Show this help.

    EXIT CODES: 0 no errors (warnings may be printed), 2 errors found or usage error.
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        try run(words, environment: environment, account: nil)
    }

    /// With `account` (a unit `--env-file` read), the ACME state folder is judged for the service's user.
    static func run(_ words: ArraySlice<String>, environment: [String: String], account: ServiceAccount?) throws -> Int32 {
        let arguments = try Arguments(words, command: name, options: ["--config", "--aasa", "--assetlinks", "--entitlements", "--android-manifest", "--info-plist", "--format", "--app", "--site"], flags: [])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        if let extra = arguments.positional.first { throw UsageError(message: "unexpected argument '\(extra)'", command: name) }
        let format = try outputFormat(arguments, command: name)
        let appFiles = ["--entitlements", "--android-manifest", "--info-plist"].filter { arguments[$0] != nil }
        let sources = ["--config", "--aasa", "--assetlinks"].filter { arguments[$0] != nil }
        if !appFiles.isEmpty, arguments["--aasa"] != nil || arguments["--assetlinks"] != nil {
            throw UsageError(message: "--entitlements and --android-manifest are compared with a config; give --config, not --aasa or --assetlinks", command: name)
        }
        if appFiles.isEmpty, sources.count > 1 { throw UsageError(message: "give one of --config, --aasa and --assetlinks", command: name) }
        if arguments["--site"] != nil, !appFiles.isEmpty || arguments["--aasa"] != nil || arguments["--assetlinks"] != nil {
            throw UsageError(message: "--site chooses a site of a config; give it with --config alone", command: name)
        }
        if appFiles.isEmpty, arguments["--app"] != nil {
            throw UsageError(message: "--app names the app of --entitlements, --android-manifest or --info-plist; give one of them", command: name)
        }

        var reports: [LintReport] = []
        var summary = ""
        if !appFiles.isEmpty {
            let path = configPath(arguments, environment: environment)
            guard let config = loadedConfig(path, environment: environment) else { return 2 }
            for option in appFiles {
                guard let file = arguments[option] else { continue }
                let served: ServedHosts
                let kind = option == "--android-manifest" ? .android : ServedHosts.iOSKind(naming: arguments.all("--app"), config: config)
                if option == "--info-plist", kind == .appClip {
                    throw UsageError(message: "--info-plist: an App Clip registers no custom URL scheme (Apple reserves them for the full app); give the app's Info.plist and ID", command: name)
                }
                do {
                    served = try ServedHosts(config: config).chosen(arguments.all("--app"), kind: kind, config: config)
                } catch {
                    throw UsageError(message: "\(option): \(error.description)", command: name)
                }
                switch DocumentFile.bytes(at: file, fromCommandLine: true) {
                case .success(let bytes):
                    switch option {
                    case "--entitlements" where kind == .appClip: reports.append(AppClipEntitlementsLinter.lint(entitlements: bytes, source: file, served: served))
                    case "--entitlements": reports.append(AppFilesLinter.lint(entitlements: bytes, source: file, config: config, served: served))
                    case "--info-plist": reports.append(AppFilesLinter.lint(infoPlist: bytes, source: file, config: config, served: served))
                    default: reports.append(AppFilesLinter.lint(androidManifest: bytes, source: file, config: config, served: served))
                    }
                case .failure(let failure):
                    reports.append(LintReport(source: file, diagnostics: [LintDiagnostic(.lh701, .error, path: "", failure.message)]))
                }
            }
            summary = "agrees with \(path)"
        } else if let file = arguments["--aasa"] ?? arguments["--assetlinks"] {
            let lint = arguments["--aasa"] != nil ? AASALinter.lint(bytes:source:) : AssetLinksLinter.lint(bytes:source:)
            switch DocumentFile.bytes(at: file, fromCommandLine: true) {
            case .success(let bytes):
                reports.append(lint(bytes, file))
                summary = "\(bytes.count) bytes"
            case .failure(let failure):
                reports.append(LintReport(source: file, diagnostics: [LintDiagnostic(failure.code, .error, path: "", failure.message)]))
            }
        } else {
            let outcome = ConfigLinter.lint(path: configPath(arguments, environment: environment), environment: environment, site: arguments["--site"],
                                            service: account, cores: Server.processorCount())
            if let unknown = outcome.unknownSite {
                throw UsageError(message: "--site \(unknown): no site of the config has that id, first host or site file name", command: name)
            }
            reports.append(outcome.report)
            summary = outcome.snapshot.map(ConfigLinter.summary(of:)) ?? ""
        }
        let hasErrors = reports.contains(where: \.hasErrors)
        if format == "json" {
            StandardStreams.output(LintReport.jsonText(of: reports))
        } else {
            let text = reports.map { $0.humanText(validSummary: summary) }.joined()
            if hasErrors { StandardStreams.error(text) } else { StandardStreams.output(text) }
        }
        return hasErrors ? 2 : 0
    }
}
