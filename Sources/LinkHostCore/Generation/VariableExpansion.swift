/// Writes a rule's `$(name)` substitution variables out for Android, which has none: one concrete rule
/// per combination of values, or, beyond `maximumVariants`, each variable widened to a wildcard.
enum VariableExpansion {
    /// The most rules one AASA rule may become; `$(lang)_$(region)` alone would be tens of thousands.
    static let maximumVariants = 100

    /// What expanding a rule's patterns gives.
    enum Outcome: Equatable {
        /// The patterns without variables, one array (same order as given) per combination.
        case variants([[String]])
        /// A variable is neither predefined nor defined, so iOS never matches the rule.
        case undefined(String)
        /// More than `maximumVariants` combinations: the patterns with every variable replaced by a wildcard.
        case widened([String], combinations: Int, names: [String])
    }

    /// Expands every variable occurrence of `patterns` independently, as iOS matches each on its own.
    static func expand(_ patterns: [String], variables: SubstitutionVariables) -> Outcome {
        let pieces = patterns.map(PatternPiece.split)
        var alternatives: [[String]] = []
        var widening: [String] = []
        var names: [String] = []
        for case .variable(let name) in pieces.joined() {
            guard let value = variables.value(of: name) else { return .undefined(name) }
            let values = Self.values(of: value)
            alternatives.append(values)
            widening.append(Self.widening(of: value))
            if !names.contains(name) { names.append(name) }
        }
        guard !alternatives.isEmpty else { return .variants([patterns]) }
        var combinations = 1
        for values in alternatives {
            let (product, overflow) = combinations.multipliedReportingOverflow(by: max(values.count, 1))
            combinations = overflow ? Int.max : product
        }
        if alternatives.contains(where: \.isEmpty) { return .variants([]) }
        if combinations > maximumVariants {
            return .widened(fill(pieces, with: widening), combinations: combinations, names: names)
        }
        var variants: [[String]] = []
        var choice = Array(repeating: 0, count: alternatives.count)
        while true {
            variants.append(fill(pieces, with: choice.enumerated().map { alternatives[$0.offset][$0.element] }))
            var position = alternatives.count - 1
            while position >= 0 {
                choice[position] += 1
                if choice[position] < alternatives[position].count { break }
                choice[position] = 0
                position -= 1
            }
            if position < 0 { return .variants(variants) }
        }
    }

    /// The patterns with the variable occurrences, in order, replaced by `values`.
    private static func fill(_ pieces: [[PatternPiece]], with values: [String]) -> [String] {
        var next = values.makeIterator()
        return pieces.map { pattern in
            pattern.map { piece in
                switch piece {
                case .text(let text): return text
                case .variable: return next.next() ?? ""
                }
            }.joined()
        }
    }

    /// What a variable can stand for, each as pattern text.
    private static func values(of value: SubstitutionVariables.Value) -> [String] {
        switch value {
        case .oneOf(let set): return set.sorted { $0.value < $1.value }.map { String(Character($0)) }
        case .literals(let texts), .patterns(let texts): return texts
        }
    }

    /// The narrowest wildcard covering every value: `?` for one character, `?*` for non-empty values, `*` otherwise.
    private static func widening(of value: SubstitutionVariables.Value) -> String {
        switch value {
        case .oneOf: return "?"
        case .literals(let texts), .patterns(let texts):
            return texts.contains(where: { $0.isEmpty || AndroidPattern($0).matchesEmpty }) ? "*" : "?*"
        }
    }
}
