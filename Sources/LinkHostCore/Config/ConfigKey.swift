/// One key of the config file, as `ConfigKeyTable` lists it: the one place a key is declared.
///
/// The readers take their lists of allowed keys from the table, `config/linkhost.schema.json` is checked
/// against it in both directions, and docs/configuration.md is generated from it (`make config-doc`), so
/// a key cannot be known to one of them and missing from another (`ConfigKeyTableTests`).
public struct ConfigKey: Sendable, Equatable {
    /// What a SIGHUP does with a changed value (README, "Reload"; `ReloadPolicy` is checked against it).
    public enum Reload: String, Sendable {
        /// The new value serves from the next snapshot or daemon on.
        case applied
        /// A change refuses the whole reload: the value is used only at start.
        case restart
    }

    /// How a site (an entry of `sites`) gets the key when it does not write it.
    public enum Inheritance: String, Sendable {
        /// Not a site-level key: the server, observability, the file itself.
        case topLevelOnly
        /// A site that leaves the key out gets the top level's value, even when it writes the key's section;
        /// `null` in the site clears it (the default, or none).
        case byKey
        /// Comes with its section: a site that writes the section gets the key's default unless it writes
        /// the key too; a site that leaves the section out gets the top level's. These keys name something
        /// of the top level's own (its apps, its origin, its rules), which is wrong for another site.
        case withSection
        /// An element of a list (`apps`, `android`): a site's list replaces the top level's whole.
        case wholeList
        /// A key of a `sites` entry itself; nothing to inherit.
        case siteOnly
    }

    /// The dotted path, `[]` for the elements of an array: `server.port`, `apps[].teamID`.
    public let path: String
    /// The JSON type and range, in words, e.g. `integer 0–65535`.
    public let type: String
    /// The default as JSON text (what the schema's `default` must say), or nil when the schema states none.
    public let defaultJSON: String?
    /// The default in words, for the README, when it is not simply `defaultJSON` (or there is none).
    public let defaultNote: String?
    /// What a reload does with a change.
    public let reload: Reload
    /// How a site inherits it.
    public let inheritance: Inheritance
    /// One line of documentation: what it does, in the README's words.
    public let doc: String

    /// A row of the table.
    init(_ path: String, _ type: String, default defaultJSON: String? = nil, note defaultNote: String? = nil,
         reload: Reload = .applied, site inheritance: Inheritance, _ doc: String) {
        self.path = path
        self.type = type
        self.defaultJSON = defaultJSON
        self.defaultNote = defaultNote
        self.reload = reload
        self.inheritance = inheritance
        self.doc = doc
    }

    /// The key's own name, the last part of its path: `teamID` for `apps[].teamID`.
    public var name: String {
        guard let dot = path.lastIndex(of: ".") else { return path }
        return String(path[path.index(after: dot)...])
    }

    /// The path of the object the key is a member of: `apps[]` for `apps[].teamID`, empty at the top level.
    public var parent: String {
        guard let dot = path.lastIndex(of: ".") else { return "" }
        return String(path[..<dot])
    }
}

/// Lookups over `ConfigKeyTable.rows`, computed once: what the readers and the tests ask of the table.
public enum ConfigKeys {
    /// Every key, in the table's order.
    public static let all: [ConfigKey] = ConfigKeyTable.rows

    private static let membersByParent: [String: [String]] = {
        var members: [String: [String]] = [:]
        for key in all { members[key.parent, default: []].append(key.name) }
        return members
    }()

    private static let byPath: [String: ConfigKey] = Dictionary(all.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

    /// The member names an object at `parent` allows (`""` the top level, `server.tls`, `apps[]`).
    public static func members(of parent: String) -> [String] {
        membersByParent[parent] ?? []
    }

    /// The row of `path`, if the table has one.
    public static func key(_ path: String) -> ConfigKey? {
        byPath[path]
    }

    /// The top-level keys a `sites` entry may also write: its sections, each inherited as the table says.
    public static let siteSections: [String] = all.filter { $0.parent.isEmpty && $0.inheritance != .topLevelOnly }.map(\.path)

    private static let inheritedBySection: [String: [String]] = {
        var members: [String: [String]] = [:]
        for key in all where key.inheritance == .byKey { members[key.parent, default: []].append(key.name) }
        return members
    }()

    /// The members of `section` (`callLinks`, `aasa`, `static`) a site inherits one by one.
    public static func inheritedByKey(in section: String) -> [String] {
        inheritedBySection[section] ?? []
    }

    /// The whole key table, one row per key (docs/configuration.md has it by section: `ConfigKeyDocumentation`).
    public static var markdown: String { markdown(of: all) }

    /// A Markdown table of `keys`, one row each.
    public static func markdown(of keys: [ConfigKey]) -> String {
        var text = "| key | type | default | on reload | in a site | meaning |\n|---|---|---|---|---|---|\n"
        for key in keys {
            var defaultText = key.defaultJSON.map { "`\($0)`" } ?? ""
            if let note = key.defaultNote { defaultText += defaultText.isEmpty ? note : " (\(note))" }
            if defaultText.isEmpty { defaultText = "none" }
            let site: String
            switch key.inheritance {
            case .topLevelOnly: site = "—"
            case .byKey: site = "inherited by key"
            case .withSection: site = "with its section"
            case .wholeList: site = "the whole list"
            case .siteOnly: site = "its own"
            }
            let reload = key.reload == .applied ? "applied" : "restart"
            text += "| `\(key.path)` | \(key.type) | \(defaultText) | \(reload) | \(site) | \(key.doc.replacingPipes) |\n"
        }
        return text
    }
}

extension String {
    /// The text with `|` escaped, for a Markdown table cell.
    fileprivate var replacingPipes: String {
        var result = ""
        for character in self { result += character == "|" ? "\\|" : String(character) }
        return result
    }
}
