import LinkHostCheck
import LinkHostCore
import Testing

/// `linkhost stats` reads the metrics exposition into per-site tables.
@Suite("Page stats")
struct PageStatsTests {
    static let exposition = """
    # HELP linkhost_requests_total Requests answered, by site, route and status class.
    linkhost_requests_total{site="default",route="call_page",status="2xx"} 7
    linkhost_requests_total{site="customer6",route="call_page",status="2xx"} 40
    linkhost_requests_total{site="customer6",route="aasa",status="2xx"} 3
    linkhost_page_views_total{site="default",platform="ios"} 0
    linkhost_page_views_total{site="customer6",platform="ios"} 30
    linkhost_page_views_total{site="customer6",platform="android"} 10
    linkhost_page_views_total{site="customer6",platform="teleport"} 99
    linkhost_page_actions_total{site="customer6",action="store",platform="ios"} 12
    linkhost_page_actions_total{site="customer6",action="copy",platform="ios"} 11
    linkhost_page_actions_total{site="customer6",action="open",platform="android"} 4
    linkhost_beacons_dropped_total{site="customer6",reason="rate"} 5
    linkhost_page_views_total{site="we\\"ird",platform="bot"} 1
    linkhost_connections 3
    """

    @Test("each site's views, taps, drops and pages served; unknown words and other metrics are skipped")
    func reads() throws {
        let sites = PageStats.read(Self.exposition)
        #expect(sites.map(\.site) == ["default", "customer6", "we\"ird"])
        let customer = try #require(sites.first { $0.site == "customer6" })
        #expect(customer.totalViews == 40 && customer.views[.ios] == 30)
        #expect(customer.taps(.store) == 12 && customer.taps(.copy) == 11 && customer.totalTaps == 27)
        #expect(customer.dropped["rate"] == 5 && customer.pagesServed == 40)
    }

    @Test("the table: a row per platform that reported, a column per event, a bar of the views' share, and a total")
    func table() {
        let text = PageStats.table(PageStats.read(Self.exposition), barWidth: 8)
        #expect(text.contains("site customer6: 40 page views, 27 taps; 40 pages served by this server\n"), "\(text)")
        #expect(text.contains("  not counted: 5 over the rate\n"))
        #expect(text.contains("  iOS                  30      0     12      0     11      0  ██████\n"), "\(text)")
        #expect(text.contains("  Android              10      4      0      0      0      0  ██\n"), "\(text)")
        #expect(text.contains("  all                  40      4     12      0     11      0\n"), "\(text)")
        #expect(text.contains("site default: 0 page views, 0 taps; 7 pages served by this server\n  no page has reported a view yet\n"), "\(text)")
    }

    @Test("JSON names every platform of every action")
    func json() {
        let text = PageStats.json([PageStats.read(Self.exposition)[1]])
        #expect(text.contains("\"site\": \"customer6\""), "\(text)")
        #expect(text.contains("\"pagesServed\": 40"))
        #expect(text.components(separatedBy: "\"in_app\"").count - 1 == Beacon.Event.allCases.count, "views and every action")
    }

    @Test("the summary counts every site and names the three busiest by the chosen count; equal counts go in name order")
    func summaryAndBusiest() {
        var sites = PageStats.read(Self.exposition)
        var tied = SiteStats(site: "acme")
        tied.pagesServed = 40
        sites.append(tied)
        let summary = PageStats.summary(sites, by: .views)
        #expect(summary == "4 sites, 2 with page views: 41 page views, 27 taps; 87 pages served by this server; 5 beacons not counted\n"
            + "busiest by page views: customer6 (40), we\"ird (1)\n", "\(summary)")
        #expect(PageStats.busiest(sites, by: .pages, top: 2).map(\.site) == ["acme", "customer6"], "40 each: name order")
        #expect(PageStats.busiest(sites, by: .dropped, top: 9).map(\.site) == ["customer6", "acme", "default", "we\"ird"])
        #expect(PageStats.summary([SiteStats(site: "default")], by: .taps).hasSuffix("busiest by taps: none has any yet\n"))
    }
}
