import NFCTestSupport

/// OATH's answers for ``ScriptedTransmitter`` (NFCTestSupport): a card that answers from a
/// script and records the commands.
extension ScriptedTransmitter {
    /// A SELECT answer: version 5.3.1, name 0102030405060708, and a challenge when given.
    static func selectAnswer(challenge: [UInt8]? = nil) -> [UInt8] {
        var data: [UInt8] = [0x79, 0x03, 0x05, 0x03, 0x01, 0x71, 0x08, 1, 2, 3, 4, 5, 6, 7, 8]
        if let challenge { data += [0x74, UInt8(challenge.count)] + challenge + [0x7B, 0x01, 0x01] }
        return data + [0x90, 0x00]
    }
}
