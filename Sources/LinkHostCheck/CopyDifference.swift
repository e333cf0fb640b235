import LinkHostCore
import LinkHostJSON

/// Where a copy of an association file differs from the file it should be (the config's, or the origin's
/// for Apple's CDN): the apps and App Clips one lists and the other does not, then the JSON paths, so a
/// report says which key, rule or app differs rather than only that the bytes do.
enum CopyDifference {
    /// `lists TEAM.old (applinks) that the origin's does not; lacks TEAM.clip (appclips); they differ at
    /// applinks.details[0].components[3]`, `the same JSON, written differently`, or nil when either is not
    /// JSON; `originalName` names the original (`the origin's`).
    static func describe(copy: [UInt8], original: [UInt8], originalName: String) -> String? {
        guard let copied = try? JSONParser.parse(copy), let meant = try? JSONParser.parse(original) else { return nil }
        var parts: [String] = []
        let (have, want) = (listedApps(copied), listedApps(meant))
        for (section, ids) in have {
            let extra = ids.filter { !(want.first { $0.section == section }?.ids.contains($0) ?? false) }
            if !extra.isEmpty { parts.append("lists \(extra.joined(separator: ", ")) (\(section)) that \(originalName) does not") }
        }
        for (section, ids) in want {
            let missing = ids.filter { !(have.first { $0.section == section }?.ids.contains($0) ?? false) }
            if !missing.isEmpty { parts.append("lacks \(missing.joined(separator: ", ")) (\(section))") }
        }
        let paths = JSONDifference.paths(copied, meant)
        if !paths.isEmpty { parts.append("they differ at " + paths.joined(separator: ", ")) }
        return parts.isEmpty ? "the same JSON, written differently" : parts.joined(separator: "; ")
    }

    /// The app IDs an AASA names, by section: `applinks` (the details' `appIDs`, `appID` or keys), `appclips`,
    /// `webcredentials`, `activitycontinuation` (their `apps`); none for another document.
    static func listedApps(_ document: JSONValue) -> [(section: String, ids: [String])] {
        guard let root = document.objectValue else { return [] }
        var sections: [(section: String, ids: [String])] = []
        let linked = AASAAppIDs.applinks(document)
        if !linked.isEmpty { sections.append(("applinks", linked)) }
        for section in ["appclips", "webcredentials", "activitycontinuation"] {
            let ids = (root[section]?.objectValue?["apps"]?.arrayValue ?? []).compactMap(\.stringValue)
            if !ids.isEmpty { sections.append((section, ids)) }
        }
        return sections
    }
}

/// Where two JSON documents differ, as JSON paths (`applinks.details[0].appIDs[1]`), at most `limit`.
enum JSONDifference {
    static func paths(_ served: JSONValue, _ expected: JSONValue, limit: Int = 5) -> [String] {
        var found: [String] = []
        collect(served, expected, path: "", into: &found, limit: limit)
        return found
    }

    private static func collect(_ served: JSONValue, _ expected: JSONValue, path: String, into found: inout [String], limit: Int) {
        guard found.count < limit, served != expected else { return }
        switch (served, expected) {
        case (.object(let a), .object(let b)):
            for key in b.keys + a.keys.filter({ !b.keys.contains($0) }) {
                let child = path.isEmpty ? key : path + "." + key
                switch (a[key], b[key]) {
                case (let x?, let y?): collect(x, y, path: child, into: &found, limit: limit)
                case (nil, _?): if found.count < limit { found.append(child + " (missing)") }
                case (_?, nil): if found.count < limit { found.append(child + " (not in the config's)") }
                default: break
                }
            }
        case (.array(let a), .array(let b)) where a.count == b.count:
            for (index, pair) in zip(a, b).enumerated() { collect(pair.0, pair.1, path: path + "[\(index)]", into: &found, limit: limit) }
        default:
            found.append(path.isEmpty ? "the whole document" : path)
        }
    }
}
