import CallLinks
import LinkHostJSON

/// Which links are call links, and what their page shows.
public struct CallLinkSettings: Sendable, Equatable {
    /// The link shapes in order, the first canonical, with the default call type.
    public var links: CallLinkMatcher
    /// Where each template of `links` was written, inside the `callLinks` section: `links[2]`, or `paths[0]`
    /// for the two shapes a `paths` entry stands for.
    public var linkSources: [String]
    /// The page template, relative to the working directory unless absolute; never served as a file. The
    /// default, with nothing at that path, is the built-in template (`BuiltInPublic`).
    public var template: String = BuiltInPublic.Key.template.defaultPath
    /// Folder of the page's locale files, `<tag>.json` each; relative to the working directory unless absolute.
    /// The default, with nothing at that path, is the built-in folder.
    public var locales: String = BuiltInPublic.Key.locales.defaultPath
    /// The locale a visitor gets when `Accept-Language` names none of the site's, and whose strings fill gaps.
    public var defaultLocale: String = "en"
    /// Public origin of call links, e.g. `https://links.example.com`; without it the request's Host is used.
    public var baseURL: String?
    /// Web-join URL template with `{callId}` and `{callType}`; the page offers it when set.
    public var webJoinURL: String?
    /// Custom-scheme URL template that reopens the app; defaults to `{urlScheme}://{path}/{callId}?type={callType}`.
    public var openInAppURL: String?
    /// Whether a desktop app declares the page's custom scheme, so computers are offered it too.
    public var desktopScheme = false
    /// A second host of the same site (one of its `hosts`) that the iPhone open button links to: iOS opens
    /// the app for a tap on a universal link to another domain than the page's, and serves the page there
    /// (which then knows the app is missing) when it is not installed.
    public var openInAppHost: String?
    /// File in the static folder used as the link-preview image (`og:image`), e.g. `og-image.png`.
    public var previewImage: String?
    /// `Cache-Control: max-age` of call pages, in seconds: short, so a CDN absorbs bursts.
    public var cacheMaxAge: Int = 60
    /// Rendered pages kept in memory per snapshot, so a link shared to thousands renders once; 0 renders every time.
    public var pageCacheSize: Int = 256

    /// Settings with every default: `paths: ["call"]`.
    public init() {
        (links, linkSources) = Self.defaultLinks
    }

    /// `paths: ["call"]` expanded once: every site that writes a `callLinks` of its own starts from the defaults.
    private static let defaultLinks: (CallLinkMatcher, [String]) = {
        let (templates, sources) = expand(paths: ["call"])
        return (CallLinkMatcher(templates: templates, defaultType: "default"), sources)
    }()

    /// What a site's own `callLinks` takes from the top level's when it leaves the keys out.
    static let inheritedByKey: [InheritedKeys<CallLinkSettings>] = [
        InheritedKeys(keys: ["links", "paths"]) { site, top in
            site.links = CallLinkMatcher(templates: top.links.templates, defaultType: site.defaultType)
            site.linkSources = top.linkSources
        },
        InheritedKeys(keys: ["defaultType"]) { site, top in site.links = CallLinkMatcher(templates: site.links.templates, defaultType: top.defaultType) },
        InheritedKeys(keys: ["template"]) { $0.template = $1.template },
        InheritedKeys(keys: ["locales"]) { $0.locales = $1.locales },
        InheritedKeys(keys: ["defaultLocale"]) { $0.defaultLocale = $1.defaultLocale },
        InheritedKeys(keys: ["webJoinURL"]) { $0.webJoinURL = $1.webJoinURL },
        InheritedKeys(keys: ["previewImage"]) { $0.previewImage = $1.previewImage },
        InheritedKeys(keys: ["cacheMaxAge"]) { $0.cacheMaxAge = $1.cacheMaxAge },
        InheritedKeys(keys: ["pageCacheSize"]) { $0.pageCacheSize = $1.pageCacheSize },
    ]

