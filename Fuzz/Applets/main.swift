import Foundation
import ISO7816
import NFCCBOR
import NFCSimulator
import NFCTransport

@testable import NFCFIDO
@testable import NFCOATH
@testable import NFCPIV

/// libFuzzer target for the applet clients' response parsing: OATH (YKOATH TLVs, list,
/// calculate), PIV (SP 800-73-4 BER-TLV, CHUID, CCC, discovery, certificate container, PIN
/// status) and FIDO (U2F registration/authentication, CTAP2 getInfo, makeCredential,
/// getAssertion, clientPIN), each driven over a card that answers with fuzzer bytes.
///
/// Input: `[operation] answers…` (``AnswerScript`` framing) for a client dialogue, or
/// `[operation] bytes…` for a direct parser. Asserts: every failure is a thrown error (OATH,
/// PIV, FIDO, APDU or transport), never a trap; BER-TLV that parses re-encodes (minimal lengths) to no more bytes, which parse to the same TLVs.
///
/// `FUZZ_MAKE_SEEDS=DIR` writes the seed corpus (dialogues recorded from the simulator's
/// security key: OATH, PIV and FIDO applets) and exits.
let dialogues = [
    "oath-list", "oath-calculate-all", "piv-read", "piv-pin-status", "fido-get-info", "fido-u2f-version",
    "fido-pin-retries", "fido-make-credential", "fido-get-assertion",
]

func dialogue(_ operation: Int, _ transmitter: any APDUTransmitter) async throws {
    switch operation {
    case 0:
        let session = try await OATHSession(transmitter: transmitter)
        _ = try await session.list()
    case 1:
        let session = try await OATHSession(transmitter: transmitter)
        _ = try await session.calculateAll(time: 1_700_000_000)
    case 2:
        let piv = PIVClient(transmitter: transmitter)
        _ = try await piv.select()
        _ = try? await piv.readCHUID()
        _ = try? await piv.readCCC()
        _ = try? await piv.readDiscovery()
        _ = try await piv.readCertificate(slot: .authentication)
    case 3:
        let piv = PIVClient(transmitter: transmitter)
        _ = try await piv.select()
        _ = try await piv.pinStatus()
    case 4:
        let fido = FIDOClient(transmitter: transmitter)
        _ = try await fido.select()
        _ = try await fido.getInfo()
    case 5:
        let fido = FIDOClient(transmitter: transmitter)
        _ = try await fido.select()
        _ = try await fido.u2fVersion()
    case 6:
        let fido = FIDOClient(transmitter: transmitter)
        _ = try await fido.select()
        _ = try await fido.getPINRetries()
    case 7:
        let fido = FIDOClient(transmitter: transmitter)
        _ = try await fido.select()
        let object = try await fido.makeCredential(
            clientDataHash: [UInt8](repeating: 7, count: 32), rp: RelyingParty(id: "example.org"),
            user: UserEntity(id: [1, 2, 3, 4], name: "fuzz"))
        try? object.verify(clientDataHash: [UInt8](repeating: 7, count: 32))
    default:
        let fido = FIDOClient(transmitter: transmitter)
        _ = try await fido.select()
        _ = try await fido.getAssertions(rpID: "example.org", clientDataHash: [UInt8](repeating: 7, count: 32))
    }
}

func parsers(_ operation: Int, _ bytes: [UInt8]) {
    switch operation {
    case 0:
        if let tlvs = try? BERTLV.parseAll(bytes) {
            // BER allows long length forms the encoder does not write: compare values, not bytes.
            let encoded = tlvs.flatMap(\.encoded)
            guard encoded.count <= bytes.count, let again = try? BERTLV.parseAll(encoded), again == tlvs else {
                fatalError("BER-TLV does not re-encode")  // trap-ok: fuzz oracle
            }
        }
    case 1:
        for operation in [OATHOperation.select, .put, .rename] { _ = try? OATHTLV.parse(bytes, operation: operation) }
    case 2:
        _ = try? PIVApplicationProperties(parsing: bytes)
        _ = try? PIVCHUID(parsing: bytes)
        _ = try? PIVCCC(parsing: bytes)
        _ = try? PIVDiscoveryObject(parsing: bytes)
        _ = try? PIVCertificateContainer(parsing: bytes)
        _ = PIVCertificateSummary(der: bytes)
    case 3:
        _ = try? U2FRegistration(parsing: bytes)
        _ = try? U2FAuthentication(parsing: bytes)
        _ = try? AttestationCertificate.publicKey(bytes)
    case 4:
        _ = try? AuthenticatorData(parsing: bytes)
    default:
        guard let map = try? CBOR(decoding: bytes) else { return }
        _ = try? AuthenticatorInfo(map)
        _ = try? AttestationObject(map)
        _ = try? Assertion(map)
        _ = try? COSEKey(map)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzApplets(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let selector = Int(bytes[0])
    if selector >= 0xF0 {
        parsers(selector - 0xF0, Array(bytes.dropFirst()))
        return 0
    }
    let script = AnswerScript(bytes.dropFirst())
    let transmitter = ScriptedTransmitter(supportsExtendedLength: selector & 0x80 != 0, script: script)
    runBlocking { () async -> Void in
        try? await dialogue(selector % dialogues.count, transmitter)
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    guard let directory = ProcessInfo.processInfo.environment["FUZZ_MAKE_SEEDS"] else { return 0 }
    let count = runBlocking { () async -> Int in
        var written = 0
        for (index, name) in dialogues.enumerated() {
            let field = SimulatedField()
            guard let tag = try? VirtualTagKind.securityKey.make() else { continue }
            _ = await field.place(tag)
            guard let target = try? await field.targets(matching: .all).first,
                let inner = try? await field.connect(to: target, meter: AirTimeMeter())
            else { continue }
            let setup = ConnectionTransmitter(connection: inner)
            // Something to list, read and assert: an OATH credential, a PIV certificate, a FIDO credential.
            if index <= 1, let session = try? await OATHSession(transmitter: setup) {
                _ = try? await session.put(
                    OATHCredentialData(
                        name: OATHCredentialName(issuer: "Example", account: "fuzz@example.org"), secret: Array("12345678901234567890".utf8)
                    ))
            }
            if index == 8 {
                let fido = FIDOClient(transmitter: setup)
                _ = try? await fido.select()
                _ = try? await fido.makeCredential(
                    clientDataHash: [UInt8](repeating: 7, count: 32), rp: RelyingParty(id: "example.org"),
                    user: UserEntity(id: [1, 2, 3, 4], name: "fuzz"), residentKey: true)
            }
            let recorder = RecordingConnection(inner)
            let extended: UInt8 = inner.limits.extendedLengthAPDUs ? 0x80 : 0
            try? await dialogue(index, ConnectionTransmitter(connection: recorder))
            let seed = [UInt8(index) | extended] + AnswerScript.encode(recorder.answers)
            try? Data(seed).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
            written += 1
        }
        return written
    }
    print("wrote \(count) seeds to \(directory)")
    exit(0)
}
