import BigInt
import Foundation
import NFCEllipticCurves

/// PACE, the chip's side: ECDH generic or integrated mapping with AES-128 (ICAO Doc 9303
/// Part 11 §4.4 and §9.2, Appendix B.2 for the integrated mapping's point encoding; BSI
/// TR-03110 Part 3 §B.1 for the commands). EF.CardAccess under the MF names the
/// protocol and the curve; MSE:Set AT picks the password (MRZ or CAN); four General Authenticate
/// commands — CLA `10` (chained) but the last — carry the encrypted nonce, the mapping keys, the
/// ephemeral keys and the tokens. A token that does not verify (a wrong password) answers `6300`.
extension PassportApplet {
    /// What the chip offers: the curve (standardized domain parameters) and the CAN, if any.
    public struct PACESettings: Sendable, Hashable {
        /// 13: brainpoolP256r1, 12: P-256.
        public var parameterIdentifier: Int
        /// The card access number printed on the document, when PACE accepts one.
        public var can: String?
        /// Integrated mapping (§4.4.3.3.2) instead of generic mapping.
        public var integratedMapping: Bool

        /// Settings for a curve, a CAN and a mapping.
        public init(parameterIdentifier: Int = 13, can: String? = "123456", integratedMapping: Bool = false) {
            self.parameterIdentifier = parameterIdentifier
            self.can = can
            self.integratedMapping = integratedMapping
        }
    }

    /// A PACE run between MSE:Set AT and the last General Authenticate.
    struct PACERun: Sendable, Hashable {
        /// K_π from the chosen password.
        var passwordKey: [UInt8]
        /// The steps answered so far (0: none).
        var step = 0
        /// The nonce s.
        var nonce: [UInt8] = []
        /// Ĝ.
        var mapped: ECPoint = .infinity
        /// The chip's ephemeral public key, encoded.
        var chipKey: [UInt8] = []
        /// The terminal's ephemeral public key, encoded.
        var terminalKey: [UInt8] = []
        /// KS_Enc and KS_MAC.
        var encryptionKey: [UInt8] = []
        var macKey: [UInt8] = []
    }

    /// id-PACE-ECDH-GM-AES-CBC-CMAC-128 (0.4.0.127.0.7.2.2.4.2.2), its DER value.
    static let genericMappingProtocol: [UInt8] = [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04, 0x02, 0x02]
    /// id-PACE-ECDH-IM-AES-CBC-CMAC-128 (0.4.0.127.0.7.2.2.4.4.2), its DER value.
    static let integratedMappingProtocol: [UInt8] = [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04, 0x04, 0x02]
    /// The integrated mapping's constants c₀ and c₁ for AES-128 (§4.4.3.3.2).
    static let mappingConstants: (c0: [UInt8], c1: [UInt8]) = (
        [0xA6, 0x68, 0x89, 0x2A, 0x7C, 0x41, 0xE3, 0xCA, 0x73, 0x9F, 0x40, 0xB0, 0x57, 0xD8, 0x59, 0x04],
        [0xA4, 0xE1, 0x36, 0xAC, 0x72, 0x5F, 0x73, 0x8B, 0x01, 0xC1, 0xF6, 0x02, 0x17, 0xC1, 0x88, 0xAD]
    )

    /// The protocol EF.CardAccess offers, its DER value.
    var paceProtocol: [UInt8] { pace?.integratedMapping == true ? Self.integratedMappingProtocol : Self.genericMappingProtocol }
    /// Time a chip spends on one elliptic-curve step (an estimate: PACE takes about a second).
    static let curveTime = Duration.milliseconds(300)

    /// EF.CardAccess: `SET OF { PACEInfo { protocol, version 2, parameterId } }` (Part 11 §9.2.1).
    var cardAccess: [UInt8]? {
        guard let pace else { return nil }
        let info: [UInt8] =
            [0x06, 0x0A] + paceProtocol + [0x02, 0x01, 0x02, 0x02, 0x01, UInt8(truncatingIfNeeded: pace.parameterIdentifier)]
        return [0x31, UInt8(info.count + 2), 0x30, UInt8(info.count)] + info
    }

    /// The curve PACE runs on.
    var paceCurve: EllipticCurve? { pace.flatMap { EllipticCurve.standardized($0.parameterIdentifier) } }

    /// MSE:Set AT (`00 22 C1 A4`): `80` the protocol, `83` the password (1 MRZ, 2 CAN), `84`
    /// the domain parameters when given.
    mutating func setAuthenticationTemplate(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let pace else { return SimResponseAPDU(.instructionNotSupported) }
        guard command.p1 == 0xC1, command.p2 == 0xA4 else { return SimResponseAPDU(.incorrectP1P2) }
        guard let objects = Self.dataObjects(command.data),
            let protocolObject = objects.first(where: { $0.tag == 0x80 }), let reference = objects.first(where: { $0.tag == 0x83 })
        else { return SimResponseAPDU(.incorrectData) }
        guard protocolObject.value == paceProtocol else { return SimResponseAPDU(.incorrectData) }
        if let domain = objects.first(where: { $0.tag == 0x84 }), domain.value != [UInt8(truncatingIfNeeded: pace.parameterIdentifier)] {
            return SimResponseAPDU(.incorrectData)
        }
        let secret: [UInt8]
        switch reference.value {
        case [0x01]: secret = mrzSecret
        case [0x02]:
            guard let can = pace.can else { return SimResponseAPDU(SimStatusWord(0x6A, 0x88)) }
            secret = Array(can.utf8)
        default: return SimResponseAPDU(SimStatusWord(0x6A, 0x88))
        }
        session = nil
        paceRun = PACERun(passwordKey: PassportSMSession.deriveAES(seed: secret, counter: 3, length: 16))
        return SimResponseAPDU(.success)
    }

