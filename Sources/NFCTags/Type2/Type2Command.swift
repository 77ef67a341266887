import NFCBytes
import NFCTransport

/// The Type 2 command frames the engine sends, with realistic answer timeouts.
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §5.1–5.2 and §5.4 (READ 30h, WRITE A2h, ACK/NAK);
/// NTAG213/215/216 data sheet §10 (GET_VERSION 60h, FAST_READ 3Ah, PWD_AUTH 1Bh, READ_SIG 3Ch). Frames
/// are without CRC_A; a 4-bit ACK or NAK comes back as one byte (`TagConnection`).
enum Type2Command {
    /// The 4-bit ACK.
    static let ack: UInt8 = 0x0A

    /// GET_VERSION: 8 bytes of product information.
    static let getVersion: [UInt8] = [0x60]

    /// READ: 16 bytes (4 pages) from `page`.
    static func read(_ page: Int) -> [UInt8] { [0x30, UInt8(truncatingIfNeeded: page)] }

    /// FAST_READ: pages `start` through `end` in one answer.
    static func fastRead(_ start: Int, _ end: Int) -> [UInt8] {
        [0x3A, UInt8(truncatingIfNeeded: start), UInt8(truncatingIfNeeded: end)]
    }

    /// WRITE: one 4-byte page.
    static func write(_ page: Int, _ data: [UInt8]) -> [UInt8] { [0xA2, UInt8(truncatingIfNeeded: page)] + data }

    /// PWD_AUTH: the 4-byte password; the answer is the 2-byte PACK.
    static func passwordAuthentication(_ password: [UInt8]) -> [UInt8] { [0x1B] + password }

    /// READ_SIG with its RFU address 00h: the 32-byte originality signature.
    static let readSignature: [UInt8] = [0x3C, 0x00]

    /// READ_CNT: the 24-bit one-way counter `index`, least significant byte first (NTAG213/215/216
    /// §10.6: index 02h, the NFC counter; MF0ULX1 “READ_CNT”: 00h–02h).
    static func readCounter(_ index: Int) -> [UInt8] { [0x39, UInt8(truncatingIfNeeded: index)] }

    /// The wait for a short answer (GET_VERSION, READ, PWD_AUTH, READ_SIG): the tag answers after
    /// its frame delay and ≈ 2 ms of transmission; 5 ms leaves room for a slow reader.
    static let shortTimeout: Duration = .milliseconds(5)

    /// The wait for a WRITE's ACK: ≈ 4.1 ms of EEPROM programming, doubled.
    static let writeTimeout: Duration = .milliseconds(10)

    /// The wait for an answer of `bytes` bytes: 5 ms plus 0.1 ms per byte (a byte is 9 etu, 85 µs,
    /// at 106 kbit/s), so a FAST_READ of the whole NTAG216 (888 B) gets ≈ 94 ms.
    static func readTimeout(bytes: Int) -> Duration {
        .milliseconds(5) + .microseconds(100 * max(bytes - 16, 0))
    }

    /// Whether a one-byte answer is a NAK (0h, 1h, 4h, 5h: invalid argument, CRC, authentication
    /// counter overflow, EEPROM write error).
    static func isNAK(_ answer: [UInt8]) -> Bool {
        answer.count == 1 && answer[0] != ack
    }

    /// What a NAK code means, for error reasons.
    static func describeNAK(_ code: UInt8) -> String {
        switch code & 0x0F {
        case 0x0: "NAK 0h (invalid argument: locked, protected or absent page)"
        case 0x1: "NAK 1h (parity or CRC error)"
        case 0x4: "NAK 4h (authentication counter overflow)"
        case 0x5: "NAK 5h (EEPROM write error)"
        default: "NAK \(Hex.encode([code & 0x0F], uppercase: true))h"
        }
    }

    /// Two hex digits and `h`, for reasons (`E2h`).
    static func hex(_ value: Int) -> String {
        Hex.encode([UInt8(truncatingIfNeeded: value)], uppercase: true) + "h"
    }
}
