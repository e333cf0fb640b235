import LinkHostJSON

/// The app IDs an AASA document's `applinks` names, for `match` (which apps to ask about) and `check` (which
/// apps a copy adds or lacks): one reading of Apple's two forms, so the two commands never disagree on them.
package enum AASAAppIDs {
    /// Each detail's `appIDs` then `appID` (the current and the older form), or the keys of a details object
    /// (the oldest form); in the document's order, each once; none for a document without `applinks.details`.
    package static func applinks(_ document: JSONValue) -> [String] {
        var apps: [String] = []
        guard let details = document.objectValue?["applinks"]?.objectValue?["details"] else { return [] }
        switch details {
        case .array(let elements):
            for detail in elements.compactMap(\.objectValue) {
                var ids = detail["appIDs"]?.arrayValue?.compactMap(\.stringValue) ?? []
                if let single = detail["appID"]?.stringValue { ids.append(single) }
                for id in ids where !apps.contains(id) { apps.append(id) }
            }
        case .object(let object):
            for key in object.keys where !apps.contains(key) { apps.append(key) }
        default:
            break
        }
        return apps
    }
}
