import NDEF
import NFCBytes

/// libFuzzer entry point: every input goes through strict and lenient decoding and every typed
/// view. A message that decodes must re-encode to something that decodes to the same records,
/// and a typed view that decodes must encode to a record whose typed view (same options) is
/// the same value; a mismatch is a real bug and traps on purpose so the fuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDEF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for options in [NDEFDecodingOptions.strict, .lenient] {
        guard let message = try? NDEFMessage(decoding: bytes, options: options) else { continue }
        for record in message.records {
            guard let typed = try? record.typed(options: options), let encoded = try? typed.record() else { continue }
            // Typed decode → encode → decode gives the value back.
            guard let again = try? encoded.typed(options: options), again == typed else {
                fatalError("typed round trip changed the record: \(Hex.encode(bytes))")  // trap-ok: fuzz oracle
            }
        }
        guard !message.records.isEmpty, let again = try? message.encoded() else { continue }
        guard let decoded = try? NDEFMessage(decoding: again), decoded == message else {
            fatalError("round trip changed the message: \(Hex.encode(bytes))")  // trap-ok: fuzz oracle
        }
        _ = try? message.encoded(chunkSize: 7)
    }
    return 0
}
