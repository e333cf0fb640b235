import LinkHostCheck
import LinkHostCore

/// What `check --config` expects of each host: the files the config generates for the host's site and what
/// they must do for its apps. The site is found as the server finds it (one `SiteDirectory` for the run, not
/// a directory per host), and a site's files are generated once however many of its hosts are checked.
final class CheckExpectedFiles {
    private let config: Config
    private let directory: SiteDirectory
    private var files: [Int: (aasa: [UInt8]?, assetLinks: [UInt8]?)] = [:]

    init(_ config: Config) {
        self.config = config
        directory = SiteDirectory(sites: config.sites)
    }

    /// Sets the expected files and the expectations of `options`' host.
    func fill(_ options: inout DeploymentCheckOptions) {
        let origin = options.origin
        let index = directory.siteIndex(forAuthority: origin.authority.utf8)
        let site = config.sites[index]
        let generated = files[index] ?? (site.apps.isEmpty ? nil : AASAGenerator.bytes(for: site),
                                         site.android.isEmpty ? nil : AssetLinksGenerator.bytes(for: site))
        files[index] = generated
        options.expectedAASA = generated.aasa
        options.expectedAssetLinks = generated.assetLinks
        options.expectations = HostExpectations(site: site, origin: "\(origin.scheme)://\(origin.authority)")
    }
}
