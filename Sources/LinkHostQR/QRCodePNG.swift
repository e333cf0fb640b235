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
        var header: [UInt8] = []
        PNGWriter.appendBigEndian(UInt32(side), to: &header)
        PNGWriter.appendBigEndian(UInt32(side), to: &header)
        header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, adaptive filtering, no interlace
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        PNGWriter.appendChunk("IHDR", header, to: &png)
        PNGWriter.appendChunk("IDAT", PNGWriter.zlibStored(scanlines), to: &png)
        PNGWriter.appendChunk("IEND", [], to: &png)
        return png
    }
}

/// The few pieces of PNG (ISO/IEC 15948, RFC 2083) and zlib (RFC 1950, 1951) a QR image needs: chunks
/// with their CRC-32, and a zlib stream of stored (uncompressed) deflate blocks with its Adler-32.
/// A QR code's image is a few kilobytes and cached for a day, so compressing it would buy little.
package enum PNGWriter {
    /// The CRC-32 table (polynomial 0xEDB88320, reflected), as PNG and zlib's gzip use it.
    static let crcTable: [UInt32] = (0..<256).map { entry in
        var value = UInt32(entry)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// CRC-32 of `bytes` (PNG §5.5).
    package static func crc32<Bytes: Sequence<UInt8>>(_ bytes: Bytes, initial: UInt32 = 0) -> UInt32 {
        var crc = ~initial
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    /// Adler-32 of `bytes` (RFC 1950 §8).
    package static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        // 5552 bytes is the most that can be summed before b may pass 2^32 (RFC 1950's NMAX).
        var start = 0
        while start < bytes.count {
            let end = min(start + 5552, bytes.count)
            for index in start..<end {
                a += UInt32(bytes[index])
                b += a
            }
            a %= 65521
            b %= 65521
            start = end
        }
        return b << 16 | a
    }

    /// A zlib stream holding `data` in stored deflate blocks of at most 65,535 bytes.
    package static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window; check bits make 0x7801 a multiple of 31
        out.reserveCapacity(data.count + data.count / 65_535 * 5 + 16)
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let length = UInt16(end - start)
            out.append(end == data.count ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += data[start..<end]
            start = end
        } while start < data.count
        appendBigEndian(adler32(data), to: &out)
        return out
    }

    /// A chunk: length, type, data, CRC-32 of type and data.
    static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typeBytes = Array(type.utf8)
        png += typeBytes
        png += data
        appendBigEndian(crc32(data, initial: crc32(typeBytes)), to: &png)
    }

    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
