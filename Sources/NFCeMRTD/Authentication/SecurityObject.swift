import Crypto
import SwiftASN1
import X509

/// EF.SOD (ICAO Doc 9303 Part 10 §4.6.2, Part 11 §5.1): a CMS SignedData (RFC 5652 §5) whose
/// content, of type `id-icao-mrtd-security-ldsSecurityObject` (2.23.136.1.1.1), is the
/// LDSSecurityObject — a hash algorithm and one hash per data group — signed by a Document Signer
/// whose certificate the SignedData carries.
public struct SecurityObject: Sendable {
    /// The hash algorithm of the data-group hashes.
    public let hashAlgorithm: HashAlgorithm
    /// The signed hash of each data group.
    public let dataGroupHashes: [Int: [UInt8]]
    /// The Document Signer's certificate.
    public let documentSigner: Certificate
    /// The eContent: the LDSSecurityObject's DER bytes.
    public let securityObjectBytes: [UInt8]
    /// The DER bytes of the signed attributes (tag `31`), which the signature covers.
    public let signedAttributes: [UInt8]
    /// The `messageDigest` attribute: the hash of ``securityObjectBytes``.
    public let messageDigest: [UInt8]
    /// The signature algorithm, as swift-certificates names it.
    public let signatureAlgorithm: Certificate.SignatureAlgorithm?
    /// The signature's bytes (DER for ECDSA, the integer for RSA).
    public let signature: [UInt8]
    /// The digest algorithm of the signer info (for `messageDigest`).
    public let digestAlgorithm: HashAlgorithm

    /// The hash algorithms RFC 5754 and ICAO Doc 9303 name that swift-crypto computes.
    public enum HashAlgorithm: String, Sendable, Hashable {
        /// SHA-1 (FIPS 180-4), still found on older passports.
        case sha1 = "SHA-1"
        /// SHA-256.
        case sha256 = "SHA-256"
        /// SHA-384.
        case sha384 = "SHA-384"
        /// SHA-512.
        case sha512 = "SHA-512"

        init?(oid: ASN1ObjectIdentifier) {
            switch oid {
            case [1, 3, 14, 3, 2, 26]: self = .sha1
            case [2, 16, 840, 1, 101, 3, 4, 2, 1]: self = .sha256
            case [2, 16, 840, 1, 101, 3, 4, 2, 2]: self = .sha384
            case [2, 16, 840, 1, 101, 3, 4, 2, 3]: self = .sha512
            default: return nil
            }
        }

        /// The digest of `bytes`.
        public func hash(_ bytes: [UInt8]) -> [UInt8] {
            switch self {
            case .sha1: Array(Insecure.SHA1.hash(data: bytes))
            case .sha256: Array(SHA256.hash(data: bytes))
            case .sha384: Array(SHA384.hash(data: bytes))
            case .sha512: Array(SHA512.hash(data: bytes))
            }
        }
    }

    /// Parses EF.SOD's bytes (tag `77` around the ContentInfo).
    /// - Throws: ``EMRTDError`` `.malformedFile` naming the structure at fault,
    ///   `.unsupportedAlgorithm` for a hash this build cannot compute.
    public init(_ bytes: [UInt8]) throws(EMRTDError) {
        do {
            try self.init(parsing: bytes)
        } catch let error as EMRTDError {
            throw error
        } catch {
            throw EMRTDError(.malformedFile, file: "EF.SOD", "not CMS SignedData: \(error)")
        }
    }

