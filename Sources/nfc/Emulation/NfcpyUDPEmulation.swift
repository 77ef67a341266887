import Dispatch
import NFCBytes
import NFCPN532
import NFCSimulator

/// The `nfc emulate --nfcpy-udp [HOST:]PORT` loop: the image's tag answers nfcpy's software UDP
/// frontend (`nfc.ContactlessFrontend('udp:HOST:PORT')`) as a card answers a reader, frame by
/// frame (``NFCPN532/NfcpyUDPCard``), until SIGINT or SIGTERM. The image is saved after each
/// answer that may follow a change, and once more at the end.
final class NfcpyUDPEmulation {
    private let image: EmulatedImage
    private let host: String
    private let port: UInt16

    init(images: [TagImageStore.Handle], host: String, port: UInt16) {
        self.image = EmulatedImage(images, fieldName: "nfcpy-udp")
        self.host = host
        self.port = port
    }

    /// `[HOST:]PORT`, the host defaulting to 127.0.0.1 (nfcpy's reader sends to localhost unless told).
    static func endpoint(_ text: String) -> (host: String, port: UInt16)? {
        let host: Substring
        let port: Substring
        if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        } else {
            host = "127.0.0.1"
            port = text[...]
        }
        guard !host.isEmpty, port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = UInt16(port), number > 0 else { return nil }
        return (String(host), number)
    }

    /// Runs until SIGINT or SIGTERM.
    /// - Throws: ``CLIError`` when the port cannot be bound or the image cannot be saved.
    func run() throws {
        let socket: NfcpyUDPCard.Port
        do {
            socket = try NfcpyUDPCard.Port(host: host, port: port)
        } catch {
            throw CLIError(.busy, "nfcpy-udp: \(error.reason)")
        }
        defer { socket.close() }
        Output.error(
            "answering nfcpy's UDP reader on \(socket.description) (nfc.ContactlessFrontend('udp:\(host):\(port)')); Ctrl-C to stop")
        let image = self.image
        let statistics = image.serve { stopped, answered in
            await NfcpyUDPCard.serve(port: socket, driver: image.field, stopped: stopped, afterOutput: answered)
        }
        Output.error(Self.summary(statistics))
        try image.finish()
    }

    /// `stopped after N frames (106A 12, 212F 3, RFOFF 1), M answered`.
    static func summary(_ statistics: NfcpyUDPCard.Statistics) -> String {
        var parts = statistics.received.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        if statistics.fieldOffs > 0 { parts.append("RFOFF \(statistics.fieldOffs)") }
        let total = statistics.received.values.reduce(statistics.fieldOffs, +)
        let detail = parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
        return "stopped after \(total) frames\(detail), \(statistics.answered) answered"
    }
}
