import ISO7816
import X509

/// Reads an eMRTD (passport or ID card, ICAO Doc 9303 Parts 10 and 11) over any
/// `APDUTransmitter`: selects the application, opens Basic Access Control from the MRZ, reads
/// EF.COM, the data groups it lists and EF.SOD (PACE first when EF.CardAccess offers it), parses
/// DG1, DG2, DG11 and DG12, runs chip authentication (DG14) before reading the rest and active
/// authentication (DG15) after, and passive authentication against the CSCA certificates given.
public struct PassportReader: Sendable {
    /// How the reader gains access to the chip.
    public enum Access: Sendable, Hashable {
        /// The MRZ's document number, birth and expiry dates: PACE when EF.CardAccess offers a
        /// protocol this build runs, else Basic Access Control (Part 11 §4.2: PACE first).
        case mrz(MRZKey)
        /// Basic Access Control only.
        case bac(MRZKey)
        /// PACE only, with the MRZ or the CAN.
        case pace(PACEPassword)
        /// No access control: for chips that let anyone read (rare; ICAO Doc 9303 no longer allows it).
        case none
    }

    /// The link to the chip.
    public let transmitter: any APDUTransmitter
    /// The CSCA certificates passive authentication trusts.
    public var trustAnchors: [Certificate]

    /// A reader over `transmitter`, trusting `trustAnchors`.
    public init(transmitter: any APDUTransmitter, trustAnchors: [Certificate] = []) {
        self.transmitter = transmitter
        self.trustAnchors = trustAnchors
    }

    /// Reads the document.
    ///
    /// - Parameters:
    ///   - access: BAC's MRZ key, or none.
    ///   - files: the data groups to read; `nil` reads every one EF.COM lists. EF.COM and EF.SOD are always read.
    /// - Returns: what was read; files the chip refused (DG3 and DG4 need extended access
    ///   control) are in ``PassportReading/refused``, so a partial reading says it is partial.
    /// - Throws: ``EMRTDError`` when the chip is no eMRTD, access is refused, secure messaging
    ///   breaks, the transport fails, or EF.COM, DG1 or EF.SOD cannot be read.
    public func read(access: Access, files: [LDSFile]? = nil) async throws(EMRTDError) -> PassportReading {
        var channel = PassportChannel(transmitter: transmitter)
        let accessProtocol: PassportReading.AccessProtocol
        var paceInfo: PACEInfo?
        switch access {
        case .pace(let password):
            guard let infos = try await channel.readCardAccess(), !infos.isEmpty else {
                throw EMRTDError(.unsupportedAlgorithm, file: "EF.CardAccess", "the chip offers no PACE (no EF.CardAccess)")
            }
            guard let info = infos.first(where: PACE.supports) else {
                throw EMRTDError(
                    .unsupportedAlgorithm, file: "EF.CardAccess",
                    "the chip offers \(infos.map(\.description).joined(separator: ", ")); this build runs ECDH generic mapping with AES and ECDH integrated mapping with AES-128, on P-256 or brainpoolP256r1"
                )
            }
            channel.secureMessaging = try await PACE.establish(password: password, info: info, offered: infos.count, over: transmitter)
            paceInfo = info
            accessProtocol = .pace
            try await channel.selectApplication()
        case .mrz(let key):
            if let infos = try await channel.readCardAccess(), let info = infos.first(where: PACE.supports) {
                channel.secureMessaging = try await PACE.establish(password: .mrz(key), info: info, offered: infos.count, over: transmitter)
                paceInfo = info
                accessProtocol = .pace
                try await channel.selectApplication()
            } else {
                try await channel.selectApplication()
                channel.secureMessaging = try await BasicAccessControl.establish(key: key, over: transmitter)
                accessProtocol = .bac
            }
        case .bac(let key):
            try await channel.selectApplication()
            channel.secureMessaging = try await BasicAccessControl.establish(key: key, over: transmitter)
            accessProtocol = .bac
        case .none:
            try await channel.selectApplication()
            accessProtocol = .none
        }

        let comBytes = try await channel.read(.com)
        let common = try CommonData(comBytes)
        var contents: [LDSFile: [UInt8]] = [.com: comBytes]
        var refused: [LDSFile: EMRTDError] = [:]
        func readOptional(_ file: LDSFile) async throws(EMRTDError) {
            do {
                contents[file] = try await channel.read(file)
            } catch  where [.securityStatusNotSatisfied, .fileNotFound, .malformedFile, .unexpectedStatus].contains(error.code) {
                if file == .dataGroup(1) { throw error }
                refused[file] = error
            }
        }

        // Chip authentication first, when DG14 offers it: the rest is then read under its keys (Part 11 §6.2).
        var chipAuthentication = AuthenticationOutcome.notOffered
        if common.dataGroups.contains(.dataGroup(14)) {
            try await readOptional(.dataGroup(14))
            chipAuthentication = try await authenticateChip(contents[.dataGroup(14)], refusal: refused[.dataGroup(14)], channel: &channel)
        }
        let wanted = (files ?? common.dataGroups).filter { if case .dataGroup = $0 { true } else { false } }
        for file in Set(wanted + [.dataGroup(1)]).sorted() where contents[file] == nil && refused[file] == nil {
            try await readOptional(file)
        }
        var activeAuthentication = AuthenticationOutcome.notOffered
        if common.dataGroups.contains(.dataGroup(15)) {
            if contents[.dataGroup(15)] == nil && refused[.dataGroup(15)] == nil { try await readOptional(.dataGroup(15)) }
            activeAuthentication = await authenticateActively(contents, refusal: refused[.dataGroup(15)], channel: &channel)
        }
        let sodBytes = try await channel.read(.sod)
        contents[.sod] = sodBytes
        return try PassportReading(
            accessProtocol: accessProtocol, pace: paceInfo, common: common, contents: contents, refused: refused,
            trustAnchors: trustAnchors,
            chipAuthentication: chipAuthentication, activeAuthentication: activeAuthentication)
    }

