@testable import LinkHostCore
@testable import LinkHostServer
import Testing

/// `ReloadPolicy` decides what a SIGHUP refuses; `ConfigKeyTable` (and the README generated from it) says
/// so per key. The two must agree.
@Suite("Reload policy and the key table")
struct ReloadPolicyTableTests {
    @Test("every rule names a key of the table, which says the same about a reload")
    func rulesMatchTheTable() throws {
        for rule in ReloadPolicy.rules {
            let key = try #require(ConfigKeys.key(rule.key), "\(rule.key) is not in ConfigKeyTable")
            #expect((key.reload == .applied) == rule.applies, "\(rule.key): ReloadPolicy says \(rule.applies ? "applied" : "refused"), the table \(key.reload)")
        }
    }

    @Test("every key the table says needs a restart is refused by a rule for it or for the object holding it")
    func restartKeysAreRefused() {
        let refusing = ReloadPolicy.rules.filter { !$0.applies }.map(\.key)
        for key in ConfigKeys.all where key.reload == .restart {
            #expect(refusing.contains { key.path == $0 || key.path.hasPrefix($0 + ".") }, "\(key.path) needs a restart, but ReloadPolicy refuses no change of it")
        }
    }
}
