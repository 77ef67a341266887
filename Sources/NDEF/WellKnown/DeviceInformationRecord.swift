/// The NFC Forum Device Information record (well-known type `Di`).
///
/// NFC Forum Device Information RTD 1.0 §3: a sequence of TLVs (1-byte tag, 1-byte length,
/// value): 0 manufacturer name, 1 model name, 2 device name, 3 UUID (16 bytes), 4 firmware
/// version (names UTF-8); manufacturer and model are required; other tags are reserved and
/// kept as ``otherElements``.
public struct DeviceInformationRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The well-known type name, `Di`.
    public static let recordType: [UInt8] = Array("Di".utf8)

    /// A data element whose tag this library does not interpret.
    public struct DataElement: Hashable, Sendable {
        /// The element's tag (5–255 when decoded; the tags 0–4 are read into the named properties).
        public var tag: UInt8
        /// The value bytes (at most 255: the length is one byte).
        public var value: [UInt8]
        /// An element with `tag` and `value`.
        public init(tag: UInt8, value: [UInt8]) {
            self.tag = tag
            self.value = value
        }
    }

    /// Tag 0: the manufacturer name (required, so not empty when encoding).
    public var manufacturer: String
    /// Tag 1: the model name (required, so not empty when encoding).
    public var model: String
    /// Tag 2: the device name, when present.
    public var deviceName: String?
    /// The 16 bytes of an RFC 4122 UUID.
    public var uuid: [UInt8]?
    /// Tag 4: the firmware version, when present.
    public var firmwareVersion: String?
    /// Elements with reserved tags (5–255), in order.
    public var otherElements: [DataElement]

    /// A record with these elements; they are checked by ``record()``.
    public init(
        manufacturer: String, model: String, deviceName: String? = nil, uuid: [UInt8]? = nil,
        firmwareVersion: String? = nil, otherElements: [DataElement] = []
    ) {
        self.manufacturer = manufacturer
        self.model = model
        self.deviceName = deviceName
        self.uuid = uuid
        self.firmwareVersion = firmwareVersion
        self.otherElements = otherElements
    }

    /// Interprets a well-known `Di` record; a repeated tag keeps its last value (reserved tags are all kept).
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type; ``NDEFError/Code/invalidPayload`` for an
    ///   element cut short or a UUID that is not 16 bytes, and in strict mode for a missing or empty manufacturer or
    ///   model name; in strict mode ``NDEFError/Code/invalidEncoding`` for a name that is not UTF-8.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        try record.expect(.wellKnown, Self.recordType, "Device Information")
        let strict = options.isStrict
        let p = record.payload
        var i = 0
        var manufacturer: String? = nil
        var model: String? = nil
        self.init(manufacturer: "", model: "")
        while i < p.count {
            guard i + 2 <= p.count else {
                throw NDEFError(.invalidPayload, "Device Information element at byte \(i) is cut short (no length)")
            }
            let tag = p[i]
            let length = Int(p[i + 1])
            guard i + 2 + length <= p.count else {
                throw NDEFError(
                    .invalidPayload, "Device Information element \(tag) at byte \(i) claims \(length) bytes, \(p.count - i - 2) remain")
            }
            let value = p[(i + 2)..<(i + 2 + length)]
            switch tag {
            case 0: manufacturer = try TextCoding.utf8(value, strict: strict, field: "manufacturer name")
            case 1: model = try TextCoding.utf8(value, strict: strict, field: "model name")
            case 2: deviceName = try TextCoding.utf8(value, strict: strict, field: "device name")
            case 3:
                guard value.count == 16 else {
                    throw NDEFError(.invalidPayload, "Device Information UUID has \(value.count) bytes, not 16")
                }
                uuid = Array(value)
            case 4: firmwareVersion = try TextCoding.utf8(value, strict: strict, field: "firmware version")
            default: otherElements.append(DataElement(tag: tag, value: Array(value)))
            }
            i += 2 + length
        }
        if strict && ((manufacturer ?? "").isEmpty || (model ?? "").isEmpty) {
            throw NDEFError(.invalidPayload, "Device Information requires the manufacturer and model names")
        }
        self.manufacturer = manufacturer ?? ""
        self.model = model ?? ""
    }

    /// The UUID in its 8-4-4-4-12 text form.
    public var uuidString: String? {
        guard let uuid, uuid.count == 16 else { return nil }
        let hex = uuid.map { b -> String in
            let s = String(b, radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    /// The well-known `Di` record: elements 0–4 in tag order (the optional ones when set), then ``otherElements``.
    /// - Throws: ``NDEFError/Code/invalidValue`` for an empty manufacturer or model name or a UUID that is not 16 bytes;
    ///   ``NDEFError/Code/fieldTooLong`` for a value over 255 bytes.
    public func record() throws(NDEFError) -> NDEFRecord {
        guard !manufacturer.isEmpty, !model.isEmpty else {
            throw NDEFError(.invalidValue, "Device Information requires the manufacturer and model names")
        }
        var out: [UInt8] = []
        func element(_ tag: UInt8, _ value: [UInt8], _ name: String) throws(NDEFError) {
            guard value.count <= 255 else {
                throw NDEFError(.fieldTooLong, "Device Information \(name) is \(value.count) bytes, at most 255")
            }
            out.append(tag)
            out.append(UInt8(value.count))
            out.append(contentsOf: value)
        }
        try element(0, Array(manufacturer.utf8), "manufacturer name")
        try element(1, Array(model.utf8), "model name")
        if let deviceName { try element(2, Array(deviceName.utf8), "device name") }
        if let uuid {
            guard uuid.count == 16 else {
                throw NDEFError(.invalidValue, "Device Information UUID has \(uuid.count) bytes, not 16")
            }
            try element(3, uuid, "UUID")
        }
        if let firmwareVersion { try element(4, Array(firmwareVersion.utf8), "firmware version") }
        for e in otherElements { try element(e.tag, e.value, "element \(e.tag)") }
        return NDEFRecord(typeNameFormat: .wellKnown, type: Self.recordType, payload: out)
    }
}
