import LinkHostJSON

/// `AASALinter` over the sites' generated AASA, run once for consecutive sites whose documents differ only in
/// their (valid) app IDs, as ten thousand tenants of one rule set do (issue 33).
///
/// What the lint finds in a document depends on an app ID only through its form (`Identifiers.appID`) and
/// which IDs are equal; so sites whose app IDs are all valid are linted in a canonical form, each ID replaced
/// by a valid stand-in in order of first appearance. A finding that names a stand-in (an app listed twice)
/// belongs to the site's own IDs: that site is linted as it is. Locations are rendered in the config's terms
/// from the site's `aasa` section and rule sources, which are part of what must be the same.
final class SharedAASALint {
    /// What decides the findings of one site's document.
    private struct Key: Equatable {
        let document: JSONValue
        let section: String
        let ruleSources: [String]
        let shadowing: Bool
    }

    /// The most recent keys' findings: an operator's tenants come in a few kinds (with an App Clip or without)
    /// mixed together, so one kept key was a miss for every other tenant (issue 42).
    private var kept: [(key: Key, diagnostics: [LintDiagnostic])] = []
    private static let capacity = 8

    /// `AASALinter.diagnostics(document:render:shadowing:)` of `site`'s generated `document`.
    func diagnostics(document: JSONValue, site: SiteConfig, render: @escaping (DocumentPath) -> String, shadowing: Bool) -> [LintDiagnostic] {
        guard let (canonical, standIns) = Self.canonical(document) else {
            return AASALinter.diagnostics(document: document, render: render, shadowing: shadowing)
        }
        let key = Key(document: canonical, section: site.sections.aasa, ruleSources: site.aasa.ruleSources, shadowing: shadowing)
        if let known = kept.last(where: { $0.key == key }) { return known.diagnostics }
        let found = AASALinter.diagnostics(document: canonical, render: render, shadowing: shadowing)
        guard !found.contains(where: { finding in standIns.contains { finding.message.contains($0) || finding.path.contains($0) } }) else {
            return AASALinter.diagnostics(document: document, render: render, shadowing: shadowing)
        }
        if kept.count == Self.capacity { kept.removeFirst() }
        kept.append((key, found))
        return found
    }

    /// The document with each app ID of the details and of the `webcredentials`, `appclips` and
    /// `activitycontinuation` lists replaced by a valid stand-in, with the stand-ins; nil for the oldest form
    /// (details keyed by app ID) or when an app ID is not valid (its findings name it).
    static func canonical(_ document: JSONValue) -> (JSONValue, [String])? {
        guard case .object(var root) = document else { return nil }
        var standIns: [String: String] = [:]
        var valid = true
        func standIn(_ value: JSONValue) -> JSONValue {
            guard case .string(let id) = value else { return value }
            if Identifiers.appID(id) != nil { valid = false }
            if let known = standIns[id] { return .string(known) }
            let made = "LINKHOSTID.stand-in.app\(standIns.count)x"
            standIns[id] = made
            return .string(made)
        }
        for index in root.members.indices {
            guard case .object(var section) = root.members[index].value else { continue }
            switch root.members[index].key {
            case "applinks":
                for member in section.members.indices where section.members[member].key == "details" {
                    guard case .array(let details) = section.members[member].value else { return nil }
                    section.members[member].value = .array(details.map { detail in
                        guard case .object(var object) = detail else { return detail }
                        for field in object.members.indices {
                            switch (object.members[field].key, object.members[field].value) {
                            case ("appIDs", .array(let ids)): object.members[field].value = .array(ids.map(standIn))
                            case ("appID", let id): object.members[field].value = standIn(id)
                            default: break
                            }
                        }
                        return .object(object)
                    })
                }
            case "webcredentials", "appclips", "activitycontinuation":
                for member in section.members.indices where section.members[member].key == "apps" {
                    if case .array(let ids) = section.members[member].value { section.members[member].value = .array(ids.map(standIn)) }
                }
            default:
                continue
            }
            root.members[index].value = .object(section)
        }
        return valid ? (.object(root), Array(standIns.values)) : nil
    }
}
