import NFCTransport

/// The simulator's first-order air-time model (../shared/design/AIRTIME.md), per technology.
///
/// Times are computed in nanoseconds with the carrier frequency fc = 13.56 MHz:
/// - ISO/IEC 14443-A (ISO/IEC 14443-2 §8.1, -3 §6.2): 1 etu = 128/D / fc; reader frame
///   (1 + 9n + 2) etu, tag frame (1 + 9n + 1) etu (n counts the CRC_A), 4-bit ACK/NAK 6 etu;
///   frame delay time 1172/fc before the tag answers and the same before the reader's next frame.
///   A Type 1 Tag command is a train of one-byte frames (``AirFrame/Part/type1Command(_:)``).
/// - ISO/IEC 15693-2 high data rate, one subcarrier: reader 1-of-4 at 302.08 µs per byte with
///   SOF 75.52 + EOF 37.76 µs; tag 37.76 µs per bit with SOF and EOF of 151.04 µs each; response
///   delay 320.9 µs (4352/fc) and reader wait 309.2 µs after the tag's EOF.
/// - FeliCa (JIS X 6319-4): 6 B preamble + 2 B sync + LEN + payload + 2 B CRC, 8 bits per byte at
///   64/fc (212 kbit/s) or 32/fc (424 kbit/s) per bit; the tag's response time is its processing.
public enum AirTimeModel {
    /// The carrier frequency in Hz.
    public static let carrierFrequency = 13_560_000.0

    /// Air time of a sequence of exchanges on a technology at a bit rate.
    public static func duration(of frames: [AirFrame], technology: Technology, bitRate: BitRate) -> Duration {
        var nanoseconds = 0.0
        for frame in frames {
            nanoseconds += exchangeNanoseconds(frame, technology: technology, bitRate: bitRate)
        }
        return .nanoseconds(Int64(nanoseconds.rounded()))
    }

    /// Air time of one exchange.
    public static func duration(of frame: AirFrame, technology: Technology, bitRate: BitRate) -> Duration {
        duration(of: [frame], technology: technology, bitRate: bitRate)
    }

    static func exchangeNanoseconds(_ frame: AirFrame, technology: Technology, bitRate: BitRate) -> Double {
        let processing =
            Double(frame.processing.components.seconds) * 1e9
            + Double(frame.processing.components.attoseconds) / 1e9
        switch technology {
        case .iso14443A, .iso14443B:
            return iso14443(frame, bitRate: bitRate) + processing
        case .iso15693:
            return iso15693(frame) + processing
        case .felica:
            return felica(frame, bitRate: bitRate) + processing
        }
    }

    // MARK: ISO/IEC 14443

    /// The elementary time unit at a bit rate, in nanoseconds.
    public static func etuNanoseconds(_ bitRate: BitRate) -> Double {
        Double(bitRate.carrierCyclesPerETU) / carrierFrequency * 1e9
    }

    /// The frame delay time 1172/fc, taken both before the tag's answer and before the reader's next frame.
    public static let frameDelayNanoseconds = 1172.0 / carrierFrequency * 1e9

    /// RRDD, the least time between the end of one reader frame and the start of the next within
    /// a Type 1 Tag command: 28 µs (BCM20203T512 data sheet, Table 13; 23 µs after a 0 bit).
    public static let type1ReaderFrameGapNanoseconds = 28_000.0

    /// A Type 1 Tag command of `bytes` bytes plus the 2-byte CRC_B: a short frame of S, 7 bits
    /// and E (10 bit periods), then one frame per further byte of S, 8 bits and E — commands have
    /// no parity bits (11 bit periods) — each after the RRDD gap (BCM20203T512 data sheet,
    /// "Detailed Timing": S = 1, data 8, E = 2 bit periods; "Communication Summary").
    static func type1CommandNanoseconds(bytes: Int, etu: Double) -> Double {
        let frames = bytes + 2
        return Double(10 + 11 * (frames - 1)) * etu + Double(frames - 1) * type1ReaderFrameGapNanoseconds
    }

