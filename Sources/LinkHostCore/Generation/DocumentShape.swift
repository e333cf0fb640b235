import LinkHostJSON

/// A generated JSON document with the strings that differ from site to site (app IDs, packages,
/// fingerprints) left as holes: sites whose documents differ only in those share one shape, and each site's
/// bytes are the shape's pieces joined with its own strings, without building or writing the document again.
///
/// Ten thousand tenants of one rule set have ten thousand AASA files and assetlinks.json that differ only in
/// their apps: building and writing each was most of a start's work (issue 42).
struct DocumentShape: Sendable {
    /// The bytes around the holes: one more than `holes`.
    private let pieces: [[UInt8]]
    /// For each hole, the index of the value that fills it.
    private let holes: [Int]
    /// The pieces' bytes together.
    private let fixedLength: Int

    /// The shape of the document `make` builds from `count` strings, found by building and writing it with
    /// stand-ins, then checked against writing it with other values; nil when the document holds anything that
    /// looks like a stand-in but is not one (a string of the config's own), so that no site's bytes could ever
    /// differ from writing its document.
    init?(values count: Int, _ make: ([String]) -> JSONValue) {
        guard let found = Self(found: count, make) else { return nil }
        let check = (0..<count).map { "\u{1}\($0)" }
        guard found.bytes(check) == JSONWriter.bytes(make(check), style: .pretty) else { return nil }
        self = found
    }

    /// The shape as the stand-ins in `make`'s document show it, unchecked.
    private init?(found count: Int, _ make: ([String]) -> JSONValue) {
        let written = JSONWriter.bytes(make((0..<count).map(Self.standIn)), style: .pretty)
        var pieces: [[UInt8]] = []
        var holes: [Int] = []
        var start = 0
        var index = 0
        while index < written.count {
            guard Self.escapedNUL(written, at: index) else { index += 1; continue }
            // A stand-in is the whole string: `"`, an escaped NUL, its number, an escaped NUL, `"`.
            var end = index + Self.nul.count
            var number = 0
            while end < written.count, written[end] >= UInt8(ascii: "0"), written[end] <= UInt8(ascii: "9"), number < count {
                number = number * 10 + Int(written[end] - UInt8(ascii: "0"))
                end += 1
            }
            guard index > 0, written[index - 1] == UInt8(ascii: "\""), end > index + Self.nul.count, number < count,
                  Self.escapedNUL(written, at: end), end + Self.nul.count < written.count, written[end + Self.nul.count] == UInt8(ascii: "\"")
            else { return nil }
            pieces.append(Array(written[start..<index]))
            holes.append(number)
            start = end + Self.nul.count
            index = start
        }
        pieces.append(Array(written[start...]))
        self.pieces = pieces
        self.holes = holes
        fixedLength = pieces.reduce(0) { $0 + $1.count }
    }

    /// The document's bytes with `values` in the holes: what `JSONWriter.bytes(make(values), style: .pretty)`
    /// writes, in storage of its own size.
    func bytes(_ values: [String]) -> [UInt8] {
        let escaped = values.map(Self.escaped)
        var output: [UInt8] = []
        output.reserveCapacity(fixedLength + holes.reduce(0) { $0 + escaped[$1].count })
        for (piece, hole) in zip(pieces, holes) {
            output.append(contentsOf: piece)
            output.append(contentsOf: escaped[hole])
        }
        output.append(contentsOf: pieces[pieces.count - 1])
        return output
    }

    /// The string of value `index` while the shape is found: NUL, its number, NUL (written `\u0000…\u0000`).
    private static func standIn(_ index: Int) -> String { "\u{0}\(index)\u{0}" }

    /// How `JSONWriter` writes a NUL inside a string.
    private static let nul = Array("\\u0000".utf8)

    private static func escapedNUL(_ bytes: [UInt8], at index: Int) -> Bool {
        index + nul.count <= bytes.count && bytes[index..<(index + nul.count)].elementsEqual(nul)
    }

    /// `value` as `JSONWriter` writes it inside a string's quotes.
    private static func escaped(_ value: String) -> [UInt8] {
        let written = JSONWriter.bytes(.string(value), style: .compact)
        return Array(written[1..<(written.count - 1)])
    }
}

/// The shapes of the association files of the sites built so far, by what decides a document but its apps'
/// names: a site's AASA and assetlinks.json are spliced from the shape its settings share (made the second time
/// a key is seen, so a site of its own settings costs one writing, as before), or written whole.
struct DocumentShapes {
    /// What decides an AASA but the strings of its app lists.
    private struct AASAKey: Equatable {
        let format: AASAFormat
        let rules: [AASARule]
        let defaults: [Bool?]
        let variables: [[String]]
        /// The lengths of the app IDs, `appclips`, `webcredentials` and `activitycontinuation`.
        let counts: [Int]

