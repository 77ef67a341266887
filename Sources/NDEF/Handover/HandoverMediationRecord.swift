/// A Handover Mediation record (`Hm`): the first record of a Handover Mediation message
/// (negotiated handover through a mediator).
///
/// NFC Forum Connection Handover 1.4 section “Handover Mediation Record” (payload: version byte + nested NDEF message of
/// ``AlternativeCarrierRecord``s; their references name carrier configuration records that
/// follow this record in the outer message). Records of other types in the nested message are
/// kept in ``otherRecords``; encoding writes the alternative carriers, then the other records.
public struct HandoverMediationRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The record type, `Hm`.
    public static let recordType: [UInt8] = Array("Hm".utf8)

    /// The Connection Handover version.
    public var version: HandoverVersion
    /// The carriers the mediator offers.
    public var alternativeCarriers: [AlternativeCarrierRecord]
    /// Nested records of other types (kept so that nothing is lost).
    public var otherRecords: [NDEFRecord]

    /// Creates a handover mediation record.
    public init(
        version: HandoverVersion = .v1_4, alternativeCarriers: [AlternativeCarrierRecord] = [],
        otherRecords: [NDEFRecord] = []
    ) {
        self.version = version
        self.alternativeCarriers = alternativeCarriers
        self.otherRecords = otherRecords
    }

    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        let name = "Handover Mediation"
        let body = try HandoverPayload.decode(record, type: Self.recordType, name: name, options: options)
        version = body.version
        alternativeCarriers = []
        otherRecords = []
        for (i, nested) in body.records.enumerated() {
            if nested.hasType(.wellKnown, AlternativeCarrierRecord.recordType) {
                alternativeCarriers.append(
                    try HandoverPayload.typed(AlternativeCarrierRecord.self, nested, index: i, name: name, options: options))
            } else {
                otherRecords.append(nested)
            }
        }
    }

    public func record() throws(NDEFError) -> NDEFRecord {
        var records: [NDEFRecord] = []
        for carrier in alternativeCarriers { records.append(try carrier.record()) }
        records.append(contentsOf: otherRecords)
        return NDEFRecord(
            typeNameFormat: .wellKnown, type: Self.recordType,
            payload: try HandoverPayload.encode(version: version, records: records))
    }
}
