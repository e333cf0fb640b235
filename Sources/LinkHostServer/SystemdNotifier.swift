import CSystem

/// The service manager's side of the lifecycle (sd_notify(3)): READY=1 once every listener accepts,
/// RELOADING=1 while a SIGHUP's snapshot is built, STOPPING=1 when the drain begins, with a STATUS=
/// line for `systemctl status`. Silent unless systemd (or a test) set NOTIFY_SOCKET.
enum SystemdNotifier {
    /// What the process is doing before it serves (loading the config), for `systemctl status`.
    static func status(_ status: String) { send("STATUS=\(status)") }

    /// Serving; `status` is shown by `systemctl status`.
    static func ready(_ status: String) { send("READY=1\nSTATUS=\(status)") }

    /// A reload has begun (systemd then waits for the next READY=1).
    static func reloading() { send("RELOADING=1\nMONOTONIC_USEC=\(csys_monotonic_microseconds())\nSTATUS=reloading") }

    /// The drain has begun.
    static func stopping(_ status: String) { send("STOPPING=1\nSTATUS=\(status)") }

    private static func send(_ message: String) {
        if csys_notify(message) < 0 {
            Lifecycle.warning("cannot notify the service manager on NOTIFY_SOCKET (\(message.prefix { $0 != "\n" }))")
        }
    }
}
