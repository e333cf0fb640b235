import LinkHostQR

/// The link-preview picture (`og:image`) of a site that names none: 1200 × 630 (the size Facebook, LinkedIn
/// and X crop to), the page's accent colour with the page's camera mark on a white tile, as an indexed PNG.
/// Chats and mail clients show a preview card without an image as a bare line; with one, people tap it.
enum DefaultPreviewImage {
    /// Where it is served on a site without `callLinks.previewImage`.
    static let path = "/linkhost-preview.png"
    static let width = 1200
    static let height = 630

    /// The PNG, as `draw()` makes it, kept in `DefaultPreviewImage+PNG.swift`: drawing and compressing it costs
    /// more than the rest of a small config's snapshot in a debug build, and every `match` builds one.
    /// `DefaultPreviewImageTests` fails until the kept bytes are the drawing's (`make preview-image` writes them).
    static let png: [UInt8] = bytes(hex: pngHex)

    /// The bytes of a string of hexadecimal digit pairs.
    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).map { $0 <= UInt8(ascii: "9") ? $0 - UInt8(ascii: "0") : $0 - UInt8(ascii: "a") + 10 }
        return stride(from: 0, to: digits.count - 1, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// The page's `--accent` (#1b5cff), white, and a shade between for the tile's edge.
    private static let palette: [UInt8] = [0x1B, 0x5C, 0xFF, 0xFF, 0xFF, 0xFF, 0xC9, 0xD8, 0xFF]

    /// The picture drawn and compressed: what `png` holds.
    static func draw() -> [UInt8] {
        // The mark of public/call.html's header in its 48-unit viewBox, scaled to a 300-pixel tile.
        let scale = 300.0 / 48.0
        let left = Double(width - 300) / 2, top = Double(height - 300) / 2
        func tile(_ x: Double, _ y: Double) -> (Double, Double) { ((x - left) / scale, (y - top) / scale) }
        // Every row starts with filter type 0 and is the accent colour (index 0) outside the tile, so only the
        // tile's pixels are worked out.
        var scanlines = [UInt8](repeating: 0, count: (width + 1) * height)
        let columns = Int(left)..<Int(left) + 300, rows = Int(top)..<Int(top) + 300
        for y in rows {
            for x in columns {
                let (u, v) = tile(Double(x) + 0.5, Double(y) + 0.5)
                var index: UInt8 = 0
                if inRoundedRect(u, v, 0, 0, 48, 48, radius: 12) {
                    index = inRoundedRect(u, v, 0.25, 0.25, 47.75, 47.75, radius: 11.75) ? 1 : 2
                    if inRoundedRect(u, v, 12, 13, 31, 35, radius: 4) || inLens(u, v) { index = 0 }
                }
                scanlines[y * (width + 1) + 1 + x] = index
            }
        }
        return PNGWriter.image(width: width, height: height, bitDepth: 8, palette: palette, scanlines: scanlines)
    }

    private static func inRoundedRect(_ x: Double, _ y: Double, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, radius: Double) -> Bool {
        guard x >= x0, x <= x1, y >= y0, y <= y1 else { return false }
        let dx = max(x0 + radius - x, 0, x - (x1 - radius)), dy = max(y0 + radius - y, 0, y - (y1 - radius))
        return dx * dx + dy * dy <= radius * radius
    }

    /// The lens: the quadrilateral (33, 22), (39, 17.5), (39, 30.5), (33, 26).
    private static func inLens(_ x: Double, _ y: Double) -> Bool {
        guard x >= 33, x <= 39 else { return false }
        let t = (x - 33) / 6
        return y >= 22 - 4.5 * t && y <= 26 + 4.5 * t
    }
}
