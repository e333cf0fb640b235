/// A compiled universal-link pattern: `*` (any run), `?` (any one character), `?*` (one or more) and
/// `$(name)` substitution variables.
///
/// The pattern becomes a small nondeterministic automaton that is run over the text one Unicode scalar at a
/// time, keeping the set of live states. That costs at most (text length × states) steps whatever the pattern,
/// so a hostile `*a*a*a*…` or a variable with thousands of values cannot make matching blow up the way
/// backtracking would.
public struct WildcardPattern: Sendable {
    /// The pattern as written.
    public let source: String
    /// Whether letters must match in case; when false both sides are folded to lower case.
    public let caseSensitive: Bool
    /// Why the pattern can never match anything (an undefined variable, an oversized expansion), or nil.
    public let problem: String?

    /// Most automaton states one pattern may expand to; beyond this the pattern is refused, not run.
    public static let maximumStates = 250_000

    /// The compiled automaton, in one object: a pattern is copied wherever a rule is read (hundreds of rules
    /// for each URL a site's lint asks), and a copy then retains one reference, not each of its arrays.
    private let automaton: Automaton

    /// The scalars every match begins with (the chain of plain scalars from the start, folded when case
    /// does not count): a text that does not begin so is refused before the automaton runs, which is most
    /// texts when a site has hundreds of rules with their own literal paths (`RuleIndex` looks rules up by it).
    var prefix: [Unicode.Scalar] { automaton.prefix }
    /// Whether `prefix` is the whole pattern: it matches exactly that text and nothing longer.
    var isLiteral: Bool { automaton.isLiteral }

    /// The states and what `matches` reads of them.
    private final class Automaton: Sendable {
        let states: [State]
        /// The sets of `oneOf` states and the targets of `split` states, kept aside so `State` stays plain data
        /// that the hot loop copies without reference counting.
        let sets: [Set<Unicode.Scalar>]
        let splits: [[Int]]
        let start: Int
        let prefix: [Unicode.Scalar]
        let isLiteral: Bool
        /// For an automaton of at most 64 states, per state the states it enters without consuming (itself when
        /// it consumes) as bits, so `matches` keeps its live set in one word and allocates nothing; empty otherwise.
        let closures: [UInt64]
        /// The accepting state's bit in `closures`.
        let acceptBits: UInt64
        /// A pattern without variables as its scalars (literal ones folded when case does not count), matched
        /// directly with no states at all: most patterns, and a site's lint compiles hundreds (issue 33).
        let glob: [Unicode.Scalar]?

        init(states: [State], sets: [Set<Unicode.Scalar>], splits: [[Int]], start: Int, prefix: [Unicode.Scalar], isLiteral: Bool,
             closures: [UInt64], acceptBits: UInt64) {
            (self.states, self.sets, self.splits, self.start, self.prefix) = (states, sets, splits, start, prefix)
            (self.isLiteral, self.closures, self.acceptBits, glob) = (isLiteral, closures, acceptBits, nil)
        }

        init(glob: [Unicode.Scalar]) {
            (states, sets, splits, start, closures, acceptBits) = ([], [], [], 0, [], 0)
            let wildcard = glob.firstIndex { $0 == "*" || $0 == "?" }
            (prefix, isLiteral, self.glob) = (Array(glob[..<(wildcard ?? glob.count)]), wildcard == nil, glob)
        }
    }

    private struct State: Sendable {
        enum Kind: UInt8, Sendable {
            case scalar, anyScalar, oneOf
            /// Consumes any scalar and stays; also passes on to `next` without consuming.
            case star
            case split, fail, accept
        }

        var kind: Kind
        var next: Int = 0
        var scalar: Unicode.Scalar = "\0"
        /// Index into `sets` for `oneOf`, into `splits` for `split`.
        var side: Int = 0
    }

    /// Compiles `source`, resolving `$(name)` against `variables`.
    public init(_ source: String, caseSensitive: Bool = true, variables: SubstitutionVariables = SubstitutionVariables()) {
        self.init(source, caseSensitive: caseSensitive, variables: variables, direct: true)
    }

