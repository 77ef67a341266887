/// LRP authentication (NT4H2421Gx §9.2.5, §9.2.6, §10.4.3, §10.4.4; AN12343 §7.2): a tag
/// switched to LRP mode takes no other.
extension DESFireClient {
    /// PCDcap2 asking for LRP: PCDcap2.1 bit 1 (§9.2.5; AN12343 Table 19 sends six bytes).
    static let lrpCapabilities: [UInt8] = [0x02, 0x00, 0x00, 0x00, 0x00, 0x00]

    /// AuthenticateLRPFirst: `71` KeyNo LenCap PCDcap2 with PCDcap2.1 bit 1; the card answers
    /// `01` ‖ RndB in the clear, the reader RndA ‖ CMAC_LRP(SesAuthMACKey, RndA ‖ RndB), the card
    /// PICCData ‖ CMAC_LRP(SesAuthMACKey, RndB ‖ RndA ‖ PICCData), PICCData = LRICB(TI ‖ PDcap2 ‖
    /// PCDcap2) at EncCtr 0. Opens an LRP session (``LRPSession``: new TI, CmdCtr 0, EncCtr 1).
    /// - Throws: ``DESFireError`` `.authenticationError` when the card refuses the key (`91 AE`),
    ///   `.permissionDenied` from a card that has not been switched to LRP mode but says so by
    ///   answering the AES way (it offers AES authentication instead: 16 bytes of E(Kx, RndB)),
    ///   `.authenticationFailed` when the card's answer does not prove the key, `.wrongKey` for a
    ///   key that is not 16 bytes.
    public func authenticateLRP(keyNumber: UInt8, key: [UInt8]) async throws {
        channel = nil
        let name = "AuthenticateLRPFirst"
        let (rndA, rndB, master, answer) = try await lrpChallenge(
            0x71, [keyNumber, UInt8(Self.lrpCapabilities.count)] + Self.lrpCapabilities, key: key, name: name, answerLength: 32)
        do {
            var session = try LRPSession(
                keyNumber: keyNumber, masterKey: master, transactionIdentifier: [0, 0, 0, 0], encryptionCounter: 0)
            let piccData = Array(answer[0..<16])
            guard try session.authenticationMAC(rndB + rndA + piccData) == Array(answer[16..<32]) else {
                throw DESFireError(.authenticationFailed, "the card's answer does not prove key \(keyNumber)")
            }
            let plain = try session.encipher(piccData, padding: false, decrypt: true)
            channel = .lrp(try LRPSession(keyNumber: keyNumber, masterKey: master, transactionIdentifier: Array(plain[0..<4])))
        } catch {
            channel = nil
            throw error
        }
    }

    /// AuthenticateLRPNonFirst (`77` KeyNo): changes the LRP session's key, keeping TI and CmdCtr;
    /// the card's last word is CMAC_LRP(SesAuthMACKey, RndB ‖ RndA), and EncCtr starts again at 0.
    /// - Throws: ``DESFireError`` `.notAuthenticated` without an LRP session, else as
    ///   ``authenticateLRP(keyNumber:key:)``.
    public func authenticateLRPNonFirst(keyNumber: UInt8, key: [UInt8]) async throws {
        guard case .lrp(let current) = channel else {
            throw DESFireError(.notAuthenticated, "AuthenticateLRPNonFirst needs an LRP session (AuthenticateLRPFirst)")
        }
        let (rndA, rndB, master, answer) = try await lrpChallenge(
            0x77, [keyNumber], key: key, name: "AuthenticateLRPNonFirst", answerLength: 16)
        do {
            let session = try LRPSession(
                keyNumber: keyNumber, masterKey: master, transactionIdentifier: current.transactionIdentifier,
                commandCounter: current.commandCounter, encryptionCounter: 0)
            guard try session.authenticationMAC(rndB + rndA) == answer else {
                throw DESFireError(.authenticationFailed, "the card's answer does not prove key \(keyNumber)")
            }
            channel = .lrp(session)
        } catch {
            channel = nil
            throw error
        }
    }

    /// The two frames both LRP authentications share: `01` ‖ RndB from the card, RndA ‖ PCDResp
    /// back; the card's answer as it came.
    private func lrpChallenge(
        _ ins: UInt8, _ data: [UInt8], key: [UInt8], name: String, answerLength: Int
    ) async throws -> (rndA: [UInt8], rndB: [UInt8], master: [UInt8], answer: [UInt8]) {
        guard key.count == 16 else { throw DESFireError(.wrongKey, "an AES-128 key has 16 bytes, not \(key.count)") }
        do {
            let first = try await exchange(ins, data, name: name, follow: false)
            guard first.status == 0xAF else { throw DESFireError.status(first.status, command: name) }
            if first.data.count == 16 {
                // An AES-mode card offers AES authentication instead (§9, Table 19); end it here.
                throw DESFireError(.permissionDenied, "\(name): the card answered the AES way: it is not in LRP mode")
            }
            guard first.data.count == 17, first.data[0] == 0x01 else {
                throw DESFireError(.malformedResponse, "\(name) answered \(first.data.count) bytes; AuthMode 01 and RndB (17) expected")
            }
            let rndB = Array(first.data[1..<17])
            let rndA = random(16)
            guard rndA.count == 16 else { throw DESFireError(.invalidArgument, "RndA has 16 bytes") }
            let master = try LRPSession.masterKey(key: key, rndA: rndA, rndB: rndB)
            let proof = try LRPSession(keyNumber: 0, masterKey: master, transactionIdentifier: [0, 0, 0, 0]).authenticationMAC(rndA + rndB)
            let second = try await exchange(0xAF, rndA + proof, name: name, follow: false)
            guard second.status == 0x00 else { throw DESFireError.status(second.status, command: name) }
            guard second.data.count == answerLength else {
                throw DESFireError(
                    .malformedResponse, "\(name) answered \(second.data.count) bytes in its second frame; \(answerLength) expected")
            }
            return (rndA, rndB, master, second.data)
        } catch {
            channel = nil
            throw error
        }
    }
}

extension DESFireClient {
    /// A full-mode command whose success ends the session and carries no MAC (ChangeKey of the
    /// session's own key; SetConfiguration switching an NTAG 424 DNA to LRP).
    /// - Throws: ``DESFireError`` `.notAuthenticated` without a session, the card's status otherwise.
    func commandEndingSession(_ name: String, _ ins: UInt8, header: [UInt8], data: [UInt8]) async throws {
        guard var current = channel else { throw DESFireError(.notAuthenticated, "\(name) needs a session") }
        let wire = try current.protect(command: ins, header: header, data: data, mode: .full)
        channel = nil
        let answer = try await exchange(ins, wire, name: name)
        guard answer.status == 0x00 else { throw DESFireError.status(answer.status, command: name) }
    }
}
