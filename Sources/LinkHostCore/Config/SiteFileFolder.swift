import LinkHostFiles
import LinkHostJSON

/// A site file's own folder: the only place the paths the file writes are read from.
///
/// A site file is a tenant's input, so it names only the tenant's own files: `callLinks.template`,
/// `callLinks.locales` and `static.root` are relative to the folder beside the file named as the file without
/// its extension (`sites.d/acme/` for `sites.d/acme.json`). Beside the file rather than below one folder the
/// top level names, so that a Kubernetes tenant's site file and its files can come from one ConfigMap (keys
/// projected as `acme.json` and `acme/call.html`) and change together in the kubelet's one `..data` rename.
/// The folder's own path (a ConfigMap's `acme → ..data/acme` link) is the operator's and resolved once;
/// below it a path may not be absolute, hold `..`, lead out through a link, or lie in (or hold) one of the
/// operator's places: the ACME state folder, the TLS files, the config file, the operator's sites' page
/// sources and static folders. A path that fails is an LH134 error of that file alone. A key the file leaves
/// out is the top level's, as for any site; the operator's own config names paths anywhere.
struct SiteFileFolder: Sendable {
    /// The folder as reached from the working directory (`/etc/linkhost/sites.d/acme`).
    let path: String
    /// As people see it: `sites.d/acme/`.
    let shown: String
    /// Why the file has no folder of its own; nil when it has one.
    let problem: String?
    /// The operator's places, shared by every file of a load.
    let places: [Place]

    /// One of the operator's files or folders a tenant's path may neither lie in nor hold.
    struct Place: Sendable {
        /// Resolved.
        let path: String
        /// What it is, for messages: `the ACME state folder (server.tls.acme.stateDirectory)`.
        let what: String
    }

    /// The keys a site may write that name a file or folder on disk, with the section each is in.
    static let pathKeys: [(section: String, key: String)] = [("callLinks", "template"), ("callLinks", "locales"), ("static", "root")]

    /// Rewrites the path keys `object` (the file's document) writes to lie in this folder, each checked, and
    /// records the folder in `site` when it wrote one (ten thousand tenants that write none keep no copy of
    /// it); a path that fails is an LH134 error of the file.
    func confine(_ site: inout SiteConfig, object: JSONObject, at path: String, topLevelRoot: String, reader: inout ConfigReader) {
        var resolvedFolder: String?
        for (section, key) in Self.pathKeys {
            guard case .object(let members)? = object[section], case .string(let written)? = members[key] else { continue }
            let setting = ConfigReader.join(path, section + "." + key)
            if let problem {
                reader.error(.lh134, setting, "\(ConfigReader.show(.string(written))) cannot be read: \(problem)")
                continue
            }
            if let why = Self.shapeProblem(written) {
                reader.error(.lh134, setting, "\(ConfigReader.show(.string(written))) \(why); a site file names only files in its own folder \(shown): write the path relative to it, e.g. \(Self.example(key))")
                continue
            }
            let full = Self.join(self.path, written)
            if FileSystem.exists(full) {
                // A missing file is reported when the site loads (LH114): it cannot lead anywhere.
                let folder = resolvedFolder ?? FileSystem.resolvingSymlinks(self.path)
                resolvedFolder = folder
                if let why = problem(resolving: full, in: folder) {
                    reader.error(.lh134, setting, "\(ConfigReader.show(.string(written))) \(why); a site file names only its own files, in \(shown)")
                    continue
                }
            }
            site.ownFolder = self.path
            switch key {
            case "template": site.callLinks.template = full
            case "locales": site.callLinks.locales = full
            default:
                site.staticFiles.root = full
                // The tenant's folder lies over the top level's, as any site's own folder does.
                site.staticFallbackRoot = topLevelRoot
            }
        }
    }

    /// Why `full` (which exists) is not the tenant's own: a link leading out of `folder` (resolved), or one of
    /// the operator's places in or around it.
    private func problem(resolving full: String, in folder: String) -> String? {
        let resolved = FileSystem.resolvingSymlinks(full)
        guard FileSystem.isInside(resolved, folder) else { return "leads out of \(shown) through a symbolic link (to \(resolved))" }
        if let place = places.first(where: { FileSystem.isInside(resolved, $0.path) }) { return "lies in \(place.what)" }
        if let place = places.first(where: { FileSystem.isInside($0.path, resolved) }) { return "holds \(place.what)" }
        return nil
    }

    /// Why a written path cannot be one inside the folder, whatever the disk holds: absolute, `..`, a NUL.
    static func shapeProblem(_ written: String) -> String? {
        if written.hasPrefix("/") { return "is an absolute path" }
        if written.split(separator: "/").contains("..") { return "climbs out with \"..\"" }
        if written.utf8.contains(0) { return "holds a NUL byte" }
        return nil
    }

