import LinkHostFiles

/// The shipped `public/` folder compiled into the binary (docs/call-page.md, "The page built into linkhost"),
/// so that `linkhost` alone, in a folder with nothing beside it, validates and serves the call page, its
/// script, styles, locales, home page and not-found page.
///
/// The rule is per key and read at load: a key whose value is its default path (`static.root` "public",
/// `callLinks.template` "public/call.html", `callLinks.locales` "public/locales") reads the built-in copy when
/// nothing at all is at that path on disk. Anything there — the folder, the file, even a dangling link — is
/// read as before, errors included, so a `public/` beside the binary overrides the built-in page whole and
/// any other path the config names is never silently replaced. A site that names no path inherits the top
/// level's value, and with it the same choice.
///
/// The files' text lives in `BuiltInPublic+*.swift`, generated from `public/` by `make builtin-public`;
/// `BuiltInPublicTests` fails while the two differ.
package enum BuiltInPublic {
    /// The keys whose default path the built-in files stand in for.
    package enum Key: Sendable {
        /// `static.root`: the folder of static files.
        case staticRoot
        /// `callLinks.template`: the call page's template.
        case template
        /// `callLinks.locales`: the folder of the page's locale files.
        case locales

        /// The key as a config names it.
        package var name: String {
            switch self {
            case .staticRoot: "static.root"
            case .template: "callLinks.template"
            case .locales: "callLinks.locales"
            }
        }

        /// The key's default value, a path relative to the working directory.
        package var defaultPath: String {
            switch self {
            case .staticRoot: "public"
            case .template: "public/call.html"
            case .locales: "public/locales"
            }
        }
    }

    /// True when `path`, the value of `key`, is read from the binary: it is the key's default and nothing is there.
    package static func standsIn(for path: String, key: Key) -> Bool {
        path == key.defaultPath && !FileSystem.hasEntry(path)
    }

    /// What an error reading `path`, the value of `key`, adds: the way to the built-in copy.
    static func hint(for path: String, key: Key) -> String {
        path == key.defaultPath
            ? "; with nothing at \"\(path)\", linkhost uses the copy built into it"
            : "; leave \(key.name) out of the config to use the default, the copy built into linkhost"
    }

    /// The template's bytes, when the built-in template stands in for `path`.
    static func template(standingIn path: String) -> [UInt8]? {
        standsIn(for: path, key: .template) ? bytes(of: "call.html") : nil
    }

    /// The locale files (`<tag>.json`, sorted by name), when the built-in folder stands in for `folder`.
    static func locales(standingIn folder: String) -> [(name: String, bytes: [UInt8])]? {
        guard standsIn(for: folder, key: .locales) else { return nil }
        let prefix = "locales/"
        return files.filter { $0.path.hasPrefix(prefix) }.map { (String($0.path.dropFirst(prefix.count)), Array($0.text.utf8)) }
    }

    /// The static files (`/call.js`, `/site.css`, …, with their URL paths), when the built-in folder stands in
    /// for `root`. The template and the locale files are the page's sources, never served as files.
    static func staticFiles(standingIn root: String) -> [(urlPath: String, bytes: [UInt8])]? {
        guard standsIn(for: root, key: .staticRoot) else { return nil }
        return files.filter { $0.path != "call.html" && !$0.path.hasPrefix("locales/") }.map { ("/" + $0.path, Array($0.text.utf8)) }
    }

    /// The built-in file at `path` (relative to `public/`), if there is one.
    private static func bytes(of path: String) -> [UInt8]? {
        files.first { $0.path == path }.map { Array($0.text.utf8) }
    }
}
