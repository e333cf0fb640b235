import LinkHostCore
import LinkHostFiles
import LinkHostServer

/// `linkhost init`: writes one team's config from its answers, then says what to do next.
enum InitCommand: Command {
    static let name = "init"
    static let summary = "Write a team's config (production, staging, iOS and Android) and print the next steps."
    static let help = """
    USAGE: linkhost init --team-id TEAMID --ios BUNDLE [--ios BUNDLE]...
                         [--app-store-id ID] [--app-clip BUNDLE]
                         --android PACKAGE=SHA256[,SHA256...] --host HOST [--open-host HOST]
                         [--web-join URL] [--name NAME]
                         [--staging-host HOST --staging-open-host HOST
                          --staging-ios BUNDLE [--staging-app-store-id ID]
                          --staging-android PACKAGE=SHA256]
                         --output FILE [--force]

    Writes a config that linkhost validate passes with no error: production at the
    top level and as the site "production" (its link host and open host), staging
    as the site "staging" with its own apps on both platforms, server.strictHosts on
    (a host no site lists gets 404, never production's AASA). docs/team-config.md
    explains the shape; config/examples/team.json is one. Then prints the next
    steps: DNS and TLS for each host, per app the exact linkhost print ... --app
    commands whose output goes into the app (for an App Clip, also the App Store
    Connect experiences it needs), and what a guest without the app is offered on
    each platform.

    A warning stays where an answer is missing, until the config has it: an iOS app
    without --app-store-id leaves iPhone guests without the app no way to get it
    (LH128); an Android release app with one fingerprint usually lacks the Play
    app-signing key's (LH403). init silences no warning. Staging apps get no store
    link ("installURL": false: their store listing does not exist) unless
    --staging-app-store-id is given; point installURL at their TestFlight or Firebase
    App Distribution page.

    Give at least one app per environment: iOS, Android, or both. The file is written
    atomically (a temporary file renamed over it) with mode 0600.

    OPTIONS:
      --team-id TEAMID          Apple Developer Team ID (10 characters A-Z, 0-9).
      --ios BUNDLE              A production iOS app's bundle ID; may be given again.
      --app-store-id ID         The first --ios app's App Store ID (the digits after
                                "id" in its App Store URL): the page's App Store
                                button and Smart App Banner (app-id).
      --app-clip BUNDLE         The first --ios app's App Clip bundle ID (the app's ID
                                and a suffix, e.g. com.acme.video.Clip): its AASA
                                entry and the banner's App Clip card.
      --android PACKAGE=SHA256[,SHA256...]
                                A production Android app and its signing-certificate
                                fingerprints (the Play app-signing key's too, when
                                Play signs it); may be given again.
      --host HOST               The host production call links are on.
      --open-host HOST          A second host the iPhone's open button leads to
                                (iOS opens the app only for a link to another
                                domain than the page's).
      --web-join URL            Web-join URL template, e.g.
                                https://app.acme.com/join/{callId}?type={callType}.
      --name NAME               The app name the call page shows (default: the
                                host's domain in words, meet.acme-video.com ->
                                Acme Video).
      --staging-host HOST       The host staging call links are on.
      --staging-open-host HOST  Staging's open host.
      --staging-ios BUNDLE      A staging iOS app; may be given again.
      --staging-app-store-id ID
                                The first --staging-ios app's App Store ID, when
                                staging is in the App Store; without it, staging's
                                apps get "installURL": false.
      --staging-android PACKAGE=SHA256[,SHA256...]
                                A staging Android app; may be given again.
      --output FILE             Where to write the config.
      --force                   Replace FILE when it exists.
      -h, --help                Show this help.

    EXIT CODES: 0 written, 1 the file cannot be written, 2 usage error or a bad answer
    (nothing is written).
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let options = ["--team-id", "--ios", "--app-store-id", "--app-clip", "--android", "--host", "--open-host", "--web-join", "--name", "--staging-host",
                       "--staging-open-host", "--staging-ios", "--staging-app-store-id", "--staging-android", "--output"]
        let arguments = try Arguments(words, command: name, options: options, flags: ["--force"])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        if let extra = arguments.positional.first { throw UsageError(message: "unexpected argument '\(extra)'", command: name) }
        for option in options where !["--ios", "--android", "--staging-ios", "--staging-android"].contains(option) && arguments.all(option).count > 1 {
            throw UsageError(message: "\(option) is given twice; give it once", command: name)
        }
        guard let output = arguments["--output"] else { throw UsageError(message: "say where to write the config with --output FILE", command: name) }
        guard let teamID = arguments["--team-id"] else { throw UsageError(message: "give the Apple Developer Team ID with --team-id", command: name) }
        guard let host = arguments["--host"] else { throw UsageError(message: "give the host production call links are on with --host", command: name) }
        let production = TeamAnswers.Environment(host: host.lowercased(), openHost: arguments["--open-host"]?.lowercased(),
                                                 ios: arguments.all("--ios"), android: try androidApps(arguments.all("--android"), option: "--android"),
                                                 appStoreID: arguments["--app-store-id"], appClip: arguments["--app-clip"])
        let stagingOptions = ["--staging-host", "--staging-open-host", "--staging-ios", "--staging-app-store-id", "--staging-android"]
        var staging: TeamAnswers.Environment?
        if let stagingHost = arguments["--staging-host"] {
            staging = TeamAnswers.Environment(host: stagingHost.lowercased(), openHost: arguments["--staging-open-host"]?.lowercased(),
                                              ios: arguments.all("--staging-ios"), android: try androidApps(arguments.all("--staging-android"), option: "--staging-android"),
                                              appStoreID: arguments["--staging-app-store-id"])
        } else if let given = stagingOptions.first(where: { !arguments.all($0).isEmpty }) {
            throw UsageError(message: "\(given) needs --staging-host: the host staging call links are on", command: name)
        }
        if production.openHost == nil, staging?.openHost != nil {
            // Not an error: a team may open the app from staging's second host only; said so nothing surprises.
            StandardStreams.error("linkhost init: note: staging has an open host and production none (--open-host)\n")
        }
        let answers = TeamAnswers(teamID: teamID, name: arguments["--name"], production: production, staging: staging, webJoinURL: arguments["--web-join"])
        let problems = answers.problems()
        guard problems.isEmpty else {
            StandardStreams.error(problems.map { "linkhost init: \($0)\n" }.joined() + "Nothing was written. Run 'linkhost init --help' for usage.\n")
            return 2
        }
        if FileSystem.exists(output), !arguments.has("--force") {
            StandardStreams.error("linkhost init: \(output) exists; give --force to replace it, or another --output\n")
            return 2
        }
        do throws(FileSystem.WriteError) {
            try FileSystem.replaceFile(at: output, with: Array(answers.text.utf8))
        } catch {
            StandardStreams.error("linkhost init: \(error.description)\n")
            return 1
        }
        StandardStreams.output(InitNextSteps.text(answers, output: output))
        return 0
    }

    /// Each `PACKAGE=SHA256[,SHA256…]` of `option`.
    private static func androidApps(_ values: [String], option: String) throws(UsageError) -> [TeamAnswers.AndroidAnswer] {
        var apps: [TeamAnswers.AndroidAnswer] = []
        for value in values {
            switch TeamAnswers.android(value) {
            case .success(let app): apps.append(app)
            case .failure(let error): throw UsageError(message: "\(option) \(error.description)", command: name)
            }
        }
        return apps
    }
}
