import LinkHostFiles
import LinkHostJSON

/// `siteFiles`: reads the files that each hold one site and joins them to `sites`, each on its own, so one
/// broken file harms one tenant.
///
/// A file that fails — unreadable, not JSON, an error inside, a host or id another site claims — does not
/// fail the config: its site serves its last good version (`lastGood`, the sites of the snapshot serving,
/// by file name) or, with none, is left out, and the failure is recorded in `Config.siteFileFailures`. A
/// problem of the pattern or its folder is the main file's, and refuses the config as any other.
enum SiteFiles {
    /// The largest site file read: a site is a few kilobytes; a Kubernetes ConfigMap holds at most 1 MiB.
    static let maximumFileSize = 1_048_576

    /// The path of a file's site in diagnostics: `sites[acme.json]`, stable however files are added or removed.
    static func sitePath(_ name: String) -> String { "sites[\(name)]" }

    /// What `read` found: the sites that serve, in file-name order, and the files that failed.
    struct Outcome {
        var pattern: SiteFilePattern?
        var sites: [SiteConfig] = []
        var failures: [SiteFileFailure] = []
        /// `name length:FNV-1a` per file read, so the config's identity changes when any file does.
        var digest = ""
    }

    /// Reads the files of `value` (the `siteFiles` member) after the config's own `sites`, checking each
    /// against those and the files before it; `cores` read files side by side; `fileHash` names each file's bytes.
    static func read(
        _ value: JSONValue?, configPath: String, topLevel: SiteDraft, sites: [SiteConfig], server: ServerSettings,
        lastGood: [String: SiteConfig], cores: Int = 1, fileHash: ConfigLoader.FileHash? = nil, reader: inout ConfigReader
    ) -> Outcome {
        var outcome = Outcome()
        guard let value else { return outcome }
        guard case .string(let written) = value else {
            reader.typeMismatch(value, at: "siteFiles", expected: "a path pattern such as \"sites.d/*.json\"")
            return outcome
        }
        let (parsed, problem) = SiteFilePattern.parse(written, configPath: configPath)
        guard let pattern = parsed else {
            reader.error(.lh130, "siteFiles", "\(ConfigReader.show(value)) \(problem ?? "is not a usable pattern")")
            return outcome
        }
        outcome.pattern = pattern
        guard let names = pattern.fileNames() else {
            reader.error(.lh130, "siteFiles", "\(ConfigReader.show(value)): the folder \(pattern.folder) cannot be listed; create it (it may be empty) or fix the path")
            return outcome
        }
        var claims = Claims(sites: sites, acmeHosts: server.acme?.hosts ?? [])
        // Files are read and parsed on the cores a window at a time (the parsed documents of a window are kept
        // until its sites join); each joins the others in file-name order, as if read one after another.
        for start in stride(from: 0, to: names.count, by: window) {
            let batch = names[start..<min(start + window, names.count)]
            let reads = OrderedChunks.map(batch.count, chunks: OrderedChunks.chunkCount(for: batch.count, cores: cores)) { range in
                batch[(batch.startIndex + range.lowerBound)..<(batch.startIndex + range.upperBound)].map { name in
                    usable(name) ? FileRead(pattern.path(of: name), shown: pattern.shown(name), at: sitePath(name), name: name, topLevel: topLevel, fileHash: fileHash) : nil
                }
            }.joined()
            for (name, read) in zip(batch, reads) {
                join(name, read, pattern: pattern, topLevel: topLevel, server: server, lastGood: lastGood, claims: &claims, outcome: &outcome, reader: &reader)
            }
        }
        return outcome
    }

    /// How many files are read on the cores before their sites join the others.
    static let window = 512

