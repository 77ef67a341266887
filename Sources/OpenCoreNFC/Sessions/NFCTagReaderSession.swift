import Dispatch
import Foundation
import ISO7816
import NFCBytes
import NFCTransport

/// A session that finds tags of the polled technologies and talks to them natively (Core NFC's
/// `NFCTagReaderSession`).
@available(iOS 13.0, *)
open class NFCTagReaderSession: NFCReaderSession, @unchecked Sendable {
    /// The technologies to poll for (Core NFC's raw values).
    public struct PollingOption: OptionSet, Sendable, Hashable {
        /// The bits, with Core NFC's values (`iso14443` 0x1, `iso15693` 0x2, `iso18092` 0x4, `pace` 0x8).
        public let rawValue: Int
        /// Makes options from their bits; bits other than the four known ones poll for nothing.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// ISO/IEC 14443 Types A and B (MIFARE, ISO 7816).
        public static let iso14443 = PollingOption(rawValue: 0x1)
        /// ISO/IEC 15693.
        public static let iso15693 = PollingOption(rawValue: 0x2)
        /// ISO/IEC 18092 (FeliCa).
        public static let iso18092 = PollingOption(rawValue: 0x4)
        /// PACE (ICAO 9303 travel documents), iOS 16.
        @available(iOS 16.0, *)
        public static let pace = PollingOption(rawValue: 0x8)

        /// `pace`'s bit, for code that runs before iOS 16 availability checks.
        static let paceBit = 0x8

        var technologies: TechnologyMask {
            var mask: TechnologyMask = []
            if contains(.iso14443) { mask.formUnion(.iso14443) }
            if contains(.iso15693) { mask.insert(.iso15693) }
            if contains(.iso18092) { mask.insert(.felica) }
            if rawValue & Self.paceBit != 0 { mask.formUnion(.iso14443) }
            return mask
        }
    }

    /// What a tag session polls for and which of the app's AIDs and system codes it uses
    /// (Core NFC, iOS 26.4). Empty lists mean all of the app's; entries the app's Info.plist
    /// does not list are dropped, and repeats too.
    public struct Configuration: Sendable, Hashable {
        /// The technologies to poll for; with none, ``NFCReaderSession/begin()`` ends the session with an error.
        public var pollingOption: PollingOption
        /// AIDs as hex strings, SELECTed in this order when an ISO 7816 card is found; empty: all the app declares.
        public var iso7816SelectIdentifiers: [String]
        /// FeliCa system codes as 4 hex digits, polled in this order; empty: all the app declares.
        public var feliCaSystemCodes: [String]

        /// Makes a configuration; the lists default to empty (all of the app's AIDs and system codes).
        public init(pollingOption: PollingOption, iso7816SelectIdentifiers: [String] = [], feliCaSystemCodes: [String] = []) {
            self.pollingOption = pollingOption
            self.iso7816SelectIdentifiers = iso7816SelectIdentifiers
            self.feliCaSystemCodes = feliCaSystemCodes
        }
    }

    // Guarded by `lock`.
    private var currentTag: NFCTag?
    private var currentConfiguration: Configuration

    /// The polling options in use.
    public var pollingOption: PollingOption { lock.withLock { currentConfiguration.pollingOption } }

    /// Creates a session; nil when `pollingOption` names no technology.
    public init?(pollingOption: PollingOption, delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil) {
        guard !pollingOption.technologies.isEmpty else { return nil }
        self.currentConfiguration = Configuration(pollingOption: pollingOption)
        super.init(delegate: delegate, queue: queue, technologies: pollingOption.technologies, mode: .pauseUntilRestart)
    }

    /// Creates a session from a configuration (Core NFC, iOS 26.4), applied at `begin()` and
    /// `restartPolling(configuration:)`.
    @available(iOS 26.4, *)
    public init(configuration: Configuration, delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil) {
        self.currentConfiguration = configuration
        super.init(delegate: delegate, queue: queue, technologies: configuration.pollingOption.technologies, mode: .pauseUntilRestart)
    }

    /// The system codes to poll for when a FeliCa card is found: the app's, in order, narrowed to
    /// the configuration's list when it has one.
    var feliCaSystemCodes: [UInt16] {
        let allowed = NFCSessionEnvironment.shared.appConfiguration?.felicaSystemCodes ?? []
        let wanted = lock.withLock { currentConfiguration.feliCaSystemCodes }
        guard !wanted.isEmpty else { return allowed }
        var result: [UInt16] = []
        for text in wanted {
            guard let code = UInt16(text, radix: 16), text.count == 4, allowed.contains(code), !result.contains(code) else { continue }
            result.append(code)
        }
        return result
    }

