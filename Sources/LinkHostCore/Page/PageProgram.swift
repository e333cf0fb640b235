/// Where a rendered page's bytes go, one run at a time: the server writes them straight into the buffer it
/// hands to libmicrohttpd; the router and the tests collect them in an array.
package protocol PageOutput {
    /// Appends `bytes[range]`.
    mutating func append(_ bytes: [UInt8], _ range: Range<Int>)
}

extension Array: PageOutput where Element == UInt8 {
    /// Appends `bytes[range]`, one copy.
    package mutating func append(_ bytes: [UInt8], _ range: Range<Int>) {
        append(contentsOf: bytes[range])
    }
}

/// A baked template flattened once at load into steps over one block of literal bytes, walked twice per
/// page: once to add up the page's length (so the server allocates the body exactly), once to write it.
///
/// The nested segments of `PageTemplate` hold an array per literal; walking them retains and releases each.
/// Here a literal is a range of `literals`, and a section's end is a step number.
struct PageProgram: Sendable {
    enum Step: Sendable {
        /// `literals[start..<end]`.
        case literal(start: Int32, end: Int32)
        /// A per-request value, escaped for HTML (or markup, for the QR code).
        case field(PageTemplate.Field)
        /// The steps up to `end` are kept when the field's value is non-empty (or empty, when inverted).
        case section(PageTemplate.Field, inverted: Bool, end: Int32)
    }

    let steps: [Step]
    let literals: [UInt8]
    /// A digest of the steps and literals: with the values, all that decides a page's bytes, so a page's
    /// ETag hashes its few hundred bytes of values instead of the whole page (the same on every replica).
    let identity: UInt64

    /// Flattens a baked template (its locale strings are resolved; any left show no text, as in `render`).
    init(_ template: PageTemplate) {
        var steps: [Step] = []
        var literals: [UInt8] = []
        func flatten(_ segments: [PageTemplate.Segment]) {
            for segment in segments {
                switch segment {
                case .literal(let bytes):
                    steps.append(.literal(start: Int32(literals.count), end: Int32(literals.count + bytes.count)))
                    literals.append(contentsOf: bytes)
                case .field(let field, _):
                    steps.append(.field(field))
                case .string:
                    break
                case .section(let field, let inverted, let inner):
                    let position = steps.count
                    steps.append(.section(field, inverted: inverted, end: 0))
                    flatten(inner)
                    steps[position] = .section(field, inverted: inverted, end: Int32(steps.count))
                }
            }
        }
        flatten(template.segments)
        self.steps = steps
        self.literals = literals
        identity = steps.reduce(EntityTag.digest(literals.span)) { hash, step in
            switch step {
            case .literal(let start, let end):
                return EntityTag.combine(EntityTag.combine(hash, 1), UInt64(UInt32(start)) << 32 | UInt64(UInt32(end)))
            case .field(let field):
                return EntityTag.combine(EntityTag.combine(hash, 2), UInt64(field.slot))
            case .section(let field, let inverted, let end):
                return EntityTag.combine(EntityTag.combine(hash, inverted ? 4 : 3), UInt64(field.slot) << 32 | UInt64(UInt32(end)))
            }
        }
    }

    /// The number of bytes `write` produces for these values.
    func length(_ values: PageValues) -> Int {
        var total = 0
        var index = 0
        while index < steps.count {
            switch steps[index] {
            case .literal(let start, let end):
                total += Int(end - start)
            case .field(let field):
                total += values.escaped(field).count
            case .section(let field, let inverted, let end):
                if values.isEmpty(field) != inverted { index = Int(end); continue }
            }
            index += 1
        }
        return total
    }