    /// Whether a file's name can name a site (`sites[name]`).
    private static func usable(_ name: String) -> Bool {
        !name.contains("]") && !name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F })
    }

    /// Adds one file's site to `outcome` (or its failure, and its last good version when that fits).
    private static func join(
        _ name: String, _ read: FileRead?, pattern: SiteFilePattern, topLevel: SiteDraft, server: ServerSettings, lastGood: [String: SiteConfig],
        claims: inout Claims, outcome: inout Outcome, reader: inout ConfigReader
    ) {
        let path = sitePath(name)
        var own = ConfigReader()
        var site: SiteConfig?
        if let read {
            site = settle(read, at: path, topLevel: topLevel, server: server, claims: &claims, digest: &outcome.digest, name: name, reader: &own)
        } else {
            own.error(.lh131, path, "the file name \(pattern.shown(name)) holds \"]\" or a control character, which cannot name a site; rename the file")
        }
        let errors = own.diagnostics.contains { $0.severity == .error }
        // The hosts a failed file took while it was read are free again (its last good version may take them).
        if errors, let site { claims.release(site) }
        if let site, !errors {
            claims.add(site)
            outcome.sites.append(site)
            reader.append(own.diagnostics)
            return
        }
        let fallback = lastGood[name].flatMap { claims.clash($0) == nil ? $0 : nil }
        outcome.failures.append(SiteFileFailure(
            name: name, file: SiteFilePattern.printable(pattern.shown(name)), site: site?.label ?? lastGood[name]?.label ?? SiteFilePattern.printable(name),
            diagnostics: own.diagnostics.filter { $0.severity == .error }, servesLastGood: fallback != nil))
        if let fallback {
            claims.add(fallback)
            outcome.sites.append(fallback)
        }
    }

    /// One file read and parsed, and its site read as if no other site held a host: what does not depend on
    /// the other files.
    private struct FileRead: Sendable {
        /// The file's line of the config's identity; empty when it could not be read.
        var digest = ""
        /// The SHA-256 of its bytes (`SiteConfig.fileSHA256`), when a hash was given.
        var sha256: String?
        var document: JSONValue?
        /// Why it could not be read or parsed.
        var problems: [ConfigDiagnostic] = []
        var alone: SitesReader.Unclaimed?

        init(_ file: String, shown: String, at path: String, name: String, topLevel: SiteDraft, fileHash: ConfigLoader.FileHash?) {
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.readFile(file, maximumSize: maximumFileSize)
            } catch {
                problems = [ConfigDiagnostic(.lh131, path: path, message: "\(shown) cannot be read: \(error)")]
                return
            }
            digest = "\(name) \(bytes.count):\(fnv1a(bytes))\n"
            sha256 = fileHash?(bytes)
            do {
                document = try JSONParser.parse(bytes)
            } catch {
                problems = [ConfigDiagnostic(.lh131, path: path, message: "\(shown) is not valid JSON at line \(error.line), column \(error.column): \(error.message)")]
                return
            }
            alone = document.map { SitesReader.Unclaimed($0, at: path, topLevel: topLevel) }
        }
    }

    /// One file's site checked against the sites before it: its own reader collects its problems, so they
    /// fail it alone.
    private static func settle(
        _ read: FileRead, at path: String, topLevel: SiteDraft, server: ServerSettings, claims: inout Claims,
        digest: inout String, name: String, reader: inout ConfigReader
    ) -> SiteConfig? {
        digest += read.digest
        guard let document = read.document, let alone = read.alone else {
            reader.append(read.problems)
            return nil
        }
        // The claims themselves, not a copy: copying 10,000 hosts for each of 10,000 files is quadratic.
        guard var site = alone.joined(document, at: path, topLevel: topLevel, claimed: &claims.hosts, reader: &reader) else { return nil }
        site.file = name
        site.fileSHA256 = read.sha256
        if let clash = claims.clash(site) { reader.error(.lh132, path, clash) }
        if server.acme != nil {
            for (index, host) in site.hosts.enumerated() where host.hasPrefix("*.") {
                reader.error(.lh118, ConfigReader.join(path, "hosts[\(index)]"), "\"\(host)\" is a wildcard, which ACME's HTTP-01 challenge cannot certify; list each host")
            }
        }
        AppsReader.checkNames([site], reader: &reader)
        return site
    }

    /// 64-bit FNV-1a in hex: a file's part of the config identity (not a secret, only a change detector).
    private static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// The hosts and names sites already hold, so a file claiming one fails instead of the config.
    struct Claims {
        /// Each host, by the path that claims it.
        var hosts: [String: String] = [:]
        /// Each site name (id, else first host), by the path that holds it.
        var names: [String: String] = ["default": "the top level"]
        /// The top level's ACME names.
        var acmeHosts: Set<String>

        init(sites: [SiteConfig], acmeHosts: [String]) {
            self.acmeHosts = Set(acmeHosts)
            for site in sites { add(site) }
        }

        mutating func add(_ site: SiteConfig) {
            for (index, host) in site.hosts.enumerated() { hosts[host] = ConfigReader.join(site.path, "hosts[\(index)]") }
            names[site.label] = site.path
        }

        /// Frees the hosts a site that failed took while it was read.
        mutating func release(_ site: SiteConfig) {
            for host in site.hosts where hosts[host]?.hasPrefix(site.path + ".") == true { hosts.removeValue(forKey: host) }
        }

        /// Why `site` cannot join (a host or its name already taken), nil when it can.
        func clash(_ site: SiteConfig) -> String? {
            if let holder = names[site.label], holder != site.path {
                return "its name \"\(site.label)\" (\(site.id == nil ? "first host" : "id")) already names \(holder); give each site an \"id\" of its own"
            }
            if let host = site.hosts.first(where: { hosts[$0] != nil && hosts[$0]?.hasPrefix(site.path + ".") != true }) {
                return "\"\(host)\" is already a host of \(hosts[host]!); a host belongs to one site"
            }
            if let host = site.hosts.first(where: acmeHosts.contains) {
                return "\"\(host)\" is already one of server.tls.acme.hosts (the top level's); a host belongs to one site"
            }
            return nil
        }
    }
}
