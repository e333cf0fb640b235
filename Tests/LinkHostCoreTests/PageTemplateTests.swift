import Foundation
import Testing
@testable import LinkHostCore

@Suite("Page template")
struct PageTemplateTests {
    private func render(_ text: String, _ values: [PageTemplate.Field: String]) throws -> String {
        let template = try PageTemplate(parsing: text)
        var output: [UInt8] = []
        template.render(into: &output) { values[$0] ?? "" }
        return String(decoding: output, as: UTF8.self)
    }

    static let hostile = [
        "<script>alert(1)</script>", "\" onmouseover=\"alert(1)", "' autofocus onfocus='x", "javascript:alert(1)",
        "a\r\nSet-Cookie: x=1", "&amp; already", "ünïcødé 😀 \u{202E}rtl", "</title><script>",
    ]

    @Test("hostile values are escaped in text", arguments: hostile)
    func escapedInText(value: String) throws {
        let html = try render("<p>{{appName}}</p>", [.appName: value])
        #expect(!html.dropFirst(3).dropLast(4).contains("<"))
        #expect(!html.contains("\"") && !html.contains("'"))
        #expect(!html.contains("\r") && !html.contains("\n"))
    }

    @Test("hostile values cannot leave a quoted attribute", arguments: hostile)
    func escapedInAttribute(value: String) throws {
        let html = try render("<meta name=\"d\" content=\"{{appName}}\">", [.appName: value])
        let inner = html.dropFirst("<meta name=\"d\" content=\"".count).dropLast(2)
        #expect(!inner.contains("\"") && !inner.contains("<") && !inner.contains(">"))
        #expect(html.hasSuffix("\">"))
    }

    @Test("escaping covers the five HTML-significant characters")
    func escapingTable() {
        #expect(HTMLEscaping.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&#34;x&#34;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    @Test("sections keep content for non-empty values, inverted sections for empty ones")
    func sections() throws {
        let text = "{{#webJoinURL}}<a href=\"{{webJoinURL}}\">web</a>{{/webJoinURL}}{{^webJoinURL}}none{{/webJoinURL}}"
        #expect(try render(text, [.webJoinURL: "https://w.example/j"]) == "<a href=\"https://w.example/j\">web</a>")
        #expect(try render(text, [:]) == "none")
    }

    @Test("baking replaces load-time fields and keeps per-request ones")
    func baking() throws {
        let template = try PageTemplate(parsing: "<h1>{{appName}}</h1>{{#appStoreURL}}<a href=\"{{appStoreURL}}\">s</a>{{/appStoreURL}}<p>{{callId}}</p>")
        let baked = template.baked { $0 == .appName ? "A&B" : $0 == .appStoreURL ? "" : nil }
        #expect(baked.segments == [.literal(Array("<h1>A&amp;B</h1><p>".utf8)), .field(.callId, .text), .literal(Array("</p>".utf8))])
        #expect(baked.usedFields == [.callId])
    }

    @Test("templates that cannot be made safe are refused with their line", arguments: [
        ("<p>{{calId}}</p>", "did you mean {{callId}}?"),
        ("<p>{{nothing}}</p>", "unknown placeholder"),
        ("<script>var id = \"{{callId}}\"</script>", "inside <script>"),
        ("<style>.x{content:\"{{callId}}\"}</style>", "inside <style>"),
        ("<!-- {{callId}} -->", "HTML comment"),
        ("<a href={{canonicalURL}}>", "quotes"),
        ("<a {{callId}}>", "inside a tag"),
        ("<a href=\"{{appName}}\">", "is not a URL"),
        ("<div onclick=\"{{callId}}\">", "onclick"),
        ("<div title=\"{{qrCode}}\">", "markup"),
        ("{{#callId}}open", "never closed"),
        ("{{/callId}}", "never opened"),
        ("<p>{{callId</p>", "without a closing"),
        ("<a href=\"{{t.link}}\">", "is not a URL"),
        ("{{#t.title}}x{{/t.title}}", "cannot open or close a section"),
        ("<script>\"{{t.title}}\"</script>", "inside <script>"),
        ("<p>{{t.}}</p>", "is not a string name"),
        ("<p>{{t.a b}}</p>", "is not a string name"),
        ("<body class=\"platform-{{platform}}\">", "/call.js sets <html data-platform>"),
    ])
    func refused(text: String, words: String) {
        do {
            _ = try PageTemplate(parsing: "<!doctype html>\n" + text)
            Issue.record("template was accepted: \(text)")
        } catch {
            #expect(error.description.contains(words), "\(error.description)")
            #expect(error.line == 2)
        }
    }

    @Test("a script after its closing tag no longer blocks placeholders")
    func afterScript() throws {
        #expect(try render("<script src=\"/x.js\"></script><p>{{callId}}</p>", [.callId: "id"]).hasSuffix("<p>id</p>"))
    }

    @Test("the shipped template parses and uses the documented placeholders")
    func shippedTemplate() throws {
        let file = #filePath
        let root = String(file[..<file.range(of: "/Tests/")!.lowerBound])
        let template = try PageTemplate(parsing: try String(contentsOfFile: root + "/public/call.html", encoding: .utf8))
        #expect(template.usedFields.isSuperset(of: [.callId, .callType, .appName, .openInAppURL, .intentURL, .appStoreURL, .playStoreURL, .webJoinURL, .canonicalURL, .qrCodeURL, .lang, .dir, .languages]))
        #expect(!template.usedFields.contains(.qrCode), "the shipped page links the QR image instead of inlining it")
        #expect(template.usedStrings.count >= 15)
    }

    @Test("locale strings are baked with their placeholders, escaped like every value")
    func strings() throws {
        let template = try PageTemplate(parsing: "<title>{{t.title}}</title><meta name=\"d\" content=\"{{t.hint}}\"><p>{{t.absent}}</p>")
        let baked = template.baked(strings: ["title": "Join {callId} on {appName} <now>", "hint": "\"{callType}\" & 'more'"]) { $0 == .appName ? "A&B" : nil }
        var output: [UInt8] = []
        baked.render(into: &output) { $0 == .callId ? "abc" : $0 == .callType ? "<video>" : "" }
        #expect(String(decoding: output, as: UTF8.self)
            == "<title>Join abc on A&amp;B &lt;now&gt;</title><meta name=\"d\" content=\"&#34;&lt;video&gt;&#34; &amp; &#39;more&#39;\"><p></p>")
        #expect(template.usedStrings == ["title", "hint", "absent"])
    }

    @Test("hostile locale strings cannot leave their text or attribute", arguments: hostile)
    func hostileStrings(value: String) throws {
        for (open, close) in [("<p>", "</p>"), ("<p title=\"", "\">")] {
            let template = try PageTemplate(parsing: open + "{{t.x}}" + close)
            var output: [UInt8] = []
            template.baked(strings: ["x": value]) { _ in "" }.render(into: &output) { _ in "" }
            let html = String(decoding: output, as: UTF8.self)
            let inner = html.dropFirst(open.count).dropLast(close.count)
            #expect(html.hasPrefix(open) && html.hasSuffix(close))
            #expect(!inner.contains("<") && !inner.contains(">") && !inner.contains("\"") && !inner.contains("'"), "\(html)")
        }
    }
}
