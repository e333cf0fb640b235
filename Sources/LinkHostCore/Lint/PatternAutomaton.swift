/// A universal-link pattern as an automaton the linter can compare with another: does every text one
/// pattern matches also match the other?
///
/// `WildcardPattern` answers "does this text match"; shadowing needs "is this pattern's language inside
/// that one's", which needs the automaton itself. The construction follows the matcher's reading:
/// `*` any run, `?` any one character, `$(name)` one of the variable's values (custom values are patterns,
/// predefined ones literal or a character class).
struct PatternAutomaton: Sendable {
    /// What an edge consumes.
    enum Label: Hashable, Sendable {
        case scalar(Unicode.Scalar)
        /// Index into `sets`.
        case set(Int)
        case any
    }

    private(set) var edges: [[(label: Label, target: Int)]] = []
    private(set) var epsilons: [[Int]] = []
    private(set) var sets: [Set<Unicode.Scalar>] = []
    private(set) var start = 0
    private(set) var accept = 0
    /// The edges indexed for stepping: by scalar, through sets, and on anything (built once, after construction).
    private var byScalar: [[Unicode.Scalar: [Int]]] = []
    private var setEdges: [[(set: Int, target: Int)]] = []
    private var anyEdges: [[Int]] = []

    /// Most states one pattern may build; beyond it the linter gives up on that comparison.
    static let maximumStates = 20_000

    /// Builds the automaton of `pattern`, its letters folded to lower case when `fold`; nil when the pattern
    /// uses an undefined variable (it matches nothing) or is too large to compare.
    init?(pattern: String, fold: Bool, variables: SubstitutionVariables) {
        start = newState()
        var current = start
        for piece in PatternPiece.split(pattern) {
            switch piece {
            case .text(let text):
                current = appendPattern(text, from: current, fold: fold)
            case .variable(let name):
                guard let value = variables.value(of: name) else { return nil }
                switch value {
                case .oneOf(let set):
                    sets.append(fold ? Set(set.map(WildcardPattern.fold)) : set)
                    let target = newState()
                    edges[current].append((.set(sets.count - 1), target))
                    current = target
                case .literals(let alternatives), .patterns(let alternatives):
                    let isPattern = if case .patterns = value { true } else { false }
                    let end = newState()
                    for alternative in alternatives {
                        let last = isPattern
                            ? appendPattern(alternative, from: current, fold: fold)
                            : appendLiteral(alternative, from: current, fold: fold)
                        epsilons[last].append(end)
                    }
                    current = end
                }
            }
            if edges.count > Self.maximumStates { return nil }
        }
        accept = current
        for list in edges {
            var scalars: [Unicode.Scalar: [Int]] = [:]
            var throughSets: [(set: Int, target: Int)] = []
            var anything: [Int] = []
            for edge in list {
                switch edge.label {
                case .scalar(let scalar): scalars[scalar, default: []].append(edge.target)
                case .set(let index): throughSets.append((index, edge.target))
                case .any: anything.append(edge.target)
                }
            }
            byScalar.append(scalars)
            setEdges.append(throughSets)
            anyEdges.append(anything)
        }
    }

    private mutating func newState() -> Int {
        edges.append([])
        epsilons.append([])
        return edges.count - 1
    }

    private mutating func appendLiteral(_ text: String, from state: Int, fold: Bool) -> Int {
        var current = state
        for scalar in text.unicodeScalars {
            let target = newState()
            edges[current].append((.scalar(fold ? WildcardPattern.fold(scalar) : scalar), target))
            current = target
        }
        return current
    }

    private mutating func appendPattern(_ text: String, from state: Int, fold: Bool) -> Int {
        var current = state
        for scalar in text.unicodeScalars {
            switch scalar {
            case "*":
                // A fresh state loops on anything; looping on `current` could let other branches repeat.
                let loop = newState()
                epsilons[current].append(loop)
                edges[loop].append((.any, loop))
                current = loop
            case "?":
                let target = newState()
                edges[current].append((.any, target))
                current = target
            default:
                let target = newState()
                edges[current].append((.scalar(fold ? WildcardPattern.fold(scalar) : scalar), target))
                current = target
            }
        }
        return current
    }

    /// The scalars the automaton tells apart; every other scalar behaves alike (only `any` takes it).
    private var alphabet: Set<Unicode.Scalar> {
        var scalars = Set<Unicode.Scalar>()
        for list in edges {
            for edge in list {
                if case .scalar(let scalar) = edge.label { scalars.insert(scalar) }
            }
        }
        for set in sets { scalars.formUnion(set) }
        return scalars
    }

