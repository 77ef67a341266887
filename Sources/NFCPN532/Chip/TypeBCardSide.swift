import NFCTransport

/// The card's side of ISO/IEC 14443-3 Type B for readers that send its commands as raw frames
/// (nfcpy, through a virtual PN532's InCommunicateThru or over UDP), for a card the field lists.
enum TypeBCardSide {
    /// What a Type B command asks of the card.
    enum Command: Equatable {
        /// REQB or WUPB (`05 AFI PARAM`, ISO/IEC 14443-3:2018 §7.7): answered with ATQB.
        case request(wakeUp: Bool)
        /// ATTRIB (`1D PUPI Param1…4 [higher-layer INF]`, §7.10) for this card; the CID is Param 4's
        /// low nibble, the reader's frame size code (FSDI) Param 2's (§7.10.4).
        case attrib(cid: UInt8, frameSizeCode: UInt8)
        /// HLTB (`50 PUPI`, §7.11) for this card: answered `00`.
        case halt
    }

    /// The command `frame` is for the card with `pupi`, or nil for any other frame.
    static func command(_ frame: [UInt8], pupi: [UInt8]) -> Command? {
        if frame.count == 3, frame[0] == 0x05 { return .request(wakeUp: frame[2] & 0x08 != 0) }
        if frame.count >= 9, frame[0] == 0x1D, Array(frame[1...4]) == pupi {
            return .attrib(cid: frame[8] & 0x0F, frameSizeCode: frame[6] & 0x0F)
        }
        if frame.count == 5, frame[0] == 0x50, Array(frame[1...4]) == pupi { return .halt }
        return nil
    }

    /// ATQB (§7.9): `50`, PUPI, application data, protocol info.
    static func atqb(_ target: TargetInfo, _ b: TargetInfo.ISO14443B) -> [UInt8] {
        [0x50] + target.identifier + b.applicationData + b.protocolInfo
    }

    /// The answer to ATTRIB (§7.10.3): MBLI 0 and the CID, then the higher-layer response.
    static func attribAnswer(cid: UInt8, _ b: TargetInfo.ISO14443B) -> [UInt8] {
        [cid & 0x0F] + b.higherLayerResponse
    }
}
