import Crypto
import Foundation

/// A phone holding Wallet passes, as a VAS terminal sees it: the `OSE.VAS.01` application that
/// answers SELECT and GET VAS DATA with Apple's VAS protocol (docs/vas-protocol.md, written from
/// public reverse engineering: Proxmark3's `hf vas`, kormax/apple-vas; status words from Apple's
/// `NFCVASReaderSession.h`).
///
/// Written from the protocol notes, independently of OpenCoreNFC's `NFCVASReaderSession`, so the
/// session is checked against a separate reading.
public struct WalletApplet: ISO7816Applet {
    /// A pass with NFC in the phone's Wallet.
    public struct Pass: Sendable {
        /// How the phone answers a request for this pass.
        public enum Release: String, Codable, Sendable, Hashable {
            /// Released: the cryptogram is returned (`9000`).
            case released
            /// Present but not released yet — phone locked, authentication pending (`6287`).
            case notActivated
            /// The phone asks the user to act first (`6984`).
            case needsUserIntervention
        }

        /// The pass type identifier, e.g. `pass.com.example.loyalty`.
        public var passTypeIdentifier: String
        /// The pass's `nfc.message`: at most 64 bytes (Apple's `Pass.NFC`), longer is cut.
        public var message: [UInt8]
        /// The merchant's P-256 key the pass encrypts to (`nfc.encryptionPublicKey`).
        public var merchantKey: P256.KeyAgreement.PublicKey
        /// How the phone answers for it.
        public var release: Release

        /// A pass; `message` is cut to 64 bytes.
        public init(passTypeIdentifier: String, message: [UInt8], merchantKey: P256.KeyAgreement.PublicKey, release: Release = .released) {
            self.passTypeIdentifier = passTypeIdentifier
            self.message = Array(message.prefix(64))
            self.merchantKey = merchantKey
            self.release = release
        }
    }

    /// `OSE.VAS.01`.
    public static let applicationIdentifier: [UInt8] = Array("OSE.VAS.01".utf8)
    /// The pass type identifier of `nfc tag new wallet-pass`'s pass unless told otherwise.
    public static let samplePassTypeIdentifier = "pass.org.opencorenfc.sample"
    /// A phone's UID: 4 bytes starting `08`, a random UID (ISO/IEC 14443-3 §6.5.4), as phones emulating cards send.
    public static let phoneUID: [UInt8] = [0x08, 0x9A, 0x3C, 0x51]
    /// The VAS version the phone speaks, 1.0 (`9F21` / `9F22`).
    public static let version: [UInt8] = [0x01, 0x00]

    /// `OSE.VAS.01`, as ``applicationIdentifier``.
    public var aid: [UInt8] { Self.applicationIdentifier }
    /// The passes, searched in order.
    public var passes: [Pass]
    /// The last byte of the mobile capabilities `9F23`: `1E` is what phones with an NFC pass
    /// answer (plaintext and encrypted VAS data, VAS may be skipped or performed, payment may be skipped).
    public var capabilities: UInt8 = 0x1E
    /// The timestamp put in cryptograms; nil: the system clock.
    public var fixedTimestamp: UInt32?
    /// The one-time key for the next cryptograms; nil: a fresh key for each.
    public var fixedEphemeralKey: P256.KeyAgreement.PrivateKey?
    /// A status word to answer every GET VAS DATA with instead, for the answers Apple names but no
    /// published exchange shows a trigger for (`6B00`, `6700`, `6A80`, `6340` from a well-formed
    /// request); nil: answer as the protocol says.
    public var forcedStatus: UInt16?
    /// The GET VAS DATA commands seen, for tests: P2 and the command's TLVs.
    public private(set) var requests: [(mode: UInt8, fields: [UInt16: [UInt8]])] = []

    /// A phone holding `passes`.
    public init(passes: [Pass]) {
        self.passes = passes
    }

    /// The passes as an image (`"applet": "wallet"`); the test hooks (fixed timestamp, fixed key,
    /// forced status) are not saved.
    public var appletImage: ISO7816AppletImage? { .wallet(image) }

    /// Answers SELECT with the FCI phones send: `6F { 50 "ApplePay", 9F21 0100, 9F24 <4 random
    /// bytes>, 9F23 000000<capabilities> }` (docs/vas-protocol.md §4).
    public mutating func select(command: SimCommandAPDU) -> SimResponseAPDU {
        var nonce = [UInt8](repeating: 0, count: 4)
        var generator = SystemRandomNumberGenerator()
        for index in nonce.indices { nonce[index] = UInt8.random(in: 0...255, using: &generator) }
        let fci =
            Self.tlv(0x50, Array("ApplePay".utf8)) + Self.tlv(0x9F21, Self.version) + Self.tlv(0x9F24, nonce)
            + Self.tlv(0x9F23, [0, 0, 0, capabilities])
        return SimResponseAPDU(data: Self.tlv(0x6F, fci))
    }

