import BigInt
import Crypto
import Foundation
import NFCEllipticCurves
import SwiftASN1
import _CryptoExtras

extension PassportIssuer {
    /// The chip's own key pairs, made fresh for each document (test keys): the chip-authentication
    /// key on the PACE curve (brainpoolP256r1 without PACE) and the P-256 active-authentication
    /// key, with the files that publish them — DG14 and DG15 (ICAO Doc 9303 Part 10 §4.7.14–15,
    /// Part 11 §9.2).
    struct ChipKeys {
        /// Chip authentication's settings, when the holder's chip offers it.
        let chipAuthentication: PassportApplet.ChipAuthenticationSettings?
        /// Active authentication's ECDSA key, when offered.
        let activeAuthentication: P256.Signing.PrivateKey?
        /// Active authentication's RSA key, when offered instead.
        let activeAuthenticationRSA: _RSA.Signing.PrivateKey?

        init(_ holder: PassportHolder) {
            if let cipher = holder.chipAuthentication {
                let parameter = holder.pace?.parameterIdentifier ?? 13
                let curve = EllipticCurve.standardized(parameter) ?? .brainpoolP256r1
                var generator = SystemRandomNumberGenerator()
                let key = curve.fixed(curve.scalar((0..<curve.byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
                chipAuthentication = PassportApplet.ChipAuthenticationSettings(
                    parameterIdentifier: parameter, privateKey: key, tripleDES: cipher == .tripleDES)
            } else {
                chipAuthentication = nil
            }
            let rsa = holder.activeAuthentication && holder.activeAuthenticationAlgorithm == .rsa
            activeAuthentication = holder.activeAuthentication && !rsa ? P256.Signing.PrivateKey() : nil
            activeAuthenticationRSA = rsa ? try? _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)) : nil
        }

        /// DG14: `6E { SET OF SecurityInfo }` — ChipAuthenticationPublicKeyInfo (id-PK-ECDH, the key
        /// with explicit ECParameters as many issuers write them), ChipAuthenticationInfo (version
        /// 1), and ActiveAuthenticationInfo (ecdsa-plain-SHA256) — each encoded, then sorted as
        /// DER's SET OF requires (X.690 §11.6).
        func dataGroup14() throws -> [UInt8]? {
            var infos: [[UInt8]] = []
            if let chip = chipAuthentication, let curve = EllipticCurve.standardized(chip.parameterIdentifier) {
                let point = curve.encode(curve.multiply(curve.generator, by: BigUInt(Data(chip.privateKey))))
                let publicKeyInfo = der(0x30, oid([1, 2, 840, 10_045, 2, 1]) + explicitParameters(curve)) + der(0x03, [0x00] + point)
                infos.append(der(0x30, oid([0, 4, 0, 127, 0, 7, 2, 2, 1, 2]) + der(0x30, publicKeyInfo)))
                infos.append(der(0x30, oid([0, 4, 0, 127, 0, 7, 2, 2, 3, 2, chip.tripleDES ? 1 : 2]) + der(0x02, [0x01])))
            }
            if activeAuthentication != nil {
                infos.append(der(0x30, oid([2, 23, 136, 1, 1, 5]) + der(0x02, [0x01]) + oid([0, 4, 0, 127, 0, 7, 1, 1, 4, 1, 3])))
            }
            guard !infos.isEmpty else { return nil }
            return tlv(0x6E, der(0x31, infos.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 }))
        }

        /// DG15: `6F { SubjectPublicKeyInfo }` of the active-authentication key. DG14 names no
        /// algorithm for an RSA key: its signatures carry their hash in the trailer (Part 11 §9.2.3).
        func dataGroup15() -> [UInt8]? {
            if let activeAuthenticationRSA { return tlv(0x6F, Array(activeAuthenticationRSA.publicKey.derRepresentation)) }
            return activeAuthentication.map { tlv(0x6F, Array($0.publicKey.derRepresentation)) }
        }

        /// ECParameters (SEC 1 v2 §C.2): version 1, prime field, a and b, the base point, order, cofactor.
        func explicitParameters(_ curve: EllipticCurve) -> [UInt8] {
            let field = der(0x30, oid([1, 2, 840, 10_045, 1, 1]) + der(0x02, derInteger(curve.fixed(curve.p)[...])))
            let coefficients = der(0x30, der(0x04, curve.fixed(curve.a)) + der(0x04, curve.fixed(curve.b)))
            return der(
                0x30,
                der(0x02, [0x01]) + field + coefficients + der(0x04, curve.encode(curve.generator))
                    + der(0x02, derInteger(curve.fixed(curve.order)[...])) + der(0x02, derInteger(curve.fixed(curve.cofactor)[...])))
        }

        /// A DER object with a one-byte tag.
        func der(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] { [tag] + PassportApplet.lengthField(value.count) + value }

        /// An OBJECT IDENTIFIER's DER encoding, by swift-asn1 (as EF.SOD's are).
        func oid(_ arcs: [UInt]) -> [UInt8] {
            var coder = DER.Serializer()
            guard let identifier = try? ASN1ObjectIdentifier(elements: arcs), (try? coder.serialize(identifier)) != nil else { return [] }
            return coder.serializedBytes
        }
    }
}
