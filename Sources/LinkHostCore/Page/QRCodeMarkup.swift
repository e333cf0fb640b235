import LinkHostQR

/// The QR code of a call link as SVG: inline markup for a page, or a standalone image.
enum QRCodeMarkup {
    /// SVG markup of a QR code encoding `url` (scannable by any phone camera), or "" when it cannot be encoded.
    static func svg(for url: String) -> String {
        guard let code = try? QRCode(text: url, errorCorrection: .medium) else { return "" }
        return code.svg(title: "QR code of this call link", className: "call-qr")
    }

    /// The image at `…/qr.svg`: sized in pixels (6 per module) for mail and calendar clients that need a size,
    /// labelled with the URL it encodes, which reads the same in every language.
    static func image(for url: String) -> String? {
        guard let code = try? QRCode(text: url, errorCorrection: .medium) else { return nil }
        return code.svg(title: url, moduleSize: 6)
    }

    /// The image at `…/qr.png`: the same symbol, 6 pixels per module, for clients that show no SVG.
    static func png(for url: String) -> [UInt8]? {
        guard let code = try? QRCode(text: url, errorCorrection: .medium) else { return nil }
        return code.png(moduleSize: 6)
    }
}
