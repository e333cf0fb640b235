import Testing
@testable import LinkHostCore

/// A page's per-request values are placed by field: `PageFieldRanges` through an exhaustive switch (the
/// compiler holds it), `PageFieldSet` by `Field.slot` in the bits of an integer, where a field past the end
/// would trap on the first page that uses it. These fail first.
@Suite("Page field slots")
struct PageFieldSlotTests {
    @Test("every field has a slot of its own, from 0 up")
    func slotsAreDistinct() {
        let slots = PageTemplate.Field.allCases.map(\.slot)
        #expect(slots.sorted() == Array(0..<PageTemplate.Field.allCases.count), "give each field of PageTemplate.Field the next free slot in PageProgram.swift")
    }

    @Test("the field set has a bit for every field")
    func setHoldsEveryField() {
        let fields = PageTemplate.Field.allCases.count
        #expect(PageFieldSet.Bits.bitWidth >= fields, "widen PageFieldSet.Bits to hold \(fields) fields")
    }

    @Test("a page's values keep each field's bytes apart")
    func valuesRoundTrip() {
        var values = PageValues(capacity: 0)
        for field in PageTemplate.Field.allCases { values.set(field) { $0.append(contentsOf: Array(field.rawValue.utf8)) } }
        for field in PageTemplate.Field.allCases {
            #expect(Array(values.bytes[values.escaped(field)]) == Array(field.rawValue.utf8))
        }
        #expect(PageFieldSet(Set(PageTemplate.Field.allCases)).contains(.inPlayStore))
    }
}
