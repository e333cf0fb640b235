/// The class of a response's status (RFC 9110 §15): the `status` label of `linkhost_requests_total`, which
/// `linkhost stats` reads for the pages a server answered itself.
package enum StatusClass: Int, Sendable, CaseIterable {
    /// 1xx (and anything below, which no answer has).
    case informational
    /// 2xx.
    case success
    /// 3xx.
    case redirection
    /// 4xx.
    case clientError
    /// 5xx (and anything above).
    case serverError

    /// The class of `status`.
    package init(status: Int) {
        switch status {
        case ..<200: self = .informational
        case 200..<300: self = .success
        case 300..<400: self = .redirection
        case 400..<500: self = .clientError
        default: self = .serverError
        }
    }

    /// The metrics label: `2xx`.
    package var label: String {
        switch self {
        case .informational: return "1xx"
        case .success: return "2xx"
        case .redirection: return "3xx"
        case .clientError: return "4xx"
        case .serverError: return "5xx"
        }
    }
}
