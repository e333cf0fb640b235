import LinkHostFiles

/// The Public Suffix List (publicsuffix.org), read once per load: which names are suffixes under which anyone
/// may register a domain (`com`, `co.uk`, and in its private section `github.io`), so that a wildcard host
/// can be held to a registrable domain (`*.calls.tenant.example`, never `*.co.uk`).
///
/// The list is Debian's (package `publicsuffix`), not one kept here: it changes every few weeks and Debian
/// ships the updates. The format, as publicsuffix.org's "format" page defines it: one rule per line, the
/// first whitespace ends it, `//` starts a comment; `*.` before a rule's name makes every name one label
/// below it a suffix, `!` before a rule makes that name an exception (registrable after all); a name no rule
/// matches is a suffix in its last label alone (the implicit `*` rule). Rules in Unicode are kept in the
/// `xn--` form the config's hosts are written in.
public struct PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package puts the list.
    public static let debianPath = "/usr/share/publicsuffix/public_suffix_list.dat"
    /// The environment variable naming another copy (a system without the package, a test's fixture).
    public static let environmentVariable = "LINKHOST_PUBLIC_SUFFIX_LIST"

    private var rules: Set<String> = []
    /// `ck` for the rule `*.ck`.
    private var wildcards: Set<String> = []
    /// `www.ck` for the rule `!www.ck`.
    private var exceptions: Set<String> = []

    /// The number of rules read.
    public var count: Int { rules.count + wildcards.count + exceptions.count }

    /// Reads the list's text.
    public init(_ text: [UInt8]) {
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let rule = line.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") }
            guard !rule.isEmpty, !rule.starts(with: "//".utf8) else { continue }
            var name = String(decoding: rule, as: UTF8.self)
            var into = \PublicSuffixList.rules
            if name.hasPrefix("!") {
                name.removeFirst()
                into = \.exceptions
            } else if name.hasPrefix("*.") {
                name.removeFirst(2)
                into = \.wildcards
            }
            guard let ascii = Self.ascii(name) else { continue }
            self[keyPath: into].insert(ascii)
        }
    }

    /// The list at `path`; nil with the reason in words when it cannot be read or holds no rule.
    public static func read(_ path: String) -> (list: PublicSuffixList?, problem: String?) {
        do {
            let list = PublicSuffixList(try FileSystem.readFile(path, maximumSize: 16 * 1_048_576))
            return list.count == 0 ? (nil, "\(path) holds no rule") : (list, nil)
        } catch {
            return (nil, "\(path) \(error)")
        }
    }

    /// True when `name` (lowercase ASCII, no trailing dot) is a public suffix: listed, one label below a
    /// wildcard rule and no exception, or a single label no rule lists (the implicit `*`).
    public func isPublicSuffix(_ name: String) -> Bool {
        if exceptions.contains(name) { return false }
        if rules.contains(name) { return true }
        guard let dot = name.firstIndex(of: ".") else { return true }
        return wildcards.contains(String(name[name.index(after: dot)...]))
    }

    /// Why the site host `host` (valid, lowercase) captures more than a registrable domain, nil when it does not:
    /// `*` before a public suffix.
    public func problem(wildcard host: String) -> String? {
        guard host.hasPrefix("*.") else { return nil }
        let rest = String(host.dropFirst(2))
        guard isPublicSuffix(rest) else { return nil }
        return "is a wildcard over the public suffix \"\(rest)\" (Public Suffix List), which would answer for every domain anyone registers under it; list the site's own hosts or a wildcard below its own domain, e.g. \"*.calls.tenant.example\""
    }

    /// A rule's name in the form hosts are written: lowercase, each Unicode label as `xn--` and its Punycode.
    static func ascii(_ name: String) -> String? {
        // Nearly every rule is lowercase ASCII already: kept as it is, without splitting it into labels.
        if name.utf8.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) }) { return name }
        var labels: [String] = []
        for label in name.lowercased().split(separator: ".", omittingEmptySubsequences: false) {
            if label.unicodeScalars.allSatisfy(\.isASCII) {
                labels.append(String(label))
            } else {
                guard let encoded = Punycode.encode(Array(label.unicodeScalars)) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }
}

/// Punycode (RFC 3492), encoding only: how a Unicode label becomes the ASCII after `xn--`.
enum Punycode {
    private static let (base, tMin, tMax, skew, damp, initialBias, initialN) = (36, 1, 26, 38, 700, 72, 128)

    /// The label's Punycode (without `xn--`), or nil on overflow; section 6.3's algorithm.
    static func encode(_ scalars: [Unicode.Scalar]) -> String? {
        let input = scalars.map { Int($0.value) }
        var output = input.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var (n, delta, bias) = (initialN, 0, initialBias)
        while handled < input.count {
            guard let next = input.filter({ $0 >= n }).min() else { return nil }
            let (product, overflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow else { return nil }
            delta += product
            n = next
            for code in input {
                if code < n { delta += 1 }
                guard code == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, points: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }

    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}

/// The wildcard rule of one load: the list, read on the first wildcard host (a load with none never reads it)
/// and kept for the rest, or why it could not be read.
struct WildcardHostCheck: Sendable {
    /// The copy `PublicSuffixList.environmentVariable` names, else Debian's.
    private let path: String
    private var read: (list: PublicSuffixList?, problem: String?)?

    /// The check of a load whose environment is `environment`.
    init(environment: [String: String]) {
        path = environment[PublicSuffixList.environmentVariable].flatMap { $0.isEmpty ? nil : $0 } ?? PublicSuffixList.debianPath
    }

    /// LH137 for each wildcard of `site` over a public suffix: an error. Without the list, a site file's wildcard
    /// is an error too (it cannot be held to a registrable domain) and the operator's a warning.
    mutating func check(_ site: SiteConfig, isSiteFile: Bool, reader: inout ConfigReader) {
        for (index, host) in site.hosts.enumerated() where host.hasPrefix("*.") {
            let path = ConfigReader.join(site.path, "hosts[\(index)]")
            let (list, problem) = loaded()
            if let list {
                if let why = list.problem(wildcard: host) { reader.error(.lh137, path, "\"\(host)\" \(why)") }
                continue
            }
            let message = "\"\(host)\" is a wildcard, and the Public Suffix List cannot be read: \(problem ?? self.path) (apt-get install publicsuffix, or name a copy in \(PublicSuffixList.environmentVariable))"
            if isSiteFile {
                reader.error(.lh137, path, message + "; a site file's wildcard is refused until it can be held to a registrable domain")
            } else {
                reader.append([ConfigDiagnostic(.lh137, path: path, message: message + "; whether it stops at a registrable domain is not checked", severity: .warning)])
            }
        }
    }

    /// The list, read once.
    private mutating func loaded() -> (list: PublicSuffixList?, problem: String?) {
        if let read { return read }
        let made = PublicSuffixList.read(path)
        read = made
        return made
    }
}
