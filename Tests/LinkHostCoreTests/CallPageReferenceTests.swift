import CallLinks
import Foundation
import Testing
@testable import LinkHostCore
import LinkHostTestSupport

/// The page is rendered from URL parts made at load in every form it writes them (escaped, encoded,
/// encoded twice) into one buffer. Here the same page is made the plain way — each value built as a
/// `String` and handed to `PageTemplate.render`, which escapes it — and the two must be the same bytes,
/// for every link shape, origin and optional field.
@Suite("Call page rendering matches the plain render")
struct CallPageReferenceTests {
    /// A template that uses every per-request field, in text and in attributes, inside sections too.
    static let everyField = """
        <!doctype html><html lang="{{lang}}"><head><title>{{t.pageTitle}}</title>
        <meta property="og:url" content="{{canonicalURL}}">{{#imageURL}}<meta property="og:image" content="{{imageURL}}">{{/imageURL}}
        </head><body><p>{{callId}} / {{callType}} / {{canonicalURL}}</p>
        {{#openInAppURL}}<a href="{{openInAppURL}}" data-intent="{{intentURL}}">{{t.openInApp}}</a>{{/openInAppURL}}{{^openInAppURL}}<p>no app</p>{{/openInAppURL}}
        {{#webJoinURL}}<a href="{{webJoinURL}}">web</a>{{/webJoinURL}}{{#playStoreURL}}<a href="{{playStoreURL}}">play</a>{{/playStoreURL}}
        {{#qrCodeURL}}<img src="{{qrCodeURL}}" alt="">{{/qrCodeURL}}<div>{{qrCode}}</div><p>{{intentURL}}</p>
        {{#openInAppHostURL}}<a href="{{openInAppHostURL}}">other host</a>{{/openInAppHostURL}}</body></html>
        """

    struct Variant: Sendable, CustomStringConvertible {
        let description: String
        let links: [String]
        var baseURL: String?
        var webJoinURL: String?
        var openInAppURL: String?
        var previewImage = false
        var openInAppHost: String?
        var android = true
        let requests: [(path: String, query: [String: String], host: String?)]
    }

    static let variants: [Variant] = [
        Variant(description: "shipped shape, base URL", links: ["/call/{callId}?type={callType}"], baseURL: "https://links.example.com",
                webJoinURL: "https://app.example.com/join/{callId}?type={callType}", previewImage: true, openInAppHost: "open.links.example.com",
                requests: [("/call/abc", ["type": "video"], nil), ("/call/Bq7-xK2f9Zt", [:], "ignored.example")]),
        Variant(description: "Host as origin, with a port and as an IPv6 literal", links: ["/call/{callId}?type={callType}"], previewImage: true,
                requests: [("/call/abc", ["type": "video"], "localhost:8443"), ("/call/abc", [:], "[::1]:8080"), ("/call/abc", [:], "127.0.0.1")]),
        Variant(description: "no usable origin", links: ["/call/{callId}?type={callType}"],
                requests: [("/call/abc", [:], nil)]),
        Variant(description: "query and typed shapes, & in the canonical URL, {path} in URL templates",
                links: ["/join?call_id={callId}&call_type={callType}", "/v/room/{callType}:{callId}"], baseURL: "https://l.example.net",
                webJoinURL: "https://w.example/{path}/x?c={callId}&t={callType}", openInAppURL: "examplevideo://{path}/{callId}?type={callType}&x='1'",
                requests: [("/join", ["call_id": "abc", "call_type": "grp4"], nil), ("/v/room/audio:xyz", [:], nil), ("/join", ["call_id": "a_b-c"], nil)]),
        Variant(description: "default type canonical on an untyped first template", links: ["/r/{callId}", "/typed/{callType}:{callId}"], baseURL: "https://l.example.net",
                requests: [("/r/abc", [:], nil), ("/typed/video:abc", [:], nil), ("/typed/default:abc", [:], nil)]),
        Variant(description: "an open-in-app URL without ://, and no Android app", links: ["/call/{callId}"], baseURL: "https://l.example.net",
                openInAppURL: "examplevideo:join/{callId}", android: false, requests: [("/call/abc", [:], nil)]),
    ]

