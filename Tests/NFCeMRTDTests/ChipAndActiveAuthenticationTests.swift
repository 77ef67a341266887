import Crypto
import Foundation
import ISO7816
import NFCEllipticCurves
import NFCSimulator
import NFCeMRTD
import SwiftASN1
import Testing
import X509
import _CryptoExtras

/// Chip authentication (DG14) and active authentication (DG15) against virtual passports, PACE's
/// integrated mapping end to end, and each way they fail: a cloned chip, a chip that signs with
/// another key, an RSA key, a DG14 without the signature algorithm.
@Suite struct ChipAndActiveAuthenticationTests {
    static let specimen = PassportReaderTests.specimen

    static func read(
        _ holder: PassportHolder = PassportHolder(), access: PassportReader.Access = .mrz(specimen),
        change: (inout PassportApplet) -> Void = { _ in }
    ) async throws -> PassportReading {
        var applet = try PassportIssuer.issue(holder)
        change(&applet)
        let csca = try Certificate(derEncoded: applet.cscaCertificate)
        let reader = PassportReader(transmitter: try await FieldTransmitter.connect(to: PassportApplet.card(applet)), trustAnchors: [csca])
        return try await reader.read(access: access)
    }

    @Test("PACE, then chip authentication (AES-128) before the data groups, then active authentication (ECDSA P-256)")
    func paceThenBoth() async throws {
        let reading = try await Self.read()
        #expect(reading.accessProtocol == .pace)
        #expect(reading.common.dataGroups.contains(.dataGroup(14)) && reading.common.dataGroups.contains(.dataGroup(15)))
        guard case .verified(let chip) = reading.chipAuthentication else {
            Issue.record("chip authentication: \(reading.chipAuthentication)")
            return
        }
        #expect(chip == "CA-ECDH-AES-128 on brainpoolP256r1")
        guard case .verified(let active) = reading.activeAuthentication else {
            Issue.record("active authentication: \(reading.activeAuthentication)")
            return
        }
        #expect(active == "ECDSA-SHA-256 on secp256r1")
        #expect(reading.passiveAuthentication.verdict.passed)
        #expect(reading.passiveAuthentication.dataGroupHashes[14] == true && reading.passiveAuthentication.dataGroupHashes[15] == true)
    }

    @Test("BAC, then chip authentication with 3DES (MSE:Set KAT), on P-256")
    func bacThenTripleDES() async throws {
        var holder = PassportHolder()
        holder.pace = PassportApplet.PACESettings(parameterIdentifier: 12)
        holder.chipAuthentication = .tripleDES
        let reading = try await Self.read(holder, access: .bac(Self.specimen))
        #expect(reading.accessProtocol == .bac)
        #expect(reading.chipAuthentication.description == "verified (CA-ECDH-3DES on secp256r1)")
        #expect(reading.activeAuthentication.isVerified)
        #expect(reading.face != nil)
    }

    @Test("PACE with integrated mapping, by CAN and by MRZ, on both curves", arguments: [12, 13])
    func integratedMapping(_ curve: Int) async throws {
        var holder = PassportHolder()
        holder.pace = PassportApplet.PACESettings(parameterIdentifier: curve, can: "424242", integratedMapping: true)
        let byCAN = try await Self.read(holder, access: .pace(.can("424242")))
        #expect(byCAN.pace?.mapping == .integrated)
        #expect(byCAN.pace?.description == "PACE-ECDH-IM-AES-128 on \(curve == 12 ? "P-256" : "brainpoolP256r1")")
        #expect(byCAN.chipAuthentication.isVerified)
        let byMRZ = try await Self.read(holder)
        #expect(byMRZ.accessProtocol == .pace && byMRZ.pace?.mapping == .integrated)
    }

    @Test("integrated mapping with a wrong CAN: accessDenied")
    func integratedMappingWrongCAN() async throws {
        var holder = PassportHolder()
        holder.pace = PassportApplet.PACESettings(can: "424242", integratedMapping: true)
        let error = await #expect(throws: EMRTDError.self) { try await Self.read(holder, access: .pace(.can("424243"))) }
        #expect(error?.code == .accessDenied)
    }

