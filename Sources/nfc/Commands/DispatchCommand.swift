import ArgumentParser
import NDEF
import NDEFJSON
import NFCBackgroundConfiguration
import NFCJSON
import OpenCoreNFC

/// `nfc dispatch [HEX | --message FILE] [--apps apps.json] [--device STATE]... [--json]`
struct DispatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dispatch",
        abstract: "Show what background tag reading would do with an NDEF message.",
        discussion: """
            Applies an iPhone's background tag reading rules: the first URI record, universal links of \
            the apps in --apps (their applinks: domains and apple-app-site-association rules), the \
            supported system schemes, and the device conditions given with --device. The message comes \
            from a hex argument, a file (--message: binary, hex or the JSON form, told apart by the \
            content), or standard input (- or no argument). \
            Exit status: 0 delivered (or delivered once unlocked), 1 not delivered, 2 bad input. \
            See docs/background.md.
            """
    )

    @Argument(help: "The NDEF message as hex, or - for standard input.")
    var hex: String?
    @Option(name: .long, help: "The message from this file (- for standard input): binary, hex or JSON.")
    var message: String?
    /// Deprecated: `--message` (this one reads raw bytes only).
    @Option(name: .long, help: ArgumentHelp(visibility: .hidden))
    var file: String?
    @Option(name: .long, help: "The apps, association files and handlers (docs/background.md).")
    var apps: String?
    @Option(name: .long, help: "A device condition: \(DeviceStateOption.allCases.map(\.rawValue).joined(separator: ", ")). Repeatable.")
    var device: [DeviceStateOption] = []
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func validate() throws {
        if [hex != nil, message != nil, file != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give one of HEX and --message FILE")
        }
    }

    func run() async throws {
        let configuration = try apps.map(BackgroundConfiguration.load) ?? .empty
        let bytes: [UInt8]
        if let messageFile = self.message {
            bytes = try MessageFile.read(messageFile).bytes
        } else if let file {
            Output.deprecated("--file", use: "--message FILE")
            bytes = try Input.readFile(file)
        } else if let hex, hex != "-" {
            bytes = try Input.hex(hex, what: "the message")
        } else {
            bytes = try Input.standardInputBytes()
        }
        let message: NDEFMessage?
        do {
            message = bytes.isEmpty ? nil : try NDEFMessage(decoding: bytes)
        } catch {
            throw CLIError(.badInput, "the message is malformed NDEF: \(error)", offset: error.offset)
        }
        let dispatch = configuration.reader.dispatch(message, state: DeviceStateOption.state(device))
        let handler = dispatch.target.flatMap(configuration.handler(for:))
        if json {
            Output.line(JSONValue.object(DispatchText.json(dispatch, handler: handler)).serialized(pretty: true))
        } else {
            for line in DispatchText.lines(dispatch, handler: handler) { Output.line(TerminalText.escape(line)) }
        }
        if !dispatch.isDelivered { throw ExitCode(1) }
    }
}
