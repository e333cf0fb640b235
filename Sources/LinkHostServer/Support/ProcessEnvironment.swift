import CSystem

/// The process environment as a dictionary, read once where a command starts.
///
/// Read from `environ` through CSystem rather than Foundation's ProcessInfo, which was the last thing
/// keeping Foundation in the release binary besides file access.
package enum ProcessEnvironment {
    /// The current environment variables; of a name given twice, the first.
    package static var current: [String: String] {
        var variables: [String: String] = [:]
        var index = 0
        while let entry = csys_environment_entry(index) {
            index += 1
            let text = String(cString: entry)
            guard let equals = text.firstIndex(of: "=") else { continue }
            let name = String(text[..<equals])
            if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
        }
        return variables
    }
}
