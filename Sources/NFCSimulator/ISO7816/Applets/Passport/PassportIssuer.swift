import Crypto
import Foundation
import SwiftASN1
import X509

/// Personalises a virtual eMRTD: writes the LDS files of ICAO Doc 9303 Part 10 for a
/// ``PassportHolder`` and signs them, as a country's issuing authority would — a test Country
/// Signing CA certifies a Document Signer, which signs EF.SOD (Part 12 for the PKI, Part 10
/// §4.6.2 and RFC 5652 for the CMS structure). **Test keys only**: both are made fresh for every
/// document and neither private key is kept; the CSCA certificate travels with the image.
public enum PassportIssuer {
    /// The issued application and its CSCA certificate (DER).
    /// - Throws: ``TagImageError`` `.invalidValue` naming a field of `holder` that an MRZ cannot hold.
    public static func issue(_ holder: PassportHolder, now: Date = Date()) throws(TagImageError) -> PassportApplet {
        try holder.validate()
        var groups: [(Int, [UInt8])] = [
            (1, dataGroup1(holder)), (2, dataGroup2(holder)), (3, dataGroup3()), (11, dataGroup11(holder)), (12, dataGroup12(now: now)),
        ]
        let chipKeys = ChipKeys(holder)
        do {
            if let group14 = try chipKeys.dataGroup14() { groups.append((14, group14)) }
            if let group15 = chipKeys.dataGroup15() { groups.append((15, group15)) }
            let signed = try securityObject(groups, now: now)
            var files = [PassportApplet.File(identifier: 0x011E, content: com(groups.map(\.0)))]
            files += groups.map { PassportApplet.File(identifier: 0x0100 + UInt16($0.0), content: $0.1) }
            files.append(PassportApplet.File(identifier: 0x011D, content: signed.sod))
            return PassportApplet(
                documentNumber: holder.documentNumber, dateOfBirth: holder.dateOfBirth, dateOfExpiry: holder.dateOfExpiry,
                bac: holder.bac, pace: holder.pace, files: files, cscaCertificate: signed.csca,
                chipAuthentication: chipKeys.chipAuthentication,
                activeAuthenticationKey: chipKeys.activeAuthentication.map { Array($0.rawRepresentation) },
                activeAuthenticationRSAKey: chipKeys.activeAuthenticationRSA.map { Array($0.derRepresentation) })
        } catch {
            throw TagImageError(.invalidValue, field: "", "signing EF.SOD failed: \(error)")
        }
    }

    // MARK: The files (Part 10 §4.6 and §4.7)

    /// EF.COM: LDS 1.7, Unicode 4.0.0, the tags of the groups present.
    static func com(_ numbers: [Int]) -> [UInt8] {
        let tags: [UInt8] = [0x61, 0x75, 0x63, 0x76, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6B, 0x6C, 0x6D, 0x6E, 0x6F, 0x70]
        return tlv(
            0x60,
            tlv(0x5F01, Array("0107".utf8)) + tlv(0x5F36, Array("040000".utf8)) + tlv(0x5C, numbers.map { tags[$0 - 1] }))
    }

    /// DG1: the MRZ in `5F1F`.
    static func dataGroup1(_ holder: PassportHolder) -> [UInt8] {
        tlv(0x61, tlv(0x5F1F, Array(holder.mrzLines.joined().utf8)))
    }

    /// DG2: one biometric information template (`7F61` › `7F60`) with its header (`A1`: ICAO
    /// header version 1.1, type facial features, format owner ISO/IEC JTC 1/SC 37, format type 8)
    /// and an ISO/IEC 19794-5:2005 facial record holding the image (§5.4 header, §5.5 facial
    /// information, §5.7 image information).
    static func dataGroup2(_ holder: PassportHolder) -> [UInt8] {
        let image = holder.face ?? PassportSampleFace.jpeg
        let (width, height, isJPEG) = holder.face.map(imageSize) ?? (PassportSampleFace.width, PassportSampleFace.height, true)
        var facialInformation: [UInt8] = be32(20 + 12 + image.count)  // block length
        facialInformation += [0x00, 0x00]  // feature points
        facialInformation += [holder.sex == "M" ? 1 : holder.sex == "F" ? 2 : 0, 0, 0]  // gender, eye and hair colour
        facialInformation += [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]  // feature mask, expression, pose angles and uncertainty
        var imageInformation: [UInt8] = [0x01, isJPEG ? 0x00 : 0x01]  // full frontal; JPEG or JPEG 2000
        imageInformation += [UInt8(truncatingIfNeeded: width >> 8), UInt8(truncatingIfNeeded: width)]
        imageInformation += [UInt8(truncatingIfNeeded: height >> 8), UInt8(truncatingIfNeeded: height)]
        imageInformation += [0x01, 0x02, 0x00, 0x00, 0x00, 0x00]  // sRGB, static photo (unknown source), device, quality
        let record =
            Array("FAC\0".utf8) + Array("010\0".utf8) + be32(14 + facialInformation.count + imageInformation.count + image.count)
            + [0x00, 0x01] + facialInformation + imageInformation + image
        let header = tlv(0x80, [0x01, 0x01]) + tlv(0x81, [0x02]) + tlv(0x87, [0x01, 0x01]) + tlv(0x88, [0x00, 0x08])
        let template = tlv(0x7F60, tlv(0xA1, header) + tlv(0x5F2E, record))
        return tlv(0x75, tlv(0x7F61, tlv(0x02, [0x01]) + template))
    }

