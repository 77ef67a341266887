import Crypto
import NFCEllipticCurves
import _CryptoExtras

/// Chip and active authentication, the chip's side (ICAO Doc 9303 Part 11 §6.2 and §6.1; BSI
/// TR-03110 Part 3 §B.1 for the commands), both answered only inside secure messaging (or on a
/// chip without access control).
///
/// Chip authentication: MSE:Set AT (`22 41 A4`, `80` the protocol of DG14) then General
/// Authenticate (`86`, `7C { 80 terminal key }`) with AES; MSE:Set KAT (`22 41 A6`, `91`
/// terminal key) with 3DES. The answer goes out under the old keys; the chip then restarts
/// secure messaging with KDF(x(SK_chip · PK_terminal), 1 and 2) and a counter of 0.
///
/// Active authentication: INTERNAL AUTHENTICATE (`88`) with an 8-byte challenge, answered with
/// the ECDSA P-256 signature (SHA-256, r ‖ s) of the challenge (§6.1; BSI TR-03111 §5.2.1), or
/// with an RSA ISO/IEC 9796-2 scheme 1 signature: `6A ‖ M1 ‖ SHA-1(M1 ‖ challenge) ‖ BC` raised
/// to the private exponent, M1 a fresh nonce filling the block (§6.1.2).
extension PassportApplet {
    /// The chip's static key-agreement key DG14 announces.
    public struct ChipAuthenticationSettings: Sendable, Hashable {
        /// The curve: 13 brainpoolP256r1, 12 P-256.
        public var parameterIdentifier: Int
        /// The private key (big-endian scalar).
        public var privateKey: [UInt8]
        /// 3DES secure messaging afterwards (id-CA-ECDH-3DES-CBC-CBC) instead of AES-128.
        public var tripleDES: Bool

        /// Settings for a key on a curve.
        public init(parameterIdentifier: Int, privateKey: [UInt8], tripleDES: Bool = false) {
            self.parameterIdentifier = parameterIdentifier
            self.privateKey = privateKey
            self.tripleDES = tripleDES
        }

        /// id-CA-ECDH-AES-CBC-CMAC-128 (0.4.0.127.0.7.2.2.3.2.2) or id-CA-ECDH-3DES-CBC-CBC (…3.2.1), its DER value.
        public var protocolIdentifier: [UInt8] { [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x03, 0x02, tripleDES ? 0x01 : 0x02] }
    }

    /// MSE:Set AT for chip authentication (`41 A4`): the protocol must be DG14's.
    mutating func setChipAuthenticationTemplate(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let chipAuthentication, !chipAuthentication.tripleDES else { return SimResponseAPDU(.conditionsNotSatisfied) }
        guard let objects = Self.dataObjects(command.data),
            objects.first(where: { $0.tag == 0x80 })?.value == chipAuthentication.protocolIdentifier
        else { return SimResponseAPDU(.incorrectData) }
        chipAuthenticationArmed = true
        return SimResponseAPDU(.success)
    }

    /// General Authenticate for chip authentication: `7C { 80 terminal key }` → `7C 00`.
    mutating func chipAuthenticate(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard chipAuthenticationArmed else { return SimResponseAPDU(.conditionsNotSatisfied) }
        chipAuthenticationArmed = false
        guard let outer = Self.dataObjects(command.data), outer.count == 1, outer[0].tag == 0x7C,
            let key = Self.dataObjects(outer[0].value)?.first(where: { $0.tag == 0x80 })
        else { return SimResponseAPDU(.incorrectData) }
        return agreeChipKey(key.value, answer: [0x7C, 0x00])
    }

    /// MSE:Set KAT (`41 A6`): `91` the terminal's key, agreed at once (3DES).
    mutating func setKeyAgreementTemplate(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let chipAuthentication, chipAuthentication.tripleDES else { return SimResponseAPDU(.conditionsNotSatisfied) }
        guard let key = Self.dataObjects(command.data)?.first(where: { $0.tag == 0x91 }) else { return SimResponseAPDU(.incorrectData) }
        return agreeChipKey(key.value, answer: [])
    }

    /// The key agreement: the next session's keys wait until this answer is wrapped under the old ones.
    mutating func agreeChipKey(_ terminalKey: [UInt8], answer: [UInt8]) -> SimResponseAPDU {
        guard let chipAuthentication, let curve = EllipticCurve.standardized(chipAuthentication.parameterIdentifier),
            let point = curve.decode(terminalKey),
            let x = curve.multiply(point, by: curve.scalar(chipAuthentication.privateKey)).x
        else { return SimResponseAPDU(.incorrectData) }
        let secret = curve.fixed(x)
        nextSession =
            chipAuthentication.tripleDES
            ? PassportSMSession(
                encryptionKey: PassportSMSession.derive(seed: secret, counter: 1),
                macKey: PassportSMSession.derive(seed: secret, counter: 2),
                aes: false, counter: 0)
            : PassportSMSession(
                encryptionKey: PassportSMSession.deriveAES(seed: secret, counter: 1, length: 16),
                macKey: PassportSMSession.deriveAES(seed: secret, counter: 2, length: 16), aes: true, counter: 0)
        return SimResponseAPDU(data: answer, status: .success, additionalProcessingTime: Self.curveTime)
    }

    /// INTERNAL AUTHENTICATE: the challenge signed with the active-authentication key.
    func internalAuthenticate(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard activeAuthenticationKey != nil || activeAuthenticationRSAKey != nil else { return SimResponseAPDU(.instructionNotSupported) }
        guard command.p1 == 0, command.p2 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        guard command.data.count == 8 else { return SimResponseAPDU(.wrongLength) }
        if let activeAuthenticationRSAKey {
            guard let key = try? _RSA.BlindSigning.PrivateKey<SHA384>(unsafeDERRepresentation: activeAuthenticationRSAKey) else {
                return SimResponseAPDU(.noPreciseDiagnosis)
            }
            let length = key.keySizeInBits / 8
            var unscripted: [UInt8] = []
            let nonce = ScriptedRandom.take(length - 22, from: &unscripted)
            let block = [0x6A] + nonce + Array(Insecure.SHA1.hash(data: nonce + command.data)) + [0xBC]
            guard let signature = try? key.blindSignature(for: block) else { return SimResponseAPDU(.noPreciseDiagnosis) }
            return SimResponseAPDU(data: Array(signature.rawRepresentation), status: .success, additionalProcessingTime: Self.curveTime)
        }
        guard let activeAuthenticationKey, let key = try? P256.Signing.PrivateKey(rawRepresentation: activeAuthenticationKey) else {
            return SimResponseAPDU(.noPreciseDiagnosis)
        }
        guard let signature = try? key.signature(for: command.data) else { return SimResponseAPDU(.noPreciseDiagnosis) }
        return SimResponseAPDU(data: Array(signature.rawRepresentation), status: .success, additionalProcessingTime: Self.curveTime)
    }
}
