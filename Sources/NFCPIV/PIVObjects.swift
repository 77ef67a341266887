import ISO7816

/// The application property template SELECT answers (SP 800-73-4 Part 1 §3.1.1, tag `61`).
public struct PIVApplicationProperties: Sendable, Hashable {
    /// `4F`: the application identifier (the PIX `00 00 10 00 01 00` or the full AID).
    public var applicationIdentifier: [UInt8]
    /// `79/4F`: the coexistent tag allocation authority (`A0 00 00 03 08`), when present.
    public var tagAllocationAuthority: [UInt8]?
    /// `50`: the application label, when present.
    public var label: String?
    /// `5F50`: the URL of the application's provider, when present.
    public var url: String?
    /// `AC/80`: the cryptographic algorithms the card supports (unknown identifiers kept raw).
    public var algorithms: [UInt8]

    /// Parses the response data of SELECT.
    /// - Throws: ``PIVError/malformedResponse(command:field:offset:reason:)``.
    public init(parsing data: [UInt8]) throws(PIVError) {
        let outer = try PIVParse.objects(data, command: "SELECT", field: "application property template")
        guard let template = outer.first(tag: 0x61) else {
            throw .malformedResponse(command: "SELECT", field: "61", offset: 0, reason: "no application property template")
        }
        let inner = try PIVParse.objects(template.value, command: "SELECT", field: "61")
        guard let identifier = inner.first(tag: 0x4F) else {
            throw .malformedResponse(command: "SELECT", field: "61/4F", offset: nil, reason: "no application identifier")
        }
        applicationIdentifier = identifier.value
        if let authority = inner.first(tag: 0x79) {
            tagAllocationAuthority = try PIVParse.objects(authority.value, command: "SELECT", field: "61/79").first(tag: 0x4F)?.value
        }
        label = inner.first(tag: 0x50).map { String(decoding: $0.value, as: UTF8.self) }
        url = inner.first(tag: 0x5F50).map { String(decoding: $0.value, as: UTF8.self) }
        algorithms = []
        if let list = inner.first(tag: 0xAC) {
            for item in try PIVParse.objects(list.value, command: "SELECT", field: "61/AC") where item.tag == 0x80 {
                guard item.value.count == 1 else {
                    throw .malformedResponse(
                        command: "SELECT", field: "61/AC/80", offset: nil,
                        reason: "an algorithm identifier has 1 byte, not \(item.value.count)")
                }
                algorithms.append(item.value[0])
            }
        }
    }
}

/// The Card Holder Unique Identifier (SP 800-73-4 Part 1 §3.1.2, tag `5FC102`).
public struct PIVCHUID: Sendable, Hashable {
    /// `30`: the FASC-N, 25 bytes.
    public var fascN: [UInt8]?
    /// `34`: the GUID, 16 bytes.
    public var guid: [UInt8]?
    /// `35`: the expiration date, `YYYYMMDD`.
    public var expirationDate: String?
    /// `3E`: the issuer's asymmetric signature (CMS), empty when unsigned.
    public var issuerSignature: [UInt8]
    /// Every element, in order, as read.
    public var elements: [BERTLV]

    /// Parses the contents of the object (the value of `53`).
    /// - Throws: ``PIVError/malformedResponse(command:field:offset:reason:)`` when the contents are not BER-TLV
    ///   or the GUID is not 16 bytes.
    public init(parsing contents: [UInt8]) throws(PIVError) {
        elements = try PIVParse.objects(contents, command: "GET DATA", field: "CHUID")
        fascN = elements.first(tag: 0x30)?.value
        guid = elements.first(tag: 0x34)?.value
        expirationDate = elements.first(tag: 0x35).map { String(decoding: $0.value, as: UTF8.self) }
        issuerSignature = elements.first(tag: 0x3E)?.value ?? []
        if let guid, guid.count != 16 {
            throw .malformedResponse(command: "GET DATA", field: "CHUID/34", offset: nil, reason: "a GUID has 16 bytes, not \(guid.count)")
        }
    }
}

/// The Card Capability Container (SP 800-73-4 Part 1 §3.1.1, tag `5FC107`).
public struct PIVCCC: Sendable, Hashable {
    /// `F0`: the card identifier (GSC-RID, manufacturer, card type, card ID).
    public var cardIdentifier: [UInt8]?
    /// `F1`: the capability container version.
    public var containerVersion: UInt8?
    /// `F2`: the capability grammar version.
    public var grammarVersion: UInt8?
    /// `F5`: the data model number (`10` for PIV).
    public var dataModel: UInt8?
    /// Every element, in order, as read.
    public var elements: [BERTLV]

