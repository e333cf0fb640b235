import LinkHostCore

/// What `linkhost init` prints once the config is written: DNS and TLS for each host, then each app's files.
enum InitNextSteps {
    /// The whole text; every command in it is exact, to copy as it stands.
    static func text(_ answers: TeamAnswers, output: String) -> String {
        let config = shellWord(output)
        let environments = [("production", answers.production)] + (answers.staging.map { [("staging", $0)] } ?? [])
        var lines = ["Wrote \(output): \(environments.map(\.0).joined(separator: " and ")), \(answers.displayName).", "", "Next steps", ""]
        lines.append("1. DNS and TLS, for each host (HTTPS only: iOS and Android fetch the association files over https):")
        for (label, environment) in environments {
            for (role, host) in [("call links", environment.host), ("open-in-app host", environment.openHost)] {
                guard let host else { continue }
                lines.append("   \(host)  (\(label), \(role)): DNS A/AAAA to this server; a certificate for \(host)")
            }
        }
        lines += [
            "   Let linkhost obtain the certificates: in \"server\" add \"port\": 443, \"httpPort\": 80 and",
            "   \"tls\": {\"acme\": {\"email\": \"you@your-company\"}} (every host of a site is certified; docs/https.md),",
            "   or terminate TLS in front of linkhost and keep it on port 8080.",
            "",
            "2. Check the config (from the folder that holds public/, as serve runs):",
            "   linkhost validate --config \(config)",
            "",
            "3. Each app's files, printed from this config (paste each into the app, then check the app's own file",
            "   with the validate line beside it):",
        ]
        for (label, environment) in environments {
            for bundle in environment.ios {
                let app = "\(answers.teamID).\(bundle)"
                lines.append("   iOS \(bundle) (\(label)):")
                lines.append("     linkhost print entitlements --app \(app) --config \(config)")
                lines.append("     linkhost print swift-parser --app \(app) --config \(config)")
                lines.append("     linkhost validate --entitlements APP.entitlements --app \(app) --config \(config)")
            }
            if let clip = environment.appClip {
                lines += appClip("\(answers.teamID).\(clip)", label: label, environment: environment, config: config)
            }
            for app in environment.android {
                lines.append("   Android \(app.package) (\(label)):")
                lines.append("     linkhost print android-manifest --app \(app.package) --config \(config)")
                lines.append("     linkhost print kotlin-parser --app \(app.package) --config \(config)")
                lines.append("     linkhost validate --android-manifest MERGED-AndroidManifest.xml --app \(app.package) --config \(config)")
                if answers.singleFingerprint(app) {
                    lines.append("     One fingerprint: validate warns (LH403) until you add the Play app-signing key's (Play Console,")
                    lines.append("     App integrity) when Google Play signs the app; if it never does, add \"lint\": {\"ignore\":")
                    lines.append("     [\"LH403\"]} to this app in the config.")
                }
            }
        }
        lines += ["", "4. What a guest without the app is offered, on each platform:"]
        for (label, environment) in environments {
            lines += guests(label, environment, staging: label == "staging", webJoin: answers.webJoinURL != nil)
        }
        lines += [
            "",
            "5. Serve it: linkhost serve --config \(config)",
            "   then, from anywhere: linkhost check https://\(answers.production.host) --config \(config)",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// The App Clip's own files and its App Store Connect experiences, one per host of its site (as
    /// `linkhost match --app CLIP` proposes them; docs/app-clip.md).
    private static func appClip(_ clip: String, label: String, environment: TeamAnswers.Environment, config: String) -> [String] {
        let hosts = [environment.host] + (environment.openHost.map { [$0] } ?? [])
        var lines = [
            "   App Clip \(clip) (\(label)): the clip target's own .entitlements",
            "     linkhost print entitlements --app \(clip) --config \(config)",
            "     linkhost validate --entitlements CLIP.entitlements --app \(clip) --config \(config)",
            "     App Store Connect, the app's App Clip section (Apple, \"Configuring App Clip experiences\"): the",
            "     default App Clip experience for https://\(hosts[0])/",
        ]
        // Another host shows the card only with an experience of its own.
        lines += hosts.dropFirst().map { "     and an advanced App Clip experience for https://\($0)/" }
        lines.append("     The card shows once the app and its clip are published; docs/app-clip.md walks the clip target.")
        return lines
    }

    /// The install offer of each platform on one environment's page, and what to add where there is none.
    private static func guests(_ label: String, _ environment: TeamAnswers.Environment, staging: Bool, webJoin: Bool) -> [String] {
        var lines: [String] = []
        if !environment.ios.isEmpty {
            if let id = environment.appStoreID {
                lines.append("   \(label), iPhone: the App Store (id\(id)) and its Smart App Banner.")
                if let clip = environment.appClip {
                    lines.append("   In Safari, the App Clip card (\(clip)) over the page: one tap opens the clip in the call.")
                }
            } else if staging {
                lines.append("   \(label), iPhone: no install link (\"installURL\": false, as staging has no App Store listing); set")
                lines.append("   its installURL to the app's TestFlight public link so a tester without the app can get it.")
            } else {
                lines.append("   \(label), iPhone: nothing (validate warns LH128): add \"appStoreID\" to \(environment.ios[0]) in the config,")
                lines.append("   the digits after \"id\" in its App Store URL, or its \"installURL\" (a TestFlight public link).")
            }
        }
        if !environment.android.isEmpty {
            if staging {
                lines.append("   \(label), Android: no install link (\"installURL\": false, as staging has no Google Play listing);")
                lines.append("   set its installURL to the app's Firebase App Distribution page, or remove it if Play lists the app.")
            } else {
                lines.append("   \(label), Android: Google Play (\(environment.android[0].package)), with the call in the install referrer.")
            }
        }
        lines.append("   \(label), computer: \(webJoin ? "the web join (--web-join), and" : "no web join (--web-join);") the QR code to open the call on a phone.")
        return lines
    }

    /// `word` as one shell word: quoted when it holds anything but letters, digits and `/._-`.
    private static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || "/._-+".unicodeScalars.contains($0) }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
