/// A handover record whose nested message holds only alternative carriers (and records kept
/// verbatim): Handover Mediation (`Hm`) and Handover Initiate (`Hi`), which share one layout.
///
/// NFC Forum Connection Handover 1.4, sections “Handover Mediation Record” and “Handover
/// Initiate Record”: a version byte, then an NDEF message of ``AlternativeCarrierRecord``s whose
/// references name carrier configuration records following this record in the outer message.
/// Decoding and encoding are written once here; each conforming type names its record type.
public protocol CarrierListHandoverRecord: NDEFRecordConvertible, Hashable {
    /// The well-known record type (`Hm`, `Hi`).
    static var recordType: [UInt8] { get }
    /// The record's name in error messages.
    static var recordName: String { get }

    /// The Connection Handover version (the payload's first byte).
    var version: HandoverVersion { get }
    /// The alternative carrier records of the nested message, in order.
    var alternativeCarriers: [AlternativeCarrierRecord] { get }
    /// Nested records of other types, kept verbatim and in order; encoded after the carriers.
    var otherRecords: [NDEFRecord] { get }

    /// Creates a record from its parts.
    init(version: HandoverVersion, alternativeCarriers: [AlternativeCarrierRecord], otherRecords: [NDEFRecord])
}

extension CarrierListHandoverRecord {
    /// Interprets the record: its version byte, then the alternative carriers of its nested message; other nested
    /// records go to `otherRecords` (in strict mode their types must follow their TNF's rules).
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type, ``NDEFError/Code/truncated`` for an empty payload,
    ///   ``NDEFError/Code/limitExceeded`` beyond ``NDEFDecodingOptions/maxNestingDepth``, and the nested message's errors.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        let body = try HandoverPayload.decode(record, type: Self.recordType, name: Self.recordName, options: options)
        let (carriers, others) = try HandoverPayload.splitCarriers(
            body.records, name: Self.recordName, options: options
        ) { (_, _) throws(NDEFError) in false }
        self.init(version: body.version, alternativeCarriers: carriers, otherRecords: others)
    }

    /// Encodes the alternative carriers, then the other records.
    public func record() throws(NDEFError) -> NDEFRecord {
        var records: [NDEFRecord] = []
        for carrier in alternativeCarriers { records.append(try carrier.record()) }
        records.append(contentsOf: otherRecords)
        return NDEFRecord(
            typeNameFormat: .wellKnown, type: Self.recordType,
            payload: try HandoverPayload.encode(version: version, records: records))
    }
}
