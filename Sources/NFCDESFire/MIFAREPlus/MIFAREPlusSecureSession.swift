/// A MIFARE Plus SL3 session on the reader's side: session keys, TI, read and write counters,
/// and the MACs and IVs of EV0 and EV1 secure messaging (NXP Reader Library `phalMfp` and
/// `phalMfpEVx`, docs/mifare-plus.md):
/// - EV0: Kenc = E(K, RndA[11..15] ‖ RndB[11..15] ‖ (RndA[4..8] ⊕ RndB[4..8]) ‖ `11`), Kmac =
///   E(K, RndA[7..11] ‖ RndB[7..11] ‖ (RndA[0..4] ⊕ RndB[0..4]) ‖ `22`); command IV TI ‖ (R_Ctr ‖
///   W_Ctr) three times, answer IV the counters three times ‖ TI;
/// - EV1: Kenc and Kmac are the CMACs of `A5 5A 00 01 00 80` and `5A A5 00 01 00 80` followed by
///   RndA[0..1] ‖ (RndA[2..7] ⊕ RndB[0..5]) ‖ RndB[6..15] ‖ RndA[8..15]; IVs E(Kenc, `A5 5A` or
///   `5A A5` ‖ TI ‖ R_Ctr ‖ W_Ctr ‖ zeros);
/// - MACs are AES-CMAC under Kmac, the 8 bytes at odd positions; counters least significant byte first.
public struct MIFAREPlusSecureSession: Sendable, Hashable {
    /// Which secure messaging a session runs.
    public enum Messaging: String, Sendable, Hashable, CaseIterable {
        /// MIFARE Plus S/X ("EV0") secure messaging, which every MIFARE Plus speaks.
        case ev0
        /// MIFARE Plus EV1 secure messaging (EV1 and later).
        case ev1
    }

    /// The key block the session was opened with.
    public internal(set) var keyBlock: UInt16
    /// The secure messaging in use.
    public let messaging: Messaging
    /// Kenc.
    public internal(set) var encryptionKey: [UInt8]
    /// Kmac.
    public internal(set) var macKey: [UInt8]
    /// TI.
    public let transactionIdentifier: [UInt8]
    /// R_Ctr.
    public internal(set) var readCounter: UInt16 = 0
    /// W_Ctr.
    public internal(set) var writeCounter: UInt16 = 0
    /// What unMACed read answers covered since the last MACed one (with the counter that heads it).
    var pendingReads: [UInt8] = []
    var pendingReadsCounter: UInt16?

    /// A session from an authentication's values.
    init(keyBlock: UInt16, messaging: Messaging, key: [UInt8], rndA a: [UInt8], rndB b: [UInt8], ti: [UInt8]) throws(MIFAREPlusError) {
        self.keyBlock = keyBlock
        self.messaging = messaging
        transactionIdentifier = ti
        (encryptionKey, macKey) = try Self.keys(messaging: messaging, key: key, rndA: a, rndB: b)
    }

    static func keys(messaging: Messaging, key: [UInt8], rndA a: [UInt8], rndB b: [UInt8]) throws(MIFAREPlusError) -> ([UInt8], [UInt8]) {
        do {
            switch messaging {
            case .ev1:
                let context = Array(a[0..<2]) + zip(a[2..<8], b[0..<6]).map { $0 ^ $1 } + Array(b[6..<16]) + Array(a[8..<16])
                return (
                    try DESFireCrypto.cmac(key: key, [0xA5, 0x5A, 0x00, 0x01, 0x00, 0x80] + context),
                    try DESFireCrypto.cmac(key: key, [0x5A, 0xA5, 0x00, 0x01, 0x00, 0x80] + context)
                )
            case .ev0:
                let first = Array(a[11..<16] + b[11..<16]) + zip(a[4..<9], b[4..<9]).map { $0 ^ $1 } + [0x11]
                let second = Array(a[7..<12] + b[7..<12]) + zip(a[0..<5], b[0..<5]).map { $0 ^ $1 } + [0x22]
                return (
                    try DESFireCrypto.block(first, key: key, decrypt: false), try DESFireCrypto.block(second, key: key, decrypt: false)
                )
            }
        } catch {
            throw MIFAREPlusError(.wrongKey, "session keys: \(error)")
        }
    }

    /// A counter as sent.
    static func bytes(_ counter: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8)] }

    /// The command (`response` false) or answer IV at the given counters.
    func iv(response: Bool, read: UInt16, write: UInt16) throws(MIFAREPlusError) -> [UInt8] {
        let counters = Self.bytes(read) + Self.bytes(write)
        switch messaging {
        case .ev0:
            return response
                ? counters + counters + counters + transactionIdentifier : transactionIdentifier + counters + counters + counters
        case .ev1:
            let label: [UInt8] = response ? [0x5A, 0xA5] : [0xA5, 0x5A]
            do {
                return try DESFireCrypto.block(
                    label + transactionIdentifier + counters + [UInt8](repeating: 0, count: 6), key: encryptionKey, decrypt: false)
            } catch {
                throw MIFAREPlusError(.wrongKey, "IV: \(error)")
            }
        }
    }

    /// The 8-byte MAC of a message.
    func mac(_ message: [UInt8]) throws(MIFAREPlusError) -> [UInt8] {
        do {
            return DESFireCrypto.truncated(try DESFireCrypto.cmac(key: macKey, message))
        } catch {
            throw MIFAREPlusError(.wrongKey, "MAC: \(error)")
        }
    }

    func encrypt(_ data: [UInt8], iv: [UInt8]) throws(MIFAREPlusError) -> [UInt8] {
        do { return try DESFireCrypto.encryptCBC(data, key: encryptionKey, iv: iv) } catch {
            throw MIFAREPlusError(.invalidArgument, "\(error)")
        }
    }

    func decrypt(_ data: [UInt8], iv: [UInt8]) throws(MIFAREPlusError) -> [UInt8] {
        do { return try DESFireCrypto.decryptCBC(data, key: encryptionKey, iv: iv) } catch {
            throw MIFAREPlusError(.malformedResponse, "\(error)")
        }
    }
}
