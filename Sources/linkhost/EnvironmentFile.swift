import Glibc
import LinkHostCore
import LinkHostFiles

/// `--env-file FILE`, for every command: the environment a systemd unit gives the service, read from a
/// shell, so `linkhost validate --env-file /etc/systemd/system/linkhost-https.service` checks the config with
/// the ports and folders the service will have (the unit sets `LINKHOST_PORT`, `LINKHOST_HTTP_PORT`, … and
/// the config may rely on them). FILE is either an `EnvironmentFile=` file (`KEY=VALUE` lines) or a unit or
/// drop-in, whose `[Service]` section's `Environment=` lines (and the `EnvironmentFile=` files they name) are
/// read as systemd reads them (systemd.exec(5), "Environment", "EnvironmentFile"), and its `WorkingDirectory=`
/// is entered, so relative paths (`public/`, a relative `--config`) resolve as the service's do. Later files
/// win, and a file's values win over the shell's, as the unit's do over the service manager's. A unit's
/// `User=`, `DynamicUser=`, `StateDirectory=` and `StateDirectoryMode=` say who the service runs as and which
/// folders systemd makes for it (`ServiceAccount`), so `validate` judges the ACME state folder for that user.
enum EnvironmentFile {
    /// What a file gives: its variables in order, and a unit's working directory and service account settings.
    struct Contents {
        var assignments: [(String, String)] = []
        var workingDirectory: String?
        /// `User=`, `DynamicUser=`, `StateDirectory=` (names under /var/lib), `StateDirectoryMode=`, as last set.
        var user: String?
        var dynamicUser: Bool?
        var stateDirectories: [String]?
        var stateDirectoryMode: Int?
        /// The first unit file read (its drop-ins come after it; nil: only environment files, which say nothing of users).
        var unit: String?

        /// Later files' settings over earlier ones', as systemd reads drop-ins after the unit.
        mutating func take(_ later: Contents) {
            workingDirectory = later.workingDirectory ?? workingDirectory
            user = later.user ?? user
            dynamicUser = later.dynamicUser ?? dynamicUser
            stateDirectories = later.stateDirectories ?? stateDirectories
            stateDirectoryMode = later.stateDirectoryMode ?? stateDirectoryMode
            unit = unit ?? later.unit
        }

        /// The service's user and folders; nil when no unit was read.
        var account: ServiceAccount? {
            guard let unit else { return nil }
            let user: ServiceAccount.User = dynamicUser == true ? .dynamic : self.user.map { $0 == "root" || $0 == "0" ? .root : .named($0) } ?? .root
            return ServiceAccount(unit: unit, user: user, stateDirectories: (stateDirectories ?? []).map { "/var/lib/" + $0 },
                                  stateDirectoryMode: stateDirectoryMode ?? 0o755)
        }
    }

    /// `words` without their `--env-file` options, `environment` with those files' variables applied, and the
    /// service account the units name (nil without a unit); enters the last working directory a unit names.
    static func apply(_ words: ArraySlice<String>, to environment: [String: String], command: String) throws(UsageError)
        -> (words: ArraySlice<String>, environment: [String: String], account: ServiceAccount?) {
        var rest: [String] = []
        var result = environment
        var settings = Contents()
        var iterator = words.makeIterator()
        while let word = iterator.next() {
            if word == "--" {
                rest.append(word)
                while let positional = iterator.next() { rest.append(positional) }
                break
            }
            let path: String
            if word == "--env-file" {
                guard let value = iterator.next() else { throw UsageError(message: "--env-file needs a value", command: command) }
                path = value
            } else if word.hasPrefix("--env-file=") {
                path = String(word.dropFirst("--env-file=".count))
            } else {
                rest.append(word)
                continue
            }
            let contents = try read(path, command: command)
            for (name, value) in contents.assignments { result[name] = value }
            settings.take(contents)
        }
        if let workingDirectory = settings.workingDirectory, chdir(workingDirectory) != 0 {
            throw UsageError(message: "--env-file: cannot enter the unit's WorkingDirectory=\(workingDirectory): \(String(cString: strerror(errno)))", command: command)
        }
        return (rest[...], result, settings.account)
    }

