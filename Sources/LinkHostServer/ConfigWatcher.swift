import LinkHostCore
import LinkHostFiles

#if canImport(Glibc)
import Glibc
#endif

/// `server.watchConfig`: notices that the config file was replaced or changed and asks the `Reloader` for a
/// reload, which applies all of the new config or none of it, as a SIGHUP does.
///
/// It polls once a second instead of using inotify. A Kubernetes ConfigMap update never writes the file
/// linkhost opened: the kubelet writes a new timestamped folder and renames a `..data` symlink over the old
/// one, so a watch on the file sees nothing and a watch on the folder must follow the symlink chain by
/// itself; a rename over the file replaces the inode a watch was on. Asking every second what the path
/// resolves to and what that file is (`realpath`, then `stat`: device, inode, size, modification time and
/// status-change time) sees every kind of replacement the same way, on any file system (overlay, NFS, a
/// ConfigMap's tmpfs) and any Unix, for one `realpath` and one `stat` a second. The status-change time
/// (`st_ctim`) is the one a writer cannot set: a rewrite in place of the same size whose modification time
/// is put back (`touch -r`, `cp -p`, an editor that keeps it) still moves it (POSIX: write and utimensat
/// both mark it for update).
///
/// With `siteFiles`, the folder is listed at each poll too, and each matching name is `stat`ed (through its
/// link, as a ConfigMap's per-key links lead into `..data`): a file added, removed, replaced or rewritten
/// is a change like the main file's. 10,000 site files cost one folder listing and 10,000 `stat`s a second.
///
/// A change is acted on once the file has looked the same for two polls in a row, so a file still being
/// written in place is not read half-done; a replacement by rename is whole at once and is read about one
/// to two seconds after it happened.
enum ConfigWatcher {
    /// What the config path leads to, as far as a poll can tell: a new value means a new or changed file.
    struct Fingerprint: Equatable, Sendable {
        /// The path with every symlink resolved; empty when it does not resolve.
        var target: String
        var device: UInt64 = 0
        var inode: UInt64 = 0
        var size: Int64 = -1
        var modifiedSeconds: Int = 0
        var modifiedNanoseconds: Int = 0
        var changedSeconds: Int = 0
        var changedNanoseconds: Int = 0

        /// Reads it now; a path that does not resolve gets an empty fingerprint (a change like any other).
        static func of(_ path: String) -> Fingerprint {
            var fingerprint = Fingerprint(target: "")
            if let resolved = realpath(path, nil) {
                fingerprint.target = String(cString: resolved)
                free(resolved)
            }
            fingerprint.readStatus(path)
            return fingerprint
        }

        /// What `stat` says of the file the path leads to; left as it is when it says nothing.
        mutating func readStatus(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modifiedSeconds = Int(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
            changedSeconds = Int(info.st_ctim.tv_sec)
            changedNanoseconds = Int(info.st_ctim.tv_nsec)
        }
    }

    /// The site files as a poll sees them: the folder listed, and each matching name's `stat` (no `realpath`:
    /// `stat` follows the links, and a new target is a new inode).
    struct SiteFilesFingerprint: Equatable, Sendable {
        /// The pattern these were listed with; nil without `siteFiles`.
        var pattern: SiteFilePattern?
        /// Each matching name with its file's fingerprint, in name order; nil when the folder cannot be listed.
        var files: [Fingerprint]?

        /// Lists and reads them now.
        static func of(_ pattern: SiteFilePattern?) -> SiteFilesFingerprint {
            guard let pattern else { return SiteFilesFingerprint(pattern: nil, files: []) }
            let files = pattern.fileNames()?.map { name in
                var fingerprint = Fingerprint(target: name)
                fingerprint.readStatus(pattern.path(of: name))
                return fingerprint
            }
            return SiteFilesFingerprint(pattern: pattern, files: files)
        }
    }

    /// Everything a poll compares: the config file and its site files.
    struct Observation: Equatable, Sendable {
        var file: Fingerprint
        var siteFiles: SiteFilesFingerprint
    }

    /// Seconds between polls.
    static let interval: UInt32 = 1

