import LinkHostCore

/// `linkhost print aasa|assetlinks`: writes a generated file exactly as served.
enum PrintCommand: Command {
    static let name = "print"
    static let summary = "Print the generated AASA or assetlinks.json exactly as served."
    static let help = """
    USAGE: linkhost print aasa|assetlinks [--host HOST] [--config PATH]

    Writes the generated file to standard output, byte for byte as the server sends it
    on HOST.

    OPTIONS:
      --host HOST     The site that serves HOST, chosen as the server chooses it (default:
                      the default site, the config's top level).
      --config PATH   Config file (default: $LINKHOST_CONFIG or config/linkhost.json).
      -h, --help      Show this help.

    EXIT CODES: 0 printed, 1 nothing to print (no app of that kind), 2 usage or config error.
    """

    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32 {
        let arguments = try Arguments(words, command: name, options: ["--config", "--host"], flags: [])
        if arguments.has("--help") { StandardStreams.output(help + "\n"); return 0 }
        guard arguments.positional.count == 1, let what = arguments.positional.first, ["aasa", "assetlinks"].contains(what) else {
            throw UsageError(message: "say what to print: 'aasa' or 'assetlinks'", command: name)
        }
        let config: Config
        do {
            config = try ConfigLoader.load(path: configPath(arguments, environment: environment), environment: environment)
        } catch {
            StandardStreams.error("\(error)\n")
            return 2
        }
        let site = try chosenSite(arguments, in: config, command: name)
        let bytes = what == "aasa"
            ? (site.apps.isEmpty ? [] : AASAGenerator.bytes(for: site))
            : (site.android.isEmpty ? [] : AssetLinksGenerator.bytes(for: site))
        guard !bytes.isEmpty else {
            let scope = site.hosts.isEmpty ? "" : " for \(site.label)"
            StandardStreams.error("linkhost: no \(what == "aasa" ? "iOS app in \"apps\"" : "Android app in \"android\"") is configured\(scope)\n")
            return 1
        }
        StandardStreams.output(String(decoding: bytes, as: UTF8.self))
        return 0
    }
}
