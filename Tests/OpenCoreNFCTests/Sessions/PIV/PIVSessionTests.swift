import Crypto
import Foundation
import ISO7816
import NFCPIV
import NFCSimulator
import OpenCoreNFC
import Testing
import X509

/// The PIV client against the emulated PIV applet of a `security-key` card, through
/// `NFCTagReaderSession` and `tag.apduTransmitter` on the simulated field.
extension SessionTests {
    @Suite struct PIVSessionTests {
        static let configuration = NFCAppConfiguration(
            usageDescription: "Signs with a PIV card.", readerSessionFormats: [.tag],
            iso7816SelectIdentifiers: ["A000000308000010000100"]
        )
        static let defaultKey: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]

        /// Runs `body` with a PIV client on a fresh security key held in a tag reader session.
        func withClient(_ body: (PIVClient) async throws -> Void) async throws {
            let bench = await SessionBench([try VirtualTagKind.securityKey.make()], configuration: Self.configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil))
            // A failing body must not leave the session running for the next test to wait on.
            defer { session.invalidate() }
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first,
                case .iso7816(let iso7816) = tag
            else {
                Issue.record("expected an ISO 7816 tag")
                return
            }
            try await session.connect(to: tag)
            let client = PIVClient(transmitter: iso7816.apduTransmitter)
            try await body(client)
            _ = bench
        }

        @Test func selectAndReadObjects() async throws {
            try await withClient { client in
                let properties = try await client.select()
                #expect(properties.applicationIdentifier == [0x00, 0x00, 0x10, 0x00, 0x01, 0x00])
                #expect(properties.tagAllocationAuthority == PIVApplication.aid)
                #expect(properties.algorithms.contains(PIVAlgorithm.eccP256.rawValue))
                let chuid = try #require(try await client.readCHUID())
                #expect(chuid.fascN?.count == 25)
                #expect(chuid.guid?.count == 16)
                #expect(chuid.expirationDate?.count == 8)
                let ccc = try #require(try await client.readCCC())
                #expect(ccc.dataModel == 0x10)
                #expect(ccc.cardIdentifier?.prefix(5) == [0xA0, 0x00, 0x00, 0x01, 0x16])
                let discovery = try #require(try await client.readDiscovery())
                #expect(discovery.aid.starts(with: PIVApplication.aid))
                #expect(discovery.applicationPINSupported && !discovery.globalPINSupported)
                #expect(try await client.readCertificate(slot: .authentication) == nil)
            }
        }

        @Test func pinWrongBlockedAndUnblocked() async throws {
            try await withClient { client in
                try await client.select()
                #expect(try await client.pinStatus() == .notVerified(retriesLeft: 3))
                await #expect(throws: PIVError.wrongReference(.pin, retriesLeft: 2)) { try await client.verifyPIN("654321") }
                await #expect(throws: PIVError.wrongReference(.pin, retriesLeft: 1)) { try await client.verifyPIN("111111") }
                // A right PIN restores the counter.
                try await client.verifyPIN("123456")
                #expect(try await client.pinStatus() == .verified)
                for expected in [2, 1] {
                    await #expect(throws: PIVError.wrongReference(.pin, retriesLeft: expected)) { try await client.verifyPIN("000000") }
                }
                await #expect(throws: PIVError.blocked(.pin)) { try await client.verifyPIN("000000") }
                await #expect(throws: PIVError.blocked(.pin)) { try await client.verifyPIN("123456") }
                #expect(try await client.pinStatus() == .blocked)
                // A wrong PUK counts down; the right one sets a new PIN.
                await #expect(throws: PIVError.wrongReference(.puk, retriesLeft: 2)) {
                    try await client.unblockPIN(puk: "87654321", newPIN: "246810")
                }
                try await client.unblockPIN(puk: "12345678", newPIN: "246810")
                await #expect(throws: PIVError.wrongReference(.pin, retriesLeft: 2)) { try await client.verifyPIN("123456") }
                try await client.verifyPIN("246810")
                try await client.changeReferenceData(.pin, old: "246810", new: "13579135")
                try await client.verifyPIN("13579135")
                try await client.changeReferenceData(.puk, old: "12345678", new: "abcdefgh")
                await #expect(throws: PIVError.wrongReference(.puk, retriesLeft: 2)) {
                    try await client.unblockPIN(puk: "12345678", newPIN: "123456")
                }
                // Selecting again forgets the verification.
                try await client.select()
                #expect(try await client.pinStatus() == .notVerified(retriesLeft: 3))
            }
        }

        @Test func managementKeyAuthentication() async throws {
            try await withClient { client in
                try await client.select()
                // PUT DATA and GENERATE need the key.
                await #expect(throws: PIVError.securityStatusNotSatisfied(command: "GENERATE ASYMMETRIC KEY PAIR 9a")) {
                    _ = try await client.generateKey(slot: .authentication)
                }
                var wrong = Self.defaultKey
                wrong[0] ^= 0xFF
                await #expect(throws: PIVError.managementKeyRejected) { try await client.authenticate(managementKey: wrong) }
                await #expect(throws: PIVError.managementKeyRejected) {
                    try await client.authenticate(managementKey: Array(Self.defaultKey.prefix(16)), algorithm: .aes128)
                }
                await #expect(throws: PIVError.unsupported("3DES management keys are not supported (swift-crypto has no 3DES); use AES")) {
                    try await client.authenticate(managementKey: Self.defaultKey, algorithm: .tripleDES)
                }
                try await client.authenticate(managementKey: Self.defaultKey)
                _ = try await client.generateKey(slot: .cardAuthentication)
            }
        }

        @Test func generateSignVerifyAndPINPolicies() async throws {
            try await withClient { client in
                try await client.select()
                try await client.authenticate(managementKey: Self.defaultKey)
                let key9a = try await client.generateKey(slot: .authentication)
                let key9c = try await client.generateKey(slot: .signature)
                let key9e = try await client.generateKey(slot: .cardAuthentication)
                let message = Array("sign me".utf8)
                // 9E needs no PIN.
                let signature9e = try await client.sign(slot: .cardAuthentication, message: message)
                #expect(
                    key9e.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature9e), for: SHA256.hash(data: message))
                )
                // 9A needs the PIN once.
                await #expect(throws: PIVError.securityStatusNotSatisfied(command: "GENERAL AUTHENTICATE 9a (sign)")) {
                    _ = try await client.sign(slot: .authentication, message: message)
                }
                try await client.verifyPIN("123456")
                for _ in 0..<2 {
                    let signature = try await client.sign(slot: .authentication, message: message)
                    #expect(
                        key9a.isValidSignature(
                            try P256.Signing.ECDSASignature(derRepresentation: signature), for: SHA256.hash(data: message)))
                    #expect(
                        !key9e.isValidSignature(
                            try P256.Signing.ECDSASignature(derRepresentation: signature), for: SHA256.hash(data: message)))
                }
                // 9C needs the PIN before every signature.
                let signature9c = try await client.sign(slot: .signature, message: message)
                #expect(
                    key9c.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature9c), for: SHA256.hash(data: message))
                )
                await #expect(throws: PIVError.securityStatusNotSatisfied(command: "GENERAL AUTHENTICATE 9c (sign)")) {
                    _ = try await client.sign(slot: .signature, message: message)
                }
                try await client.verifyPIN("123456")
                _ = try await client.sign(slot: .signature, message: message)
                // A slot without a key.
                await #expect(throws: PIVError.status(command: "GENERAL AUTHENTICATE 9d (sign)", StatusWord(rawValue: 0x6A88))) {
                    _ = try await client.sign(slot: .keyManagement, message: message)
                }
            }
        }

        @Test func ecdhAgreesOnBothSides() async throws {
            try await withClient { client in
                try await client.select()
                try await client.authenticate(managementKey: Self.defaultKey)
                let cardKey = try await client.generateKey(slot: .keyManagement)
                try await client.verifyPIN("123456")
                let ours = P256.KeyAgreement.PrivateKey()
                let cardSecret = try await client.keyAgreement(slot: .keyManagement, peer: ours.publicKey)
                let cardPublic = try P256.KeyAgreement.PublicKey(x963Representation: cardKey.x963Representation)
                let hostSecret = try ours.sharedSecretFromKeyAgreement(with: cardPublic).withUnsafeBytes { Array($0) }
                #expect(cardSecret == hostSecret)
            }
        }

        @Test func putAndGetCertificate() async throws {
            try await withClient { client in
                try await client.select()
                try await client.authenticate(managementKey: Self.defaultKey)
                let publicKey = try await client.generateKey(slot: .authentication)
                try await client.verifyPIN("123456")
                // Built and signed by swift-certificates, the card signing (PIVSlotSigningKey); the
                // validity runs into 2052, which RFC 5280 §4.1.2.5 encodes as GeneralizedTime.
                let certificate = try await client.selfSignedCertificate(
                    slot: .authentication, publicKey: publicKey, commonName: "PIV test", serialNumber: [0x01, 0x23],
                    notBefore: Date(timeIntervalSince1970: 1_700_000_000), notAfter: Date(timeIntervalSince1970: 2_600_000_000))
                #expect(certificate.publicKey.isValidSignature(certificate.signature, for: certificate), "the card's signature verifies")
                #expect(certificate.subject == certificate.issuer)
                let constraints = try #require(try certificate.extensions.basicConstraints)
                #expect(constraints == .notCertificateAuthority)
                #expect(try certificate.extensions.keyUsage == KeyUsage(digitalSignature: true, keyAgreement: true))
                #expect(certificate.extensions.allSatisfy { $0.critical })
                let der = try certificate.derBytes
                #expect(der.windowContains([0x17, 0x0D] + Array("231114221320Z".utf8)), "UTCTime before 2050")
                #expect(der.windowContains([0x18, 0x0F] + Array("20520522".utf8)), "GeneralizedTime from 2050")
                // Longer than a short APDU: goes extended (or chained) and comes back through GET RESPONSE if needed.
                try await client.putCertificate(PIVCertificateContainer(certificate: der), slot: .authentication)
                let read = try #require(try await client.readCertificate(slot: .authentication))
                #expect(read.certificate == der)
                #expect(!read.isCompressed)
                let summary = try #require(PIVCertificateSummary(der: read.certificate))
                #expect(summary.subject == "CN=PIV test")
                #expect(summary.publicKey == Array(publicKey.x963Representation))
                // A gzip flag is reported as such.
                try await client.putCertificate(
                    PIVCertificateContainer(certificate: [0x1F, 0x8B, 0x08], isCompressed: true), slot: .signature)
                #expect(try await client.readCertificate(slot: .signature)?.isCompressed == true)
                // PUT DATA after reselecting needs the key again.
                try await client.select()
                await #expect(throws: PIVError.securityStatusNotSatisfied(command: "PUT DATA 5FC105")) {
                    try await client.putCertificate(PIVCertificateContainer(certificate: der), slot: .authentication)
                }
            }
        }
    }
}

extension Array where Element == UInt8 {
    /// True when `needle` occurs in these bytes.
    func windowContains(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
