import Crypto
import _CryptoExtras

/// GENERAL AUTHENTICATE and GENERATE ASYMMETRIC KEY PAIR (SP 800-73-4 Part 2 §3.2.4, §3.3.2).
extension PIVApplet {
    // MARK: GENERAL AUTHENTICATE

    /// `00 87 alg ref 7C{…}`: administration key authentication with `9B`, or a private-key
    /// operation in a slot (ECDSA signature with `81`, ECDH with `85`).
    mutating func generalAuthenticate(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let outer = PIVTLV.parseAll(command.data), outer.count == 1, outer[0].tag == 0x7C,
            let inner = PIVTLV.parseAll(outer[0].value)
        else { return SimResponseAPDU(.incorrectData) }
        if command.p2 == Self.managementReference {
            return authenticateManagementKey(algorithm: command.p1, inner)
        }
        guard Self.keySlots.contains(command.p2) else { return SimResponseAPDU(.referencedDataNotFound) }
        guard let slot = keys[command.p2] else { return SimResponseAPDU(.referencedDataNotFound) }
        guard command.p1 == slot.algorithm else { return SimResponseAPDU(.incorrectP1P2) }
        switch slot.pinPolicy {
        case .never: break
        case .once: guard pinVerified else { return SimResponseAPDU(.securityStatusNotSatisfied) }
        case .always: guard pinVerified, pinFreshForAlways else { return SimResponseAPDU(.securityStatusNotSatisfied) }
        }
        guard let response = PIVTLV.first(0x82, in: inner), response.value.isEmpty else { return SimResponseAPDU(.incorrectData) }
        if let challenge = PIVTLV.first(0x81, in: inner) {
            // ECDSA over the digest the host computed (SP 800-73-4 Part 2 §3.2.4, Appendix A.4).
            guard challenge.value.count == 32 else { return SimResponseAPDU(.incorrectData) }
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: slot.privateKey),
                let signature = try? key.signature(for: PrehashedDigest(bytes: challenge.value))
            else {
                return SimResponseAPDU(.noPreciseDiagnosis)
            }
            if slot.pinPolicy == .always { pinFreshForAlways = false }
            return SimResponseAPDU(
                data: PIVTLV(0x7C, PIVTLV(0x82, Array(signature.derRepresentation)).bytes).bytes,
                additionalProcessingTime: Self.eccTime)
        }
        if let exponentiation = PIVTLV.first(0x85, in: inner) {
            // ECC CDH with the peer's uncompressed point (SP 800-56A §5.7.1.2, Part 2 Appendix A.5).
            guard let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: slot.privateKey),
                let peer = try? P256.KeyAgreement.PublicKey(x963Representation: exponentiation.value),
                let secret = try? key.sharedSecretFromKeyAgreement(with: peer)
            else { return SimResponseAPDU(.incorrectData) }
            let bytes = secret.withUnsafeBytes { Array($0) }
            if slot.pinPolicy == .always { pinFreshForAlways = false }
            return SimResponseAPDU(data: PIVTLV(0x7C, PIVTLV(0x82, bytes).bytes).bytes, additionalProcessingTime: Self.eccTime)
        }
        return SimResponseAPDU(.incorrectData)
    }

    /// The block cipher's key length for an administration key algorithm.
    static func managementKeyLength(_ algorithm: UInt8) -> Int? {
        switch algorithm {
        case aes128: 16
        case aes192: 24
        case aes256: 32
        default: nil
        }
    }

    /// One AES block in the given direction with the administration key.
    func cipher(_ block: [UInt8], decrypt: Bool) -> [UInt8]? {
        guard block.count == 16 else { return nil }
        var out = block
        let key = SymmetricKey(data: managementKey)
        do {
            if decrypt { try AES.inversePermute(&out, key: key) } else { try AES.permute(&out, key: key) }
        } catch {
            return nil
        }
        return out
    }

    /// Card application administration key authentication (Part 2 Appendix A.1–A.3):
    /// `80` empty asks for a witness (answered encrypted); `80` witness + `81` challenge
    /// completes mutual authentication (answered `82` = the challenge encrypted); `81` empty asks
    /// for a challenge and `82` then answers it (external authentication).
    mutating func authenticateManagementKey(algorithm: UInt8, _ inner: [PIVTLV]) -> SimResponseAPDU {
        guard algorithm == managementKeyAlgorithm, Self.managementKeyLength(algorithm) != nil else {
            pendingWitness = nil
            pendingChallenge = nil
            return SimResponseAPDU(.incorrectP1P2)
        }
        let witnessTLV = PIVTLV.first(0x80, in: inner)
        let challengeTLV = PIVTLV.first(0x81, in: inner)
        let responseTLV = PIVTLV.first(0x82, in: inner)
        var generator = SystemRandomNumberGenerator()
        func random() -> [UInt8] { (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) } }

        if let witnessTLV, witnessTLV.value.isEmpty, challengeTLV == nil, responseTLV == nil {
            managementAuthenticated = false
            pendingChallenge = nil
            let witness = random()
            guard let encrypted = cipher(witness, decrypt: false) else { return SimResponseAPDU(.noPreciseDiagnosis) }
            pendingWitness = witness
            return SimResponseAPDU(data: PIVTLV(0x7C, PIVTLV(0x80, encrypted).bytes).bytes)
        }
        if let witnessTLV, let challengeTLV, !witnessTLV.value.isEmpty {
            guard let expected = pendingWitness else { return SimResponseAPDU(.conditionsNotSatisfied) }
            pendingWitness = nil
            guard Self.equalInConstantTime(witnessTLV.value, expected) else { return SimResponseAPDU(.securityStatusNotSatisfied) }
            guard challengeTLV.value.count == 16, let encrypted = cipher(challengeTLV.value, decrypt: false) else {
                return SimResponseAPDU(.incorrectData)
            }
            managementAuthenticated = true
            return SimResponseAPDU(data: PIVTLV(0x7C, PIVTLV(0x82, encrypted).bytes).bytes)
        }
        if let challengeTLV, challengeTLV.value.isEmpty, witnessTLV == nil, responseTLV == nil {
            managementAuthenticated = false
            pendingWitness = nil
            let challenge = random()
            pendingChallenge = challenge
            return SimResponseAPDU(data: PIVTLV(0x7C, PIVTLV(0x81, challenge).bytes).bytes)
        }
        if let responseTLV, witnessTLV == nil, challengeTLV == nil {
            guard let challenge = pendingChallenge else { return SimResponseAPDU(.conditionsNotSatisfied) }
            pendingChallenge = nil
            guard let expected = cipher(challenge, decrypt: false), Self.equalInConstantTime(responseTLV.value, expected) else {
                return SimResponseAPDU(.securityStatusNotSatisfied)
            }
            managementAuthenticated = true
            return SimResponseAPDU(.success)
        }
        pendingWitness = nil
        pendingChallenge = nil
        return SimResponseAPDU(.incorrectData)
    }

    // MARK: GENERATE ASYMMETRIC KEY PAIR

    /// `00 47 00 slot AC{80 alg [AA policy]}`: makes a P-256 key in the slot and answers
    /// `7F49{86 point}`. Needs the administration key. `AA` (PIN policy `01` never, `02` once,
    /// `03` always) is the YubiKey extension; without it the slot's default applies.
    mutating func generateKeyPair(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p1 == 0x00, Self.keySlots.contains(command.p2) else { return SimResponseAPDU(.incorrectP1P2) }
        guard managementAuthenticated else { return SimResponseAPDU(.securityStatusNotSatisfied) }
        guard let outer = PIVTLV.parseAll(command.data), outer.count == 1, outer[0].tag == 0xAC,
            let inner = PIVTLV.parseAll(outer[0].value),
            let algorithm = PIVTLV.first(0x80, in: inner), algorithm.value.count == 1
        else { return SimResponseAPDU(.incorrectData) }
        guard algorithm.value[0] == Self.eccP256 else { return SimResponseAPDU(.functionNotSupported) }
        var policy = Self.defaultPINPolicy(slot: command.p2)
        if let requested = PIVTLV.first(0xAA, in: inner) {
            switch requested.value {
            case [0x00]: break
            case [0x01]: policy = .never
            case [0x02]: policy = .once
            case [0x03]: policy = .always
            default: return SimResponseAPDU(.incorrectData)
            }
        }
        let key = P256.Signing.PrivateKey()
        keys[command.p2] = KeySlot(algorithm: Self.eccP256, privateKey: Array(key.rawRepresentation), pinPolicy: policy)
        let point = Array(key.publicKey.x963Representation)
        return SimResponseAPDU(
            data: PIVTLV(0x7F49, PIVTLV(0x86, point).bytes).bytes,
            additionalProcessingTime: Self.keyGenerationTime, writesMemory: true)
    }

    /// The slot's PIN policy when none is asked for (SP 800-73-4 Part 1 §3.2 and Table 4b).
    static func defaultPINPolicy(slot: UInt8) -> PINPolicy {
        switch slot {
        case 0x9C: .always
        case 0x9E: .never
        default: .once
        }
    }
}

/// A digest the host computed, handed to ECDSA as it is (the card never sees the message).
struct PrehashedDigest: Digest {
    static let byteCount = 32
    let bytes: [UInt8]

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }

    var description: String { "PrehashedDigest(\(bytes.count) bytes)" }
}
