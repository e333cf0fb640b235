import LinkHostFiles

/// A page template parsed once at load into literal bytes, placeholders and sections.
///
/// Syntax: `{{name}}` inserts a value escaped for where it stands; `{{t.name}}` inserts the string
/// `name` of the page's locale, escaped the same way; `{{#name}}…{{/name}}` keeps its content only when
/// the value is non-empty, `{{^name}}…{{/name}}` only when it is empty.
/// The parser tracks the HTML around each placeholder, so it knows whether the value lands in text or
/// in a quoted attribute, and refuses places where no escaping is safe (scripts, styles, comments,
/// tag names, unquoted attributes).
public struct PageTemplate: Sendable {
    /// The element IDs `/call.js` relies on that the template's source lacks (`PageScriptContract`), for LH606.
    public internal(set) var missingScriptElements: [String] = []
    /// The placeholders a template may use, and what each holds.
    public enum Field: String, Sendable, CaseIterable {
        case callId, callType, appName, appStoreID, openInAppURL, intentURL, appStoreURL, playStoreURL, webJoinURL
        case canonicalURL, imageURL, qrCodeURL, qrCode, lang, dir, languages, openInAppHostURL
        /// The first app's App Clip bundle ID (`apps[].appClipBundleID`), for the Smart App Banner's card.
        case appClipBundleID
        /// `true` when a desktop app declares the page's scheme (`callLinks.desktopScheme`), else empty.
        case desktopScheme
        /// `true` when `playStoreURL` is a Google Play listing, empty when it is an app's own install page or none.
        case inPlayStore

        /// Fields whose value is a URL; only these may fill URL attributes such as `href`.
        var isURL: Bool {
            switch self {
            case .openInAppURL, .intentURL, .appStoreURL, .playStoreURL, .webJoinURL, .canonicalURL, .imageURL, .qrCodeURL, .openInAppHostURL: return true
            case .callId, .callType, .appName, .appStoreID, .qrCode, .lang, .dir, .languages, .appClipBundleID, .desktopScheme, .inPlayStore: return false
            }
        }

        /// Fields holding markup that linkhost generates itself; allowed only between tags.
        package var isMarkup: Bool { self == .qrCode }
    }

    /// Placeholders that existed once, with what replaced them, for a clear error instead of "unknown".
    static let removedFields = [
        "platform": "the page is the same for every device now: /call.js sets <html data-platform> in the browser",
    ]

    /// One piece of a parsed template.
    public enum Segment: Sendable, Equatable {
        /// Bytes copied as they are.
        case literal([UInt8])
        /// A value, escaped for its context.
        case field(Field, HTMLEscaping.Context)
        /// A locale string by name (`{{t.name}}`), escaped for its context; resolved when the template is baked.
        case string(String, HTMLEscaping.Context)
        /// Content kept when the field is non-empty (or empty, when inverted).
        case section(Field, inverted: Bool, [Segment])
    }

