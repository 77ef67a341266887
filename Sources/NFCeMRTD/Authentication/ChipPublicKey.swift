import BigInt
import Foundation
import NFCEllipticCurves
import SwiftASN1

/// An elliptic-curve public key from a SubjectPublicKeyInfo (RFC 5480 §2; SEC 1 v2 §C.2), as DG14
/// holds the chip-authentication key and DG15 the active-authentication key (ICAO Doc 9303
/// Part 11 §9.2.5, §6.1). The curve may be named (P-256, brainpoolP256r1), given as BSI's
/// standardized domain parameters (TR-03110 Part 3 §A.2.1.1), or spelled out as explicit
/// ECParameters — many passports do the last.
public struct ChipPublicKey: Sendable, Hashable {
    /// The key's curve.
    public let curve: EllipticCurve
    /// The key: a point of ``curve``.
    public let point: ECPoint
    /// The encoded point (`04 ‖ x ‖ y`).
    public var encoded: [UInt8] { curve.encode(point) }

    /// A key from its parts.
    public init(curve: EllipticCurve, point: ECPoint) {
        self.curve = curve
        self.point = point
    }

    /// id-ecPublicKey (RFC 5480 §2.1.1).
    static let ecPublicKey: ASN1ObjectIdentifier = [1, 2, 840, 10045, 2, 1]
    /// rsaEncryption (RFC 8017 §A.1): DG15 of many passports holds an RSA key.
    static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]
    /// id-PK-ECDH (BSI TR-03110 Part 3 §A.1.1.2): chip-authentication keys may name this instead.
    static let pkECDH: ASN1ObjectIdentifier = [0, 4, 0, 127, 0, 7, 2, 2, 1, 2]
    /// BSI's standardized domain parameters (TR-03110 Part 3 §A.2.1.1), followed by an INTEGER.
    static let standardizedDomainParameters: ASN1ObjectIdentifier = [0, 4, 0, 127, 0, 7, 1, 2]
    /// prime256v1 (RFC 5480 §2.1.1.1) and brainpoolP256r1 (RFC 5639 §4.1).
    static let namedCurves: [ASN1ObjectIdentifier: EllipticCurve] = [
        [1, 2, 840, 10045, 3, 1, 7]: .secp256r1, [1, 3, 36, 3, 3, 2, 8, 1, 1, 7]: .brainpoolP256r1,
    ]

    /// Parses a SubjectPublicKeyInfo.
    /// - Throws: ``EMRTDError`` `.malformedFile` naming `file` when the structure is wrong or the
    ///   point is not on the curve, `.unsupportedAlgorithm` for a key that is not elliptic-curve
    ///   or a curve this build does not know.
    public init(subjectPublicKeyInfo node: ASN1Node, file: String) throws(EMRTDError) {
        do {
            guard case .constructed(let fields) = node.content else { throw Self.bad(file, "the public key is not a SEQUENCE") }
            let parts = Array(fields)
            guard parts.count == 2, case .constructed(let algorithmFields) = parts[0].content else {
                throw Self.bad(file, "the public key has no AlgorithmIdentifier")
            }
            let algorithm = Array(algorithmFields)
            guard let algorithmNode = algorithm.first else { throw Self.bad(file, "empty AlgorithmIdentifier") }
            let oid = try ASN1ObjectIdentifier(derEncoded: algorithmNode)
            guard oid == Self.ecPublicKey || oid == Self.pkECDH else {
                throw EMRTDError(.unsupportedAlgorithm, file: file, "the public key's algorithm \(oid) is not elliptic-curve")
            }
            guard algorithm.count == 2 else { throw Self.bad(file, "the elliptic-curve key names no curve") }
            let curve = try Self.curve(algorithm[1], file: file)
            let bits = try ASN1BitString(derEncoded: parts[1])
            guard let point = curve.decode(Array(bits.bytes)) else {
                throw Self.bad(file, "the public key is not an uncompressed point of \(curve)")
            }
            self.init(curve: curve, point: point)
        } catch let error as EMRTDError {
            throw error
        } catch {
            throw Self.bad(file, "\(error)")
        }
    }

    /// A SubjectPublicKeyInfo's algorithm identifier, or `nil` when the structure is not one.
    static func algorithm(of node: ASN1Node) -> ASN1ObjectIdentifier? {
        guard case .constructed(let fields) = node.content, let algorithm = fields.first(where: { _ in true }),
            case .constructed(let algorithmFields) = algorithm.content, let oid = algorithmFields.first(where: { _ in true })
        else { return nil }
        return try? ASN1ObjectIdentifier(derEncoded: oid)
    }

    /// The curve a key's parameters name: a named curve, standardized domain parameters, or explicit ECParameters.
    static func curve(_ parameters: ASN1Node, file: String) throws -> EllipticCurve {
        if parameters.identifier == .objectIdentifier {
            let oid = try ASN1ObjectIdentifier(derEncoded: parameters)
            guard let curve = namedCurves[oid] else {
                throw EMRTDError(.unsupportedAlgorithm, file: file, "the named curve \(oid) is not one this build knows")
            }
            return curve
        }
        guard case .constructed(let fields) = parameters.content else { throw bad(file, "the curve parameters are not a SEQUENCE") }
        let nodes = Array(fields)
        if nodes.count == 2, nodes[0].identifier == .objectIdentifier,
            try ASN1ObjectIdentifier(derEncoded: nodes[0]) == standardizedDomainParameters
        {
            let identifier = try Int(derEncoded: nodes[1])
            guard let curve = EllipticCurve.standardized(identifier) else {
                throw EMRTDError(
                    .unsupportedAlgorithm, file: file, "standardized domain parameters \(identifier) are not a curve this build knows")
            }
            return curve
        }
        // ECParameters: version, FieldID { prime-field, p }, Curve { a, b [, seed] }, base, order [, cofactor].
        guard nodes.count >= 5, case .constructed(let fieldID) = nodes[1].content, case .constructed(let curveFields) = nodes[2].content
        else { throw bad(file, "the explicit curve parameters are incomplete") }
        let field = Array(fieldID)
        let coefficients = Array(curveFields)
        guard field.count == 2, try ASN1ObjectIdentifier(derEncoded: field[0]) == [1, 2, 840, 10045, 1, 1], coefficients.count >= 2
        else { throw EMRTDError(.unsupportedAlgorithm, file: file, "only curves over a prime field are supported") }
        let p = try integer(field[1])
        let a = BigUInt(Data(try ASN1OctetString(derEncoded: coefficients[0]).bytes))
        let b = BigUInt(Data(try ASN1OctetString(derEncoded: coefficients[1]).bytes))
        let order = try integer(nodes[4])
        let cofactor = nodes.count > 5 ? try integer(nodes[5]) : 1
        let shell = EllipticCurve(name: "explicit", p: p, a: a, b: b, generator: .infinity, order: order, cofactor: cofactor)
        guard p > 3, order > 1, let base = shell.decode(Array(try ASN1OctetString(derEncoded: nodes[3]).bytes)) else {
            throw bad(file, "the explicit curve's base point is not an uncompressed point on it")
        }
        let explicit = EllipticCurve(name: "explicit", p: p, a: a, b: b, generator: base, order: order, cofactor: cofactor)
        // An explicit curve that is a known one takes its name.
        for known in [EllipticCurve.brainpoolP256r1, .secp256r1]
        where known.p == p && known.a == explicit.a && known.b == explicit.b && known.generator == base && known.order == order {
            return known
        }
        return explicit
    }

    /// A non-negative DER INTEGER's value.
    static func integer(_ node: ASN1Node) throws -> BigUInt {
        guard node.identifier == .integer, case .primitive(let bytes) = node.content, bytes.first.map({ $0 & 0x80 == 0 }) ?? false else {
            throw ASN1Error.invalidASN1Object(reason: "not a non-negative INTEGER")
        }
        return BigUInt(Data(bytes))
    }

    static func bad(_ file: String, _ reason: String) -> EMRTDError { EMRTDError(.malformedFile, file: file, reason) }
}
