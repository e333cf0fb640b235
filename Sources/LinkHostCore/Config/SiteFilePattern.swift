import LinkHostFiles

/// `siteFiles`: which files each hold one site, written as a folder and a name pattern, e.g. `sites.d/*.json`.
///
/// The syntax is a small subset of POSIX `glob(3)`, kept so that one pattern means one folder to list: the
/// folder part (relative to the config file's folder unless absolute) is a plain path; only the last part
/// may hold `*` (any run of characters, none included) and `?` (exactly one). Brackets and `**` are not
/// supported. A name starting with `.` never matches, so the `..data` link and the timestamped `..2026_…`
/// folders of a Kubernetes ConfigMap mount are skipped and only its per-key links (`acme.json`) count.
/// Files join in the byte order of their names.
public struct SiteFilePattern: Sendable, Equatable {
    /// The largest site file a load reads (1 MiB, a ConfigMap's limit).
    public static var maximumFileSize: Int { SiteFiles.maximumFileSize }

    /// The pattern as written in the config.
    public let written: String
    /// The folder to list, resolved against the config file's folder.
    public let folder: String
    /// The folder as written (empty for the config's own folder), for messages: `sites.d/acme.json`.
    public let shownFolder: String
    /// The pattern of the names in that folder.
    public let name: String

    /// Reads `written` against the folder of `configPath`; nil with the reason when it is not a usable pattern.
    static func parse(_ written: String, configPath: String) -> (pattern: SiteFilePattern?, problem: String?) {
        let parts = written.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = parts.last, !last.isEmpty else { return (nil, "ends in \"/\"; expected a name pattern such as \"sites.d/*.json\"") }
        let folderParts = parts.dropLast()
        if folderParts.contains(where: { $0.contains("*") || $0.contains("?") }) {
            return (nil, "has a wildcard before its last \"/\"; only the file name may hold * and ?, e.g. \"sites.d/*.json\"")
        }
        if last.contains("[") || last.contains("]") || last.contains("**") {
            return (nil, "uses [ ], or **; only * and ? are supported, in the file name")
        }
        let shownFolder = folderParts.joined(separator: "/")
        let base: String
        if written.hasPrefix("/") {
            base = shownFolder.isEmpty ? "/" : shownFolder
        } else {
            let configFolder = configPath.contains("/") ? String(configPath[..<configPath.lastIndex(of: "/")!]) : "."
            let root = configFolder.isEmpty ? "/" : configFolder
            base = shownFolder.isEmpty ? root : root + "/" + shownFolder
        }
        return (SiteFilePattern(written: written, folder: base, shownFolder: shownFolder, name: String(last)), nil)
    }

    /// Whether a name in the folder is one of the site files.
    public func matches(_ candidate: String) -> Bool {
        guard !candidate.hasPrefix(".") else { return false }
        return Self.glob(Array(name.utf8)[...], Array(candidate.utf8)[...])
    }

    /// The matching names in byte order; nil when the folder cannot be listed.
    public func fileNames() -> [String]? {
        FileSystem.contentsOfDirectory(folder).map { names in
            names.filter(matches).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }

    /// The path of a matching name, to read.
    public func path(of file: String) -> String {
        folder.hasSuffix("/") ? folder + file : folder + "/" + file
    }

    /// A matching name as people see it, `sites.d/acme.json`.
    public func shown(_ file: String) -> String {
        shownFolder.isEmpty ? file : shownFolder + "/" + file
    }

    /// A file name for a log line: control bytes as `?`, so a name cannot write a line of its own.
    package static func printable(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
    }

    /// `*` and `?` over bytes; a `*` takes the shortest run first and grows on a mismatch (one step back
    /// to the last `*` is enough: no pattern here has anything but literals between stars).
    private static func glob(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex, t = text.startIndex
        var star: (pattern: Int, text: Int)?
        while t < text.endIndex {
            if p < pattern.endIndex, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1; t += 1
            } else if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
                star = (p, t); p += 1
            } else if let last = star {
                star = (last.pattern, last.text + 1)
                p = last.pattern + 1; t = last.text + 1
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }
}
