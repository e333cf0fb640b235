import LinkHostJSON

/// The line protocol behind `linkhost match --jsonl`: one JSON case per input line, one JSON answer per line.
///
/// In: `{"id":0,"aasa":{…},"domain":"example.com","appId":"ABCDE12345.com.example.app","url":"https://…"}`
/// (`aasa` may also be the document's text as a string; `"explain":true` asks for an `explanation` member).
/// An `aasa` that is JSON but not an object is decided (`no_match`), as iOS would ignore such a file.
/// Out: `{"id":0,"decision":"match"}`, or `{"id":0,"error":"…"}` for a line that cannot be decided, which fails
/// that line only.
public enum MatchLineProtocol {
    /// The answer to one input line; a line that cannot be decided gets an error line, never a thrown error.
    public static func respond(toLine line: String) -> String {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return answer(id: .null, ["error": .string("the line is not JSON: \(error)")])
        }
        guard let object = value.objectValue else {
            return answer(id: .null, ["error": .string("the line is \(value.typeDescription), not a JSON object")])
        }
        let id = object["id"] ?? .null
        switch decide(object) {
        case .success(let (result, explain)):
            var members: [String: JSONValue] = ["decision": .string(result.decision.rawValue)]
            if explain { members["explanation"] = .string(result.explain()) }
            return answer(id: id, members)
        case .failure(let failure):
            return answer(id: id, ["error": .string(failure.message)])
        }
    }

    /// Answers every non-blank line of `input`, one output line each, in input order; blank lines separate, they ask nothing.
    public static func respond(toInput input: String) -> String {
        var output = ""
        for line in input.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            guard trimmed.contains(where: { $0 != " " && $0 != "\t" }) else { continue }
            output += respond(toLine: String(trimmed)) + "\n"
        }
        return output
    }

    private struct Failure: Error {
        let message: String
    }

    private static func decide(_ object: JSONObject) -> Result<(MatchResult, Bool), Failure> {
        guard object["id"] != nil else { return .failure(Failure(message: "missing \"id\"")) }
        let document: JSONValue
        switch object["aasa"] {
        case .string(let text):
            do {
                document = try JSONParser.parse(text)
            } catch {
                return .failure(Failure(message: "\"aasa\" is not JSON: \(error)"))
            }
        case nil:
            return .failure(Failure(message: "missing \"aasa\""))
        case let given?:
            // A document that is JSON but not an object is still decidable: iOS finds no applinks in it.
            document = given
        }
        var strings: [String: String] = [:]
        for key in ["domain", "appId", "url"] {
            guard let member = object[key] else { return .failure(Failure(message: "missing \"\(key)\"")) }
            guard let text = member.stringValue else {
                return .failure(Failure(message: "\"\(key)\" is \(member.typeDescription), not a string"))
            }
            strings[key] = text
        }
        let result = AASAMatcher.match(
            document: document, appID: strings["appId"] ?? "", domain: strings["domain"] ?? "", url: strings["url"] ?? ""
        )
        return .success((result, object["explain"]?.boolValue ?? false))
    }

    /// `{"id":…,` then the members in a fixed order, so answers are byte-for-byte reproducible.
    private static func answer(id: JSONValue, _ members: [String: JSONValue]) -> String {
        var object = JSONObject()
        object.append("id", id)
        for key in ["decision", "error", "explanation"] {
            if let value = members[key] { object.append(key, value) }
        }
        return JSONWriter.string(.object(object), style: .compact)
    }
}
