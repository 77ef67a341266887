/// GET DATA and PUT DATA, and the objects made with the applet (SP 800-73-4 Part 2 §3.1.2, §3.3.2).
extension PIVApplet {
    /// The largest object PUT DATA stores (a certificate container with a long chain fits).
    static let maxObjectSize = 4_096

    /// The tags a data object may have: `7E`, or `5FC1xx` (SP 800-73-4 Part 1 Table 3) and the
    /// `5FFFxx` range vendors use for their own objects.
    static func isObjectTag(_ tag: UInt32) -> Bool {
        tag == PIVObjectTag.discovery || (0x5FC100...0x5FC1FF).contains(tag) || (0x5FFF00...0x5FFFFF).contains(tag)
    }

    /// `00 CB 3F FF` with `5C` naming the object; answers `53` with its contents (`7E` for the
    /// discovery object), `6A82` when it does not exist.
    mutating func getData(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p1 == 0x3F, command.p2 == 0xFF else { return SimResponseAPDU(.incorrectP1P2) }
        guard let list = PIVTLV.parseAll(command.data), list.count == 1, let name = PIVTLV.first(0x5C, in: list),
            (1...3).contains(name.value.count)
        else { return SimResponseAPDU(.incorrectData) }
        let tag = name.value.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        if tag == PIVObjectTag.discovery { return SimResponseAPDU(data: Self.discoveryObject) }
        guard Self.isObjectTag(tag) else { return SimResponseAPDU(.incorrectData) }
        guard let contents = objects[tag] else { return SimResponseAPDU(.fileNotFound) }
        return SimResponseAPDU(data: PIVTLV(0x53, contents).bytes)
    }

    /// `00 DB 3F FF` with `5C` and `53`: stores (or, with an empty `53`, deletes) an object.
    /// Needs the administration key; the discovery object cannot be written.
    mutating func putData(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p1 == 0x3F, command.p2 == 0xFF else { return SimResponseAPDU(.incorrectP1P2) }
        guard managementAuthenticated else { return SimResponseAPDU(.securityStatusNotSatisfied) }
        guard let list = PIVTLV.parseAll(command.data), list.count == 2, list[0].tag == 0x5C, list[1].tag == 0x53,
            (1...3).contains(list[0].value.count)
        else { return SimResponseAPDU(.incorrectData) }
        let tag = list[0].value.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard tag != PIVObjectTag.discovery, Self.isObjectTag(tag) else { return SimResponseAPDU(.incorrectData) }
        guard list[1].value.count <= Self.maxObjectSize else { return SimResponseAPDU(.notEnoughMemory) }
        if list[1].value.isEmpty {
            objects[tag] = nil
        } else {
            objects[tag] = list[1].value
        }
        return SimResponseAPDU(data: [], status: .success, writesMemory: true)
    }

    /// The discovery object (SP 800-73-4 Part 1 §3.3.2): the PIV AID and the PIN usage policy
    /// `40 00` (only the PIV application PIN, no global PIN, no pairing code).
    static var discoveryObject: [UInt8] {
        PIVTLV(0x7E, PIVTLV(0x4F, fullAID).bytes + PIVTLV(0x5F2F, [0x40, 0x00]).bytes).bytes
    }

    /// A CHUID (SP 800-73-4 Part 1 §3.1.2, TIG SCEPACS): the FASC-N of agency 9999, system 9999,
    /// credential 999999 (the value for cards outside federal issuance), a random GUID, an
    /// expiration date, an empty issuer signature and the error detection code.
    static func makeCHUID() -> [UInt8] {
        let fascN: [UInt8] = [
            0xD4, 0xE7, 0x39, 0xDA, 0x73, 0x9C, 0xED, 0x39, 0xCE, 0x73, 0x9D, 0x83, 0x68,
            0x58, 0x21, 0x08, 0x42, 0x10, 0x84, 0x21, 0xC8, 0x42, 0x10, 0xC3, 0xEB,
        ]
        var generator = SystemRandomNumberGenerator()
        let guid = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return PIVTLV(0x30, fascN).bytes + PIVTLV(0x34, guid).bytes + PIVTLV(0x35, Array("20991231".utf8)).bytes
            + PIVTLV(0x3E, []).bytes + PIVTLV(0xFE, []).bytes
    }

    /// A Card Capability Container (SP 800-73-4 Part 1 §3.1.1): a card identifier of the GSC-RID
    /// `A000000116`, manufacturer `FF`, card type `02` and 14 random bytes; versions `21`; data
    /// model `10`; the other elements empty.
    static func makeCCC() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let identifier: [UInt8] =
            [0xA0, 0x00, 0x00, 0x01, 0x16, 0xFF, 0x02] + (0..<14).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var out = PIVTLV(0xF0, identifier).bytes + PIVTLV(0xF1, [0x21]).bytes + PIVTLV(0xF2, [0x21]).bytes
        out += PIVTLV(0xF3, []).bytes + PIVTLV(0xF4, [0x00]).bytes + PIVTLV(0xF5, [0x10]).bytes + PIVTLV(0xF6, []).bytes
        out += PIVTLV(0xF7, []).bytes + PIVTLV(0xFA, []).bytes + PIVTLV(0xFB, []).bytes + PIVTLV(0xFC, []).bytes
        out += PIVTLV(0xFD, []).bytes + PIVTLV(0xFE, []).bytes
        return out
    }
}
