import NFCBytes

extension NFCAppConfiguration {
    /// A technology a tag reader session polls for, as `NFCTagReaderSession.PollingOption`'s members.
    public enum PollingKind: Sendable, Hashable, CaseIterable {
        /// ISO/IEC 14443 type A and B: MIFARE, ISO 7816 (ISO-DEP) tags.
        case iso14443
        /// ISO/IEC 15693 vicinity tags.
        case iso15693
        /// ISO/IEC 18092 (NFC-F): FeliCa.
        case iso18092
        /// PACE-protected ISO 7816 documents (iOS 16).
        case pace
    }

    /// Whether an `NFCNDEFReaderSession` may begin; nil when it may.
    ///
    /// Needs a non-empty `NFCReaderUsageDescription` and the formats entitlement with `TAG` or
    /// `NDEF`. `TAG` is enough: App Store Connect refuses `NDEF` in builds for iOS 13 and later, and
    /// apps shipping with `TAG` alone run NDEF sessions (Apple's `NFCNDEFReaderSession` reference
    /// asks only for the entitlement and a usage description).
    package func checkCanBeginNDEFSession() -> NFCConfigurationViolation? {
        if let violation = checkCommon() { return violation }
        let formats = readerSessionFormats
        guard formats.contains(.tag) || formats.contains(.ndef) else {
            return NFCConfigurationViolation(
                .missingFormat,
                "Missing required entitlement: \(Keys.readerSessionFormats) must contain TAG "
                    + "(or the legacy NDEF) for an NDEF reader session")
        }
        return nil
    }

    /// Whether an `NFCVASReaderSession` may begin; nil when it may.
    ///
    /// Apple's header asks for a non-empty `NFCReaderUsageDescription` and the formats
    /// entitlement; which value of it VAS needs is published nowhere (docs/vas-protocol.md §1),
    /// so any non-empty formats entitlement is accepted.
    public func checkCanBeginVASSession() -> NFCConfigurationViolation? {
        if let violation = checkCommon() { return violation }
        guard !readerSessionFormats.isEmpty else {
            return NFCConfigurationViolation(
                .missingFormat, "Missing required entitlement: \(Keys.readerSessionFormats) is needed for a VAS reader session")
        }
        return nil
    }

    /// Whether an `NFCTagReaderSession` polling for `polling` may begin; nil when it may.
    ///
    /// Needs a non-empty usage description and `TAG` in the formats entitlement. Polling FeliCa
    /// (``PollingKind/iso18092``) needs at least one well-formed declared system code, and none may
    /// hold the wildcard `FF` in either byte (`FFFF`, `88FF`; Apple's reference for the system-codes key). PACE polling finds only
    /// ISO 7816 documents, so it needs a selectable AID (see ``selectableAIDs``). ISO 14443 polling
    /// does not: MIFARE tags are found without one; ``checkCanDetectISO7816Tag()`` applies when an
    /// ISO 7816 tag turns up.
    package func checkCanBeginTagSession(polling: Set<PollingKind>) -> NFCConfigurationViolation? {
        guard !polling.isEmpty else {
            return NFCConfigurationViolation(.emptyPolling, "A tag reader session must poll for at least one technology")
        }
        if let violation = checkCommon() { return violation }
        guard readerSessionFormats.contains(.tag) else {
            return NFCConfigurationViolation(
                .missingFormat, "Missing required entitlement: \(Keys.readerSessionFormats) must contain TAG for a tag reader session")
        }
        if polling.contains(.iso18092) {
            let codes = felicaSystemCodes
            if let code = codes.first(where: FeliCaSystemCode.hasWildcard) {
                return NFCConfigurationViolation(
                    .wildcardSystemCode,
                    "\(Keys.felicaSystemCodes) must not contain the wildcard FF in either byte (\(String(format: "%04X", code)))")
            }
            if codes.isEmpty {
                return NFCConfigurationViolation(
                    .missingSystemCodes,
                    "Polling ISO 18092 (FeliCa) needs at least one 4-hex-digit system code in \(Keys.felicaSystemCodes)")
            }
        }
        if polling.contains(.pace), selectableAIDs.isEmpty {
            return NFCConfigurationViolation(
                .missingSelectIdentifier,
                "PACE polling needs at least one non-payment AID in \(Keys.iso7816SelectIdentifiers)")
        }
        return nil
    }

