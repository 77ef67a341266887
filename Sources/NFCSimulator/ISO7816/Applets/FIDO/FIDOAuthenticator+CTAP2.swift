import Crypto
import NFCCBOR

/// CTAP2 commands (CTAP 2.1 §6): the first byte names the command, CBOR parameters follow; the
/// answer is a status byte then, on success, a CBOR map.
extension FIDOAuthenticator {
    /// Answers one CTAP2 message: the response body and whether state was written.
    mutating func ctap2(_ message: [UInt8]) -> (body: [UInt8], writes: Bool) {
        guard let command = message.first else { return ([CTAP2Status.invalidLength.rawValue], false) }
        let parameters: CBOR
        if message.count == 1 {
            parameters = .map([:])
        } else {
            do {
                parameters = try CBOR(decoding: Array(message.dropFirst()))
            } catch {
                return ([CTAP2Status.invalidCBOR.rawValue], false)
            }
        }
        guard parameters.mapValue != nil else { return ([CTAP2Status.cborUnexpectedType.rawValue], false) }
        if command != 0x08 { nextAssertions = nil }
        do {
            let result: CBOR?
            var writes = false
            switch command {
            case 0x04: result = getInfo()
            case 0x01:
                result = try makeCredential(parameters)
                writes = true
            case 0x02:
                result = try getAssertion(parameters)
                writes = true
            case 0x08:
                result = try getNextAssertion()
                writes = true
            case 0x06:
                (result, writes) = try clientPIN(parameters)
            case 0x0B:
                // authenticatorSelection (§6.9): the tap already selected this key.
                result = nil
            case 0x07:
                resetAuthenticator()
                result = nil
                writes = true
            default:
                throw CTAP2Failure(.invalidCommand)
            }
            return ([CTAP2Status.ok.rawValue] + (result?.encoded ?? []), writes)
        } catch let failure as CTAP2Failure {
            return ([failure.status.rawValue], failure.wroteMemory)
        } catch {
            return ([CTAP2Status.invalidParameter.rawValue], false)
        }
    }

    /// authenticatorGetInfo (§6.4).
    func getInfo() -> CBOR {
        .map([
            .int(1): ["U2F_V2", "FIDO_2_0", "FIDO_2_1"],
            .int(3): .bytes(aaguid),
            .int(4): .map(["rk": true, "up": true, "plat": false, "clientPin": .bool(hasPIN), "pinUvAuthToken": true]),
            .int(5): .int(maxMsgSize),
            .int(6): [2],
            .int(9): ["nfc"],
            .int(10): [["alg": -7, "type": "public-key"]],
        ])
    }

    /// authenticatorReset (§6.6): forgets credentials and the PIN, makes a new wrapping key (so
    /// old credential IDs and key handles stop working).
    mutating func resetAuthenticator() {
        residentCredentials.removeAll()
        pinHash = nil
        pinRetries = Self.maximumPINRetries
        wrappingKey = Self.randomBytes(32)
        reset()
    }

    /// authenticatorMakeCredential (§6.1), ES256 only.
    mutating func makeCredential(_ p: CBOR) throws -> CBOR {
        let clientDataHash = try Self.required(p[1]?.bytesValue, p[1])
        let rp = try Self.required(p[2]?.mapValue, p[2])
        let rpID = try Self.required(rp[.text("id")]?.textValue, rp[.text("id")])
        let user = try Self.required(p[3]?.mapValue, p[3])
        let userID = try Self.required(user[.text("id")]?.bytesValue, user[.text("id")])
        let algorithms = try Self.required(p[4]?.arrayValue, p[4])
        let options = p[7]?.mapValue ?? [:]
        let wantsResident = options[.text("rk")]?.boolValue ?? false
        if options[.text("up")]?.boolValue == false { throw CTAP2Failure(.invalidOption) }
        if options[.text("uv")]?.boolValue == true { throw CTAP2Failure(.unsupportedOption) }
        let verified = try checkPinUvAuth(p[8], protocol: p[9], clientDataHash: clientDataHash, permission: 0x01, rpID: rpID)
        guard algorithms.contains(where: { $0["alg"]?.intValue == -7 && $0["type"]?.textValue == "public-key" }) else {
            throw CTAP2Failure(.unsupportedAlgorithm)
        }
        let rpIDHash = Self.sha256(Array(rpID.utf8))
        for descriptor in p[5]?.arrayValue ?? [] {
            if let id = descriptor["id"]?.bytesValue, unwrap(id, rpIDHash: rpIDHash) != nil {
                throw CTAP2Failure(.credentialExcluded)
            }
        }
        let key = P256.Signing.PrivateKey()
        var scalar = Array(key.rawRepresentation)
        defer { Self.wipe(&scalar) }
        let credentialID = wrap(scalar, rpIDHash: rpIDHash)
        if wantsResident {
            residentCredentials.removeAll { $0.rpID == rpID && $0.userID == userID }
            guard residentCredentials.count < Self.maximumResidentCredentials else { throw CTAP2Failure(.keyStoreFull) }
            residentCredentials.append(
                ResidentCredential(
                    credentialID: credentialID, rpID: rpID, userID: userID,
                    userName: user[.text("name")]?.textValue, displayName: user[.text("displayName")]?.textValue,
                    privateKey: scalar))
        }
        signatureCounter &+= 1
        let flags: UInt8 = 0x41 | (verified ? 0x04 : 0)  // UP, AT, UV
        let coseKey: CBOR = .map([
            .int(1): 2, .int(3): -7, .int(-1): 1,
            .int(-2): .bytes(Array(key.publicKey.x963Representation.dropFirst().prefix(32))),
            .int(-3): .bytes(Array(key.publicKey.x963Representation.suffix(32))),
        ])
        let authData =
            rpIDHash + [flags] + Self.bigEndian(signatureCounter) + aaguid
            + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID + coseKey.encoded
        let signature = Self.sign(authData + clientDataHash, with: key)
        return .map([
            .int(1): "packed",
            .int(2): .bytes(authData),
            .int(3): .map(["alg": -7, "sig": .bytes(signature)]),
        ])
    }

