import ISO7816

/// libFuzzer target for ISO/IEC 7816-4 APDUs: response APDUs (what every card answer goes
/// through) and command APDUs (what the simulator's applets parse).
///
/// Asserts: a response of at least two bytes parses, and re-encodes to the same bytes; a
/// command that parses encodes to a command that parses to the same value (short and extended
/// forms); every refusal is a typed `APDUError`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPDU(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let response = try ResponseAPDU(parsing: bytes)
        guard response.bytes == bytes else { fatalError("response does not re-encode: \(bytes)") }  // trap-ok: fuzz oracle
        _ = response.statusWord.description
    } catch {
        guard bytes.count < 2 else { fatalError("a \(bytes.count)-byte response was refused: \(error)") }  // trap-ok: fuzz oracle
    }
    if let command = try? CommandAPDU(parsing: bytes) {
        for extended in [false, true] {
            guard let encoded = try? command.encoded(extended: extended) else { continue }
            guard let again = try? CommandAPDU(parsing: encoded), again == command else {
                fatalError("command does not round-trip (extended \(extended)): \(bytes)")  // trap-ok: fuzz oracle
            }
        }
    }
    return 0
}
