import Testing
@testable import LinkHostCore

/// A page's per-request values live in fixed tables indexed by `Field.slot` (`PageValues`' ranges, an
/// `InlineArray` whose count Swift wants as a literal, and `PageFieldSet`'s bits): a field past their end
/// would trap on the first page that uses it. These fail first.
@Suite("Page field slots")
struct PageFieldSlotTests {
    @Test("every field has a slot of its own, from 0 up")
    func slotsAreDistinct() {
        let slots = PageTemplate.Field.allCases.map(\.slot)
        #expect(slots.sorted() == Array(0..<PageTemplate.Field.allCases.count), "give each field of PageTemplate.Field the next free slot in PageProgram.swift")
    }

    @Test("the value tables and the field set have room for every field")
    func tablesHoldEveryField() {
        let fields = PageTemplate.Field.allCases.count
        #expect(PageValues.FieldRanges(repeating: 0).count >= fields, "raise PageValues.FieldRanges' count to \(fields)")
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
