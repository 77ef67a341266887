/// The PIV card application's identity (NIST SP 800-73-4 Part 1 §2.2).
public enum PIVApplication {
    /// `A0 00 00 03 08`: the NIST RID; SELECT may name it alone (a partial AID) or in full
    /// with the PIX `00 00 10 00 01 00`.
    public static let aid: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x08]
}
