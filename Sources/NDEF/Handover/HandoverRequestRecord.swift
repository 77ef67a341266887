/// A Handover Request record (`Hr`): the first record of a Handover Request message.
///
/// The Handover Requester's offer: a ``CollisionResolutionRecord`` (required since version
/// 1.2) and one or more ``AlternativeCarrierRecord``s whose references name the carrier
/// configuration records that follow the `Hr` record in the outer message.
/// NFC Forum Connection Handover 1.4 section “Handover Request Record” (payload: version byte + nested NDEF message).
///
/// Strict decoding rejects a version ≥ 1.2 request without a collision resolution record, a
/// second collision resolution record and a request without alternative carriers; lenient
/// decoding accepts them (a second `cr` is kept in ``otherRecords``). Encoding writes the
/// collision resolution record, then the alternative carriers, then the other records.
public struct HandoverRequestRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The record type, `Hr`.
    public static let recordType: [UInt8] = Array("Hr".utf8)

    /// The Connection Handover version.
    public var version: HandoverVersion
    /// The requester's random number for resolving a request collision.
    public var collisionResolution: CollisionResolutionRecord?
    /// The carriers offered, in order of preference.
    public var alternativeCarriers: [AlternativeCarrierRecord]
    /// Nested records of other types (kept so that nothing is lost).
    public var otherRecords: [NDEFRecord]

    /// Creates a handover request record.
    public init(
        version: HandoverVersion = .v1_3, collisionResolution: CollisionResolutionRecord?,
        alternativeCarriers: [AlternativeCarrierRecord], otherRecords: [NDEFRecord] = []
    ) {
        self.version = version
        self.collisionResolution = collisionResolution
        self.alternativeCarriers = alternativeCarriers
        self.otherRecords = otherRecords
    }

    /// Interprets a well-known `Hr` record (see the type's notes on strict and lenient decoding).
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type, ``NDEFError/Code/truncated`` for an empty payload,
    ///   ``NDEFError/Code/limitExceeded`` beyond ``NDEFDecodingOptions/maxNestingDepth``, the nested message's errors, and
    ///   ``NDEFError/Code/invalidPayload`` for what strict decoding rejects.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        let name = "Handover Request"
        let strict = options.mode == .strict
        let body = try HandoverPayload.decode(record, type: Self.recordType, name: name, options: options)
        var collision: CollisionResolutionRecord? = nil
        var extra: [NDEFRecord] = []
        let (carriers, others) = try HandoverPayload.splitCarriers(body.records, name: name, options: options) {
            (i, nested) throws(NDEFError) -> Bool in
            guard nested.hasType(.wellKnown, CollisionResolutionRecord.recordType) else { return false }
            if collision == nil {
                collision = try HandoverPayload.typed(CollisionResolutionRecord.self, nested, index: i, name: name, options: options)
            } else if strict {
                throw NDEFError(.invalidPayload, "\(name) message: more than one collision resolution record", recordIndex: i)
            } else {
                extra.append(nested)
            }
            return true
        }
        version = body.version
        collisionResolution = collision
        alternativeCarriers = carriers
        otherRecords = others + extra
        if strict {
            if collisionResolution == nil && version >= .v1_2 {
                throw NDEFError(
                    .invalidPayload, "\(name): version \(version) requires a collision resolution record", offset: 1)
            }
            if alternativeCarriers.isEmpty {
                throw NDEFError(.invalidPayload, "\(name): no alternative carrier record", offset: 1)
            }
        }
    }

    /// The well-known `Hr` record: the version byte, then a nested message of the collision resolution record, the
    /// alternative carriers and the other records (the version byte alone when there are none).
    /// - Throws: the errors of the nested records' encoding.
    public func record() throws(NDEFError) -> NDEFRecord {
        var records: [NDEFRecord] = []
        if let collisionResolution { records.append(try collisionResolution.record()) }
        for carrier in alternativeCarriers { records.append(try carrier.record()) }
        records.append(contentsOf: otherRecords)
        return NDEFRecord(
            typeNameFormat: .wellKnown, type: Self.recordType,
            payload: try HandoverPayload.encode(version: version, records: records))
    }
}
