import ArgumentParser
import Foundation
import NDEFJSON
import NFCSimulator

/// The entry point: parses the command line, runs the command, and turns every failure into a
/// documented exit status (``CLIError/Code``) with one line on standard error — or, for a
/// command run with `--json`, a JSON error object on standard output.
@main
enum NFCMain {
    static func main() async {
        CLILogging.bootstrap()
        TemporaryFiles.removeOnSignals()
        await parseAndRun()
    }

    /// Off the main actor, so the parsed command is never sent across isolation domains.
    nonisolated static func parseAndRun() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        InvocationLog.record(arguments)
        let command: any ParsableCommand
        do {
            command = try NFCCommand.parseAsRoot(arguments)
        } catch {
            NFCCommand.exit(withError: error)
        }
        await Invocation.$arguments.withValue(arguments) {
            await run(command)
        }
    }

    /// Runs a parsed command and reports its failure in the documented shape.
    nonisolated static func run(_ command: any ParsableCommand) async {
        let json = (command as? any JSONOutputCommand)?.wantsJSONOutput ?? false
        let lines = command is WatchCommand  // one JSON object per line
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var command = command
                try command.run()
            }
        } catch let error as CLIError {
            report(error, json: json, jsonLines: lines)
        } catch let error as ValidationError {
            report(CLIError(.usage, error.message), json: json, jsonLines: lines)
        } catch let error as ExitCode {
            NFCCommand.exit(withError: error)
        } catch let error as CleanExit {
            NFCCommand.exit(withError: error)
        } catch  where NFCCommand.exitCode(for: error) == .success {
            // `nfc help …` is ArgumentParser's help command, whose run() throws the help request:
            // ArgumentParser prints the help and exits 0.
            NFCCommand.exit(withError: error)
        } catch {
            // Anything a command did not turn into a CLIError still gets the documented shape.
            report(CLIError(.failure, "\(error)"), json: json, jsonLines: lines)
        }
    }

    /// Prints `error` and exits with its status.
    static func report(_ error: CLIError, json: Bool, jsonLines: Bool = false) -> Never {
        if json {
            Output.line(error.json.serialized(pretty: !jsonLines))
        } else {
            Output.error("Error: \(TerminalText.escape(error.description))")
        }
        exit(error.code.exitStatus)
    }
}
