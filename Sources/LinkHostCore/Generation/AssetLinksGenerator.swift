import LinkHostJSON

/// Builds `/.well-known/assetlinks.json` (Digital Asset Links) for the configured Android apps.
public enum AssetLinksGenerator {
    /// The relation that lets an Android app open this domain's links.
    public static let relation = "delegate_permission/common.handle_all_urls"

    /// The statement list: one statement per app, fingerprints as configured (already uppercase).
    public static func document(for apps: [AndroidApp]) -> JSONValue {
        .array(apps.map { app in
            .object(JSONObject([
                JSONMember("relation", .array([.string(relation)])),
                JSONMember("target", .object(JSONObject([
                    JSONMember("namespace", .string("android_app")),
                    JSONMember("package_name", .string(app.packageName)),
                    JSONMember("sha256_cert_fingerprints", .array(app.sha256CertFingerprints.map(JSONValue.string))),
                ]))),
            ]))
        })
    }

    /// The bytes served at `/.well-known/assetlinks.json`.
    public static func bytes(for apps: [AndroidApp]) -> [UInt8] {
        JSONWriter.bytes(document(for: apps), style: .pretty)
    }
}
