import CallLinks
import Synchronization

/// A site's Android dynamic rules derived from its link templates (`DerivedAASARules.androidRules`), made
/// when first read and kept: only a site with Android apps reads them (its assetlinks.json, the platform
/// checks), and sites that share their resolved AASA settings share one of these, so they are made once.
final class DerivedAndroidRules: Sendable {
    /// The templates the rules come from and, by template, the index of its first AASA rule; nil when the
    /// rules were given as they are.
    private let source: (templates: [CallLinkTemplate], firstAASARule: [Int: Int])?
    private let made: Mutex<[(rule: DynamicAppLinkRule, source: Int)]?>

    /// The rules of `links`' templates, each with the index of the first AASA rule of its template
    /// (`firstAASARule`, 0 for a template without one), derived when first read.
    init(links: CallLinkSettings, firstAASARule: [Int: Int]) {
        source = (links.links.templates, firstAASARule)
        made = Mutex(nil)
    }

    /// Rules given as they are.
    init(_ rules: [(rule: DynamicAppLinkRule, source: Int)]) {
        source = nil
        made = Mutex(rules)
    }

    /// The rules, each with the index of an AASA rule of its template.
    var rules: [(rule: DynamicAppLinkRule, source: Int)] {
        made.withLock { made in
            if let made { return made }
            guard let source else { return [] }
            let rules: [(rule: DynamicAppLinkRule, source: Int)] = DerivedAASARules.androidRules(for: source.templates).map { entry in
                (entry.rule, source.firstAASARule[entry.template] ?? 0)
            }
            made = rules
            return rules
        }
    }

    /// Whether the rules have been made (or were given).
    var isDerived: Bool { made.withLock { $0 != nil } }

    /// Whether two sets of rules are the same: without deriving them when they come from the same templates.
    static func same(_ lhs: DerivedAndroidRules?, _ rhs: DerivedAndroidRules?) -> Bool {
        if lhs === rhs { return true }
        if let left = lhs?.source, let right = rhs?.source, left.templates == right.templates, left.firstAASARule == right.firstAASARule { return true }
        let (left, right) = (lhs?.rules ?? [], rhs?.rules ?? [])
        return left.map { $0.rule } == right.map { $0.rule } && left.map { $0.source } == right.map { $0.source }
    }
}
