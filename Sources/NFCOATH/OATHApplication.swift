/// The YubiKey OATH applet's identity (Yubico, "YKOATH protocol specification").
public enum OATHApplication {
    /// `A0 00 00 05 27 21 01`: Yubico's RID and the OATH PIX.
    public static let aid: [UInt8] = [0xA0, 0x00, 0x00, 0x05, 0x27, 0x21, 0x01]
}
