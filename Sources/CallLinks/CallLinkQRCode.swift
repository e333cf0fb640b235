/// A call link's QR-code image lives beside the link: its path with `/qr.svg` appended and its query
/// kept, for every link shape (`/call/abc/qr.svg?type=video`, `/call/video:abc/qr.svg`,
/// `/join/qr.svg?call_id=abc`), so the image is checked exactly as the page is.
extension CallLinkMatcher {
    /// The path suffix that names a call link's QR-code image.
    public static let qrCodeSuffix = "/qr.svg"
    /// The path suffix that names the same image as PNG, for mail and calendar clients that show no SVG.
    public static let qrCodePNGSuffix = "/qr.png"

    /// The call whose QR-code image `path` and `query` name: the path without the suffix must be a call
    /// link with the same query. Match pages first: a template may itself end in a `qr.svg` segment.
    @inlinable
    public func matchQRCode<Path: BidirectionalCollection<UInt8>>(path: Path, query: (String) -> String?, suffix name: String = qrCodeSuffix) -> (link: CallLink, template: Int)? {
        let suffix = name.utf8
        // Compared forwards from where the suffix would start: reversing both sides allocated on every request.
        guard path.count > suffix.count else { return nil }
        let linkPath = path.dropLast(suffix.count)
        guard path[linkPath.endIndex...].elementsEqual(suffix) else { return nil }
        // The page's one trailing slash is not a second name for its image: `/call/abc//qr.svg` is no link.
        guard linkPath.last != UInt8(ascii: "/") else { return nil }
        return match(path: linkPath, query: query)
    }

    /// The path and query of a call's QR-code image, beside its canonical link: `/call/abc/qr.svg?type=video`.
    public func canonicalQRCodePath(for link: CallLink) -> String {
        let canonical = canonicalPath(for: link)
        guard let question = canonical.firstIndex(of: "?") else { return canonical + Self.qrCodeSuffix }
        return canonical[..<question] + Self.qrCodeSuffix + canonical[question...]
    }
}
