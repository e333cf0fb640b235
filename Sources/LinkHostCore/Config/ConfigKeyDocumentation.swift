/// docs/configuration.md, generated from `ConfigKeyTable` (`make config-doc`) and checked against it by
/// `ConfigKeyTableTests`, as docs/diagnostics.md is from the lint codes: one reference that cannot drift.
public enum ConfigKeyDocumentation {
    /// The generated file's path, relative to the repository's root.
    public static let path = "docs/configuration.md"

    /// The headings, by a key's top-level member: the file's own keys share one; every other top-level key
    /// heads its own group, in the table's order, so a key another branch adds lands in its section.
    private static func group(of key: ConfigKey) -> String {
        let top = key.path.prefix { $0 != "." && $0 != "[" }
        return top == "$schema" || top == "example" ? "The file itself" : "`\(top)`"
    }

    /// Where the README's anchors went when its sections moved to docs/: the rows' text keeps the anchors
    /// it was written with, and the generator points them at the document that now holds each section.
    static let anchorFiles: [String: String] = [
        "sites": "config-guide.md", "link-shapes": "config-guide.md", "configuration": "config-guide.md",
        "android-15-dynamic-rules": "android-dynamic-rules.md", "every-guest-reaches-the-call": "call-page.md",
        "reload": "operating.md",
    ]

    /// A row's text with its links made relative to docs/: `docs/x.md` → `x.md`, `#anchor` → its document.
    static func relinked(_ text: String) -> String {
        var result = text.replacing("](docs/", with: "](")
        for (anchor, file) in anchorFiles { result = result.replacing("](#\(anchor))", with: "](\(file)#\(anchor))") }
        return result
    }

    /// The whole file.
    public static var markdown: String {
        var text = """
        # Configuration reference

        Every key of the config file, generated from `Sources/LinkHostCore/Config/ConfigKeyTable*.swift` by
        `make config-doc`; a test fails when this file and the table differ. The loader, the JSON Schema
        (`config/linkhost.schema.json`) and this file all come from or are checked against that table.
        How to write a config, link shapes and sites: [config-guide.md](config-guide.md).

        - **type**: the JSON type and range; **default**: what an absent key means.
        - **on reload**: whether a `SIGHUP` (or `server.watchConfig`) applies a change, or refuses the whole
          reload until a restart ([operating.md](operating.md#reload)).
        - **in a site**: how an entry of `sites` gets the key when it does not write it
          ([config-guide.md](config-guide.md#sites)): `inherited by key` — the top level's value even when the
          site writes the section (`null` clears it); `with its section` — only with a section the site leaves
          out; `the whole list` — a site's list replaces the top level's; `its own` — a key of the `sites`
          entry itself; `—` — not a site-level key.


        """
        var groups: [(title: String, keys: [ConfigKey])] = []
        for key in ConfigKeys.all {
            let title = group(of: key)
            if let last = groups.indices.last, groups[last].title == title { groups[last].keys.append(key) } else { groups.append((title, [key])) }
        }
        text += groups.map { "## \($0.title)\n\n" + relinked(ConfigKeys.markdown(of: $0.keys)) }.joined(separator: "\n")
        return text
    }
}