    /// General Authenticate (`86`), the step its data object says.
    mutating func generalAuthenticate(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard var run = paceRun, let curve = paceCurve else { return SimResponseAPDU(.conditionsNotSatisfied) }
        guard command.p1 == 0, command.p2 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        guard let outer = Self.dataObjects(command.data), outer.count == 1, outer[0].tag == 0x7C,
            let inner = Self.dataObjects(outer[0].value)
        else { return abortPACE(.incorrectData) }
        let chained = command.cla & 0x10 != 0
        let tag = inner.first?.tag
        let value = inner.first?.value ?? []

        switch (run.step, tag, chained) {
        case (0, nil, true):
            run.nonce = ScriptedRandom.take(16, from: &scriptedRandom)
            guard let encrypted = NTAG424Cipher.cbc(run.nonce, key: run.passwordKey, decrypt: false) else {
                return abortPACE(.noPreciseDiagnosis)
            }
            run.step = 1
            paceRun = run
            return answer(0x80, encrypted)
        case (1, 0x81, true) where pace?.integratedMapping == true:
            // Integrated mapping: t in clear; Ĝ = f_G(R(s, t) mod p); empty mapping data back.
            guard value.count == 16, let point = integratedGenerator(nonce: run.nonce, terminalNonce: value, curve: curve) else {
                return abortPACE(.incorrectData)
            }
            run.mapped = point
            run.step = 2
            paceRun = run
            return SimResponseAPDU(data: [0x7C, 0x00], status: .success, additionalProcessingTime: Self.curveTime)
        case (1, 0x81, true):
            guard let terminal = curve.decode(value) else { return abortPACE(.incorrectData) }
            let key = curve.scalar(ScriptedRandom.take(curve.byteCount, from: &scriptedRandom))
            let shared = curve.multiply(terminal, by: key)
            guard shared != .infinity else { return abortPACE(.incorrectData) }
            run.mapped = curve.add(curve.multiply(curve.generator, by: curve.scalar(run.nonce)), shared)
            run.step = 2
            paceRun = run
            return answer(0x82, curve.encode(curve.multiply(curve.generator, by: key)), time: Self.curveTime)
        case (2, 0x83, true):
            guard let terminal = curve.decode(value) else { return abortPACE(.incorrectData) }
            let key = curve.scalar(ScriptedRandom.take(curve.byteCount, from: &scriptedRandom))
            let chip = curve.encode(curve.multiply(run.mapped, by: key))
            guard chip != value, let x = curve.multiply(terminal, by: key).x else { return abortPACE(.incorrectData) }
            let secret = curve.fixed(x)
            run.encryptionKey = PassportSMSession.deriveAES(seed: secret, counter: 1, length: 16)
            run.macKey = PassportSMSession.deriveAES(seed: secret, counter: 2, length: 16)
            run.chipKey = chip
            run.terminalKey = value
            run.step = 3
            paceRun = run
            return answer(0x84, chip, time: Self.curveTime)
        case (3, 0x85, false):
            paceRun = nil
            guard value == token(over: run.chipKey, macKey: run.macKey) else {
                return SimResponseAPDU(data: [], status: SimStatusWord(0x63, 0x00), additionalProcessingTime: .milliseconds(20))
            }
            session = PassportSMSession(encryptionKey: run.encryptionKey, macKey: run.macKey, aes: true, counter: 0)
            applicationSelected = false
            currentFile = nil
            return answer(0x86, token(over: run.terminalKey, macKey: run.macKey))
        default:
            return abortPACE(.conditionsNotSatisfied)
        }
    }

    /// f_G(R(s, t) mod p): R is AES-128 in the chain of §4.4.3.3.2 (k₀ = E(t, s); xᵢ = E(kᵢ₋₁, c₁),
    /// kᵢ = E(kᵢ₋₁, c₀)), as many blocks as the field's bits and 64 more need.
    func integratedGenerator(nonce: [UInt8], terminalNonce: [UInt8], curve: EllipticCurve) -> ECPoint? {
        guard var key = NTAG424Cipher.cbc(nonce, key: terminalNonce, decrypt: false) else { return nil }
        var stream: [UInt8] = []
        let bits = curve.p.bitWidth
        for _ in 0..<((bits + 64 + 127) / 128) {
            guard let block = NTAG424Cipher.cbc(Self.mappingConstants.c1, key: key, decrypt: false),
                let next = NTAG424Cipher.cbc(Self.mappingConstants.c0, key: key, decrypt: false)
            else { return nil }
            stream += block
            key = next
        }
        return curve.encodeToPoint(BigUInt(Data(stream)) % curve.p)
    }

    /// A token: the first 8 bytes of CMAC over `7F49 { 06 protocol, 86 point }` (Part 11 §4.4.3.4).
    func token(over point: [UInt8], macKey: [UInt8]) -> [UInt8] {
        let content = [0x06, UInt8(paceProtocol.count)] + paceProtocol + [0x86] + Self.lengthField(point.count) + point
        let object = [0x7F, 0x49] + Self.lengthField(content.count) + content
        return Array((NTAG424Cipher.cmac(object, key: macKey) ?? []).prefix(8))
    }

    /// `7C { tag value }` and `9000`.
    func answer(_ tag: UInt8, _ value: [UInt8], time: Duration = .milliseconds(20)) -> SimResponseAPDU {
        let inner = Object(tag: tag, value: value).encoded
        return SimResponseAPDU(data: Object(tag: 0x7C, value: inner).encoded, status: .success, additionalProcessingTime: time)
    }

    /// Ends the run with `status`.
    mutating func abortPACE(_ status: SimStatusWord) -> SimResponseAPDU {
        paceRun = nil
        return SimResponseAPDU(status)
    }
}
