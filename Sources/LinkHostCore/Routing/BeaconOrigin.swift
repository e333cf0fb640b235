/// Whether a beacon comes from the call page's own origin (issue 30, item 8): a page elsewhere must not move
/// a site's counters through its visitors' browsers.
///
/// A browser says where a request comes from in `Sec-Fetch-Site` (Fetch Metadata, sent to potentially
/// trustworthy origins: HTTPS and loopback): `same-origin`, or `none` for one the user started, is the page's
/// own; `same-site` and `cross-site` are not. Without it, `Origin` decides: one of the site's own hosts (or
/// the request's own Host) is the page's. The call page is sent with `Referrer-Policy: no-referrer`, and the
/// Fetch standard (§3.1, "append a request `Origin` header") then makes a POST's `Origin` `null` even for its
/// own beacons; a browser too old for `Sec-Fetch-Site` thus sends `null`, which is let through, as is a
/// request with neither field (no browser's cross-site request lacks both; a script can write either anyway,
/// which the per-client share bounds).
package enum BeaconOrigin {
    /// True when the fields say the beacon comes from `site`'s own pages. `host` is the request's Host field.
    package static func isOwn(fetchSite: String?, origin: String?, host: String?, site: Site, in snapshot: Snapshot) -> Bool {
        if let fetchSite {
            let value = fetchSite.lowercased()
            return value == "same-origin" || value == "none"
        }
        guard let origin, origin != "null" else { return true }
        guard let authority = Self.authority(ofOrigin: origin) else { return false }
        if let host, authority == host.lowercased() { return true }
        let originHost = HostName.host(ofAuthority: Array(authority.utf8))
        guard !originHost.isEmpty else { return false }
        if let base = site.config.callLinks.baseURL, Self.authority(ofOrigin: base).map({ HostName.host(ofAuthority: Array($0.utf8)).elementsEqual(originHost) }) == true {
            return true
        }
        // A host the site lists (a tenant's, wildcards included) or one of the default site's certified names.
        let named = snapshot.site(forAuthority: Array(authority.utf8))
        return named.index == site.index && snapshot.namesHost(originHost, site: named)
    }

    /// `host:port` of `https://host:port` (lowercase), nil when the text is no origin.
    static func authority(ofOrigin origin: String) -> String? {
        let lowered = origin.lowercased()
        for scheme in ["https://", "http://"] where lowered.hasPrefix(scheme) {
            var rest = lowered.dropFirst(scheme.count)
            if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
            return rest.isEmpty ? nil : String(rest)
        }
        return nil
    }
}
