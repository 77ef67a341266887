/// The power state of an alternative carrier, as the sender reports it.
///
/// Two bits of the Alternative Carrier record's first byte
/// (NFC Forum Connection Handover 1.4 section “Alternative Carrier Record”, Carrier Power State).
public enum CarrierPowerState: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The carrier is off.
    case inactive = 0
    /// The carrier is on.
    case active = 1
    /// The carrier is being switched on.
    case activating = 2
    /// The sender does not know or does not say.
    case unknown = 3

    /// A stable lower-case name (used by the JSON form, as ndeflib spells it).
    public var description: String {
        switch self {
        case .inactive: return "inactive"
        case .active: return "active"
        case .activating: return "activating"
        case .unknown: return "unknown"
        }
    }

    /// Looks a state up by its ``description`` name.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = match
    }
}
