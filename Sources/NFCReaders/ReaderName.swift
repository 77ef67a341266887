/// A reader, as a person names it on the command line or in `OPENCORENFC_READER`.
///
/// One grammar, used by the `nfc` tool and by Core NFC sessions alike:
///
/// | text | reader |
/// |---|---|
/// | `sim` | the persistent virtual tag (NFCSimulator's `SimulatorHome.defaultImagePath`), created on first use |
/// | `sim:PATH` | the tag image at PATH (for `nfc watch`, a folder of images) |
/// | `pcsc` | every PC/SC reader (the first with a card, for one-shot commands) |
/// | `pcsc:NAME` | PC/SC readers whose name contains NAME, case-insensitive |
/// | `pn532:PATH` | a PN532 board on the serial device at PATH, at 115,200 baud (its HSU's speed after reset) |
/// | `pn532:PATH:BAUD` | the same at another speed (9600 to 921600) |
/// | `pn532-target:PATH` | a virtual PN532 on a pseudo-terminal linked at PATH; its card is the program that drives it as a target (libnfc's `nfc-emulate-forum-tag4`) |
/// | `nfcpy-udp:[HOST:]PORT` | nfcpy's UDP frontend: the card is nfcpy's own tag emulation listening at HOST (default `localhost`) and PORT |
/// | `NAME` | the same as `pcsc:NAME`: a reader's name as `nfc readers` prints it |
///
/// Scheme words are never read as PC/SC names; a scheme whose backend a build leaves out is
/// refused when the reader is opened (``ReaderNameError/Code-swift.struct/unsupportedBackend``).
public enum ReaderName: Hashable, Sendable, CustomStringConvertible {
    /// The simulator: the persistent virtual tag (`nil`) or the image or folder at a path.
    case simulator(path: String?)
    /// PC/SC readers, all of them (`nil`) or those whose name contains the filter.
    case pcsc(filter: String?)
    /// A PN532 on a serial line: the device's path and the speed (nil: 115,200 baud).
    case pn532(path: String, baudRate: Int?)
    /// A virtual PN532 in target mode, on a pseudo-terminal linked at the path.
    case pn532Target(path: String)
    /// nfcpy's UDP frontend: the tag emulation listening at the host and port.
    case nfcpyUDP(host: String, port: UInt16)

    /// The serial speeds `pn532:PATH:BAUD` takes.
    public static let pn532BaudRates = [9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600]

    /// Parses a reader name.
    /// - Throws: ``ReaderNameError`` for an empty name, a scheme with nothing after its colon, a
    ///   speed `pn532:` does not take, or a port `nfcpy-udp:` cannot use.
    public init(parsing text: String) throws(ReaderNameError) {
        if text.isEmpty { throw ReaderNameError(.empty, "a reader name is empty (try sim, pcsc or a reader's name)") }
        if text == "sim" {
            self = .simulator(path: nil)
        } else if text.hasPrefix("sim:") {
            let path = String(text.dropFirst(4))
            if path.isEmpty { throw ReaderNameError(.missingArgument, "sim: needs a tag image path (sim:FILE)") }
            self = .simulator(path: path)
        } else if text == "pcsc" {
            self = .pcsc(filter: nil)
        } else if text.hasPrefix("pcsc:") {
            let filter = String(text.dropFirst(5))
            if filter.isEmpty { throw ReaderNameError(.missingArgument, "pcsc: needs part of a reader's name (pcsc:NAME)") }
            self = .pcsc(filter: filter)
        } else if text.hasPrefix("pn532-target:") {
            let path = String(text.dropFirst(13))
            if path.isEmpty {
                throw ReaderNameError(.missingArgument, "pn532-target: needs the path of the link to make (pn532-target:/tmp/pn532)")
            }
            self = .pn532Target(path: path)
        } else if text.hasPrefix("pn532:") {
            self = try Self.pn532(String(text.dropFirst(6)))
        } else if text.hasPrefix("nfcpy-udp:") {
            self = try Self.nfcpyUDP(String(text.dropFirst(10)))
        } else {
            self = .pcsc(filter: text)
        }
    }

    /// `pn532:` with what follows it: `PATH` or `PATH:BAUD` (a last part of digits is a speed).
    private static func pn532(_ rest: String) throws(ReaderNameError) -> ReaderName {
        guard !rest.isEmpty else { throw ReaderNameError(.missingArgument, "pn532: needs a serial device (pn532:/dev/ttyUSB0[:BAUD])") }
        if let colon = rest.lastIndex(of: ":"), case let digits = rest[rest.index(after: colon)...], !digits.isEmpty,
            digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber)
        {
            let path = String(rest[..<colon])
            guard let baud = Int(digits), pn532BaudRates.contains(baud) else {
                let speeds = pn532BaudRates.map(String.init).joined(separator: ", ")
                throw ReaderNameError(.invalidArgument, "pn532: \(digits) baud is not a speed it takes (\(speeds))")
            }
            guard !path.isEmpty else { throw ReaderNameError(.missingArgument, "pn532: needs a serial device before :\(digits)") }
            return .pn532(path: path, baudRate: baud)
        }
        return .pn532(path: rest, baudRate: nil)
    }

    /// `nfcpy-udp:` with what follows it: `PORT` or `HOST:PORT` (the last part is the port).
    private static func nfcpyUDP(_ rest: String) throws(ReaderNameError) -> ReaderName {
        guard !rest.isEmpty else { throw ReaderNameError(.missingArgument, "nfcpy-udp: needs a port (nfcpy-udp:[HOST:]PORT)") }
        let host: String
        let portText: Substring
        if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
            guard !host.isEmpty else { throw ReaderNameError(.missingArgument, "nfcpy-udp: needs a host before :\(portText)") }
        } else {
            host = "localhost"
            portText = rest[...]
        }
        guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = UInt16(portText), port > 0 else {
            throw ReaderNameError(.invalidArgument, "nfcpy-udp: \(portText) is not a UDP port (1 to 65535)")
        }
        return .nfcpyUDP(host: host, port: port)
    }

    /// The name in the grammar's own spelling (`sim`, `sim:PATH`, `pcsc`, `pcsc:NAME`, `pn532:PATH[:BAUD]`, `pn532-target:PATH`, `nfcpy-udp:HOST:PORT`).
    public var description: String {
        switch self {
        case .pn532(let path, nil): "pn532:\(path)"
        case .pn532(let path, let baud?): "pn532:\(path):\(baud)"
        case .pn532Target(let path): "pn532-target:\(path)"
        case .nfcpyUDP(let host, let port): "nfcpy-udp:\(host):\(port)"
        case .simulator(nil): "sim"
        case .simulator(let path?): "sim:\(path)"
        case .pcsc(nil): "pcsc"
        case .pcsc(let filter?): "pcsc:\(filter)"
        }
    }

    /// Whether the name is one of the simulator's.
    public var isSimulator: Bool {
        if case .simulator = self { return true }
        return false
    }
}