    /// The call type of links that carry none.
    public var defaultType: String { links.defaultType }

    /// The two shapes a `paths` entry stands for: `/P/{callId}?type={callType}` and `/P/{callType}:{callId}`.
    static func shorthand(_ path: String) -> [String] {
        ["/\(path)/{callId}?type={callType}", "/\(path)/{callType}:{callId}"]
    }

    /// The templates of shorthand paths that are known to be valid, with their sources.
    private static func expand(paths: [String]) -> ([CallLinkTemplate], [String]) {
        var templates: [CallLinkTemplate] = []
        var sources: [String] = []
        for (index, path) in paths.enumerated() {
            for text in shorthand(path) {
                guard let template = try? CallLinkTemplate(text) else { continue }
                templates.append(template)
                sources.append("paths[\(index)]")
            }
        }
        return (templates, sources)
    }
}

/// Reads a `callLinks` section (of the top level or of one site).
enum CallLinkSettingsReader {
    static func read(_ value: JSONValue?, at path: String, reader: inout ConfigReader) -> CallLinkSettings {
        var settings = CallLinkSettings()
        guard let value, let object = reader.object(value, at: path, allowed: ConfigKeys.members(of: "callLinks")) else { return settings }
        var defaultType = settings.defaultType
        if let type = reader.string(object, "defaultType", at: path, expected: "a call type such as \"default\"", rule: Identifiers.callToken) {
            defaultType = type
        }
        var templates = settings.links.templates
        if object["links"] != nil && object["paths"] != nil {
            reader.error(.lh115, ConfigReader.join(path, "paths"), "is given beside \"links\"; write its shapes into \"links\" instead: \(CallLinkSettings.shorthand("call").map { "\"\($0)\"" }.joined(separator: ", ")) for \"call\"")
        } else if let list = reader.array(object, "links", at: path, expected: "an array of link templates such as \"/call/{callId}?type={callType}\"") {
            (templates, settings.linkSources) = readLinks(list, at: ConfigReader.join(path, "links"), reader: &reader)
        } else if let list = reader.array(object, "paths", at: path, expected: "an array of path prefixes such as [\"call\"]") {
            (templates, settings.linkSources) = readPaths(list, at: ConfigReader.join(path, "paths"), reader: &reader)
        }
        settings.links = CallLinkMatcher(templates: templates, defaultType: defaultType)
        if let template = reader.string(object, "template", at: path, expected: "the page template's path, e.g. \"public/call.html\"", code: .lh114, rule: { $0.isEmpty ? "is not a file path" : nil }) {
            settings.template = template
        }
        if let locales = reader.string(object, "locales", at: path, expected: "the folder of the page's locale files, e.g. \"public/locales\"", code: .lh114, rule: { $0.isEmpty ? "is not a folder path" : nil }) {
            settings.locales = locales
        }
        if let tag = reader.string(object, "defaultLocale", at: path, expected: "a language tag such as \"en\" or \"pt-BR\"", code: .lh601, rule: { LanguageTag($0) == nil ? "is not a language tag such as \"en\" or \"pt-BR\"" : nil }) {
            settings.defaultLocale = LanguageTag(tag)?.text ?? tag
        }
        settings.baseURL = reader.string(object, "baseURL", at: path, expected: "the public origin, e.g. \"https://links.example.com\"", rule: URLTemplates.originRule)
        settings.webJoinURL = reader.string(object, "webJoinURL", at: path, expected: "an https URL template with {callId} and {callType}", rule: URLTemplates.webJoinRule)
        settings.openInAppURL = reader.string(object, "openInAppURL", at: path, expected: "a custom-scheme URL template with {callId} and {callType}", rule: URLTemplates.openInAppRule)
        settings.desktopScheme = reader.boolean(object, "desktopScheme", at: path) ?? false
        settings.openInAppHost = reader.string(object, "openInAppHost", at: path, expected: "a host name of this site, e.g. \"open.links.example.com\"", code: .lh116, rule: { host in
            host.hasPrefix("*.") ? "is a wildcard; name one host the site lists, e.g. \"open.links.example.com\"" : CallLinkHost.problem(host)
        }).map { $0.lowercased() }
        settings.previewImage = reader.string(object, "previewImage", at: path, expected: "a file in the static folder, e.g. \"og-image.png\"", rule: { $0.isEmpty || $0.hasPrefix("/") || $0.contains("..") ? "is not a file name inside the static folder" : nil })
        settings.cacheMaxAge = reader.integer(object, "cacheMaxAge", at: path, in: 0...86_400) ?? settings.cacheMaxAge
        settings.pageCacheSize = reader.integer(object, "pageCacheSize", at: path, in: 0...100_000) ?? settings.pageCacheSize
        return settings
    }

    /// `links`: each template parsed, none twice, none that an earlier one always answers first.
    private static func readLinks(_ list: [(value: JSONValue, path: String)], at path: String, reader: inout ConfigReader) -> ([CallLinkTemplate], [String]) {
        if list.isEmpty { reader.error(.lh115, path, "is empty; expected at least one link template such as \"/call/{callId}?type={callType}\"") }
        var templates: [CallLinkTemplate] = []
        var sources: [String] = []
        for (offset, (element, elementPath)) in list.enumerated() {
            guard case .string(let text) = element else {
                reader.typeMismatch(element, at: elementPath, expected: "a link template string such as \"/join/{callId}\"")
                continue
            }
            let template: CallLinkTemplate
            do {
                template = try CallLinkTemplate(text)
            } catch {
                reader.error(.lh115, elementPath, "\(ConfigReader.show(element)) \(error)")
                continue
            }
            if let earlier = templates.firstIndex(where: { $0.answersFirst(over: template) }) {
                let shown = ConfigReader.join(ConfigReader.parent(of: path), sources[earlier])
                let what = templates[earlier] == template ? "is listed twice (at \(shown))" : "never decides: \(shown) before it matches every link it matches"
                reader.error(.lh115, elementPath, "\(ConfigReader.show(element)) \(what)")
                continue
            }
            templates.append(template)
            sources.append("links[\(offset)]")
        }
        return (templates, sources)
    }

    /// `paths`: each prefix stands for its two shorthand shapes.
    private static func readPaths(_ list: [(value: JSONValue, path: String)], at path: String, reader: inout ConfigReader) -> ([CallLinkTemplate], [String]) {
        if list.isEmpty { reader.error(.lh115, path, "is empty; expected at least one path prefix such as \"call\"") }
        var templates: [CallLinkTemplate] = []
        var sources: [String] = []
        var prefixes: [String] = []
        for (offset, (element, elementPath)) in list.enumerated() {
            guard case .string(let prefix) = element else {
                reader.typeMismatch(element, at: elementPath, expected: "a path prefix string such as \"call\"")
                continue
            }
            if prefix.hasPrefix("/") || prefix.hasSuffix("/") || prefix.contains("{") {
                reader.error(.lh115, elementPath, "\(ConfigReader.show(element)) is not a path prefix; write its segments without slashes at the ends, e.g. \"video/demos/join\", or the whole shape in \"links\"")
                continue
            }
            if prefixes.contains(prefix) {
                reader.error(.lh115, elementPath, "\(ConfigReader.show(element)) is listed twice")
                continue
            }
            do {
                templates += try CallLinkSettings.shorthand(prefix).map { text throws(CallLinkTemplateError) in try CallLinkTemplate(text) }
            } catch {
                reader.error(.lh115, elementPath, "\(ConfigReader.show(element)) \(error)")
                continue
            }
            prefixes.append(prefix)
            sources += ["paths[\(offset)]", "paths[\(offset)]"]
        }
        return (templates, sources)
    }
}
