/// Content types of static files, by file extension.
public enum MediaType {
    /// The type sent for files with an unknown extension; browsers will not sniff it (nosniff).
    public static let fallback = "application/octet-stream"

    private static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "json": "application/json", "map": "application/json", "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8", "xml": "application/xml", "csv": "text/csv; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "pdf": "application/pdf", "wasm": "application/wasm", "mp4": "video/mp4", "webm": "video/webm",
    ]

    /// The content type for a file name, by its last extension (case-insensitive).
    public static func forFile(named name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return fallback }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? fallback
    }
}
