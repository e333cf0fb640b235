extension QRCode {
    /// The symbol as compact inline SVG for an HTML5 page, labelled `title` for screen readers.
    ///
    /// The viewBox is in modules with a `quietZone`-module light margin (the standard asks for 4), so
    /// the SVG scales to its CSS box; `moduleSize` adds a pixel `width`/`height` of that many pixels per
    /// module. Dark modules are one `<path fill="#000">` on a white `<rect>`: recolour them from CSS
    /// through `className`, e.g. `.call-qr path { fill: currentColor }` (CSS beats SVG attributes).
    /// All text is XML-escaped; control characters are dropped, line breaks and tabs become spaces.
    public func svg(title: String, quietZone: Int = 4, moduleSize: Int? = nil, className: String? = nil) -> String {
        let margin = max(0, quietZone)
        let extent = size + 2 * margin
        var out = SVGBytes()
        // About 12 bytes per run of dark modules, and a symbol has roughly size² / 4 runs.
        out.bytes.reserveCapacity(256 + title.utf8.count + (className?.utf8.count ?? 0) + size * size * 3)

        out.append(SVGBytes.openTag)
        out.appendDecimal(extent)
        out.append(0x20)
        out.appendDecimal(extent)
        out.append(0x22)
        if let moduleSize, moduleSize > 0 {
            out.append(SVGBytes.width)
            out.appendDecimal(extent * moduleSize)
            out.append(SVGBytes.height)
            out.appendDecimal(extent * moduleSize)
            out.append(0x22)
        }
        if let className {
            out.append(SVGBytes.classAttribute)
            out.appendEscaped(className)
            out.append(0x22)
        }
        out.append(SVGBytes.ariaLabel)
        out.appendEscaped(title)
        out.append(SVGBytes.background)
        out.appendDecimal(extent)
        out.append(SVGBytes.height)
        out.appendDecimal(extent)
        out.append(SVGBytes.path)
        out.appendDecimal(margin)
        out.append(0x20)
        out.appendDecimal(margin)
        out.append(runData())
        out.append(SVGBytes.closing)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Path data after the initial absolute move to the symbol's corner: one closed 1-module-high
    /// rectangle per horizontal run of dark modules.
    ///
    /// Each rectangle starts with a move relative to the previous one's start (where `z` leaves the
    /// pen), which keeps numbers short and independent of the quiet zone: "m0 0h7v1h-7z m10 0h1v1h-1z …"
    /// without the spaces. Every number is then below the symbol size, so below 1000.
    ///
    /// This is the per-request hot loop, so it writes by index into a buffer sized up front (runs are
    /// counted with popcounts): indexed stores into a local array compile to plain stores, where
    /// appends would re-check capacity and uniqueness for every byte.
    private func runData() -> [UInt8] {
        var runs = 0
        for row in rows { runs += (row & ~row.up(1, fill: 0)).count }
        // The longest rectangle is "m-176 176h177v1h-177z": 21 bytes.
        var buffer = [UInt8](repeating: 0, count: runs * 21)
        var position = 0
        var penX = 0, penY = 0
        for y in 0..<size {
            let row = rows[y]
            var start = row.firstSet(from: 0)
            while start < size {
                // Bits past the symbol are clear, so a run always ends by `size`.
                let end = (~row).firstSet(from: start)
                SVGBytes.put(UInt8(ascii: "m"), into: &buffer, at: &position)
                SVGBytes.put(decimal: start - penX, into: &buffer, at: &position)
                SVGBytes.put(0x20, into: &buffer, at: &position)
                SVGBytes.put(decimal: y - penY, into: &buffer, at: &position)
                SVGBytes.put(UInt8(ascii: "h"), into: &buffer, at: &position)
                SVGBytes.put(decimal: end - start, into: &buffer, at: &position)
                SVGBytes.put(UInt8(ascii: "v"), into: &buffer, at: &position)
                SVGBytes.put(UInt8(ascii: "1"), into: &buffer, at: &position)
                SVGBytes.put(UInt8(ascii: "h"), into: &buffer, at: &position)
                SVGBytes.put(decimal: start - end, into: &buffer, at: &position)
                SVGBytes.put(UInt8(ascii: "z"), into: &buffer, at: &position)
                penX = start
                penY = y
                start = row.firstSet(from: end)
            }
        }
        buffer.removeLast(buffer.count - position)
        return buffer
    }
}

/// A byte buffer for SVG text: fixed fragments, small decimals and escaped text without
/// intermediate Strings.
struct SVGBytes {
    /// The text so far, UTF-8.
    var bytes: [UInt8] = []

    static let openTag = Array(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 "#.utf8)
    static let width = Array(#" width=""#.utf8)
    static let height = Array(#"" height=""#.utf8)
    static let classAttribute = Array(#" class=""#.utf8)
    static let ariaLabel = Array(#" role="img" aria-label=""#.utf8)
    static let background = Array(#"" shape-rendering="crispEdges"><rect width=""#.utf8)
    static let path = Array(##"" fill="#fff"/><path fill="#000" d="M"##.utf8)
    static let closing = Array(#""/></svg>"#.utf8)

    /// Appends one byte.
    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    /// Appends a fixed fragment.
    mutating func append(_ fragment: [UInt8]) { bytes.append(contentsOf: fragment) }

    /// Appends `value` in decimal ASCII.
    mutating func appendDecimal(_ value: Int) {
        var magnitude = value
        if magnitude < 0 {
            bytes.append(UInt8(ascii: "-"))
            magnitude = 0 - magnitude
        }
        var divisor = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / divisor % 10))
            divisor /= 10
        }
    }

    /// Stores `byte` at `position` and advances it; `buffer` must have room.
    @inline(__always) static func put(_ byte: UInt8, into buffer: inout [UInt8], at position: inout Int) {
        buffer[position] = byte
        position += 1
    }

    /// Stores `value` (|value| < 1000) in decimal at `position` and advances it; inlined so that the
    /// run loop keeps `buffer` in registers.
    @inline(__always) static func put(decimal value: Int, into buffer: inout [UInt8], at position: inout Int) {
        var magnitude = value
        if magnitude < 0 {
            put(UInt8(ascii: "-"), into: &buffer, at: &position)
            magnitude = 0 - magnitude
        }
        if magnitude >= 100 { put(digit: magnitude / 100, into: &buffer, at: &position) }
        if magnitude >= 10 { put(digit: magnitude / 10 % 10, into: &buffer, at: &position) }
        put(digit: magnitude % 10, into: &buffer, at: &position)
    }

    @inline(__always) private static func put(digit: Int, into buffer: inout [UInt8], at position: inout Int) {
        put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit), into: &buffer, at: &position)
    }

    /// Appends `text` escaped for an XML/HTML attribute value or text node.
    ///
    /// Escapes all five XML specials so the result is safe in either quote style. Characters XML 1.0
    /// forbids (C0 controls, U+FFFE, U+FFFF) are dropped; tab, CR and LF become spaces to keep one line.
    mutating func appendEscaped(_ text: String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": bytes.append(contentsOf: "&amp;".utf8)
            case "<": bytes.append(contentsOf: "&lt;".utf8)
            case ">": bytes.append(contentsOf: "&gt;".utf8)
            case "\"": bytes.append(contentsOf: "&quot;".utf8)
            case "'": bytes.append(contentsOf: "&#39;".utf8)
            case "\t", "\n", "\r": bytes.append(0x20)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": continue
            default: UTF8.encode(scalar) { bytes.append($0) }
            }
        }
    }
}
