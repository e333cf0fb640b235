/// Where each field's bytes stand in a page's value buffer: one stored range per field, reached through an
/// exhaustive `switch`, so a new `PageTemplate.Field` does not compile until it has its place here — no
/// count to keep in step, no index past an end, and no allocation besides the buffer itself.
struct PageFieldRanges {
    private var callId = 0..<0, callType = 0..<0, appName = 0..<0, appStoreID = 0..<0
    private var openInAppURL = 0..<0, intentURL = 0..<0, appStoreURL = 0..<0, playStoreURL = 0..<0
    private var webJoinURL = 0..<0, canonicalURL = 0..<0, imageURL = 0..<0, qrCodeURL = 0..<0, qrCode = 0..<0
    private var lang = 0..<0, dir = 0..<0, languages = 0..<0, openInAppHostURL = 0..<0
    private var appClipBundleID = 0..<0, desktopScheme = 0..<0, inPlayStore = 0..<0

    /// The range of a field's bytes; empty for a field not set.
    subscript(field: PageTemplate.Field) -> Range<Int> {
        get {
            switch field {
            case .callId: callId
            case .callType: callType
            case .appName: appName
            case .appStoreID: appStoreID
            case .openInAppURL: openInAppURL
            case .intentURL: intentURL
            case .appStoreURL: appStoreURL
            case .playStoreURL: playStoreURL
            case .webJoinURL: webJoinURL
            case .canonicalURL: canonicalURL
            case .imageURL: imageURL
            case .qrCodeURL: qrCodeURL
            case .qrCode: qrCode
            case .lang: lang
            case .dir: dir
            case .languages: languages
            case .openInAppHostURL: openInAppHostURL
            case .appClipBundleID: appClipBundleID
            case .desktopScheme: desktopScheme
            case .inPlayStore: inPlayStore
            }
        }
        set {
            switch field {
            case .callId: callId = newValue
            case .callType: callType = newValue
            case .appName: appName = newValue
            case .appStoreID: appStoreID = newValue
            case .openInAppURL: openInAppURL = newValue
            case .intentURL: intentURL = newValue
            case .appStoreURL: appStoreURL = newValue
            case .playStoreURL: playStoreURL = newValue
            case .webJoinURL: webJoinURL = newValue
            case .canonicalURL: canonicalURL = newValue
            case .imageURL: imageURL = newValue
            case .qrCodeURL: qrCodeURL = newValue
            case .qrCode: qrCode = newValue
            case .lang: lang = newValue
            case .dir: dir = newValue
            case .languages: languages = newValue
            case .openInAppHostURL: openInAppHostURL = newValue
            case .appClipBundleID: appClipBundleID = newValue
            case .desktopScheme: desktopScheme = newValue
            case .inPlayStore: inPlayStore = newValue
            }
        }
    }
}
