import LinkHostCore
import LinkHostServer

/// The `linkhost` command line: picks a command, prints help, turns usage errors into exit code 2.
enum CommandLineTool {
    /// linkhost's version, printed by --version.
    static let version = "0.1.0"

    /// Every subcommand, in the order help lists them.
    static let commands: [CommandEntry] = [
        CommandEntry(ServeCommand.self), CommandEntry(ValidateCommand.self), CommandEntry(PrintCommand.self), CommandEntry(HealthcheckCommand.self),
        CommandEntry(MatchCommand.self), CommandEntry(CheckCommand.self), CommandEntry(StatsCommand.self), CommandEntry(InitCommand.self),
    ]

    static var help: String {
        """
        linkhost \(version): the web host of a calling app's link domain.

        USAGE: linkhost [COMMAND] [OPTIONS]

        COMMANDS:
        \(commands.map { "  " + pad($0.name, 13) + $0.summary }.joined(separator: "\n"))

        With no command, linkhost serves. Run 'linkhost COMMAND --help' for a command's options.

        OPTIONS:
          -h, --help      Show this help.
          --version       Show the version.
          --env-file FILE With any command: read variables from FILE first, an EnvironmentFile=
                          file (KEY=VALUE lines) or a systemd unit (its Environment= lines, and
                          its WorkingDirectory=), as the service gets them; may repeat, later
                          files win.
        """
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// Runs the command line and returns the exit code.
    static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
        var words = arguments.dropFirst()
        if words.first == "--version" { StandardStreams.output("linkhost \(version)\n"); return 0 }
        if words.first == "--help" || words.first == "-h" || words.first == "help" { StandardStreams.output(help + "\n"); return 0 }
        var command = commands[0]
        if let first = words.first, !first.hasPrefix("-") {
            guard let chosen = commands.first(where: { $0.name == first }) else {
                var message = "linkhost: unknown command '\(first)'"
                if let close = commands.map(\.name).first(where: { $0.hasPrefix(String(first.prefix(2))) }) { message += "; did you mean '\(close)'?" }
                StandardStreams.error("\(message)\nRun 'linkhost --help' for the list of commands.\n")
                return 2
            }
            command = chosen
            words = words.dropFirst()
        }
        do {
            let unit = try EnvironmentFile.apply(words, to: environment, command: command.name)
            return try command.run(unit.words, unit.environment, unit.account)
        } catch let error as UsageError {
            StandardStreams.error("linkhost \(error.command): \(error.message)\nRun 'linkhost \(error.command) --help' for usage.\n")
            return 2
        } catch {
            StandardStreams.error("linkhost: \(error)\n")
            return 1
        }
    }
}

/// A command's name, summary and entry point, so the tool can list and run commands uniformly.
struct CommandEntry: Sendable {
    let name: String
    let summary: String
    let run: @Sendable (ArraySlice<String>, [String: String], ServiceAccount?) throws -> Int32

    init<C: Command>(_ command: C.Type) {
        name = C.name
        summary = C.summary
        run = { try C.run($0, environment: $1, account: $2) }
    }
}
