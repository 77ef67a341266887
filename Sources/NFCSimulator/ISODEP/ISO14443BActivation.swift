/// The activation of an ISO/IEC 14443-4 Type B card as exchanges on the air.
///
/// ISO/IEC 14443-3:2018 §7.7 to §7.10: REQB/WUPB (`05` AFI PARAM: 3 bytes + CRC_B) answered by
/// ATQB (`50`, PUPI, application data, protocol info: 12 bytes + CRC_B), then ATTRIB (`1D`, PUPI,
/// Param 1 to 4: 9 bytes + CRC_B) answered by MBLI/CID (1 byte + CRC_B, no higher-layer data).
/// Both at 106 kbit/s. A Type B card has no RATS: its frame size and waiting time are in ATQB.
public enum ISO14443BActivation {
    /// The two activation exchanges.
    public static let frames: [AirFrame] = [
        AirFrame(reader: .bytes(3), tag: .bytes(12)),
        AirFrame(reader: .bytes(9), tag: .bytes(1)),
    ]
}
