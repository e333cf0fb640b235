import Testing
@testable import LinkHostQR

/// The inline SVG: structure, geometry and escaping.
@Suite("QRCode SVG")
struct QRCodeSVGTests {
    static let link = "https://links.example.com/call/abc_DEF-123?type=default"

    /// The value of attribute `name` on the first element that has it, or only on the `<svg>` element.
    static func attribute(_ name: String, in svg: String, rootOnly: Bool = true) -> String? {
        let scope = rootOnly ? Substring(svg.prefix { $0 != ">" }) : Substring(svg)
        guard let start = scope.range(of: " \(name)=\"") else { return nil }
        return String(scope[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Cells covered by the path data, which must be a sequence of 1-high rectangles written as
    /// "m dx dy h w v1 h -w z" after an initial absolute move; fails on any other shape or overlap.
    static func cells(ofPath data: String) -> Set<[Int]>? {
        var scanner = Substring(data)
        func number() -> Int? {
            let text = scanner.prefix { $0 == "-" || $0.isNumber }
            scanner = scanner.dropFirst(text.count)
            if scanner.first == " " { scanner = scanner.dropFirst() }
            return Int(text)
        }
        func expect(_ command: Character) -> Bool {
            guard scanner.first == command else { return false }
            scanner = scanner.dropFirst()
            return true
        }
        guard expect("M"), var x = number(), var y = number() else { return nil }
        var cells = Set<[Int]>()
        while !scanner.isEmpty {
            guard expect("m"), let dx = number(), let dy = number(), expect("h"), let width = number(), width > 0,
                  expect("v"), number() == 1, expect("h"), number() == -width, expect("z") else { return nil }
            x += dx
            y += dy
            for column in x..<(x + width) {
                guard cells.insert([column, y]).inserted else { return nil }
            }
        }
        return cells
    }

    @Test("one white background and one path, sized in modules with a 4-module quiet zone")
    func structure() throws {
        let code = try QRCode(text: Self.link)
        let svg = code.svg(title: "Call link")
        let extent = code.size + 8
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(extent) \#(extent)""#))
        #expect(svg.hasSuffix("</svg>"))
        #expect(svg.contains(#" role="img" aria-label="Call link""#))
        #expect(svg.contains(#"shape-rendering="crispEdges""#))
        #expect(svg.contains(##"<rect width="\##(extent)" height="\##(extent)" fill="#fff"/>"##))
        #expect(svg.components(separatedBy: "<path").count == 2)
        #expect(svg.components(separatedBy: "<").count == 5, "svg, rect, path and the closing tag only")
        #expect(!svg.contains("\n"))
        #expect(Self.attribute("width", in: svg) == nil, "scales to its CSS box unless asked")
    }

    @Test("the path covers exactly the dark modules", arguments: [0, 4, 7])
    func geometry(quietZone: Int) throws {
        for (text, level) in [(Self.link, QRCode.ErrorCorrection.medium), (String(repeating: "é", count: 300), .high)] {
            let code = try QRCode(text: text, errorCorrection: level)
            let svg = code.svg(title: "t", quietZone: quietZone)
            let path = try #require(Self.attribute("d", in: svg, rootOnly: false))
            let cells = try #require(Self.cells(ofPath: path))
            var expected = Set<[Int]>()
            for y in 0..<code.size {
                for x in 0..<code.size where code.isDark(x: x, y: y) { expected.insert([x + quietZone, y + quietZone]) }
            }
            #expect(cells == expected)
            let extent = code.size + 2 * quietZone
            #expect(Self.attribute("viewBox", in: svg) == "0 0 \(extent) \(extent)")
        }
    }

    @Test("a huge quiet zone still yields exact geometry")
    func hugeQuietZone() throws {
        let code = try QRCode(text: "x")
        let svg = code.svg(title: "t", quietZone: 1200)
        let path = try #require(Self.attribute("d", in: svg, rootOnly: false))
        let cells = try #require(Self.cells(ofPath: path))
        #expect(cells.count == (0..<code.size).reduce(0) { row, y in
            row + (0..<code.size).filter { code.isDark(x: $0, y: y) }.count
        })
        #expect(cells.contains([1200, 1200]), "top-left finder corner")
        #expect(code.svg(title: "t", quietZone: -3).contains(#"viewBox="0 0 21 21""#), "negative means none")
    }

    @Test("pixel size and CSS class are optional attributes")
    func options() throws {
        let code = try QRCode(text: Self.link)
        let svg = code.svg(title: "Call link", moduleSize: 5, className: "call-qr")
        let pixels = (code.size + 8) * 5
        #expect(Self.attribute("width", in: svg) == "\(pixels)")
        #expect(Self.attribute("height", in: svg) == "\(pixels)")
        #expect(Self.attribute("class", in: svg) == "call-qr")
        #expect(Self.attribute("width", in: code.svg(title: "t", moduleSize: 0)) == nil)
    }

    @Test("hostile titles and class names are escaped")
    func escaping() throws {
        let code = try QRCode(text: "x")
        let title = #"</svg><script>alert("pwn")</script> & 'quotes'"#
        let svg = code.svg(title: title, className: #"a" onload="evil()"#)
        #expect(Self.attribute("aria-label", in: svg)
            == "&lt;/svg&gt;&lt;script&gt;alert(&quot;pwn&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;")
        #expect(Self.attribute("class", in: svg) == "a&quot; onload=&quot;evil()")
        #expect(!svg.contains("<script") && !svg.contains("onload=\""))
        #expect(svg.components(separatedBy: "<").count == 5)
    }

    @Test("characters XML forbids are dropped and line breaks become spaces")
    func controlCharacters() throws {
        let code = try QRCode(text: "x")
        let svg = code.svg(title: "a\u{0}b\u{7}c\nd\te\r\u{FFFF}f — Zoë 📞")
        #expect(Self.attribute("aria-label", in: svg) == "abc d e f — Zoë 📞")
    }
}
