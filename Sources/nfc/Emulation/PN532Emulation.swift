import Dispatch
import NFCBytes
import NFCPN532
import NFCSimulator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `nfc emulate --pn532 PATH` loop: a pseudo-terminal whose other end is a PN532 on HSU
/// (UM0701-02 §6.2) with the image's tag in its field, `PATH` a symbolic link to the terminal's
/// device. libnfc opens it as `pn532_uart:PATH`.
///
/// The terminal is `NFCPN532`'s `PseudoTerminal`. The image
/// is saved after each command that changed the tag, and once more at the end; the link is
/// removed when the loop ends (SIGINT, SIGTERM).
final class PN532Emulation {
    private let image: EmulatedImage
    private let linkPath: String

    init(images: [TagImageStore.Handle], linkPath: String) {
        self.image = EmulatedImage(images, fieldName: "pn532")
        self.linkPath = linkPath
    }

    /// Runs until SIGINT or SIGTERM.
    /// - Throws: ``CLIError`` when the terminal or the link cannot be made, or the image cannot be saved.
    func run() throws {
        let terminal: PseudoTerminal
        do {
            terminal = try PseudoTerminal(linkingAt: linkPath)
        } catch {
            throw CLIError(error.reason)
        }
        defer { terminal.close() }
        let (master, device) = (terminal.master, terminal.device)

        // What the chip writes goes to the terminal; after each write a save is queued (a
        // response follows the command that changed the tag).
        let image = self.image
        Output.error("PN532 on \(linkPath) -> \(device) (LIBNFC_DEVICE=pn532_uart:\(linkPath)); Ctrl-C to stop")
        let statistics = image.serve { stopped, answered in
            await VirtualPN532.serve(fileDescriptor: master, driver: image.field, stopped: stopped, afterOutput: answered)
        }
        Output.error(Self.summary(statistics))
        try image.finish()
    }

    /// `stopped after N commands (…)`: the commands by name, most frequent first, and what the
    /// line carried with its time at the PN532's default 115,200 baud.
    static func summary(_ statistics: VirtualPN532.Statistics) -> String {
        let counts = statistics.commands.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { code, count in
            let name = PN532Command(rawValue: code)?.manualName ?? "command \(Hex.encode([code]))"
            return "\(name) \(count)"
        }
        let bytes = statistics.bytesFromHost + statistics.bytesToHost
        // Tenths of a millisecond: 10 bits a byte.
        let tenths = bytes * 10 * 10_000 / 115_200
        let detail = counts.isEmpty ? "" : ": " + counts.joined(separator: ", ")
        return "stopped after \(statistics.commandCount) commands\(detail); \(bytes) bytes on the line, "
            + "\(tenths / 10).\(tenths % 10) ms at 115200 baud"
    }
}
