import Crypto

/// U2F over NFC (FIDO U2F Raw Message Formats §4–§6, FIDO U2F NFC Protocol §5): VERSION,
/// REGISTER and AUTHENTICATE as ISO 7816 APDUs with CLA 00.
extension FIDOAuthenticator {
    mutating func u2f(_ command: SimCommandAPDU) -> SimResponseAPDU {
        switch command.ins {
        case 0x03:
            guard command.data.isEmpty else { return SimResponseAPDU(.wrongLength) }
            return SimResponseAPDU(data: Array("U2F_V2".utf8))
        case 0x01: return u2fRegister(command)
        default: return u2fAuthenticate(command)
        }
    }

    /// REGISTER: challenge (32) + application (32) in; `05`, public key, key handle, attestation
    /// certificate and signature out (Raw Message Formats §4.3).
    mutating func u2fRegister(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.data.count == 64 else { return SimResponseAPDU(.wrongLength) }
        let challenge = Array(command.data[0..<32])
        let application = Array(command.data[32..<64])
        let credential = P256.Signing.PrivateKey()
        let handle = wrap(Array(credential.rawRepresentation), rpIDHash: application)
        let publicKey = Self.uncompressedPoint(credential.publicKey)
        guard let attestation = try? P256.Signing.PrivateKey(rawRepresentation: attestationKey) else {
            return SimResponseAPDU(.memoryFailure)
        }
        let signed: [UInt8] = [0x00] + application + challenge + handle + publicKey
        let signature = Self.sign(signed, with: attestation)
        let data: [UInt8] = [0x05] + publicKey + [UInt8(handle.count)] + handle + attestationCertificate + signature
        return SimResponseAPDU(data: data, writesMemory: false)
    }

    /// AUTHENTICATE: P1 `07` check-only, `03` enforce presence, `08` don't enforce (§5.1).
    /// The tap is the presence test, so enforce succeeds at once.
    mutating func u2fAuthenticate(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard [0x03, 0x07, 0x08].contains(command.p1) else { return SimResponseAPDU(.incorrectP1P2) }
        let data = command.data
        guard data.count >= 65, data.count == 65 + Int(data[64]) else { return SimResponseAPDU(.wrongLength) }
        let challenge = Array(data[0..<32])
        let application = Array(data[32..<64])
        let handle = Array(data[65...])
        guard let key = unwrap(handle, rpIDHash: application) else { return SimResponseAPDU(.incorrectData) }
        // Check-only: the handle is ours; "test of user presence required" (§5.1).
        if command.p1 == 0x07 { return SimResponseAPDU(.conditionsNotSatisfied) }
        signatureCounter &+= 1
        let flags: UInt8 = 0x01
        let counter = Self.bigEndian(signatureCounter)
        let signature = Self.sign(application + [flags] + counter + challenge, with: key)
        return SimResponseAPDU(data: [flags] + counter + signature, writesMemory: true)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
        ]
    }
}
