import LinkHostJSON

/// Reads an `assetlinks.json` as Android's StatementService does (`network/retriever/StatementParser.kt`,
/// `parseStatementList` and `parseComponent`, on `retriever/JsonParser.java` and `org.json`), so that the
/// matcher and the linter decide with what a device actually reads, not with Google's prose.
///
/// - `JsonParser.parse` accepts only strings, booleans, arrays and objects as member values, and only
///   strings, arrays and objects as array elements: a `null` or a number anywhere in a statement (or a
///   boolean in an array) throws, nothing catches it up to `DomainVerifier.verifyHost`, and the host is
///   not verified for any app.
/// - So does a statement that is not an object, a target `AssetFactory.create` refuses (an unknown
///   namespace, an app without a package name or fingerprints, a site that is not a bare http(s) origin),
///   a relation `Relation.create` refuses (not `kind/detail` in `[a-z0-9_.]`), and an element of
///   `dynamic_app_link_components` that is not an object (`JSONArray.getJSONObject`).
/// - A statement with a non-empty `include` is a delegate; one without a `target` object or a `relation`
///   array is skipped.
/// - Values are coerced as `org.json` does: `exclude` by `optBoolean` (a boolean, or the string "true" or
///   "false" in any case; anything else is false), patterns by `getString` (a boolean or an object becomes
///   its JSON text), a `?` that is not an object by `optJSONObject` (no query condition). A repeated key
///   keeps its first place and its last value (`JSONObject.put`).
struct AndroidStatementReader {
    /// One statement that names an Android app and a relation.
    struct Statement: Sendable {
        /// The statement's index in the document.
        let offset: Int
        /// The app's package name, when the target is an Android app.
        let packageName: String?
        /// The relations, as written.
        let relations: [String]
        /// The dynamic rules, in order; empty when the statement has none Android reads.
        let components: [Component]
    }

    /// One element of `dynamic_app_link_components` as `parseComponent` reads it.
    struct Component: Sendable {
        let exclude: Bool
        let path: String?
        let fragment: String?
        /// The query conditions in `JSONObject` key order; nil when `?` is absent or not an object.
        let query: [(name: String, pattern: String)]?
        /// The element as written.
        let json: JSONValue
    }

    /// What Android makes of the document.
    enum Outcome: Sendable {
        /// `parseStatementList` throws: no app is verified for the host.
        case unreadable(path: DocumentPath, reason: String)
        /// The statements Android keeps, in document order.
        case statements([Statement])
    }

    /// A value Android reads otherwise than it looks, for the linter.
    struct Misreading: Sendable, Equatable {
        let path: DocumentPath
        let message: String
    }

    static let componentsKey = "dynamic_app_link_components"

    /// Reads `document`; `misreadings` collects what Android coerces or ignores.
    static func read(_ document: JSONValue, misreadings: inout [Misreading]) -> Outcome {
        guard let list = document.arrayValue else {
            return .unreadable(path: .root, reason: "the document is \(document.typeDescription), not an array of statements")
        }
        var statements: [Statement] = []
        for (offset, element) in list.enumerated() {
            let path = DocumentPath.root.index(offset)
            guard let statement = element.objectValue else {
                return .unreadable(path: path, reason: "a statement is \(element.typeDescription), not an object")
            }
            if let (badPath, what) = unsupportedValue(in: element, at: path) {
                return .unreadable(path: badPath, reason: "\(what) is a type Android's JsonParser refuses (it takes strings, booleans, arrays and objects; no booleans in arrays)")
            }
            let members = javaObject(statement)
            if let include = members["include"], !javaString(include).isEmpty { continue }
            guard let target = members["target"]?.objectValue, let relations = members["relation"]?.arrayValue else { continue }
            let packageName: String?
            switch targetPackage(javaObject(target)) {
            case .failure(let error): return .unreadable(path: path.key("target"), reason: error.reason)
            case .success(let name): packageName = name
            }
            var components: [Component] = []
            if let array = componentsValue(members)?.arrayValue {
                let arrayPath = path.key("relation_extensions").key(AssetLinksGenerator.relation).key(componentsKey)
                for (index, item) in array.enumerated() {
                    guard let object = item.objectValue else {
                        return .unreadable(path: arrayPath.index(index), reason: "a dynamic rule is \(item.typeDescription), not an object (JSONArray.getJSONObject throws)")
                    }
                    components.append(component(object, at: arrayPath.index(index), misreadings: &misreadings))
                }
            }
            var names: [String] = []
            for (index, relation) in relations.enumerated() {
                let name = javaString(relation)
                guard validRelation(name) else {
                    return .unreadable(path: path.key("relation").index(index), reason: "the relation \(ConfigReader.show(.string(name))) is not kind/detail in lowercase letters, digits, _ and . (Relation.create throws)")
                }
                names.append(name)
            }
            statements.append(Statement(offset: offset, packageName: packageName, relations: names, components: components))
        }
        return .statements(statements)
    }

