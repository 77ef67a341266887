import NFCBytes

/// The FeliCa chip a PMm names, and what the engine knows of it.
///
/// PMm byte 0 is the ROM type and byte 1 the IC type (FeliCa Card User's Manual Excerpted Edition
/// v2.0 §2.3.1; the IC type values are Sony's published list, as nfcpy also reads them): `F0`
/// FeliCa Lite (RC-S965), `F1` FeliCa Lite-S (RC-S966), `F2` FeliCa Link (RC-S730) in Lite-S mode,
/// `E0` FeliCa Plug, `E1` FeliCa Link in Plug mode, `06`–`07` and `10`–`1F` Mobile FeliCa, and a
/// set of FeliCa Standard ICs.
enum FeliCaIC: Sendable, Hashable {
    /// FeliCa Lite, Lite-S or FeliCa Link in Lite-S mode: one system, 14 user blocks, an MC block.
    case lite(String)
    /// A FeliCa Standard (or Mobile FeliCa) card: systems, areas and services.
    case standard(String)
    /// FeliCa Plug (a microcontroller interface; NDEF depends on the host).
    case plug(String)
    /// An IC type this engine does not know.
    case unknown(UInt8)

    init(pmm: [UInt8]) {
        let code: UInt8 = pmm.count > 1 ? pmm[1] : 0xFF
        switch code {
        case 0xF0: self = .lite("FeliCa Lite (RC-S965)")
        case 0xF1: self = .lite("FeliCa Lite-S (RC-S966)")
        case 0xF2: self = .lite("FeliCa Link (RC-S730) in Lite-S mode")
        case 0xE0: self = .plug("FeliCa Plug (RC-S926)")
        case 0xE1: self = .plug("FeliCa Link (RC-S730) in Plug mode")
        case 0x06, 0x07, 0x10...0x1F: self = .standard("Mobile FeliCa")
        default:
            if let name = Self.standardICs[code] {
                self = .standard("FeliCa Standard (\(name))")
            } else {
                self = .unknown(code)
            }
        }
    }

    /// FeliCa Standard IC types and their chip names.
    private static let standardICs: [UInt8: String] = [
        0x00: "RC-S830", 0x01: "RC-S915", 0x02: "RC-S919", 0x08: "RC-S952", 0x09: "RC-S953",
        0x0C: "RC-S954", 0x0D: "RC-S960", 0x20: "RC-S962", 0x32: "RC-SA00", 0x35: "RC-SA00",
    ]

    /// The chip's name for people.
    var model: String {
        switch self {
        case .lite(let name), .standard(let name), .plug(let name): name
        case .unknown(let code): "FeliCa (IC type \(Hex.encode([code], uppercase: true)))"
        }
    }

    /// Whether the chip is a FeliCa Lite or Lite-S: one IDm for all system codes, 14 user blocks
    /// S_PAD0–13, the MC block `88` (FeliCa Lite-S User's Manual §3).
    var isLite: Bool {
        if case .lite = self { return true }
        return false
    }

    /// The most blocks one Read Without Encryption may carry on this chip, when known (FeliCa
    /// Lite-S User's Manual §4.4: four).
    var readLimit: Int? { isLite ? 4 : nil }

    /// The most blocks one Write Without Encryption may carry on this chip, when known (FeliCa
    /// Lite-S User's Manual §4.5: one, or one plus MAC_A).
    var writeLimit: Int? { isLite ? 1 : nil }
}

/// FeliCa response times (JIS X 6319-4 §11; FeliCa Card User's Manual Excerpted Edition v2.0
/// §2.3.2): the reader's timeouts.
enum FeliCaResponseTime {
    /// The PMm byte that bounds a command's response time.
    enum Parameter: Int {
        case requestService = 2
        case fixed = 3
        case authentication = 4
        case read = 5
        case write = 6
        case other = 7
    }

    /// One unit of the PMm formula, 256·16/fc, in nanoseconds.
    static let unitNanoseconds = 256.0 * 16.0 / 13_560_000.0 * 1e9

    /// The maximum response time PMm announces for a command on `units` blocks or nodes:
    /// `256·16/fc · ((B+1)·n + A+1) · 4^E`, where the parameter byte is `E(2) B(3) A(3)`.
    /// Without the PMm byte, 100 ms.
    static func maximum(pmm: [UInt8], _ parameter: Parameter, units: Int) -> Duration {
        guard pmm.indices.contains(parameter.rawValue) else { return .milliseconds(100) }
        let byte = pmm[parameter.rawValue]
        let a = Double(byte & 0x07)
        let b = Double((byte >> 3) & 0x07)
        let scale = Double(1 << (2 * Int(byte >> 6)))
        let nanoseconds = unitNanoseconds * ((b + 1) * Double(units) + a + 1) * scale
        return .nanoseconds(Int64(nanoseconds.rounded(.up)))
    }

    /// How long a Polling with one time slot may take: the answer starts 512·64/fc after the
    /// command in slot 0 (JIS X 6319-4 §9.2.2); one more slot's 256·64/fc is the margin.
    static let polling = Duration.nanoseconds(Int64(((512.0 + 256.0) * 64.0 / 13_560_000.0 * 1e9).rounded(.up)))

    /// The wait for a fixed-time command (Request System Code): the PMm value for one unit, and
    /// at least 2 ms (some cards announce less than they take, as nfcpy notes).
    static func fixed(pmm: [UInt8]) -> Duration {
        max(maximum(pmm: pmm, .fixed, units: 1), .milliseconds(2))
    }
}
