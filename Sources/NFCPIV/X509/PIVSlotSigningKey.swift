import Crypto
import Foundation
import SwiftASN1
import X509

/// A PIV slot's P-256 private key as swift-certificates sees it: a `CustomPrivateKey` whose
/// signatures are made by the card (GENERAL AUTHENTICATE, NIST SP 800-73-4 Part 2 §3.2.4), so a
/// certificate for a key that never leaves the card is built and signed by swift-certificates'
/// own `Certificate` initializer.
///
/// Signing is asynchronous only (it is an APDU exchange); `signSynchronously` throws. The key
/// cannot be serialized: it exists only on the card.
public struct PIVSlotSigningKey: CustomPrivateKey {
    /// The PEM discriminator swift-asn1 asks for; never used, as the key cannot be exported.
    public static let defaultPEMDiscriminator = "PIV SLOT KEY"

    /// The slot holding the key.
    public let slot: PIVSlot
    /// The slot's public key, as the card returned it from GENERATE ASYMMETRIC KEY PAIR.
    public let publicKey: Certificate.PublicKey
    private let client: PIVClient

    /// The key in `slot` of the card behind `client`, whose public half is `publicKey`. The card
    /// signs only after the PIN where the slot's policy asks for it (`PIVClient.verifyPIN`).
    public init(client: PIVClient, slot: PIVSlot, publicKey: P256.Signing.PublicKey) {
        self.client = client
        self.slot = slot
        self.publicKey = Certificate.PublicKey(publicKey)
    }

    /// ecdsa-with-SHA256: the only signature a PIV P-256 slot makes here.
    public var defaultSignatureAlgorithm: Certificate.SignatureAlgorithm { .ecdsaWithSHA256 }

    /// ecdsa-with-SHA256 alone (the digest is computed on the host, the card signs the digest).
    public var supportedSignatureAlgorithms: [Certificate.SignatureAlgorithm] { [.ecdsaWithSHA256] }

    /// Always throws `PIVError.invalidArgument`: the card signs only through an exchange, so use
    /// swift-certificates' `async` initializers (`issuerAsyncPrivateKey:`).
    public func signSynchronously(bytes: some DataProtocol, signatureAlgorithm: Certificate.SignatureAlgorithm) throws
        -> Certificate.Signature
    {
        throw PIVError.invalidArgument("a PIV slot key signs only asynchronously (it is an exchange with the card)")
    }

    /// Hashes `bytes` with SHA-256 and has the card sign the digest with the slot's key.
    /// - Throws: `PIVError` from the card (PIN not verified, no key in the slot, …), or
    ///   `.invalidArgument` for any algorithm other than ecdsa-with-SHA256.
    public func signAsynchronously(bytes: some DataProtocol & Sendable, signatureAlgorithm: Certificate.SignatureAlgorithm)
        async throws -> Certificate.Signature
    {
        guard signatureAlgorithm == .ecdsaWithSHA256 else {
            throw PIVError.invalidArgument("a PIV P-256 slot signs with ecdsa-with-SHA256, not \(signatureAlgorithm)")
        }
        let signature = try await client.sign(slot: slot, message: Array(bytes))
        return try Certificate.Signature(signatureAlgorithm: signatureAlgorithm, signatureBytes: ASN1BitString(bytes: signature[...]))
    }

    /// Always throws: the private key never leaves the card.
    public func serialize(into coder: inout DER.Serializer) throws {
        throw PIVError.invalidArgument("a PIV slot key cannot be exported: it exists only on the card")
    }

    /// Equal when slot and public key are (the client is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.slot == rhs.slot && lhs.publicKey == rhs.publicKey
    }

    /// Hashes slot and public key, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(slot)
        hasher.combine(publicKey)
    }
}

extension PIVClient {
    /// A self-signed X.509 v3 certificate for the P-256 key in `slot`, built and signed through
    /// swift-certificates with the card as the signer (``PIVSlotSigningKey``): subject and issuer
    /// `CN=commonName`, ecdsa-with-SHA256, basicConstraints CA false and keyUsage digitalSignature
    /// and keyAgreement, both critical (RFC 5280 §4.2.1.9, §4.2.1.3). Validity times are whole
    /// seconds, UTCTime through 2049 and GeneralizedTime after (RFC 5280 §4.1.2.5, which
    /// swift-certificates applies).
    ///
    /// - Parameters:
    ///   - slot: the slot whose key signs (and is certified); verify the PIN first where its policy asks.
    ///   - publicKey: the slot's public key, as `generateKey(slot:)` returned it.
    ///   - commonName: the subject's (and issuer's) common name.
    ///   - serialNumber: a positive serial of at most 20 bytes (RFC 5280 §4.1.2.2), big-endian.
    ///   - notBefore: the start of the validity period.
    ///   - notAfter: the end of the validity period.
    /// - Returns: the certificate; `PIVCertificateContainer(certificate:)` wraps its DER for PUT DATA.
    public func selfSignedCertificate(
        slot: PIVSlot, publicKey: P256.Signing.PublicKey, commonName: String, serialNumber: [UInt8], notBefore: Date, notAfter: Date
    ) async throws -> Certificate {
        let name = try DistinguishedName { CommonName(commonName) }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true, keyAgreement: true))
        }
        return try await Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(bytes: serialNumber[...]),
            publicKey: Certificate.PublicKey(publicKey),
            notValidBefore: Date(timeIntervalSince1970: notBefore.timeIntervalSince1970.rounded(.down)),
            notValidAfter: Date(timeIntervalSince1970: notAfter.timeIntervalSince1970.rounded(.down)),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerAsyncPrivateKey: Certificate.PrivateKey(PIVSlotSigningKey(client: self, slot: slot, publicKey: publicKey))
        )
    }
}

extension Certificate {
    /// The certificate's DER encoding (RFC 5280 §4.1), e.g. for `PIVCertificateContainer(certificate:)`.
    public var derBytes: [UInt8] {
        get throws {
            var serializer = DER.Serializer()
            try serializer.serialize(self)
            return serializer.serializedBytes
        }
    }
}
