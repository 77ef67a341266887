import NFCTransport

@testable import NFCPCSC

/// libFuzzer target for what a PC/SC reader hands the driver: the ATR (PC/SC Part 3 §3.1.3.2.3
/// contactless ATRs, ISO/IEC 7816-3 ATRs in general), the transparent-exchange answer
/// (Part 3 §3.2.2.1.9 BER-TLV data objects), pseudo-APDU answers, the ACR122U's Direct Transmit
/// answers and plans, the uTrust's FeliCa pseudo-APDUs (frames in, answers back), HID's
/// product-name answer, and the identification dialogue (GET DATA UID, FeliCa Polling in a
/// transparent session, through an ACR122U's Direct Transmit or a uTrust's `FF 40` — selector
/// bits 6–7 pick the profile) driven with fuzzer answers.
///
/// Input: `[selector] bytes…`. Asserts: every refusal is a typed `TransportError`; an ATR whose
/// historical bytes parse gives historical bytes that are a part of the ATR.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPCSC(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let all = Array(UnsafeBufferPointer(start: data, count: size))
    let bytes = Array(all.dropFirst())
    switch all[0] % 4 {
    case 0:
        _ = try? ContactlessATR(atr: bytes)
        if let historical = try? ContactlessATR.historicalBytes(of: bytes), !historical.isEmpty {
            guard historical.count < bytes.count, contains(bytes, historical) else {
                fatalError("historical bytes are not part of the ATR")  // trap-ok: fuzz oracle
            }
        }
    case 1:
        _ = try? TransparentExchangeAnswer(bytes)
    case 2:
        _ = try? PseudoAPDU.split(bytes, doing: "fuzz")
        for technology in Technology.allCases {
            if let plan = try? PseudoAPDUTranslation.plan(bytes, technology: technology) {
                _ = PseudoAPDUTranslation.answer(plan.apdus.map { _ in (data: bytes, sw: 0x9000) }, plan: plan)
            }
        }
        for (command, framing) in [([UInt8(0x42)], DirectTransmit.Framing.data), ([0x40], .acknowledged), ([0x40], .felica)] {
            _ = try? DirectTransmit.answer(bytes, to: command, framing: framing, reader: "fuzz")
        }
        for parameters in [TargetInfo.Parameters.iso14443A(.init(atqa: 0x0044, sak: 0)), .felica(.init(pmm: [], systemCode: 0xFFFF))] {
            _ = try? DirectTransmit.plan(bytes, target: TargetInfo(handle: 1, identifier: [], parameters: parameters))
        }
        _ = try? PseudoAPDUTranslation.plan(bytes, technology: .iso14443A, profile: .utrust3700f)
        _ = try? SCMFeliCa.apdu(for: bytes, reader: "fuzz")
        for code: UInt8 in [0x00, 0x06, 0x08, 0x0C] {
            _ = try? SCMFeliCa.answer(bytes, to: [code], reader: "fuzz")
        }
        _ = ReaderProfile.recognise(hidProductName: bytes)
    default:
        // The ATR is the first answer, then the reader's answers to GET DATA and Polling.
        let script = AnswerScript(bytes[...])
        guard let atr = try? script.next() else { return 0 }
        let profile: ReaderProfile = [.generic, .acr122u, .utrust3700f, .omnikey5022][Int(all[0] >> 6)]
        let identification = TargetIdentification(profile: profile) { (_: [UInt8]) throws(TransportError) -> [UInt8] in
            guard let answer = try script.next() else { throw TransportError(.timeout, "no answer") }
            return answer
        }
        _ = try? identification.identify(atr: atr, handle: 1)
    }
    return 0
}

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
}
