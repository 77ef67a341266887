import NFCBytes

/// A public key NXP signs its chips' originality signatures with: ECDSA over the 7-byte UID with
/// no hash, on NIST P-224 (57-byte keys, 56-byte signatures r ‖ s: AN12343, originality check;
/// NTAG 424 DNA data sheet NT4H2421Gx, Read_Sig) for ISO-DEP chips, on secp128r1 (33-byte keys,
/// 32-byte signatures: NTAG213/215/216 data sheet, READ_SIG) for Type 2 chips. Each product
/// family has its own key; a check tries those on the signature's curve
/// (``OriginalitySignature/signer(of:uid:among:)``).
public struct OriginalityKey: Sendable, Hashable, CustomStringConvertible {
    /// What the key signs ("NTAG 424 DNA").
    public let name: String
    /// The key, uncompressed (`04 ‖ x ‖ y`: 57 bytes on P-224, 33 on secp128r1).
    public let publicKey: [UInt8]
    /// Whether this is the simulator's test key rather than one of NXP's.
    public let isTestKey: Bool

    /// A key by name and public key.
    public init(name: String, publicKey: [UInt8], isTestKey: Bool = false) {
        self.name = name
        self.publicKey = publicKey
        self.isTestKey = isTestKey
    }

    public var description: String { isTestKey ? "\(name) (a test key: not a genuine NXP chip)" : "NXP \(name)" }

    private init(_ name: String, _ hex: String, isTestKey: Bool = false) {
        self.init(name: name, publicKey: (try? [UInt8](hex: hex)) ?? [], isTestKey: isTestKey)
    }

    /// NTAG 424 DNA and NTAG 424 DNA TagTamper, as AN12196 (NTAG 424 DNA features and hints,
    /// asymmetric originality check) publishes it.
    public static let ntag424DNA = OriginalityKey(
        "NTAG 424 DNA", "048A9B380AF2EE1B98DC417FECC263F8449C7625CECE82D9B916C992DA209D68422B81EC20B65A66B5102A61596AF3379200599316A00A1410"
    )
    /// MIFARE DESFire EV2, also listed for NTAG 424 DNA.
    public static let desfireEV2 = OriginalityKey(
        "MIFARE DESFire EV2",
        "04B304DC4C615F5326FE9383DDEC9AA892DF3A57FA7FFB3276192BC0EAA252ED45A865E3B093A3D0DCE5BE29E92F1392CE7DE321E3E5C52B3A")
    /// MIFARE DESFire EV3.
    public static let desfireEV3 = OriginalityKey(
        "MIFARE DESFire EV3",
        "041DB46C145D0A36539C6544BD6D9B0AA62FF91EC48CBC6ABAE36E0089A46F0D08C8A715EA40A63313B92E90DDC1730230E0458A33276FB743")
    /// MIFARE DESFire Light, as AN12343 (MIFARE DESFire Light features and hints, originality
    /// check) publishes it with a worked example.
    public static let desfireLight = OriginalityKey(
        "MIFARE DESFire Light",
        "040E98E117AAA36457F43173DC920A8757267F44CE4EC5ADD3C54075571AEBBF7B942A9774A1D94AD02572427E5AE0A2DD36591B1FB34FCF3D")
    /// MIFARE DESFire EV2 XL.
    public static let desfireEV2XL = OriginalityKey(
        "MIFARE DESFire EV2 XL",
        "04CD5D45E50B1502F0BA4656FF37669597E7E183251150F9574CC8DA56BF01C7ABE019E29FEA48F9CE22C3EA4029A765E1BC95A89543BAD1BC")
    /// MIFARE Plus EV1.
    public static let mifarePlusEV1 = OriginalityKey(
        "MIFARE Plus EV1",
        "044409ADC42F91A8394066BA83D872FB1D16803734E911170412DDF8BAD1A4DADFD0416291AFE1C748253925DA39A5F39A1C557FFACD34C62E")
    /// NTAG 413 DNA.
    public static let ntag413DNA = OriginalityKey(
        "NTAG 413 DNA", "04BB5D514F7050025C7D0F397310360EEC91EAF792E96FC7E0F496CB4E669D414F877B7B27901FE67C2E3B33CD39D1C797715189AC951C2ADD"
    )

    /// NTAG210/212/213/215/216 (secp128r1), as NXP's TagInfo and the field's tools (proxmark3
    /// `cmdhfmfu.c`) list it; real tags' signatures verify under it in the tests.
    public static let ntag21x = OriginalityKey("NTAG21x", "04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61")
    /// MIFARE Ultralight EV1 (secp128r1), listed and checked the same way.
    public static let ultralightEV1 = OriginalityKey(
        "MIFARE Ultralight EV1", "0490933BDCD6E99B4E255E3DA55389A827564E11718E017292FAF23226A96614B8")

    /// The simulator's test key (`NFCSimulator`'s `OriginalityTestKey`, whose private key is
    /// public): virtual cards sign with it, and a check that finds it says so.
    public static let simulator = OriginalityKey(
        "OpenCoreNFC simulator",
        "048435017F0B8E72D8B16C24D7301317387A174350260CFBAF14234C28A0C8602E805CA353D9854289E6DD4CA66A40FECDBF549C8B635A2B5D",
        isTestKey: true)

    /// The simulator's Type 2 test key: the same private key reduced on secp128r1, which virtual
    /// NTAG21x and Ultralight EV1 tags sign their UIDs with.
    public static let simulatorType2 = OriginalityKey(
        "OpenCoreNFC simulator (Type 2)", "045F4866D350631F04114B5DF5C7D35B1DB2FE6843225E0E5E83AF1C1A706ACCB6", isTestKey: true)

    /// NXP's keys above, the NTAG 424 DNA ones first. The application notes publish some (AN12196,
    /// AN12343); the rest are as the field's tools list them, each checked to lie on its curve.
    public static let nxp: [OriginalityKey] = [
        ntag424DNA, desfireEV2, desfireEV3, desfireEV2XL, desfireLight, mifarePlusEV1, ntag413DNA, ntag21x, ultralightEV1,
    ]

    /// NXP's keys and the simulator's.
    public static let all: [OriginalityKey] = nxp + [simulator, simulatorType2]
}
