import Foundation
import Logging
import NFCBytes
import NFCTransport

/// The PC/SC driver: every contactless reader pcscd (or macOS's PC/SC service) knows.
///
/// A target is the tag in one reader (PC/SC shows one card per reader; a reader's own
/// anticollision picks it). `events` watches readers with `SCardGetStatusChange` on a thread
/// of its own; finding and connecting to tags runs on the driver's own queue (`BlockingCalls`),
/// off the cooperative pool. Reader names are PC/SC's (`nfc readers` lists them). Each reader's
/// ``ReaderProfile`` decides how tags are reached through it: given (``profileOverride``, else
/// `OPENCORENFC_READER_PROFILE`), recognised from the reader's name, or probed once per reader.
public final class PCSCDriver: ReaderDriver {
    /// Readers whose name contains this (case-insensitive); `nil` for all.
    public let readerFilter: String?
    /// Whether ``readerFilter`` is one reader's whole name (``init(reader:profile:)``).
    public let matchesExactly: Bool
    /// The profile every reader is taken for, whatever it reports; `nil` to recognise each.
    public let profileOverride: ReaderProfile?
    /// Why `OPENCORENFC_READER_PROFILE` could not be used, reported on first use.
    private let overrideProblem: TransportError?
    /// The reader's full name for a one-reader driver; otherwise `pcsc:FILTER`, or `pcsc` without a filter.
    public var name: String {
        if matchesExactly, let readerFilter { return readerFilter }
        return readerFilter.map { "pcsc:\($0)" } ?? "pcsc"
    }

    struct Entry: Hashable {
        var reader: String
        var atr: [UInt8]
        var eventCounter: UInt32
        var kind: PCSCTagKind
        var target: TargetInfo
        /// The reader's profile, `nil` while nothing has told it (see ``connect(to:meter:)``).
        var profile: ReaderProfile?
    }

    private let state = Guarded<(context: PCSCContext?, entries: [UInt64: Entry], nextHandle: UInt64, profiles: [String: ReaderProfile])>(
        (nil, [:], 1, [:]))
    private let calls = BlockingCalls(label: "OpenCoreNFC.PCSCDriver")

    /// A driver for every reader whose name contains `readerFilter` (case-insensitive); `nil` or empty means all readers.
    /// `profile` takes every reader for that model; without it, `OPENCORENFC_READER_PROFILE` does, or each reader is
    /// recognised. Nothing is loaded or connected until the driver is first used.
    public init(readerFilter: String? = nil, profile: ReaderProfile? = nil) {
        self.readerFilter = readerFilter.flatMap { $0.isEmpty ? nil : $0 }
        self.matchesExactly = false
        (profileOverride, overrideProblem) = Self.override(profile)
    }

    /// A driver for exactly one reader, by its full PC/SC name (a monitor per reader keeps
    /// readers independent: one reader's slow tag never delays another's).
    public init(reader: String, profile: ReaderProfile? = nil) {
        self.readerFilter = reader
        self.matchesExactly = true
        (profileOverride, overrideProblem) = Self.override(profile)
    }

    private static func override(_ profile: ReaderProfile?) -> (ReaderProfile?, TransportError?) {
        if let profile { return (profile, nil) }
        do { return (try ReaderProfile.fromEnvironment(ProcessInfo.processInfo.environment), nil) } catch { return (nil, error) }
    }

    /// The profile `reader` is taken for as far as is known without a tag: the override, what a
    /// probe found earlier, or what its name says; ``ReaderProfile/generic`` otherwise.
    public func profile(ofReader reader: String) -> ReaderProfile {
        profileOverride ?? state.withLock { $0.profiles[reader] } ?? ReaderProfile.recognise(readerName: reader) ?? .generic
    }