    /// authenticatorGetAssertion (§6.2).
    mutating func getAssertion(_ p: CBOR) throws -> CBOR {
        let rpID = try Self.required(p[1]?.textValue, p[1])
        let clientDataHash = try Self.required(p[2]?.bytesValue, p[2])
        let options = p[5]?.mapValue ?? [:]
        if options[.text("uv")]?.boolValue == true { throw CTAP2Failure(.unsupportedOption) }
        let presence = options[.text("up")]?.boolValue ?? true
        let verified = try checkPinUvAuth(p[6], protocol: p[7], clientDataHash: clientDataHash, permission: 0x02, rpID: rpID)
        let rpIDHash = Self.sha256(Array(rpID.utf8))
        var found: [ResidentCredential] = []
        if let allowList = p[3]?.arrayValue, !allowList.isEmpty {
            for descriptor in allowList {
                guard let id = descriptor["id"]?.bytesValue, let key = unwrap(id, rpIDHash: rpIDHash) else { continue }
                let resident = residentCredentials.first { $0.credentialID == id }
                found.append(
                    resident ?? ResidentCredential(credentialID: id, rpID: rpID, userID: [], privateKey: Array(key.rawRepresentation)))
                break
            }
        } else {
            found = residentCredentials.filter { $0.rpID == rpID }.reversed()  // most recent first
        }
        guard let first = found.first else { throw CTAP2Failure(.noCredentials) }
        let flags: UInt8 = (presence ? 0x01 : 0) | (verified ? 0x04 : 0)
        var response = try assertion(first, rpIDHash: rpIDHash, clientDataHash: clientDataHash, flags: flags, verified: verified)
        if found.count > 1, case .map(var map) = response {
            map[.int(5)] = .int(found.count)
            response = .map(map)
            nextAssertions = NextAssertions(credentials: Array(found.dropFirst()), clientDataHash: clientDataHash, flags: flags)
        }
        return response
    }

    /// authenticatorGetNextAssertion (§6.3).
    mutating func getNextAssertion() throws -> CBOR {
        guard var next = nextAssertions, !next.credentials.isEmpty else { throw CTAP2Failure(.notAllowed) }
        let credential = next.credentials.removeFirst()
        nextAssertions = next.credentials.isEmpty ? nil : next
        let rpIDHash = Self.sha256(Array(credential.rpID.utf8))
        return try assertion(
            credential, rpIDHash: rpIDHash, clientDataHash: next.clientDataHash, flags: next.flags, verified: next.flags & 0x04 != 0)
    }

    mutating func assertion(_ credential: ResidentCredential, rpIDHash: [UInt8], clientDataHash: [UInt8], flags: UInt8, verified: Bool)
        throws -> CBOR
    {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: credential.privateKey) else {
            throw CTAP2Failure(.invalidParameter)
        }
        signatureCounter &+= 1
        let authData = rpIDHash + [flags] + Self.bigEndian(signatureCounter)
        var map: [CBOR: CBOR] = [
            .int(1): .map(["id": .bytes(credential.credentialID), "type": "public-key"]),
            .int(2): .bytes(authData),
            .int(3): .bytes(Self.sign(authData + clientDataHash, with: key)),
        ]
        if !credential.userID.isEmpty {
            var user: [CBOR: CBOR] = ["id": .bytes(credential.userID)]
            // User-identifying fields only after user verification (§6.2.2 step 12).
            if verified {
                if let name = credential.userName { user["name"] = .text(name) }
                if let displayName = credential.displayName { user["displayName"] = .text(displayName) }
            }
            map[.int(4)] = .map(user)
        }
        return .map(map)
    }

    /// A required parameter: missing → CTAP2_ERR_MISSING_PARAMETER, wrong type →
    /// CTAP2_ERR_CBOR_UNEXPECTED_TYPE.
    static func required<T>(_ value: T?, _ raw: CBOR?) throws -> T {
        guard raw != nil else { throw CTAP2Failure(.missingParameter) }
        guard let value else { throw CTAP2Failure(.cborUnexpectedType) }
        return value
    }
}
