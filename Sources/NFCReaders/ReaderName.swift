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
/// | `NAME` | the same as `pcsc:NAME`: a reader's name as `nfc readers` prints it |
///
/// Scheme words reserved for backends this build does not have yet (`pn532:`, `pn532-target:`,
/// `nfcpy-udp:`) are refused with ``ReaderNameError/Code-swift.struct/unsupportedBackend``
/// rather than read as a PC/SC name, so that adding the backend never changes what a name means.
public enum ReaderName: Hashable, Sendable, CustomStringConvertible {
    /// The simulator: the persistent virtual tag (`nil`) or the image or folder at a path.
    case simulator(path: String?)
    /// PC/SC readers, all of them (`nil`) or those whose name contains the filter.
    case pcsc(filter: String?)

    /// Scheme words kept for backends to come; see the type's documentation.
    static let reservedSchemes = ["pn532", "pn532-target", "nfcpy-udp"]

    /// Parses a reader name.
    /// - Throws: ``ReaderNameError`` for an empty name, `sim:` or `pcsc:` with nothing after the
    ///   colon, or a reserved scheme.
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
        } else if let scheme = Self.reservedSchemes.first(where: { text.hasPrefix($0 + ":") }) {
            throw ReaderNameError(.unsupportedBackend, "\(scheme): readers are not supported by this build")
        } else {
            self = .pcsc(filter: text)
        }
    }

    /// The name in the grammar's own spelling (`sim`, `sim:PATH`, `pcsc`, `pcsc:NAME`).
    public var description: String {
        switch self {
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
