import NFCTransport

/// The activation of an ISO/IEC 14443-4 Type A card as exchanges on the air.
///
/// ISO/IEC 14443-3:2018 §6.4–6.5: WUPA (7 bits) answered by ATQA (2 bytes without CRC), then one
/// SELECT per cascade level with the known UID (`93`/`95`/`97` `70`, four UID bytes or CT + three,
/// BCC: 7 bytes + CRC) answered by SAK (1 byte + CRC). ISO/IEC 14443-4:2018 §5.1–5.3: RATS
/// (`E0`, FSDI/CID: 2 bytes + CRC) answered by the ATS, then PPS (`D0|CID` PPS0 PPS1: 3 bytes +
/// CRC, answered by PPSS) when a bit rate above 106 kbit/s is agreed. All run at 106 kbit/s.
public enum ISO14443AActivation {
    /// How many cascade levels a UID of this length needs (4 → 1, 7 → 2, 10 → 3).
    public static func cascadeLevels(uidLength: Int) -> Int {
        switch uidLength {
        case ...4: 1
        case 5...7: 2
        default: 3
        }
    }

    /// The ATQA byte 1 bits 8–7 for a UID length: 00 single, 01 double, 10 triple (ISO/IEC 14443-3 §6.5.2.1).
    public static func uidSizeBits(uidLength: Int) -> UInt8 {
        UInt8(cascadeLevels(uidLength: uidLength) - 1) << 6
    }

    /// The bytes of each cascade level's UID part: `CT` (`88`) then three UID bytes on all but the
    /// last level, followed by BCC, the XOR of the four (ISO/IEC 14443-3 §6.5.4).
    public static func cascadeParts(uid: [UInt8]) -> [[UInt8]] {
        let levels = cascadeLevels(uidLength: uid.count)
        var parts: [[UInt8]] = []
        var rest = uid[...]
        for level in 1...levels {
            var part: [UInt8]
            if level < levels {
                part = [0x88] + Array(rest.prefix(3))
                rest = rest.dropFirst(3)
            } else {
                part = Array(rest.prefix(4))
            }
            part.append(part.reduce(0, ^))
            parts.append(part)
        }
        return parts
    }

    /// The activation exchanges: WUPA/ATQA, the cascade SELECTs, RATS/ATS and, when `pps`, PPS.
    ///
    /// - Parameters:
    ///   - uidLength: 4, 7 or 10 bytes.
    ///   - atsLength: the ATS including TL, without CRC.
    ///   - pps: whether the reader sends PPS to switch the bit rate.
    ///   - startUpGuardTime: SFGT, the time the reader waits after the ATS (charged with RATS).
    public static func frames(uidLength: Int, atsLength: Int, pps: Bool, startUpGuardTime: Duration = .zero) -> [AirFrame] {
        var frames = [AirFrame(reader: .bits(7), tag: .bytes(2, crc: false))]
        for _ in 0..<cascadeLevels(uidLength: uidLength) {
            frames.append(AirFrame(reader: .bytes(7), tag: .bytes(1)))
        }
        frames.append(AirFrame(reader: .bytes(2), tag: .bytes(atsLength), processing: startUpGuardTime))
        if pps {
            frames.append(AirFrame(reader: .bytes(3), tag: .bytes(1)))
        }
        return frames
    }

    /// SFGT = 256·16/fc·2^SFGI (ISO/IEC 14443-4:2018 §5.2.5); zero for SFGI 0 or 15.
    public static func startUpGuardTime(sfgi: UInt8) -> Duration {
        guard sfgi > 0, sfgi < 15 else { return .zero }
        let seconds = 256.0 * 16.0 / AirTimeModel.carrierFrequency * Double(1 << Int(sfgi))
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
