import LinkHostFiles
import LinkHostJSON

/// Reads a site's locale files (`<tag>.json` in `callLinks.locales`) against the strings its template uses.
///
/// A file is `{"direction": "rtl", "strings": {"name": "text", …}}`; `direction` defaults from the
/// language. Errors (LH100, LH601, LH604, LH605) stop the load; unknown keys (LH602) and strings
/// missing from a non-default locale (LH603) are warnings, and such a string falls back to the default's.
enum PageLocaleLoader {
    /// The locales and the warnings found loading them.
    struct Loaded {
        /// The locales, the default first, then by tag.
        let locales: [PageLocale]
        let warnings: [ConfigDiagnostic]
    }

    /// Loads `folder` for a template that uses `usedStrings`. A template that uses no strings has its own
    /// text in one language: the folder is not read, and the page has the default locale only.
    /// `optionalStrings` are kept when a file has them and never missed: strings with a built-in text
    /// (`NotFoundPages.builtInStrings`).
    static func load(folder: String, defaultTag: LanguageTag, usedStrings: Set<String>, optionalStrings: Set<String> = [],
                     setting: String) throws(ConfigError) -> Loaded {
        var errors: [ConfigDiagnostic] = []
        var warnings: [ConfigDiagnostic] = []
        func error(_ code: LintCode, _ message: String) { errors.append(ConfigDiagnostic(code, path: setting, message: message)) }
        func warning(_ code: LintCode, _ message: String) { warnings.append(ConfigDiagnostic(code, path: setting, message: message, severity: .warning)) }

        if usedStrings.isEmpty { return Loaded(locales: [PageLocale(tag: defaultTag, isRightToLeft: defaultTag.isRightToLeft, strings: [:])], warnings: []) }
        let builtIn = BuiltInPublic.locales(standingIn: folder)
        guard builtIn != nil || FileSystem.isDirectory(folder) else {
            throw ConfigError(source: folder, diagnostics: [ConfigDiagnostic(.lh114, path: setting, message: "\"\(folder)\" is not a folder that can be read; the page template uses strings such as {{t.\(usedStrings.sorted()[0])}}\(BuiltInPublic.hint(for: folder, key: .locales))")])
        }
        let names = (builtIn?.map(\.name) ?? FileSystem.contentsOfDirectory(folder) ?? []).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        var files: [(tag: LanguageTag, path: String, document: JSONValue)] = []
        for name in names {
            let path = folder + "/" + name
            let stem = String(name.dropLast(5))
            guard let tag = LanguageTag(stem) else {
                let hint = LanguageTag(stem.replacing("_", with: "-")).map { "; did you mean \($0).json?" } ?? "; name it after a language tag such as de.json or pt-BR.json"
                error(.lh601, "\(path): \"\(stem)\" is not a language tag\(hint)")
                continue
            }
            if let other = files.first(where: { $0.tag == tag }) {
                error(.lh601, "\(path) and \(other.path) both name \(tag)")
                continue
            }
            // Read as the static files are: a link only to a file inside the locale folder, none at read time.
            let read = builtIn.map { files in DocumentFile.json(files.first { $0.name == name }?.bytes ?? [], shownAs: path) }
            switch read ?? DocumentFile.json(at: path, inside: folder) {
            case .success(let document): files.append((tag, path, document))
            case .failure(let failure): error(failure.code, failure.message)
            }
        }
        var read: [(tag: LanguageTag, path: String, isRightToLeft: Bool, strings: [String: String])] = []
        for file in files {
            let (isRightToLeft, strings, found) = readFile(file.document, tag: file.tag, path: file.path, usedStrings: usedStrings.union(optionalStrings))
            for diagnostic in found { diagnostic.severity == .error ? error(diagnostic.code, diagnostic.message) : warning(diagnostic.code, diagnostic.message) }
            read.append((file.tag, file.path, isRightToLeft, strings))
        }
        guard let defaultIndex = read.firstIndex(where: { $0.tag == defaultTag }) else {
            if errors.isEmpty { error(.lh601, "\(folder) has no \(defaultTag).json for the default locale \"\(defaultTag)\" (callLinks.defaultLocale)") }
            throw ConfigError(source: folder, diagnostics: errors + warnings)
        }
        let fallback = read[defaultIndex]
        for name in usedStrings.sorted() where fallback.strings[name] == nil {
            error(.lh604, "the template uses {{t.\(name)}}, but \(fallback.path) (the default locale) has no string \"\(name)\"")
        }
        for file in read where file.tag != defaultTag {
            let missing = usedStrings.sorted().filter { file.strings[$0] == nil && fallback.strings[$0] != nil }
            if !missing.isEmpty {
                warning(.lh603, "\(file.path) has no \(missing.map { "\"\($0)\"" }.joined(separator: ", ")); the page shows the \(defaultTag) text there")
            }
        }
        if !errors.isEmpty { throw ConfigError(source: folder, diagnostics: errors + warnings) }
        let ordered = [fallback] + read.enumerated().filter { $0.offset != defaultIndex }.map(\.element)
        let locales = ordered.map { file in
            PageLocale(tag: file.tag, isRightToLeft: file.isRightToLeft,
                       strings: fallback.strings.merging(file.strings) { $1 }.filter { usedStrings.contains($0.key) || optionalStrings.contains($0.key) })
        }
        return Loaded(locales: locales, warnings: warnings)
    }

    /// Reads one file's members; diagnostics carry the file's path in their message.
    private static func readFile(_ document: JSONValue, tag: LanguageTag, path: String, usedStrings: Set<String>) -> (Bool, [String: String], [ConfigDiagnostic]) {
        var found: [ConfigDiagnostic] = []
        func report(_ code: LintCode, _ member: String, _ message: String, _ severity: ConfigDiagnostic.Severity) {
            found.append(ConfigDiagnostic(code, path: "", message: "\(path): \(member)\(message)", severity: severity))
        }
        guard let object = document.objectValue else {
            report(.lh605, "", "is \(document.typeDescription); expected an object with \"strings\"", .error)
            return (tag.isRightToLeft, [:], found)
        }
        var isRightToLeft = tag.isRightToLeft
        var strings: [String: String] = [:]
        for member in object.members {
            let key = member.key, value = member.value
            switch key {
            case "direction":
                switch value.stringValue {
                case "ltr": isRightToLeft = false
                case "rtl": isRightToLeft = true
                default: report(.lh605, "direction: ", "is \(ConfigReader.show(value)); expected \"ltr\" or \"rtl\"", .error)
                }
            case "strings":
                guard let members = value.objectValue?.members else {
                    report(.lh605, "strings: ", "is \(value.typeDescription); expected an object of name → text", .error)
                    continue
                }
                var unused: [String] = []
                defer {
                    if !unused.isEmpty {
                        let suggestion = unused.count == 1 ? Suggestion.closest(to: unused[0], among: Array(usedStrings)).map { "; did you mean \"\($0)\"?" } ?? "" : ""
                        report(.lh602, "strings: ", "the page template uses no \(unused.map { "{{t.\($0)}}" }.joined(separator: ", "))\(suggestion)", .warning)
                    }
                }
                for item in members {
                    let name = item.key, text = item.value
                    let member = "strings.\(name): "
                    guard usedStrings.contains(name) else {
                        unused.append(name)
                        continue
                    }
                    guard let string = text.stringValue else { report(.lh605, member, "is \(text.typeDescription); expected text", .error); continue }
                    if string.allSatisfy({ $0 == " " }) { report(.lh605, member, "is empty", .error); continue }
                    if string.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                        report(.lh605, member, "contains a control character or line break", .error); continue
                    }
                    if let unknown = PageLocale.unknownPlaceholder(in: string) {
                        report(.lh605, member, "uses \(unknown); strings may use {appName}, {callId} and {callType}", .error); continue
                    }
                    strings[name] = string
                }
            default:
                let suggestion = Suggestion.closest(to: key, among: ["direction", "strings"]).map { "; did you mean \"\($0)\"?" } ?? ""
                report(.lh602, "\(key): ", "unknown key\(suggestion); a locale file has \"direction\" and \"strings\"", .warning)
            }
        }
        return (isRightToLeft, strings, found)
    }
}