    /// Answers GET VAS DATA: `6B00` for other P1/P2, `6A80` for malformed or missing fields,
    /// `6340` for a version other than 1.0, `6700` for a merchant id that is not 32 bytes, `6A83`
    /// when no pass matches, `6287` / `6984` as the pass's ``Pass/Release`` says, else
    /// `70 { 9F2A, 9F27 cryptogram }` (URL-only: `70 { 9F2A }`) and `9000`.
    public mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU {
        // GET VAS DATA: 80 CA 01 P2, P2 00 URL only, 01 full (docs/vas-protocol.md §5).
        guard command.cla == 0x80, command.ins == 0xCA else { return SimResponseAPDU(SimStatusWord(rawValue: 0x6D00)) }
        guard command.p1 == 0x01, command.p2 <= 0x01 else { return SimResponseAPDU(.wrongParameters) }
        if let forcedStatus { return SimResponseAPDU(SimStatusWord(rawValue: forcedStatus)) }
        guard let fields = Self.fields(command.data) else { return SimResponseAPDU(.incorrectData) }
        requests.append((command.p2, fields))
        guard let version = fields[0x9F22] else { return SimResponseAPDU(.incorrectData) }
        guard version == Self.version else { return SimResponseAPDU(SimStatusWord(rawValue: 0x6340)) }
        if let filter = fields[0x9F2B], filter.first != 0x01 { return SimResponseAPDU(.incorrectData) }
        if command.p2 == 0x00 {
            // URL only: the phone confirms and returns no pass data.
            return SimResponseAPDU(data: Self.tlv(0x70, Self.tlv(0x9F2A, [])))
        }
        guard let merchant = fields[0x9F25] else { return SimResponseAPDU(.incorrectData) }
        guard merchant.count == 32 else { return SimResponseAPDU(.wrongLength) }
        guard let pass = passes.first(where: { Array(SHA256.hash(data: Array($0.passTypeIdentifier.utf8))) == merchant }) else {
            return SimResponseAPDU(SimStatusWord(rawValue: 0x6A83))
        }
        switch pass.release {
        case .notActivated: return SimResponseAPDU(SimStatusWord(rawValue: 0x6287))
        case .needsUserIntervention: return SimResponseAPDU(SimStatusWord(rawValue: 0x6984))
        case .released: break
        }
        let timestamp = fixedTimestamp ?? UInt32(clamping: Int(Date().timeIntervalSinceReferenceDate))
        guard
            let cryptogram = try? VASCryptogram.seal(
                VASCryptogram.Contents(timestamp: timestamp, message: pass.message), passTypeIdentifier: pass.passTypeIdentifier,
                merchant: pass.merchantKey, ephemeral: fixedEphemeralKey ?? P256.KeyAgreement.PrivateKey())
        else { return SimResponseAPDU(.memoryFailure) }
        return SimResponseAPDU(data: Self.tlv(0x70, Self.tlv(0x9F2A, []) + Self.tlv(0x9F27, cryptogram)))
    }

    // MARK: BER-TLV (ISO/IEC 7816-4 §5.2), the one- and two-byte tags VAS uses

    static func tlv(_ tag: UInt16, _ value: [UInt8]) -> [UInt8] {
        let tagBytes: [UInt8] = tag > 0xFF ? [UInt8(tag >> 8), UInt8(tag & 0xFF)] : [UInt8(tag)]
        let length: [UInt8] =
            switch value.count {
            case ..<0x80: [UInt8(value.count)]
            case ..<0x100: [0x81, UInt8(value.count)]
            default: [0x82, UInt8(value.count >> 8), UInt8(value.count & 0xFF)]
            }
        return tagBytes + length + value
    }

    /// The top-level fields of a TLV list by tag; nil when it is malformed.
    static func fields(_ bytes: [UInt8]) -> [UInt16: [UInt8]]? {
        var fields: [UInt16: [UInt8]] = [:]
        var index = 0
        while index < bytes.count {
            var tag = UInt16(bytes[index])
            index += 1
            if tag & 0x1F == 0x1F {
                guard index < bytes.count else { return nil }
                tag = tag << 8 | UInt16(bytes[index])
                index += 1
            }
            guard index < bytes.count else { return nil }
            var length = Int(bytes[index])
            index += 1
            if length > 0x80 {
                let count = length & 0x7F
                guard count <= 2, index + count <= bytes.count else { return nil }
                length = bytes[index..<(index + count)].reduce(0) { $0 << 8 | Int($1) }
                index += count
            } else if length == 0x80 {
                return nil
            }
            guard length <= bytes.count - index else { return nil }
            fields[tag] = Array(bytes[index..<(index + length)])
            index += length
        }
        return fields
    }
}
