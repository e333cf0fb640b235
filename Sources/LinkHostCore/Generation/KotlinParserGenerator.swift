import CallLinks

/// Writes one self-contained Kotlin file that reads a site's call links on Android with the decisions of
/// `CallLinkParser` (and so of the server): the templates, hosts, custom scheme and default type built in,
/// the install referrer taken by the rules of `DeferredCallLink`. It needs nothing beyond the JDK.
///
/// The Kotlin reads the link as the Swift does: separators are ASCII, so Kotlin's UTF-16 characters find
/// them where the Swift finds their bytes; only lengths are counted in UTF-8 bytes, as the Swift counts
/// them. `scripts/check-kotlin-parser.sh` compiles the printed file and runs it over the corpus that the
/// `CallLinks` tests check `CallLinkParser` against, so the two cannot drift apart unnoticed.
public enum KotlinParserGenerator {
    /// Why a Kotlin package name cannot be used, completing "\"x\" …"; nil when it can.
    public static func packageProblem(_ name: String) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        for part in parts {
            guard let first = part.utf8.first, !(0x30...0x39).contains(first),
                  part.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") })
            else { return "is not a Kotlin package name (dot-separated names of A-Z, a-z, 0-9 and _, not starting with a digit)" }
            if hardKeywords.contains(String(part)) { return "uses the Kotlin keyword \"\(part)\" as a name" }
        }
        return nil
    }

    /// Kotlin's hard keywords, which a package name cannot use unquoted.
    static let hardKeywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is",
        "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof",
        "val", "var", "when", "while",
    ]

    /// The web schemes the printed parser reads: the ones `print android-manifest` declares in its App Links
    /// filters, as Android hands an app only URLs of a scheme its filter lists ("If any schemes are included
    /// in the filter, then an Intent's data must be either one of these schemes or a matching data type",
    /// developer.android.com/reference/android/content/IntentFilter#addDataScheme(java.lang.String)). An
    /// `http` link stays in the browser on Android, so the Kotlin parser reads none, unlike `CallLinkParser`:
    /// iOS opens `http` universal links in the app.
    public static let webSchemes = ["https"]

    /// The file for `site` on `hosts`, in package `package`; `source` names the config, `app` the Android app.
    public static func file(for site: SiteConfig, hosts: [String], package: String, app: String?, source: String) -> String {
        let templates = site.callLinks.links.templates
        let scheme = URLTypesGenerator.scheme(of: site)
        var header = "// Printed by `linkhost print kotlin-parser` from \(comment(source))"
        if let app { header += " for \(comment(app))" }
        header += ".\n// Print it again when the config changes; do not edit: the server decides links with the same rules.\n"
        let data = """
            /** The link templates, in order; the first is canonical. */
            val TEMPLATES: List<String> = listOf(\(templates.map { literal($0.text) }.joined(separator: ", ")))
            /** The call type of links that carry none. */
            const val DEFAULT_TYPE: String = \(literal(site.callLinks.defaultType))
            /** The hosts links are accepted on, lowercased; "*.example.com" covers every subdomain. */
            val HOSTS: List<String> = listOf(\(hosts.map(literal).joined(separator: ", ")))
            /** The web schemes Android hands the app: the ones the printed manifest's App Links filters declare. */
            val WEB_SCHEMES: List<String> = listOf(\(webSchemes.map(literal).joined(separator: ", ")))
            /** The custom schemes whose links ("scheme://call/abc") the page writes, lowercased. */
            val SCHEMES: List<String> = listOf(\(scheme.map(literal) ?? ""))

            // A template's placeholder segments; a literal segment never holds a NUL.
            private const val ID = "\\u0000id"
            private const val TYPED_ID = "\\u0000typed"
            private val templates: List<Template> = listOf(
        \(templates.map { "        " + construction($0) }.joined(separator: ",\n"))
            )

        """
        return header + "package \(package)\n" + prelude + data + rules
    }

    /// `Template(listOf("call", ID), listOf(QueryItem("type", false)))`: the parsed template as Kotlin.
    static func construction(_ template: CallLinkTemplate) -> String {
        let segments = template.segments.map { segment -> String in
            switch segment {
            case .literal(let text): return literal(text)
            case .callID: return "ID"
            case .typedCallID: return "TYPED_ID"
            }
        }
        let items = template.queryItems.map { "QueryItem(\(literal($0.name)), \($0.binding == .callID))" }
        return "Template(listOf(\(segments.joined(separator: ", "))), listOf(\(items.joined(separator: ", "))))"
    }

    /// A Kotlin string literal: Swift's escapes, and `$`, which Kotlin would read as a template.
    static func literal(_ text: String) -> String {
        SwiftParserLine.literal(text, escaping: ["$"])
    }

    /// Text that can stand in a line comment: one line.
    static func comment(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    static let prelude = #"""

import java.net.URI

/** One call: its ID and type, both 1 to 64 characters of A-Z a-z 0-9 _ -. */
data class CallLink(val callId: String, val callType: String)

/**
 * The call links of this site, read as linkhost's server reads them (the Swift apps' CallLinkParser).
 *
 * A link is a call link when it is in one of WEB_SCHEMES, on one of HOSTS (the scheme's port or none), and its path and query fit a
 * template exactly; the fragment is ignored. "scheme://call/abc?type=video" in one of SCHEMES reads like
 * "https://host/call/abc?type=video". Nothing is decoded: an escaped ID is no ID.
 */
object CallLinks {

"""#

    static let rules = #"""
    /** The longest link read, in UTF-8 bytes: far above any call link. */
    const val MAX_LENGTH: Int = 2048
    /** Seconds after the install during which a deferred link (the Play install referrer) is taken. */
    const val DEFERRED_MAX_AGE_SECONDS: Long = 3600

    /** The call [url] names, or null when it is not a call link of this site. Pass intent.dataString. */
    fun parse(url: String): CallLink? {
        if (utf8Length(url) > MAX_LENGTH) return null
        val schemePath = schemeForm(url)
        if (schemePath != null) return matchPathAndQuery(schemePath)
        val parts = split(url) ?: return null
        if (parts.scheme !in WEB_SCHEMES || (parts.port != null && parts.port != (if (parts.scheme == "http") 80 else 443))) return null
        if (HOSTS.none { covers(it, parts.host) }) return null
        return match(parts.path, if (parts.query == null) emptyMap() else firstValues(parts.query))
    }

    /** The call [uri] names, read as written (still percent-encoded). */
    fun parse(uri: URI): CallLink? = parse(uri.toString())

    /**
     * The call of the Play install referrer ([referrer]: ReferrerDetails.installReferrer, the page's
     * canonical link), taken once and fresh: nothing when [alreadyTaken], when the app was installed more
     * than DEFERRED_MAX_AGE_SECONDS ago, or when it is not exactly a call link in its https form. Record
     * that the deferred link was taken whatever the answer.
     */
    fun takeDeferred(referrer: String?, secondsSinceInstall: Long, alreadyTaken: Boolean): CallLink? {
        if (alreadyTaken || secondsSinceInstall < 0 || secondsSinceInstall > DEFERRED_MAX_AGE_SECONDS || referrer == null) return null
        if (utf8Length(referrer) > MAX_LENGTH || !startsWithHttps(referrer)) return null
        return parse(referrer)
    }

    private class QueryItem(val name: String, val isCallId: Boolean)

    private class Template(val segments: List<String>, val queryItems: List<QueryItem>) {
        fun match(path: String, query: Map<String, String>): CallLink? {
            if (!path.startsWith("/")) return null
            var rest = path.substring(1)
            // One trailing slash is allowed: /call/abc/ is /call/abc.
            if (rest.endsWith("/")) rest = rest.substring(0, rest.length - 1)
            var callId: String? = null
            var callType: String? = null
            for ((position, segment) in segments.withIndex()) {
                val slash = rest.indexOf('/')
                val end = if (slash < 0) rest.length else slash
                val part = rest.substring(0, end)
                when (segment) {
                    ID -> { if (!isToken(part)) return null; callId = part }
                    TYPED_ID -> {
                        val colon = part.indexOf(':')
                        if (colon < 0) return null
                        val type = part.substring(0, colon)
                        val id = part.substring(colon + 1)
                        if (!isToken(type) || !isToken(id)) return null
                        callType = type
                        callId = id
                    }
                    else -> if (part != segment) return null
                }
                if (position == segments.size - 1) {
                    if (end != rest.length) return null
                } else {
                    if (end == rest.length) return null
                    rest = rest.substring(end + 1)
                }
            }
            for (item in queryItems) {
                val value = query[item.name]
                if (item.isCallId) {
                    if (value == null || !isToken(value)) return null
                    callId = value
                } else if (!value.isNullOrEmpty()) {
                    // An empty or missing type is the default, as a link without one.
                    if (!isToken(value)) return null
                    callType = value
                }
            }
            return callId?.let { CallLink(it, callType ?: DEFAULT_TYPE) }
        }
    }

    private class Parts(val scheme: String, val host: String, val port: Int?, val path: String, val query: String?)

    private fun match(path: String, query: Map<String, String>): CallLink? {
        for (template in templates) template.match(path, query)?.let { return it }
        return null
    }

    private fun matchPathAndQuery(pathAndQuery: String): CallLink? {
        val question = pathAndQuery.indexOf('?')
        if (question < 0) return match(pathAndQuery, emptyMap())
        return match(pathAndQuery.substring(0, question), firstValues(pathAndQuery.substring(question + 1)))
    }

    /** "/" and what follows "scheme://" up to the fragment, when [url] is in one of SCHEMES' forms. */
    private fun schemeForm(url: String): String? {
        if (SCHEMES.isEmpty()) return null
        val colon = url.indexOf(':')
        if (colon < 0 || asciiLowercase(url.substring(0, colon)) !in SCHEMES) return null
        val rest = url.substring(colon + 1)
        if (!rest.startsWith("//") || rest.any { isControlOrSpace(it) }) return null
        val afterSlashes = rest.substring(2)
        if (afterSlashes.startsWith("/")) return null
        val hash = afterSlashes.indexOf('#')
        return "/" + (if (hash < 0) afterSlashes else afterSlashes.substring(0, hash))
    }

    /** An absolute URL taken apart as the server sees its request: host lowercased, path and query as written. */
    private fun split(text: String): Parts? {
        if (text.any { isControlOrSpace(it) }) return null
        val colon = text.indexOf(':')
        if (colon < 1 || !isLetter(text[0])) return null
        val scheme = text.substring(0, colon)
        if (!scheme.all { isLetter(it) || it in '0'..'9' || it == '+' || it == '-' || it == '.' }) return null
        if (!text.startsWith("//", colon + 1)) return null
        val authorityStart = colon + 3
        var authorityEnd = authorityStart
        while (authorityEnd < text.length && text[authorityEnd] != '/' && text[authorityEnd] != '?' && text[authorityEnd] != '#') authorityEnd++
        val authority = text.substring(authorityStart, authorityEnd)
        if (authority.contains('@') || authority.startsWith("[")) return null
        var host = authority
        var port: Int? = null
        val portColon = authority.indexOf(':')
        if (portColon >= 0) {
            host = authority.substring(0, portColon)
            val digits = authority.substring(portColon + 1)
            if (digits.length == 0 || digits.length > 5 || !digits.all { it in '0'..'9' }) return null
            val number = digits.toInt()
            if (number > 65535) return null
            port = number
        }
        if (host.endsWith(".") && host.length > 1) host = host.substring(0, host.length - 1)
        if (host.length == 0) return null
        val target = text.substring(authorityEnd)
        val hash = target.indexOf('#')
        val beforeFragment = if (hash < 0) target else target.substring(0, hash)
        val question = beforeFragment.indexOf('?')
        val path = if (question < 0) beforeFragment else beforeFragment.substring(0, question)
        val query = if (question < 0) null else beforeFragment.substring(question + 1)
        return Parts(asciiLowercase(scheme), asciiLowercase(host), port, if (path.length == 0) "/" else path, query)
    }

    /** The raw value of the first query item of each name, split at "&" and the first "=", as the server does. */
    private fun firstValues(query: String): Map<String, String> {
        val values = HashMap<String, String>()
        for (item in query.split('&')) {
            if (item.length == 0) continue
            val equals = item.indexOf('=')
            val name = if (equals < 0) item else item.substring(0, equals)
            if (name !in values) values[name] = if (equals < 0) "" else item.substring(equals + 1)
        }
        return values
    }

    private fun covers(listed: String, host: String): Boolean {
        if (!listed.startsWith("*.")) return listed == host
        val suffix = listed.substring(1)
        return utf8Length(host) > utf8Length(suffix) && host.endsWith(suffix)
    }

    private fun isToken(text: String): Boolean =
        text.length in 1..64 && text.all { it in 'a'..'z' || it in 'A'..'Z' || it in '0'..'9' || it == '_' || it == '-' }

    private fun isLetter(c: Char): Boolean = c in 'a'..'z' || c in 'A'..'Z'

    private fun isControlOrSpace(c: Char): Boolean = c <= ' ' || c == '\u007F'

    /** A-Z lowercased, nothing else: Unicode lowercasing would turn the Kelvin sign into k. */
    private fun asciiLowercase(text: String): String =
        String(CharArray(text.length) { val c = text[it]; if (c in 'A'..'Z') c + 32 else c })

    private fun startsWithHttps(text: String): Boolean =
        text.length >= 8 && "https://".indices.all { val c = text[it]; (if (c in 'A'..'Z') c + 32 else c) == "https://"[it] }

    /** The length in UTF-8 bytes, as the server and the Swift parser count it. */
    private fun utf8Length(text: String): Int {
        var count = 0
        var index = 0
        while (index < text.length) {
            val c = text[index]
            count += when {
                c < '\u0080' -> 1
                c < '\u0800' -> 2
                Character.isHighSurrogate(c) && index + 1 < text.length && Character.isLowSurrogate(text[index + 1]) -> { index++; 4 }
                else -> 3
            }
            index++
        }
        return count
    }
}
"""#
}
