import CallLinks

/// The per-request values of a call page: each URL written straight in the form the page needs, from
/// parts made at load in every form (`URLText`), so a render escapes and encodes nothing but the Host.
extension CallPage {
    /// Computes every per-request field the templates use, once each. One exhaustive switch: a new field must
    /// say here whether a request fills it or the bake (`BakedPages`) always does, or the build fails.
    func fill(_ values: inout PageValues, link: CallLink, host: String?) {
        let used = renderedFields
        let origin = Origin(base: baseURLText, host: host)
        let canonical = canonicalLinks[settings.links.canonicalIndex(for: link)]
        func canonicalURL(_ form: URLForm, into bytes: inout [UInt8]) {
            origin.append(form, to: &bytes)
            canonical.path.append(form, callID: link.callID, callType: link.callType, path: nil, to: &bytes)
        }
        for field in PageTemplate.Field.allCases where used.contains(field) {
            switch field {
            case .appName, .appStoreID, .appStoreURL, .appClipBundleID:
                // The site's app, escaped at load: a value of the request so that tenants share one bake.
                if let app = appBytes.first(where: { $0.field == field }) { values.set(field) { $0.append(contentsOf: app.bytes) } }
            case .callId: values.set(.callId) { $0.append(contentsOf: link.callID.utf8) }
            case .callType: values.set(.callType) { $0.append(contentsOf: link.callType.utf8) }
            case .canonicalURL: values.set(.canonicalURL) { canonicalURL(.escaped, into: &$0) }
            case .openInAppURL:
                values.set(.openInAppURL) { bytes in
                    if let openInAppTemplate {
                        openInAppTemplate.append(.escaped, callID: link.callID, callType: link.callType, path: canonical.prefix, to: &bytes)
                    } else if let schemePrefix {
                        bytes.append(contentsOf: schemePrefix.escaped)
                        canonical.path.append(.escaped, callID: link.callID, callType: link.callType, path: nil, to: &bytes)
                    }
                }
            case .openInAppHostURL:
                // The same call on the site's second host: a universal link to another domain than the page's.
                values.set(.openInAppHostURL) { bytes in
                    guard let openInAppHostOrigin else { return }
                    bytes.append(contentsOf: openInAppHostOrigin.escaped)
                    canonical.path.append(.escaped, callID: link.callID, callType: link.callType, path: nil, to: &bytes)
                }
            case .playStoreURL:
                // Google Play hands `referrer` to the app installed from this page (Install Referrer API), so the
                // first launch can join the call: a deferred deep link without an SDK.
                guard androidApp != nil else { continue }
                values.set(.playStoreURL) { bytes in
                    bytes.append(contentsOf: playStorePrefix.escaped)
                    canonicalURL(.encoded, into: &bytes)
                }
            case .intentURL:
                guard androidApp != nil else { continue }
                values.set(.intentURL) { bytes in intent(origin: origin, canonicalURL: canonicalURL, into: &bytes) }
            case .webJoinURL:
                values.set(.webJoinURL) { webJoinTemplate?.append(.escaped, callID: link.callID, callType: link.callType, path: canonical.prefix, to: &$0) }
            case .imageURL:
                values.set(.imageURL) { bytes in
                    guard origin.exists else { return }
                    origin.append(.escaped, to: &bytes)
                    bytes.append(contentsOf: previewImagePath)
                }
            case .qrCodeURL:
                // The image encodes an absolute URL; without an origin there is none to encode.
                values.set(.qrCodeURL) { bytes in
                    if origin.exists { canonical.qrCode.append(.escaped, callID: link.callID, callType: link.callType, path: nil, to: &bytes) }
                }
            case .qrCode:
                var raw: [UInt8] = []
                canonicalURL(.raw, into: &raw)
                let markup = origin.exists ? QRCodeMarkup.svg(for: String(decoding: raw, as: UTF8.self)) : ""
                values.set(.qrCode) { $0.append(contentsOf: markup.utf8) }
            case .lang, .dir, .languages, .desktopScheme, .inPlayStore:
                // Always the bake's (the locale's, the site's): never left for a request.
                continue
            }
        }
    }