    private func closure(_ states: [Int]) -> [Int] {
        var seen = Set(states)
        var stack = states
        while let state = stack.popLast() {
            for next in epsilons[state] where seen.insert(next).inserted { stack.append(next) }
        }
        return seen.sorted()
    }

    private func step(_ states: [Int], _ scalar: Unicode.Scalar) -> [Int] {
        var targets: [Int] = []
        for state in states {
            if let direct = byScalar[state][scalar] { targets.append(contentsOf: direct) }
            for edge in setEdges[state] where sets[edge.set].contains(scalar) { targets.append(edge.target) }
            targets.append(contentsOf: anyEdges[state])
        }
        return targets.isEmpty ? [] : closure(targets)
    }

    /// The scalars some state of `states` can consume, or nil when one consumes anything.
    ///
    /// Only these can extend a text the automaton still matches, so only these need exploring.
    private func consumable(_ states: [Int]) -> Set<Unicode.Scalar>? {
        var scalars = Set<Unicode.Scalar>()
        for state in states {
            if !anyEdges[state].isEmpty { return nil }
            scalars.formUnion(byScalar[state].keys)
            for edge in setEdges[state] { scalars.formUnion(sets[edge.set]) }
        }
        return scalars
    }

    /// Most work one comparison may take, so one pathological pair cannot use up a whole file's budget.
    static let maximumWorkPerComparison = 50_000

    /// Whether every text `inner` matches, `self` matches too; nil when `budget` (work shared across calls,
    /// counted in symbol steps of state sets) runs out first.
    ///
    /// Both automata are determinized on the fly and walked in step; a pair where `inner` accepts and
    /// `self` does not is a text that proves the answer is no.
    func contains(_ inner: PatternAutomaton, budget: inout Int) -> Bool? {
        var alphabet = self.alphabet.union(inner.alphabet)
        // One stand-in for every scalar neither automaton names.
        var other = Unicode.Scalar(0xE000)!
        while alphabet.contains(other) { other = Unicode.Scalar(other.value + 1) ?? other }
        alphabet.insert(other)
        let symbols = Array(alphabet)
        // Each explored pair steps both automata over the symbols that matter; that is the work the budget counts.
        let granted = min(budget, Self.maximumWorkPerComparison)
        var allowance = granted
        defer { budget -= granted - allowance }

        struct Pair: Hashable {
            let inner: [Int]
            let outer: [Int]
        }
        let first = Pair(inner: inner.closure([inner.start]), outer: closure([start]))
        var seen: Set<Pair> = [first]
        var pending = [first]
        while let pair = pending.popLast() {
            if pair.inner.contains(inner.accept) && !pair.outer.contains(accept) { return false }
            // A symbol the inner automaton cannot consume ends every inner text, so it proves nothing.
            let candidates = inner.consumable(pair.inner).map { Array($0) } ?? symbols
            allowance -= candidates.count * (pair.inner.count + pair.outer.count + 1)
            if allowance < 0 {
                allowance = 0
                return nil
            }
            for symbol in candidates {
                let nextInner = inner.step(pair.inner, symbol)
                if nextInner.isEmpty { continue }
                let next = Pair(inner: nextInner, outer: step(pair.outer, symbol))
                if seen.insert(next).inserted { pending.append(next) }
            }
        }
        return true
    }

    /// The literal text a pattern ends with, after its last wildcard or variable, folded when `fold`.
    ///
    /// Like prefixes, suffixes that disagree rule containment out without building automata.
    static func literalSuffix(_ pattern: String, fold: Bool) -> String {
        guard case .text(let text)? = PatternPiece.split(pattern).last else { return "" }
        var suffix: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars.reversed() {
            if scalar == "*" || scalar == "?" { break }
            suffix.append(fold ? WildcardPattern.fold(scalar) : scalar)
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: suffix.reversed())
        return String(view)
    }

    /// The literal text a pattern starts with, up to its first wildcard or variable, folded when `fold`.
    ///
    /// Two patterns whose prefixes disagree cannot contain one another, which spares most comparisons.
    static func literalPrefix(_ pattern: String, fold: Bool) -> String {
        guard case .text(let text)? = PatternPiece.split(pattern).first else { return "" }
        var prefix = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "*" || scalar == "?" { break }
            prefix.append(fold ? WildcardPattern.fold(scalar) : scalar)
        }
        return String(prefix)
    }
}