    /// Parses the contents of the object (the value of `53`); an absent element gives `nil`.
    /// - Throws: ``PIVError/malformedResponse(command:field:offset:reason:)`` when the contents are not BER-TLV.
    public init(parsing contents: [UInt8]) throws(PIVError) {
        elements = try PIVParse.objects(contents, command: "GET DATA", field: "CCC")
        cardIdentifier = elements.first(tag: 0xF0)?.value
        containerVersion = elements.first(tag: 0xF1)?.value.first
        grammarVersion = elements.first(tag: 0xF2)?.value.first
        dataModel = elements.first(tag: 0xF5)?.value.first
    }
}

/// The discovery object (SP 800-73-4 Part 1 §3.3.2, tag `7E`).
public struct PIVDiscoveryObject: Sendable, Hashable {
    /// `4F`: the PIV AID.
    public var aid: [UInt8]
    /// `5F2F`: the PIN usage policy, two bytes.
    public var pinUsagePolicy: [UInt8]

    /// Whether the PIV application PIN satisfies access conditions (first byte b7).
    public var applicationPINSupported: Bool { (pinUsagePolicy.first ?? 0) & 0x40 != 0 }
    /// Whether the global PIN satisfies them (first byte b6).
    public var globalPINSupported: Bool { (pinUsagePolicy.first ?? 0) & 0x20 != 0 }

    /// Parses the whole `7E` object as GET DATA returns it.
    public init(parsing data: [UInt8]) throws(PIVError) {
        let outer = try PIVParse.objects(data, command: "GET DATA", field: "discovery object")
        guard let object = outer.first(tag: 0x7E) else {
            throw .malformedResponse(command: "GET DATA", field: "7E", offset: 0, reason: "not a discovery object")
        }
        let inner = try PIVParse.objects(object.value, command: "GET DATA", field: "7E")
        guard let aid = inner.first(tag: 0x4F)?.value else {
            throw .malformedResponse(command: "GET DATA", field: "7E/4F", offset: nil, reason: "no AID")
        }
        guard let policy = inner.first(tag: 0x5F2F)?.value, policy.count == 2 else {
            throw .malformedResponse(command: "GET DATA", field: "7E/5F2F", offset: nil, reason: "the PIN usage policy has 2 bytes")
        }
        self.aid = aid
        pinUsagePolicy = policy
    }
}

/// An X.509 certificate data object (SP 800-73-4 Part 1 Appendix A, Table 10 ff.):
/// `70` certificate, `71` CertInfo (b0 set: the certificate is gzip-compressed), `FE` LRC.
public struct PIVCertificateContainer: Sendable, Hashable {
    /// The certificate bytes: DER, or gzip data when ``isCompressed``.
    public var certificate: [UInt8]
    /// CertInfo says the certificate is gzip-compressed; this client reports it and does not inflate.
    public var isCompressed: Bool

    /// A container for `certificate` (DER, or gzip data when `isCompressed` is true).
    public init(certificate: [UInt8], isCompressed: Bool = false) {
        self.certificate = certificate
        self.isCompressed = isCompressed
    }

    /// Parses the contents of the object (the value of `53`).
    public init(parsing contents: [UInt8]) throws(PIVError) {
        let elements = try PIVParse.objects(contents, command: "GET DATA", field: "certificate object")
        guard let certificate = elements.first(tag: 0x70) else {
            throw .malformedResponse(command: "GET DATA", field: "70", offset: nil, reason: "the certificate object holds no certificate")
        }
        self.certificate = certificate.value
        let info = elements.first(tag: 0x71)?.value ?? []
        isCompressed = (info.first ?? 0) & 0x01 != 0
    }

    /// The object's contents for PUT DATA: `70`, `71`, `FE` (empty LRC, as the spec allows).
    public var contents: [UInt8] {
        BERTLV(tag: 0x70, value: certificate).encoded + BERTLV(tag: 0x71, value: [isCompressed ? 0x01 : 0x00]).encoded
            + BERTLV(tag: 0xFE, value: []).encoded
    }
}

/// Parsing helpers that turn ``BERTLVError`` into ``PIVError`` naming the command and field.
enum PIVParse {
    static func objects(_ bytes: [UInt8], command: String, field: String) throws(PIVError) -> [BERTLV] {
        do {
            return try BERTLV.parseAll(bytes)
        } catch {
            throw .malformedResponse(command: command, field: field, offset: error.offset, reason: error.reason)
        }
    }

    /// The one object of `tag` that fills `bytes`, or an error naming what was found instead.
    static func single(_ tag: UInt32, in bytes: [UInt8], command: String) throws(PIVError) -> BERTLV {
        let list = try objects(bytes, command: command, field: BERTLV.hex(tag))
        guard let object = list.first(tag: tag) else {
            throw .malformedResponse(
                command: command, field: BERTLV.hex(tag), offset: 0,
                reason: list.isEmpty ? "empty response" : "expected tag \(BERTLV.hex(tag)), found \(BERTLV.hex(list[0].tag))")
        }
        return object
    }
}
