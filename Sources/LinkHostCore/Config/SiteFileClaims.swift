/// Who holds each host, name and app identity among the site files: the rule that keeps a serving tenant's
/// hosts from a newcomer, whatever the file names sort as.
///
/// - The operator's sites (the top level, inline `sites`, `server.tls.acme.hosts`) hold what they list; a site
///   file that claims one of those fails (an app only unless `sharedApps` names the file's site for it). An app
///   `sharedApps` lists belongs to the sites it names: any other site file listing it fails.
/// - A claim the record gives to a file (the sites serving, on a reload; the state folder's record at start)
///   stays with that file while the file is there, unless its new version serves without it: an incumbent
///   whose new version drops a host frees it, one whose new version fails keeps all it held (its last good
///   version serves, or nothing does). Any other file claiming it fails (LH138; LH139 for an app).
/// - Then a claim that two serving versions or more still make, which no file holds by the record, goes to
///   none of them: each fails naming the others (LH140; LH139 for an app). No file name decides anything.
///
/// Each file only moves down (its new version → its last good → left out), and the first step is the least
/// fixed point of a monotone rule and the second is taken for every contest at once, so the result does not
/// depend on the order files are looked at; each failed file's reasons are read off the final state.
struct SiteFileClaims {
    /// One file: its name and its version read now (nil when it failed on its own).
    struct File {
        let name: String
        let current: SiteConfig?
    }

    /// What became of one file.
    enum Fate: Equatable {
        /// Its version read now serves.
        case current
        /// Its version read now does not; the reasons (empty when it failed on its own).
        case failed([ConfigDiagnostic])
    }

    /// The operator's claims, each with the path holding it (`sites[3].hosts[0]`, `apps[0]`).
    var operatorHolds: [SiteClaim: String] = [:]
    /// The record: which file holds each claim; nil when there is none (a start without a state folder's record).
    var record: [SiteClaim: String]?
    /// `sharedApps`: the site names each app identity may be listed by.
    var shared: [String: Set<String>] = [:]
    /// Each file as people see it (`sites.d/acme.json`), for messages.
    var shown: (String) -> String = { $0 }