    @Test("a cloned chip — DG14 copied, another private key inside — fails chip authentication")
    func clonedChip() async throws {
        let error = await #expect(throws: EMRTDError.self) {
            try await Self.read { applet in
                applet.chipAuthentication?.privateKey = EllipticCurve.brainpoolP256r1.fixed(12_345_678)
            }
        }
        #expect(error?.code == .chipNotGenuine)
        #expect(error?.file == "DG14")
        #expect(error?.reason.contains("does not hold that key") == true)
    }

    @Test("a chip that signs with another key fails active authentication; the rest of the reading stands")
    func activeAuthenticationWithAnotherKey() async throws {
        let reading = try await Self.read { applet in
            applet.activeAuthenticationKey = Array(P256.Signing.PrivateKey().rawRepresentation)
        }
        guard case .failed(let error) = reading.activeAuthentication else {
            Issue.record("expected a failure, got \(reading.activeAuthentication)")
            return
        }
        #expect(error.code == .chipNotGenuine && error.file == "DG15")
        #expect(reading.chipAuthentication.isVerified)
        #expect(reading.passiveAuthentication.verdict.passed)
    }

    @Test("a chip with neither: both not offered")
    func neither() async throws {
        var holder = PassportHolder()
        holder.chipAuthentication = nil
        holder.activeAuthentication = false
        let reading = try await Self.read(holder)
        #expect(reading.chipAuthentication.description == "not offered")
        #expect(reading.activeAuthentication.description == "not offered")
        #expect(!reading.common.dataGroups.contains(.dataGroup(14)))
    }

    @Test("active authentication alone (no chip authentication): DG14 carries only ActiveAuthenticationInfo")
    func activeOnly() async throws {
        var holder = PassportHolder()
        holder.chipAuthentication = nil
        let reading = try await Self.read(holder)
        #expect(reading.chipAuthentication.description == "not offered")
        #expect(reading.activeAuthentication.isVerified)
    }

    // MARK: DG14 and DG15 parsing

    static func dataGroup14(of applet: PassportApplet) -> [UInt8] { applet.files.first { $0.identifier == 0x010E }?.content ?? [] }

    @Test("DG14 as issued: explicit brainpool parameters are recognised, the protocol and the signature algorithm read")
    func parsesDataGroup14() throws {
        let applet = try PassportIssuer.issue(PassportHolder())
        let infos = try ChipSecurityInfos(dataGroup14: Self.dataGroup14(of: applet))
        #expect(infos.chipAuthentication.map(\.description) == ["CA-ECDH-AES-128"])
        #expect(infos.chipAuthenticationKeys.first?.key.curve == .brainpoolP256r1)
        #expect(infos.activeAuthenticationSignature == .ecdsaPlain(.sha256))
        let (info, key) = try #require(ChipAuthentication.choose(from: infos))
        #expect(info.aesKeyLength == 16 && key.curve.name == "brainpoolP256r1")
    }

    @Test("an EC key with a named curve or BSI standardized domain parameters")
    func keyEncodings() throws {
        let point = EllipticCurve.secp256r1.encode(EllipticCurve.secp256r1.generator)
        let named = try DER.parse(Array(P256.Signing.PrivateKey().publicKey.derRepresentation))
        #expect(try ChipPublicKey(subjectPublicKeyInfo: named, file: "DG15").curve == .secp256r1)
        // SEQUENCE { SEQUENCE { id-ecPublicKey, SEQUENCE { standardizedDomainParameters, 12 } }, BIT STRING }
        let standardized: [UInt8] =
            [
                0x30, 0x5D, 0x30, 0x17, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x30, 0x0C, 0x06, 0x07, 0x04, 0x00, 0x7F,
                0x00, 0x07, 0x01, 0x02,
            ]
            + [0x02, 0x01, 0x0C, 0x03, 0x42, 0x00] + point
        let key = try ChipPublicKey(subjectPublicKeyInfo: try DER.parse(standardized), file: "DG14")
        #expect(key.curve == .secp256r1 && key.encoded == point)
    }

    @Test("hostile DG14 and DG15 bytes: typed errors naming the file")
    func hostileFiles() throws {
        for bytes: [UInt8] in [[], [0x6E], [0x6E, 0x02, 0x31, 0x05], [0x6F, 0x03, 0x30, 0x01, 0x00], [0x6E, 0x02, 0x30, 0x00]] {
            do {
                _ = try ChipSecurityInfos(dataGroup14: bytes)
                Issue.record("DG14 \(bytes) parsed")
            } catch {
                #expect(error.code == .malformedFile && error.file == "DG14")
            }
        }
        let notAPoint: [UInt8] = [
            0x6F, 0x1F, 0x30, 0x1D, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE,
            0x3D, 0x03, 0x01, 0x07, 0x03, 0x06, 0x00, 0x04, 0x01, 0x02, 0x03, 0x04,
        ]
        #expect(throws: EMRTDError.self) { try ActiveAuthentication.publicKey(dataGroup15: notAPoint) }
    }

    @Test("RSA active authentication (ISO/IEC 9796-2, SHA-1): verified; DG14 then carries no ActiveAuthenticationInfo")
    func rsaActiveAuthentication() async throws {
        var holder = PassportHolder()
        holder.activeAuthenticationAlgorithm = .rsa
        let reading = try await Self.read(holder)
        #expect(reading.activeAuthentication.description == "verified (ISO/IEC 9796-2 with SHA-1 on RSA-1024)")
        #expect(reading.chipAuthentication.isVerified)
        let other = try await Self.read(holder) { applet in
            applet.activeAuthenticationRSAKey = Array(try! _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)).derRepresentation)
        }
        guard case .failed(let error) = other.activeAuthentication else {
            Issue.record("expected a failure, got \(other.activeAuthentication)")
            return
        }
        #expect(error.code == .chipNotGenuine && error.reason.contains("RSA-1024"))
    }

    /// An ISO/IEC 9796-2 scheme 1 block signed with the raw RSA operation.
    static func iso9796(_ block: [UInt8], with key: _RSA.BlindSigning.PrivateKey<SHA384>) throws -> [UInt8] {
        Array(try key.blindSignature(for: block).rawRepresentation)
    }

    @Test("ISO/IEC 9796-2 trailers: BC (SHA-1) and 34 CC (SHA-256) verify; a changed nonce, header or challenge does not")
    func iso9796Trailers() throws {
        let signing = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let raw = try _RSA.BlindSigning.PrivateKey<SHA384>(unsafeDERRepresentation: signing.derRepresentation)
        let node = try DER.parse(Array(signing.publicKey.derRepresentation))
        let spki = Array(node.encodedBytes)
        let key = try ActiveAuthentication.publicKey(dataGroup15: [0x6F, 0x82, UInt8(spki.count >> 8), UInt8(spki.count & 0xFF)] + spki)
        guard case .rsa(let rsa) = key else {
            Issue.record("not an RSA key: \(key)")
            return
        }
        #expect(rsa.bitCount == 2048 && rsa.exponent == 65_537)
        let challenge: [UInt8] = [9, 8, 7, 6, 5, 4, 3, 2]
        let nonce1 = [UInt8](repeating: 0x5A, count: 256 - 22)
        let sha1 = [0x6A] + nonce1 + Array(Insecure.SHA1.hash(data: nonce1 + challenge)) + [0xBC]
        #expect(ActiveAuthentication.verifyISO9796(signature: try Self.iso9796(sha1, with: raw), challenge: challenge, key: rsa) == .sha1)
        let nonce256 = [UInt8](repeating: 0xA5, count: 256 - 35)
        let sha256 = [0x6A] + nonce256 + Array(SHA256.hash(data: nonce256 + challenge)) + [0x34, 0xCC]
        let signature = try Self.iso9796(sha256, with: raw)
        #expect(ActiveAuthentication.verifyISO9796(signature: signature, challenge: challenge, key: rsa) == .sha256)
        #expect(ActiveAuthentication.verify(signature: signature, challenge: challenge, key: key, algorithm: nil) == .iso9796(.sha256))
        #expect(ActiveAuthentication.verifyISO9796(signature: signature, challenge: challenge.reversed(), key: rsa) == nil)
        var changed = sha256
        changed[5] ^= 1
        #expect(ActiveAuthentication.verifyISO9796(signature: try Self.iso9796(changed, with: raw), challenge: challenge, key: rsa) == nil)
        changed = sha256
        changed[0] = 0x4A
        #expect(ActiveAuthentication.verifyISO9796(signature: try Self.iso9796(changed, with: raw), challenge: challenge, key: rsa) == nil)
        #expect(ActiveAuthentication.verifyISO9796(signature: Array(signature.dropFirst()), challenge: challenge, key: rsa) == nil)
        #expect(ActiveAuthentication.verifyISO9796(signature: [UInt8](repeating: 0xFF, count: 256), challenge: challenge, key: rsa) == nil)
    }

    @Test("a toy RSA key in DG15 (a 7-bit modulus) is a malformed file, not a key")
    func rsaKey() async throws {
        // SEQUENCE { SEQUENCE { rsaEncryption, NULL }, BIT STRING { SEQUENCE { n, e } } } with a toy modulus.
        let rsa: [UInt8] = [
            0x30, 0x1A, 0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00, 0x03, 0x09, 0x00,
            0x30, 0x06, 0x02, 0x01, 0x77, 0x02, 0x01, 0x03,
        ]
        let error = #expect(throws: EMRTDError.self) { try ActiveAuthentication.publicKey(dataGroup15: [0x6F, UInt8(rsa.count)] + rsa) }
        #expect(error?.code == .malformedFile && error?.file == "DG15")
    }

    @Test("an EC key in DG15 but no ActiveAuthenticationInfo: unsupported")
    func missingSignatureAlgorithm() async throws {
        let applet = try PassportIssuer.issue(PassportHolder())
        var channel = PassportChannel(transmitter: try await FieldTransmitter.connect(to: PassportApplet.card(applet)))
        let key = try ActiveAuthentication.publicKey(dataGroup15: applet.files.first { $0.identifier == 0x010F }?.content ?? [])
        let error = await #expect(throws: EMRTDError.self) {
            _ = try await ActiveAuthentication.run(key: key, algorithm: nil, channel: &channel)
        }
        #expect(error?.code == .unsupportedAlgorithm)
    }

    @Test("a signature of the wrong length or over another challenge does not verify")
    func signatureChecks() throws {
        let signing = P256.Signing.PrivateKey()
        let key = ActiveAuthenticationKey.ec(
            try ChipPublicKey(subjectPublicKeyInfo: try DER.parse(Array(signing.publicKey.derRepresentation)), file: "DG15"))
        let challenge: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let signature = Array(try signing.signature(for: challenge).rawRepresentation)
        #expect(
            ActiveAuthentication.verify(signature: signature, challenge: challenge, key: key, algorithm: .ecdsaPlain(.sha256))
                == .ecdsaPlain(.sha256))
        #expect(
            ActiveAuthentication.verify(signature: signature, challenge: challenge.reversed(), key: key, algorithm: .ecdsaPlain(.sha256))
                == nil)
        #expect(
            ActiveAuthentication.verify(signature: signature.dropLast(), challenge: challenge, key: key, algorithm: .ecdsaPlain(.sha256))
                == nil)
        #expect(ActiveAuthentication.verify(signature: signature, challenge: challenge, key: key, algorithm: .ecdsaPlain(.sha384)) == nil)
        #expect(ActiveAuthentication.verify(signature: signature, challenge: challenge, key: key, algorithm: nil) == nil)
    }
}
