import Testing
@testable import LinkHostCore

@Suite("XML reader: strict, for entitlements and manifests")
struct XMLReaderTests {
    @Test("elements, attributes, namespaces, text, entities, CDATA, comments and a DOCTYPE without subset")
    func wellFormed() throws {
        let root = try XMLReader.parse("""
        \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <!-- a comment -->
        <root xmlns:a="urn:a" xmlns="urn:default" b='x &amp; y'>
          <a:child a:name="n&#65;&#x42;">t &lt;1&gt; &quot;q&apos;</a:child>
          <empty/>
          <![CDATA[<not markup>]]>
        </root>
        """)
        #expect(root.name == "root" && root.namespace == "urn:default")
        #expect(root.attribute("b") == "x & y")
        let child = try #require(root.children.first)
        #expect(child.localName == "child" && child.namespace == "urn:a")
        #expect(child.attribute("name", namespace: "urn:a") == "nAB")
        #expect(child.attribute("name") == nil, "a prefixed attribute is not the unprefixed one")
        #expect(child.text == "t <1> \"q'")
        #expect(root.children.map(\.localName) == ["child", "empty"])
        #expect(root.text.contains("<not markup>"))
        #expect(child.line == 5)
    }

    @Test("what is refused, with where", arguments: [
        ("<a>", "never closed"),
        ("<a></b>", "</b> closes <a>"),
        ("<a x='1' x='2'/>", "given twice"),
        ("<a>&nbsp;</a>", "other entities are refused"),
        ("<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>", "internal subset"),
        ("<a/><b/>", "one root element"),
        ("<p:a/>", "not declared"),
        ("<a>\u{1}</a>", "control character"),
        ("<a x=1/>", "quoted attribute value"),
        ("<a><!-- a -- b --></a>", "\"--\" inside a comment"),
        ("<a>x &amp y</a>", "entity reference"),
        ("", "no root element"),
        ("<a x='<'/>", "inside an attribute value"),
    ])
    func refused(text: String, words: String) {
        do {
            _ = try XMLReader.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains(words), "\(text): \(error)")
            #expect(error.line >= 1 && error.column >= 1)
        }
    }

    @Test("nesting deeper than the limit and bytes that are not UTF-8 are refused")
    func limits() {
        let deep = String(repeating: "<a>", count: XMLReader.maximumDepth + 1) + String(repeating: "</a>", count: XMLReader.maximumDepth + 1)
        #expect(throws: XMLReader.Failure.self) { try XMLReader.parse(deep) }
        let fine = String(repeating: "<a>", count: XMLReader.maximumDepth) + String(repeating: "</a>", count: XMLReader.maximumDepth)
        #expect(throws: Never.self) { try XMLReader.parse(fine) }
        #expect(throws: XMLReader.Failure.self) { try XMLReader.parse([0x3C, 0x61, 0xFF, 0x2F, 0x3E]) }
    }

    @Test("a property list: strings, booleans, arrays, dictionaries; keys once; one value")
    func propertyList() throws {
        let plist = try PropertyList.read(try XMLReader.parse("""
        <plist version="1.0"><dict>
          <key>s</key><string>v</string>
          <key>b</key><true/>
          <key>n</key><integer>3</integer>
          <key>a</key><array><string>x</string><false/></array>
        </dict></plist>
        """))
        #expect(plist["s"] == .string("v"))
        #expect(plist["b"] == .bool(true))
        #expect(plist["n"] == .scalar(kind: "integer", text: "3"))
        #expect(plist["a"] == .array([.string("x"), .bool(false)]))
        for bad in ["<plist><dict><key>k</key></dict></plist>", "<plist><dict><key>k</key><string/><key>k</key><string/></dict></plist>",
                    "<plist><string/><string/></plist>", "<plist><dict><string>x</string><string>y</string></dict></plist>", "<dict/>", "<plist><map/></plist>"] {
            #expect(throws: PropertyList.Failure.self, "\(bad)") { try PropertyList.read(try XMLReader.parse(bad)) }
        }
    }
}
