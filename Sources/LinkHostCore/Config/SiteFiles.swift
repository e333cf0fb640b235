import LinkHostFiles
import LinkHostJSON

/// `siteFiles`: reads the files that each hold one site and joins them to `sites`, each on its own, so one
/// broken file harms one tenant.
///
/// A file that fails — unreadable, not JSON, an error inside, a host, id or app another site holds
/// (`SiteFileClaims`) — does not fail the config: its site serves its last good version (the sites of the
/// snapshot serving, by file name, on a reload; the state folder's copy at start) or, with none, is left out,
/// and the failure is recorded in `Config.siteFileFailures`. A problem of the pattern or its folder is the
/// main file's, and refuses the config as any other.
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
        /// Each file read, by name: its `length:FNV-1a`, so the config's identity changes when any file does.
        var digests: [String: String] = [:]
    }

    /// Reads the files of `value` (the `siteFiles` member) after the config's own `sites`, then decides who
    /// holds each claim (`SiteFileClaims`, with the record `history` gives); `cores` read files side by side;
    /// `fileHash` names each file's bytes.
    static func read(
        _ value: JSONValue?, configPath: String, topLevel: SiteDraft, sites: [SiteConfig], server: ServerSettings,
        wildcards: inout WildcardHostCheck, history: SiteFileHistory, shared: [String: Set<String>], cores: Int = 1,
        fileHash: ConfigLoader.FileHash? = nil, reader: inout ConfigReader
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
        let folders = SiteFileFolders(pattern: pattern, names: names, configPath: configPath, server: server, topLevel: topLevel, sites: sites)
        // Each file read and checked alone on the cores; nothing here depends on another file.
        let reads = OrderedChunks.map(names.count, chunks: OrderedChunks.chunkCount(for: names.count, cores: cores)) { range in
            names[range].map { name in
                FileRead(name, pattern: pattern, topLevel: topLevel, server: server, folder: folders.folder(for: name), fileHash: fileHash)
            }
        }.joined()
        var files = Array(reads)
        // The Public Suffix List is read on the first wildcard, once a load: after the reads, one file at a time.
        for index in files.indices {
            guard let site = files[index].site else { continue }
            var own = ConfigReader()
            wildcards.check(site, isSiteFile: true, reader: &own)
            files[index].diagnostics += own.diagnostics
        }
        outcome.digests = Dictionary(files.compactMap { read in read.digest.map { (read.name, $0) } }, uniquingKeysWith: { first, _ in first })
        var claims = SiteFileClaims(operatorHolds: operatorHolds(topLevel: topLevel, sites: sites, acmeHosts: server.acme?.hosts ?? []), record: history.record, shared: shared)
        claims.shown = { SiteFilePattern.printable(pattern.shown($0)) }
        let fates = claims.resolve(files.map { SiteFileClaims.File(name: $0.name, current: $0.servable) })
        let fallbacks = zip(files, fates).map { read, fate in
            fate == .current ? nil : history.lastGood(read.name, topLevel: topLevel, folder: folders.folder(for: read.name), fileHash: fileHash).flatMap { claims.lastGoodServes($0, name: read.name) ? $0 : nil }
        }
        // A failed file is named by its id where no serving site has it: a newcomer taking an id is reported
        // under its file's name, never as the incumbent it tried to be.
        var served = Set(sites.map(\.label))
        for ((read, fate), fallback) in zip(zip(files, fates), fallbacks) { if let site = fate == .current ? read.site : fallback { served.insert(site.label) } }
        for ((read, fate), fallback) in zip(zip(files, fates), fallbacks) {
            switch fate {
            case .current:
                outcome.sites.append(read.site!)
                reader.append(read.diagnostics)
            case .failed(let reasons):
                let name = read.name
                let own = read.site.flatMap { served.contains($0.label) ? nil : $0.label }
                outcome.failures.append(SiteFileFailure(
                    name: name, file: SiteFilePattern.printable(pattern.shown(name)), site: fallback?.label ?? own ?? history.label(of: name) ?? SiteFilePattern.printable(name),
                    diagnostics: read.diagnostics.filter { $0.severity == .error } + reasons, servesLastGood: fallback != nil))
                if let fallback { outcome.sites.append(fallback) }
            }
        }
        return outcome
    }

    /// What the operator's own config holds: the inline sites' hosts, names and own apps, the top level's
    /// apps, its name `default` and the ACME hosts of the top level.
    private static func operatorHolds(topLevel: SiteDraft, sites: [SiteConfig], acmeHosts: [String]) -> [SiteClaim: String] {
        var held: [SiteClaim: String] = [.name("default"): "the top level"]
        for host in acmeHosts { held[.host(host)] = "server.tls.acme.hosts" }
        for (index, app) in (topLevel.apps ?? []).enumerated() {
            held[.iOSApp(app.appID)] = "apps[\(index)]"
            if let clip = app.appClipID { held[.iOSApp(clip)] = "apps[\(index)].appClipBundleID" }
        }
        for (index, app) in (topLevel.android ?? []).enumerated() { held[.androidApp(app.packageName)] = "android[\(index)]" }
        for site in sites {
            for (claim, at) in SiteClaim.of(site) where held[claim] == nil {
                held[claim] = claim == .name(site.label) ? site.path : ConfigReader.join(site.path, at)
            }
        }
        return held
    }

    /// Whether a file's name can name a site (`sites[name]`).
    private static func usable(_ name: String) -> Bool {
        !name.contains("]") && !name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F })
    }

    /// One file read, parsed and its site read and checked as if no other site held anything: all that does
    /// not depend on the other files.
    private struct FileRead: Sendable {
        let name: String
        /// The file's size and content hash (`SiteFiles.digest`); nil when it could not be read.
        var digest: String?
        /// Its site, when the object could be read (with errors or not).
        var site: SiteConfig?
        /// Its problems: why it could not be read, and every finding of its site alone.
        var diagnostics: [ConfigDiagnostic] = []

        /// The site when it has no error of its own.
        var servable: SiteConfig? { diagnostics.contains { $0.severity == .error } ? nil : site }

        init(_ name: String, pattern: SiteFilePattern, topLevel: SiteDraft, server: ServerSettings, folder: SiteFileFolder, fileHash: ConfigLoader.FileHash?) {
            self.name = name
            let path = sitePath(name)
            let shown = pattern.shown(name)
            guard usable(name) else {
                diagnostics = [ConfigDiagnostic(.lh131, path: path, message: "the file name \(SiteFilePattern.printable(shown)) holds \"]\" or a control character, which cannot name a site; rename the file")]
                return
            }
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.readFile(pattern.path(of: name), maximumSize: maximumFileSize)
            } catch {
                diagnostics = [ConfigDiagnostic(.lh131, path: path, message: "\(shown) cannot be read: \(error)")]
                return
            }
            let fileDigest = SiteFiles.digest(bytes)
            digest = fileDigest
            let (read, found) = SiteFiles.site(bytes, name: name, shown: shown, topLevel: topLevel, folder: folder)
            guard var site = read else {
                diagnostics = found
                return
            }
            site.fileDigest = fileDigest
            site.fileSHA256 = fileHash?(bytes)
            var reader = ConfigReader()
            reader.append(found)
            if server.acme != nil {
                for (index, host) in site.hosts.enumerated() where host.hasPrefix("*.") {
                    reader.error(.lh118, ConfigReader.join(path, "hosts[\(index)]"), "\"\(host)\" is a wildcard, which ACME's HTTP-01 challenge cannot certify; list each host")
                }
            }
            AppsReader.checkNames([site], reader: &reader)
            (self.site, diagnostics) = (site, reader.diagnostics)
        }
    }

    /// The site of a site file's bytes, read alone, its paths in its `folder`, with its findings (or only why the
    /// bytes are not JSON).
    static func site(_ bytes: [UInt8], name: String, shown: String, topLevel: SiteDraft, folder: SiteFileFolder? = nil) -> (SiteConfig?, [ConfigDiagnostic]) {
        let path = sitePath(name)
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            return (nil, [ConfigDiagnostic(.lh131, path: path, message: "\(shown) is not valid JSON at line \(error.line), column \(error.column): \(error.message)")])
        }
        var (claimed, reader) = ([String: String](), ConfigReader())
        var site = SitesReader.readSite(document, at: path, topLevel: topLevel, claimed: &claimed, folder: folder, reader: &reader)
        site?.file = name
        return (site, reader.diagnostics)
    }

    /// `1234:9f0c…`: a file's size and 64-bit FNV-1a in hex, its part of the config identity and what the state
    /// folder checks a kept copy against (not a secret, only a change detector: a kept copy is read as any
    /// site file, so bytes that collide are no more trusted than the file itself).
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\(bytes.count):\(String(hash, radix: 16))"
    }
}
