import LinkHostCore
import LinkHostJSON
import LinkHostServer

/// `linkhost print hosts`: every host the config answers by name, with its site, for the TLS layer in front
/// (cert-manager, an ingress, a CDN's custom hostnames).
enum PrintHosts {
    /// Prints `HOST SITE` lines, or a JSON array of `{"host", "site", "wildcard"}`; returns 1 when the config names
    /// no host, or when a site file failed: its hosts are missing, and a certificate list made from the rest would
    /// drop them, so a script stops there (the list of the others is printed all the same).
    static func run(_ config: Config, json: Bool) -> Int32 {
        let entries = AnsweredHosts(config: config).entries
        guard !entries.isEmpty else {
            StandardStreams.error("linkhost: the config names no host (no site lists hosts, no callLinks.baseURL): nothing to print\n")
            return 1
        }
        StandardStreams.output(json ? Self.json(entries) : entries.map { "\($0.host) \($0.site)\n" }.joined())
        let failures = config.siteFileFailures
        guard failures.isEmpty else {
            StandardStreams.error(failures.map { "linkhost: error: \($0.line)\n" }.joined())
            StandardStreams.error("linkhost: \(failures.count) site file\(failures.count == 1 ? "" : "s") failed: \(failures.count == 1 ? "its" : "their") hosts are not listed; fix \(failures.count == 1 ? "it" : "them") before a certificate list is made from this one\n")
            return 1
        }
        return 0
    }

    /// One object a line inside the array, so ten thousand hosts diff and grep line by line.
    static func json(_ entries: [AnsweredHosts.Entry]) -> String {
        let objects = entries.map { entry in
            JSONWriter.string(.object(JSONObject([
                JSONMember("host", .string(entry.host)), JSONMember("site", .string(entry.site)), JSONMember("wildcard", .bool(entry.isWildcard)),
            ])), style: .compact)
        }
        return "[\n  " + objects.joined(separator: ",\n  ") + "\n]\n"
    }
}
