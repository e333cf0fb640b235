import CallLinks
import LinkHostCore

/// A command-line mistake: the message, and the command whose help the user should read.
struct UsageError: Error {
    let message: String
    let command: String
}

/// Parsed arguments of one command: options with values, flags, and positional words.
struct Arguments {
    private(set) var values: [String: String] = [:]
    /// Every value of each option, in order, for options that may be given more than once.
    private(set) var allValues: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []

    /// Parses `words` against the options (taking a value) and flags a command accepts.
    init(_ words: ArraySlice<String>, command: String, options: [String], flags allowedFlags: [String]) throws(UsageError) {
        var iterator = words.makeIterator()
        while let word = iterator.next() {
            if word == "--" {
                while let rest = iterator.next() { positional.append(rest) }
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                positional.append(word)
                continue
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            if name == "-h" { name = "--help" }
            if options.contains(name) {
                guard let value = inlineValue ?? iterator.next() else {
                    throw UsageError(message: "\(name) needs a value", command: command)
                }
                values[name] = value
                allValues[name, default: []].append(value)
            } else if allowedFlags.contains(name) || name == "--help" {
                flags.insert(name)
            } else {
                var message = "unknown option '\(name)'"
                let known = options + allowedFlags + ["--help"]
                if let suggestion = known.min(by: { distance($0, name) < distance($1, name) }), distance(suggestion, name) <= 2 {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw UsageError(message: message, command: command)
            }
        }
    }

    /// The value of an option.
    subscript(option: String) -> String? { values[option] }

    /// Every value given for an option that may repeat (`--connect-to A --connect-to B`).
    func all(_ option: String) -> [String] { allValues[option] ?? [] }

    /// True when a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// An integer option within a range.
    func integer(_ option: String, in range: ClosedRange<Int>, command: String) throws(UsageError) -> Int? {
        guard let text = values[option] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(message: "\(option) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", command: command)
        }
        return value
    }

    private func distance(_ a: String, _ b: String) -> Int {
        EditDistance.between(Array(a.utf8), Array(b.utf8))
    }
}

/// The config path: `--config`, else `LINKHOST_CONFIG`, else the default.
func configPath(_ arguments: Arguments, environment: [String: String]) -> String {
    arguments["--config"] ?? environment["LINKHOST_CONFIG"].flatMap { $0.isEmpty ? nil : $0 } ?? ConfigLoader.defaultPath
}

/// The site `--host` names (as the server would choose it for that Host), or the default site without it.
func chosenSite(_ arguments: Arguments, in config: Config, command: String) throws(UsageError) -> SiteConfig {
    guard let host = arguments["--host"] else { return config.defaultSite }
    let site = config.site(forHost: host)
    // The default site serves the host of its callLinks.baseURL by name, though it lists no hosts.
    let served = ServedHosts(config: config)
    if site.hosts.isEmpty && config.sites.count > 1 && !served.entries.contains(where: { $0.site == site && $0.hosts.contains(host.lowercased()) }) {
        let hosts = served.hosts.map { "'\($0)'" }.joined(separator: ", ")
        throw UsageError(message: "no site serves '\(host)'; the sites' hosts are \(hosts) (leave out --host for the default site)", command: command)
    }
    return site
}
