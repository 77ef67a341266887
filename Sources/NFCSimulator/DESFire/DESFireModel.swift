/// Which MIFARE DESFire generation a virtual card is, and what that changes: the version it
/// reports, its storage, and the EV2 commands (AuthenticateEV2First/NonFirst and EV2 secure
/// messaging, absent on EV1).
///
/// GetVersion's layout is MIFARE DESFire EV1 short data sheet (MF3ICDx21_41_81, rev. 3.2) §8.5
/// and the EV2/EV3 short data sheets (MF3DX2, MF3DHx3): vendor `04` (NXP), type `01` (DESFire),
/// subtype `01`, major and minor version, storage size byte (2^(n/2) bytes, bit 0 set: between that
/// and the next power), protocol `05` (ISO/IEC 14443-2 and -3). The version numbers are those
/// real cards report (EV1 hardware 1.0 and software 1.4, EV2 hardware 0x12 and software 2.0,
/// EV3 hardware 0x33 and software 3.0) — sample values; NXP's full data sheets are under NDA.
public enum DESFireModel: String, Sendable, Hashable, CaseIterable, Codable {
    /// MIFARE DESFire EV1 (MF3ICD81, 8 KB).
    case ev1
    /// MIFARE DESFire EV2 (MF3DX2, 8 KB).
    case ev2
    /// MIFARE DESFire EV3 (MF3D83, 8 KB).
    case ev3

    /// Whether the card has AuthenticateEV2First/NonFirst and EV2 secure messaging.
    public var hasEV2SecureMessaging: Bool { self != .ev1 }

    /// Hardware major and minor version.
    var hardwareVersion: (major: UInt8, minor: UInt8) {
        switch self {
        case .ev1: (0x01, 0x00)
        case .ev2: (0x12, 0x00)
        case .ev3: (0x33, 0x00)
        }
    }

    /// Software major and minor version.
    var softwareVersion: (major: UInt8, minor: UInt8) {
        switch self {
        case .ev1: (0x01, 0x04)
        case .ev2: (0x02, 0x00)
        case .ev3: (0x03, 0x00)
        }
    }

    /// The storage size byte: `1A`, 8,192 bytes.
    static let storageSize: UInt8 = 0x1A

    /// The bytes of file memory the card hands out: 8 KB less what the PICC's own structures take.
    /// A blank 8 KB card answers FreeMemory with 7,936 (`1F00`) — what readers of real cards
    /// report, and what libfreefare's `mifare-desfire-create-ndef` counts on: it makes a CC file of
    /// one 32-byte block and an NDEF file of 7,680 bytes on an 8 KB card.
    static let capacity = 7_936

    /// The 7 bytes of GetVersion's first (hardware) and second (software) frames.
    var versionParts: [[UInt8]] {
        [
            [0x04, 0x01, 0x01, hardwareVersion.major, hardwareVersion.minor, Self.storageSize, 0x05],
            [0x04, 0x01, 0x01, softwareVersion.major, softwareVersion.minor, Self.storageSize, 0x05],
        ]
    }

    /// The production data after the UID in the third frame: batch number (5 bytes), calendar week
    /// and year of production (sample values).
    static let productionData: [UInt8] = [0xBA, 0x44, 0x97, 0xD6, 0x70, 0x28, 0x24]
}
