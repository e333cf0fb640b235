import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// The parts of the printed Kotlin parser that the corpus script does not reach: names and literals.
@Suite("Kotlin parser generation")
struct KotlinParserGeneratorTests {
    @Test("package names: dotted identifiers, no leading digit, no hard keyword", arguments: [
        ("com.example.video.calllinks", nil), ("calllinks", nil), ("a_b.c1", nil),
        ("com.example.in", "keyword"), ("com..links", "not a Kotlin package name"), ("1links", "not a Kotlin package name"),
        ("com.exam-ple", "not a Kotlin package name"), ("", "not a Kotlin package name"), ("com.ex\u{E9}", "not a Kotlin package name"),
    ] as [(String, String?)])
    func packageNames(name: String, problem: String?) {
        let found = KotlinParserGenerator.packageProblem(name)
        if let problem { #expect(found?.contains(problem) == true, "\(name): \(found ?? "accepted")") } else { #expect(found == nil, "\(name): \(found ?? "")") }
    }

    @Test("literals escape the backslash, the quote and Kotlin's template sign")
    func literals() {
        #expect(KotlinParserGenerator.literal(#"a"b\c$d"#) == #""a\"b\\c\$d""#)
        #expect(SwiftParserLine.literal("$x") == #""$x""#, "Swift keeps $ as it is")
    }

    @Test("the file names the templates as parsed, the hosts, the scheme and the package")
    func file() throws {
        let config = try Fixtures.config("""
        { "apps": [ { "name": "V", "teamID": "ABCDE12345", "bundleID": "com.example.v", "urlScheme": "ExampleV" } ],
          "callLinks": { "links": ["/c/{callId}?t={callType}", "/j/{callType}:{callId}", "/q?id={callId}"], "defaultType": "talk", "baseURL": "https://v.example.com" } }
        """)
        let text = KotlinParserGenerator.file(for: config.defaultSite, hosts: ["v.example.com"], package: "com.example.v.links", app: nil, source: "v.json")
        for expected in ["package com.example.v.links\n", #"const val DEFAULT_TYPE: String = "talk""#, #"val HOSTS: List<String> = listOf("v.example.com")"#,
                         #"val SCHEMES: List<String> = listOf("examplev")"#, #"Template(listOf("c", ID), listOf(QueryItem("t", false)))"#,
                         #"Template(listOf("j", TYPED_ID), listOf())"#, #"Template(listOf("q"), listOf(QueryItem("id", true)))"#] {
            #expect(text.contains(expected), "missing \(expected)")
        }
    }
}
