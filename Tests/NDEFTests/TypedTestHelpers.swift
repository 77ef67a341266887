import NDEF
import NFCBytes
import Testing

/// Bytes from hex written in a test (a typo there is a test bug, so it falls back to empty).
func bytes(_ hex: String) -> [UInt8] {
    (try? Hex.decode(hex)) ?? []
}

/// The code of the error `body` throws, or nil when it succeeds.
func errorCode(_ body: () throws -> Void) -> NDEFError.Code? {
    do {
        try body()
        return nil
    } catch let error as NDEFError {
        return error.code
    } catch {
        Issue.record("not an NDEFError: \(error)")
        return nil
    }
}

func wellKnown(_ type: String, _ payload: [UInt8], id: String = "") -> NDEFRecord {
    NDEFRecord(typeNameFormat: .wellKnown, type: type, identifier: Array(id.utf8), payload: payload)
}

func media(_ type: String, _ payload: [UInt8], id: String = "") -> NDEFRecord {
    NDEFRecord(typeNameFormat: .media, type: type, identifier: Array(id.utf8), payload: payload)
}

let lenient = NDEFDecodingOptions.lenient
