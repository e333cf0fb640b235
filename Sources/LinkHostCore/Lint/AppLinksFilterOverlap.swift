/// Verified App Links filters of one activity that say the same thing twice (LH708).
///
/// Two `autoVerify` filters claiming one host with the same paths add nothing: Android verifies the host
/// once for the app (it collects the hosts of every verified filter), so the second is a leftover, most
/// often of a config that served the host from two places (the top level's `baseURL` and a site listing the
/// same host). Filters for one host with different paths are a deliberate split and are left alone.
enum AppLinksFilterOverlap {
    /// One warning per host claimed, with the same paths, by a second verified filter of the same activity.
    static func diagnostics(_ file: AndroidManifestFile) -> [LintDiagnostic] {
        var found: [LintDiagnostic] = []
        var seen: [String: AndroidManifestFile.IntentFilter] = [:]
        for filter in file.filters where filter.autoVerify && filter.handlesWebLinks {
            let paths = filter.paths.map { "\($0.attribute)=\($0.value)" }.sorted().joined(separator: " ")
            for host in filter.hosts {
                let key = "\(filter.activity)\u{0}\(host)\u{0}\(paths)"
                guard let first = seen[key] else {
                    seen[key] = filter
                    continue
                }
                found.append(LintDiagnostic(.lh708, .warning, path: "\(filter.activity) <intent-filter> (line \(filter.line))",
                    "claims \(host) with the same paths as the verified filter at line \(first.line); keep one filter per host (linkhost print android-manifest --app PACKAGE writes each host once)"))
            }
        }
        return found
    }
}
