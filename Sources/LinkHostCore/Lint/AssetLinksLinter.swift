import LinkHostJSON

/// Lints Digital Asset Links: a served `assetlinks.json`, and the Android part of a config.
public enum AssetLinksLinter {
    /// Lints the bytes of an `assetlinks.json`; `source` names it in the report.
    public static func lint(bytes: [UInt8], source: String) -> LintReport {
        LintReport(source: source, diagnostics: diagnostics(bytes: bytes))
    }

    /// The problems of `assetlinks.json` bytes, paths like `[0].target.package_name`.
    public static func diagnostics(bytes: [UInt8]) -> [LintDiagnostic] {
        let document: JSONValue
        switch LintDiagnostic.parseDocument(bytes) {
        case .success(let parsed): document = parsed
        case .failure(let problem): return [problem]
        }
        return diagnostics(document: document)
    }

    /// The problems of a parsed statement list.
    static func diagnostics(document: JSONValue) -> [LintDiagnostic] {
        var found: [LintDiagnostic] = []
        func add(_ code: LintCode, _ severity: ConfigDiagnostic.Severity, _ path: DocumentPath, _ message: String) {
            found.append(LintDiagnostic(code, severity, path: path.description, message))
        }
        guard let statements = document.arrayValue else {
            add(.lh105, .error, .root, "found \(document.typeDescription), expected an array of statements")
            return found
        }
        var fingerprintsByPackage: [(package: String, path: DocumentPath, fingerprints: [String])] = []
        // Packages with a fingerprint Android cannot read (LH402): their list is longer than its valid part.
        var malformed = Set<String>()
        var grantsAppLinks = false
        for (offset, statement) in statements.enumerated() {
            let path = DocumentPath.root.index(offset)
            guard let object = statement.objectValue else {
                add(.lh405, .error, path, "found \(statement.typeDescription), expected a statement object with relation and target")
                continue
            }
            let relations = object["relation"]?.arrayValue?.compactMap(\.stringValue)
            if relations == nil || relations?.count != object["relation"]?.arrayValue?.count {
                add(.lh405, .error, path.key("relation"), "must be an array of relation strings such as \"\(AssetLinksGenerator.relation)\"")
            }
            guard let target = object["target"]?.objectValue else {
                add(.lh405, .error, path.key("target"), "is missing or not an object naming the app or site")
                continue
            }
            let namespace = target["namespace"]?.stringValue
            guard namespace == "android_app" else {
                if namespace != "web" {
                    add(.lh405, .error, path.key("target").key("namespace"), "must be \"android_app\" (or \"web\" for a site)")
                }
                continue
            }
            let packagePath = path.key("target").key("package_name")
            guard let package = target["package_name"]?.stringValue else {
                add(.lh401, .error, packagePath, "is missing or not a string; Android cannot tell which app this statement is about")
                continue
            }
            if let problem = Identifiers.packageName(package) {
                add(.lh401, .error, packagePath, "\(ConfigReader.show(.string(package))) \(problem)")
            }
            let fingerprintsPath = path.key("target").key("sha256_cert_fingerprints")
            guard let list = target["sha256_cert_fingerprints"]?.arrayValue, !list.isEmpty else {
                add(.lh402, .error, fingerprintsPath, "is missing or empty; Android verifies the app by these fingerprints")
                continue
            }
            var fingerprints: [String] = []
            for (index, element) in list.enumerated() {
                guard let text = element.stringValue, let normalized = Identifiers.normalizedFingerprint(text) else {
                    add(.lh402, .error, fingerprintsPath.index(index), "\(ConfigReader.show(element)) \(element.stringValue.flatMap(Identifiers.fingerprint) ?? "is not a SHA-256 fingerprint (32 hex byte pairs joined by \":\")")")
                    malformed.insert(package)
                    continue
                }
                if fingerprints.contains(normalized) {
                    add(.lh404, .warning, fingerprintsPath.index(index), "\(ConfigReader.show(element)) is listed twice")
                } else {
                    fingerprints.append(normalized)
                }
            }
            guard relations?.contains(AssetLinksGenerator.relation) == true else { continue }
            grantsAppLinks = true
            if let existing = fingerprintsByPackage.firstIndex(where: { $0.package == package }) {
                fingerprintsByPackage[existing].fingerprints.append(contentsOf: fingerprints.filter { !fingerprintsByPackage[existing].fingerprints.contains($0) })
            } else {
                fingerprintsByPackage.append((package, fingerprintsPath, fingerprints))
            }
        }
        if !grantsAppLinks {
            add(.lh405, .warning, .root, "no statement grants \"\(AssetLinksGenerator.relation)\" to an Android app, so no App Link verifies")
        }
        for entry in fingerprintsByPackage where entry.fingerprints.count == 1 && !isDevelopmentBuild(entry.package) && !malformed.contains(entry.package) {
            add(.lh403, .warning, entry.path, singleFingerprintMessage(entry.package))
        }
        return found + DynamicRulesLint.diagnostics(document: document)
    }

    /// LH403 for a site's Android apps: one fingerprint is usually the upload key alone. A list with a
    /// fingerprint the loader refused (an error among `loadErrors`, LH402) lists more than its one valid
    /// fingerprint: the error names the one to correct, and "lists one fingerprint" would be false.
    static func configWarnings(_ site: SiteConfig, loadErrors: [String] = []) -> [LintDiagnostic] {
        site.android.enumerated().compactMap { offset, app in
            guard app.sha256CertFingerprints.count == 1, !app.ignoredLints.contains(.lh403), !isDevelopmentBuild(app.packageName) else { return nil }
            let path = "\(site.sections.android)[\(offset)].sha256CertFingerprints"
            guard !loadErrors.contains(where: { $0.hasPrefix(path + "[") }) else { return nil }
            return LintDiagnostic(.lh403, .warning, path: path, singleFingerprintMessage(app.packageName))
        }
    }

    /// The last component of packages of builds that are signed by their developers, never by Play: one
    /// fingerprint is then the whole truth, and asking for a Play key is noise (issue 23).
    static let developmentSuffixes: Set<String> = ["debug", "dev", "develop", "development", "staging", "stage", "qa", "test", "local"]

    /// Whether `package` names such a build: `com.example.video.debug`.
    static func isDevelopmentBuild(_ package: String) -> Bool {
        package.split(separator: ".").last.map { developmentSuffixes.contains($0.lowercased()) } ?? false
    }

    private static func singleFingerprintMessage(_ package: String) -> String {
        "lists one fingerprint for \"\(package)\"; when Google Play signs the app (Play App Signing), installs from Play carry the app-signing key, so add its fingerprint from the Play Console (App integrity) too"
    }
}
