import Foundation
import NDEF
import NFCBytes

/// An NDEF message, as Core NFC's `NFCNDEFMessage`.
@available(iOS 11.0, *)
open class NFCNDEFMessage: NSObject, NSSecureCoding, NSCopying {
    /// The records, in order.
    open var records: [NFCNDEFPayload]

    /// Creates a message from its records.
    @available(iOS 13.0, *)
    public init(records: [NFCNDEFPayload]) {
        self.records = records
        super.init()
    }

    /// Parses a message; nil when `data` is not a valid NDEF message (strict NFC Forum rules).
    @available(iOS 13.0, *)
    public convenience init?(data: Data) {
        guard let message = try? NDEFMessage(decoding: [UInt8](data), options: .strict) else { return nil }
        self.init(message)
    }

    /// Creates a message from an `NDEF` module message.
    public convenience init(_ message: NDEFMessage) {
        self.init(records: message.records.map(NFCNDEFPayload.init))
    }

    /// The size of the encoded message in bytes, each record chunked at its own `chunkSize`.
    @available(iOS 13.0, *)
    open var length: Int {
        records.reduce(0) { total, payload in
            total + payload.ndefRecord.encodedLength(chunkSize: payload.chunkSize > 0 ? payload.chunkSize : nil)
        }
    }

    /// This message as an `NDEF` module message.
    public var ndefMessage: NDEFMessage {
        NDEFMessage(records: records.map(\.ndefRecord))
    }

    /// The encoded message, each record chunked at its own `chunkSize`.
    ///
    /// - Throws: `NDEFError` when the message has no record or a record breaks the NDEF rules.
    public func encoded() throws(NDEFError) -> Data {
        guard !records.isEmpty else {
            throw NDEFError(.emptyMessage, "an NDEF message has at least one record")
        }
        var writer = ByteWriter(capacity: length)
        let last = records.count - 1
        for (i, payload) in records.enumerated() {
            do {
                try payload.ndefRecord.encode(
                    into: &writer, messageBegin: i == 0, messageEnd: i == last,
                    chunkSize: payload.chunkSize > 0 ? payload.chunkSize : nil)
            } catch {
                throw error.at(record: i)
            }
        }
        return Data(writer.bytes)
    }

    // MARK: NSSecureCoding

    /// Always true: messages decode only with the classes they name.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the records under the key `records`. The keys are this library's own, so archives do not move between iOS and here.
    public func encode(with coder: NSCoder) {
        coder.encode(records as NSArray, forKey: "records")
    }

    /// Unarchives a message written by ``encode(with:)``; nil when `records` is missing or is not an array of ``NFCNDEFPayload``.
    public required init?(coder: NSCoder) {
        guard let array = coder.decodeObject(of: [NSArray.self, NFCNDEFPayload.self], forKey: "records") as? [NFCNDEFPayload]
        else { return nil }
        self.records = array
        super.init()
    }

    // MARK: NSCopying

    open func copy(with zone: NSZone? = nil) -> Any {
        NFCNDEFMessage(records: records.compactMap { $0.copy(with: zone) as? NFCNDEFPayload })
    }

    open override var description: String {
        "NFCNDEFMessage(\(records.count) record\(records.count == 1 ? "" : "s"), length: \(length))"
    }
}
