import LinkHostJSON

/// Settings of a site's static file tree.
public struct StaticFileSettings: Sendable, Equatable, Hashable {
    /// Folder of static files, relative to the working directory unless absolute. The default, with nothing
    /// at that path, is the built-in folder (`BuiltInPublic`).
    public var root: String = BuiltInPublic.Key.staticRoot.defaultPath
    /// `Cache-Control: max-age` of static files, in seconds.
    public var cacheMaxAge: Int = 300

    /// What a site's own `static` takes from the top level's when it leaves the keys out.
    static let inheritedByKey: [InheritedKeys<StaticFileSettings>] = [
        InheritedKeys(keys: ["root"]) { $0.root = $1.root },
        InheritedKeys(keys: ["cacheMaxAge"]) { $0.cacheMaxAge = $1.cacheMaxAge },
    ]
}

/// Reads a `static` section (of the top level or of one site).
enum StaticFileSettingsReader {
    static func read(_ value: JSONValue?, at path: String, reader: inout ConfigReader) -> StaticFileSettings {
        var settings = StaticFileSettings()
        guard let value, let object = reader.object(value, at: path, allowed: ConfigKeys.members(of: "static")) else { return settings }
        if let root = reader.string(object, "root", at: path, expected: "a folder path such as \"public\"", code: .lh114, rule: { $0.isEmpty || $0.utf8.contains(0) ? "is not a folder path" : nil }) {
            settings.root = root
        }
        settings.cacheMaxAge = reader.integer(object, "cacheMaxAge", at: path, in: 0...31_536_000) ?? settings.cacheMaxAge
        return settings
    }
}
