// The one file of CallLinks that uses Foundation, for the `URL` an app is handed; the rest of the target
// is plain Swift so the server, Linux and every Apple platform compile the same matching code.
//
// Apple platforms only: `onOpenURL` and `NSUserActivity` hand URLs to apps there. On Linux the target is
// the server's, which matches request bytes; importing Foundation there would link it into the release
// binary (3.6 MB of code) for this one overload.
#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
#if canImport(FoundationEssentials)
import FoundationEssentials
#elseif canImport(Foundation)
import Foundation
#endif

// Without Foundation (the SDK-less availability check of scripts/check-apple-availability.sh) there is no URL.
#if canImport(FoundationEssentials) || canImport(Foundation)
extension CallLinkParser {
    /// The call `url` names (from `onOpenURL` or `NSUserActivity.webpageURL`), or nil when it is not a
    /// call link; the URL is read as written, still percent-encoded, like the server reads the request.
    public func parse(_ url: URL) -> CallLink? {
        parse(url.absoluteString)
    }
}
#endif
#endif
