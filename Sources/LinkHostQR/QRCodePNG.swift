extension QRCode {
    /// The symbol as a PNG image (1-bit grayscale, no interlace), for mail and calendar clients that show
    /// no SVG: `moduleSize` pixels per module and a `quietZone`-module light margin (the standard asks for 4).
    public func png(moduleSize: Int = 6, quietZone: Int = 4) -> [UInt8] {
        let scale = max(1, moduleSize)
        let margin = max(0, quietZone)
        let side = (size + 2 * margin) * scale
        let rowBytes = (side + 7) / 8
        // Each scanline: filter type 0 (none), then the pixels, 1 = white, most significant bit first.
        var scanlines: [UInt8] = []
        scanlines.reserveCapacity((rowBytes + 1) * side)
        var row = [UInt8](repeating: 0, count: rowBytes)
        for moduleY in 0..<(size + 2 * margin) {
            for index in row.indices { row[index] = 0xFF }
            for moduleX in 0..<(size + 2 * margin) where isDark(x: moduleX - margin, y: moduleY - margin) {
                for pixel in (moduleX * scale)..<((moduleX + 1) * scale) {
                    row[pixel >> 3] &= ~(0x80 >> UInt8(pixel & 7))
                }
            }
            // Padding bits of the last byte stay white; decoders ignore them.
            for _ in 0..<scale {
                scanlines.append(0)
                scanlines.append(contentsOf: row)
            }
        }
        return PNGWriter.image(width: side, height: side, bitDepth: 1, palette: nil, scanlines: scanlines)
    }
}
