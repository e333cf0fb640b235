/// The intent filters of an Android app's `AndroidManifest.xml` (or of the fragment
/// `linkhost print android-manifest` writes), as Android reads them for App Links.
public struct AndroidManifestFile: Sendable {
    /// One `<intent-filter>` of an activity, its `<data>` attributes merged as Android merges them: every
    /// scheme with every host with every path of the filter.
    public struct IntentFilter: Sendable {
        /// The line of the `<intent-filter>`.
        public let line: Int
        /// The activity (or alias) it belongs to.
        public let activity: String
        /// False when the activity sets `android:exported="false"`: no other app can start it.
        public let exported: Bool
        /// `android:autoVerify="true"`: Android verifies the hosts with assetlinks.json.
        public let autoVerify: Bool
        /// The `<action android:name>` values.
        public let actions: [String]
        /// The `<category android:name>` values.
        public let categories: [String]
        /// Lowercased.
        public let schemes: [String]
        /// Lowercased; `*.example.com` for subdomains, `*` for any host.
        public let hosts: [String]
        /// The path claims; empty claims every path.
        public let paths: [ManifestPathPattern]

        /// VIEW, DEFAULT and BROWSABLE, with https (or http): a filter for web links.
        public var handlesWebLinks: Bool {
            actions.contains("android.intent.action.VIEW") && categories.contains("android.intent.category.BROWSABLE")
                && categories.contains("android.intent.category.DEFAULT") && schemes.contains(where: { $0 == "https" || $0 == "http" })
        }

        /// Whether the filter claims `path` (decoded) on `host`.
        public func claims(host: String, path: String) -> Bool {
            hosts.contains { Self.covers($0, host) } && (paths.isEmpty || paths.contains { $0.matches(path) })
        }

        /// Android's host matching: `*.example.com` covers subdomains (not `example.com`), `*` every host.
        static func covers(_ claimed: String, _ host: String) -> Bool {
            if claimed == "*" { return true }
            guard claimed.hasPrefix("*") else { return claimed == host }
            let suffix = claimed.dropFirst()
            return host.hasSuffix(suffix)
        }
    }

    /// The root's `package` attribute: the applicationId in a merged manifest (the build writes it there),
    /// the namespace in an older source manifest; nil for a fragment or a manifest without one.
    public var package: String? = nil
    /// Every intent filter of every activity and activity alias.
    public let filters: [IntentFilter]
    /// Values that cannot be read (LH701): resource references and placeholders, refused patterns.
    public let problems: [LintDiagnostic]

    /// Reads the file's bytes; a file that is not a manifest is one LH701 error.
    public static func read(_ bytes: [UInt8]) -> Result<AndroidManifestFile, LintDiagnostic> {
        let root: XMLElement
        do {
            root = try XMLReader.parse(wrappedIfFragment(bytes))
        } catch {
            return .failure(LintDiagnostic(.lh701, .error, path: "", "not well-formed XML at \(error)"))
        }
        guard root.localName == "manifest" else {
            return .failure(LintDiagnostic(.lh701, .error, path: "", "the root element is <\(root.name)>, not <manifest>"))
        }
        var filters: [IntentFilter] = []
        var problems: [LintDiagnostic] = []
        let android = AndroidManifestGenerator.namespace
        for application in root.children(named: "application") {
            for activity in application.children.filter({ $0.localName == "activity" || $0.localName == "activity-alias" }) {
                let name = activity.attribute("name", namespace: android) ?? "<\(activity.localName)>"
                let exported = activity.attribute("exported", namespace: android) != "false"
                for filter in activity.children(named: "intent-filter") {
                    filters.append(read(filter, activity: name, exported: exported, problems: &problems))
                }
            }
        }
        // A fragment is wrapped in a manifest of no package; a placeholder only the build resolves names none.
        let package = root.attribute("package").flatMap { $0.isEmpty || $0.contains("${") ? nil : $0 }
        return .success(AndroidManifestFile(package: package, filters: filters, problems: problems))
    }

    private static func read(_ filter: XMLElement, activity: String, exported: Bool, problems: inout [LintDiagnostic]) -> IntentFilter {
        let android = AndroidManifestGenerator.namespace
        let location = "\(activity) <intent-filter> (line \(filter.line))"
        func value(_ element: XMLElement, _ name: String) -> String? {
            guard let text = element.attribute(name, namespace: android) else { return nil }
            if text.hasPrefix("@") || text.contains("${") {
                problems.append(LintDiagnostic(.lh701, .warning, path: location, "android:\(name)=\"\(text)\" is a resource reference or a placeholder, which only the build resolves; give the merged manifest (app/build/intermediates/merged_manifests/…)"))
                return nil
            }
            return text
        }
        let data = filter.children(named: "data")
        var paths: [ManifestPathPattern] = []
        for element in data {
            for attribute in ManifestPathPattern.attributes {
                guard let text = value(element, attribute) else { continue }
                if let pattern = ManifestPathPattern(attribute: attribute, value: text) {
                    paths.append(pattern)
                } else {
                    problems.append(LintDiagnostic(.lh701, .error, path: location, "android:\(attribute)=\"\(text)\" is not a pattern Android accepts"))
                }
            }
        }
        return IntentFilter(
            line: filter.line, activity: activity, exported: exported,
            autoVerify: filter.attribute("autoVerify", namespace: android) == "true",
            actions: filter.children(named: "action").compactMap { value($0, "name") },
            categories: filter.children(named: "category").compactMap { value($0, "name") },
            schemes: data.compactMap { value($0, "scheme")?.lowercased() },
            hosts: data.compactMap { value($0, "host")?.lowercased() },
            paths: paths)
    }

    /// Intent filters without their manifest wrapped into one, so the output of
    /// `linkhost print android-manifest` reads like the file it goes into; line numbers stay as they are.
    private static func wrappedIfFragment(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard !text.contains("<manifest"), text.contains("<intent-filter") else { return bytes }
        let open = "<manifest xmlns:android=\"\(AndroidManifestGenerator.namespace)\"><application><activity android:name=\"(fragment)\" android:exported=\"true\">"
        return Array(open.utf8) + bytes + Array("</activity></application></manifest>".utf8)
    }
}