    /// Chip authentication with DG14's key. A chip that cannot answer under the agreed keys
    /// throws (`.chipNotGenuine`): nothing more can be read from it, and it is not the chip DG14
    /// was issued for. A chip that refuses the commands leaves the session as it was: the
    /// outcome is `failed` and reading goes on.
    func authenticateChip(
        _ dataGroup14: [UInt8]?, refusal: EMRTDError?, channel: inout PassportChannel
    ) async throws(EMRTDError) -> AuthenticationOutcome {
        guard let dataGroup14 else { return .failed(refusal ?? EMRTDError(.fileNotFound, file: "DG14", "DG14 could not be read")) }
        let infos: ChipSecurityInfos
        do { infos = try ChipSecurityInfos(dataGroup14: dataGroup14) } catch { return .failed(error) }
        guard !infos.chipAuthentication.isEmpty else { return .notOffered }
        do {
            return .verified(try await ChipAuthentication.run(infos: infos, channel: &channel).description)
        } catch  where error.code == .unsupportedAlgorithm {
            return .unsupported(error)
        } catch  where error.code == .unexpectedStatus {
            return .failed(error)
        }
    }

    /// Active authentication with DG15's key and DG14's signature algorithm; its failure is an outcome, not an error.
    func authenticateActively(
        _ contents: [LDSFile: [UInt8]], refusal: EMRTDError?, channel: inout PassportChannel
    ) async -> AuthenticationOutcome {
        guard let dataGroup15 = contents[.dataGroup(15)] else {
            return .failed(refusal ?? EMRTDError(.fileNotFound, file: "DG15", "DG15 could not be read"))
        }
        do {
            let key = try ActiveAuthentication.publicKey(dataGroup15: dataGroup15)
            let algorithm = try contents[.dataGroup(14)].map { bytes throws(EMRTDError) in
                try ChipSecurityInfos(dataGroup14: bytes).activeAuthenticationSignature
            }
            let verified = try await ActiveAuthentication.run(key: key, algorithm: algorithm ?? nil, channel: &channel)
            return .verified("\(verified) on \(key)")
        } catch  where error.code == .unsupportedAlgorithm {
            return .unsupported(error)
        } catch {
            return .failed(error)
        }
    }
}

