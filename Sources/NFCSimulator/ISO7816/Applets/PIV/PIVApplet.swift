import Crypto

/// An emulated PIV card application (NIST SP 800-73-4 Parts 1 and 2) with ECC P-256 keys.
///
/// What it holds: a PIN (6–8 digits, default `123456`, 3 tries) and a PUK (default `12345678`,
/// 3 tries); a card application administration key (key reference `9B`, AES-192 by default, the
/// well-known default `010203040506070801020304050607080102030405060708`); the CHUID and CCC
/// made when the applet is; the discovery object; key slots `9A`, `9C`, `9D`, `9E` with P-256
/// keys generated on the card; and data objects (certificates) written by PUT DATA.
///
/// Access rules (SP 800-73-4 Part 1 §3.1 and §3.5, Table 4b): GET DATA of the CHUID, CCC,
/// discovery object and certificates is always allowed; GENERATE ASYMMETRIC KEY PAIR and PUT
/// DATA need the administration key; a private key is used after the PIN was verified, except
/// slot `9E` (no PIN) and slot `9C` (the PIN immediately before every signature). Every
/// security status is cleared when the applet is selected again or the card is reset.
public struct PIVApplet: ISO7816Applet {
    /// Who may use a slot's private key.
    public enum PINPolicy: String, Codable, Sendable, Hashable {
        /// No PIN (slot `9E`, card authentication).
        case never
        /// The PIN once per selection (slots `9A`, `9D`).
        case once
        /// The PIN right before each use (slot `9C`, digital signature).
        case always
    }

    /// A private key in a slot.
    public struct KeySlot: Sendable, Hashable {
        /// SP 800-78-4 algorithm identifier; only `11` (ECC P-256) is generated here.
        public var algorithm: UInt8
        /// The P-256 scalar, 32 bytes.
        public var privateKey: [UInt8]
        /// When the key may be used: the slot's default, or the policy GENERATE ASYMMETRIC KEY PAIR asked for (tag `AA`).
        public var pinPolicy: PINPolicy
    }