    /// intent://HOST/PATH#Intent;scheme=https;package=…;S.browser_fallback_url=PLAY;end: the canonical URL itself,
    /// so the app opens through the https App Links filter `print android-manifest` declares, and Chrome goes to
    /// Play (carrying the call) when the package is not installed. Escaping never touches ":" or "/", so the
    /// escaped URL splits at its "://" as the raw one does.
    private func intent(origin: Origin, canonicalURL: (URLForm, inout [UInt8]) -> Void, into bytes: inout [UInt8]) {
        guard origin.exists else { return }
        let start = bytes.count
        canonicalURL(.escaped, &bytes)
        guard let separator = Self.firstSchemeSeparator(in: bytes, start..<bytes.count) else {
            bytes.removeSubrange(start...)
            return
        }
        let scheme = Array(bytes[start..<separator])
        bytes.replaceSubrange(start..<(separator + 3), with: Self.intentStart)
        bytes.append(contentsOf: Self.intentScheme)
        bytes.append(contentsOf: scheme)
        bytes.append(contentsOf: intentPackagePart)
        // Chrome loads the fallback when the app is missing: Play, the app's own install page, or (an app with
        // none) this page again, never a Play listing that does not exist.
        switch androidInstallPage {
        case nil:
            bytes.append(contentsOf: playStorePrefix.encoded)
            canonicalURL(.encodedTwice, &bytes)
        case .page?:
            bytes.append(contentsOf: androidInstallURL?.encoded ?? [])
        case .none?:
            canonicalURL(.encoded, &bytes)
        }
        bytes.append(contentsOf: Self.intentEnd)
    }

    private static let intentStart = Array("intent://".utf8)
    private static let intentScheme = Array("#Intent;scheme=".utf8)
    private static let intentEnd = Array(";end".utf8)

    /// The position of the first `://` in `bytes[range]`, if any.
    private static func firstSchemeSeparator(in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index + 3 <= range.upperBound {
            if bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/") { return index }
            index += 1
        }
        return nil
    }
}

/// The origin of a page's absolute URLs: the configured base URL, else `https://` and the request's Host
/// when it is a plain host name (its characters need no HTML escaping; `:`, `[` and `]` are encoded).
private struct Origin {
    let base: URLText?
    let host: String?

    /// True when the host is all unreserved characters (a name without port): every form is the same.
    private let hostIsUnreserved: Bool

    init(base: URLText?, host: String?) {
        self.base = base
        self.host = base == nil ? host.flatMap { CallPage.isOriginHost($0) ? $0 : nil } : nil
        hostIsUnreserved = self.host?.utf8.allSatisfy(HTMLEscaping.isUnreserved) ?? true
    }

    var exists: Bool { base != nil || host != nil }

    private static let scheme = URLText("https://")

    func append(_ form: URLForm, to bytes: inout [UInt8]) {
        if let base {
            bytes.append(contentsOf: base.bytes(form))
            return
        }
        guard let host else { return }
        bytes.append(contentsOf: Self.scheme.bytes(form))
        if hostIsUnreserved || form == .raw || form == .escaped {
            bytes.append(contentsOf: host.utf8)
            return
        }
        let hex: StaticString = "0123456789ABCDEF"
        hex.withUTF8Buffer { digits in
            for byte in host.utf8 {
                if HTMLEscaping.isUnreserved(byte) {
                    bytes.append(byte)
                    continue
                }
                // `%XX`, or `%25XX` when the `%` itself is encoded again.
                bytes.append(UInt8(ascii: "%"))
                if form == .encodedTwice { bytes.append(UInt8(ascii: "2")); bytes.append(UInt8(ascii: "5")) }
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0x0F)])
            }
        }
    }
}
