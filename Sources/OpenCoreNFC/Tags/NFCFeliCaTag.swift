import Foundation
import NFCTransport

/// A FeliCa tag, as Core NFC's `NFCFeliCaTag`.
@available(iOS 13.0, *)
@preconcurrency
public protocol NFCFeliCaTag: NFCNDEFTag, __NFCTag {
    /// The system code the tag answered polling for.
    var currentSystemCode: Data { get }
    /// The IDm of that system.
    var currentIDm: Data { get }
}

/// The FeliCa tags sessions hand out.
@available(iOS 13.0, *)
final class FeliCaTagObject: NFCTagObject, NFCFeliCaTag, __NFCTag, @unchecked Sendable {
    var type: NFCTagType { .feliCa }
    var currentIDm: Data { Data(target.identifier) }
    var currentSystemCode: Data {
        guard case .felica(let f) = target.parameters else { return Data() }
        return Data([UInt8(f.systemCode >> 8), UInt8(f.systemCode & 0xFF)])
    }
}
