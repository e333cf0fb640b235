/// The few pieces of PNG (ISO/IEC 15948, RFC 2083) and zlib (RFC 1950, 1951) linkhost's images need: chunks
/// with their CRC-32, and a zlib stream of one fixed-Huffman deflate block whose only matches repeat the
/// byte before or the scanline above, which is all a QR code or a flat preview picture has to offer.
package enum PNGWriter {
    /// A PNG of `scanlines` (each a filter byte 0 and its pixels): grayscale, or indexed with `palette`
    /// (RGB triples) when it is given.
    package static func image(width: Int, height: Int, bitDepth: UInt8, palette: [UInt8]?, scanlines: [UInt8]) -> [UInt8] {
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        // Colour type 0 (grayscale) or 3 (indexed); deflate; adaptive filtering; no interlace.
        header += [bitDepth, palette == nil ? 0 : 3, 0, 0, 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        appendChunk("IHDR", header, to: &png)
        if let palette { appendChunk("PLTE", palette, to: &png) }
        let rowLength = scanlines.count / max(1, height)
        appendChunk("IDAT", zlib(scanlines, rowLength: rowLength), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// The CRC-32 table (polynomial 0xEDB88320, reflected), as PNG uses it.
    static let crcTable: [UInt32] = (0..<256).map { entry in
        var value = UInt32(entry)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// CRC-32 of `bytes` (PNG §5.5), continuing from `initial`.
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

    /// A zlib stream of `data`: one fixed-Huffman block (RFC 1951 §3.2.6) whose matches are runs (distance 1)
    /// and copies of the row above (distance `rowLength`), then the Adler-32.
    package static func zlib(_ data: [UInt8], rowLength: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.bytes = [0x78, 0x01]  // deflate, 32 KiB window; the check bits make 0x7801 a multiple of 31
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        let distances = rowLength > 1 && rowLength <= 32_768 ? [rowLength, 1] : [1]
        var index = 0
        while index < data.count {
            var best = 0, bestDistance = 0
            for distance in distances where distance <= index {
                var length = 0
                while length < 258, index + length < data.count, data[index + length] == data[index + length - distance] { length += 1 }
                if length > best { best = length; bestDistance = distance }
            }
            if best >= 3 {
                bits.writeLength(best)
                bits.writeDistance(bestDistance)
                index += best
            } else {
                bits.writeLiteral(Int(data[index]))
                index += 1
            }
        }
        bits.writeLiteral(256)  // end of block
        bits.flush()
        appendBigEndian(adler32(data), to: &bits.bytes)
        return bits.bytes
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

/// Deflate's bit order: values least significant bit first, Huffman codes most significant bit first.
private struct BitWriter {
    var bytes: [UInt8] = []
    private var pending: UInt32 = 0
    private var pendingCount: UInt32 = 0

    static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra: [UInt32] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra: [UInt32] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// `count` bits of `value`, least significant first.
    mutating func write(_ value: UInt32, count: UInt32) {
        pending |= value << pendingCount
        pendingCount += count
        while pendingCount >= 8 {
            bytes.append(UInt8(pending & 0xFF))
            pending >>= 8
            pendingCount -= 8
        }
    }

    /// A Huffman code of `count` bits, most significant first.
    mutating func writeCode(_ code: UInt32, count: UInt32) {
        var reversed: UInt32 = 0
        for bit in 0..<count where code & (1 << bit) != 0 { reversed |= 1 << (count - 1 - bit) }
        write(reversed, count: count)
    }

    /// A literal/length symbol (0...287) in the fixed code.
    mutating func writeLiteral(_ symbol: Int) {
        switch symbol {
        case 0...143: writeCode(UInt32(0x30 + symbol), count: 8)
        case 144...255: writeCode(UInt32(0x190 + symbol - 144), count: 9)
        case 256...279: writeCode(UInt32(symbol - 256), count: 7)
        default: writeCode(UInt32(0xC0 + symbol - 280), count: 8)
        }
    }

    /// A match length (3...258): its symbol and extra bits.
    mutating func writeLength(_ length: Int) {
        var code = Self.lengthBases.count - 1
        while Self.lengthBases[code] > length { code -= 1 }
        writeLiteral(257 + code)
        write(UInt32(length - Self.lengthBases[code]), count: Self.lengthExtra[code])
    }

    /// A match distance (1...32768): its 5-bit code and extra bits.
    mutating func writeDistance(_ distance: Int) {
        var code = Self.distanceBases.count - 1
        while Self.distanceBases[code] > distance { code -= 1 }
        writeCode(UInt32(code), count: 5)
        write(UInt32(distance - Self.distanceBases[code]), count: Self.distanceExtra[code])
    }

    /// Pads the last byte with zero bits.
    mutating func flush() {
        if pendingCount > 0 { bytes.append(UInt8(pending & 0xFF)) }
        pending = 0
        pendingCount = 0
    }
}
