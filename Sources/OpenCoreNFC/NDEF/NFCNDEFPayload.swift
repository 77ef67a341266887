import Foundation
import NDEF

/// One NDEF record, as Core NFC's `NFCNDEFPayload`.
///
/// The fields are stored as given; the NDEF rules (which TNF may carry which fields, length
/// limits) are checked when a message holding the payload is encoded. Equality is identity, as
/// for Apple's class; compare ``ndefRecord`` values to compare contents.
@available(iOS 11.0, *)
open class NFCNDEFPayload: NSObject, NSSecureCoding, NSCopying {
    /// How to read ``type``.
    open var typeNameFormat: NFCTypeNameFormat
    /// The record type.
    open var type: Data
    /// The record identifier (empty when absent).
    open var identifier: Data
    /// The payload.
    open var payload: Data
    /// Payloads longer than this are written as chunks of this size; 0 means no chunking.
    public let chunkSize: Int

    /// Creates a record that is written unchunked.
    @available(iOS 13.0, *)
    public convenience init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data) {
        self.init(format: format, type: type, identifier: identifier, payload: payload, chunkSize: 0)
    }

    /// Creates a record whose payload is written in chunks of `chunkSize` bytes (0: not chunked).
    @available(iOS 13.0, *)
    public required init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data, chunkSize: Int) {
        self.typeNameFormat = format
        self.type = type
        self.identifier = identifier
        self.payload = payload
        self.chunkSize = max(0, chunkSize)
        super.init()
    }

    /// Creates a payload from an `NDEF` module record.
    public convenience init(_ record: NDEFRecord) {
        self.init(
            format: NFCTypeNameFormat(record.typeNameFormat), type: Data(record.typeBytes),
            identifier: Data(record.identifierBytes), payload: Data(record.payloadBytes), chunkSize: 0)
    }

    /// This payload as an `NDEF` module record.
    public var ndefRecord: NDEFRecord {
        NDEFRecord(
            typeNameFormat: typeNameFormat.ndefTypeNameFormat, type: [UInt8](type),
            identifier: [UInt8](identifier), payload: [UInt8](payload))
    }

    // MARK: NSSecureCoding

    /// Always true: payloads decode only with the classes they name.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the type name format, type, identifier, payload and `chunkSize` under keys of this library's own (archives do not move
    /// between iOS and here).
    public func encode(with coder: NSCoder) {
        coder.encode(Int(typeNameFormat.rawValue), forKey: "typeNameFormat")
        coder.encode(type, forKey: "type")
        coder.encode(identifier, forKey: "identifier")
        coder.encode(payload, forKey: "payload")
        coder.encode(chunkSize, forKey: "chunkSize")
    }

    /// Unarchives a payload written by ``encode(with:)``; nil when the type name format is outside 0–6 or the type, identifier or payload
    /// is missing. A negative `chunkSize` is read as 0.
    public required init?(coder: NSCoder) {
        let raw = coder.decodeInteger(forKey: "typeNameFormat")
        guard raw >= 0, raw <= 0x06, let format = NFCTypeNameFormat(rawValue: UInt8(raw)),
            let type = coder.decodeObject(of: NSData.self, forKey: "type"),
            let identifier = coder.decodeObject(of: NSData.self, forKey: "identifier"),
            let payload = coder.decodeObject(of: NSData.self, forKey: "payload")
        else { return nil }
        self.typeNameFormat = format
        self.type = type as Data
        self.identifier = identifier as Data
        self.payload = payload as Data
        self.chunkSize = max(0, coder.decodeInteger(forKey: "chunkSize"))
        super.init()
    }

    // MARK: NSCopying

    open func copy(with zone: NSZone? = nil) -> Any {
        Self(format: typeNameFormat, type: type, identifier: identifier, payload: payload, chunkSize: chunkSize)
    }

    open override var description: String {
        "NFCNDEFPayload(typeNameFormat: \(typeNameFormat), type: \(type.count) bytes, identifier: \(identifier.count) bytes, payload: \(payload.count) bytes)"
    }
}
