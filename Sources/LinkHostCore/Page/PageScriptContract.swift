/// What `/call.js` needs of a call-page template: the element IDs it reads and shows or hides, written down
/// once (README, "Your own page") so that a template users are told to edit says what it must keep. A
/// template without one of them still renders; the script then leaves that part of the page as it is.
public enum PageScriptContract {
    /// The IDs `call.js` looks up, each with what it does with the element.
    public static let elementIDs: [(id: String, role: String)] = [
        ("actions", "the buttons' container, reordered so the first action leads"),
        ("open-app", "the open-in-app link (its data-intent, data-scheme, data-app-host attributes hold the targets)"),
        ("web-join", "the join-in-the-browser link"),
        ("app-store", "the App Store link"),
        ("play-store", "the Google Play link"),
        ("app-missing", "the line shown on the open-in-app host when the app is not installed"),
        ("elsewhere", "the line shown on a phone that has nothing to open, install or join in the browser: join on another device"),
        ("link-copied", "the line shown after a store tap copied the call link"),
        ("webview", "the in-app browser notice"),
        ("webview-hint-ios", "its iOS instruction (Open in Safari)"),
        ("webview-hint-android", "its Android instruction"),
        ("leave-webview", "the link that leaves the in-app browser"),
    ]

    /// The contract's IDs that `template` (the template's source text) has no `id="…"` for.
    public static func missingIDs(in template: String) -> [String] {
        elementIDs.map(\.id).filter { id in
            !template.contains("id=\"\(id)\"") && !template.contains("id='\(id)'")
        }
    }
}