    /// The first value `JsonParser` refuses in a statement, and what it is.
    private static func unsupportedValue(in value: JSONValue, at path: DocumentPath, inArray: Bool = false) -> (DocumentPath, String)? {
        switch value {
        case .null: return (path, "null")
        case .number(let number): return (path, "the number \(number.text)")
        case .bool: return inArray ? (path, "a boolean in an array") : nil
        case .string: return nil
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = unsupportedValue(in: element, at: path.index(index), inArray: true) { return found }
            }
            return nil
        case .object(let object):
            for member in object.members {
                if let found = unsupportedValue(in: member.value, at: path.key(member.key)) { return found }
            }
            return nil
        }
    }

    /// The `dynamic_app_link_components` value, through `optJSONObject`/`optJSONArray` (nil on any other type).
    private static func componentsValue(_ statement: [String: JSONValue]) -> JSONValue? {
        guard let extensions = statement["relation_extensions"]?.objectValue,
              let relation = javaObject(extensions)[AssetLinksGenerator.relation]?.objectValue,
              let value = javaObject(relation)[componentsKey], value.arrayValue != nil else { return nil }
        return value
    }

    /// `StatementParser.parseComponent`, noting each coercion.
    private static func component(_ object: JSONObject, at path: DocumentPath, misreadings: inout [Misreading]) -> Component {
        let members = javaObject(object)
        func note(_ key: String, _ message: String) { misreadings.append(Misreading(path: path.key(key), message: message)) }
        var exclude = false
        if let value = members["exclude"] {
            switch value {
            case .bool(let flag): exclude = flag
            case .string(let text) where equalsIgnoringCase(text, "true"):
                exclude = true
                note("exclude", "is the string \(ConfigReader.show(value)); Android's optBoolean reads it as true")
            case .string(let text) where equalsIgnoringCase(text, "false"):
                note("exclude", "is the string \(ConfigReader.show(value)); Android's optBoolean reads it as false")
            default:
                note("exclude", "is \(value.typeDescription) \(ConfigReader.show(value)), not true or false; Android's optBoolean reads it as false, so the rule allows")
            }
        }
        func pattern(_ key: String) -> String? {
            guard let value = members[key] else { return nil }
            let text = javaString(value)
            if value.stringValue == nil {
                note(key, "is \(value.typeDescription), not a pattern string; Android's getString reads it as the pattern \(ConfigReader.show(.string(text)))")
            }
            return text
        }
        let pathPattern = pattern("/")
        let fragmentPattern = pattern("#")
        var query: [(name: String, pattern: String)]?
        if let value = members["?"] {
            if let items = value.objectValue {
                query = javaMembers(items).map { item in
                    if item.value.stringValue == nil {
                        note("?", "has \(ConfigReader.show(.string(item.key))) as \(item.value.typeDescription); Android's getString reads it as the pattern \(ConfigReader.show(.string(javaString(item.value))))")
                    }
                    return (item.key, javaString(item.value))
                }
            } else {
                note("?", "is \(value.typeDescription), not an object of query item name → pattern; Android's optJSONObject drops this condition and keeps the rest of the rule")
            }
        }
        return Component(exclude: exclude, path: pathPattern, fragment: fragmentPattern, query: query, json: .object(object))
    }

    /// `AssetFactory.create` for a statement's target: the package name of an Android app, nil for a web
    /// site, or why Android refuses the target.
    private static func targetPackage(_ target: [String: JSONValue]) -> Result<String?, TargetError> {
        guard let namespaceValue = target["namespace"] else { return .failure(TargetError("the target has no namespace (AssetFactory.create throws)")) }
        let namespace = javaString(namespaceValue)
        switch namespace {
        case "android_app":
            let package = target["package_name"].map(javaString) ?? ""
            guard !package.isEmpty else { return .failure(TargetError("the app has no package_name (AndroidAppAsset.create throws)")) }
            guard let fingerprints = target["sha256_cert_fingerprints"]?.arrayValue, !fingerprints.isEmpty else {
                return .failure(TargetError("the app has no sha256_cert_fingerprints (AndroidAppAsset.create throws)"))
            }
            return .success(package)
        case "web":
            let site = target["site"].map(javaString) ?? ""
            guard validSite(site) else { return .failure(TargetError("the site \(ConfigReader.show(.string(site))) is not an http(s) origin (WebAsset.create throws)")) }
            return .success(nil)
        default:
            return .failure(TargetError("the namespace \(ConfigReader.show(.string(namespace))) is neither android_app nor web (AssetFactory.create throws)"))
        }
    }

    /// Why a target is refused.
    struct TargetError: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `WebAsset.create`: an http or https URL with no user info and no path beyond `/`.
    private static func validSite(_ site: String) -> Bool {
        let lower = site.lowercased()
        guard let scheme = ["https://", "http://"].first(where: { lower.hasPrefix($0) }) else { return false }
        let rest = site.dropFirst(scheme.count)
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard !rest[..<authorityEnd].isEmpty, !rest[..<authorityEnd].contains("@") else { return false }
        let file = rest[authorityEnd...].prefix { $0 != "#" }
        return file.isEmpty || file == "/"
    }

    /// `Relation.create(String)`: `kind/detail`, both non-empty in `[a-z0-9_.]`.
    static func validRelation(_ relation: String) -> Bool {
        guard let slash = relation.firstIndex(of: "/") else { return false }
        func valid(_ part: Substring) -> Bool {
            !part.isEmpty && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "." }
        }
        return valid(relation[..<slash]) && valid(relation[relation.index(after: slash)...])
    }

    /// An object as `org.json.JSONObject` holds it: one value per key, the last one written.
    static func javaObject(_ object: JSONObject) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for member in object.members { result[member.key] = member.value }
        return result
    }

    /// An object's members in `JSONObject.keys()` order: a repeated key where it first appears, with its last value.
    static func javaMembers(_ object: JSONObject) -> [(key: String, value: JSONValue)] {
        let values = javaObject(object)
        var seen = Set<String>()
        return object.members.compactMap { member in
            seen.insert(member.key).inserted ? (member.key, values[member.key] ?? member.value) : nil
        }
    }

    /// `org.json`'s `JSON.toString` as `getString`/`optString` use it: a string as is, anything else as its
    /// JSON text (`JSONStringer`: no spaces, `/` escaped).
    static func javaString(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .number(let number): return number.text
        case .array(let elements): return "[" + elements.map(javaJSON).joined(separator: ",") + "]"
        case .object(let object): return "{" + javaMembers(object).map { javaQuoted($0.key) + ":" + javaJSON($0.value) }.joined(separator: ",") + "}"
        }
    }

    private static func javaJSON(_ value: JSONValue) -> String {
        if case .string(let text) = value { return javaQuoted(text) }
        return javaString(value)
    }

    /// `JSONStringer.string`: quotes, with `"`, `\` and `/` escaped and control characters spelled out.
    private static func javaQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\", "/": out += "\\" + String(scalar)
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\u{C}": out += "\\f"
            default:
                if scalar.value <= 0x1F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Java's `String.equalsIgnoreCase`: unit by unit, equal as written, upper-cased or lower-cased.
    static func equalsIgnoringCase(_ text: String, _ other: String) -> Bool {
        let left = Array(text.unicodeScalars), right = Array(other.unicodeScalars)
        guard left.count == right.count else { return false }
        func upper(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
            let mapped = scalar.properties.uppercaseMapping.unicodeScalars
            return mapped.count == 1 ? mapped.first! : scalar
        }
        func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
            let mapped = scalar.properties.lowercaseMapping.unicodeScalars
            return mapped.count == 1 ? mapped.first! : scalar
        }
        return zip(left, right).allSatisfy { $0 == $1 || upper($0) == upper($1) || lower(upper($0)) == lower(upper($1)) }
    }
}
