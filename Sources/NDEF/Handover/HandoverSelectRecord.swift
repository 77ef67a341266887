/// A Handover Select record (`Hs`): the first record of a Handover Select message.
///
/// The Handover Selector's answer: the carriers it agrees to use, each an
/// ``AlternativeCarrierRecord`` whose references name the carrier configuration records that
/// follow the `Hs` record in the outer message (see ``NDEFMessage/record(withIdentifier:)``),
/// and, since version 1.2, an optional ``HandoverErrorRecord``.
/// NFC Forum Connection Handover 1.4 section “Handover Select Record” (payload: version byte + nested NDEF message).
///
/// Records of other types in the nested message are kept in ``otherRecords``. Encoding writes
/// the alternative carriers, then the other records, then the error record (ndeflib's order),
/// so a message in that order round-trips byte for byte. Strict decoding rejects a second
/// error record; lenient decoding keeps it in ``otherRecords``.
public struct HandoverSelectRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The record type, `Hs`.
    public static let recordType: [UInt8] = Array("Hs".utf8)

    /// The Connection Handover version.
    public var version: HandoverVersion
    /// The carriers selected, in order of preference.
    public var alternativeCarriers: [AlternativeCarrierRecord]
    /// Why the request could not be answered, if it could not.
    public var error: HandoverErrorRecord?
    /// Nested records of other types (kept so that nothing is lost).
    public var otherRecords: [NDEFRecord]

    /// Creates a handover select record.
    public init(
        version: HandoverVersion = .v1_3, alternativeCarriers: [AlternativeCarrierRecord] = [],
        error: HandoverErrorRecord? = nil, otherRecords: [NDEFRecord] = []
    ) {
        self.version = version
        self.alternativeCarriers = alternativeCarriers
        self.error = error
        self.otherRecords = otherRecords
    }

    /// Interprets a well-known `Hs` record (see the type's notes on strict and lenient decoding).
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type, ``NDEFError/Code/truncated`` for an empty payload,
    ///   ``NDEFError/Code/limitExceeded`` beyond ``NDEFDecodingOptions/maxNestingDepth``, the nested message's errors, and
    ///   ``NDEFError/Code/invalidPayload`` in strict mode for a second error record.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        let name = "Handover Select"
        let body = try HandoverPayload.decode(record, type: Self.recordType, name: name, options: options)
        var error: HandoverErrorRecord? = nil
        var extraErrors: [NDEFRecord] = []
        let (carriers, others) = try HandoverPayload.splitCarriers(body.records, name: name, options: options) {
            (i, nested) throws(NDEFError) -> Bool in
            guard nested.hasType(.wellKnown, HandoverErrorRecord.recordType) else { return false }
            if error == nil {
                error = try HandoverPayload.typed(HandoverErrorRecord.self, nested, index: i, name: name, options: options)
            } else if options.mode == .strict {
                throw NDEFError(.invalidPayload, "\(name) message: more than one error record", recordIndex: i)
            } else {
                extraErrors.append(nested)
            }
            return true
        }
        version = body.version
        alternativeCarriers = carriers
        self.error = error
        otherRecords = others + extraErrors
    }

    /// The well-known `Hs` record: the version byte, then a nested message of the alternative carriers, the other
    /// records and the error record (the version byte alone when there are none).
    /// - Throws: the errors of the nested records' encoding.
    public func record() throws(NDEFError) -> NDEFRecord {
        var records: [NDEFRecord] = []
        for carrier in alternativeCarriers { records.append(try carrier.record()) }
        records.append(contentsOf: otherRecords)
        if let error { records.append(try error.record()) }
        return NDEFRecord(
            typeNameFormat: .wellKnown, type: Self.recordType,
            payload: try HandoverPayload.encode(version: version, records: records))
    }
}
