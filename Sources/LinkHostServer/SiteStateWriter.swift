import LinkHostCore
import LinkHostFiles
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Keeps `server.stateDirectory`'s record of the site files (`SiteState`) in step with the snapshot serving:
/// after each install, the kept copy of each site whose bytes changed, the removal of those no longer served,
/// and the record when it changed. 10,000 tenants with one changed cost one copy and one record, not 10,000.
///
/// A copy is the site file's bytes read again and kept only when they are still the ones that loaded (their
/// size and hash), so a file changed since is never kept as a version that loaded. Each file is a new one
/// renamed into place inside the trusted folder (`TrustedFolder.replace`: never a half-written file), under
/// an `flock` so replicas sharing the volume take turns; the copies are flushed to disk together (one
/// `syncfs`) before the record naming them is written and flushed, and a copy whose bytes are not the
/// record's is never used, so a power cut leaves an older good state, never a torn one. A failure is one error line (LH141) per distinct
/// problem; serving goes on.
final class SiteStateWriter: Sendable {
    private let directory: String
    private let written: Mutex<Written>

    /// What is in the folder, as this process last left it.
    private struct Written {
        /// Each kept copy's digest, by file name.
        var kept: [String: String]
        /// The digest of the record's bytes last written (or read).
        var record: String
        /// The last problem reported, so a problem that stays is said once.
        var problem: String?
    }

    /// A writer for `directory`, starting from the record there (the one the start read).
    init(directory: String) {
        self.directory = directory
        let state = SiteState.read(directory: directory).0
        let kept = (state?.entries ?? [:]).compactMapValues { $0.digest.isEmpty ? nil : $0.digest }
        written = Mutex(Written(kept: kept, record: state.map { SiteFileChanges.digest(SiteState.encode($0.entries)) } ?? ""))
    }

    /// Brings the folder in step with `config`, the config of the snapshot now serving.
    func write(_ config: Config) {
        guard let pattern = config.siteFiles else { return }
        written.withLock { written in
            do throws(TrustedFolder.Problem) {
                let folder = try TrustedFolder.open(directory, create: true).subfolder(SiteState.folderName, create: true)
                let lock = try folder.openLock("lock")
                defer { close(lock) }
                while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
                defer { flock(lock, LOCK_UN) }
                var problems: [String] = []
                var (kept, removed) = (0, 0)
                var entries: [String: SiteState.Entry] = [:]
                for site in config.sites {
                    guard let name = site.file else { continue }
                    var entry = SiteState.Entry(site)
                    if written.kept[name] != entry.digest {
                        do throws(TrustedFolder.Problem) {
                            if let bytes = try? FileSystem.readFile(pattern.path(of: name), maximumSize: SiteFilePattern.maximumFileSize), SiteFileChanges.digest(bytes) == entry.digest {
                                try folder.replace(SiteState.keptName(name), with: bytes, durable: false)
                                written.kept[name] = entry.digest
                                kept += 1
                            }
                        } catch {
                            problems.append(error.description)
                        }
                        // Changed again since it loaded, or not writable: the record names the copy that is there.
                        entry.digest = written.kept[name] ?? ""
                    }
                    entries[name] = entry
                }
                for name in written.kept.keys where entries[name] == nil {
                    folder.remove(SiteState.keptName(name))
                    written.kept[name] = nil
                    removed += 1
                }
                let record = SiteState.encode(entries)
                let digest = SiteFileChanges.digest(record)
                if digest != written.record {
                    // The copies on disk before the record that names them; one flush for all of them.
                    if kept > 0 { try folder.syncFileSystem() }
                    try folder.replace(SiteState.recordName, with: record)
                    written.record = digest
                    Lifecycle.info("server.stateDirectory: kept \(kept) site file\(kept == 1 ? "" : "s") as last good, removed \(removed); the record holds \(entries.count) (\(folder.path))")
                }
                if let first = problems.first { report("\(first)\(problems.count > 1 ? " (and \(problems.count - 1) more)" : "")", &written) } else { written.problem = nil }
            } catch {
                report(error.description, &written)
            }
        }
    }

    /// Says a problem once, until another takes its place or the writes succeed again.
    private func report(_ problem: String, _ written: inout Written) {
        guard problem != written.problem else { return }
        written.problem = problem
        Lifecycle.error("LH141 server.stateDirectory: \(problem); the site files' last good versions are not all kept there (serving goes on)")
    }
}
