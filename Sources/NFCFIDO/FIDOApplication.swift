/// The FIDO applet's identity (FIDO U2F NFC Protocol §4 and CTAP 2.1 §11.3.3: the same AID for
/// U2F and CTAP2 over NFC).
public enum FIDOApplication {
    /// `A0 00 00 06 47 2F 00 01`.
    public static let aid: [UInt8] = [0xA0, 0x00, 0x00, 0x06, 0x47, 0x2F, 0x00, 0x01]
}
