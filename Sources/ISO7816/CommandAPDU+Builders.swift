/// Builders for the interindustry commands the tag engines and applet clients use
/// (ISO/IEC 7816-4:2020 §11).
extension CommandAPDU {
    /// SELECT by DF name (AID): `00 A4 04 00|0C Lc AID [Le]`.
    /// - Parameters:
    ///   - aid: the application identifier (DF name), sent as the command data.
    ///   - returnFCI: ask for the FCI (P2 `00`, Le 256) or no response data (P2 `0C`).
    public static func select(aid: [UInt8], returnFCI: Bool = true) -> CommandAPDU {
        CommandAPDU(ins: 0xA4, p1: 0x04, p2: returnFCI ? 0x00 : 0x0C, data: aid, expectedLength: returnFCI ? 256 : nil)
    }

    /// SELECT an elementary file by its identifier: `00 A4 00 0C 02 id`.
    public static func selectFile(id: UInt16) -> CommandAPDU {
        CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: [UInt8(id >> 8), UInt8(id & 0xFF)])
    }

    /// READ BINARY of the current EF: `00 B0 offset Le` (offset under 32 768, §11.3.3).
    public static func readBinary(offset: Int, length: Int) -> CommandAPDU {
        CommandAPDU(
            ins: 0xB0, p1: UInt8(truncatingIfNeeded: offset >> 8) & 0x7F, p2: UInt8(truncatingIfNeeded: offset), expectedLength: length)
    }

    /// UPDATE BINARY of the current EF: `00 D6 offset Lc data` (offset under 32 768, §11.3.5).
    public static func updateBinary(offset: Int, data: [UInt8]) -> CommandAPDU {
        CommandAPDU(ins: 0xD6, p1: UInt8(truncatingIfNeeded: offset >> 8) & 0x7F, p2: UInt8(truncatingIfNeeded: offset), data: data)
    }

    /// GET RESPONSE: `00 C0 00 00 Le`.
    public static func getResponse(length: Int) -> CommandAPDU {
        CommandAPDU(ins: 0xC0, expectedLength: length)
    }
}
