import BigInt
import Crypto
import ISO7816
import NFCEllipticCurves
import SwiftASN1

/// Active authentication (ICAO Doc 9303 Part 11 §6.1): the terminal sends an 8-byte random
/// challenge in INTERNAL AUTHENTICATE (`00 88 00 00 08`) and the chip signs it with the private
/// key whose public half DG15 holds; a verified signature shows the chip was not copied.
///
/// This build verifies ECDSA (§6.1: the signature over the challenge, in the plain r ‖ s format
/// of BSI TR-03111 §5.2.1, hashed as DG14's ActiveAuthenticationInfo says). RSA keys (ISO/IEC
/// 9796-2 signatures) are reported as unsupported.
public enum ActiveAuthentication {
    /// The signature algorithm ActiveAuthenticationInfo names (Part 11 §9.2.3).
    public enum SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
        /// ecdsa-plain-SHA* (BSI TR-03111 §5.2.1: 0.4.0.127.0.7.1.1.4.1.{1,3,4,5}).
        case ecdsaPlain(SecurityObject.HashAlgorithm)

        /// The algorithm an identifier names, or `nil`.
        public init?(oid arcs: [UInt]) {
            guard arcs.count == 11, Array(arcs.prefix(10)) == [0, 4, 0, 127, 0, 7, 1, 1, 4, 1] else { return nil }
            let hashes: [UInt: SecurityObject.HashAlgorithm] = [1: .sha1, 3: .sha256, 4: .sha384, 5: .sha512]
            guard let hash = hashes[arcs[10]] else { return nil }
            self = .ecdsaPlain(hash)
        }

        /// The identifier's arcs.
        public var oid: [UInt] {
            switch self {
            case .ecdsaPlain(let hash):
                let last: UInt =
                    switch hash {
                    case .sha1: 1
                    case .sha256: 3
                    case .sha384: 4
                    case .sha512: 5
                    }
                return [0, 4, 0, 127, 0, 7, 1, 1, 4, 1, last]
            }
        }

        public var description: String {
            switch self {
            case .ecdsaPlain(let hash): "ECDSA-\(hash.rawValue)"
            }
        }
    }

    /// DG15's public key (tag `6F` around a SubjectPublicKeyInfo, Part 10 §4.7.15).
    /// - Throws: ``EMRTDError`` `.malformedFile` (DG15), `.unsupportedAlgorithm` for an RSA key.
    public static func publicKey(dataGroup15 bytes: [UInt8]) throws(EMRTDError) -> ChipPublicKey {
        let file = LDSFile.dataGroup(15).description
        let outer = try LDSTLV.parse(bytes, file: file)
        guard outer.count == 1, let first = outer.first, first.tag == 0x6F else {
            throw EMRTDError(.malformedFile, file: file, "the file is not one object with tag 6F")
        }
        let node: ASN1Node
        do { node = try DER.parse(first.value) } catch { throw EMRTDError(.malformedFile, file: file, "\(error)") }
        if ChipPublicKey.algorithm(of: node) == ChipPublicKey.rsaEncryption {
            throw EMRTDError(
                .unsupportedAlgorithm, file: file, "RSA active authentication (ISO/IEC 9796-2) is not implemented in this build")
        }
        return try ChipPublicKey(subjectPublicKeyInfo: node, file: file)
    }

    /// Whether `signature` is the chip's ECDSA signature of `challenge` under `key`.
    public static func verify(signature: [UInt8], challenge: [UInt8], key: ChipPublicKey, algorithm: SignatureAlgorithm) -> Bool {
        guard case .ecdsaPlain(let hash) = algorithm, signature.count == 2 * orderLength(key.curve),
            let (r, s) = EllipticCurve.splitPlainSignature(signature)
        else { return false }
        return key.curve.verifyECDSA(digest: hash.hash(challenge), r: r, s: s, publicKey: key.point)
    }

    /// Runs active authentication over `channel`.
    /// - Parameters:
    ///   - key: DG15's key.
    ///   - algorithm: DG14's ActiveAuthenticationInfo (required for an ECDSA key).
    ///   - channel: the open channel (under secure messaging once access control ran).
    ///   - challenge: the 8 bytes to sign (random unless a test fixes them).
    /// - Returns: the algorithm that verified.
    /// - Throws: ``EMRTDError`` `.unsupportedAlgorithm` without a signature algorithm,
    ///   `.unexpectedStatus` when the chip refuses, `.chipNotGenuine` when the signature does
    ///   not verify.
    public static func run(
        key: ChipPublicKey, algorithm: SignatureAlgorithm?, channel: inout PassportChannel, challenge: [UInt8]? = nil
    ) async throws(EMRTDError) -> SignatureAlgorithm {
        guard let algorithm else {
            throw EMRTDError(
                .unsupportedAlgorithm, file: "DG14",
                "DG15 holds an elliptic-curve key but DG14 names no ActiveAuthenticationInfo signature algorithm")
        }
        let random = challenge ?? PACE.randomBytes(8)
        let answer = try await channel.send(CommandAPDU(ins: 0x88, data: random, expectedLength: CommandAPDU.maximumShortExpectedLength))
        guard answer.statusWord == .success else {
            throw EMRTDError(
                .unexpectedStatus, statusWord: answer.statusWord, "active authentication: the chip refused INTERNAL AUTHENTICATE")
        }
        guard verify(signature: answer.data, challenge: random, key: key, algorithm: algorithm) else {
            throw EMRTDError(
                .chipNotGenuine, file: "DG15",
                "active authentication failed: the chip's \(answer.data.count)-byte answer is not a \(algorithm) signature of the challenge under DG15's key"
            )
        }
        return algorithm
    }

    /// The byte length of the curve's order: each of r and s in the plain format.
    static func orderLength(_ curve: EllipticCurve) -> Int {
        (curve.order.bitWidth - curve.order.leadingZeroBitCount + 7) / 8
    }
}
