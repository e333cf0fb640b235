/// What kind of resource answered a request: the label of metrics and the key of per-route behaviour.
public enum Route: Int, Sendable, CaseIterable {
    /// Either AASA path.
    case aasa
    /// `/.well-known/assetlinks.json`.
    case assetLinks
    /// A call-link page.
    case callPage
    /// A call link's QR-code image (`…/qr.svg`).
    case callQRCode
    /// A file from the static folder.
    case staticFile
    /// The health probe.
    case health
    /// The Prometheus metrics page; its body is filled by the server, which owns the counters.
    case metrics
    /// Unknown paths and invalid call links.
    case notFound
    /// Methods other than GET and HEAD.
    case methodNotAllowed
    /// Requests refused before routing: ambiguous framing or Host.
    case badRequest
    /// An ACME HTTP-01 challenge answer on the plain-HTTP listener.
    case acmeChallenge
    /// The plain-HTTP listener's 308 to HTTPS.
    case httpsRedirect
    /// A report from the call page's script (`Beacon`), and any other request for its path.
    case beacon

    /// The label used in metrics.
    public var label: String {
        switch self {
        case .aasa: return "aasa"
        case .assetLinks: return "assetlinks"
        case .callPage: return "call_page"
        case .callQRCode: return "call_qr_code"
        case .staticFile: return "static"
        case .health: return "health"
        case .metrics: return "metrics"
        case .notFound: return "not_found"
        case .methodNotAllowed: return "method_not_allowed"
        case .badRequest: return "bad_request"
        case .acmeChallenge: return "acme_challenge"
        case .httpsRedirect: return "https_redirect"
        case .beacon: return "beacon"
        }
    }
}
