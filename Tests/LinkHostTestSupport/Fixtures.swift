import LinkHostCore
import LinkHostJSON

/// Small configs and helpers shared by the unit tests.
public enum Fixtures {
    /// A complete, valid config document as text.
    public static let validConfig = """
    {
      "server": { "host": "127.0.0.1", "port": 8080 },
      "apps": [ { "name": "Example Video", "teamID": "ABCDE12345", "bundleID": "com.example.video",
                  "appStoreID": "1234567890", "urlScheme": "examplevideo" } ],
      "android": [ { "packageName": "com.example.video",
                     "sha256CertFingerprints": ["14:6d:e9:83:c5:73:06:50:d8:ee:b9:95:2f:34:fc:64:16:a0:83:42:e6:1d:be:a8:8a:04:96:b2:3f:cf:44:e5"] } ],
      "callLinks": { "paths": ["call"], "defaultType": "default" },
      "aasa": { "format": "modern", "rules": [ { "path": "/call/?*", "comment": "call links" } ], "webcredentials": false }
    }
    """

    /// Parses config text, recording a test failure with every diagnostic when it does not load.
    public static func config(_ text: String, environment: [String: String] = [:]) throws -> Config {
        try ConfigLoader.parse(Array(text.utf8), source: "test", environment: environment)
    }

    /// The diagnostics of a config document given as text (errors and warnings).
    public static func diagnostics(_ text: String) throws -> [ConfigDiagnostic] {
        let document = try JSONParser.parse(text)
        return ConfigLoader.validate(document).1
    }

    /// Replaces one member of the valid config's JSON, given as a dotted path, with raw JSON text.
    public static func validConfig(setting path: String, to json: String?) throws -> String {
        var document = try JSONParser.parse(validConfig)
        document = replace(document, path: path.split(separator: ".").map(String.init), with: try json.map { try JSONParser.parse($0) })
        return JSONWriter.string(document, style: .compact)
    }

    /// Replaces (or adds, or with nil removes) the member at `path` (keys and array indices).
    public static func replace(_ value: JSONValue, path: [String], with newValue: JSONValue?) -> JSONValue {
        guard let key = path.first else { return newValue ?? .null }
        switch value {
        case .object(var object):
            let rest = Array(path.dropFirst())
            if let index = object.members.firstIndex(where: { $0.key == key }) {
                if rest.isEmpty && newValue == nil {
                    object.members.remove(at: index)
                } else {
                    object.members[index].value = replace(object.members[index].value, path: rest, with: newValue)
                }
            } else if let newValue {
                object.append(key, rest.isEmpty ? newValue : replace(.object(JSONObject()), path: rest, with: newValue))
            }
            return .object(object)
        case .array(var elements):
            guard let index = Int(key), elements.indices.contains(index) else { return value }
            elements[index] = replace(elements[index], path: Array(path.dropFirst()), with: newValue)
            return .array(elements)
        default:
            return value
        }
    }

    /// A temporary folder with the given files, removed by the caller.
    public static func temporaryFolder(files: [String: String]) throws -> String {
        let root = "/tmp/linkhost-unit-\(UInt64.random(in: 0...UInt64.max))"
        for (path, contents) in files {
            let full = root + "/" + path
            let folder = String(full[..<full.lastIndex(of: "/")!])
            try createFolder(folder)
            try writeFile(full, contents)
        }
        try createFolder(root)
        return root
    }
}