    private init(parsing bytes: [UInt8]) throws {
        let outer = try LDSTLV.parse(bytes, file: "EF.SOD")
        guard outer.count == 1, let sod = outer.first, sod.tag == 0x77 else {
            throw Self.malformed("the file is not one object with tag 77")
        }
        let contentInfo = try Self.children(try DER.parse(sod.value), "ContentInfo")
        guard contentInfo.count == 2, try ASN1ObjectIdentifier(derEncoded: contentInfo[0]) == [1, 2, 840, 113_549, 1, 7, 2] else {
            throw Self.malformed("ContentInfo is not signedData")
        }
        let wrapped = try Self.children(contentInfo[1], "ContentInfo content")
        guard let signedDataNode = wrapped.first else { throw Self.malformed("ContentInfo holds no SignedData") }
        let signedData = try Self.children(signedDataNode, "SignedData")
        guard signedData.count >= 4 else { throw Self.malformed("SignedData has \(signedData.count) fields") }

        // encapContentInfo: the LDSSecurityObject.
        let encapsulated = try Self.children(signedData[2], "EncapsulatedContentInfo")
        guard encapsulated.count == 2, try ASN1ObjectIdentifier(derEncoded: encapsulated[0]) == [2, 23, 136, 1, 1, 1] else {
            throw Self.malformed("the signed content is not an LDSSecurityObject (2.23.136.1.1.1)")
        }
        guard let octets = try Self.children(encapsulated[1], "eContent").first else { throw Self.malformed("eContent is empty") }
        securityObjectBytes = Array(try ASN1OctetString(derEncoded: octets).bytes)
        let lds = try Self.children(try DER.parse(securityObjectBytes), "LDSSecurityObject")
        guard lds.count >= 3 else { throw Self.malformed("LDSSecurityObject has \(lds.count) fields") }
        hashAlgorithm = try Self.hashAlgorithm(lds[1])
        var hashes: [Int: [UInt8]] = [:]
        for entry in try Self.children(lds[2], "dataGroupHashValues") {
            let fields = try Self.children(entry, "DataGroupHash")
            guard fields.count == 2 else { throw Self.malformed("a DataGroupHash has \(fields.count) fields") }
            let number = try Int(derEncoded: fields[0])
            guard (1...16).contains(number) else { throw Self.malformed("data group number \(number)") }
            hashes[number] = Array(try ASN1OctetString(derEncoded: fields[1]).bytes)
        }
        dataGroupHashes = hashes

        // certificates [0] and the first SignerInfo.
        var certificates: [Certificate] = []
        var signerInfos: [ASN1Node] = []
        for node in signedData.dropFirst(3) {
            if node.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
                certificates = try Self.children(node, "certificates").map { try Certificate(derEncoded: Array($0.encodedBytes)) }
            } else if node.identifier == .set {
                signerInfos = try Self.children(node, "signerInfos")
            }
        }
        guard let signerInfoNode = signerInfos.first else { throw Self.malformed("SignedData has no SignerInfo") }
        let signer = try Self.children(signerInfoNode, "SignerInfo")
        guard signer.count >= 5 else { throw Self.malformed("SignerInfo has \(signer.count) fields") }
        digestAlgorithm = try Self.hashAlgorithm(signer[2])
        guard signer[3].identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) else {
            throw Self.malformed("SignerInfo has no signed attributes (Part 10 §4.6.2 requires them)")
        }
        var attributes = Array(signer[3].encodedBytes)
        attributes[0] = 0x31  // the signature covers the attributes as a SET OF (RFC 5652 §5.4)
        signedAttributes = attributes
        var digest: [UInt8]?
        for attribute in try Self.children(signer[3], "signedAttrs") {
            let fields = try Self.children(attribute, "Attribute")
            guard fields.count == 2 else { continue }
            if try ASN1ObjectIdentifier(derEncoded: fields[0]) == [1, 2, 840, 113_549, 1, 9, 4],
                let value = try Self.children(fields[1], "messageDigest").first
            {
                digest = Array(try ASN1OctetString(derEncoded: value).bytes)
            }
        }
        guard let digest else { throw Self.malformed("the signed attributes lack messageDigest") }
        messageDigest = digest
        guard let signatureNode = try Self.children(signer[4], "signatureAlgorithm").first else {
            throw Self.malformed("the signature algorithm identifier is empty")
        }
        let signatureOID = try ASN1ObjectIdentifier(derEncoded: signatureNode)
        signatureAlgorithm = Self.signatureAlgorithm(signatureOID, digest: digestAlgorithm)
        guard signer.count >= 6 else { throw Self.malformed("SignerInfo has no signature") }
        signature = Array(try ASN1OctetString(derEncoded: signer[5]).bytes)

        // The signer: the certificate whose serial number the SignerInfo names, else the only one.
        let serial = try Self.signerSerial(signer[1])
        let matching = certificates.first { certificate in
            guard let serial else { return true }
            return Array(certificate.serialNumber.bytes.drop { $0 == 0 }) == Array(serial.drop { $0 == 0 })
        }
        guard let signerCertificate = matching else {
            throw Self.malformed("EF.SOD carries no Document Signer certificate matching its SignerInfo")
        }
        documentSigner = signerCertificate
    }

    /// The serial number of an IssuerAndSerialNumber signer identifier (`nil` for a subject key identifier).
    private static func signerSerial(_ node: ASN1Node) throws -> [UInt8]? {
        guard node.identifier == .sequence else { return nil }
        let fields = try children(node, "IssuerAndSerialNumber")
        guard fields.count == 2, case .primitive(let bytes) = fields[1].content else { throw malformed("IssuerAndSerialNumber") }
        return Array(bytes)
    }

    private static func hashAlgorithm(_ node: ASN1Node) throws -> HashAlgorithm {
        guard let first = try children(node, "AlgorithmIdentifier").first else { throw malformed("an AlgorithmIdentifier is empty") }
        let oid = try ASN1ObjectIdentifier(derEncoded: first)
        guard let algorithm = HashAlgorithm(oid: oid) else {
            throw EMRTDError(.unsupportedAlgorithm, file: "EF.SOD", "hash algorithm \(oid) is not SHA-1, SHA-256, SHA-384 or SHA-512")
        }
        return algorithm
    }

    /// The algorithm swift-certificates verifies for a signature OID (RFC 5758, RFC 4055), or
    /// `nil` for one it does not (RSASSA-PSS, SHA-224).
    private static func signatureAlgorithm(_ oid: ASN1ObjectIdentifier, digest: HashAlgorithm) -> Certificate.SignatureAlgorithm? {
        switch oid {
        case [1, 2, 840, 10_045, 4, 3, 2]: return .ecdsaWithSHA256
        case [1, 2, 840, 10_045, 4, 3, 3]: return .ecdsaWithSHA384
        case [1, 2, 840, 10_045, 4, 3, 4]: return .ecdsaWithSHA512
        case [1, 2, 840, 113_549, 1, 1, 11]: return .sha256WithRSAEncryption
        case [1, 2, 840, 113_549, 1, 1, 12]: return .sha384WithRSAEncryption
        case [1, 2, 840, 113_549, 1, 1, 13]: return .sha512WithRSAEncryption
        case [1, 2, 840, 10_045, 2, 1]:  // id-ecPublicKey: the digest algorithm decides
            switch digest {
            case .sha256: return .ecdsaWithSHA256
            case .sha384: return .ecdsaWithSHA384
            case .sha512: return .ecdsaWithSHA512
            case .sha1: return nil
            }
        case [1, 2, 840, 113_549, 1, 1, 1]:  // rsaEncryption: likewise
            switch digest {
            case .sha256: return .sha256WithRSAEncryption
            case .sha384: return .sha384WithRSAEncryption
            case .sha512: return .sha512WithRSAEncryption
            case .sha1: return .sha1WithRSAEncryption
            }
        default: return nil
        }
    }

    private static func children(_ node: ASN1Node, _ what: String) throws -> [ASN1Node] {
        guard case .constructed(let collection) = node.content else { throw malformed("\(what) is not constructed") }
        return Array(collection)
    }

    private static func malformed(_ reason: String) -> EMRTDError { EMRTDError(.malformedFile, file: "EF.SOD", reason) }
}
