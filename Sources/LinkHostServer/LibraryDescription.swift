import CMicroHTTPD

/// Which libmicrohttpd this process loaded and what that changes, in one start-up line: the binary is
/// built against one version's headers and may run on another (0.9.75 on Debian 12, 1.0.1 in the
/// Debian 13 image), and the strict request parser exists only from 1.0 on.
enum LibraryDescription {
    /// "libmicrohttpd 1.0.1: client discipline level 1 …; header deadline 10 s".
    static func line(headerTimeout: Int) -> String {
        let version = String(cString: MHD_get_version())
        let level = cmhd_client_discipline_level()
        let parsing = level == CMHD_NO_DISCIPLINE_LEVEL
            ? "its one request parser (no client discipline levels before 1.0; linkhost's own ambiguity check still applies)"
            : "client discipline level \(level) (strict RFC 9112 parsing) plus linkhost's own ambiguity check"
        let deadline = headerTimeout > 0 ? "header deadline \(headerTimeout) s" : "no header deadline (server.headerTimeout 0)"
        return "libmicrohttpd \(version): \(parsing); \(deadline)"
    }
}
