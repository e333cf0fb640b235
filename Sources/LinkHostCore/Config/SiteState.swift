import LinkHostFiles
import LinkHostJSON

/// `server.stateDirectory`'s record of the site files: for each file that served, the digest of the bytes that
/// loaded (kept beside it as `sites/NAME.kept`) and what it held (hosts, name, own apps), so a restart or a new
/// replica with the same volume serves a broken tenant's last good version and keeps each claim with its holder.
///
/// `serve` writes it (`SiteStateWriter`, in the server), after each snapshot it installs: the kept copies that
/// changed and the record when it changed, each by a new file renamed into place inside a trusted folder;
/// `serve` at start and `validate` read it here. A kept copy is used only when its size and hash are the
/// record's, and is read as the site file itself would be, so it is trusted no more than a tenant's file.
public struct SiteState: Sendable, Equatable {
    /// The subfolder of the state folder that holds the record and the kept copies.
    public static let folderName = "sites"
    /// The record's file name; a kept copy's name always ends in `.kept`, so none can be this.
    public static let recordName = "record.json"
    /// The largest record read: 10,000 tenants write about 2 MB.
    static let maximumRecordSize = 64 << 20

    /// One file's line of the record.
    public struct Entry: Sendable, Equatable {
        /// `SiteFiles.digest` of the bytes that loaded, which `NAME.kept` holds; empty when no copy is kept.
        public var digest: String
        /// What the version serving held.
        public var claims: [SiteClaim]

        /// Makes an entry.
        public init(digest: String, claims: [SiteClaim]) {
            (self.digest, self.claims) = (digest, claims)
        }

        /// The entry of a site serving from `file`: its digest and every claim of its own.
        public init(_ site: SiteConfig) {
            self.init(digest: site.fileDigest ?? "", claims: SiteClaim.of(site).map(\.claim))
        }
    }

    /// The state folder (`server.stateDirectory`).
    public let directory: String
    /// Each file's entry, by file name.
    public var entries: [String: Entry]

    /// Makes a record.
    public init(directory: String, entries: [String: Entry]) {
        (self.directory, self.entries) = (directory, entries)
    }

    /// The name a file's copy is kept under.
    public static func keptName(_ name: String) -> String { name + ".kept" }

    /// Reads the record of `directory`: nil and no problem when there is none yet (a first start), nil and the
    /// reason when it cannot be used (serve then starts without it and says so).
    public static func read(directory: String) -> (SiteState?, problem: String?) {
        guard FileSystem.exists(directory + "/" + folderName) else { return (nil, nil) }
        let bytes: [UInt8]?
        do {
            bytes = try TrustedFolder.open(directory, create: false).subfolder(folderName, create: false).read(recordName, maximumSize: maximumRecordSize)
        } catch let problem as TrustedFolder.Problem {
            return (nil, problem.description)
        } catch {
            return (nil, "\(directory)/\(folderName)/\(recordName) cannot be read: \(error)")
        }
        guard let bytes else { return (nil, nil) }
        guard let entries = try? decode(bytes) else {
            return (nil, "\(directory)/\(folderName)/\(recordName) is not a record linkhost wrote; remove it (it is written again at the next load)")
        }
        return (SiteState(directory: directory, entries: entries), nil)
    }

