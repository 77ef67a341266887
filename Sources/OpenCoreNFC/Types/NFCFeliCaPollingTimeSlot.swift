/// The Time Slot Number of a FeliCa Polling command: one less than the number of slots cards
/// may answer in, as Core NFC's `NFCFeliCaPollingTimeSlot`. JIS X 6319-4 §8.6.2.1.
///
/// Not `@frozen`: switch over it with `@unknown default`, as on iOS.
@available(iOS 13.0, *)
public enum NFCFeliCaPollingTimeSlot: Int, Sendable {
    /// One slot.
    case max1 = 0
    /// Two slots.
    case max2 = 1
    /// Four slots.
    case max4 = 3
    /// Eight slots.
    case max8 = 7
    /// Sixteen slots.
    case max16 = 15
}

// MARK: - The iOS 13 spellings

@available(iOS 13.0, *)
extension NFCFeliCaPollingTimeSlot {
    /// The iOS 13 spelling of ``max1``; deprecated.
    @available(*, deprecated, renamed: "NFCFeliCaPollingTimeSlot.max1")
    public static var PollingTimeSlotMax1: NFCFeliCaPollingTimeSlot { .max1 }
    /// The iOS 13 spelling of ``max2``; deprecated.
    @available(*, deprecated, renamed: "NFCFeliCaPollingTimeSlot.max2")
    public static var PollingTimeSlotMax2: NFCFeliCaPollingTimeSlot { .max2 }
    /// The iOS 13 spelling of ``max4``; deprecated.
    @available(*, deprecated, renamed: "NFCFeliCaPollingTimeSlot.max4")
    public static var PollingTimeSlotMax4: NFCFeliCaPollingTimeSlot { .max4 }
    /// The iOS 13 spelling of ``max8``; deprecated.
    @available(*, deprecated, renamed: "NFCFeliCaPollingTimeSlot.max8")
    public static var PollingTimeSlotMax8: NFCFeliCaPollingTimeSlot { .max8 }
    /// The iOS 13 spelling of ``max16``; deprecated.
    @available(*, deprecated, renamed: "NFCFeliCaPollingTimeSlot.max16")
    public static var PollingTimeSlotMax16: NFCFeliCaPollingTimeSlot { .max16 }
}

/// The iOS 13 name of ``NFCFeliCaPollingTimeSlot``.
@available(*, deprecated, renamed: "NFCFeliCaPollingTimeSlot")
public typealias PollingTimeSlot = NFCFeliCaPollingTimeSlot
