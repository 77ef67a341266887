import ArgumentParser
import NFCBytes
import NFCJSON
import NFCPCSC
import NFCReaders
import NFCSimulator
import NFCTransport

/// `nfc readers [--json]`
struct ReadersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readers",
        abstract: "List readers: sim (the simulator) always, then PC/SC readers."
    )

    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let image = SimulatorHome.defaultImagePath
        var pcsc: [PCSCReaderStatus] = []
        var problem: String?
        do {
            pcsc = try PCSCDriver().readerStatus()
        } catch {
            problem = error.reason
        }
        if json {
            var entries: [JSONValue] = [.object([("name", .string("sim")), ("kind", .string("simulator")), ("image", .string(image))])]
            for reader in pcsc {
                entries.append(
                    .object([
                        ("name", .string(reader.name)), ("kind", .string("pcsc")), ("tagPresent", .bool(reader.tagPresent)),
                        ("atr", reader.tagPresent ? .string(Hex.encode(reader.atr)) : .null),
                    ]))
            }
            Output.line(JSONValue.array(entries).serialized(pretty: true))
        } else {
            Output.line("sim\tsimulated field with a persistent virtual tag (\(image))")
            for reader in pcsc {
                Output.line(
                    "\(TerminalText.escape(reader.name))\tPC/SC, \(reader.tagPresent ? "tag present (ATR \(Hex.encode(reader.atr)))" : "no tag")"
                )
            }
        }
        if let problem { Output.error("PC/SC: \(problem)") }
    }
}
