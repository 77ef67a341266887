/// FeliCa response times: the maximum a card announces in its PMm, and the polling time slots.
///
/// JIS X 6319-4 §11 / FeliCa Card User's Manual Excerpted Edition v2.0 §2.3.2: PMm bytes D2–D7
/// each hold a maximum response time parameter `E(2 bits) B(3 bits) A(3 bits)`; for a command
/// handling n units (blocks, nodes) the card answers within
/// `T = 256·16/fc · ((B+1)·n + A+1) · 4^E`. D2 covers Request Service, D3 the fixed-time
/// commands (Request Response, Search Service Code, Request System Code…), D4 authentication,
/// D5 reads, D6 writes, D7 the other commands. A reader uses T as its timeout; the simulated
/// cards answer sooner, with the actual times their types document.
public enum FeliCaTiming {
    /// The carrier frequency in Hz.
    static let carrierFrequency = 13_560_000.0

    /// The unit of the PMm formula, 256·16/fc ≈ 302.06 µs, in nanoseconds.
    public static let unitNanoseconds = 256.0 * 16.0 / carrierFrequency * 1e9

    /// The PMm byte that bounds a command's response time.
    public enum Parameter: Int, Sendable, CaseIterable {
        /// PMm byte D2: Request Service.
        case requestService = 2
        /// PMm byte D3: the fixed-time commands (Request Response, Search Service Code, Request System Code…).
        case fixed = 3
        /// PMm byte D4: the authentication commands.
        case authentication = 4
        /// PMm byte D5: the read commands.
        case read = 5
        /// PMm byte D6: the write commands.
        case write = 6
        /// PMm byte D7: every other command.
        case other = 7
    }

    /// The maximum response time a PMm parameter byte announces for a command on `units` blocks
    /// or nodes: `256·16/fc · ((B+1)·n + A+1) · 4^E`.
    public static func maximumResponseTime(parameter byte: UInt8, units: Int) -> Duration {
        let a = Double(byte & 0x07)
        let b = Double((byte >> 3) & 0x07)
        let e = Int(byte >> 6)
        let scale = Double(1 << (2 * e))
        return nanoseconds(unitNanoseconds * ((b + 1) * Double(units) + a + 1) * scale)
    }

    /// The maximum response time the PMm announces for one kind of command.
    public static func maximumResponseTime(pmm: [UInt8], _ parameter: Parameter, units: Int) -> Duration {
        let byte = pmm.indices.contains(parameter.rawValue) ? pmm[parameter.rawValue] : 0xFF
        return maximumResponseTime(parameter: byte, units: units)
    }

    /// The delay from the end of a Polling command to the start of the answer in time slot
    /// `slot`: 512·64/fc (≈ 2.417 ms) to slot 0, then 256·64/fc (≈ 1.208 ms) per slot
    /// (JIS X 6319-4 §9.2.2).
    public static func pollingResponseDelay(slot: Int) -> Duration {
        nanoseconds((512.0 + 256.0 * Double(slot)) * 64.0 / carrierFrequency * 1e9)
    }

    static func nanoseconds(_ value: Double) -> Duration {
        .nanoseconds(Int64(value.rounded()))
    }

    static func microseconds(_ value: Double) -> Duration {
        nanoseconds(value * 1_000)
    }
}

/// How a simulated FeliCa card picks its Polling time slot.
///
/// A real card draws a random slot among the Time Slot Number + 1 the reader offers. The model
/// stays reproducible: a 32-bit linear congruential generator seeded from the IDm at power-on and
/// stepped by every Polling command, so several cards in one field spread over the slots and the
/// same command sequence always gives the same slots.
struct FeliCaSlotPicker: Sendable, Hashable {
    private var state: UInt32

    init(idm: [UInt8]) {
        var seed: UInt32 = 0x9E37_79B9
        for byte in idm { seed = (seed &* 31) &+ UInt32(byte) }
        state = seed
    }

    /// The slot for a Polling command with this Time Slot Number (`00`, `01`, `03`, `07`, `0F`
    /// give 1, 2, 4, 8, 16 slots; the low four bits count for other values).
    mutating func pick(timeSlotNumber: UInt8) -> Int {
        state = state &* 1_664_525 &+ 1_013_904_223
        let slots = UInt32(timeSlotNumber & 0x0F) + 1
        return Int((state >> 16) % slots)
    }
}
