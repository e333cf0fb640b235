import LinkHostJSON

/// Reads `sharedApps`: the operator's word that several sites may list one app identity.
///
/// An app (iOS app ID `TEAMID.bundle.id`, App Clip ID, or Android package) belongs to the one site file that
/// lists it, and a site file may not list an app of the operator's own top level or inline sites
/// (`SiteFileClaims`, LH139). `"sharedApps": {"ABCDE12345.com.acme.meet": ["acme", "acme-eu"]}` lets the sites
/// named (ids, else first hosts) list it together; no other site file may, and `print … --app` includes a site
/// file's hosts for it only when the file lists it and is named here.
enum SharedAppsReader {
    /// The site names allowed per app identity; empty without the key.
    static func read(_ value: JSONValue?, reader: inout ConfigReader) -> [String: Set<String>] {
        guard let value else { return [:] }
        guard case .object(let object) = value else {
            reader.typeMismatch(value, at: "sharedApps", expected: "an object of app IDs or packages, each with the sites that share it, such as {\"ABCDE12345.com.acme.meet\": [\"acme\", \"acme-eu\"]}")
            return [:]
        }
        var shared: [String: Set<String>] = [:]
        for member in object.members {
            let path = "sharedApps[\"\(member.key)\"]"
            if member.key.isEmpty || member.key.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
                reader.error(.lh109, path, "is not an iOS app ID (TEAMID.bundle.id) or an Android package")
                continue
            }
            guard let sites = reader.elements(member.value, at: path, expected: "an array of site names (ids, else first hosts) such as [\"acme\", \"acme-eu\"]") else { continue }
            var names = Set<String>()
            for (element, at) in sites {
                guard case .string(let name) = element, !name.isEmpty else {
                    reader.typeMismatch(element, at: at, expected: "a site name (its id, else its first host)")
                    continue
                }
                names.insert(name)
            }
            shared[member.key, default: []].formUnion(names)
        }
        return shared
    }
}
