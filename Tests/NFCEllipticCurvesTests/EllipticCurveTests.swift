import BigInt
import NFCBytes
import NFCEllipticCurves
import Testing

/// Point arithmetic against published values: ICAO Doc 9303 Part 11 Appendix G.1 (PACE generic
/// mapping on brainpoolP256r1) and SEC 1's identities.
@Suite struct EllipticCurveTests {
    static let curve = EllipticCurve.brainpoolP256r1
    static func hex(_ text: String) -> [UInt8] { (try? [UInt8](hex: text)) ?? [] }

    @Test(
        "each curve: G on the curve, n·G at infinity, (n+1)·G = G",
        arguments: [EllipticCurve.brainpoolP256r1, .secp256r1, .secp224r1, .secp128r1])
    func identities(_ curve: EllipticCurve) {
        #expect(curve.contains(curve.generator))
        #expect(curve.multiply(curve.generator, by: curve.order) == .infinity)
        #expect(curve.multiply(curve.generator, by: curve.order + 1) == curve.generator)
        let two = curve.multiply(curve.generator, by: 2)
        #expect(curve.add(curve.generator, curve.generator) == two)
        #expect(curve.add(two, .infinity) == two)
    }

    @Test("G.1: the terminal's and the chip's mapping keys, the shared point H and the mapped generator")
    func appendixG1Mapping() throws {
        let c = Self.curve
        let terminal = c.scalar(Self.hex("7F4EF07B9EA82FD78AD689B38D0BC78CF21F249D953BC46F4C6E19259C010F99"))
        #expect(
            c.encode(c.multiply(c.generator, by: terminal))
                == Self.hex(
                    "047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D"
                ))
        let chipPublic = try #require(
            c.decode(
                Self.hex(
                    "04824FBA91C9CBE26BEF53A0EBE7342A3BF178CEA9F45DE0B70AA601651FBA3F5730D8C879AAA9C9F73991E61B58F4D52EB87A0A0C709A49DC63719363CCD13C54"
                )))
        let shared = c.multiply(chipPublic, by: terminal)
        #expect(
            c.encode(shared)
                == Self.hex(
                    "0460332EF2450B5D247EF6D3868397D398852ED6E8CAF6FFEEF6BF85CA57057FD50840CA7415BAF3E43BD414D35AA4608B93A2CAF3A4E3EA4E82C9C13D03EB7181"
                ))
        let s = c.scalar(Self.hex("3F00C4D39D153F2B2A214A078D899B22"))
        let mapped = c.add(c.multiply(c.generator, by: s), shared)
        #expect(
            c.encode(mapped)
                == Self.hex(
                    "048CED63C91426D4F0EB1435E7CB1D74A46723A0AF21C89634F65A9AE87A9265E28C879506743F8611AC33645C5B985C80B5F09A0B83407C1B6A4D857AE76FE522"
                ))
        // Key agreement on the mapped generator: K is the x-coordinate of SK_IFD · PK_IC.
        let ephemeral = c.scalar(Self.hex("A73FB703AC1436A18E0CFA5ABB3F7BEC7A070E7A6788486BEE230C4A22762595"))
        let chipEphemeral = try #require(
            c.decode(
                Self.hex(
                    "049E880F842905B8B3181F7AF7CAA9F0EFB743847F44A306D2D28C1D9EC65DF6DB7764B22277A2EDDC3C265A9F018F9CB852E111B768B326904B59A0193776F094"
                )))
        #expect(
            c.encode(c.multiply(mapped, by: ephemeral))
                == Self.hex(
                    "042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB36462"
                ), "PK_DH,IFD = SK_DH,IFD · Ĝ")
        #expect(
            c.multiply(chipEphemeral, by: ephemeral).x
                == BigUInt("28768D20701247DAE81804C9E780EDE582A9996DB4A315020B2733197DB84925", radix: 16))
    }

    @Test("decoding refuses a point off the curve, a wrong length and a compressed form")
    func decodeRefuses() {
        let c = Self.curve
        var encoded = c.encode(c.generator)
        #expect(c.decode(encoded) == c.generator)
        encoded[64] ^= 0x01
        #expect(c.decode(encoded) == nil)
        #expect(c.decode(Array(encoded.dropLast())) == nil)
        #expect(c.decode([0x02] + Array(encoded[1...32])) == nil)
    }
}
