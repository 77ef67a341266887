import ISO7816
import NFCTripleDES

/// Basic Access Control (ICAO Doc 9303 Part 11 §4.3): GET CHALLENGE, then a mutual
/// authentication with EXTERNAL AUTHENTICATE under keys derived from the MRZ, which yields the
/// 3DES secure-messaging keys and the starting send sequence counter.
package enum BasicAccessControl {
    /// The terminal's side of the exchange as values, so a published example can be replayed:
    /// the command data it sends for the chip's challenge, and how it checks the answer.
    package struct Terminal: Sendable {
        /// K_Enc from the MRZ.
        package let encryptionKey: [UInt8]
        /// K_MAC from the MRZ.
        package let macKey: [UInt8]
        /// RND.IFD: the terminal's 8-byte challenge.
        package let terminalNonce: [UInt8]
        /// K.IFD: the terminal's 16-byte keying material.
        package let terminalKeyMaterial: [UInt8]

        /// The terminal for `key`, with its nonce and keying material (fresh random bytes unless given).
        package init(key: MRZKey, terminalNonce: [UInt8]? = nil, terminalKeyMaterial: [UInt8]? = nil) {
            let seed = KeyDerivation.bacKeySeed(key)
            encryptionKey = KeyDerivation.tripleDESKey(seed: seed, purpose: .encryption)
            macKey = KeyDerivation.tripleDESKey(seed: seed, purpose: .mac)
            var generator = SystemRandomNumberGenerator()
            self.terminalNonce = terminalNonce ?? (0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            self.terminalKeyMaterial = terminalKeyMaterial ?? (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }

        /// EXTERNAL AUTHENTICATE's data for the chip's challenge RND.IC: E_IFD ‖ M_IFD (40 bytes).
        /// - Throws: ``EMRTDError`` `.unexpectedStatus` when the challenge is not 8 bytes.
        package func authenticationData(chipNonce: [UInt8]) throws(EMRTDError) -> [UInt8] {
            guard chipNonce.count == 8 else {
                throw EMRTDError(.unexpectedStatus, "GET CHALLENGE gave \(chipNonce.count) bytes, not 8")
            }
            do {
                let encrypted = try TripleDES(key: encryptionKey).encryptCBC(terminalNonce + chipNonce + terminalKeyMaterial)
                return encrypted + (try RetailMAC(key: macKey).mac(padded: RetailMAC.pad(encrypted)))
            } catch {
                throw EMRTDError(.authenticationFailed, "\(error)")
            }
        }

        /// The session the chip's answer E_IC ‖ M_IC opens, after its MAC and RND.IFD are checked.
        /// - Throws: ``EMRTDError`` `.authenticationFailed` when the answer does not verify.
        package func session(chipNonce: [UInt8], answer: [UInt8]) throws(EMRTDError) -> SecureMessaging {
            guard answer.count == 40 else {
                throw EMRTDError(.authenticationFailed, "EXTERNAL AUTHENTICATE answered \(answer.count) bytes, not 40")
            }
            let encrypted = Array(answer[0..<32])
            let plain: [UInt8]
            do {
                guard try RetailMAC(key: macKey).mac(padded: RetailMAC.pad(encrypted)) == Array(answer[32..<40]) else {
                    throw EMRTDError(.authenticationFailed, "the chip's MAC (M_IC) does not verify")
                }
                plain = try TripleDES(key: encryptionKey).decryptCBC(encrypted)
            } catch let error as EMRTDError {
                throw error
            } catch {
                throw EMRTDError(.authenticationFailed, "\(error)")
            }
            guard Array(plain[0..<8]) == chipNonce, Array(plain[8..<16]) == terminalNonce else {
                throw EMRTDError(.authenticationFailed, "the chip's answer does not hold RND.IC ‖ RND.IFD")
            }
            let chipKeyMaterial = Array(plain[16..<32])
            let seed = zip(terminalKeyMaterial, chipKeyMaterial).map { $0 ^ $1 }
            let counter = (chipNonce[4..<8] + terminalNonce[4..<8]).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return try SecureMessaging(
                encryptionKey: KeyDerivation.tripleDESKey(seed: seed, purpose: .encryption),
                macKey: KeyDerivation.tripleDESKey(seed: seed, purpose: .mac),
                sendSequenceCounter: counter)
        }
    }

    /// Runs BAC over `transmitter` (the eMRTD application already selected).
    /// - Throws: ``EMRTDError`` `.accessDenied` when the chip refuses the MRZ (`6300`),
    ///   `.authenticationFailed` when its answer does not verify, `.transport` when the exchange fails.
    package static func establish(key: MRZKey, over transmitter: any APDUTransmitter) async throws(EMRTDError) -> SecureMessaging {
        let terminal = Terminal(key: key)
        let challenge = try await PlainExchange.send(CommandAPDU(ins: 0x84, expectedLength: 8), over: transmitter)
        guard challenge.statusWord == .success else {
            throw EMRTDError(.unexpectedStatus, statusWord: challenge.statusWord, "GET CHALLENGE was refused")
        }
        let data = try terminal.authenticationData(chipNonce: challenge.data)
        let answer = try await PlainExchange.send(CommandAPDU(ins: 0x82, data: data, expectedLength: 40), over: transmitter)
        guard answer.statusWord == .success else {
            throw EMRTDError(
                .accessDenied, statusWord: answer.statusWord,
                "the chip refused Basic Access Control: the document number, birth or expiry date does not match")
        }
        return try terminal.session(chipNonce: challenge.data, answer: answer.data)
    }
}

/// One unprotected command, its transport errors as ``EMRTDError`` `.transport`.
enum PlainExchange {
    static func send(_ command: CommandAPDU, over transmitter: any APDUTransmitter) async throws(EMRTDError) -> ResponseAPDU {
        do {
            return try await transmitter.send(command)
        } catch let error as APDUError {
            throw EMRTDError(.transport, "\(command.description): \(error)")
        } catch {
            throw EMRTDError(.transport, "\(error)")
        }
    }
}
