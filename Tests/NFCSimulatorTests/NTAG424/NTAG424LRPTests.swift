import NFCTestSupport
import Testing

@testable import NFCSimulator

/// The card's own Leakage Resilient Primitive against AN12304's test vectors (the §2 plaintexts
/// and updated keys, and EvalLRP, CMAC_LRP and LRICB vectors as the field's implementations
/// carry them: nfc-developer/sdm-backend `tests/`, RfidResearchGroup/proxmark3 `desfiretest.c`).
/// The client's primitive is held to all of them in `LeakageResilientPrimitiveTests`; these keep
/// the card's independent one honest.
@Suite struct NTAG424LRPTests {
    static func lrp(_ key: String, updatedKeys: Int = 4) throws -> NTAG424LRP {
        try #require(NTAG424LRP(key: hexBytes(key), updatedKeyCount: updatedKeys))
    }

    @Test("AN12304 §2: plaintexts and updated keys of 567826B8DA8E768432A9548DBE4AA3A0")
    func plaintextsAndUpdatedKeys() throws {
        let lrp = try Self.lrp("567826B8DA8E768432A9548DBE4AA3A0", updatedKeys: 3)
        #expect(lrp.plaintexts[0] == hexBytes("AC20D39F5341FE98DFCA21DA86BA7914"))
        #expect(lrp.plaintexts[15] == hexBytes("71B444AF257A93215311D758DD333247"))
        #expect(
            lrp.updatedKeys
                == ["163D14ED24ED935373568EC521E96CF4", "1C519C000208B95A39A65DB058327188", "FE30AB50467E61783BFE6B5E0560160E"].map(
                    hexBytes))
    }

    @Test("AN12304 EvalLRP: whole-byte inputs, final")
    func evaluations() throws {
        for (key, updated, input, output) in [
            ("A14E397DA6C410440FA9EC4C61774094", 0, "4B42600D", "21C0B442BF41B7DDD80D4A99CD7B7B81"),
            ("75FCA5E188F44F1E808597A0B7B690D4", 1, "64962F5DED0468F1", "EBD6F32ED75566E6756A14EC16715CBD"),
            ("E28DFE591559441D04213D889747BC46", 2, "414E42E7", "5E8BF483C2D6DA906EC58D1B63AC9887"),
            ("9FBC2045FA6215B4FD1ABA412DD9C59D", 1, "F9B72310BDAE086C51D354B65F1F05F1", "3F410411D5ED704572D06EDE6AB45CA2"),
            ("FA89CC662EF47C75A9887F12A6C9879F", 0, "B9", "4973ECE66EEE903D4761EF3960210735"),
        ] {
            #expect(try Self.lrp(key).eval(hexBytes(input), updatedKey: updated) == hexBytes(output), "\(key)")
        }
    }

    @Test("AN12304 CMAC_LRP: empty, partial and whole last blocks")
    func macs() throws {
        for (key, message, mac) in [
            ("63A0169B4D9FE42C72B2784C806EAC21", "", "0E07C601970814A4176FDA633C6FC3DE"),
            ("8195088CE6C393708EBBE6C7914ECB0B", "BBD5B85772C7", "AD8595E0B49C5C0DB18E77355F5AAFF6"),
            ("3E521285C1B089D7083214AA2871E299", "99472DB3A480E63173D39E9F5D", "132A1027AD89A5F26C200966D581554B"),
        ] {
            #expect(try Self.lrp(key).cmac(hexBytes(message)) == hexBytes(mac), "\(key)")
        }
    }

    @Test("AN12304 LRICB: both ways, the counter carrying and wrapping across blocks")
    func lricb() throws {
        for (key, counter, plain, cipher) in [
            ("EFA5B7429CD153BF0086DEF900C0F235", "9036FFFF", "E7F61E012F4F3255312BA68B1D2FDABF", "EA6E09AC2FB97E102D8CA64C1CBC0C0C"),
            (
                "1B1A179CE9C0DB3E45A97D0D98D0530C", "E9FFFFFF",
                "472DBAFE6434D357402785A3348081B02EAB54244EE9C9C88E91001C5158992DE36E79AD844645493940902C8746669B",
                "397C9EFFD28C560411B934895C8DF60F082B9560778F8571B5C31A057B34C2352F11B5634788623499C6BDD5C490F5CB"
            ),
        ] {
            let lrp = try Self.lrp(key)
            var forward = hexBytes(counter)
            #expect(lrp.lricb(hexBytes(plain), updatedKey: 0, counter: &forward, decrypt: false) == hexBytes(cipher), "\(key)")
            var back = hexBytes(counter)
            #expect(lrp.lricb(hexBytes(cipher), updatedKey: 0, counter: &back, decrypt: true) == hexBytes(plain), "\(key)")
            #expect(forward == back)
        }
        var counter = hexBytes("FFFFFFFF")
        _ = try Self.lrp("9D813134CFDEE9D58755DEACD4AF72A7").lricb(
            [UInt8](repeating: 0, count: 16), updatedKey: 0, counter: &counter, decrypt: false)
        #expect(counter == [0, 0, 0, 0], "FFFFFFFF wraps to zero")
    }

    @Test("refusals: a short key, a missing updated key, data that is not whole blocks")
    func refusals() throws {
        #expect(NTAG424LRP(key: [UInt8](repeating: 0, count: 15)) == nil)
        let lrp = try Self.lrp("00000000000000000000000000000000", updatedKeys: 2)
        #expect(lrp.eval([1], updatedKey: 2) == nil)
        var counter: [UInt8] = [0]
        #expect(lrp.lricb([1, 2, 3], updatedKey: 0, counter: &counter, decrypt: false) == nil)
    }
}
