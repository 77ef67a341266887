/// An application an ``ISO7816Card`` hosts: selected by its AID, then given every command.
///
/// Applets are values, like the tags holding them, so the field can restore a card after a torn
/// write. The host handles SELECT by DF name, GET RESPONSE, command chaining and Le; the applet
/// sees whole commands and answers whole responses (ISO/IEC 7816-4:2013 §5 and the SELECT command).
public protocol ISO7816Applet: Sendable {
    /// The application identifier: RID (5 bytes) and PIX (up to 11), ISO/IEC 7816-5.
    var aid: [UInt8] { get }

    /// The applet is being selected by `command` (a SELECT by DF name). A status word other
    /// than `9000`, `62xx` or `63xx` refuses the selection.
    mutating func select(command: SimCommandAPDU) -> SimResponseAPDU

    /// Answers a command sent while the applet is selected.
    mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU

    /// Another application (or the MF) is being selected.
    mutating func deselect()

    /// The card was powered up or reactivated: transient state (current file, sessions) resets.
    mutating func reset()

    /// The applet's persistent state as an image, or `nil` for an applet that cannot be saved
    /// (a test double); such applets are left out of ``ISO7816Card/image``.
    var appletImage: ISO7816AppletImage? { get }

    /// Whether the applet is the whole card: given every command from power-up — SELECT by
    /// name, the MF's files, secure messaging and command chaining included — with the host
    /// keeping only the length checks, GET RESPONSE and Le. An eMRTD chip is one: PACE runs in
    /// the MF before its application is selected, and chained General Authenticate commands
    /// each get an answer (ICAO Doc 9303 Part 11 §4.4).
    var ownsCard: Bool { get }
}

extension ISO7816Applet {
    /// Does nothing: an applet without state to drop when it loses the selection need not implement it.
    public mutating func deselect() {}
    /// Does nothing: an applet without transient state need not implement it.
    public mutating func reset() {}
    /// No: the host answers SELECT, chaining and the MF's commands.
    public var ownsCard: Bool { false }
}

/// The image of one applet: which kind it is and its state.
///
/// Encoded as the applet's own fields plus `"applet": "<kind>"`, e.g.
/// `{"applet": "ndef", "aid": "d2760000850101", …}`. New kinds (OATH, PIV, FIDO) add cases.
public enum ISO7816AppletImage: Codable, Sendable, Hashable {
    /// An NFC Forum Type 4 Tag NDEF application.
    case ndef(NDEFApplication.Image)
    /// A YubiKey OATH applet (holds secrets: see ``OATHApplet/Image``).
    case oath(OATHApplet.Image)
    /// A PIV card application (holds its PIN, PUK, administration key and private keys).
    case piv(PIVApplet.Image)
    /// A FIDO U2F + CTAP2 authenticator (holds private keys: see ``FIDOAuthenticator/Image``).
    case fido(FIDOAuthenticator.Image)
    /// A phone's Wallet answering Apple's VAS protocol (passes and merchants' public keys).
    case wallet(WalletApplet.Image)
    /// An eMRTD application (holds the holder's personal data: see ``PassportApplet/Image``).
    case passport(PassportApplet.Image)

    /// The kind name stored under `applet`.
    public var kind: String {
        switch self {
        case .ndef: "ndef"
        case .oath: "oath"
        case .piv: "piv"
        case .fido: "fido"
        case .wallet: "wallet"
        case .passport: "passport"
        }
    }

    /// Builds the applet the image describes.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field inside the applet image.
    public func makeApplet() throws(TagImageError) -> any ISO7816Applet {
        switch self {
        case .ndef(let image): try NDEFApplication(image: image)
        case .oath(let image): try OATHApplet(image: image)
        case .piv(let image): try PIVApplet(image: image)
        case .fido(let image): try FIDOAuthenticator(image: image)
        case .wallet(let image): try WalletApplet(image: image)
        case .passport(let image): try PassportApplet(image: image)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case applet
    }

    /// Reads the `applet` kind, then the kind's own fields from the same object.
    ///
    /// - Throws: `DecodingError` for a missing or unknown `applet` kind, or whatever the kind's image throws.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .applet)
        switch kind {
        case "ndef":
            self = .ndef(try NDEFApplication.Image(from: decoder))
        case "oath":
            self = .oath(try OATHApplet.Image(from: decoder))
        case "piv":
            self = .piv(try PIVApplet.Image(from: decoder))
        case "fido":
            self = .fido(try FIDOAuthenticator.Image(from: decoder))
        case "wallet":
            self = .wallet(try WalletApplet.Image(from: decoder))
        case "passport":
            self = .passport(try PassportApplet.Image(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .applet, in: container, debugDescription: "unknown applet kind \(kind)"
            )
        }
    }

    /// Writes `applet` with the kind name, then the kind's own fields into the same object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .applet)
        switch self {
        case .ndef(let image): try image.encode(to: encoder)
        case .oath(let image): try image.encode(to: encoder)
        case .piv(let image): try image.encode(to: encoder)
        case .fido(let image): try image.encode(to: encoder)
        case .wallet(let image): try image.encode(to: encoder)
        case .passport(let image): try image.encode(to: encoder)
        }
    }
}

extension TagImageError {
    /// The same error with its field path placed under `prefix` (`files[1]` → `applets[0].files[1]`).
    func nested(under prefix: String) -> TagImageError {
        TagImageError(code, field: field.isEmpty ? prefix : "\(prefix).\(field)", reason)
    }
}
