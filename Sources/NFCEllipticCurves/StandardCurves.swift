/// The curves ICAO Doc 9303 and BSI TR-03110 name by standardized domain parameter identifier
/// (TR-03110 Part 3 Table 4; ICAO Doc 9303 Part 11 §9.5.1), with their parameters from RFC 5639
/// §3.4 (brainpool) and FIPS 186-4 §D.1.2.2–§D.1.2.3 (NIST). NIST P-224 is also the curve of
/// NXP's originality signatures on NTAG 424 DNA, MIFARE DESFire EV2/EV3/Light and MIFARE Plus
/// EV1 (AN12343, originality check).
extension EllipticCurve {
    /// brainpoolP256r1 (identifier 13).
    public static let brainpoolP256r1 = EllipticCurve(
        name: "brainpoolP256r1",
        p: "A9FB57DBA1EEA9BC3E660A909D838D726E3BF623D52620282013481D1F6E5377",
        a: "7D5A0975FC2C3057EEF67530417AFFE7FB8055C126DC5C6CE94A4B44F330B5D9",
        b: "26DC5C6CE94A4B44F330B5D9BBD77CBF958416295CF7E1CE6BCCDC18FF8C07B6",
        x: "8BD2AEB9CB7E57CB2C4B482FFC81B7AFB9DE27E1E3BD23C23A4453BD9ACE3262",
        y: "547EF835C3DAC4FD97F8461A14611DC9C27745132DED8E545C1D54C72F046997",
        order: "A9FB57DBA1EEA9BC3E660A909D838D718C397AA3B561A6F7901E0E82974856A7")

    /// SEC 2 v1 §2.3.1 secp128r1: the curve of NXP's Type 2 originality signatures (NTAG21x,
    /// MIFARE Ultralight EV1; 32 bytes r ‖ s over the UID). No TR-03110 identifier.
    public static let secp128r1 = EllipticCurve(
        name: "secp128r1",
        p: "FFFFFFFDFFFFFFFFFFFFFFFFFFFFFFFF",
        a: "FFFFFFFDFFFFFFFFFFFFFFFFFFFFFFFC",
        b: "E87579C11079F43DD824993C2CEE5ED3",
        x: "161FF7528B899B2D0C28607CA52C5B86",
        y: "CF5AC8395BAFEB13C02DA292DDED7A83",
        order: "FFFFFFFE0000000075A30D1B9038A115")

    /// NIST P-224, secp224r1 (identifier 10).
    public static let secp224r1 = EllipticCurve(
        name: "secp224r1",
        p: "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF000000000000000000000001",
        a: "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFE",
        b: "B4050A850C04B3ABF54132565044B0B7D7BFD8BA270B39432355FFB4",
        x: "B70E0CBD6BB4BF7F321390B94A03C1D356C21122343280D6115C1D21",
        y: "BD376388B5F723FB4C22DFE6CD4375A05A07476444D5819985007E34",
        order: "FFFFFFFFFFFFFFFFFFFFFFFFFFFF16A2E0B8F03E13DD29455C5C2A3D")

    /// NIST P-256, secp256r1 (identifier 12).
    public static let secp256r1 = EllipticCurve(
        name: "secp256r1",
        p: "FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF",
        a: "FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFC",
        b: "5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B",
        x: "6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296",
        y: "4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5",
        order: "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")

    /// The curve of a standardized domain parameter identifier this build has, or `nil`.
    public static func standardized(_ identifier: Int) -> EllipticCurve? {
        switch identifier {
        case 10: secp224r1
        case 12: secp256r1
        case 13: brainpoolP256r1
        default: nil
        }
    }

    /// The standardized identifier of a curve this build has.
    public var standardizedIdentifier: Int? {
        switch name {
        case "secp224r1": 10
        case "secp256r1": 12
        case "brainpoolP256r1": 13
        default: nil
        }
    }
}