    @Test("same bytes as PageTemplate.render of String values", arguments: variants)
    func sameAsPlainRender(_ variant: Variant) throws {
        let folder = try Fixtures.temporaryFolder(files: [
            "call.html": Self.everyField, "static/og image&1.png": "png",
            "locales/en.json": try String(contentsOfFile: "public/locales/en.json", encoding: .utf8),
            "locales/de.json": try String(contentsOfFile: "public/locales/de.json", encoding: .utf8),
        ])
        defer { removeItem(folder) }
        var config = try Fixtures.config(Fixtures.validConfig)
        config.sites[0].callLinks.template = folder + "/call.html"
        config.sites[0].callLinks.locales = folder + "/locales"
        config.sites[0].staticFiles.root = folder + "/static"
        config.sites[0].callLinks.links = CallLinkMatcher(templates: try variant.links.map { try CallLinkTemplate($0) }, defaultType: "default")
        config.sites[0].callLinks.baseURL = variant.baseURL
        config.sites[0].callLinks.webJoinURL = variant.webJoinURL
        config.sites[0].callLinks.openInAppURL = variant.openInAppURL
        config.sites[0].callLinks.openInAppHost = variant.openInAppHost
        config.sites[0].callLinks.previewImage = variant.previewImage ? "og image&1.png" : nil
        if !variant.android { config.sites[0].android = [] }
        let router = Router(snapshot: try Snapshot(config: config))
        // Another replica of the same config: its pages' tags must be the same, or caches revalidating
        // against it would get the whole page again.
        let replica = Router(snapshot: try Snapshot(config: config))
        var tagOfBody: [[UInt8]: String] = [:], bodyOfTag: [String: [UInt8]] = [:]
        let site = router.snapshot.sites[0]
        #expect(site.callPage.usedFields.contains(.qrCode) && site.callPage.usedFields.contains(.canonicalURL), "the template renders per request")
        for request in variant.requests {
            for language in [nil, "de"] {
                let response = router.respond(to: Request(path: request.path, query: request.query, host: request.host, language: language))
                #expect(response.status == 200, "\(variant) \(request)")
                let link = try #require(site.config.callLinks.links.match(pathAndQuery: request.path + Self.query(request.query))?.link)
                let choice = site.callPage.chooser.choose(override: language, acceptLanguage: nil)
                let expected = Self.plainRender(site.callPage, link: link, language: choice, host: variant.baseURL == nil ? request.host : nil)
                #expect(response.bodyText == String(decoding: expected, as: UTF8.self), "\(variant) \(request) \(language ?? "default")")
                // The tag comes from what decides the bytes, not from the bytes: same bytes, same tag; other bytes, another.
                let tag = try #require(response.header("ETag"))
                #expect(tag.hasPrefix("\"") && tag.hasSuffix("-" + String(expected.count, radix: 16) + "\""), "\(tag)")
                #expect(replica.respond(to: Request(path: request.path, query: request.query, host: request.host, language: language)).header("ETag") == tag)
                #expect(tagOfBody[expected, default: tag] == tag && bodyOfTag[tag, default: expected] == expected, "\(variant) \(request)")
                tagOfBody[expected] = tag
                bodyOfTag[tag] = expected
            }
        }
    }

    static func query(_ items: [String: String]) -> String {
        items.isEmpty ? "" : "?" + items.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }

    /// The page as linkhost made it before values were written from parts: Strings, then the template's own render.
    static func plainRender(_ page: CallPage, link: CallLink, language: LanguageChoice, host: String?) -> [UInt8] {
        let settings = page.settings
        let origin = page.origin(host: host)
        let template = settings.links.canonicalTemplate(for: link)
        let canonicalURL = (origin ?? "") + template.fill(callID: link.callID, callType: link.callType)
        let path = template.literalPrefix.joined(separator: "/")
        func fill(_ text: String) -> String {
            text.replacing("{callId}", with: link.callID).replacing("{callType}", with: link.callType).replacing("{path}", with: path)
        }
        let canonicalPath = template.fill(callID: link.callID, callType: link.callType)
        let openInApp = settings.openInAppURL.map(fill) ?? "examplevideo:/" + canonicalPath
        let openInAppHostURL = settings.openInAppHost.map { "https://\($0)" + canonicalPath } ?? ""
        var playStore = "", intent = ""
        if let android = page.androidApp {
            playStore = "https://play.google.com/store/apps/details?id=\(android.packageName)&referrer=\(HTMLEscaping.percentEncode(canonicalURL))"
            if origin != nil, let separator = canonicalURL.firstRange(of: "://") {
                intent = "intent://\(canonicalURL[separator.upperBound...])#Intent;scheme=\(canonicalURL[..<separator.lowerBound]);package=\(android.packageName)"
                    + ";S.browser_fallback_url=\(HTMLEscaping.percentEncode(playStore));end"
            }
        }
        let imageURL = origin.map { "\($0)/\(settings.previewImage ?? "linkhost-preview.png")" } ?? ""
        let qrCodeURL = origin == nil ? "" : settings.links.canonicalQRCodePath(for: link)
        let qrCode = origin == nil ? "" : QRCodeMarkup.svg(for: canonicalURL)
        var body: [UInt8] = []
        page.templates[language.index].render(into: &body) { field in
            switch field {
            case .callId: return link.callID
            case .callType: return link.callType
            case .canonicalURL: return canonicalURL
            case .openInAppURL: return openInApp
            case .intentURL: return intent
            case .openInAppHostURL: return openInAppHostURL
            case .playStoreURL: return playStore
            case .webJoinURL: return settings.webJoinURL.map(fill) ?? ""
            case .imageURL: return imageURL
            case .qrCodeURL: return qrCodeURL
            case .qrCode: return qrCode
            case .appName, .appStoreID, .appStoreURL, .appClipBundleID: return page.appValues.first { $0.field == field }?.text ?? ""
            case .lang, .dir, .languages, .desktopScheme, .inPlayStore: return ""
            }
        }
        return body
    }
}
