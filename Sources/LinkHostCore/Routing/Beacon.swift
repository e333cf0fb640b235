/// What the call page's script reports (`navigator.sendBeacon` in `public/call.js`): that the page was shown,
/// on which coarse platform, and which of its actions the visitor tapped.
///
/// The report is `POST /.linkhost/beacon?e=EVENT&p=PLATFORM` on the page's own origin, with no body. Both
/// values come from a fixed list, so however many fake reports arrive the server keeps a fixed set of counters
/// per site; nothing identifies the visitor or the call (no cookie, no address, no call ID).
public struct Beacon: Sendable, Hashable {
    /// The path every host answers beacons on. A static file can never have it (hidden names are not served),
    /// and a cache passes a POST through to the origin, so every report reaches linkhost.
    public static let path = "/.linkhost/beacon"

    /// What happened on the page.
    public enum Event: Int, Sendable, CaseIterable {
        /// The page was shown (its script ran).
        case view
        /// "Open in the app".
        case open
        /// A store button (App Store or Google Play).
        case store
        /// "Join in the browser".
        case web
        /// The call link was copied before the store opened (the deferred-link step on a phone).
        case copy
        /// "Open in the browser" from an in-app browser.
        case leave

        /// The word in the query and the metrics label.
        public var label: String {
            switch self {
            case .view: return "view"
            case .open: return "open"
            case .store: return "store"
            case .web: return "web"
            case .copy: return "copy"
            case .leave: return "leave"
            }
        }
    }

    /// The coarse platform the page's script decided on.
    public enum Platform: Int, Sendable, CaseIterable {
        /// iPhone or iPad.
        case ios
        /// An Android browser.
        case android
        /// A computer.
        case desktop
        /// An app's built-in browser (Instagram, Facebook, …), on either phone platform.
        case inApp
        /// A crawler or link-preview fetcher that ran the page's script.
        case bot
        /// Any other device (another phone system).
        case other

        /// The word in the query and the metrics label.
        public var label: String {
            switch self {
            case .ios: return "ios"
            case .android: return "android"
            case .desktop: return "desktop"
            case .inApp: return "in_app"
            case .bot: return "bot"
            case .other: return "other"
            }
        }
    }

    /// Why a beacon was not counted: the `reason` of `linkhost_beacons_dropped_total`, which `linkhost stats` reads.
    public enum Drop: Int, Sendable, CaseIterable {
        /// Over the site's allowance, or one client's share of it.
        case rate
        /// Not a beacon the page sends (another method, unknown words).
        case malformed
        /// Sent from another site's page (`BeaconOrigin`).
        case crossSite

        /// The metrics label.
        public var label: String {
            switch self {
            case .rate: return "rate"
            case .malformed: return "malformed"
            case .crossSite: return "cross_site"
            }
        }
    }

    /// What happened.
    public let event: Event
    /// Where.
    public let platform: Platform

    /// Makes a beacon value.
    public init(event: Event, platform: Platform) {
        self.event = event
        self.platform = platform
    }

    /// Reads a beacon from its two query values; nil unless both are words of the lists exactly.
    public init?(event: String?, platform: String?) {
        guard let event, let platform,
              let knownEvent = Event.allCases.first(where: { $0.label == event }),
              let knownPlatform = Platform.allCases.first(where: { $0.label == platform })
        else { return nil }
        self.init(event: knownEvent, platform: knownPlatform)
    }
}

/// The responses on `Beacon.path`, prepared at load; none may be cached, and none has a body a page reads.
package struct BeaconAnswers: Sendable {
    /// 204: counted.
    package let accepted: Response
    /// 429: over the site's rate of beacons; the script never retries, so the report is lost on purpose.
    package let limited: Response
    /// 403: sent from another site's page (`BeaconOrigin`).
    package let forbidden: Response
    /// 400: not a beacon this version of the page sends.
    package let malformed: Response
    /// 405 for any method but POST.
    package let methodNotAllowed: Response

    init(_ prepared: inout PreparedResponses) {
        func answer(_ status: Int, _ text: String, _ extra: [HTTPHeader] = []) -> Response {
            prepared.add(Response(status: status, headers: extra + [HTTPHeader("Content-Type", "text/plain; charset=utf-8"), HTTPHeader("Cache-Control", "no-store")],
                                  body: Array(text.utf8), route: .beacon))
        }
        accepted = prepared.add(Response(status: 204, headers: [HTTPHeader("Cache-Control", "no-store")], route: .beacon))
        limited = answer(429, "Too Many Requests: this site's beacons are over their rate; this one is not counted\n")
        forbidden = answer(403, "Forbidden: beacons are counted only from this site's own pages\n")
        malformed = answer(400, "Bad Request: a beacon is POST \(Beacon.path)?e=EVENT&p=PLATFORM with the words call.js sends\n")
        methodNotAllowed = answer(405, "Method Not Allowed: beacons are sent with POST\n", [HTTPHeader("Allow", "POST")])
    }
}