    /// One file: a unit's (when it has a `[Section]` line) or an environment file's assignments.
    static func read(_ path: String, command: String, optional: Bool = false) throws(UsageError) -> Contents {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, maximumSize: 1 << 20, acceptingStreams: true)
        } catch {
            if optional { return Contents() }
            throw UsageError(message: "--env-file \(path): \(error)", command: command)
        }
        let lines = logicalLines(String(decoding: bytes, as: UTF8.self))
        if lines.contains(where: { $0.hasPrefix("[") }) { return try unit(lines, path: path, command: command) }
        var contents = Contents()
        for line in lines where !line.isEmpty && !line.hasPrefix("#") && !line.hasPrefix(";") {
            guard let assignment = assignment(line) else { throw UsageError(message: "--env-file \(path): not KEY=VALUE: \(line)", command: command) }
            contents.assignments.append(assignment)
        }
        return contents
    }

    /// A unit's `[Service]` `Environment=` assignments (an empty one clears those before it), `WorkingDirectory=`
    /// and the service account settings.
    private static func unit(_ lines: [String], path: String, command: String) throws(UsageError) -> Contents {
        var contents = Contents()
        contents.unit = path
        var inService = false
        for line in lines where !line.isEmpty && !line.hasPrefix("#") && !line.hasPrefix(";") {
            if line.hasPrefix("[") { inService = line == "[Service]"; continue }
            guard inService, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingSpaces, value = String(line[line.index(after: equals)...]).trimmingSpaces
            if key == "Environment" {
                if value.isEmpty { contents.assignments.removeAll(); continue }
                for word in words(value) {
                    guard let assignment = assignment(word) else { throw UsageError(message: "--env-file \(path): not KEY=VALUE in Environment=: \(word)", command: command) }
                    contents.assignments.append(assignment)
                }
            } else if key == "EnvironmentFile", !value.isEmpty {
                let optional = value.hasPrefix("-")
                contents.assignments += try read(optional ? String(value.dropFirst()) : value, command: command, optional: optional).assignments
            } else if key == "WorkingDirectory" {
                // "-" only makes a missing folder no error for systemd; "~" (the user's home) has no meaning here.
                contents.workingDirectory = value.isEmpty || value == "~" ? nil : String(value.drop { $0 == "-" })
            } else if key == "User" {
                contents.user = value.isEmpty ? "root" : value
            } else if key == "DynamicUser" {
                contents.dynamicUser = ["yes", "true", "on", "1"].contains(value.lowercased())
            } else if key == "StateDirectory" {
                // An empty assignment resets the list; "NAME:LINK" (systemd 250) makes NAME and links LINK to it.
                contents.stateDirectories = value.isEmpty ? [] : (contents.stateDirectories ?? []) + words(value).map { String($0.prefix { $0 != ":" }) }
            } else if key == "StateDirectoryMode" {
                guard let mode = Int(value, radix: 8), (0...0o7777).contains(mode) else {
                    throw UsageError(message: "--env-file \(path): StateDirectoryMode=\(value) is not an octal mode such as 0700", command: command)
                }
                contents.stateDirectoryMode = mode
            }
        }
        return contents
    }

    /// `KEY=VALUE`, the value unquoted when it is quoted whole.
    private static func assignment(_ text: String) -> (String, String)? {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
        let name = text[..<equals].trimmingSpaces
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        let value = String(text[text.index(after: equals)...]).trimmingSpaces
        let unquoted = words(value)
        return (name, unquoted.count == 1 && (value.hasPrefix("\"") || value.hasPrefix("'")) ? unquoted[0] : value)
    }

    /// Space-separated words, where `"…"` and `'…'` keep spaces and `\` escapes the next character.
    private static func words(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        var quote: Character?
        var escaped = false
        var started = false
        for character in text {
            if escaped { current.append(character); escaped = false; continue }
            if character == "\\" && quote != "'" { escaped = true; started = true; continue }
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                started = true
            } else if character == " " || character == "\t" {
                if started { result.append(current); current = ""; started = false }
            } else {
                current.append(character)
                started = true
            }
        }
        if started { result.append(current) }
        return result
    }

    /// The file's lines, trimmed, with a line that ends in `\` joined to the next.
    private static func logicalLines(_ text: String) -> [String] {
        var lines: [String] = []
        var pending = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw).trimmingSpaces
            if line.hasSuffix("\\") && !line.hasPrefix("#") {
                pending += line.dropLast() + " "
                continue
            }
            lines.append((pending + line).trimmingSpaces)
            pending = ""
        }
        if !pending.isEmpty { lines.append(pending.trimmingSpaces) }
        return lines
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and carriage returns.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
