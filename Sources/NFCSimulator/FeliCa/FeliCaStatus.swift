/// Status Flag 1 and Status Flag 2 of a FeliCa response.
///
/// Flag 1 is `00` on success, `FF` for an error not tied to a list element, otherwise it points
/// at the list element in error (FeliCa Lite-S: one bit per block list element, `01` `02` `04`
/// `08`; FeliCa Standard: the element's position from 1). Flag 2 says what went wrong
/// (FeliCa Card User's Manual Excerpted Edition v2.0 §4.5, FeliCa Lite-S User's Manual §4.4).
struct FeliCaStatus: Sendable, Hashable {
    var flag1: UInt8
    var flag2: UInt8

    init(_ flag1: UInt8, _ flag2: UInt8) {
        self.flag1 = flag1
        self.flag2 = flag2
    }

    init(_ flag1: UInt8, _ code: Code) {
        self.init(flag1, code.rawValue)
    }

    static let success = FeliCaStatus(0x00, 0x00)

    /// An error not tied to one element of a list (Status Flag 1 = `FF`).
    static func general(_ code: Code) -> FeliCaStatus { FeliCaStatus(0xFF, code) }

    var isSuccess: Bool { flag1 == 0x00 }

    /// The two bytes as they follow the IDm in a response.
    var bytes: [UInt8] { [flag1, flag2] }

    /// Status Flag 2 values (FeliCa Card User's Manual Excerpted Edition v2.0 Table 4-4;
    /// `B1` and `B2` from the FeliCa Lite-S User's Manual).
    enum Code: UInt8, Sendable {
        /// A purse decrement would go below zero or an increment would exceed four bytes.
        case purseOutOfRange = 0x01
        /// A cashback larger than the purse's cashback data.
        case cashbackExceeded = 0x02
        /// Number of Service outside the prescribed range.
        case illegalNumberOfService = 0xA1
        /// Number of Block outside the range the product accepts.
        case illegalNumberOfBlock = 0xA2
        /// A block list element names a Service Code List order beyond the Number of Service.
        case illegalServiceOrder = 0xA3
        /// The access mode of a block list element is wrong.
        case illegalAccessMode = 0xA7
        /// The area or service may not be accessed this way.
        case accessNotAllowed = 0xA5
        /// The service code does not exist (or its attribute is wrong for the command).
        case illegalServiceCode = 0xA6
        /// The block number is beyond the service's blocks, or the block may not be accessed.
        case illegalBlockNumber = 0xA8
        /// More simultaneous writes to a cyclic service than it has blocks.
        case tooManyCyclicWrites = 0xAF
        /// FeliCa Lite-S: the block needs mutual authentication first.
        case authenticationRequired = 0xB1
        /// FeliCa Lite-S: the MAC_A block or a write with MAC failed verification.
        case macVerificationFailed = 0xB2
    }
}