    /// `direct: false` builds the automaton for a pattern without variables too: the reference that
    /// `WildcardDirectMatchTests` hold the direct match to.
    init(_ source: String, caseSensitive: Bool, variables: SubstitutionVariables, direct: Bool) {
        self.source = source
        self.caseSensitive = caseSensitive
        if direct, !source.utf8.contains(UInt8(ascii: "$")), source.utf8.count < Self.maximumStates {
            problem = nil
            automaton = Automaton(glob: source.unicodeScalars.map { caseSensitive || $0 == "*" || $0 == "?" ? $0 : Self.fold($0) })
            return
        }
        var builder = Builder(fold: !caseSensitive)
        // At least a state per scalar and the accepting one: grown once, not step by step.
        builder.states.reserveCapacity(source.utf8.count + 1)
        var next = builder.add(State(kind: .accept))
        var problem: String?
        for piece in PatternPiece.split(source).reversed() {
            switch piece {
            case .text(let text):
                next = builder.emitPattern(text, next: next)
            case .variable(let name):
                guard let value = variables.value(of: name) else {
                    problem = "the pattern uses $(\(name)), which is neither predefined nor in substitutionVariables"
                    continue
                }
                next = builder.emitVariable(value, next: next)
            }
            if builder.overflowed { break }
        }
        if builder.overflowed {
            problem = "the pattern expands to more than \(Self.maximumStates) states"
        }
        self.problem = problem
        let (states, sets, splits, start): ([State], [Set<Unicode.Scalar>], [[Int]], Int) =
            problem != nil ? ([State(kind: .fail)], [], [], 0) : (builder.states, builder.sets, builder.splits, next)
        // Counted first, so the kept array is made at its size rather than grown scalar by scalar.
        var state = start
        var length = 0
        while states[state].kind == .scalar {
            length += 1
            state = states[state].next
        }
        var prefix: [Unicode.Scalar] = []
        prefix.reserveCapacity(length)
        state = start
        while states[state].kind == .scalar {
            prefix.append(states[state].scalar)
            state = states[state].next
        }
        let (closures, acceptBits) = Self.closures(of: states, splits: splits)
        automaton = Automaton(states: states, sets: sets, splits: splits, start: start, prefix: prefix,
                              isLiteral: problem == nil && states[state].kind == .accept, closures: closures, acceptBits: acceptBits)
    }

    /// `closures` and `acceptBits` for `states`: every state's targets have lower indices (the automaton is
    /// built back to front), so one pass upward finds each closure from those already found.
    private static func closures(of states: [State], splits: [[Int]]) -> ([UInt64], UInt64) {
        guard states.count <= 64 else { return ([], 0) }
        var closures = [UInt64](repeating: 0, count: states.count)
        var accept: UInt64 = 0
        for (index, state) in states.enumerated() {
            let bit = UInt64(1) << UInt64(index)
            switch state.kind {
            case .scalar, .anyScalar, .oneOf: closures[index] = bit
            case .star:
                guard state.next < index else { return ([], 0) }
                closures[index] = bit | closures[state.next]
            case .split:
                for target in splits[state.side] {
                    guard target < index else { return ([], 0) }
                    closures[index] |= closures[target]
                }
            case .fail: break
            case .accept:
                closures[index] = bit
                accept |= bit
            }
        }
        return (closures, accept)
    }

    /// Whether the whole of `text` matches the pattern.
    public func matches(_ text: String) -> Bool {
        guard problem == nil else { return false }
        let automaton = automaton
        if let glob = automaton.glob { return matches(glob: glob, text.unicodeScalars) }
        var scalars = text.unicodeScalars.makeIterator()
        for expected in automaton.prefix {
            guard let raw = scalars.next(), (caseSensitive ? raw : Self.fold(raw)) == expected else { return false }
        }
        if !automaton.closures.isEmpty { return matchesInWord(scalars) }
        let (states, sets) = (automaton.states, automaton.sets)
        var run = Run(stateCount: states.count)
        var live: [Int] = []
        var next: [Int] = []
        var accepting = enter(automaton.start, run: &run, into: &live)
        for raw in text.unicodeScalars {
            if live.isEmpty { return false }
            let scalar = caseSensitive ? raw : Self.fold(raw)
            run.generation += 1
            next.removeAll(keepingCapacity: true)
            accepting = false
            for index in live {
                let state = states[index]
                let passes: Bool
                switch state.kind {
                case .scalar: passes = state.scalar == scalar
                case .anyScalar: passes = true
                case .oneOf: passes = sets[state.side].contains(scalar)
                case .star: passes = true
                case .split, .fail, .accept: passes = false
                }
                guard passes else { continue }
                if enter(state.kind == .star ? index : state.next, run: &run, into: &next) { accepting = true }
            }
            swap(&live, &next)
        }
        return accepting
    }

    /// `matches` for an automaton of at most 64 states, the rest of the text after the literal prefix
    /// (which enters the state after it).
    private func matchesInWord(_ rest: String.UnicodeScalarView.Iterator) -> Bool {
        let automaton = automaton
        let (states, sets, closures, acceptBits) = (automaton.states, automaton.sets, automaton.closures, automaton.acceptBits)
        var rest = rest
        var state = automaton.start
        for _ in automaton.prefix { state = states[state].next }
        var live = closures[state]
        let consuming = ~acceptBits
        while let raw = rest.next() {
            var bits = live & consuming
            if bits == 0 { return false }
            let scalar = caseSensitive ? raw : Self.fold(raw)
            live = 0
            while bits != 0 {
                let index = bits.trailingZeroBitCount
                bits &= bits - 1
                let state = states[index]
                let passes: Bool
                switch state.kind {
                case .scalar: passes = state.scalar == scalar
                case .anyScalar, .star: passes = true
                case .oneOf: passes = sets[state.side].contains(scalar)
                case .split, .fail, .accept: passes = false
                }
                if passes { live |= closures[state.kind == .star ? index : state.next] }
            }
        }
        return live & acceptBits != 0
    }

