/// Holds a call link that arrives before the app can join (no user logged in yet) and hands it over once,
/// when the app says it is ready.
///
/// ```swift
/// var hold = CallLinkHold()
/// // onOpenURL: join now when ready, else keep it for after login.
/// if let link = hold.receive(parsed) { join(link) }
/// // after login:
/// if let link = hold.ready() { join(link) }
/// ```
///
/// A newer link replaces a held one (the guest tapped the latest invitation); a link is handed over at most
/// once; after `notReady()` (logout) links are held again.
public struct CallLinkHold: Sendable, Equatable {
    /// The link waiting for `ready()`, if any.
    public private(set) var held: CallLink?
    /// Whether links are handed over as they arrive.
    public private(set) var isReady: Bool

    /// A hold, ready or not (not: a link waits for `ready()`).
    public init(isReady: Bool = false) {
        self.isReady = isReady
    }

    /// The link to act on now when ready; otherwise keeps it (replacing an older one) and returns nil.
    public mutating func receive(_ link: CallLink) -> CallLink? {
        guard isReady else {
            held = link
            return nil
        }
        return link
    }

    /// Marks the app ready (the user logged in) and returns the held link, once.
    public mutating func ready() -> CallLink? {
        isReady = true
        defer { held = nil }
        return held
    }

    /// Marks the app not ready (logged out): links are held again.
    public mutating func notReady() {
        isReady = false
    }
}
