import LinkHostFiles

/// Loads the static file tree into memory at start and on reload, so no request touches the disk.
///
/// Serving only what was loaded makes traversal impossible by construction: a request path is a
/// dictionary key, never a file name.
enum StaticFiles {
    /// Guards against a mistaken root such as "/" filling memory.
    static let maximumFileCount = 10_000
    /// Largest single file loaded.
    static let maximumFileSize = 16 * 1024 * 1024
    /// Largest total loaded.
    static let maximumTotalSize = 128 * 1024 * 1024

    /// One file found under the root.
    struct File {
        /// URL path, decoded, starting with "/".
        let urlPath: String
        /// Path on disk, symbolic links resolved.
        let diskPath: String
        /// `diskPath` relative to the resolved root, which is how it is opened.
        let relativePath: String
    }

    /// Lists servable files under `root`: no dotfiles except `.well-known/`, no symlink leaving the root,
    /// nothing in `excluded` (absolute disk paths such as the page template).
    ///
    /// `setting` is the config path of the `static` section the root comes from, for errors.
    static func list(root: String, setting: String, excluded: Set<String>) throws(ConfigError) -> [File] {
        let rootSetting = setting + ".root"
        guard FileSystem.isDirectory(root) else {
            throw ConfigError(source: root, diagnostics: [ConfigDiagnostic(.lh114, path: rootSetting, message: "\"\(root)\" is not a folder that can be read\(BuiltInPublic.hint(for: root, key: .staticRoot))")])
        }
        let resolvedRoot = resolve(root)
        var files: [File] = []
        var pending = [(disk: resolvedRoot, url: "")]
        while let folder = pending.popLast() {
            let names = (FileSystem.contentsOfDirectory(folder.disk) ?? []).sorted()
            for name in names {
                if name.hasPrefix(".") && !(folder.url.isEmpty && name == ".well-known") { continue }
                let disk = folder.disk + "/" + name
                let target = resolve(disk)
                guard target == resolvedRoot || target.hasPrefix(resolvedRoot + "/") else { continue }
                if excluded.contains(target) { continue }
                if FileSystem.isDirectory(target) {
                    pending.append((disk, folder.url + "/" + name))
                } else {
                    files.append(File(urlPath: folder.url + "/" + name, diskPath: target, relativePath: String(target.dropFirst(resolvedRoot.count + 1))))
                }
                if files.count > maximumFileCount {
                    throw ConfigError(source: root, diagnostics: [ConfigDiagnostic(.lh114, path: rootSetting, message: "\"\(root)\" holds more than \(maximumFileCount) files; point it at the site's own folder")])
                }
            }
        }
        return files.sorted { $0.urlPath < $1.urlPath }
    }

    /// Absolute path with symbolic links resolved.
    static func resolve(_ path: String) -> String {
        FileSystem.resolvingSymlinks(path)
    }

    /// Loads every listed file as a prepared resource with its URL path; `/` and `/dir/` stand for their index.html.
    ///
    /// The listing resolves links and keeps only what stays inside the root; the reads then never follow a
    /// link at all. Each file is opened relative to the root's descriptor, one component of its resolved
    /// path at a time with O_NOFOLLOW, so a file swapped for a link (to a private key, say) between the
    /// listing and the read fails the load, which keeps the snapshot it had, instead of serving the key.
    /// The default root with nothing there on disk is the built-in folder (`BuiltInPublic`), loaded the same way.
    static func load(settings: StaticFileSettings, setting: String, excluded: Set<String>, into prepared: inout PreparedResponses) throws(ConfigError) -> [(path: String, resource: Resource)] {
        let rootSetting = setting + ".root"
        var resources: [(path: String, resource: Resource)] = []
        if let builtIn = BuiltInPublic.staticFiles(standingIn: settings.root) {
            for file in builtIn { add(file.urlPath, file.bytes, settings: settings, to: &resources, prepared: &prepared) }
            return resources
        }
        var total = 0
        let files = try list(root: settings.root, setting: setting, excluded: excluded)
        guard let rootFolder = LinkFreeFolder(resolve(settings.root)) else {
            throw ConfigError(source: settings.root, diagnostics: [ConfigDiagnostic(.lh114, path: rootSetting, message: "\"\(settings.root)\" changed while it was read (a folder on its path was replaced); try the reload again")])
        }
        for file in files {
            let bytes: [UInt8]
            do throws(FileSystem.ReadError) {
                // The limit is checked with fstat before reading: a 1 GB (even sparse) file is refused unread.
                bytes = try rootFolder.read(file.relativePath, shownAs: file.diskPath, maximumSize: min(maximumFileSize, maximumTotalSize - total))
            } catch {
                let message = error.tooLarge
                    ? "\(file.diskPath) \(error): files larger than \(maximumFileSize / 1_048_576) MiB each or \(maximumTotalSize / 1_048_576) MiB in all are not loaded; serve them from a CDN"
                    : "\(file.diskPath) \(error)"
                throw ConfigError(source: settings.root, diagnostics: [ConfigDiagnostic(.lh114, path: rootSetting, message: message)])
            }
            total += bytes.count
            add(file.urlPath, bytes, settings: settings, to: &resources, prepared: &prepared)
        }
        return resources
    }

    /// One file as a prepared resource at `urlPath` (and at its folder's path, for an `index.html`).
    private static func add(_ urlPath: String, _ bytes: [UInt8], settings: StaticFileSettings, to resources: inout [(path: String, resource: Resource)],
                            prepared: inout PreparedResponses) {
        let type = MediaType.forFile(named: urlPath)
        // HTML pages get the same lock-down as the call page: no scripts, no framing, no referrer.
        let extra = type.hasPrefix("text/html") ? CallPage.securityHeaders : []
        let resource = prepared.resource(body: bytes, contentType: type, maxAge: settings.cacheMaxAge, route: .staticFile, extraHeaders: extra)
        resources.append((urlPath, resource))
        if urlPath.hasSuffix("/index.html") {
            resources.append((String(urlPath.dropLast("index.html".count)), resource))
        }
    }
}
