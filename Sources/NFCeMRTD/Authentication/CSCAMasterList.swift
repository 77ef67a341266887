import SwiftASN1
import X509

/// A CSCA master list (ICAO Doc 9303 Part 12 §9): a CMS SignedData (RFC 5652) whose content, of
/// type `id-icao-cscaMasterList` (2.23.136.1.1.2), is `CscaMasterList ::= SEQUENCE { version
/// INTEGER, certList SET OF Certificate }` — the Country Signing CA certificates a state has
/// collected, as states and ICAO's PKD publish them (`.ml` files).
///
/// The list's own signature is not verified here: the certificates are trusted as far as the
/// file's source is, like a directory of CSCA certificates.
public enum CSCAMasterList {
    /// id-icao-cscaMasterList.
    static let contentType: ASN1ObjectIdentifier = [2, 23, 136, 1, 1, 2]
    /// id-signedData (RFC 5652 §5.1).
    static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]

    /// Whether `bytes` look like a master list: a SignedData ContentInfo with the master list's content type.
    public static func isMasterList(_ bytes: [UInt8]) -> Bool {
        (try? encapsulatedList(bytes)) != nil
    }

    /// The certificates of a master list's DER bytes.
    /// - Throws: ``EMRTDError`` `.malformedFile` naming the structure at fault.
    public static func certificates(_ bytes: [UInt8]) throws(EMRTDError) -> [Certificate] {
        do {
            let list = try children(try DER.parse(try encapsulatedList(bytes)), "CscaMasterList")
            guard list.count == 2, list[0].identifier == .integer, list[1].identifier == .set else {
                throw malformed("CscaMasterList is not { version, SET OF Certificate }")
            }
            return try children(list[1], "certList").map { try Certificate(derEncoded: Array($0.encodedBytes)) }
        } catch let error as EMRTDError {
            throw error
        } catch {
            throw malformed("\(error)")
        }
    }

    /// The eContent octets: ContentInfo › SignedData › EncapsulatedContentInfo of type id-icao-cscaMasterList.
    static func encapsulatedList(_ bytes: [UInt8]) throws -> [UInt8] {
        let contentInfo = try children(try DER.parse(bytes), "ContentInfo")
        guard contentInfo.count == 2, contentInfo[0].identifier == .objectIdentifier,
            try ASN1ObjectIdentifier(derEncoded: contentInfo[0]) == signedData
        else { throw malformed("not a CMS SignedData ContentInfo") }
        guard let signedDataNode = try children(contentInfo[1], "ContentInfo content").first else { throw malformed("no SignedData") }
        let fields = try children(signedDataNode, "SignedData")
        guard fields.count >= 3 else { throw malformed("SignedData has \(fields.count) fields") }
        let encapsulated = try children(fields[2], "EncapsulatedContentInfo")
        guard encapsulated.count == 2, encapsulated[0].identifier == .objectIdentifier,
            try ASN1ObjectIdentifier(derEncoded: encapsulated[0]) == contentType
        else { throw malformed("the signed content is not a CSCA master list (2.23.136.1.1.2)") }
        guard let octets = try children(encapsulated[1], "eContent").first else { throw malformed("eContent is empty") }
        return Array(try ASN1OctetString(derEncoded: octets).bytes)
    }

    static func children(_ node: ASN1Node, _ name: String) throws -> [ASN1Node] {
        guard case .constructed(let nodes) = node.content else { throw malformed("\(name) is not constructed") }
        return Array(nodes)
    }

    static func malformed(_ reason: String) -> EMRTDError { EMRTDError(.malformedFile, file: "CSCA master list", reason) }
}