    /// `matches` for a pattern of `*`, `?` and literal scalars: on a mismatch the last `*` takes one more
    /// scalar and what follows it is tried again, at most (text length × pattern length) steps, as the automaton.
    private func matches(glob: [Unicode.Scalar], _ text: String.UnicodeScalarView) -> Bool {
        var position = 0
        var index = text.startIndex
        var lastStar: (position: Int, index: String.UnicodeScalarView.Index)?
        while index != text.endIndex {
            if position < glob.count, glob[position] == "*" {
                lastStar = (position, index)
                position += 1
                continue
            }
            if position < glob.count, glob[position] == "?" || glob[position] == (caseSensitive ? text[index] : Self.fold(text[index])) {
                position += 1
                text.formIndex(after: &index)
                continue
            }
            guard let star = lastStar else { return false }
            let taken = text.index(after: star.index)
            (lastStar, position, index) = ((star.position, taken), star.position + 1, taken)
        }
        while position < glob.count, glob[position] == "*" { position += 1 }
        return position == glob.count
    }

    /// Lower-cases one scalar for case-insensitive matching; a scalar whose lower case is several scalars stays.
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            guard scalar.value >= 0x41, scalar.value <= 0x5A else { return scalar }
            return Unicode.Scalar(UInt8(scalar.value + 0x20))
        }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        guard lower.count == 1, let only = lower.first else { return scalar }
        return only
    }

    /// Per-call scratch space: `marks[state] == generation` means the state is already live for this step.
    private struct Run {
        var marks: [Int]
        var generation = 0
        var stack: [Int] = []
        init(stateCount: Int) { marks = Array(repeating: -1, count: stateCount) }
    }

    /// Adds `state` and everything reachable from it without consuming to `live`; true when that reaches accept.
    private func enter(_ state: Int, run: inout Run, into live: inout [Int]) -> Bool {
        var accepting = false
        run.stack.append(state)
        while let current = run.stack.popLast() {
            guard run.marks[current] != run.generation else { continue }
            run.marks[current] = run.generation
            let node = automaton.states[current]
            switch node.kind {
            case .split: run.stack.append(contentsOf: automaton.splits[node.side])
            case .star:
                live.append(current)
                run.stack.append(node.next)
            case .accept: accepting = true
            case .fail: break
            case .scalar, .anyScalar, .oneOf: live.append(current)
            }
        }
        return accepting
    }

    /// Builds the automaton back to front, so every piece already knows the state that follows it.
    private struct Builder {
        var states: [State] = []
        var sets: [Set<Unicode.Scalar>] = []
        var splits: [[Int]] = []
        let fold: Bool
        var overflowed = false

        init(fold: Bool) { self.fold = fold }

        mutating func add(_ state: State) -> Int {
            if states.count >= WildcardPattern.maximumStates {
                overflowed = true
                return 0
            }
            states.append(state)
            return states.count - 1
        }

        mutating func emitScalar(_ scalar: Unicode.Scalar, next: Int) -> Int {
            add(State(kind: .scalar, next: next, scalar: fold ? WildcardPattern.fold(scalar) : scalar))
        }

        mutating func emitPattern(_ text: String, next: Int) -> Int {
            var next = next
            for scalar in text.unicodeScalars.reversed() {
                switch scalar {
                case "*": next = add(State(kind: .star, next: next))
                case "?": next = add(State(kind: .anyScalar, next: next))
                default: next = emitScalar(scalar, next: next)
                }
                if overflowed { return next }
            }
            return next
        }

        mutating func emitLiteral(_ text: String, next: Int) -> Int {
            var next = next
            for scalar in text.unicodeScalars.reversed() {
                next = emitScalar(scalar, next: next)
                if overflowed { return next }
            }
            return next
        }

        mutating func emitVariable(_ value: SubstitutionVariables.Value, next: Int) -> Int {
            switch value {
            case .oneOf(let set):
                sets.append(fold ? Set(set.map(WildcardPattern.fold)) : set)
                return add(State(kind: .oneOf, next: next, side: sets.count - 1))
            case .literals(let alternatives):
                return emitAlternatives(alternatives, next: next) { builder, text, next in builder.emitLiteral(text, next: next) }
            case .patterns(let alternatives):
                return emitAlternatives(alternatives, next: next) { builder, text, next in builder.emitPattern(text, next: next) }
            }
        }

        private mutating func emitAlternatives(
            _ alternatives: [String], next: Int, emit: (inout Builder, String, Int) -> Int
        ) -> Int {
            // A variable with no values can stand for nothing, so nothing gets through it.
            guard !alternatives.isEmpty else { return add(State(kind: .fail)) }
            var starts: [Int] = []
            for text in alternatives {
                starts.append(emit(&self, text, next))
                if overflowed { return next }
            }
            splits.append(starts)
            return add(State(kind: .split, side: splits.count - 1))
        }
    }
}
