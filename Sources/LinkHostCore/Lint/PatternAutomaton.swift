import CallLinks

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
        /// Any scalar not in `sets[index]`.
        case anyExcept(Int)
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
    private var exceptEdges: [[(set: Int, target: Int)]] = []

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
        finish()
    }

    /// Indexes the edges for stepping, once the automaton is built.
    private mutating func finish() {
        for list in edges {
            var scalars: [Unicode.Scalar: [Int]] = [:]
            var throughSets: [(set: Int, target: Int)] = []
            var anything: [Int] = []
            var excepting: [(set: Int, target: Int)] = []
            for edge in list {
                switch edge.label {
                case .scalar(let scalar): scalars[scalar, default: []].append(edge.target)
                case .set(let index): throughSets.append((index, edge.target))
                case .any: anything.append(edge.target)
                case .anyExcept(let index): excepting.append((index, edge.target))
                }
            }
            byScalar.append(scalars)
            setEdges.append(throughSets)
            anyEdges.append(anything)
            exceptEdges.append(excepting)
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
            for edge in exceptEdges[state] where !sets[edge.set].contains(scalar) { targets.append(edge.target) }
        }
        return targets.isEmpty ? [] : closure(targets)
    }

    /// The scalars some state of `states` can consume, or nil when one consumes anything.
    ///
    /// Only these can extend a text the automaton still matches, so only these need exploring.
    private func consumable(_ states: [Int]) -> Set<Unicode.Scalar>? {
        var scalars = Set<Unicode.Scalar>()
        for state in states {
            if !anyEdges[state].isEmpty || !exceptEdges[state].isEmpty { return nil }
            scalars.formUnion(byScalar[state].keys)
            for edge in setEdges[state] { scalars.formUnion(sets[edge.set]) }
        }
        return scalars
    }

    /// Most work one comparison may take, so one pathological pair cannot use up a whole file's budget.
    static let maximumWorkPerComparison = 50_000

    /// Whether every text `inner` matches, `self` matches too; nil when `budget` (work shared across calls,
    /// counted in symbol steps of state sets) runs out first.
    func contains(_ inner: PatternAutomaton, budget: inout Int) -> Bool? {
        Self.texts(in: inner, outside: [self], limit: 1, shortest: false, budget: &budget).map(\.isEmpty)
    }

    /// Up to `limit` texts that `inner` matches and none of `outers` does, shortest first (or, when not
    /// `shortest`, depth first, which reaches some text sooner); nil when `budget` runs out before the search
    /// ends (or finds `limit`).
    ///
    /// All automata are determinized on the fly and walked in step; a state where `inner` accepts and no
    /// outer one does ends a text that proves it. A scalar no automaton names is written as the first of
    /// `placeholders` that none names (the search treats all such scalars alike).
    static func texts(
        in inner: PatternAutomaton, outside outers: [PatternAutomaton], limit: Int, shortest: Bool = true, budget: inout Int,
        placeholders: [Unicode.Scalar] = ["x", "q", "z", ".", "~", "!"]
    ) -> [String]? {
        var alphabet = outers.reduce(inner.alphabet) { $0.union($1.alphabet) }
        // One stand-in for every scalar no automaton names.
        var other = Unicode.Scalar(0xE000)!
        while alphabet.contains(other) { other = Unicode.Scalar(other.value + 1) ?? other }
        alphabet.insert(other)
        let shown = placeholders.first { !alphabet.contains($0) } ?? other
        // Letters and digits first, then by value, so the texts found read naturally and the same every run.
        func rank(_ scalar: Unicode.Scalar) -> (Int, UInt32) {
            (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) ? 0 : 1, scalar.value)
        }
        let symbols = alphabet.sorted { rank($0) < rank($1) }
        // Each explored state steps every automaton over the symbols that matter; that is the work the budget counts.
        let granted = min(budget, maximumWorkPerComparison)
        var allowance = granted
        defer { budget -= granted - allowance }

        struct Pair: Hashable {
            let inner: [Int]
            let outer: [[Int]]
        }
        // Each state with the one it was reached from, so a text can be read back.
        var states = [Pair(inner: inner.closure([inner.start]), outer: outers.map { $0.closure([$0.start]) })]
        var parents: [(state: Int, symbol: Unicode.Scalar)] = [(-1, other)]
        var seen: Set<Pair> = [states[0]]
        var found: [String] = []
        func isWitness(_ pair: Pair) -> Bool {
            pair.inner.contains(inner.accept) && !zip(outers, pair.outer).contains { $1.contains($0.accept) }
        }
        func text(_ index: Int) -> String {
            var scalars: [Unicode.Scalar] = []
            var at = index
            while at > 0 {
                scalars.append(parents[at].symbol == other ? shown : parents[at].symbol)
                at = parents[at].state
            }
            return String(String.UnicodeScalarView(scalars.reversed()))
        }
        if isWitness(states[0]) { found.append("") }
        var pending = [0]
        var next = 0
        while next < pending.count, found.count < limit {
            let index = shortest ? pending[next] : pending.removeLast()
            if shortest { next += 1 }
            let pair = states[index]
            // A symbol the inner automaton cannot consume ends every inner text, so it proves nothing.
            let candidates = inner.consumable(pair.inner).map { $0.sorted { rank($0) < rank($1) } } ?? symbols
            allowance -= candidates.count * (pair.inner.count + pair.outer.reduce(0) { $0 + $1.count } + 1)
            if allowance < 0 {
                allowance = 0
                return nil
            }
            for symbol in candidates {
                let nextInner = inner.step(pair.inner, symbol)
                if nextInner.isEmpty { continue }
                let following = Pair(inner: nextInner, outer: zip(outers, pair.outer).map { $0.step($1, symbol) })
                // Every edge into a proving state gives a text, seen state or not, so texts of several
                // lengths come out (`/a/b`, `/a/bb`), not one per state.
                if isWitness(following) {
                    found.append(text(index) + String(Character(symbol == other ? shown : symbol)))
                    if found.count >= limit { break }
                }
                if seen.insert(following).inserted {
                    pending.append(states.count)
                    states.append(following)
                    parents.append((index, symbol))
                }
            }
        }
        return found
    }

    /// The automaton of a link template's paths as iOS compares them (`PathNormalization.path`): `/`, the
    /// segments, a closing `/` (or none). A placeholder is its shape, what a rule can say: `{callId}` one or more
    /// characters but `/`, `{callType}:{callId}` two runs of characters but `/` and `:` around one `:`.
    /// Which characters a token may hold, and its length, are left out: no rule can list every other one.
    init(templatePath template: CallLinkTemplate) {
        start = newState()
        var current = start
        sets = [["/"], ["/", ":"]]
        func run(from state: Int, except set: Int) -> Int {
            let loop = newState()
            edges[state].append((.anyExcept(set), loop))
            edges[loop].append((.anyExcept(set), loop))
            return loop
        }
        for segment in template.segments {
            current = appendLiteral("/", from: current, fold: false)
            switch segment {
            case .literal(let text): current = appendLiteral(text, from: current, fold: false)
            case .callID: current = run(from: current, except: 0)
            case .typedCallID: current = run(from: appendLiteral(":", from: run(from: current, except: 1), fold: false), except: 1)
            }
        }
        accept = appendLiteral("/", from: current, fold: false)
        // Texts are compared as written too: the closing `/` may be missing.
        epsilons[current].append(accept)
        finish()
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
