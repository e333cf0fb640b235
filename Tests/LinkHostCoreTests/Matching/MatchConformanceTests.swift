import FoundationEssentials
import Testing
@testable import LinkHostCore
import LinkHostJSON

/// Runs every case of the swcutil-checked conformance file (`Tests/Shared/Conformance/`, copied into the
/// repository with its source and licence) through the line protocol.
@Suite("Match conformance")
struct MatchConformanceTests {
    /// `Tests/Shared/Conformance/aasa-match-cases.json`, found from this file's path: inside the repository, so a
    /// clone alone runs it.
    static var casesPath: String {
        let file = #filePath
        return String(file[..<file.range(of: "/Tests/")!.lowerBound]) + "/Tests/Shared/Conformance/aasa-match-cases.json"
    }

    struct Case {
        let name: String
        let feature: String
        let expect: String
        let line: String
    }

    static func loadCases() throws -> [Case] {
        let data = try Data(contentsOf: URL(filePath: casesPath))
        let root = try JSONParser.parse(Array(data))
        let cases = try #require(root.objectValue?["matching"]?.arrayValue, "no \"matching\" array in \(casesPath)")
        return try cases.enumerated().map { index, value in
            let object = try #require(value.objectValue)
            var line = JSONObject()
            line.append("id", .number(JSONNumber(index)))
            for (key, field) in [("aasa", "aasa"), ("domain", "domain"), ("appId", "appId"), ("url", "url")] {
                line.append(key, try #require(object[field], "case \(index) has no \(field)"))
            }
            return Case(
                name: object["name"]?.stringValue ?? "#\(index)",
                feature: object["feature"]?.stringValue ?? "?",
                expect: try #require(object["expect"]?.stringValue),
                line: JSONWriter.string(.object(line), style: .compact)
            )
        }
    }

    @Test("every swcutil-checked case gets swcutil's decision")
    func conformance() throws {
        let cases = try Self.loadCases()
        #expect(cases.count >= 100, "expected the 100 shared cases, read \(cases.count)")
        var byFeature: [String: (passed: Int, total: Int)] = [:]
        var byDecision: [String: (passed: Int, total: Int)] = [:]
        var failures: [String] = []
        for (index, testCase) in cases.enumerated() {
            let answer = try JSONParser.parse(MatchLineProtocol.respond(toLine: testCase.line))
            let id = answer.objectValue?["id"]
            let decision = answer.objectValue?["decision"]?.stringValue
            let passed = id == .number(JSONNumber(index)) && decision == testCase.expect
            byFeature[testCase.feature, default: (0, 0)].total += 1
            byDecision[testCase.expect, default: (0, 0)].total += 1
            if passed {
                byFeature[testCase.feature, default: (0, 0)].passed += 1
                byDecision[testCase.expect, default: (0, 0)].passed += 1
            } else {
                let got = decision ?? answer.objectValue?["error"]?.stringValue.map { "error \($0)" } ?? "nothing"
                failures.append("\(testCase.name): expected \(testCase.expect), got \(got)")
            }
        }
        print(Self.table(title: "feature", byFeature))
        print(Self.table(title: "expected", byDecision))
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
    }

    static func table(title: String, _ rows: [String: (passed: Int, total: Int)]) -> String {
        let width = max(title.count, rows.keys.map(\.count).max() ?? 0)
        func pad(_ text: String) -> String { text + String(repeating: " ", count: width - text.count) }
        var lines = ["\(pad(title))  passed/total"]
        for key in rows.keys.sorted() {
            let row = rows[key] ?? (0, 0)
            lines.append("\(pad(key))  \(row.passed)/\(row.total)\(row.passed == row.total ? "" : "  FAIL")")
        }
        let passed = rows.values.map(\.passed).reduce(0, +)
        let total = rows.values.map(\.total).reduce(0, +)
        lines.append("\(pad("all"))  \(passed)/\(total)")
        return lines.joined(separator: "\n")
    }
}
