import Testing
@testable import LinkHostCore

@Suite("Civil dates")
struct CivilDateTests {
    @Test("known dates: the epoch, a leap day, the day before the epoch, far years")
    func known() {
        #expect(CivilDate.date(days: 0) == (1970, 1, 1))
        #expect(CivilDate.date(days: 19_782) == (2024, 2, 29))
        #expect(CivilDate.date(days: -1) == (1969, 12, 31))
        #expect(CivilDate.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilDate.days(year: 2100, month: 3, day: 1) - CivilDate.days(year: 2100, month: 2, day: 28) == 1, "2100 is no leap year")
    }

    @Test("days(date(d)) is d for every day from 1900 to 2200")
    func roundTrip() {
        for day in -25_567...84_000 {
            let (year, month, date) = CivilDate.date(days: day)
            #expect(CivilDate.days(year: year, month: month, day: date) == day)
        }
    }
}