    /// Writes the page for these values into `output`.
    func write<Output: PageOutput>(_ values: PageValues, into output: inout Output) {
        var index = 0
        while index < steps.count {
            switch steps[index] {
            case .literal(let start, let end):
                output.append(literals, Int(start)..<Int(end))
            case .field(let field):
                let range = values.escaped(field)
                if !range.isEmpty { output.append(values.bytes, range) }
            case .section(let field, let inverted, let end):
                if values.isEmpty(field) != inverted { index = Int(end); continue }
            }
            index += 1
        }
    }
}

/// One page ready to be written: its program, its values and its length in bytes.
package struct PagePlan {
    let program: PageProgram
    let values: PageValues
    /// The page's length in bytes: what `write` produces.
    package let length: Int

    /// Writes the page into `output` (exactly `length` bytes).
    package func write<Output: PageOutput>(into output: inout Output) {
        program.write(values, into: &output)
    }

    /// The digest of the page's strong ETag, from what decides its bytes: the program and the values.
    package var entityDigest: UInt64 { values.digest(seed: program.identity) }
}

/// The per-request values of one page as they go into it, each computed once (the canonical URL stands
/// five times in the shipped page), escaped for HTML (the QR code's markup as it is), as ranges of one
/// byte buffer.
struct PageValues {
    /// The values' bytes, one after the other.
    var bytes: [UInt8] = []
    /// Where each field's bytes start and end (`PageFieldRanges`: no allocation besides `bytes`).
    private var ranges = PageFieldRanges()
    /// Every field once, made at first use rather than per digest.
    private static let fields = PageTemplate.Field.allCases

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The bytes of a field, as a range of `bytes`; empty for a field not set.
    func escaped(_ field: PageTemplate.Field) -> Range<Int> { ranges[field] }

    /// Whether the field's value is empty, as sections test it. The values computed per request hold no
    /// control characters (templates and hosts are checked, IDs are tokens), so a value is empty exactly
    /// when its escaped form is.
    func isEmpty(_ field: PageTemplate.Field) -> Bool { ranges[field].isEmpty }

    /// A digest of the values' bytes and where each field's stand, folded into `seed`.
    func digest(seed: UInt64) -> UInt64 {
        var hash = EntityTag.combine(seed, EntityTag.digest(bytes.span))
        for field in Self.fields {
            let range = ranges[field]
            hash = EntityTag.combine(hash, UInt64(range.lowerBound) << 32 | UInt64(range.upperBound))
        }
        return hash
    }

    /// Appends a field's bytes with `build` and records where they went.
    mutating func set(_ field: PageTemplate.Field, _ build: (inout [UInt8]) -> Void) {
        let start = bytes.count
        build(&bytes)
        ranges[field] = start..<bytes.count
    }
}

/// A set of template fields as bits, for the checks a render makes per field (a `Set` hashes each name).
struct PageFieldSet: Sendable {
    /// One bit per `Field.slot`; `PageFieldSlotTests` fails when `Field` outgrows it.
    typealias Bits = UInt32
    private let bits: Bits

    init(_ fields: Set<PageTemplate.Field>) {
        bits = fields.reduce(0) { $0 | 1 << Bits($1.slot) }
    }

    func contains(_ field: PageTemplate.Field) -> Bool { bits & 1 << Bits(field.slot) != 0 }
}

extension PageTemplate.Field {
    /// The field's bit in `PageFieldSet`: each field its own, from 0 up
    /// (`PageFieldSlotTests`).
    var slot: Int {
        switch self {
        case .callId: return 0
        case .callType: return 1
        case .appName: return 2
        case .appStoreID: return 3
        case .openInAppURL: return 4
        case .intentURL: return 5
        case .appStoreURL: return 6
        case .playStoreURL: return 7
        case .webJoinURL: return 8
        case .canonicalURL: return 9
        case .imageURL: return 10
        case .qrCodeURL: return 11
        case .qrCode: return 12
        case .lang: return 13
        case .dir: return 14
        case .languages: return 15
        case .openInAppHostURL: return 16
        case .appClipBundleID: return 17
        case .desktopScheme: return 18
        case .inPlayStore: return 19
        }
    }
}
