import Foundation
import Testing

/// CallLinks must build for iOS 15+ and macOS 12+ as well as Linux; no Apple SDK is available here, so
/// this reads the target's sources for what would break there: Linux-only modules, C, Foundation
/// outside the one URL file, and standard-library API newer than iOS 15 / macOS 12.
@Suite("CallLinks portability")
struct PortabilityTests {
    static let folder: String = {
        let file = #filePath
        return String(file[..<file.range(of: "/Tests/")!.lowerBound]) + "/Sources/CallLinks"
    }()

    static func sources() throws -> [(name: String, text: String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { ($0, try String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) }
    }

    /// Code lines only: comments (which may mention these names) removed.
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
    }

    @Test("no C, no Linux-only module, and Foundation only in CallLinkParser+URL.swift, on Apple platforms, behind canImport")
    func imports() throws {
        let files = try Self.sources()
        #expect(files.count >= 6)
        for (name, text) in files {
            let code = Self.code(text)
            for banned in ["Glibc", "Musl", "Darwin", "CSystem", "CMicroHTTPD", "LinkHostCore", "LinkHostJSON", "os(Linux)", "@_implementationOnly", "unsafeBitCast", "Unsafe"] {
                #expect(!code.contains(banned), "\(name) uses \(banned)")
            }
            let imports = code.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") }
            if name == "CallLinkParser+URL.swift" {
                #expect(imports.map { $0.trimmingCharacters(in: .whitespaces) } == ["import FoundationEssentials", "import Foundation"])
                #expect(code.contains("#if canImport(FoundationEssentials)") && code.contains("#elseif canImport(Foundation)"))
                // Apple platforms only: on Linux the server links CallLinks, and Foundation would come with it.
                let first = code.split(separator: "\n").first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                #expect(first == "#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)", "\(first ?? "")")
            } else {
                #expect(imports.isEmpty, "\(name) imports \(imports)")
            }
        }
    }

    @Test("no standard-library API newer than iOS 15 / macOS 12")
    func availability() throws {
        // _StringProcessing (iOS 16), String(validating:) (iOS 18), Regex, Clock/Duration (iOS 16),
        // Synchronization (iOS 18), typed collection existentials (iOS 16).
        let newer = ["firstRange(", "ranges(of:", ".replacing(", "trimmingPrefix(", "wholeMatch(", "prefixMatch(", "Regex", "#/",
                     "String(validating:", "Duration", "ContinuousClock", "SuspendingClock", "Mutex", "Atomic", "any Collection<",
                     "any Sequence<", ".formatted(", "InlineArray", "Span<", "UTF8Span"]
        for (name, text) in try Self.sources() {
            let code = Self.code(text)
            for api in newer {
                #expect(!code.contains(api), "\(name) uses \(api), which needs a newer OS than iOS 15 / macOS 12")
            }
            // `contains` and `split` with a string of more than one character are _StringProcessing's (iOS 16);
            // with one character they are the Sequence methods every OS has.
            let pattern = try NSRegularExpression(pattern: #"\.(contains|split)\((separator: )?"[^"\\]{2,}""#)
            let matches = pattern.numberOfMatches(in: code, range: NSRange(code.startIndex..., in: code))
            #expect(matches == 0, "\(name) calls contains() or split() with a multi-character string")
        }
    }

    @Test("the package declares iOS 15 and macOS 12, and the CallLinks product depends on nothing")
    func manifest() throws {
        let text = try String(contentsOfFile: Self.folder + "/../../Package.swift", encoding: .utf8)
        #expect(text.contains("platforms: [.iOS(.v15), .macOS(.v12)]"))
        #expect(text.contains(#".library(name: "CallLinks", targets: ["CallLinks"])"#))
        #expect(text.contains(#".target(name: "CallLinks"),"#), "CallLinks must stay a target without dependencies")
    }
}
