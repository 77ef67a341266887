/// A Handover Mediation record (`Hm`): the first record of a Handover Mediation message
/// (negotiated handover through a mediator).
///
/// Layout and coding are shared with the other carrier-list record: see
/// ``CarrierListHandoverRecord`` (NFC Forum Connection Handover 1.4, “Handover Mediation Record”).
public struct HandoverMediationRecord: CarrierListHandoverRecord, Sendable {
    /// The record type, `Hm`.
    public static let recordType: [UInt8] = Array("Hm".utf8)
    /// `Handover Mediation`, as error messages name the record.
    public static let recordName = "Handover Mediation"

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
}
