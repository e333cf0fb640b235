/// Which site files were added, removed or changed by content between two loads: what the reload line and
/// the watcher name. A Kubernetes volume swap gives every file a new inode; only the bytes say which changed.
public struct SiteFileChanges: Sendable, Equatable {
    /// Names new since before.
    public var added: [String] = []
    /// Names gone since before.
    public var removed: [String] = []
    /// Names whose bytes differ.
    public var changed: [String] = []

    /// How many names a line shows before "and N more".
    public static let shown = 10

    /// True when nothing differs.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// The differences between two loads' digests by file name (`Config.siteFileDigests`), each list in name order.
    public init(before: [String: String], after: [String: String]) {
        for (name, digest) in after.sorted(by: { $0.key < $1.key }) {
            switch before[name] {
            case nil: added.append(name)
            case digest?: continue
            case _?: changed.append(name)
            }
        }
        removed = before.keys.filter { after[$0] == nil }.sorted()
    }

    /// The size and content hash of a site file's bytes, as a load records it.
    public static func digest(_ bytes: [UInt8]) -> String { SiteFiles.digest(bytes) }

    /// "customer0001.json changed, acme.json added": every name up to `shown`, then how many more.
    public var description: String {
        let words = changed.map { "\(SiteFilePattern.printable($0)) changed" } + added.map { "\(SiteFilePattern.printable($0)) added" }
            + removed.map { "\(SiteFilePattern.printable($0)) removed" }
        let more = words.count - Self.shown
        return words.prefix(Self.shown).joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }
}