    /// A template that cannot be used, with its line and the reason.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// 1-based line of the problem.
        public let line: Int
        /// What is wrong.
        public let message: String
        /// "line N: message".
        public var description: String { "line \(line): \(message)" }
    }

    /// The parsed pieces, in order.
    public let segments: [Segment]

    static let urlAttributes: Set<String> = ["href", "src", "action", "formaction", "poster", "cite", "data", "srcset"]

    /// Parses template text.
    public init(parsing text: String) throws(ParseError) {
        var parser = TemplateParser(bytes: Array(text.utf8))
        segments = try parser.parseAll()
    }

    /// Replaces the fields known at load with their escaped text and resolves their sections, and the
    /// strings with one locale's text (their `{callId}`-style placeholders becoming fields), leaving only
    /// per-request fields; adjacent literals are merged.
    public func baked(strings: [String: String] = [:], _ values: (Field) -> String?) -> PageTemplate {
        PageTemplate(segments: Self.bake(segments, strings: strings, values))
    }

    private init(segments: [Segment]) { self.segments = segments }

    private static func bake(_ segments: [Segment], strings: [String: String], _ values: (Field) -> String?) -> [Segment] {
        var output: [Segment] = []
        func appendLiteral(_ bytes: [UInt8]) {
            if case .literal(let previous)? = output.last {
                output[output.count - 1] = .literal(previous + bytes)
            } else if !bytes.isEmpty {
                output.append(.literal(bytes))
            }
        }
        for segment in segments {
            switch segment {
            case .literal(let bytes):
                appendLiteral(bytes)
            case .field(let field, _):
                guard let value = values(field) else { output.append(segment); continue }
                var bytes: [UInt8] = []
                if field.isMarkup { bytes.append(contentsOf: value.utf8) } else { HTMLEscaping.append(value, to: &bytes) }
                appendLiteral(bytes)
            case .string(let name, let context):
                for piece in PageLocale.pieces(of: strings[name] ?? "") {
                    switch piece {
                    case .text(let text):
                        var bytes: [UInt8] = []
                        HTMLEscaping.append(text, to: &bytes)
                        appendLiteral(bytes)
                    case .field(let field):
                        if let value = values(field) {
                            var bytes: [UInt8] = []
                            HTMLEscaping.append(value, to: &bytes)
                            appendLiteral(bytes)
                        } else {
                            output.append(.field(field, context))
                        }
                    }
                }
            case .section(let field, let inverted, let inner):
                let bakedInner = bake(inner, strings: strings, values)
                guard let value = values(field) else { output.append(.section(field, inverted: inverted, bakedInner)); continue }
                if value.isEmpty == inverted {
                    for piece in bakedInner {
                        if case .literal(let bytes) = piece { appendLiteral(bytes) } else { output.append(piece) }
                    }
                }
            }
        }
        return output
    }

    /// Renders with per-request values, appending to `output`.
    public func render(into output: inout [UInt8], _ values: (Field) -> String) {
        Self.render(segments, into: &output, values)
    }

    private static func render(_ segments: [Segment], into output: inout [UInt8], _ values: (Field) -> String) {
        for segment in segments {
            switch segment {
            case .literal(let bytes):
                output.append(contentsOf: bytes)
            case .field(let field, _):
                if field.isMarkup { output.append(contentsOf: values(field).utf8) } else { HTMLEscaping.append(values(field), to: &output) }
            case .string:
                break // resolved by `baked`; an unbaked template shows no text for it
            case .section(let field, let inverted, let inner):
                if values(field).isEmpty == inverted { render(inner, into: &output, values) }
            }
        }
    }

    /// The fields the template uses anywhere, so a renderer computes only those.
    public var usedFields: Set<Field> {
        var fields = Set<Field>()
        func visit(_ segments: [Segment]) {
            for segment in segments {
                switch segment {
                case .literal, .string: break
                case .field(let field, _): fields.insert(field)
                case .section(let field, _, let inner): fields.insert(field); visit(inner)
                }
            }
        }
        visit(segments)
        return fields
    }

    /// The names of the locale strings the template uses anywhere (`joinHeading` for `{{t.joinHeading}}`).
    public var usedStrings: Set<String> {
        var names: Set<String> = []
        func visit(_ segments: [Segment]) {
            for segment in segments {
                switch segment {
                case .literal, .field: break
                case .string(let name, _): names.insert(name)
                case .section(_, _, let inner): visit(inner)
                }
            }
        }
        visit(segments)
        return names
    }
}

extension PageTemplate {
    /// Reads and parses the template file at `path`, inside `folder` (a site file's own; else the template's
    /// own folder); every problem is a config error at `setting`.
    static func load(_ path: String, inside folder: String? = nil, setting: String) throws(ConfigError) -> PageTemplate {
        let bytes: [UInt8]
        if let builtIn = BuiltInPublic.template(standingIn: path) {
            bytes = builtIn
        } else {
            do {
                // A link in the template's folder is followed only to a file inside that folder: whoever may write
                // the folder (a tenant's brand folder) must not turn the page into a copy of a private key.
                bytes = try FileSystem.readFileWithoutLinks(path, inside: folder ?? FileSystem.parentFolder(of: path))
            } catch {
                throw ConfigError(source: path, diagnostics: [ConfigDiagnostic(.lh114, path: setting, message: "\"\(path)\" \(error)\(BuiltInPublic.hint(for: path, key: .template))")])
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(source: path, diagnostics: [ConfigDiagnostic(.lh114, path: setting, message: "\"\(path)\" is not UTF-8 text")])
        }
        do {
            var template = try PageTemplate(parsing: text)
            template.missingScriptElements = PageScriptContract.missingIDs(in: text)
            return template
        } catch {
            throw ConfigError(source: path, diagnostics: [ConfigDiagnostic(.lh114, path: setting, message: "\(path) \(error)")])
        }
    }
}
