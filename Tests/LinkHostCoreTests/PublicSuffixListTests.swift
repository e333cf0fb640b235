import Testing
@testable import LinkHostCore

/// The Public Suffix List as linkhost reads it (issue 39): the format's rules, wildcards and exceptions, Unicode
/// rules in their `xn--` form, and what a wildcard host may stop at; from a fixture, not the machine's copy.
@Suite("Public Suffix List")
struct PublicSuffixListTests {
    static let list = PublicSuffixList(Array("""
        // ===BEGIN ICANN DOMAINS===
        com
        uk
        co.uk
        *.ck
        !www.ck
        cn
        公司.cn
        // a comment; the first blank ends a rule
        jp trailing words
        // ===BEGIN PRIVATE DOMAINS===
        github.io

        """.utf8))

    @Test("listed names, one label below a wildcard, and single labels are suffixes; exceptions and registrable names are not")
    func suffixes() {
        for name in ["com", "co.uk", "uk", "github.io", "anything.ck", "xn--55qx5d.cn", "jp", "example", "localhost"] {
            #expect(Self.list.isPublicSuffix(name), "\(name)")
        }
        for name in ["www.ck", "example.com", "bank.co.uk", "someone.github.io", "a.b.ck", "calls.tenant.example"] {
            #expect(!Self.list.isPublicSuffix(name), "\(name)")
        }
        #expect(Self.list.count == 9)
    }

    @Test("a wildcard host stops at a registrable domain")
    func wildcards() {
        for host in ["*.com", "*.co.uk", "*.github.io", "*.anything.ck", "*.xn--55qx5d.cn", "*.example"] {
            #expect(Self.list.problem(wildcard: host) != nil, "\(host)")
        }
        for host in ["*.calls.tenant.example", "*.shop.co.uk", "*.www.ck", "links.example.com", "*.someone.github.io"] {
            #expect(Self.list.problem(wildcard: host) == nil, "\(host)")
        }
    }

    @Test("Punycode as RFC 3492 and IDNA write it")
    func punycode() {
        for (label, encoded) in [("bücher", "bcher-kva"), ("公司", "55qx5d"), ("münchen", "mnchen-3ya"), ("рф", "p1ai"), ("ü", "tda")] {
            #expect(Punycode.encode(Array(label.unicodeScalars)) == encoded, "\(label)")
        }
        #expect(PublicSuffixList.ascii("公司.CN") == "xn--55qx5d.cn")
    }
}