        init(_ settings: AASASettings, appIDs: [String]) {
            (format, rules, defaults) = (settings.format, settings.rules, [settings.defaultCaseSensitive, settings.defaultPercentEncoded])
            variables = settings.substitutionVariables.map { [$0.name] + $0.values }
            counts = [appIDs.count, settings.appclips.count, settings.webcredentials.count, settings.activitycontinuation.count]
        }
    }

    /// What decides an assetlinks.json but its packages and fingerprints.
    private struct AssetLinksKey: Equatable {
        /// Per app: whether it has dynamic rules, and how many fingerprints.
        let apps: [Int]
        /// What `DynamicRuleTranslation.translate` reads, when an app has dynamic rules.
        let rules: AASAKey?
        let rulesDerived: Bool
        let derivedAndroid: DerivedAndroidRules?

        init(_ site: SiteConfig) {
            apps = site.android.map { $0.sha256CertFingerprints.count * 2 + ($0.dynamicRules ? 1 : 0) }
            let dynamic = site.android.contains(where: \.dynamicRules)
            rules = dynamic ? AASAKey(site.aasa, appIDs: []) : nil
            rulesDerived = dynamic && site.aasa.rulesDerived
            derivedAndroid = dynamic ? site.aasa.derivedAndroid : nil
        }

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.apps == rhs.apps && lhs.rules == rhs.rules && lhs.rulesDerived == rhs.rulesDerived && lhs.derivedAndroid === rhs.derivedAndroid
        }
    }

    /// One key's shape: nil until the key is seen a second time, or when the document cannot have one.
    private struct Kept<Key> {
        let key: Key
        var shape: DocumentShape?
        var made: Bool
    }

    /// The most recent keys of each kind: sites of the same settings come in runs, and a config of distinct
    /// sites compares each with a few.
    private static let capacity = 8
    private var aasa: [Kept<AASAKey>] = []
    private var assetLinks: [Kept<AssetLinksKey>] = []

    /// The bytes `AASAGenerator.bytes(for: site)` writes.
    mutating func aasaBytes(for site: SiteConfig) -> [UInt8] {
        let (settings, appIDs) = (site.aasa, site.appIDs)
        let values = appIDs + settings.appclips + settings.webcredentials + settings.activitycontinuation
        return Self.bytes(key: AASAKey(settings, appIDs: appIDs), values: values, in: &aasa, direct: { AASAGenerator.bytes(for: site) }) { standIns in
            var stood = settings
            var rest = standIns[appIDs.count...]
            func take(_ count: Int) -> [String] {
                defer { rest = rest.dropFirst(count) }
                return Array(rest.prefix(count))
            }
            (stood.appclips, stood.webcredentials, stood.activitycontinuation) = (take(settings.appclips.count), take(settings.webcredentials.count), take(settings.activitycontinuation.count))
            return AASAGenerator.document(settings: stood, appIDs: Array(standIns.prefix(appIDs.count)))
        }
    }

    /// The bytes `AssetLinksGenerator.bytes(for: site)` writes.
    mutating func assetLinksBytes(for site: SiteConfig) -> [UInt8] {
        let values = site.android.flatMap { [$0.packageName] + $0.sha256CertFingerprints }
        return Self.bytes(key: AssetLinksKey(site), values: values, in: &assetLinks, direct: { AssetLinksGenerator.bytes(for: site) }) { standIns in
            var rest = standIns[...]
            let apps = site.android.map { app in
                var stood = app
                stood.packageName = rest.removeFirst()
                stood.sha256CertFingerprints = Array(rest.prefix(app.sha256CertFingerprints.count))
                rest = rest.dropFirst(app.sha256CertFingerprints.count)
                return stood
            }
            let rules = apps.contains(where: \.dynamicRules) ? DynamicRuleTranslation.translate(site.aasa) : nil
            return AssetLinksGenerator.document(apps: apps, rules: rules)
        }
    }

    /// The document's bytes from the shape of `key` in `kept` (made when the key comes a second time), else `direct`.
    private static func bytes<Key: Equatable>(key: Key, values: [String], in kept: inout [Kept<Key>], direct: () -> [UInt8],
                                              make: ([String]) -> JSONValue) -> [UInt8] {
        guard let index = kept.lastIndex(where: { $0.key == key }) else {
            if kept.count == capacity { kept.removeFirst() }
            kept.append(Kept(key: key, shape: nil, made: false))
            return direct()
        }
        if !kept[index].made {
            kept[index].shape = DocumentShape(values: values.count, make)
            kept[index].made = true
        }
        return kept[index].shape?.bytes(values) ?? direct()
    }
}
