import BigInt
import Crypto
import ISO7816
import NFCEllipticCurves
import SwiftASN1

/// Active authentication (ICAO Doc 9303 Part 11 §6.1): the terminal sends an 8-byte random
/// challenge in INTERNAL AUTHENTICATE (`00 88 00 00 08`) and the chip signs it with the private
/// key whose public half DG15 holds; a verified signature shows the chip was not copied.
///
/// Both kinds of key are verified: ECDSA (§6.1: the signature over the challenge, in the plain
/// r ‖ s format of BSI TR-03111 §5.2.1, hashed as DG14's ActiveAuthenticationInfo says) and RSA
/// (ISO/IEC 9796-2 scheme 1, `ActiveAuthentication+RSA.swift`).
public enum ActiveAuthentication {
    /// The signature algorithm: ActiveAuthenticationInfo's (Part 11 §9.2.3) for ECDSA, or the
    /// one an RSA signature's trailer names.
    public enum SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
        /// ecdsa-plain-SHA* (BSI TR-03111 §5.2.1: 0.4.0.127.0.7.1.1.4.1.{1,3,4,5}).
        case ecdsaPlain(SecurityObject.HashAlgorithm)
        /// ISO/IEC 9796-2 scheme 1 with the hash its trailer names.
        case iso9796(SecurityObject.HashAlgorithm)

        /// The ECDSA algorithm an identifier names, or `nil`.
        public init?(oid arcs: [UInt]) {
            guard arcs.count == 11, Array(arcs.prefix(10)) == [0, 4, 0, 127, 0, 7, 1, 1, 4, 1] else { return nil }
            let hashes: [UInt: SecurityObject.HashAlgorithm] = [1: .sha1, 3: .sha256, 4: .sha384, 5: .sha512]
            guard let hash = hashes[arcs[10]] else { return nil }
            self = .ecdsaPlain(hash)
        }

        public var description: String {
            switch self {
            case .ecdsaPlain(let hash): "ECDSA-\(hash.rawValue)"
            case .iso9796(let hash): "ISO/IEC 9796-2 with \(hash.rawValue)"
            }
        }
    }

    /// DG15's public key (tag `6F` around a SubjectPublicKeyInfo, Part 10 §4.7.15).
    /// - Throws: ``EMRTDError`` `.malformedFile` (DG15), `.unsupportedAlgorithm` for a key that
    ///   is neither elliptic-curve nor RSA.
    public static func publicKey(dataGroup15 bytes: [UInt8]) throws(EMRTDError) -> ActiveAuthenticationKey {
        let file = LDSFile.dataGroup(15).description
        let outer = try LDSTLV.parse(bytes, file: file)
        guard outer.count == 1, let first = outer.first, first.tag == 0x6F else {
            throw EMRTDError(.malformedFile, file: file, "the file is not one object with tag 6F")
        }
        let node: ASN1Node
        do { node = try DER.parse(first.value) } catch { throw EMRTDError(.malformedFile, file: file, "\(error)") }
        if ChipPublicKey.algorithm(of: node) == ChipPublicKey.rsaEncryption {
            return .rsa(try RSAPublicKey(subjectPublicKeyInfo: node, file: file))
        }
        return .ec(try ChipPublicKey(subjectPublicKeyInfo: node, file: file))
    }

    /// The algorithm under which `signature` signs `challenge` with `key`, or `nil` when it does
    /// not verify. An ECDSA key needs DG14's `algorithm`; an RSA signature names its own hash.
    public static func verify(
        signature: [UInt8], challenge: [UInt8], key: ActiveAuthenticationKey, algorithm: SignatureAlgorithm?
    ) -> SignatureAlgorithm? {
        switch key {
        case .rsa(let rsa):
            return verifyISO9796(signature: signature, challenge: challenge, key: rsa).map { .iso9796($0) }
        case .ec(let ec):
            guard case .ecdsaPlain(let hash)? = algorithm, signature.count == 2 * orderLength(ec.curve),
                let (r, s) = EllipticCurve.splitPlainSignature(signature),
                ec.curve.verifyECDSA(digest: hash.hash(challenge), r: r, s: s, publicKey: ec.point)
            else { return nil }
            return .ecdsaPlain(hash)
        }
    }

    /// Runs active authentication over `channel`.
    /// - Parameters:
    ///   - key: DG15's key.
    ///   - algorithm: DG14's ActiveAuthenticationInfo (required for an ECDSA key).
    ///   - channel: the open channel (under secure messaging once access control ran).
    ///   - challenge: the 8 bytes to sign (random unless a test fixes them).
    /// - Returns: the algorithm that verified.
    /// - Throws: ``EMRTDError`` `.unsupportedAlgorithm` for an ECDSA key without a signature
    ///   algorithm, `.unexpectedStatus` when the chip refuses, `.chipNotGenuine` when the
    ///   signature does not verify.
    package static func run(
        key: ActiveAuthenticationKey, algorithm: SignatureAlgorithm?, channel: inout PassportChannel, challenge: [UInt8]? = nil
    ) async throws(EMRTDError) -> SignatureAlgorithm {
        if case .ec = key, algorithm == nil {
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
        guard let verified = verify(signature: answer.data, challenge: random, key: key, algorithm: algorithm) else {
            let expected = algorithm.map { "\($0)" } ?? "ISO/IEC 9796-2"
            throw EMRTDError(
                .chipNotGenuine, file: "DG15",
                "active authentication failed: the chip's \(answer.data.count)-byte answer is not a \(expected) signature of the challenge under DG15's \(key) key"
            )
        }
        return verified
    }

    /// The byte length of the curve's order: each of r and s in the plain format.
    static func orderLength(_ curve: EllipticCurve) -> Int {
        (curve.order.bitWidth + 7) / 8
    }
}
