/// The card side of a MIFARE Plus SL3 session: the session keys, TI, the read and write counters,
/// and the MACs and IVs of both secure messagings (the NXP Reader Library's MIFARE Plus and
/// MIFARE Plus EVx layers, docs/mifare-plus.md):
/// - MACs are AES-CMAC under Kmac, truncated to the bytes at odd positions (1, 3, …, 15);
/// - EV0: Kenc = E(K, RndA[11..15] ‖ RndB[11..15] ‖ (RndA[4..8] ⊕ RndB[4..8]) ‖ 11), Kmac the
///   same over RndA[7..11] ‖ RndB[7..11] ‖ (RndA[0..4] ⊕ RndB[0..4]) ‖ 22; command IV TI ‖ (R_Ctr ‖
///   W_Ctr) × 3, answer IV (R_Ctr ‖ W_Ctr) × 3 ‖ TI;
/// - EV1: Kenc and Kmac are CMACs of `A5 5A 00 01 00 80` and `5A A5 00 01 00 80` ‖ RndA[0..1] ‖
///   (RndA[2..7] ⊕ RndB[0..5]) ‖ RndB[6..15] ‖ RndA[8..15] (DESFire EV2's derivation); IVs are
///   E(Kenc, `A5 5A` or `5A A5` ‖ TI ‖ R_Ctr ‖ W_Ctr ‖ 0…);
/// - counters go least significant byte first.
struct MIFAREPlusSession: Sendable, Hashable {
    /// The key block the session was opened with (`4000` + 2 × sector for key A, + 1 for key B;
    /// `9000`… for card keys).
    var keyBlock: UInt16
    var encryption: [UInt8]
    var mac: [UInt8]
    var ti: [UInt8]
    var readCounter: UInt16 = 0
    var writeCounter: UInt16 = 0
    /// EV1 secure messaging (chosen by PCDcap2[0] = `01` at AuthenticateFirst).
    var ev1: Bool
    /// Reads answered without a MAC since the last MACed one: the header counter and what they
    /// covered, which the next MACed answer's MAC takes in as well.
    var unMACedReads: (counter: UInt16, covered: [UInt8])?

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.keyBlock == rhs.keyBlock && lhs.encryption == rhs.encryption && lhs.mac == rhs.mac && lhs.ti == rhs.ti
            && lhs.readCounter == rhs.readCounter && lhs.writeCounter == rhs.writeCounter && lhs.ev1 == rhs.ev1
            && lhs.unMACedReads?.counter == rhs.unMACedReads?.counter && lhs.unMACedReads?.covered == rhs.unMACedReads?.covered
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(keyBlock)
        hasher.combine(ti)
        hasher.combine(readCounter)
        hasher.combine(writeCounter)
    }

    /// A counter least significant byte first.
    static func bytes(_ counter: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8)] }

    /// The session keys from the authentication's randoms (RndB as the card chose it).
    static func keys(key: [UInt8], rndA a: [UInt8], rndB b: [UInt8], ev1: Bool) -> (encryption: [UInt8], mac: [UInt8])? {
        guard a.count == 16, b.count == 16 else { return nil }
        if ev1 {
            let context = Array(a[0..<2]) + zip(a[2..<8], b[0..<6]).map { $0 ^ $1 } + Array(b[6..<16]) + Array(a[8..<16])
            guard let encryption = NTAG424Cipher.cmac([0xA5, 0x5A, 0x00, 0x01, 0x00, 0x80] + context, key: key),
                let mac = NTAG424Cipher.cmac([0x5A, 0xA5, 0x00, 0x01, 0x00, 0x80] + context, key: key)
            else { return nil }
            return (encryption, mac)
        }
        let sv1 = Array(a[11..<16]) + Array(b[11..<16]) + zip(a[4..<9], b[4..<9]).map { $0 ^ $1 } + [0x11]
        let sv2 = Array(a[7..<12]) + Array(b[7..<12]) + zip(a[0..<5], b[0..<5]).map { $0 ^ $1 } + [0x22]
        guard let encryption = NTAG424Cipher.cbc(sv1, key: key, decrypt: false), let mac = NTAG424Cipher.cbc(sv2, key: key, decrypt: false)
        else { return nil }
        return (encryption, mac)
    }

    /// The IV of an enciphered command (`response` false) or answer, at the counters given.
    func iv(response: Bool, read: UInt16, write: UInt16) -> [UInt8]? {
        let counters = Self.bytes(read) + Self.bytes(write)
        if ev1 {
            let label: [UInt8] = response ? [0x5A, 0xA5] : [0xA5, 0x5A]
            return NTAG424Cipher.cbc(label + ti + counters + [UInt8](repeating: 0, count: 6), key: encryption, decrypt: false)
        }
        return response ? counters + counters + counters + ti : ti + counters + counters + counters
    }

    /// The 8-byte MAC of `message`.
    func mac(_ message: [UInt8]) -> [UInt8]? { NTAG424Cipher.truncatedMAC(message, key: mac) }
}
