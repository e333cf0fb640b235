// Runs the printed Kotlin parser (package linkhost.corpus, printed by scripts/check-kotlin-parser.sh) over
// corpus files in the format of Tests/CallLinksTests/Corpus/call-links.tsv and prints every row whose answer
// differs from the table's (its android column where it has one, else expected); exits 1 when one does.
import linkhost.corpus.CallLinks
import java.io.File

/** A corpus field with `\\` and `\u{HEX}` undone. */
fun decode(field: String): String {
    val result = StringBuilder()
    var index = 0
    while (index < field.length) {
        val c = field[index]
        if (c != '\\') { result.append(c); index++; continue }
        val next = field.getOrNull(index + 1) ?: error("a \\ that escapes nothing in: $field")
        if (next == '\\') { result.append('\\'); index += 2; continue }
        require(next == 'u' && field.getOrNull(index + 2) == '{') { "an escape other than \\\\ and \\u{HEX} in: $field" }
        val close = field.indexOf('}', index + 3)
        result.appendCodePoint(Integer.parseInt(field.substring(index + 3, close), 16))
        index = close + 1
    }
    return result.toString()
}

fun main(args: Array<String>) {
    var rows = 0
    var disagreements = 0
    for (path in args) {
        for ((index, line) in File(path).readLines(Charsets.UTF_8).withIndex()) {
            if (line.length == 0 || line.startsWith("#") || line.startsWith("@")) continue
            val fields = line.split('\t')
            require(fields.size == 3 || fields.size == 4) { "$path:${index + 1} has ${fields.size} columns, not 3 or 4" }
            // The android column, where there is one: what Android hands the app differs (no http).
            val expected = fields.getOrElse(3) { fields[2] }
            val input = decode(fields[1])
            val link = when (fields[0]) {
                "url" -> CallLinks.parse(input)
                "referrer" -> CallLinks.takeDeferred(input, 60, false)
                else -> error("$path:${index + 1}: unknown kind ${fields[0]}")
            }
            val answer = if (link == null) "-" else link.callId + " " + link.callType
            rows++
            if (answer != expected) {
                disagreements++
                println("DISAGREE $path:${index + 1} ${fields[0]} ${fields[1]}: Kotlin ${answer}, table ${expected}")
            }
        }
    }
    println("Kotlin parser: $rows rows, $disagreements disagreements")
    if (disagreements > 0 || rows == 0) System.exit(1)
}
