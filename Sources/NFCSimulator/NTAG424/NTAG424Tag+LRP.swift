/// LRP mode on the card side (NT4H2421Gx §9.2, §10.4.3, §10.4.4, §10.5.1): the switch to it and
/// the LRP authentication; secure messaging itself branches in ``open(ins:_:headerLength:mode:)``
/// and ``seal(_:mode:writes:status:)``.
extension NTAG424Tag {
    /// The second frame of AuthenticateLRPFirst or NonFirst: RndA ‖ PCDResp, PCDResp the full
    /// CMAC_LRP(SesAuthMACKey, RndA ‖ RndB). SesAuthMasterKey = CMAC_LRP(Kx, SV), SV = `00 01 00
    /// 80` ‖ RndA[15..14] ‖ (RndA[13..8] ⊕ RndB[15..10]) ‖ RndB[9..0] ‖ RndA[7..0] ‖ `96 69`
    /// (§9.2.7); its updated key 0 MACs, updated key 1 enciphers. First answers PICCData ‖
    /// PICCResp: PICCData = LRICB(TI ‖ PDcap2 ‖ PCDcap2) at EncCtr 0, unpadded, PICCResp =
    /// CMAC_LRP(RndB ‖ RndA ‖ PICCData); CmdCtr starts at 0 and EncCtr at 1. NonFirst answers
    /// CMAC_LRP(RndB ‖ RndA) alone, keeping TI and CmdCtr, EncCtr back to 0 (§9.2.6).
    mutating func finishLRPAuthentication(
        keyNumber: UInt8, rndB: [UInt8], first: Bool, pcdCapabilities: [UInt8], _ data: [UInt8]
    ) -> SimResponseAPDU {
        guard data.count == 32 else { return Self.native(.lengthError) }
        let rndA = Array(data[0..<16])
        let vector =
            [0x00, 0x01, 0x00, 0x80] + Array(rndA[0..<2]) + zip(rndA[2..<8], rndB[0..<6]).map { $0 ^ $1 } + Array(rndB[6..<16])
            + Array(rndA[8..<16]) + [0x96, 0x69]
        guard let master = NTAG424LRP(key: keys[Int(keyNumber)].value, updatedKeyCount: 1)?.cmac(vector),
            let lrp = NTAG424LRP(key: master), let expected = lrp.cmac(rndA + rndB)
        else { return Self.native(.integrityError) }
        guard expected == Array(data[16..<32]) else { return Self.native(.authenticationError) }
        guard first else {
            guard let previous = session, let proof = lrp.cmac(rndB + rndA) else { return Self.native(.permissionDenied) }
            session = Session(
                keyNumber: keyNumber, encryption: [], mac: [], ti: previous.ti, counter: previous.counter, lrp: lrp, encryptionCounter: 0)
            return Self.native(proof, .ok)
        }
        let ti = random(4)
        let pcd = Array((pcdCapabilities + [UInt8](repeating: 0, count: 6)).prefix(6))
        var counter: [UInt8] = [0, 0, 0, 0]
        guard let piccData = lrp.lricb(ti + Self.lrpCapabilities + pcd, updatedKey: 1, counter: &counter, decrypt: false),
            let proof = lrp.cmac(rndB + rndA + piccData)
        else { return Self.native(.integrityError) }
        session = Session(keyNumber: keyNumber, encryption: [], mac: [], ti: ti, counter: 0, lrp: lrp, encryptionCounter: 1)
        return Self.native(piccData + proof, .ok)
    }

    /// PDcap2 of a tag in LRP mode: PDCap2.1 bit 1 set (§10.5.1, Table 50).
    static let lrpCapabilities: [UInt8] = [0x02, 0x00, 0x00, 0x00, 0x00, 0x00]

    /// SetConfiguration (`5C`, §10.5.1): Option, then the data in full mode under key 0. Option
    /// `05` (capability data, 10 bytes: PDCap2.1 at byte 4, PDCap2.5–6 at 8–9) with PDCap2.1 bit 1
    /// switches the tag to LRP mode, which cannot be undone: the AES session ends (the answer
    /// carries no MAC) and SDM is switched off on every file (§9.3.4.2), to be set again in LRP
    /// secure messaging. Other options are not modelled (PARAMETER_ERROR).
    mutating func setConfiguration(_ data: [UInt8]) -> SimResponseAPDU {
        guard let option = data.first else { return Self.native(.lengthError) }
        guard let current = session, current.keyNumber == 0 else { return Self.native(.authenticationError) }
        switch open(ins: 0x5C, data, headerLength: 1, mode: .full) {
        case .failure(let status): return Self.native(status)
        case .success(let parts):
            guard option == 0x05 else { return Self.native(.parameterError) }
            guard parts.body.count == 10 else { return Self.native(.lengthError) }
            guard parts.body[4] & 0x02 != 0, !lrpMode else { return seal([], mode: .full, writes: true) }
            lrpMode = true  // and SDM off (``lrpMode``)
            session = nil
            return Self.native(.ok, writes: true)
        }
    }
}
