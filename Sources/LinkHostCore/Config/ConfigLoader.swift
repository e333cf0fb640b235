import LinkHostFiles
import LinkHostJSON

/// Reads, validates and completes a linkhost config: from a file, bytes or parsed JSON.
public enum ConfigLoader {
    /// The config file used when neither `--config` nor `LINKHOST_CONFIG` names one.
    public static let defaultPath = "config/linkhost.json"

    /// Names a file's bytes for `SiteConfig.fileSHA256`: SHA-256 in hex. The core links no hash (GnuTLS is the
    /// server's), so `serve` passes one; the other commands show no version and pass none.
    public typealias FileHash = @Sendable ([UInt8]) -> String

    /// Loads the file at `path`, applies environment overrides, and returns the config or every problem; `cores`
    /// read many site files side by side.
    public static func load(path: String, environment: [String: String] = [:], cores: Int = 1) throws(ConfigError) -> Config {
        try parse(read(path: path), source: path, environment: environment, configPath: path, cores: cores)
    }

    /// The config file's bytes, as `load` reads them: `serve` hashes exactly these (its config identity).
    public static func read(path: String) throws(ConfigError) -> [UInt8] {
        do {
            return try FileSystem.readFile(path)
        } catch {
            throw ConfigError(source: path, diagnostics: [ConfigDiagnostic(.lh100, path: "", message: "cannot read the config file: \(error)")])
        }
    }

    /// Validates config bytes; `source` names them in errors. `siteFiles` are found from `configPath`'s
    /// folder (the working directory without one); a failing site file falls back to its `lastGood` site (the
    /// sites serving, on a reload; nil at start, when `server.stateDirectory`'s record gives them).
    /// `cores` read many sites side by side; `fileHash` names each site's file (`SiteConfig.fileSHA256`).
    public static func parse(
        _ bytes: [UInt8], source: String = "config", environment: [String: String] = [:], configPath: String? = nil, lastGood: [String: SiteConfig]? = nil,
        cores: Int = 1, fileHash: FileHash? = nil
    ) throws(ConfigError) -> Config {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ConfigError(source: source, diagnostics: [ConfigDiagnostic(.lh100, path: "", message: "not valid JSON at line \(error.line), column \(error.column): \(error.message)")])
        }
        let (validated, diagnostics) = validate(document, environment: environment, configPath: configPath, lastGood: lastGood, cores: cores, fileHash: fileHash)
        guard var config = validated, !diagnostics.contains(where: { $0.severity == .error }) else {
            throw ConfigError(source: source, diagnostics: diagnostics, siteNames: validated?.siteNames ?? [:])
        }
        if let fileHash {
            let version = fileHash(bytes)
            for index in config.sites.indices where config.sites[index].file == nil { config.sites[index].fileSHA256 = version }
        }
        return config
    }

    /// Validates a parsed document; returns the config (nil when unusable) and all diagnostics, warnings included,
    /// except those of site files that failed, which `Config.siteFileFailures` holds; `cores` read many sites side by side;
    /// `fileHash` names each site file's bytes.
    public static func validate(
        _ document: JSONValue, environment: [String: String] = [:], configPath: String? = nil, lastGood: [String: SiteConfig]? = nil, cores: Int = 1,
        fileHash: FileHash? = nil
    ) -> (Config?, [ConfigDiagnostic]) {
        var reader = ConfigReader()
        guard let root = reader.object(document, at: "", allowed: ConfigKeys.members(of: "")) else { return (nil, reader.diagnostics) }

        let server = ServerSettingsReader.read(root["server"], environment: environment, reader: &reader)
        let observability = ObservabilitySettingsReader.read(root["observability"], reader: &reader)
        var topLevel = SiteDraft(root, at: "", reader: &reader)
        if topLevel.apps == nil && topLevel.android == nil {
            let scope = root["sites"] == nil ? "" : " (the top level is the default site, for hosts no site names, and what sites inherit)"
            reader.error(.lh108, "apps", "missing; expected at least one app in \"apps\" (iOS) or \"android\"\(scope)")
        }
        let defaultSite = topLevel.site(hosts: [], inheriting: nil)
        topLevel.resolvedAASA = defaultSite.aasa
        topLevel.resolvedAASALinks = (defaultSite.callLinks.links.templates, defaultSite.sections.sectionPath(of: "callLinks", "links"))
        let sites = SitesReader.read(root["sites"], topLevel: topLevel, cores: cores, reader: &reader)
        AppsReader.checkNames([defaultSite] + sites, reader: &reader)
        // The Public Suffix List is read on the first wildcard host, once a load however many sites.
        var wildcards = WildcardHostCheck(environment: environment)
        for site in sites { wildcards.check(site, isSiteFile: false, reader: &reader) }
        let shared = SharedAppsReader.read(root["sharedApps"], reader: &reader)
        let history = root["siteFiles"] == nil ? SiteFileHistory.start(nil) : lastGood.map(SiteFileHistory.reload(lastGood:)) ?? startHistory(server, reader: &reader)
        let files = SiteFiles.read(root["siteFiles"], configPath: configPath ?? "", topLevel: topLevel, sites: sites, server: server, wildcards: &wildcards,
                                   history: history, shared: shared, cores: cores, fileHash: fileHash, reader: &reader)
        ACMESettingsReader.check(server, sites: [defaultSite] + sites + files.sites, reader: &reader)
        var config = Config(server: server, observability: observability, sites: [defaultSite] + sites + files.sites)
        (config.siteFiles, config.siteFileFailures, config.siteFileDigests) = (files.pattern, files.failures, files.digests)
        config.sharedApps = shared
        config.isExample = reader.boolean(root, "example", at: "") ?? false
        return (config, reader.diagnostics)
    }

    /// At start (and in `validate`): `server.stateDirectory`'s record of the site files, or none; a record that
    /// cannot be used is a warning (LH141), and the load goes on as without one.
    private static func startHistory(_ server: ServerSettings, reader: inout ConfigReader) -> SiteFileHistory {
        guard let directory = server.stateDirectory else { return .start(nil) }
        let (state, problem) = SiteState.read(directory: directory)
        if let problem { reader.warning(.lh141, "server.stateDirectory", "\(problem); the site files load without the record of who held what (each clash then fails every claimant) and without last good versions") }
        return .start(state)
    }
}