    /// Which file holds each claim.
    var record: [SiteClaim: String] {
        var held: [SiteClaim: String] = [:]
        for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
            for claim in entry.claims where held[claim] == nil { held[claim] = name }
        }
        return held
    }

    /// The kept version of file `name`, read as the file itself would be; nil when there is none, it is not the
    /// bytes the record names, or it does not read without errors now.
    func lastGood(_ name: String, topLevel: SiteDraft, folder siteFolder: SiteFileFolder, fileHash: ConfigLoader.FileHash?) -> SiteConfig? {
        guard let entry = entries[name], !entry.digest.isEmpty,
              let folder = try? TrustedFolder.open(directory, create: false).subfolder(Self.folderName, create: false),
              let bytes = try? folder.read(Self.keptName(name), maximumSize: SiteFiles.maximumFileSize),
              SiteFiles.digest(bytes) == entry.digest
        else { return nil }
        let (read, found) = SiteFiles.site(bytes, name: name, shown: "\(folder.path)/\(Self.keptName(name))", topLevel: topLevel, folder: siteFolder)
        guard var site = read, !found.contains(where: { $0.severity == .error }) else { return nil }
        site.fileDigest = entry.digest
        site.fileSHA256 = fileHash?(bytes)
        return site
    }

    /// The name (id, else first host) the record knows file `name`'s site by.
    func label(of name: String) -> String? {
        for claim in entries[name]?.claims ?? [] { if case .name(let label) = claim { return label } }
        return nil
    }

    /// The record's bytes: one line per file, in name order, so the same record is the same bytes.
    public static func encode(_ entries: [String: Entry]) -> [UInt8] {
        let files = entries.sorted { $0.key < $1.key }.map { name, entry in
            JSONMember(name, .object(JSONObject([
                JSONMember("digest", .string(entry.digest)),
                JSONMember("claims", .array(entry.claims.map { .string("\($0.kind) \($0.value)") })),
            ])))
        }
        return JSONWriter.bytes(.object(JSONObject([JSONMember("linkhostSiteRecord", .number(JSONNumber(1))), JSONMember("files", .object(JSONObject(files)))])), style: .pretty)
    }

    /// The entries of a record's bytes.
    static func decode(_ bytes: [UInt8]) throws -> [String: Entry] {
        struct NotARecord: Error {}
        guard let root = try JSONParser.parse(bytes).objectValue, root["linkhostSiteRecord"] != nil, let files = root["files"]?.objectValue else { throw NotARecord() }
        var entries: [String: Entry] = [:]
        for member in files.members {
            guard let object = member.value.objectValue, let digest = object["digest"]?.stringValue, let claims = object["claims"]?.arrayValue else { throw NotARecord() }
            entries[member.key] = Entry(digest: digest, claims: try claims.map { value in
                guard let text = value.stringValue, let space = text.firstIndex(of: " "),
                      let claim = SiteClaim(kind: String(text[..<space]), value: String(text[text.index(after: space)...])) else { throw NotARecord() }
                return claim
            })
        }
        return entries
    }
}

/// What a load knows of the site files that served before it: each one's last good version and who held each
/// host, name and app.
public struct SiteFileHistory: Sendable {
    /// On a reload: the sites serving, by file name.
    var serving: [String: SiteConfig]?
    /// At start: the state folder's record.
    var kept: SiteState?

    /// A reload's: the sites of the snapshot serving that came from site files, by file name.
    public static func reload(serving sites: [SiteConfig]) -> SiteFileHistory {
        SiteFileHistory(serving: Dictionary(sites.compactMap { site in site.file.map { ($0, site) } }, uniquingKeysWith: { first, _ in first }))
    }

    /// A reload's, from the last good versions by file name.
    public static func reload(lastGood: [String: SiteConfig]) -> SiteFileHistory {
        SiteFileHistory(serving: lastGood)
    }

    /// A start's: the state folder's record, or none.
    public static func start(_ kept: SiteState?) -> SiteFileHistory {
        SiteFileHistory(kept: kept)
    }

    /// Which file holds each claim; nil with no record at all.
    var record: [SiteClaim: String]? {
        guard let serving else { return kept?.record }
        var held: [SiteClaim: String] = [:]
        for (name, site) in serving.sorted(by: { $0.key < $1.key }) {
            for (claim, _) in SiteClaim.of(site) where held[claim] == nil { held[claim] = name }
        }
        return held
    }

    /// File `name`'s last good version.
    func lastGood(_ name: String, topLevel: SiteDraft, folder: SiteFileFolder, fileHash: ConfigLoader.FileHash?) -> SiteConfig? {
        serving.map { $0[name] } ?? kept?.lastGood(name, topLevel: topLevel, folder: folder, fileHash: fileHash)
    }

    /// The name the record knows file `name`'s site by.
    func label(of name: String) -> String? {
        serving.map { $0[name]?.label } ?? kept?.label(of: name)
    }
}
