import BigInt
import Foundation
import SwiftASN1

/// DG15's public key (ICAO Doc 9303 Part 10 §4.7.15): elliptic-curve, for ECDSA, or RSA, for
/// ISO/IEC 9796-2 signatures (Part 11 §6.1).
public enum ActiveAuthenticationKey: Sendable, Hashable, CustomStringConvertible {
    /// An elliptic-curve key.
    case ec(ChipPublicKey)
    /// An RSA key.
    case rsa(RSAPublicKey)

    public var description: String {
        switch self {
        case .ec(let key): "\(key.curve)"
        case .rsa(let key): "RSA-\(key.bitCount)"
        }
    }
}

/// An RSA public key (RFC 8017 §A.1.1: `RSAPublicKey ::= SEQUENCE { modulus, publicExponent }`).
public struct RSAPublicKey: Sendable, Hashable {
    /// n.
    public let modulus: BigUInt
    /// e.
    public let exponent: BigUInt

    /// The modulus's length in bits.
    public var bitCount: Int { modulus.bitWidth }
    /// The modulus's length in bytes: the length of a signature.
    public var byteCount: Int { (bitCount + 7) / 8 }

    /// A key from its parts.
    public init(modulus: BigUInt, exponent: BigUInt) {
        self.modulus = modulus
        self.exponent = exponent
    }

    /// The key of an `rsaEncryption` SubjectPublicKeyInfo.
    /// - Throws: ``EMRTDError`` `.malformedFile` naming `file`.
    init(subjectPublicKeyInfo node: ASN1Node, file: String) throws(EMRTDError) {
        do {
            guard case .constructed(let fields) = node.content, let bitString = Array(fields).last else {
                throw ChipPublicKey.bad(file, "the public key is not a SEQUENCE")
            }
            let key = try DER.parse(Array(try ASN1BitString(derEncoded: bitString).bytes))
            guard case .constructed(let parts) = key.content else { throw ChipPublicKey.bad(file, "RSAPublicKey is not a SEQUENCE") }
            let integers = Array(parts)
            guard integers.count == 2 else { throw ChipPublicKey.bad(file, "RSAPublicKey has \(integers.count) fields, not 2") }
            let modulus = try ChipPublicKey.integer(integers[0])
            let exponent = try ChipPublicKey.integer(integers[1])
            guard modulus.bitWidth >= 512, exponent > 1, exponent < modulus else {
                throw ChipPublicKey.bad(file, "the RSA key's modulus or exponent is out of range")
            }
            self.init(modulus: modulus, exponent: exponent)
        } catch let error as EMRTDError {
            throw error
        } catch {
            throw ChipPublicKey.bad(file, "\(error)")
        }
    }
}