    /// DG3: a fingerprint group with no templates (present, so EF.COM lists it and a reader
    /// without extended access control meets `6982`, as on a European passport).
    static func dataGroup3() -> [UInt8] { tlv(0x63, tlv(0x7F61, tlv(0x02, [0x00]))) }

    /// DG11: full name, full date of birth, place of birth (Part 10 §4.7.11).
    static func dataGroup11(_ holder: PassportHolder) -> [UInt8] {
        let year = Int(holder.dateOfBirth.prefix(2)) ?? 0
        let century = year > 30 ? "19" : "20"
        let name =
            holder.surname.replacingOccurrences(of: " ", with: "<") + "<<" + holder.givenNames.replacingOccurrences(of: " ", with: "<")
        return tlv(
            0x6B,
            tlv(0x5C, [0x5F, 0x0E, 0x5F, 0x2B, 0x5F, 0x11]) + tlv(0x5F0E, Array(name.utf8))
                + tlv(0x5F2B, Array((century + holder.dateOfBirth).utf8)) + tlv(0x5F11, Array(holder.placeOfBirth.utf8)))
    }

    /// DG12: issuing authority and date of issue (Part 10 §4.7.12).
    static func dataGroup12(now: Date) -> [UInt8] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd"
        return tlv(
            0x6C,
            tlv(0x5C, [0x5F, 0x19, 0x5F, 0x26]) + tlv(0x5F19, Array("OPENCORENFC TEST AUTHORITY".utf8))
                + tlv(0x5F26, Array(formatter.string(from: now).utf8)))
    }

    // MARK: EF.SOD

    /// The CSCA and Document Signer, and EF.SOD signing the groups' SHA-256 hashes.
    static func securityObject(_ groups: [(Int, [UInt8])], now: Date) throws -> (sod: [UInt8], csca: [UInt8]) {
        let cscaKey = P256.Signing.PrivateKey()
        let signerKey = P256.Signing.PrivateKey()
        let cscaName = try DistinguishedName {
            CountryName("UT")
            OrganizationName("OpenCoreNFC test PKI")
            CommonName("OpenCoreNFC test CSCA")
        }
        let signerName = try DistinguishedName {
            CountryName("UT")
            OrganizationName("OpenCoreNFC test PKI")
            CommonName("OpenCoreNFC test Document Signer")
        }
        let start = now.addingTimeInterval(-86_400)
        let csca = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(cscaKey.publicKey),
            notValidBefore: start, notValidAfter: now.addingTimeInterval(15 * 365 * 86_400), issuer: cscaName, subject: cscaName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            }, issuerPrivateKey: Certificate.PrivateKey(cscaKey))
        let signer = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(signerKey.publicKey),
            notValidBefore: start, notValidAfter: now.addingTimeInterval(10 * 365 * 86_400), issuer: cscaName, subject: signerName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { Critical(KeyUsage(digitalSignature: true)) },
            issuerPrivateKey: Certificate.PrivateKey(cscaKey))

        // LDSSecurityObject (Part 10 §4.6.2.2): version 0, SHA-256, one hash per group.
        var lds = DER.Serializer()
        try lds.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(0)
            try Self.algorithm(sha256OID, into: &coder)
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                for (number, bytes) in groups {
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.serialize(number)
                        try coder.serialize(ASN1OctetString(contentBytes: Array(SHA256.hash(data: bytes))[...]))
                    }
                }
            }
        }
        let content = lds.serializedBytes

        // Signed attributes (RFC 5652 §5.3): contentType, then messageDigest — DER's SET OF order.
        func attributes(_ coder: inout DER.Serializer) throws {
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(contentTypeOID)
                try coder.appendConstructedNode(identifier: .set) { coder in try coder.serialize(ldsSecurityObjectOID) }
            }
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(messageDigestOID)
                try coder.appendConstructedNode(identifier: .set) { coder in
                    try coder.serialize(ASN1OctetString(contentBytes: Array(SHA256.hash(data: content))[...]))
                }
            }
        }
        var signedAttributes = DER.Serializer()
        try signedAttributes.appendConstructedNode(identifier: .set) { try attributes(&$0) }
        let signature = try signerKey.signature(for: signedAttributes.serializedBytes).derRepresentation

        let contextZero = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
        var sod = DER.Serializer()
        try sod.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(signedDataOID)
            try coder.appendConstructedNode(identifier: contextZero) { coder in
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(3)
                    try coder.appendConstructedNode(identifier: .set) { try Self.algorithm(sha256OID, into: &$0) }
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.serialize(ldsSecurityObjectOID)
                        try coder.appendConstructedNode(identifier: contextZero) { coder in
                            try coder.serialize(ASN1OctetString(contentBytes: content[...]))
                        }
                    }
                    try coder.appendConstructedNode(identifier: contextZero) { try $0.serialize(signer) }
                    try coder.appendConstructedNode(identifier: .set) { coder in
                        try coder.appendConstructedNode(identifier: .sequence) { coder in
                            try coder.serialize(1)
                            try coder.appendConstructedNode(identifier: .sequence) { coder in
                                try coder.serialize(signer.issuer)
                                coder.appendPrimitiveNode(identifier: .integer) {
                                    $0.append(contentsOf: derInteger(signer.serialNumber.bytes))
                                }
                            }
                            try Self.algorithm(sha256OID, into: &coder)
                            try coder.appendConstructedNode(identifier: contextZero) { try attributes(&$0) }
                            try Self.algorithm(ecdsaWithSHA256OID, into: &coder)
                            try coder.serialize(ASN1OctetString(contentBytes: Array(signature)[...]))
                        }
                    }
                }
            }
        }
        var cscaDER = DER.Serializer()
        try cscaDER.serialize(csca)
        return (tlv(0x77, sod.serializedBytes), cscaDER.serializedBytes)
    }

    static let sha256OID: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    static let ecdsaWithSHA256OID: ASN1ObjectIdentifier = [1, 2, 840, 10_045, 4, 3, 2]
    static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    static let contentTypeOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 3]
    static let messageDigestOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 4]
    /// id-icao-mrtd-security-ldsSecurityObject (Part 10 §4.6.2.2).
    static let ldsSecurityObjectOID: ASN1ObjectIdentifier = [2, 23, 136, 1, 1, 1]

    /// An AlgorithmIdentifier without parameters.
    static func algorithm(_ oid: ASN1ObjectIdentifier, into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { try $0.serialize(oid) }
    }

    // MARK: Bytes

    /// A BER-TLV object with a one- or two-byte tag.
    static func tlv(_ tag: UInt16, _ value: [UInt8]) -> [UInt8] {
        let tagBytes: [UInt8] = tag > 0xFF ? [UInt8(tag >> 8), UInt8(tag & 0xFF)] : [UInt8(tag)]
        return tagBytes + PassportApplet.lengthField(value.count) + value
    }

    /// A non-negative integer's DER content: a `00` before a first byte with its top bit set (X.690 §8.3.2).
    static func derInteger(_ magnitude: ArraySlice<UInt8>) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return bytes
    }

    static func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    /// Width, height and whether the image is JPEG: from a JPEG's start-of-frame marker (ISO/IEC
    /// 10918-1 §B.2.2), else JPEG 2000 of unknown size.
    static func imageSize(_ image: [UInt8]) -> (Int, Int, Bool) {
        guard image.starts(with: [0xFF, 0xD8]) else { return (0, 0, false) }
        var index = 2
        while index + 9 < image.count {
            guard image[index] == 0xFF else { return (0, 0, true) }
            let marker = image[index + 1]
            let length = Int(image[index + 2]) << 8 | Int(image[index + 3])
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (Int(image[index + 7]) << 8 | Int(image[index + 8]), Int(image[index + 5]) << 8 | Int(image[index + 6]), true)
            }
            index += 2 + length
        }
        return (0, 0, true)
    }
}
