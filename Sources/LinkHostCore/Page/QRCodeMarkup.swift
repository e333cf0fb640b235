import LinkHostQR

/// The QR code of a call link as inline SVG markup for the page.
enum QRCodeMarkup {
    /// SVG markup of a QR code encoding `url` (scannable by any phone camera), or "" when it cannot be encoded.
    static func svg(for url: String) -> String {
        guard let code = try? QRCode(text: url, errorCorrection: .medium) else { return "" }
        return code.svg(title: "QR code of this call link", className: "call-qr")
    }
}