    /// `folder` and a relative path written in it; `.` (or nothing) is the folder itself.
    static func join(_ folder: String, _ written: String) -> String {
        let parts = written.split(separator: "/").filter { $0 != "." }
        return parts.isEmpty ? folder : folder + "/" + parts.joined(separator: "/")
    }

    /// What a key's value looks like in the folder, for messages.
    private static func example(_ key: String) -> String {
        switch key {
        case "template": return "\"call.html\""
        case "locales": return "\"locales\""
        default: return "\"static\" (or \".\" for the folder itself)"
        }
    }

    /// At load, for a path a site file wrote (`SiteConfig.ownFolder(of:)`): it must still resolve inside the
    /// file's folder, as when the file was read; a link put in its way since then fails the site (LH134)
    /// instead of being followed out.
    static func check(_ path: String, inside ownFolder: String?, setting: String) throws(ConfigError) {
        guard let ownFolder, FileSystem.exists(path) else { return }
        let resolved = FileSystem.resolvingSymlinks(path)
        guard !FileSystem.isInside(resolved, FileSystem.resolvingSymlinks(ownFolder)) else { return }
        throw ConfigError(source: path, diagnostics: [ConfigDiagnostic(.lh134, path: setting, message: "\"\(path)\" leads out of the site file's folder \(ownFolder) through a symbolic link (to \(resolved))")])
    }
}

/// The folders of one load's site files: which names have one, and the operator's places, worked out once
/// however many tenants there are.
struct SiteFileFolders: Sendable {
    let pattern: SiteFilePattern
    /// Folder names more than one matching file would have (`acme.json`, `acme.yaml`): neither has a folder.
    let sharedStems: Set<String>
    let places: [SiteFileFolder.Place]

    /// The folders of `names` (the matching files) under `pattern`, against the operator's places in `server`,
    /// the config file, the top level and the operator's `sites`.
    init(pattern: SiteFilePattern, names: [String], configPath: String, server: ServerSettings, topLevel: SiteDraft, sites: [SiteConfig]) {
        self.pattern = pattern
        var seen: Set<String> = []
        var shared: Set<String> = []
        for name in names {
            guard let stem = Self.stem(of: name) else { continue }
            if !seen.insert(stem).inserted { shared.insert(stem) }
        }
        sharedStems = shared
        // No config path (bytes validated on their own) names no place: "" would resolve to the working directory.
        var places: [(String, String)] = configPath.isEmpty ? [] : [(configPath, "the config file")]
        places.append((server.acme?.stateDirectory ?? ACMESettings.defaultStateDirectory, "the ACME state folder (server.tls.acme.stateDirectory)"))
        if let state = server.stateDirectory { places.append((state, "the state folder (server.stateDirectory)")) }
        if let tls = server.tls {
            places += [(tls.certificateFile, "server.tls.certificateFile"), (tls.privateKeyFile, "server.tls.privateKeyFile")]
        }
        let top = (topLevel.staticFiles ?? StaticFileSettings(), topLevel.callLinks ?? CallLinkSettings())
        for (whose, staticFiles, callLinks) in [("the top level's", top.0, top.1)] + sites.map({ ("\($0.path)'s", $0.staticFiles, $0.callLinks) }) {
            places += [(staticFiles.root, "\(whose) static folder (\(staticFiles.root))"),
                       (callLinks.template, "\(whose) page template (\(callLinks.template))"),
                       (callLinks.locales, "\(whose) locale folder (\(callLinks.locales))")]
        }
        // Each place once: a thousand operator sites of one folder are one place.
        var resolved: Set<String> = []
        self.places = places.compactMap { path, what in
            let target = FileSystem.resolvingSymlinks(path)
            return resolved.insert(target).inserted ? SiteFileFolder.Place(path: target, what: what) : nil
        }
    }

    /// The folder of the file `name`.
    func folder(for name: String) -> SiteFileFolder {
        let stem = Self.stem(of: name)
        let problem: String? = switch stem {
        case nil: "the file name \(pattern.shown(name)) has no extension, so the file has no folder of its own; name it \(name).json"
        case let stem? where sharedStems.contains(stem): "another site file's name without its extension is also \"\(stem)\", so neither has a folder of its own; rename one"
        default: nil
        }
        let folderName = stem ?? name
        return SiteFileFolder(path: pattern.path(of: folderName), shown: pattern.shown(folderName) + "/", problem: problem, places: places)
    }

    /// `acme` for `acme.json`; nil for a name without an extension.
    static func stem(of name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return String(name[..<dot])
    }
}
