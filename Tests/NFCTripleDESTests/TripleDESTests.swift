import NFCBytes
import NFCTripleDES
import Testing

/// Known answers published by NIST for DES, TDEA and CMAC over TDEA.
@Suite struct TripleDESTests {
    private func bytes(_ hex: String) -> [UInt8] { (try? Hex.decode(hex)) ?? [] }

    /// FIPS PUB 81 Appendix B, Table B1 (ECB) and Appendix C, Table C1 (CBC): key
    /// `0123456789ABCDEF`, "Now is the time for all ", CBC IV `1234567890ABCDEF`.
    @Test func fips81ECBAndCBCExamples() throws {
        let des = try TripleDES(key: bytes("0123456789ABCDEF"))
        let plain = Array("Now is the time for all ".utf8)
        var ecb: [UInt8] = []
        for start in stride(from: 0, to: plain.count, by: 8) { ecb += try des.encrypt(block: Array(plain[start..<start + 8])) }
        #expect(ecb == bytes("3FA40E8A984D48156A271787AB8883F9893D51EC4B563B53"))
        let iv = bytes("1234567890ABCDEF")
        let cbc = try des.encryptCBC(plain, iv: iv)
        #expect(cbc == bytes("E5C7CDDE872BF27C43E934008C389C0F683788499A7C05F6"))
        #expect(try des.decryptCBC(cbc, iv: iv) == plain)
        #expect(try des.decrypt(block: Array(ecb[8..<16])) == Array(plain[8..<16]))
    }

    /// NIST SP 800-20 Table 1 (variable plaintext known answer test), key `0101010101010101`
    /// (all parity bits, so every key bit is zero): the first and last entries.
    @Test func sp80020VariablePlaintext() throws {
        let des = try TripleDES(key: bytes("0101010101010101"))
        #expect(try des.encrypt(block: bytes("8000000000000000")) == bytes("95F8A5E5DD31D900"))
        #expect(try des.encrypt(block: bytes("0000000000000001")) == bytes("166B40B44ABA4BD6"))
        // The parity bits are not key bits: `00…00` is the same key.
        let zero = try TripleDES(key: [UInt8](repeating: 0, count: 8))
        #expect(try zero.encrypt(block: bytes("8000000000000000")) == bytes("95F8A5E5DD31D900"))
    }

    /// NIST SP 800-67 Rev. 1 Appendix B (TDEA example, keying option 1): "The qufck brown fox jump".
    @Test func sp80067ThreeKeyExample() throws {
        let tdea = try TripleDES(key: bytes("0123456789ABCDEF23456789ABCDEF01456789ABCDEF0123"))
        let plain = Array("The qufck brown fox jump".utf8)
        var cipher: [UInt8] = []
        for start in stride(from: 0, to: plain.count, by: 8) { cipher += try tdea.encrypt(block: Array(plain[start..<start + 8])) }
        #expect(cipher == bytes("A826FD8CE53B855FCCE21C8112256FE668D5C05DD9B6B900"))
        #expect(try tdea.decryptCBC(cipher.prefix(8).map { $0 }) == Array(plain.prefix(8)))
    }

    /// NIST SP 800-38B (2005) Appendix D.4 (three-key TDEA) and D.5 (two-key TDEA): CMAC of the
    /// empty message, one block, 20 bytes (padded) and four blocks.
    @Test func sp80038BTDEAExamples() throws {
        let message = bytes("6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E51")
        let three = try TripleDES(key: bytes("8AA83BF8CBDA10620BC1BF19FBB6CD58BC313D4A371CA8B5"))
        #expect(three.cmac([]) == bytes("B7A688E122FFAF95"))
        #expect(three.cmac(Array(message.prefix(8))) == bytes("8E8F293136283797"))
        #expect(three.cmac(Array(message.prefix(20))) == bytes("743DDBE0CE2DC2ED"))
        #expect(three.cmac(message) == bytes("33E6B1092400EAE5"))
        let two = try TripleDES(key: bytes("4CF15134A2850DD58A3D10BA80570D38"))
        #expect(two.cmac([]) == bytes("BD2EBF9A3BA00361"))
        #expect(two.cmac(Array(message.prefix(8))) == bytes("4FF2AB813C53CE83"))
        #expect(two.cmac(Array(message.prefix(20))) == bytes("62DD1B471902BD4E"))
        #expect(two.cmac(message) == bytes("31B1E431DABC4EB8"))
    }

    /// A 16-byte key with equal halves is single DES (how DESFire runs DES keys).
    @Test func equalHalvesAreSingleDES() throws {
        let single = try TripleDES(key: bytes("0123456789ABCDEF"))
        let doubled = try TripleDES(key: bytes("0123456789ABCDEF0123456789ABCDEF"))
        let block = bytes("4E6F772069732074")
        #expect(try single.encrypt(block: block) == doubled.encrypt(block: block))
    }

    @Test func wrongLengthsAreTypedErrors() throws {
        #expect(throws: TripleDESError(.keyLength, "")) { try TripleDES(key: [1, 2, 3]) }
        let des = try TripleDES(key: bytes("0123456789ABCDEF"))
        #expect(throws: TripleDESError(.blockLength, "")) { try des.encrypt(block: [1]) }
        #expect(throws: TripleDESError(.blockLength, "")) { try des.encryptCBC([1, 2, 3]) }
        #expect(throws: TripleDESError(.blockLength, "")) { try des.decryptCBC(bytes("0011223344556677"), iv: [0]) }
    }
}