    /// Starts the watcher's thread. It runs for the life of the process and reads `server.watchConfig` from
    /// the snapshot serving at each poll, so a reload turns it on or off; `loaded` is the file as it was
    /// before the first load read it, so a change during the start is not missed, and `loadedSiteFiles` the
    /// site files as they were just after it (their pattern is known only once the file is read).
    static func start(path: String, loaded: Fingerprint, loadedSiteFiles: SiteFilesFingerprint, service: Service, reloader: Reloader) {
        OwnThread.start("linkhost config watch") {
            var acted = Observation(file: loaded, siteFiles: loadedSiteFiles)
            var previous = acted
            var watching = service.snapshot.config.server.watchConfig
            while true {
                sleep(interval)
                let config = service.snapshot.config
                guard config.server.watchConfig else {
                    watching = false
                    continue
                }
                let now = Observation(file: Fingerprint.of(path), siteFiles: SiteFilesFingerprint.of(config.siteFiles))
                defer { previous = now }
                // Just turned on by a reload, which read the files as they are now.
                guard watching else {
                    watching = true
                    acted = now
                    continue
                }
                // A reload changed the pattern (the main file's change, already acted on): the new folder's
                // listing is where to compare from, not a change of its own.
                if now.siteFiles.pattern != acted.siteFiles.pattern { acted.siteFiles = now.siteFiles }
                guard now != acted, now == previous else { continue }
                let what: String
                if now.file != acted.file {
                    what = now.file.target.isEmpty ? "\(path) is gone" : "\(path) changed (now \(now.file.target), \(now.file.size) bytes)"
                } else if let pattern = now.siteFiles.pattern, let before = acted.siteFiles.files, let after = now.siteFiles.files {
                    let changes = Self.contentChanges(pattern, before: before, after: after, loaded: config.siteFileDigests)
                    acted = now
                    // A volume swap that changed no byte of any site file (another key of the ConfigMap): nothing to load.
                    guard !changes.isEmpty else { continue }
                    what = "site files \(pattern.written) changed (\(changes.description))"
                } else {
                    what = "site files \(config.siteFiles?.written ?? "") changed (\(Self.difference(acted.siteFiles.files, now.siteFiles.files)))"
                }
                acted = now
                Lifecycle.info("\(what): reloading (server.watchConfig)")
                reloader.request()
            }
        }
    }

    /// Which site files differ by content from the load serving (`loaded`, its `siteFileDigests`): a file whose
    /// `stat` is as it was is as loaded; any other is read and hashed as a load would (a swap of the whole
    /// volume reads each file once, then names only those whose bytes changed).
    static func contentChanges(_ pattern: SiteFilePattern, before: [Fingerprint], after: [Fingerprint], loaded baseline: [String: String]) -> SiteFileChanges {
        let old = Dictionary(before.map { ($0.target, $0) }, uniquingKeysWith: { first, _ in first })
        var now: [String: String] = [:]
        for file in after {
            if old[file.target] == file, let digest = baseline[file.target] {
                now[file.target] = digest
                continue
            }
            let bytes = try? FileSystem.readFile(pattern.path(of: file.target), maximumSize: SiteFilePattern.maximumFileSize)
            now[file.target] = bytes.map(SiteFileChanges.digest) ?? "unreadable"
        }
        return SiteFileChanges(before: baseline, after: now)
    }

    /// "acme.json added, brand.json changed": which site files differ, at most three named.
    static func difference(_ before: [Fingerprint]?, _ after: [Fingerprint]?) -> String {
        guard let before, let after else { return after == nil ? "the folder cannot be listed" : "the folder can be listed again" }
        let old = Dictionary(before.map { ($0.target, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.map { ($0.target, $0) }, uniquingKeysWith: { first, _ in first })
        var words: [String] = []
        for file in after where old[file.target] != file { words.append("\(SiteFilePattern.printable(file.target)) \(old[file.target] == nil ? "added" : "changed")") }
        for file in before where new[file.target] == nil { words.append("\(SiteFilePattern.printable(file.target)) removed") }
        return words.count <= 3 ? words.joined(separator: ", ") : words.prefix(3).joined(separator: ", ") + " and \(words.count - 3) more"
    }
}
