import LinkHostJSON
import Synchronization

/// `AASALinter.diagnostics(bytes:)` for the AASA files `check` fetches, run once for the files of a run that
/// differ only in their valid app IDs: a fleet of a thousand tenants of one rule set serves a thousand such
/// files, and comparing every pair of rules (LH201–LH203) cost three quarters of a fleet check.
///
/// The files are linted in `SharedAASALint`'s canonical form (each app ID a valid stand-in), as `validate`
/// lints the generated ones; a finding that names a stand-in belongs to the file's own IDs, so that file is
/// linted as it is. Safe to call from the threads that check hosts side by side.
package final class ServedAASALint: Sendable {
    /// How many canonical documents are kept; a fleet has a few rule sets, and each kept one holds its bytes.
    static let capacity = 16

    private let known = Mutex<[(document: [UInt8], diagnostics: [LintDiagnostic])]>([])

    /// Makes an empty cache.
    package init() {}

    /// How many canonical documents are kept now (tests).
    var keptDocuments: Int { known.withLock { $0.count } }

    /// The problems of served AASA bytes, exactly as `AASALinter.diagnostics(bytes:)` finds them.
    package func diagnostics(bytes: [UInt8]) -> [LintDiagnostic] {
        let document: JSONValue
        switch LintDiagnostic.parseDocument(bytes) {
        case .success(let parsed): document = parsed
        case .failure: return AASALinter.diagnostics(bytes: bytes)
        }
        guard let (canonical, standIns) = SharedAASALint.canonical(document) else { return AASALinter.diagnostics(bytes: bytes) }
        let key = JSONWriter.bytes(canonical)
        let size = bytes.count > AASAGenerator.maximumSize ? AASALinter.sizeDiagnostic(bytes.count) : []
        if let found = known.withLock({ $0.first { $0.document == key }?.diagnostics }) { return size + found }
        let found = AASALinter.diagnostics(document: canonical) { $0.description }
        guard !found.contains(where: { finding in standIns.contains { finding.message.contains($0) || finding.path.contains($0) } }) else {
            return AASALinter.diagnostics(bytes: bytes)
        }
        known.withLock { known in
            if !known.contains(where: { $0.document == key }) { known.append((key, found)) }
            if known.count > Self.capacity { known.removeFirst() }
        }
        return size + found
    }
}