    static func iso14443(_ frame: AirFrame, bitRate: BitRate) -> Double {
        let etu = etuNanoseconds(bitRate)
        var total = 0.0
        switch frame.reader {
        case .none: break
        case .bits(let bits): total += Double(1 + bits + 1) * etu
        case .bytes(let n, let crc): total += Double(1 + 9 * (n + (crc ? 2 : 0)) + 2) * etu
        case .type1Command(let n): total += type1CommandNanoseconds(bytes: n, etu: etu)
        }
        total += frameDelayNanoseconds
        switch frame.tag {
        case .none: break
        case .bits(let bits): total += Double(1 + bits + 1) * etu
        case .bytes(let n, let crc): total += Double(1 + 9 * (n + (crc ? 2 : 0)) + 1) * etu
        case .type1Command(let n): total += type1CommandNanoseconds(bytes: n, etu: etu)
        }
        total += frameDelayNanoseconds
        return total
    }

    // MARK: ISO/IEC 15693

    /// Reader → tag, 1-of-4 coding: one byte in 302.08 µs (ISO/IEC 15693-2 §7.3).
    public static let iso15693ReaderByteNanoseconds = 302_080.0
    /// Reader SOF + EOF.
    public static let iso15693ReaderFramingNanoseconds = 75_520.0 + 37_760.0
    /// Tag → reader, high data rate, one subcarrier: 37.76 µs per bit (ISO/IEC 15693-2 §8).
    public static let iso15693TagByteNanoseconds = 8 * 37_760.0
    /// Tag SOF + EOF.
    public static let iso15693TagFramingNanoseconds = 151_040.0 * 2
    /// t1 nominal, 4352/fc (ISO/IEC 15693-3 §9.1.1).
    public static let iso15693ResponseDelayNanoseconds = 4352.0 / carrierFrequency * 1e9
    /// t2, the reader's wait after the tag's EOF before the next request (4192/fc).
    public static let iso15693ReaderWaitNanoseconds = 4192.0 / carrierFrequency * 1e9

    static func iso15693(_ frame: AirFrame) -> Double {
        var total = 0.0
        switch frame.reader {
        case .none: break
        case .bits(let bits): total += iso15693ReaderFramingNanoseconds + Double(bits) / 8 * iso15693ReaderByteNanoseconds
        case .bytes(let n, let crc):
            total += iso15693ReaderFramingNanoseconds + Double(n + (crc ? 2 : 0)) * iso15693ReaderByteNanoseconds
        case .type1Command(let n):
            total += iso15693ReaderFramingNanoseconds + Double(n + 2) * iso15693ReaderByteNanoseconds
        }
        total += iso15693ResponseDelayNanoseconds
        switch frame.tag {
        case .none: break
        case .bits(let bits): total += iso15693TagFramingNanoseconds + Double(bits) * 37_760.0
        case .bytes(let n, let crc):
            total += iso15693TagFramingNanoseconds + Double(n + (crc ? 2 : 0)) * iso15693TagByteNanoseconds
        case .type1Command(let n):
            total += iso15693TagFramingNanoseconds + Double(n + 2) * iso15693TagByteNanoseconds
        }
        total += iso15693ReaderWaitNanoseconds
        return total
    }

    // MARK: FeliCa

    /// Time of one byte (8 bits at 64/fc or 32/fc per bit).
    public static func felicaByteNanoseconds(_ bitRate: BitRate) -> Double {
        let cyclesPerBit = bitRate >= .kbps424 ? 32.0 : 64.0
        return 8 * cyclesPerBit / carrierFrequency * 1e9
    }

    static func felica(_ frame: AirFrame, bitRate: BitRate) -> Double {
        let byte = felicaByteNanoseconds(bitRate)
        func frameBytes(_ part: AirFrame.Part) -> Double {
            switch part {
            case .none: 0
            case .bits(let bits): Double(bits) / 8
            // preamble 6 + sync 2 + LEN 1 + payload + CRC 2
            case .bytes(let n, let crc): Double(n + (crc ? 6 + 2 + 1 + 2 : 0))
            case .type1Command(let n): Double(n + 6 + 2 + 1 + 2)
            }
        }
        return (frameBytes(frame.reader) + frameBytes(frame.tag)) * byte
    }
}