/// What chip or active authentication concluded.
public enum AuthenticationOutcome: Sendable, CustomStringConvertible {
    /// The document does not offer it (no DG14 / DG15, or no protocol in DG14).
    case notOffered
    /// It offers it with an algorithm this build does not run.
    case unsupported(EMRTDError)
    /// The chip proved it holds the key; the protocol run, in words.
    case verified(String)
    /// It did not verify, or its file could not be read or parsed.
    case failed(EMRTDError)

    /// Whether the chip proved it holds the key.
    public var isVerified: Bool { if case .verified = self { true } else { false } }

    public var description: String {
        switch self {
        case .notOffered: "not offered"
        case .unsupported(let error): "not checked: \(error.reason)"
        case .verified(let detail): "verified (\(detail))"
        case .failed(let error): "FAILED: \(error.reason)"
        }
    }
}

/// What ``PassportReader`` read, parsed and verified.
public struct PassportReading: Sendable {
    /// The access control used.
    public enum AccessProtocol: String, Sendable, Hashable {
        /// Basic Access Control (3DES secure messaging).
        case bac = "BAC"
        /// PACE (AES secure messaging).
        case pace = "PACE"
        /// None.
        case none
    }

    /// The access control used.
    public let accessProtocol: AccessProtocol
    /// The PACE protocol run, when it was PACE.
    public let pace: PACEInfo?
    /// EF.COM.
    public let common: CommonData
    /// Every file read, as the chip gave it.
    public let contents: [LDSFile: [UInt8]]
    /// Files the chip refused or that could not be parsed, with why: when not empty, the reading is partial.
    public let refused: [LDSFile: EMRTDError]
    /// DG1's MRZ.
    public let mrz: MachineReadableZone
    /// DG2's first face image, when DG2 was read.
    public let face: FaceImage?
    /// DG11, when read.
    public let personalDetails: AdditionalDetails?
    /// DG12, when read.
    public let documentDetails: AdditionalDetails?
    /// EF.SOD.
    public let securityObject: SecurityObject
    /// Passive authentication's outcome.
    public let passiveAuthentication: PassiveAuthentication
    /// Chip authentication's outcome (DG14). Its key is only as trustworthy as DG14's hash in
    /// EF.SOD: read it together with ``passiveAuthentication``.
    public let chipAuthentication: AuthenticationOutcome
    /// Active authentication's outcome (DG15), to be read with ``passiveAuthentication`` too.
    public let activeAuthentication: AuthenticationOutcome

    /// Whether every file asked for was read.
    public var isComplete: Bool { refused.isEmpty }

    init(
        accessProtocol: AccessProtocol, pace: PACEInfo?, common: CommonData, contents: [LDSFile: [UInt8]],
        refused: [LDSFile: EMRTDError], trustAnchors: [Certificate], chipAuthentication: AuthenticationOutcome = .notOffered,
        activeAuthentication: AuthenticationOutcome = .notOffered
    ) throws(EMRTDError) {
        var refused = refused
        self.chipAuthentication = chipAuthentication
        self.activeAuthentication = activeAuthentication
        self.accessProtocol = accessProtocol
        self.pace = pace
        self.common = common
        self.contents = contents
        mrz = try DataGroup1.parse(contents[.dataGroup(1)] ?? [])
        func optional<T>(_ file: LDSFile, _ parse: ([UInt8]) throws(EMRTDError) -> T) -> T? {
            guard let bytes = contents[file] else { return nil }
            do { return try parse(bytes) } catch {
                refused[file] = error
                return nil
            }
        }
        face = optional(.dataGroup(2)) { bytes throws(EMRTDError) in try FaceImage(dataGroup2: bytes) }
        personalDetails = optional(.dataGroup(11)) { bytes throws(EMRTDError) in try AdditionalDetails(bytes, file: .dataGroup(11)) }
        documentDetails = optional(.dataGroup(12)) { bytes throws(EMRTDError) in try AdditionalDetails(bytes, file: .dataGroup(12)) }
        self.refused = refused
        securityObject = try SecurityObject(contents[.sod] ?? [])
        var groups: [Int: [UInt8]] = [:]
        for (file, bytes) in contents {
            if case .dataGroup(let number) = file { groups[number] = bytes }
        }
        passiveAuthentication = PassiveAuthentication(securityObject: securityObject, dataGroups: groups, trustAnchors: trustAnchors)
    }
}
