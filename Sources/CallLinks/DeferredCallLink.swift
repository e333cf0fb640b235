/// The call a guest chose before the app was installed, taken on the app's first launch: a deferred deep
/// link without fingerprinting.
///
/// On a phone without the app, the call page's store button first copies the call's canonical link to the
/// clipboard (and says so), then opens the store. Android's Play Store also hands the app the page's
/// `referrer` (the same canonical link) through the Install Referrer API. The app passes that text here once,
/// on its first launch; the rules are the same on both platforms, so a Kotlin app applies them as written:
///
/// 1. Only once: nothing when the app has taken (or refused) a deferred link before (`alreadyTaken`).
/// 2. Only fresh: the first launch is at most `maxAge` seconds (one hour by default) after the install.
/// 3. Only a call link of the app's own hosts and templates, in the canonical `https` form, at most
///    `CallLinkParser.maxLength` bytes, taken exactly as it is (no trimming, no search inside longer text):
///    anything else on the clipboard is not the page's and is left alone.
///
/// Freshness is measured from the install, not carried in the link: the clipboard must hold only the
/// canonical link (the guest may paste it anywhere, and it must still work there), and the install time is
/// a clock the app can trust (Android's `PackageInfo.firstInstallTime`; on iOS the creation date of the
/// app's Documents folder). A guest who installs within the hour and opens the app lands in the call; a
/// link copied last week for something else does not pull anyone into an old call.
///
/// iOS: test for a link with `UIPasteboard.general.detectPatterns(for: [.probableWebURL])`, which reads no
/// content and shows no paste prompt; when there is one, offer a `UIPasteControl` ("Paste call link"):
/// the guest's own tap hands the string over, so iOS asks nothing. Reading `UIPasteboard.general.string`
/// directly would make iOS 16+ ask the guest to allow pasting.
/// Android: `InstallReferrerClient` gives `ReferrerDetails.installReferrer`, the `referrer` parameter of the
/// Play URL the page linked to, decoded once (it is the canonical link).
public struct DeferredCallLink: Sendable {
    /// One hour: enough to install the app and open it, short enough that an old clipboard is ignored.
    public static let defaultMaxAge = 3_600

    /// The app's parser: its hosts and templates.
    public let parser: CallLinkParser
    /// Seconds after the install during which a deferred link is taken.
    public let maxAge: Int

    /// A taker for the app's links, fresh for `maxAge` seconds after the install.
    public init(parser: CallLinkParser, maxAge: Int = defaultMaxAge) {
        self.parser = parser
        self.maxAge = maxAge
    }

    /// The call in `text` (the clipboard's string or the install referrer) when the rules above allow it.
    /// The app then records that it has taken its deferred link, whatever the answer, so it asks only once.
    public func take(_ text: String?, secondsSinceInstall: Int, alreadyTaken: Bool) -> CallLink? {
        guard !alreadyTaken, secondsSinceInstall >= 0, secondsSinceInstall <= maxAge, let text,
              text.utf8.count <= CallLinkParser.maxLength, Self.isHTTPS(text)
        else { return nil }
        return parser.parse(text)
    }

    /// `https://` at the start, in any case: the page copies the canonical link, never the scheme form.
    private static func isHTTPS(_ text: String) -> Bool {
        let prefix = Array("https://".utf8)
        let bytes = Array(text.utf8.prefix(prefix.count))
        guard bytes.count == prefix.count else { return false }
        return zip(bytes, prefix).allSatisfy { $0 == $1 || ($0 >= 0x41 && $0 <= 0x5A && $0 + 0x20 == $1) }
    }
}