    /// The profile of `reader` and how it was found, probing it when a contactless tag (`atr`)
    /// lets the driver connect and nothing else tells. A contact card is never probed: there is
    /// no contactless reader in between to answer, and some virtual cards crash on class `FF`.
    private func profileWithSource(reader: String, atr: [UInt8]?, context: PCSCContext) -> (ReaderProfile, ReaderProfile.Source) {
        if let profileOverride { return (profileOverride, .override) }
        if let named = ReaderProfile.recognise(readerName: reader) { return (named, .name) }
        if let probed = state.withLock({ $0.profiles[reader] }) { return (probed, .probe) }
        guard let atr, let described = try? ContactlessATR(atr: atr), !described.isContact,
            let card = try? context.connect(reader: reader)
        else { return (.generic, .assumed) }
        defer { card.disconnect() }
        return (profile(ofReader: reader, probing: card), .probe)
    }

    /// The profile of `reader` as far as is known without asking it.
    private func knownProfile(ofReader reader: String) -> ReaderProfile? {
        profileOverride ?? state.withLock({ $0.profiles[reader] }) ?? ReaderProfile.recognise(readerName: reader)
    }

    /// The profile of `reader`, probing it through `card` the first time nothing else tells. The
    /// probe is one APDU, sent only where the answer matters: for a storage tag on a reader that
    /// refuses a transparent session, an ISO-DEP card (the profile limits its APDUs), or an ATR
    /// only ACS readers build.
    private func profile(ofReader reader: String, probing card: PCSCCard) -> ReaderProfile {
        if let known = knownProfile(ofReader: reader) { return known }
        // ACS's firmware query first (the ACR122U answers it without a status word), then HID's
        // product-name query; a reader that knows neither refuses both with a status word.
        var (status, answer) = card.transmit(ReaderProfile.firmwareProbe)
        var found = status == .success ? ReaderProfile.recognise(firmwareAnswer: answer) : nil
        if found == nil {
            (status, answer) = card.transmit(ReaderProfile.hidProductNameProbe)
            found = status == .success ? ReaderProfile.recognise(hidProductName: answer) : nil
        }
        let probed = found ?? .generic
        PCSCLog.logger.debug("reader profile probed", metadata: ["reader": "\(reader)", "profile": "\(probed)"])
        state.withLock { $0.profiles[reader] = probed }
        return probed
    }

    /// Whether the PC/SC library can be loaded on this machine (pcscd may still be down).
    public static var isLibraryAvailable: Bool {
        if case .success = PCSCLibrary.shared { return true }
        return false
    }

    func context() throws(TransportError) -> PCSCContext {
        if let context = state.withLock({ $0.context }) { return context }
        let library = try PCSCLibrary.shared.get()
        let context = try PCSCContext(library: library)
        state.withLock { $0.context = $0.context ?? context }
        return state.withLock { $0.context } ?? context
    }

    /// The readers this driver uses, in pcscd's order.
    public func readers() throws(TransportError) -> [String] {
        try context().readers().filter(matchesFilter)
    }

    /// Each reader with whether a tag is on it, the tag's ATR and the reader's profile; with
    /// `probingProfiles`, a reader that holds a tag and whose profile nothing else tells is asked
    /// (one APDU through the tag's connection), otherwise it is reported as assumed generic.
    public func readerStatus(probingProfiles: Bool = false) throws(TransportError) -> [PCSCReaderStatus] {
        let context = try context()
        let readers = try context.readers().filter(matchesFilter)
        guard !readers.isEmpty else { return [] }
        let states = ReaderStateArray(readers: readers)
        let status = context.waitForChange(states, timeoutMilliseconds: 0)
        guard status == .success || status == .timeout else { throw status.transportError("cannot read the readers' state") }
        return readers.enumerated().map { index, reader in
            let flags = PCSCABI.ReaderState(rawValue: states.eventState(index) & 0xFFFF)
            let present = flags.contains(.present) && !flags.contains(.mute)
            var status = PCSCReaderStatus(name: reader, tagPresent: present, atr: present ? states.atr(index) : [])
            (status.profile, status.profileSource) = profileWithSource(
                reader: reader, atr: present && probingProfiles ? status.atr : nil, context: context)
            return status
        }
    }

