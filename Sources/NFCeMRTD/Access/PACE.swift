import BigInt
import Crypto
import ISO7816
import NFCEllipticCurves

/// The password PACE derives its first key from (ICAO Doc 9303 Part 11 §9.7.3): the MRZ's
/// document number, birth and expiry dates, or the card access number printed on the document.
public enum PACEPassword: Sendable, Hashable, CustomStringConvertible {
    /// The MRZ: K = SHA-1(MRZ_information), all 20 bytes.
    case mrz(MRZKey)
    /// The CAN: K = its characters' bytes.
    case can(String)

    /// MSE:Set AT's password reference (`83`): 1 MRZ, 2 CAN (§4.4.4.1).
    public var reference: UInt8 {
        switch self {
        case .mrz: 0x01
        case .can: 0x02
        }
    }

    /// K, the password's bytes before KDF_π.
    public var secret: [UInt8] {
        switch self {
        case .mrz(let key): Array(Insecure.SHA1.hash(data: Array(key.information.utf8)))
        case .can(let number): Array(number.utf8)
        }
    }

    public var description: String {
        switch self {
        case .mrz: "MRZ"
        case .can: "CAN"
        }
    }
}

/// PACE on an elliptic curve with AES secure messaging (ICAO Doc 9303 Part 11 §4.4, §9.2 and
/// Appendices G and H; BSI TR-03110 Part 2 §3.2): MSE:Set AT, then four General Authenticate
/// steps — the encrypted nonce, the mapping to a new generator (generic: Ĝ = s·G + H;
/// integrated: Ĝ = f_G(R(s, t)), ``IntegratedMapping``), the key agreement on Ĝ, and the
/// exchange of authentication tokens.
package enum PACE {
    /// The terminal's private keys, for replaying a published exchange; fresh random ones otherwise.
    package struct TerminalKeys: Sendable {
        /// SK_map,IFD.
        package var mapping: [UInt8]?
        /// SK_DH,IFD.
        package var agreement: [UInt8]?
        /// The integrated mapping's nonce t (16 bytes).
        package var mappingNonce: [UInt8]?

        /// Keys as given (`nil`: random).
        package init(mapping: [UInt8]? = nil, agreement: [UInt8]? = nil, mappingNonce: [UInt8]? = nil) {
            self.mapping = mapping
            self.agreement = agreement
            self.mappingNonce = mappingNonce
        }
    }

    /// Whether this build runs `info`: ECDH generic mapping with AES, or ECDH integrated
    /// mapping with AES-128, on a curve it has.
    package static func supports(_ info: PACEInfo) -> Bool {
        guard info.isECDH, let keyLength = info.aesKeyLength, info.parameterIdentifier.flatMap(EllipticCurve.standardized) != nil
        else { return false }
        switch info.mapping {
        case .generic: return true
        case .integrated: return keyLength == 16
        case .chipAuthentication, nil: return false
        }
    }

    /// Runs PACE over `transmitter` (the MF current, before the eMRTD application is selected).
    ///
    /// - Parameters:
    ///   - password: the MRZ or the CAN.
    ///   - info: the protocol to run, from EF.CardAccess.
    ///   - offered: how many PACEInfos EF.CardAccess lists: with more than one, MSE:Set AT names
    ///     the domain parameters (`84`).
    ///   - transmitter: the link to the chip.
    ///   - keys: the terminal's private keys (random unless a test replays an exchange).
    /// - Returns: the AES secure-messaging session.
    /// - Throws: ``EMRTDError`` `.unsupportedAlgorithm` for a protocol ``supports(_:)`` refuses,
    ///   `.accessDenied` when the chip refuses the password, `.authenticationFailed` when its
    ///   token or a point does not verify, `.transport`.
    package static func establish(
        password: PACEPassword, info: PACEInfo, offered: Int = 1, over transmitter: any APDUTransmitter,
        keys: TerminalKeys = TerminalKeys()
    ) async throws(EMRTDError) -> SecureMessaging {
        guard supports(info), let keyLength = info.aesKeyLength, let parameter = info.parameterIdentifier,
            let curve = EllipticCurve.standardized(parameter)
        else {
            throw EMRTDError(.unsupportedAlgorithm, file: "EF.CardAccess", "\(info) is not a PACE protocol this build runs")
        }
        let oid = info.identifierBytes
        var setAT = BERTLV(tag: 0x80, value: oid).encoded + BERTLV(tag: 0x83, value: [password.reference]).encoded
        if offered > 1 { setAT += BERTLV(tag: 0x84, value: [UInt8(truncatingIfNeeded: parameter)]).encoded }
        let set = try await PlainExchange.send(CommandAPDU(ins: 0x22, p1: 0xC1, p2: 0xA4, data: setAT), over: transmitter)
        guard set.statusWord == .success || set.statusWord.sw1 == 0x63 else {
            throw EMRTDError(.unexpectedStatus, statusWord: set.statusWord, "MSE:Set AT for \(info) was refused")
        }

        // Step 1: the encrypted nonce z; s = D(K_π, z).
        let passwordKey = derive(password.secret, counter: 3, length: keyLength)
        let nonceAnswer = try await generalAuthenticate([], step: "1 (nonce)", last: false, over: transmitter)
        let encryptedNonce = try field(0x80, of: nonceAnswer, step: "1 (nonce)")
        guard encryptedNonce.count % 16 == 0, !encryptedNonce.isEmpty else {
            throw EMRTDError(.authenticationFailed, "the encrypted nonce has \(encryptedNonce.count) bytes, not whole AES blocks")
        }
        let nonce = try SecureMessagingCipher.aesCBC(
            encryptedNonce, key: SymmetricKey(data: passwordKey), iv: [UInt8](repeating: 0, count: 16), decrypt: true)

        // Step 2: the mapping to Ĝ.
        let mapped =
            info.mapping == .integrated
            ? try await mapIntegrated(nonce: nonce, curve: curve, keys: keys, over: transmitter)
            : try await mapGeneric(nonce: nonce, curve: curve, keys: keys, over: transmitter)

        // Step 3: key agreement on Ĝ.
        let agreementKey = curve.scalar(keys.agreement ?? randomBytes(curve.byteCount))
        let agreementPublic = curve.multiply(mapped, by: agreementKey)
        let agreeAnswer = try await generalAuthenticate(
            BERTLV(tag: 0x83, value: curve.encode(agreementPublic)).encoded, step: "3 (key agreement)", last: false, over: transmitter)
        let chipAgreementBytes = try field(0x84, of: agreeAnswer, step: "3 (key agreement)")
        guard let chipAgreement = curve.decode(chipAgreementBytes), chipAgreement != agreementPublic,
            let secretX = curve.multiply(chipAgreement, by: agreementKey).x
        else {
            throw EMRTDError(.authenticationFailed, "the chip's ephemeral key is not a valid point of \(curve), or equals the terminal's")
        }
        let sharedSecret = curve.fixed(secretX)
        let encryptionKey = derive(sharedSecret, counter: 1, length: keyLength)
        let macKey = derive(sharedSecret, counter: 2, length: keyLength)

        // Step 4: the authentication tokens over the other side's ephemeral key.
        let terminalToken = try token(macKey: macKey, oid: oid, point: chipAgreementBytes)
        let tokenAnswer: [UInt8]
        do {
            tokenAnswer = try await generalAuthenticate(
                BERTLV(tag: 0x85, value: terminalToken).encoded, step: "4 (mutual authentication)", last: true, over: transmitter)
        } catch  where error.code == .unexpectedStatus && error.statusWord?.sw1 == 0x63 {
            throw EMRTDError(
                .accessDenied, statusWord: error.statusWord,
                "the chip refused PACE: the \(password) does not match this document")
        }
        let chipToken = try field(0x86, of: tokenAnswer, step: "4 (mutual authentication)")
        guard chipToken == (try token(macKey: macKey, oid: oid, point: curve.encode(agreementPublic))) else {
            throw EMRTDError(.authenticationFailed, "the chip's authentication token T_IC does not verify")
        }
        return try SecureMessaging(aesEncryptionKey: encryptionKey, macKey: macKey)
    }

    /// Generic mapping (§4.4.3.3.1): Ĝ = s·G + SK_map,IFD · PK_map,IC.
    static func mapGeneric(
        nonce: [UInt8], curve: EllipticCurve, keys: TerminalKeys, over transmitter: any APDUTransmitter
    ) async throws(EMRTDError) -> ECPoint {
        let mappingKey = curve.scalar(keys.mapping ?? randomBytes(curve.byteCount))
        let mappingPublic = curve.multiply(curve.generator, by: mappingKey)
        let mapAnswer = try await generalAuthenticate(
            BERTLV(tag: 0x81, value: curve.encode(mappingPublic)).encoded, step: "2 (map nonce)", last: false, over: transmitter)
        guard let chipMapping = curve.decode(try field(0x82, of: mapAnswer, step: "2 (map nonce)")), chipMapping != mappingPublic else {
            throw EMRTDError(.authenticationFailed, "the chip's mapping key is not a valid point of \(curve)")
        }
        let shared = curve.multiply(chipMapping, by: mappingKey)
        guard shared != .infinity else { throw EMRTDError(.authenticationFailed, "the mapping's shared point is at infinity") }
        return curve.add(curve.multiply(curve.generator, by: curve.scalar(nonce)), shared)
    }

    /// Integrated mapping (§4.4.3.3.2): the terminal's nonce t goes in `81`; the chip answers
    /// with empty mapping data; Ĝ = f_G(R(s, t)).
    static func mapIntegrated(
        nonce: [UInt8], curve: EllipticCurve, keys: TerminalKeys, over transmitter: any APDUTransmitter
    ) async throws(EMRTDError) -> ECPoint {
        let terminalNonce = keys.mappingNonce ?? randomBytes(16)
        let answer = try await generalAuthenticate(
            BERTLV(tag: 0x81, value: terminalNonce).encoded, step: "2 (map nonce)", last: false, over: transmitter)
        guard (try? BERTLV.parseAll(answer).first(tag: 0x7C)) != nil else {
            throw EMRTDError(.authenticationFailed, "General Authenticate step 2 (map nonce) answered without 7C")
        }
        return try IntegratedMapping.generator(nonce: nonce, terminalNonce: terminalNonce, curve: curve)
    }

    /// KDF of §9.7.1 for AES: SHA-1 for 128-bit keys, SHA-256 for 192 and 256, truncated.
    package static func derive(_ secret: [UInt8], counter: UInt32, length: Int) -> [UInt8] {
        let input = secret + withUnsafeBytes(of: counter.bigEndian) { Array($0) }
        if length == 16 { return Array(Insecure.SHA1.hash(data: input).prefix(16)) }
        return Array(SHA256.hash(data: input).prefix(length))
    }

    /// An authentication token (§4.4.3.4): CMAC over the public key data object
    /// `7F49 { 06 OID, 86 point }`, its first 8 bytes.
    package static func token(macKey: [UInt8], oid: [UInt8], point: [UInt8]) throws(EMRTDError) -> [UInt8] {
        let object = BERTLV(tag: 0x7F49, value: BERTLV(tag: 0x06, value: oid).encoded + BERTLV(tag: 0x86, value: point).encoded).encoded
        do {
            var mac = try AES.CMAC(key: SymmetricKey(data: macKey))
            object.withUnsafeBytes { mac.update(bufferPointer: $0) }
            return Array(mac.finalize().withUnsafeBytes { Array($0) }.prefix(8))
        } catch {
            throw EMRTDError(.authenticationFailed, "AES-CMAC: \(error)")
        }
    }

    /// One General Authenticate (`86`): `7C` around `data`; CLA `10` (chained) but for the last.
    static func generalAuthenticate(
        _ data: [UInt8], step: String, last: Bool, over transmitter: any APDUTransmitter
    ) async throws(EMRTDError) -> [UInt8] {
        let command = CommandAPDU(
            cla: last ? 0x00 : 0x10, ins: 0x86, data: BERTLV(tag: 0x7C, value: data).encoded,
            expectedLength: CommandAPDU.maximumShortExpectedLength)
        let answer = try await PlainExchange.send(command, over: transmitter)
        guard answer.statusWord == .success else {
            throw EMRTDError(.unexpectedStatus, statusWord: answer.statusWord, "General Authenticate step \(step) was refused")
        }
        return answer.data
    }

    /// The value of `tag` inside the answer's dynamic authentication data (`7C`).
    static func field(_ tag: UInt32, of answer: [UInt8], step: String) throws(EMRTDError) -> [UInt8] {
        do {
            guard let outer = try BERTLV.parseAll(answer).first(tag: 0x7C),
                let inner = try BERTLV.parseAll(outer.value).first(tag: tag)
            else {
                throw EMRTDError(.authenticationFailed, "General Authenticate step \(step) answered without \(BERTLV.hex(tag))")
            }
            return inner.value
        } catch let error as EMRTDError {
            throw error
        } catch {
            throw EMRTDError(.authenticationFailed, "General Authenticate step \(step): \(error)")
        }
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
