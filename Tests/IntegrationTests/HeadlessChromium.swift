import Foundation
import Testing

/// Debian's Chromium, headless, as a real visitor: a User-Agent, a window size, and what it showed.
///
/// Each run has its own profile folder and ends within `timeout`; pages come from loopback servers only.
enum HeadlessChromium {
    /// A visitor: the User-Agent it sends and its window in CSS pixels.
    struct Device: Sendable, CustomStringConvertible {
        let name: String
        let userAgent: String
        let width: Int
        let height: Int
        var description: String { name }

        static let desktop = Device(name: "desktop", userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", width: 1280, height: 900)
        static let android = Device(name: "Android", userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", width: 412, height: 915)
        static let iPhone = Device(name: "iPhone", userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", width: 390, height: 844)
        /// iPadOS Safari asks for desktop sites: a Mac's User-Agent (the script tells it apart by touch).
        static let iPad = Device(name: "iPad", userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", width: 820, height: 1180)
    }

    /// The Chromium binary, when installed (`make test-deps` installs Debian's `chromium`).
    static var binary: String? { ["chromium", "chromium-browser"].first(where: ExternalTool.exists) }

    /// The DOM after the page's scripts ran (`--dump-dom`), as Chromium serialises it.
    static func dom(of url: String, as device: Device, acceptLanguage: String = "en-US,en", touch: Bool = false) throws -> String {
        let result = try run(device: device, acceptLanguage: acceptLanguage, touch: touch, ["--dump-dom", url])
        guard result.status == 0, result.output.contains("<html") else {
            throw HarnessError("chromium --dump-dom \(url) as \(device) failed (\(result.status)): \(result.error.suffix(600))")
        }
        return result.output
    }

    /// A PNG screenshot of `url` as `device` into `file`.
    static func screenshot(of url: String, as device: Device, to file: String) throws {
        let result = try run(device: device, acceptLanguage: "en-US,en", touch: false, ["--screenshot=\(file)", url])
        guard result.status == 0, FileManager.default.fileExists(atPath: file) else {
            throw HarnessError("chromium --screenshot \(url) failed (\(result.status)): \(result.error.suffix(600))")
        }
    }

    private static func run(device: Device, acceptLanguage: String, touch: Bool, _ arguments: [String]) throws -> ExternalTool.Result {
        guard let binary else { throw HarnessError("chromium is not installed; run make test-deps") }
        let profile = NSTemporaryDirectory() + "linkhost-chromium-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: profile) }
        var options = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-sync",
            "--disable-background-networking", "--disable-component-update", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--user-data-dir=\(profile)", "--window-size=\(device.width),\(device.height)", "--user-agent=\(device.userAgent)",
            "--accept-lang=\(acceptLanguage)", "--virtual-time-budget=3000", "--timeout=15000",
        ]
        if touch { options.append("--touch-events=enabled") }
        // timeout(1) bounds the run even when Chromium hangs with its output open.
        return try ExternalTool.run("timeout", ["-k", "5", "40", binary] + options + arguments, timeout: 50)
    }
}
