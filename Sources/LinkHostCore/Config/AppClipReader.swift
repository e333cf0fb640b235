import LinkHostJSON

/// Reads `apps[].appClipBundleID`: the App Clip of one iOS app.
///
/// Apple ties a clip to exactly one app of the same team, whose application identifier is the clip's
/// prefix ("Ensure that the application identifier for the App Clip uses the full app's application
/// identifier as its prefix, followed by a string": Parent Application Identifiers Entitlement,
/// https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.parent-application-identifiers;
/// Account Help, "Register an App ID for App Clips"). A clip ID that breaks this could never be signed, so
/// it is refused here rather than written into every site's AASA.
extension AppsReader {
    /// The clip's bundle ID, or nil (with LH713–LH715 where it is malformed, another team's, or not the
    /// app's); an ID written as `TEAMID.bundle.id` of the app's own team is read as its bundle ID.
    static func readAppClip(_ object: JSONObject, of app: AppleApp, at path: String, reader: inout ConfigReader) -> String? {
        let memberPath = ConfigReader.join(path, "appClipBundleID")
        guard let written = reader.string(object, "appClipBundleID", at: path, expected: "the App Clip's bundle ID, e.g. \"\(app.bundleID).Clip\"") else { return nil }
        let clip: String
        if let (team, bundle) = teamPrefixed(written), !written.hasPrefix(app.bundleID + ".") {
            guard team == app.teamID else {
                reader.error(.lh714, memberPath, "\"\(written)\" names the team \(team); an App Clip belongs to its app's team \(app.teamID): write its bundle ID alone, e.g. \"\(app.bundleID).Clip\"")
                return nil
            }
            clip = bundle
        } else {
            clip = written
        }
        if let problem = Identifiers.bundleID(clip) {
            reader.error(.lh713, memberPath, "\"\(written)\" \(problem)")
            return nil
        }
        guard clip.hasPrefix(app.bundleID + "."), clip.utf8.count > app.bundleID.utf8.count + 1 else {
            reader.error(.lh715, memberPath, "\"\(written)\" does not start with the app's bundle ID \"\(app.bundleID)\" and a dot; Apple requires the app's ID as the clip's prefix, e.g. \"\(app.bundleID).Clip\"")
            return nil
        }
        if app.appStoreID == nil {
            reader.warning(.lh716, memberPath, "the app has no \"appStoreID\": the page's Smart App Banner names the clip without app-id, so devices that cannot run App Clips (iOS 13 and earlier, Screen Time or MDM) get no banner to the app")
        }
        return clip
    }

    /// `TEAMID` and the rest, when `value` is written as an app ID (`ABCDE12345.com.example.video.Clip`).
    private static func teamPrefixed(_ value: String) -> (team: String, bundle: String)? {
        guard let dot = value.firstIndex(of: ".") else { return nil }
        let team = String(value[..<dot])
        let bundle = String(value[value.index(after: dot)...])
        guard Identifiers.teamID(team) == nil, Identifiers.bundleID(bundle) == nil else { return nil }
        return (team, bundle)
    }
}