    /// Whether a session may hand the app an ISO 7816 tag; nil when it may.
    ///
    /// The session SELECTs the ``selectableAIDs`` in order and reports the tag after the first
    /// that succeeds (Apple's `NFCISO7816Tag` reference); with none usable iOS fails the connection
    /// with "Missing required entitlement" (NFCError 2), as capawesome-team/capacitor-nfc-demo#12
    /// shows.
    package func checkCanDetectISO7816Tag() -> NFCConfigurationViolation? {
        guard selectableAIDs.isEmpty else { return nil }
        return NFCConfigurationViolation(
            .missingSelectIdentifier,
            "Missing required entitlement: ISO 7816 tags need at least one non-payment AID in \(Keys.iso7816SelectIdentifiers)")
    }

    /// Whether the app may send a SELECT (by DF name) for `aid`; nil when it may.
    ///
    /// Only the declared, non-payment AIDs may be selected; iOS refuses others, the payment
    /// directory `2PAY.SYS.DDF01` and an empty SELECT included, with NFCError 2
    /// (revtel/react-native-nfc-manager#272, nfcim/flutter_nfc_kit#172).
    ///
    /// A SELECT may name a declared AID in full or in part (ISO/IEC 7816-4 §11.2.2: a DF name may
    /// be right-truncated, and the card selects the application whose name begins with it), and a
    /// declared entry may itself be a truncated name (PIV's `A000000308`) that the selected name
    /// extends. Both names must hold at least a registered application provider identifier
    /// (5 bytes, ISO/IEC 7816-5), and a payment AID is never selectable.
    ///
    /// `allowingPayment` is for `NFCPaymentTagReaderSession` (iOS 26), which exists to select the
    /// payment AIDs the app declares.
    package func checkCanSelect(aid: [UInt8], allowingPayment: Bool = false) -> NFCConfigurationViolation? {
        let allowed =
            aid.count >= 5 && (allowingPayment || PaymentApplicationIdentifiers.paymentApplication(aid) == nil)
            && selectableAIDs(allowingPayment: allowingPayment).contains { declared in
                declared.count >= 5 && (declared.starts(with: aid) || aid.starts(with: declared))
            }
        guard !allowed else { return nil }
        return NFCConfigurationViolation(
            .missingSelectIdentifier,
            "Missing required entitlement: AID \(hex(aid)) is not a non-payment entry of \(Keys.iso7816SelectIdentifiers)")
    }

    /// The AIDs a tag session SELECTs, in declared order: well-formed, payment AIDs removed.
    ///
    /// Repeated entries are kept once, where first declared, as Core NFC drops repeats (Apple's
    /// `NFCTagReaderSession.Configuration.iso7816SelectIdentifiers` reference). Payment AIDs are
    /// those of `PaymentApplicationIdentifiers`.
    public var selectableAIDs: [[UInt8]] { selectableAIDs(allowingPayment: false) }

    /// The AIDs a session SELECTs, in declared order, repeats dropped; payment AIDs kept only when
    /// `allowingPayment` (an `NFCPaymentTagReaderSession`).
    public func selectableAIDs(allowingPayment: Bool) -> [[UInt8]] {
        var seen = Set<[UInt8]>()
        return iso7816SelectIdentifiers.filter { aid in
            (allowingPayment || PaymentApplicationIdentifiers.paymentApplication(aid) == nil) && seen.insert(aid).inserted
        }
    }

    /// The name of the payment application `aid` would select, or nil when it is not a payment AID.
    public static func paymentApplication(for aid: [UInt8]) -> String? {
        PaymentApplicationIdentifiers.paymentApplication(aid)
    }

    /// The rules every session shares: not an app extension, and a usage description.
    private func checkCommon() -> NFCConfigurationViolation? {
        if isAppExtension {
            return NFCConfigurationViolation(.appExtension, "Core NFC is not available in app extensions")
        }
        guard let text = usageDescription, !text.isEmpty else {
            return NFCConfigurationViolation(
                .missingUsageDescription, "Missing privacy setting: the Info.plist needs a non-empty \(Keys.usageDescription)")
        }
        return nil
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "(empty)" : Hex.encode(bytes, uppercase: true)
    }
}
