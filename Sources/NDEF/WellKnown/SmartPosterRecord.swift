import NFCBytes

/// What a reader should do with a Smart Poster's URI (local type `act`).
///
/// NFC Forum Smart Poster RTD 1.0 §3.3.3: 0 do the action, 1 save for later, 2 open for
/// editing; other values are reserved.
public struct SmartPosterAction: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The action byte.
    public let rawValue: UInt8
    /// The action with this byte; reserved values are kept (see ``isDefined``).
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Do the action (open the link, send the message, dial the number).
    public static let doAction = SmartPosterAction(rawValue: 0)
    /// Save for later.
    public static let save = SmartPosterAction(rawValue: 1)
    /// Open for editing.
    public static let open = SmartPosterAction(rawValue: 2)

    /// Whether the value is one the specification defines.
    public var isDefined: Bool { rawValue <= 2 }

    /// `do`, `save` or `open`, or the number of a reserved value.
    public var description: String {
        switch rawValue {
        case 0: return "do"
        case 1: return "save"
        case 2: return "open"
        default: return String(rawValue)
        }
    }
}

/// The NFC Forum Smart Poster record (well-known type `Sp`): a URI with titles, an action,
/// the size and type of what it points at, and icons.
///
/// NFC Forum Smart Poster RTD 1.0 §3: the payload is an NDEF message holding exactly one URI
/// record, any number of Text records (titles, at most one per language), and optionally the
/// local records `act` (1 byte), `s` (32-bit size), `t` (UTF-8 media type) and icon records
/// (media types `image/*` or `video/*`). Other records are kept in ``otherRecords``, not
/// interpreted; strict decoding holds their types to their TNF's rules (`NDEFTypeNameRules`).
public struct SmartPosterRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The well-known type name, `Sp`.
    public static let recordType: [UInt8] = Array("Sp".utf8)
    static let actionType: [UInt8] = Array("act".utf8)
    static let sizeType: [UInt8] = [UInt8(ascii: "s")]
    static let typeType: [UInt8] = [UInt8(ascii: "t")]

    /// The URI record.
    public var uri: URIRecord
    /// Titles, at most one per language.
    public var titles: [TextRecord]
    /// The recommended action.
    public var action: SmartPosterAction?
    /// The size in bytes of the referenced resource.
    public var size: UInt32?
    /// The media type of the referenced resource.
    public var type: String?
    /// Icons: media-type records of `image/*` or `video/*`.
    public var icons: [MIMERecord]
    /// Any other records in the poster's message, in order.
    public var otherRecords: [NDEFRecord]

    /// A poster for `uri` with these optional parts; they are checked by ``record()``.
    public init(
        uri: URIRecord, titles: [TextRecord] = [], action: SmartPosterAction? = nil, size: UInt32? = nil,
        type: String? = nil, icons: [MIMERecord] = [], otherRecords: [NDEFRecord] = []
    ) {
        self.uri = uri
        self.titles = titles
        self.action = action
        self.size = size
        self.type = type
        self.icons = icons
        self.otherRecords = otherRecords
    }

    /// The title in `language` (compared case-insensitively), if any.
    public func title(language: String) -> String? {
        titles.first { $0.languageCode.lowercased() == language.lowercased() }?.text
    }

    /// Interprets a well-known `Sp` record, decoding its nested message one level deeper (`options.nested()`).
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type, the errors of decoding the nested message and
    ///   of reading its records (prefixed with the record's index), ``NDEFError/Code/invalidPayload`` for no URI record, an `act` record
    ///   that is not 1 byte (lenient: not empty) or an `s` record that is not 4 bytes; in strict mode also for a second
    ///   URI record, two titles in one language or a reserved action.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        try record.expect(.wellKnown, Self.recordType, "Smart Poster")
        let strict = options.isStrict
        let nested = options.nested()
        let inner = try NDEFDecoder(options: nested).decodeRecords(record.payload[...])
        var uri: URIRecord? = nil
        var titles: [TextRecord] = []
        var icons: [MIMERecord] = []
        var others: [NDEFRecord] = []
        var action: SmartPosterAction? = nil
        var size: UInt32? = nil
        var type: String? = nil
        for (index, r) in inner.enumerated() {
            do throws(NDEFError) {
                if r.hasType(.wellKnown, URIRecord.recordType) {
                    if uri != nil {
                        if strict { throw NDEFError(.invalidPayload, "Smart Poster holds more than one URI record") }
                        others.append(r)
                        continue
                    }
                    uri = try URIRecord(r, options: nested)
                } else if r.hasType(.wellKnown, TextRecord.recordType) {
                    let title = try TextRecord(r, options: nested)
                    if strict && titles.contains(where: { $0.languageCode.lowercased() == title.languageCode.lowercased() }) {
                        throw NDEFError(.invalidPayload, "Smart Poster has two titles in language \"\(title.languageCode)\"")
                    }
                    titles.append(title)
                } else if r.hasType(.wellKnown, Self.actionType) {
                    guard r.payload.count == 1 || (!strict && !r.payload.isEmpty) else {
                        throw NDEFError(.invalidPayload, "Smart Poster action record holds \(r.payload.count) bytes, not 1")
                    }
                    let value = SmartPosterAction(rawValue: r.payload[0])
                    if strict && !value.isDefined {
                        throw NDEFError(.invalidPayload, "Smart Poster action \(value.rawValue) is reserved")
                    }
                    action = value
                } else if r.hasType(.wellKnown, Self.sizeType) {
                    guard r.payload.count == 4 else {
                        throw NDEFError(.invalidPayload, "Smart Poster size record holds \(r.payload.count) bytes, not 4")
                    }
                    var reader = ByteReader(r.payload)
                    size = try? reader.readUInt32()
                } else if r.hasType(.wellKnown, Self.typeType) {
                    type = try TextCoding.utf8(r.payload, strict: strict, field: "Smart Poster type")
                } else if r.typeNameFormat == .media, Self.isIconType(r.type) {
                    icons.append(try MIMERecord(r, options: nested))
                } else {
                    // Strict decoding holds a nested record's type to its TNF's rules, as at the
                    // top level; the record itself is not interpreted.
                    if strict { try NDEFTypeNameRules.check(r.type, format: r.typeNameFormat) }
                    others.append(r)
                }
            } catch {
                throw NDEFError(error.code, "Smart Poster record \(index): \(error.reason)", offset: error.offset)
            }
        }
        guard let uri else {
            throw NDEFError(.invalidPayload, "Smart Poster holds no URI record")
        }
        self.init(uri: uri, titles: titles, action: action, size: size, type: type, icons: icons, otherRecords: others)
    }

    static func isIconType(_ type: [UInt8]) -> Bool {
        type.starts(with: "image/".utf8) || type.starts(with: "video/".utf8)
    }

    /// The records of the poster's message, in the order this library writes them.
    public func records() throws(NDEFError) -> [NDEFRecord] {
        var records: [NDEFRecord] = [try uri.record()]
        for title in titles { records.append(try title.record()) }
        if let action {
            records.append(NDEFRecord(typeNameFormat: .wellKnown, type: Self.actionType, payload: [action.rawValue]))
        }
        if let size {
            var w = ByteWriter(capacity: 4)
            w.write(size)
            records.append(NDEFRecord(typeNameFormat: .wellKnown, type: Self.sizeType, payload: w.bytes))
        }
        if let type {
            records.append(NDEFRecord(typeNameFormat: .wellKnown, type: Self.typeType, payload: Array(type.utf8)))
        }
        for icon in icons {
            guard Self.isIconType(Array(icon.mimeType.utf8)) else {
                throw NDEFError(.invalidValue, "a Smart Poster icon is image/* or video/*, not \"\(icon.mimeType)\"")
            }
            records.append(try icon.record())
        }
        records.append(contentsOf: otherRecords)
        return records
    }

    /// The well-known `Sp` record whose payload is the message of ``records()``.
    /// - Throws: ``NDEFError/Code/invalidValue`` for an icon that is not `image/*` or `video/*`, and the nested records'
    ///   encoding errors.
    public func record() throws(NDEFError) -> NDEFRecord {
        let payload = try NDEFMessage(records: try records()).encoded()
        return NDEFRecord(typeNameFormat: .wellKnown, type: Self.recordType, payload: payload)
    }
}
