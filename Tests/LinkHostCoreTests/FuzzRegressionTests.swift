import Foundation
import Testing
@testable import LinkHostCore
import LinkHostFuzzTargets

/// Replays the fuzzers' seed corpora and every input that once crashed a fuzzer (Fuzz/regressions),
/// through the very entry points the harnesses call.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    private static func run(_ target: String, _ bytes: [UInt8]) {
        switch target {
        case "config": FuzzTargets.config(bytes)
        case "router": FuzzTargets.router(bytes)
        case "template": FuzzTargets.template(bytes)
        case "appfiles": FuzzTargets.appFiles(bytes)
        case "android": FuzzTargets.android(bytes)
        default: FuzzTargets.matcher(bytes)
        }
    }

    private static func inputs(_ target: String) throws -> [String] {
        let file = #filePath
        let root = String(file[..<file.range(of: "/Tests/")!.lowerBound]) + "/Fuzz"
        return try ["corpus", "regressions"].flatMap { folder in
            let directory = "\(root)/\(folder)/\(target)"
            return try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }.map { "\(directory)/\($0)" }
        }
    }

    @Test("every saved input runs to the end", arguments: ["config", "router", "template", "matcher", "appfiles", "android"])
    func replay(target: String) throws {
        let files = try Self.inputs(target)
        #expect(!files.isEmpty, "no inputs for \(target)")
        for path in files {
            Self.run(target, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
    }
}