    func matchesFilter(_ reader: String) -> Bool {
        guard let readerFilter else { return true }
        if matchesExactly { return reader == readerFilter }
        return reader.lowercased().contains(readerFilter.lowercased())
    }

    /// The tag on each matching reader whose technology is in `mask`, identified on the driver's queue.
    /// - Throws: `TransportError` `.readerRemoved` when no reader matches, the PC/SC error of reading the readers'
    ///   state, or the first identification error when no tag was found and identifying one failed.
    public func targets(matching mask: TechnologyMask) async throws(TransportError) -> [TargetInfo] {
        try await calls.run { () throws(TransportError) -> [TargetInfo] in try self.targetsBlocking(matching: mask) }
    }

    private func targetsBlocking(matching mask: TechnologyMask) throws(TransportError) -> [TargetInfo] {
        let context = try context()
        let readers = try context.readers().filter(matchesFilter)
        guard !readers.isEmpty else {
            throw TransportError(.readerRemoved, readerFilter.map { "no PC/SC reader matches \"\($0)\"" } ?? "no PC/SC reader is connected")
        }
        let states = ReaderStateArray(readers: readers)
        let status = context.waitForChange(states, timeoutMilliseconds: 0)
        guard status == .success || status == .timeout else { throw status.transportError("cannot read the readers' state") }
        var found: [TargetInfo] = []
        var failure: TransportError?
        for (index, reader) in readers.enumerated() {
            let event = PCSCABI.ReaderState(rawValue: states.eventState(index) & 0xFFFF)
            guard event.contains(.present), !event.contains(.mute) else { continue }
            do {
                let entry = try identify(
                    reader: reader, atr: states.atr(index), eventCounter: states.eventState(index) >> 16, context: context)
                if mask.contains(entry.target.technology) { found.append(entry.target) }
            } catch {
                failure = failure ?? error
            }
        }
        // A tag that could not be identified is worth a reason when it is the only one.
        if found.isEmpty, let failure { throw failure }
        return found
    }

    /// Identifies the card in `reader`, reusing the handle while the same card stays.
    func identify(reader: String, atr: [UInt8], eventCounter: UInt32, context: PCSCContext) throws(TransportError) -> Entry {
        if let overrideProblem { throw overrideProblem }
        // pcsc-lite counts card events per reader; where the count is not kept (0), another tag
        // with the same ATR could have replaced this one, so it is identified again.
        if eventCounter != 0,
            let known = state.withLock({
                $0.entries.values.first { $0.reader == reader && $0.atr == atr && $0.eventCounter == eventCounter }
            })
        {
            return known
        }
        let card = try context.connect(reader: reader)
        defer { card.disconnect() }
        let handle = state.withLock { value -> UInt64 in
            defer { value.nextHandle += 1 }
            return value.nextHandle
        }
        var profile = knownProfile(ofReader: reader)
        if profile == nil, case .storage(0x03, let name)? = try? ContactlessATR(atr: atr), name >> 8 == 0xF0 {
            profile = self.profile(ofReader: reader, probing: card)
        }
        let identification = TargetIdentification(profile: profile ?? .generic) { apdu throws(TransportError) in
            let (status, answer) = card.transmit(apdu)
            guard status == .success else { throw status.transportError("identify the tag on \(reader)") }
            return answer
        }
        let (target, kind) = try identification.identify(atr: atr, handle: handle)
        let entry = Entry(reader: reader, atr: atr, eventCounter: eventCounter, kind: kind, target: target, profile: profile)
        state.withLock { value in
            value.entries = value.entries.filter { $0.value.reader != reader }
            value.entries[handle] = entry
        }
        return entry
    }

    /// Forgets the card in `reader` (it left).
    func forget(reader: String) {
        state.withLock { value in value.entries = value.entries.filter { $0.value.reader != reader } }
    }

