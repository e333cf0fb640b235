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
/// resolves to and what that file is (`realpath`, then `stat`: device, inode, size, modification time) sees
/// every kind of replacement the same way, on any file system (overlay, NFS, a ConfigMap's tmpfs) and any
/// Unix, for one `realpath` and one `stat` a second.
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

        /// Reads it now; a path that does not resolve gets an empty fingerprint (a change like any other).
        static func of(_ path: String) -> Fingerprint {
            var fingerprint = Fingerprint(target: "")
            if let resolved = realpath(path, nil) {
                fingerprint.target = String(cString: resolved)
                free(resolved)
            }
            var info = stat()
            guard stat(path, &info) == 0 else { return fingerprint }
            fingerprint.device = UInt64(info.st_dev)
            fingerprint.inode = UInt64(info.st_ino)
            fingerprint.size = Int64(info.st_size)
            fingerprint.modifiedSeconds = Int(info.st_mtim.tv_sec)
            fingerprint.modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
            return fingerprint
        }
    }

    /// Seconds between polls.
    static let interval: UInt32 = 1

    /// Starts the watcher's thread. It runs for the life of the process and reads `server.watchConfig` from
    /// the snapshot serving at each poll, so a reload turns it on or off; `loaded` is the file as it was
    /// before the first load read it, so a change during the start is not missed.
    static func start(path: String, loaded: Fingerprint, service: Service, reloader: Reloader) {
        OwnThread.start("linkhost config watch") {
            var acted = loaded
            var previous = loaded
            var watching = service.snapshot.config.server.watchConfig
            while true {
                sleep(interval)
                guard service.snapshot.config.server.watchConfig else {
                    watching = false
                    continue
                }
                let now = Fingerprint.of(path)
                defer { previous = now }
                // Just turned on by a reload, which read the file as it is now.
                guard watching else {
                    watching = true
                    acted = now
                    continue
                }
                guard now != acted, now == previous else { continue }
                acted = now
                let what = now.target.isEmpty ? "is gone" : "changed (now \(now.target), \(now.size) bytes)"
                Lifecycle.info("\(path) \(what): reloading (server.watchConfig)")
                reloader.request()
            }
        }
    }
}
