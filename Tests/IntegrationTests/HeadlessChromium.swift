import Foundation

/// Debian's Chromium, headless, as a real visitor: a device's User-Agent, viewport and touch screen
/// emulated by `scripts/chromium-visit.py`, and what the page became after its scripts ran.
///
/// Each visit has its own profile, no HTTP cache, and ends within a minute; pages come from loopback only.
enum HeadlessChromium {
    /// A visitor: the User-Agent it sends, its viewport in CSS pixels, and whether it is a touch device.
    struct Device: Sendable, CustomStringConvertible {
        let name: String
        let userAgent: String
        let width: Int
        let height: Int
        var scale = 1.0
        var mobile = false
        var touchPoints = 0
        var description: String { name }

        static let desktop = Device(name: "desktop", userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", width: 1280, height: 900)
        static let android = Device(name: "Android", userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
                                    width: 412, height: 915, scale: 2.625, mobile: true, touchPoints: 5)
        static let iPhone = Device(name: "iPhone", userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
                                   width: 390, height: 844, scale: 3, mobile: true, touchPoints: 5)
        /// iPadOS Safari asks for desktop sites with a Mac's User-Agent; only its touch screen gives it away.
        static let iPad = Device(name: "iPad", userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
                                 width: 820, height: 1180, scale: 2, mobile: true, touchPoints: 5)
    }

    /// What a visit saw: the DOM as the page's scripts left it, and every URL the page requested.
    struct Visit {
        let dom: String
        let requests: [String]
        /// After a `click`: what the clipboard held, and the store URLs the page then tried to open.
        var clipboard: String?
        var navigations: [String] = []
    }

    /// Loads `url` as `device` and returns the DOM after load and a quiet network; `screenshot` names a PNG to write.
    /// `click` taps the element with that id after the load, with clipboard access granted; the stores are
    /// stopped before they leave the machine.
    ///
    /// The browser runs for seconds: the wait happens on a thread of its own, so it never holds one of the few
    /// threads the other tests run on.
    static func visit(_ url: String, as device: Device, acceptLanguage: String = "en-US,en;q=0.9", screenshot: String? = nil, click: String? = nil) async throws -> Visit {
        try await onThread("Chromium visit") { try visitBlocking(url, as: device, acceptLanguage: acceptLanguage, screenshot: screenshot, click: click) }
    }

    /// One visit on the calling thread. Blocking: `visit` runs it on a thread of its own.
    private static func visitBlocking(_ url: String, as device: Device, acceptLanguage: String, screenshot: String?, click: String?) throws -> Visit {
        _ = try requireTool("chromium")
        let folder = NSTemporaryDirectory() + "linkhost-visit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var arguments = [
            "-k", "5", "60", try requireTool("python3"), SiteFixture.repositoryRoot + "/scripts/chromium-visit.py", url,
            "--user-agent", device.userAgent, "--width", String(device.width), "--height", String(device.height),
            "--scale", String(device.scale), "--touch", String(device.touchPoints), "--accept-language", acceptLanguage,
            "--dom", folder + "/dom.html", "--requests", folder + "/requests.txt", "--timeout", "45",
        ]
        if device.mobile { arguments.append("--mobile") }
        if let screenshot { arguments += ["--screenshot", screenshot] }
        if let click { arguments += ["--click", click, "--clipboard", folder + "/clipboard.txt", "--navigations", folder + "/navigations.txt"] }
        // timeout(1) bounds the visit even if Chromium hangs with its output open.
        let result = try runTool("timeout", arguments, timeout: .seconds(70))
        guard result.status == 0, let dom = try? String(contentsOfFile: folder + "/dom.html", encoding: .utf8) else {
            throw HarnessError("visiting \(url) as \(device) failed (\(result.status)): \(result.stderr.suffix(800))")
        }
        let requests = (try? String(contentsOfFile: folder + "/requests.txt", encoding: .utf8)) ?? ""
        var visit = Visit(dom: dom, requests: requests.split(separator: "\n").map(String.init))
        if click != nil {
            visit.clipboard = try? String(contentsOfFile: folder + "/clipboard.txt", encoding: .utf8)
            visit.navigations = ((try? String(contentsOfFile: folder + "/navigations.txt", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        return visit
    }
}

extension HeadlessChromium.Visit {
    /// The start tag of the element with `id`, as serialised (attributes in source order), or nil.
    func tag(id: String) -> String? {
        guard let range = dom.range(of: "id=\"\(id)\"") else { return nil }
        let start = dom[..<range.lowerBound].lastIndex(of: "<") ?? range.lowerBound
        let end = dom[range.upperBound...].firstIndex(of: ">") ?? dom.endIndex
        return String(dom[start...end])
    }

    /// The `href` of the element with `id`, decoded from the DOM's `&amp;`.
    func href(id: String) -> String? {
        guard let tag = tag(id: id), let open = tag.range(of: " href=\"") else { return nil }
        let value = tag[open.upperBound...].prefix { $0 != "\"" }
        return String(value).replacing("&amp;", with: "&")
    }

    /// True when the element with `id` carries the `hidden` attribute.
    func isHidden(id: String) -> Bool { tag(id: id)?.contains(" hidden") ?? false }

    /// The `<html>` start tag.
    var htmlTag: String { dom.range(of: "<html").map { String(dom[$0.lowerBound...].prefix { $0 != ">" }) + ">" } ?? "" }
}
