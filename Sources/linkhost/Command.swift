import LinkHostCore

#if canImport(Glibc)
import Glibc
#endif

/// One `linkhost` subcommand: its name, help text and entry point.
protocol Command: SendableMetatype {
    /// The word that selects it.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The full `--help` text.
    static var help: String { get }
    /// Runs with the words after the command name; returns the exit code.
    static func run(_ words: ArraySlice<String>, environment: [String: String]) throws -> Int32
}