    /// The full AID: NIST RID `A000000308` and PIX `00001000 0100` (SP 800-73-4 Part 1 §2.2).
    public static let fullAID: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x08, 0x00, 0x00, 0x10, 0x00, 0x01, 0x00]
    /// The default administration key (the value every PIV vendor ships and asks to change).
    public static let defaultManagementKey: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]
    /// Algorithm identifiers (SP 800-78-4 Table 6-2): AES-128, AES-192, AES-256, ECC P-256.
    static let aes128: UInt8 = 0x08, aes192: UInt8 = 0x0A, aes256: UInt8 = 0x0C, eccP256: UInt8 = 0x11
    /// Key references (SP 800-73-4 Part 1 Table 4b).
    static let pinReference: UInt8 = 0x80, pukReference: UInt8 = 0x81, managementReference: UInt8 = 0x9B
    static let keySlots: [UInt8] = [0x9A, 0x9C, 0x9D, 0x9E]
    /// The version answered to `GET VERSION` (`INS FD`, a YubiKey PIV extension): the level of
    /// those extensions this applet implements, not a claim to be a YubiKey (see docs/piv.md).
    static let protocolVersion: [UInt8] = [4, 0, 0]

    /// The full PIV AID, ``fullAID``.
    public var aid: [UInt8] { Self.fullAID }

    // Persistent state.
    var pin: [UInt8]
    var pinRetries: Int
    var pinMaxRetries: Int
    var puk: [UInt8]
    var pukRetries: Int
    var pukMaxRetries: Int
    var managementKeyAlgorithm: UInt8
    var managementKey: [UInt8]
    /// Data objects by tag (`5FC102` …), their contents (the value of tag `53`).
    var objects: [UInt32: [UInt8]]
    /// Private keys by slot.
    var keys: [UInt8: KeySlot]

    // Transient security status (cleared by select and reset).
    var pinVerified = false
    /// The PIN was verified and no `PIN always` key was used since.
    var pinFreshForAlways = false
    var managementAuthenticated = false
    /// The witness of a mutual authentication in progress (plain text).
    var pendingWitness: [UInt8]?
    /// The challenge of an external authentication in progress.
    var pendingChallenge: [UInt8]?

    /// A new applet: default PIN, PUK and administration key, a fresh CHUID and CCC, no keys.
    public init() {
        pin = Array("123456".utf8)
        pinRetries = 3
        pinMaxRetries = 3
        puk = Array("12345678".utf8)
        pukRetries = 3
        pukMaxRetries = 3
        managementKeyAlgorithm = Self.aes192
        managementKey = Self.defaultManagementKey
        keys = [:]
        objects = [:]
        objects[PIVObjectTag.chuid] = Self.makeCHUID()
        objects[PIVObjectTag.ccc] = Self.makeCCC()
    }

    /// The key in a slot, if one was generated.
    public func key(in slot: UInt8) -> KeySlot? { keys[slot] }

    /// A data object's contents by tag.
    public func object(_ tag: UInt32) -> [UInt8]? { objects[tag] }

    // MARK: ISO7816Applet

    /// Clears every security status and answers the application property template (`61`: PIX, RID, the label
    /// `OpenCoreNFC PIV` and the algorithms AES-128, AES-192, AES-256 and ECC P-256).
    public mutating func select(command: SimCommandAPDU) -> SimResponseAPDU {
        clearSecurityStatus()
        // Application property template (SP 800-73-4 Part 1 §3.1.1, Table 3).
        let algorithms =
            [Self.aes128, Self.aes192, Self.aes256, Self.eccP256].flatMap { PIVTLV(0x80, [$0]).bytes } + PIVTLV(0x06, []).bytes
        let template = PIVTLV(
            0x61,
            PIVTLV(0x4F, Array(Self.fullAID[5...])).bytes
                + PIVTLV(0x79, PIVTLV(0x4F, Array(Self.fullAID[0..<5])).bytes).bytes
                + PIVTLV(0x50, Array("OpenCoreNFC PIV".utf8)).bytes
                + PIVTLV(0xAC, algorithms).bytes
        )
        return SimResponseAPDU(data: template.bytes)
    }

    /// Clears every security status (PIN, administration key, authentications in progress).
    public mutating func deselect() { clearSecurityStatus() }
    /// Clears every security status, as ``deselect()`` does.
    public mutating func reset() { clearSecurityStatus() }

    /// Runs one PIV command: GET DATA `CB`, PUT DATA `DB`, VERIFY `20`, CHANGE REFERENCE DATA `24`, RESET RETRY
    /// COUNTER `2C`, GENERAL AUTHENTICATE `87`, GENERATE ASYMMETRIC KEY PAIR `47` and the YubiKey extensions GET VERSION
    /// `FD` and RESET `FB`.
    /// A class other than `00` (or `10` chaining, which the host undoes) gets `6E00`, another instruction `6D00`.
    public mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU {
        // Every PIV command is interindustry (CLA 00; 10 chaining is undone by the host).
        guard command.cla & 0xEF == 0x00 else { return SimResponseAPDU(.classNotSupported) }
        switch command.ins {
        case 0xCB: return getData(command)
        case 0xDB: return putData(command)
        case 0x20: return verify(command)
        case 0x24: return changeReferenceData(command)
        case 0x2C: return resetRetryCounter(command)
        case 0x87: return generalAuthenticate(command)
        case 0x47: return generateKeyPair(command)
        case 0xFD:
            guard command.p1 == 0, command.p2 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
            return SimResponseAPDU(data: Self.protocolVersion)
        case 0xFB: return factoryReset(command)
        default: return SimResponseAPDU(.instructionNotSupported)
        }
    }

    /// Yubico's PIV extension RESET (`FB`, P1 P2 `00 00`; Yubico, "PIV Introduction — Yubico
    /// extensions"): back to the factory state — default PIN, PUK and management key, no keys,
    /// no certificates, a new CHUID — only once both the PIN and the PUK are blocked; otherwise
    /// `6985` (conditions of use not satisfied).
    mutating func factoryReset(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p1 == 0, command.p2 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        guard pinRetries == 0, pukRetries == 0 else { return SimResponseAPDU(.conditionsNotSatisfied) }
        self = PIVApplet()
        return SimResponseAPDU(.success)
    }

    mutating func clearSecurityStatus() {
        pinVerified = false
        pinFreshForAlways = false
        managementAuthenticated = false
        pendingWitness = nil
        pendingChallenge = nil
    }

    /// Time the chip spends on public-key work (a P-256 operation on a secure element).
    static let eccTime: Duration = .milliseconds(60)
    static let keyGenerationTime: Duration = .milliseconds(250)
}

/// Data object tags (SP 800-73-4 Part 1 Table 3).
enum PIVObjectTag {
    static let chuid: UInt32 = 0x5FC102
    static let ccc: UInt32 = 0x5FC107
    static let discovery: UInt32 = 0x7E
    static let certificate9A: UInt32 = 0x5FC105
    static let certificate9C: UInt32 = 0x5FC10A
    static let certificate9D: UInt32 = 0x5FC10B
    static let certificate9E: UInt32 = 0x5FC101
}
