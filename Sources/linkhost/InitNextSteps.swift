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
            for app in environment.android {
                lines.append("   Android \(app.package) (\(label)):")
                lines.append("     linkhost print android-manifest --app \(app.package) --config \(config)")
                lines.append("     linkhost print kotlin-parser --app \(app.package) --config \(config)")
                lines.append("     linkhost validate --android-manifest MERGED-AndroidManifest.xml --app \(app.package) --config \(config)")
                if answers.singleFingerprintIgnored(app) {
                    lines.append("     (one fingerprint given: if Google Play signs the app, add the app-signing key's from Play Console > App integrity, and remove \"lint\")")
                }
            }
        }
        lines += [
            "",
            "4. Serve it: linkhost serve --config \(config)",
            "   then, from anywhere: linkhost check https://\(answers.production.host) --config \(config)",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// `word` as one shell word: quoted when it holds anything but letters, digits and `/._-`.
    private static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || "/._-+".unicodeScalars.contains($0) }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
