import NFCBytes

/// The NFC Forum Signature record (well-known type `Sig`), structure only.
///
/// NFC Forum Signature RTD 2.0 §3.3: version (0x20); signature field (bit 7: URI present,
/// bits 6–0: signature type; hash type; 16-bit length; the signature or its URI); certificate
/// chain field (bit 7: URI present, bits 6–4: certificate format, bits 3–0: number of
/// certificates; each certificate with a 16-bit length; then the chain URI with a 16-bit length
/// if present). Verifying signatures is not done here.
public struct SignatureRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The well-known type name, `Sig`.
    public static let recordType: [UInt8] = Array("Sig".utf8)
    /// The version this structure follows.
    public static let version2: UInt8 = 0x20

    /// The version byte (``version2``, `0x20`, is the only one strict decoding accepts).
    public var version: UInt8
    /// Signature type (e.g. 0x0B ECDSA-P256 in RTD 2.0 Table 4); 7 bits.
    public var signatureType: UInt8
    /// Hash type (e.g. 0x02 SHA-256).
    public var hashType: UInt8
    /// The signature bytes (empty when ``signatureURI`` is used).
    public var signature: [UInt8]
    /// Where the signature can be fetched, instead of carrying it.
    public var signatureURI: String?
    /// Certificate format (0 X.509, 1 M2M); 3 bits.
    public var certificateFormat: UInt8
    /// The certificate chain (at most 15).
    public var certificates: [[UInt8]]
    /// Where the rest of the chain can be fetched.
    public var certificateURI: String?

    /// A record with these fields; they are checked by ``record()``.
    public init(
        version: UInt8 = SignatureRecord.version2, signatureType: UInt8, hashType: UInt8, signature: [UInt8] = [],
        signatureURI: String? = nil, certificateFormat: UInt8 = 0, certificates: [[UInt8]] = [],
        certificateURI: String? = nil
    ) {
        self.version = version
        self.signatureType = signatureType
        self.hashType = hashType
        self.signature = signature
        self.signatureURI = signatureURI
        self.certificateFormat = certificateFormat
        self.certificates = certificates
        self.certificateURI = certificateURI
    }

    /// Interprets a well-known `Sig` record.
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type; ``NDEFError/Code/invalidPayload`` when the
    ///   payload is cut short and, in strict mode, for a version other than `0x20`, a URI with control characters or
    ///   bytes after the certificate chain; in strict mode ``NDEFError/Code/invalidEncoding`` for a URI that is not UTF-8.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        try record.expect(.wellKnown, Self.recordType, "Signature")
        let strict = options.isStrict
        var r = ByteReader(record.payload)
        do {
            version = try r.readUInt8()
            if strict && version != Self.version2 {
                throw NDEFError(.invalidPayload, "Signature version 0x\(Hex.encode([version])) is not supported (0x20 is)")
            }
            let sigFlags = try r.readUInt8()
            signatureType = sigFlags & 0x7F
            hashType = try r.readUInt8()
            let sigLength = Int(try r.readUInt16())
            let sigBytes = try r.readSlice(sigLength)
            if sigFlags & 0x80 != 0 {
                signatureURI = try Self.uri(sigBytes, strict: strict, field: "signature URI")
                signature = []
            } else {
                signatureURI = nil
                signature = Array(sigBytes)
            }
            let certFlags = try r.readUInt8()
            certificateFormat = (certFlags >> 4) & 0x07
            var certs: [[UInt8]] = []
            for _ in 0..<Int(certFlags & 0x0F) {
                let n = Int(try r.readUInt16())
                certs.append(try r.readBytes(n))
            }
            certificates = certs
            if certFlags & 0x80 != 0 {
                let n = Int(try r.readUInt16())
                certificateURI = try Self.uri(try r.readSlice(n), strict: strict, field: "certificate URI")
            } else {
                certificateURI = nil
            }
        } catch let error as ByteReaderError {
            throw NDEFError(.invalidPayload, "Signature payload cut short at byte \(error.offset)")
        } catch let error as NDEFError {
            throw error
        } catch {
            throw NDEFError(.invalidPayload, "Signature payload: \(error)")
        }
        if strict && !r.isAtEnd {
            throw NDEFError(.invalidPayload, "Signature payload has \(r.remaining) bytes after the certificate chain")
        }
    }

    private static func uri(_ bytes: ArraySlice<UInt8>, strict: Bool, field: String) throws(NDEFError) -> String {
        let s = try TextCoding.utf8(bytes, strict: strict, field: field)
        if strict && s.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            throw NDEFError(.invalidPayload, "\(field) holds control characters")
        }
        return s
    }

    /// The well-known `Sig` record; a ``signatureURI`` is written instead of ``signature`` when set.
    /// - Throws: ``NDEFError/Code/invalidValue`` for a signature type over 7 bits, a certificate format over 3 bits or
    ///   more than 15 certificates; ``NDEFError/Code/fieldTooLong`` for a signature, certificate or URI over 65,535 bytes.
    public func record() throws(NDEFError) -> NDEFRecord {
        guard signatureType <= 0x7F, certificateFormat <= 7 else {
            throw NDEFError(.invalidValue, "signature type is 7 bits and certificate format 3 bits")
        }
        guard certificates.count <= 15 else {
            throw NDEFError(.invalidValue, "a Signature record carries at most 15 certificates, not \(certificates.count)")
        }
        var w = ByteWriter()
        w.write(version)
        let sig: [UInt8] = signatureURI.map { Array($0.utf8) } ?? signature
        guard sig.count <= 0xFFFF else { throw NDEFError(.fieldTooLong, "signature longer than 65535 bytes") }
        w.write((signatureURI != nil ? 0x80 : 0) | signatureType)
        w.write(hashType)
        w.write(UInt16(sig.count))
        w.write(contentsOf: sig)
        w.write((certificateURI != nil ? 0x80 : 0) | certificateFormat << 4 | UInt8(certificates.count))
        for cert in certificates {
            guard cert.count <= 0xFFFF else { throw NDEFError(.fieldTooLong, "certificate longer than 65535 bytes") }
            w.write(UInt16(cert.count))
            w.write(contentsOf: cert)
        }
        if let certificateURI {
            let bytes = Array(certificateURI.utf8)
            guard bytes.count <= 0xFFFF else { throw NDEFError(.fieldTooLong, "certificate URI longer than 65535 bytes") }
            w.write(UInt16(bytes.count))
            w.write(contentsOf: bytes)
        }
        return NDEFRecord(typeNameFormat: .wellKnown, type: Self.recordType, payload: w.bytes)
    }
}