    /// The AIDs to SELECT when an ISO 7816 card is found: the app's, in order, narrowed to the
    /// configuration's list when it has one (in the configuration's order).
    var selectIdentifiers: [[UInt8]] {
        let allowed = AppRules.selectableAIDs(allowingPayment: selectsPaymentAIDs)
        let wanted = lock.withLock { currentConfiguration.iso7816SelectIdentifiers }
        guard !wanted.isEmpty else { return allowed }
        var result: [[UInt8]] = []
        for hex in wanted {
            guard let aid = try? Hex.decode(hex), allowed.contains(aid), !result.contains(aid) else { continue }
            result.append(aid)
        }
        return result
    }

    /// Whether the session may SELECT the payment AIDs the app declares (only
    /// ``NFCPaymentTagReaderSession`` does).
    var selectsPaymentAIDs: Bool { false }

    /// Whether the session delivers only ISO 7816 cards (a payment session: no MIFARE fallback).
    var deliversOnlyISO7816: Bool { false }

    /// Whether the session polls for PACE documents only.
    var pollsPACE: Bool { pollingOption.rawValue & PollingOption.paceBit != 0 }

    var tagDelegate: (any NFCTagReaderSessionDelegate)? { delegate as? any NFCTagReaderSessionDelegate }

    /// The tag connected with `connect(to:)`, while it is usable.
    public var connectedTag: NFCTag? {
        let tag = lock.withLock { currentTag }
        guard let tag, tag.isAvailable else { return nil }
        return tag
    }

    /// Connects to a tag this session detected; a previously connected tag is released.
    public func connect(to tag: NFCTag) async throws {
        guard let object = tag.object, object.owner === self else {
            throw NFCReaderError(.readerErrorInvalidParameter, reason: "the tag was not detected by this session")
        }
        _ = try await connection(for: object.target, generation: object.generation)
        markConnected(object.target, generation: object.generation)
        lock.withLock { currentTag = tag }
    }

    /// Completion form of ``connect(to:)``: `completionHandler` gets nil or the error, on ``NFCReaderSession/sessionQueue``.
    public func connect(to tag: NFCTag, completionHandler: @escaping ((any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        Task {
            do {
                try await connect(to: tag)
                sessionQueue.async { completionHandler(nil) }
            } catch {
                sessionQueue.async { completionHandler(error) }
            }
        }
    }

    /// Polls again; tags detected before become unavailable.
    public func restartPolling() {
        lock.withLock { currentTag = nil }
        restartPollingRound()
    }

    /// Polls again with a new configuration (Core NFC, iOS 26.4).
    @available(iOS 26.4, *)
    public func restartPolling(configuration: Configuration) {
        lock.withLock {
            currentTag = nil
            currentConfiguration = configuration
        }
        restartPollingRound(technologies: configuration.pollingOption.technologies)
    }

    /// Refuses what Apple refuses at `begin()`: `pace` with other options (PACE polling is
    /// exclusive, Apple's `NFCTagReaderSession.PollingOption.pace` reference), then the app's
    /// configuration rules.
    override func configurationRefusal() -> NFCReaderError? {
        let option = pollingOption
        if option.rawValue & PollingOption.paceBit != 0, option.rawValue != PollingOption.paceBit {
            return NFCReaderError(.readerErrorInvalidParameter, reason: "the pace polling option cannot be combined with other options")
        }
        return AppRules.tagSessionRefusal(polling: option)
    }

    override func notifyBecameActive() { tagDelegate?.tagReaderSessionDidBecomeActive(self) }

    override func notifyInvalidated(_ error: NFCReaderError) { tagDelegate?.tagReaderSession(self, didInvalidateWithError: error) }

    override func didDetect(_ targets: [TargetInfo], generation: Int) async {
        var tags: [NFCTag] = []
        for target in targets {
            switch await TagFactory.discover(target, generation: generation, session: self) {
            case .deliver(let tag): tags.append(tag)
            case .skip: continue
            case .refuse(let error):
                end(with: error)
                return
            }
        }
        guard !tags.isEmpty else {
            // Nothing Core NFC would deliver: polling goes on.
            resumePolling(round: generation)
            return
        }
        let delivered = tags
        sessionQueue.async {
            guard self.isReady else { return }
            self.tagDelegate?.tagReaderSession(self, didDetect: delivered)
        }
    }
}
