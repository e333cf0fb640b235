/// The Associated Domains of an iOS app's `.entitlements` property list (or of the fragment
/// `linkhost print entitlements` writes).
public struct EntitlementsFile: Sendable {
    /// One `service:domain[?mode=…]` entry.
    public struct Domain: Sendable, Equatable {
        /// `applinks`, `webcredentials`, `activitycontinuation` or `appclips`.
        public let service: String
        /// The domain, lowercased; `*.example.com` for its subdomains.
        public let host: String
        /// `developer`, `managed` or `developer+managed`; nil for none.
        public let mode: String?
        /// The entry as written.
        public let text: String
        /// Its position in the entitlement's array (entries that cannot be read keep theirs).
        public let index: Int
    }

    /// The services Apple documents for the entitlement.
    public static let services = ["applinks", "webcredentials", "activitycontinuation", "appclips"]
    /// The alternate modes Apple documents.
    public static let modes = ["developer", "managed", "developer+managed"]

    /// The entries that could be read.
    public let domains: [Domain]
    /// Problems of the file itself: LH701 for entries that cannot be read, LH706 for alternate modes.
    public let problems: [LintDiagnostic]
    /// The value of `com.apple.developer.parent-application-identifiers` as written, nil when the file has
    /// none: an App Clip's file must name its app there, an app's file must not (`AppClipEntitlements.parentKey`).
    public let parentApplicationIdentifiers: PropertyList?

    /// Reads the file's bytes; a file that is not a property list is one LH701 error.
    public static func read(_ bytes: [UInt8]) -> Result<EntitlementsFile, LintDiagnostic> {
        let plist: PropertyList
        switch Self.plist(bytes) {
        case .failure(let problem): return .failure(problem)
        case .success(let read): plist = read
        }
        let parents = plist[AppClipEntitlements.parentKey]
        guard let value = plist[EntitlementsGenerator.key] else {
            return .success(EntitlementsFile(domains: [], problems: [], parentApplicationIdentifiers: parents))
        }
        guard case .array(let items) = value else {
            return .failure(LintDiagnostic(.lh701, .error, path: EntitlementsGenerator.key, "is not an array of service:domain strings"))
        }
        var domains: [Domain] = []
        var problems: [LintDiagnostic] = []
        for (index, item) in items.enumerated() {
            let path = "\(EntitlementsGenerator.key)[\(index)]"
            guard case .string(let text) = item else {
                problems.append(LintDiagnostic(.lh701, .error, path: path, "is not a string; each entry is service:domain"))
                continue
            }
            switch entry(text, index: index) {
            case .success(let domain):
                domains.append(domain)
                if let mode = domain.mode {
                    problems.append(LintDiagnostic(.lh706, .warning, path: path, "\"\(text)\" uses ?mode=\(mode), which is for development and must be removed before release"))
                }
            case .failure(let problem):
                problems.append(problem.relocated(to: path))
            }
        }
        return .success(EntitlementsFile(domains: domains, problems: problems, parentApplicationIdentifiers: parents))
    }

    /// A property-list file (or a `<key>…` fragment) read as a dictionary; anything else is one LH701 error.
    static func plist(_ bytes: [UInt8]) -> Result<PropertyList, LintDiagnostic> {
        let root: XMLElement
        do {
            root = try XMLReader.parse(wrappedIfFragment(bytes))
        } catch {
            return .failure(LintDiagnostic(.lh701, .error, path: "", "not well-formed XML at \(error)"))
        }
        let plist: PropertyList
        do {
            plist = try PropertyList.read(root)
        } catch {
            return .failure(LintDiagnostic(.lh701, .error, path: "", "not a property list: \(error)"))
        }
        guard case .dictionary = plist else { return .failure(LintDiagnostic(.lh701, .error, path: "", "the property list is not a dictionary")) }
        return .success(plist)
    }

    /// One entry: `service:domain` and an optional `?mode=…`.
    static func entry(_ text: String, index: Int = 0) -> Result<Domain, LintDiagnostic> {
        if text.contains("$(") {
            return .failure(LintDiagnostic(.lh701, .warning, path: "", "\"\(text)\" uses a build setting, which only Xcode can resolve; give the entitlements with their values (or a file per build configuration)"))
        }
        guard let colon = text.firstIndex(of: ":") else {
            return .failure(LintDiagnostic(.lh701, .error, path: "", "\"\(text)\" is not service:domain, e.g. \"applinks:links.example.com\""))
        }
        let service = String(text[..<colon])
        guard services.contains(service) else {
            return .failure(LintDiagnostic(.lh701, .error, path: "", "\"\(text)\" names the service \"\(service)\"; Apple's are \(services.joined(separator: ", "))"))
        }
        var rest = text[text.index(after: colon)...]
        var mode: String?
        if let question = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: question)...]
            guard query.hasPrefix("mode="), modes.contains(String(query.dropFirst(5))) else {
                return .failure(LintDiagnostic(.lh701, .error, path: "", "\"\(text)\" has \"?\(query)\"; the only suffix Apple documents is ?mode=\(modes.joined(separator: "|"))"))
            }
            mode = String(query.dropFirst(5))
            rest = rest[..<question]
        }
        let host = String(rest).lowercased()
        if let problem = HostName.problem(siteHost: host) {
            return .failure(LintDiagnostic(.lh701, .error, path: "", "\"\(text)\": the domain \"\(rest)\" \(problem)"))
        }
        return .success(Domain(service: service, host: host, mode: mode, text: text, index: index))
    }

    /// A fragment (`<key>…</key><array>…</array>`) wrapped into a property list, so the output of
    /// `linkhost print entitlements` reads like the file it goes into; line numbers stay as they are.
    private static func wrappedIfFragment(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard !text.contains("<plist"), text.contains("<key>") else { return bytes }
        return Array("<plist version=\"1.0\"><dict>".utf8) + bytes + Array("</dict></plist>".utf8)
    }
}
