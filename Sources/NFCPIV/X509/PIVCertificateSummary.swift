/// What a status display shows of an X.509 certificate: subject, issuer, serial (RFC 5280 §4.1).
/// Reading never traps; certificates this reader cannot follow give `nil`.
public struct PIVCertificateSummary: Sendable, Hashable {
    /// The subject as `CN=…, O=…` (RFC 4514 order reversed as printed by OpenSSL: first RDN first).
    public var subject: String
    /// The issuer, in the same form as ``subject``.
    public var issuer: String
    /// The serial number's bytes.
    public var serialNumber: [UInt8]
    /// The subjectPublicKeyInfo's key bytes (the BIT STRING's contents after the unused-bits byte).
    public var publicKey: [UInt8]

    /// Reads a DER certificate; nil when it is not one.
    public init?(der: [UInt8]) {
        guard let outer = try? BERTLV.parseAll(der), outer.count == 1, outer[0].tag == 0x30,
            let parts = try? BERTLV.parseAll(outer[0].value), let tbs = parts.first, tbs.tag == 0x30,
            var fields = try? BERTLV.parseAll(tbs.value)
        else { return nil }
        if fields.first?.tag == 0xA0 { fields.removeFirst() }
        guard fields.count >= 6, fields[0].tag == 0x02, fields[2].tag == 0x30, fields[4].tag == 0x30, fields[5].tag == 0x30,
            let issuer = Self.name(fields[2].value), let subject = Self.name(fields[4].value),
            let spki = try? BERTLV.parseAll(fields[5].value), spki.count == 2, spki[1].tag == 0x03, !spki[1].value.isEmpty
        else { return nil }
        self.subject = subject
        self.issuer = issuer
        serialNumber = fields[0].value
        publicKey = Array(spki[1].value.dropFirst())
    }

    static let attributeNames: [String: String] = [
        "2.5.4.3": "CN", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST", "2.5.4.10": "O", "2.5.4.11": "OU",
        "0.9.2342.19200300.100.1.25": "DC", "0.9.2342.19200300.100.1.1": "UID", "1.2.840.113549.1.9.1": "emailAddress",
    ]

    /// A Name's RDNs as `CN=x, O=y`.
    static func name(_ contents: [UInt8]) -> String? {
        guard let sets = try? BERTLV.parseAll(contents) else { return nil }
        var parts: [String] = []
        for set in sets {
            guard set.tag == 0x31, let attributes = try? BERTLV.parseAll(set.value) else { return nil }
            for attribute in attributes {
                guard attribute.tag == 0x30, let pair = try? BERTLV.parseAll(attribute.value), pair.count == 2, pair[0].tag == 0x06,
                    let oid = DER.dotted(objectIdentifier: pair[0].value)
                else { return nil }
                let value = String(decoding: pair[1].value, as: UTF8.self)
                parts.append("\(attributeNames[oid] ?? oid)=\(value)")
            }
        }
        return parts.joined(separator: ", ")
    }
}
