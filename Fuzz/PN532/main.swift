@testable import NFCPN532

/// libFuzzer target for the PN532 frame decoder (what every byte from a serial line goes
/// through, in the virtual chip and in a reader on a real board), and for the `pn532:` reader's
/// reading of InListPassiveTarget answers (a board's bytes, whatever they are).
///
/// The input's first byte picks where to split the rest into two reads. Asserts: the decoder
/// never traps; a split stream gives the same frames and errors as the whole one; every frame it
/// finds re-encodes to bytes that decode to that frame alone; every refusal is a typed
/// `PN532FrameError`; the rest, read as an InListPassiveTarget answer for each modulation, is
/// targets or a typed `TransportError`, never a trap, and every UID it yields is 4, 7 or 10 bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPN532(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = input.first else { return 0 }
    let bytes = Array(input.dropFirst())
    let split = bytes.isEmpty ? 0 : Int(first) % (bytes.count + 1)
    var whole = PN532FrameDecoder()
    let all = whole.feed(bytes)
    var parts = PN532FrameDecoder()
    let pieces = parts.feed(bytes[..<split]) + parts.feed(bytes[split...])
    guard pieces.map(describe) == all.map(describe) else {
        fatalError("a split at \(split) decodes differently: \(bytes)")  // trap-ok: fuzz oracle
    }
    for case .success(let frame) in all {
        var again = PN532FrameDecoder()
        let decoded = again.feed(frame.bytes)
        guard decoded.count == 1, case .success(let same) = decoded[0], same == frame else {
            fatalError("\(frame) does not round-trip through its bytes")  // trap-ok: fuzz oracle
        }
    }
    for modulation in PN532Modulation.allCases {
        do {
            for (_, identifier, _) in try PN532TargetData.parse(bytes, modulation: modulation, reader: "fuzz") {
                guard modulation != .typeA || [4, 7, 10].contains(identifier.count) else {
                    fatalError("a type A UID of \(identifier.count) bytes")  // trap-ok: fuzz oracle
                }
            }
        } catch {
            _ = error.code
        }
    }
    return 0
}

/// A result as text, errors by code (their reasons hold stream offsets, the same either way).
func describe(_ result: Result<PN532Frame, PN532FrameError>) -> String {
    switch result {
    case .success(let frame): "\(frame)"
    case .failure(let error): "\(error)"
    }
}
