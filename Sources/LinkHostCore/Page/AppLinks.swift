import CallLinks

/// The links that open one call in the app, or install it first.
///
/// All of them are in the page for every visitor; `/call.js` picks the one that works on the device.
struct AppLinks {
    /// The custom-scheme URL (`examplevideo://call/abc?type=video`), or "" when the page cannot open the app.
    let openInApp: String
    /// The Android intent URL that opens the app, or Google Play when it is missing; "" without an Android app.
    let intent: String
    /// Google Play's page of the Android app, carrying the call for the Install Referrer API; "" without one.
    let playStore: String

    init(call link: CallLink, path: String, canonicalURL: String, openInApp template: ParsedURLTemplate?, android: AndroidApp?) {
        let schemeURL = template?.fill(callID: link.callID, callType: link.callType, path: path) ?? ""
        openInApp = schemeURL
        guard let android else {
            intent = ""
            playStore = ""
            return
        }
        // Google Play hands `referrer` to the app installed from this page (Install Referrer API), so the
        // first launch can join the call: a deferred deep link without an SDK.
        playStore = "https://play.google.com/store/apps/details?id=\(android.packageName)&referrer=\(HTMLEscaping.percentEncode(canonicalURL))"
        guard let separator = schemeURL.firstRange(of: "://") else {
            intent = ""
            return
        }
        let scheme = schemeURL[..<separator.lowerBound]
        let rest = schemeURL[separator.upperBound...]
        intent = "intent://\(rest)#Intent;scheme=\(scheme);package=\(android.packageName);S.browser_fallback_url=\(HTMLEscaping.percentEncode(playStore));end"
    }
}