    /// Connects to `target` on the driver's queue: ISO-DEP tags get their APDUs passed through, others go through
    /// the reader's transparent session when it starts one, else its pseudo-APDUs.
    /// - Throws: `TransportError` `.noSuchTarget` when the target is not known, `.tagLost` when the reader's tag
    ///   now has another ATR or none, or the PC/SC error of connecting.
    public func connect(to target: TargetInfo, meter: AirTimeMeter) async throws(TransportError) -> any TagConnection {
        try await calls.run { () throws(TransportError) -> PCSCConnection in try self.connectBlocking(to: target, meter: meter) }
    }

    private func connectBlocking(to target: TargetInfo, meter: AirTimeMeter) throws(TransportError) -> PCSCConnection {
        guard let entry = state.withLock({ $0.entries[target.handle] }) else {
            throw TransportError(.noSuchTarget, "target \(target.handle) is not on any PC/SC reader now")
        }
        let card = try context().connect(reader: entry.reader)
        let (status, atr) = card.answerToReset()
        guard status == .success, atr == entry.atr else {
            card.disconnect()
            throw TransportError(.tagLost, "the tag on \(entry.reader) was replaced or removed")
        }
        let mode: PCSCConnection.Mode
        var profile = entry.profile ?? knownProfile(ofReader: entry.reader)
        if entry.kind.speaksISODEP {
            // The profile decides the longest APDU (the ACR122U takes short ones only).
            if profile == nil, !entry.kind.isContactCard { profile = self.profile(ofReader: entry.reader, probing: card) }
            mode = .passThrough
        } else if let known = profile, !known.capabilities.contains(.transparentSession) {
            mode = Self.storageMode(known)
        } else {
            let (started, answer) = card.transmit(PseudoAPDU.startTransparentSession)
            if started == .success && answer.suffix(2) == [0x90, 0x00] {
                mode = .transparentSession
            } else {
                let probed = self.profile(ofReader: entry.reader, probing: card)
                profile = probed
                mode = Self.storageMode(probed)
            }
        }
        PCSCLog.logger.debug(
            "connected",
            metadata: [
                "reader": "\(entry.reader)", "atr": "\(Hex.encode(entry.atr))", "mode": "\(mode)", "profile": "\(profile ?? .generic)",
            ])
        return PCSCConnection(card: card, target: entry.target, mode: mode, profile: profile ?? .generic, meter: meter)
    }

    /// How a storage tag is reached through a reader of `profile` that has no transparent session
    /// (or refused to start one): Direct Transmit on the ACR122U, READ and UPDATE BINARY (and
    /// the uTrust's FeliCa pseudo-APDUs) otherwise.
    static func storageMode(_ profile: ReaderProfile) -> PCSCConnection.Mode {
        profile.capabilities.contains(.directTransmit) ? .directTransmit : .pseudoAPDUs
    }

    /// Arrivals and departures on the matching readers, watched on a thread of their own (see `ReaderDriver`);
    /// the watch stops when the stream is terminated, and the stream ends when no PC/SC library can be loaded.
    public func events(matching mask: TechnologyMask) async -> AsyncStream<ReaderEvent> {
        let (stream, continuation) = AsyncStream<ReaderEvent>.makeStream(bufferingPolicy: .unbounded)
        let monitor = PCSCEventMonitor(
            driver: self, mask: mask, emit: { event in continuation.yield(event) }, finish: { continuation.finish() })
        continuation.onTermination = { _ in monitor.stop() }
        monitor.start()
        return stream
    }
}

/// A reader as `PCSCDriver.readerStatus()` reports it.
public struct PCSCReaderStatus: Sendable, Hashable {
    /// The reader's PC/SC name.
    public var name: String
    /// Whether a tag is on the reader (present and not mute).
    public var tagPresent: Bool
    /// The tag's ATR; empty when no tag is present.
    public var atr: [UInt8]
    /// What the driver takes the reader for.
    public var profile: ReaderProfile = .generic
    /// How the profile was found.
    public var profileSource: ReaderProfile.Source = .assumed
}
