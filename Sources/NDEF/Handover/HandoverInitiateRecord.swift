/// A Handover Initiate record (`Hi`): the first record of a Handover Initiate message
/// (the start of a negotiated handover through a mediator).
///
/// Layout and coding are shared with the other carrier-list record: see
/// ``CarrierListHandoverRecord`` (NFC Forum Connection Handover 1.4, “Handover Initiate Record”).
public struct HandoverInitiateRecord: CarrierListHandoverRecord, Sendable {
    /// The record type, `Hi`.
    public static let recordType: [UInt8] = Array("Hi".utf8)
    /// `Handover Initiate`, as error messages name the record.
    public static let recordName = "Handover Initiate"

    /// The Connection Handover version.
    public var version: HandoverVersion
    /// The carriers the initiator offers.
    public var alternativeCarriers: [AlternativeCarrierRecord]
    /// Nested records of other types (kept so that nothing is lost).
    public var otherRecords: [NDEFRecord]

    /// Creates a handover initiate record.
    public init(
        version: HandoverVersion = .v1_4, alternativeCarriers: [AlternativeCarrierRecord] = [],
        otherRecords: [NDEFRecord] = []
    ) {
        self.version = version
        self.alternativeCarriers = alternativeCarriers
        self.otherRecords = otherRecords
    }
}