    /// The fate of each of `files` (same order).
    func resolve(_ files: [File]) -> [Fate] {
        let claims = files.map { $0.current.map(SiteClaim.of) ?? [] }
        var serving = files.map { $0.current != nil }
        let index = Dictionary(files.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var claimants: [SiteClaim: [Int]] = [:]
        for (file, list) in claims.enumerated() {
            for (claim, _) in list where claimants[claim]?.last != file { claimants[claim, default: []].append(file) }
        }
        // The claims the record gives each file that is here, so a file's fall re-checks those who claim them.
        var recorded: [Int: [SiteClaim]] = [:]
        for (claim, holder) in record ?? [:] { if let file = index[holder] { recorded[file, default: []].append(claim) } }

        func holderProblem(_ file: Int, _ claim: SiteClaim) -> Int? {
            guard claim.app.flatMap({ shared[$0] }) == nil, let name = record?[claim], let holder = index[name], holder != file else { return nil }
            return !serving[holder] || claims[holder].contains { $0.claim == claim } ? holder : nil
        }
        func staticProblem(_ file: Int, _ claim: SiteClaim) -> Bool {
            let sharers = claim.app.flatMap { shared[$0] }
            if let sharers { return !sharers.contains(files[file].current!.label) }
            return operatorHolds[claim] != nil
        }
        func fails(_ file: Int) -> Bool {
            claims[file].contains { staticProblem(file, $0.claim) || holderProblem(file, $0.claim) != nil }
        }
        // The first step: what the operator and the record decide, to its fixed point.
        var queue = Array(files.indices.reversed())
        func settle() {
            while let file = queue.popLast() {
                guard serving[file], fails(file) else { continue }
                serving[file] = false
                for claim in recorded[file] ?? [] { queue += claimants[claim] ?? [] }
            }
        }
        settle()
        // The second: contests among the versions still serving, all at once.
        var contested: [Int: [(SiteClaim, [Int])]] = [:]
        for (claim, list) in claimants.sorted(by: { $0.key < $1.key }) {
            let rivals = claim.app.flatMap { shared[$0] } == nil ? list.filter { serving[$0] } : []
            guard rivals.count > 1 else { continue }
            for file in rivals { contested[file, default: []].append((claim, rivals.filter { $0 != file })) }
        }
        for file in contested.keys.sorted() {
            serving[file] = false
            for claim in recorded[file] ?? [] { queue += claimants[claim] ?? [] }
        }
        settle()
        return files.indices.map { file in
            guard !serving[file] else { return .current }
            guard let site = files[file].current else { return .failed([]) }
            return .failed(claims[file].compactMap { claim, at in
                reason(site, claim, at: at, contest: contested[file]?.first { $0.0 == claim }?.1, holder: holderProblem(file, claim), files: files)
            })
        }
    }

    /// Why `site` may not hold `claim` in the final state; nil when it may.
    private func reason(_ site: SiteConfig, _ claim: SiteClaim, at: String, contest: [Int]?, holder: Int?, files: [File]) -> ConfigDiagnostic? {
        let path = ConfigReader.join(site.path, at)
        let isApp = claim.app != nil
        if let sharers = claim.app.flatMap({ shared[$0] }) {
            guard !sharers.contains(site.label) else { return nil }
            let listed = sharers.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            return ConfigDiagnostic(.lh139, path: path, message: "\(claim.shown) is one \"sharedApps\" gives to \(listed) only; an app belongs to the sites the operator names")
        }
        if let holder = operatorHolds[claim] { return Self.operatorClash(claim, path: path, holder: holder) }
        if let holder {
            return ConfigDiagnostic(isApp ? .lh139 : .lh138, path: path, message: "\(claim.shown) is held by \(describe(holder, files: files)), which held it before this load; a site file cannot take what another site holds (it keeps it until its own file drops it)\(isApp ? ", unless \"sharedApps\" names both sites" : "")")
        }
        guard let contest else { return nil }
        let names = contest.map { describe($0, files: files) }.joined(separator: ", ")
        let why = record == nil ? "there is no record of who held it (a start without server.stateDirectory's record, or validate without it)" : "no site held it before"
        return ConfigDiagnostic(isApp ? .lh139 : .lh140, path: path, message: "\(claim.shown) is also claimed by \(names), and \(why): every claimant fails until all but one drop it\(isApp ? " or \"sharedApps\" names them" : "")")
    }

    /// Whether the last good version of the file `name` may serve for it: it claims nothing the operator
    /// holds or `sharedApps` gives to others, and only what the record gives this file (at a reload, always so).
    func lastGoodServes(_ site: SiteConfig, name: String) -> Bool {
        SiteClaim.of(site).allSatisfy { claim, _ in
            if let sharers = claim.app.flatMap({ shared[$0] }) { return sharers.contains(site.label) }
            return operatorHolds[claim] == nil && record?[claim] == name
        }
    }

    /// `sites[globex.json] (sites.d/globex.json)`: a file in a message, both ways people look for it.
    private func describe(_ index: Int, files: [File]) -> String {
        "\(SiteFiles.sitePath(files[index].name)) (\(shown(files[index].name)))"
    }

    /// A site file claiming what the operator's config holds: LH116 for a host, LH132 for a name or ACME host,
    /// LH139 for an app, in the words those codes have always used.
    private static func operatorClash(_ claim: SiteClaim, path: String, holder: String) -> ConfigDiagnostic {
        switch claim {
        case .host(let host) where holder == "server.tls.acme.hosts":
            return ConfigDiagnostic(.lh132, path: path, message: "\"\(host)\" is already one of server.tls.acme.hosts (the top level's); a host belongs to one site")
        case .host(let host):
            return ConfigDiagnostic(.lh116, path: path, message: "\"\(host)\" is already a host of \(holder); a host belongs to one site")
        case .name(let name):
            return ConfigDiagnostic(.lh132, path: path, message: "its name \"\(name)\" already names \(holder); give each site an \"id\" of its own")
        case .iOSApp, .androidApp:
            return ConfigDiagnostic(.lh139, path: path, message: "\(claim.shown) is listed by \(holder), the operator's own; a site file may list it only when \"sharedApps\" names its site for it")
        }
    }
}
