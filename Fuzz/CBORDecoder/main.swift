import NFCCBOR

/// libFuzzer entry point for the strict CTAP2 CBOR decoder: every input decodes or throws.
/// An accepted item is canonical, so (floats aside, which the encoder may re-size) it must
/// encode back to the same bytes and decode again to an equal item; a mismatch traps on purpose
/// so the fuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? CBORDecoder(maximumDepth: 4).decode(bytes)
    _ = try? CBORDecoder(allowsTags: true).decodePrefix(bytes)
    guard let item = try? CBOR(decoding: bytes) else { return 0 }
    let again = item.encoded
    guard let decoded = try? CBOR(decoding: again) else {
        fatalError("re-encoded item does not decode: \(bytes)")  // trap-ok: fuzz oracle
    }
    if !containsFloat(item) {
        guard again == bytes, decoded == item else {
            fatalError("an accepted item is not canonical: \(bytes)")  // trap-ok: fuzz oracle
        }
    }
    return 0
}

func containsFloat(_ item: CBOR) -> Bool {
    switch item {
    case .float: true
    case .array(let items): items.contains(where: containsFloat)
    case .map(let map): map.contains { containsFloat($0.key) || containsFloat($0.value) }
    case .tagged(_, let inner): containsFloat(inner)
    default: false
    }
}
