import NFCBytes
import NFCTransport

/// A FeliCa Standard card modelled on the RC-S962 IC: several systems, each with areas and
/// services, answering the commands that need no authentication.
///
/// FeliCa Card User's Manual Excerpted Edition v2.0 §4.4. PMm `01 20 22 04 27 67 4E FF` (ROM
/// `01`, IC type `20` = RC-S962); up to 12 blocks per read and 10 per write (Sony's figures for
/// the IC); 212 and 424 kbit/s. Commands: Polling (`00`, wildcards, request codes `01` system
/// code and `02` communication performance `00 83`), Request Service (`02`), Request Response
/// (`04`), Read and Write Without Encryption (`06`, `08`), Search Service Code (`0A`), Request
/// System Code (`0C`), Request Specification Version (`3C`) and Reset Mode (`3E`) when the card
/// has a ``SpecificationVersion``. Request Service v2 (`32`, AES cards), the authentication
/// commands and unknown codes go unanswered.
///
/// Each system has its own IDm: the card's IDm with the system number in the upper nibble of
/// byte 0 (system 0 keeps the card's IDm). Addressed commands act on the system whose IDm they
/// carry; any other IDm gets no answer.
///
/// Response times (the PMm maximum is the reader's timeout): Polling in its time slot (see
/// ``FeliCaTiming``); Request Service 200 µs + 40 µs per node; the fixed-time commands 250 µs;
/// reads 400 µs + 80 µs per block; writes 400 µs + 2.5 ms per block; status-flag errors 200 µs.
public struct FeliCaStandardTag: VirtualTag, Sendable, Hashable {
    /// The IDm of system 0 used when none is given: manufacturer code `01 16`, then a number.
    public static let defaultIDm: [UInt8] = [0x01, 0x16, 0x0A, 0x12, 0x34, 0x56, 0x78, 0x9A]
    /// The PMm of an RC-S962 card.
    public static let defaultPMm: [UInt8] = [0x01, 0x20, 0x22, 0x04, 0x27, 0x67, 0x4E, 0xFF]

    /// The answer to Request Specification Version: basic version and option versions, each two
    /// BCD bytes sent little endian.
    public struct SpecificationVersion: Sendable, Hashable {
        /// The basic version as its BCD digits read (`0x0100` is 1.00).
        public var basicVersion: UInt16
        /// One version per option, in the same form; at most 255.
        public var optionVersions: [UInt16]
        /// Creates a specification version from its parts.
        public init(basicVersion: UInt16, optionVersions: [UInt16]) {
            self.basicVersion = basicVersion
            self.optionVersions = optionVersions
        }
    }

    /// The IDm of system 0.
    public internal(set) var idm: [UInt8]
    /// Manufacture parameter (8 bytes), sent in answer to Polling.
    public internal(set) var pmm: [UInt8]
    /// The systems, system 0 first; Polling answers for the first whose code matches the request.
    public internal(set) var systems: [System]
    /// The most blocks one Read Without Encryption may name (Number of Block beyond: `FF A2`).
    public internal(set) var maximumReadBlocks: Int
    /// The most blocks one Write Without Encryption may name.
    public internal(set) var maximumWriteBlocks: Int
    /// `nil` when the card does not know Request Specification Version and Reset Mode.
    public internal(set) var specificationVersion: SpecificationVersion?

    // Volatile state.
    /// Mode 0 after power-on, Polling and Reset Mode (authentication, not modelled, raises it).
    public internal(set) var mode: UInt8 = 0
    var slotPicker: FeliCaSlotPicker

    /// The default two-system card (``defaultSystems``).
    public init(idm: [UInt8] = FeliCaStandardTag.defaultIDm) {
        // Images and the catalogue check their input first.
        precondition(idm.count == 8 && idm[0] >> 4 == 0, "system 0's IDm: 8 bytes, upper nibble 0")  // trap-ok: caller's rule
        self.init(
            unchecked: idm, pmm: Self.defaultPMm, systems: Self.defaultSystems, maximumReadBlocks: 12,
            maximumWriteBlocks: 10, specificationVersion: SpecificationVersion(basicVersion: 0x0100, optionVersions: [0x0100])
        )
    }

    /// A card with a custom layout, checked as an image is.
    ///
    /// - Throws: ``TagImageError`` `.invalidValue` naming the first field that cannot exist.
    public init(
        idm: [UInt8] = FeliCaStandardTag.defaultIDm, pmm: [UInt8] = FeliCaStandardTag.defaultPMm, systems: [System],
        maximumReadBlocks: Int = 12, maximumWriteBlocks: Int = 10,
        specificationVersion: SpecificationVersion? = SpecificationVersion(basicVersion: 0x0100, optionVersions: [0x0100])
    ) throws(TagImageError) {
        self.init(
            unchecked: idm, pmm: pmm, systems: systems, maximumReadBlocks: maximumReadBlocks,
            maximumWriteBlocks: maximumWriteBlocks, specificationVersion: specificationVersion
        )
        try FeliCaStandardLayoutCheck.validate(self)
    }

    init(
        unchecked idm: [UInt8], pmm: [UInt8], systems: [System], maximumReadBlocks: Int, maximumWriteBlocks: Int,
        specificationVersion: SpecificationVersion?
    ) {
        self.idm = idm
        self.pmm = pmm
        self.systems = systems
        self.maximumReadBlocks = maximumReadBlocks
        self.maximumWriteBlocks = maximumWriteBlocks
        self.specificationVersion = specificationVersion
        self.slotPicker = FeliCaSlotPicker(idm: idm)
    }

    /// The IDm of system `index`: the system number in the upper nibble of byte 0.
    public func idm(ofSystem index: Int) -> [UInt8] {
        var value = idm
        if let first = value.first { value[0] = UInt8((index & 0x0F) << 4) | (first & 0x0F) }
        return value
    }

    // MARK: VirtualTag

    /// The IDm of system 0.
    public var identifier: [UInt8] { idm }

    /// FeliCa parameters: the PMm, the first system's code and 424 kbit/s as the highest bit rate.
    public var parameters: TargetInfo.Parameters {
        .felica(.init(pmm: pmm, systemCode: systems.first?.code ?? 0xFFFF, maximumBitRate: .kbps424))
    }

    /// Returns to mode 0 and restarts the time-slot choice for Polling.
    public mutating func powerOn() {
        mode = 0
        slotPicker = FeliCaSlotPicker(idm: idm)
    }

    /// Returns to mode 0; one Polling exchange (system code `FFFF`, answered in time slot 0).
    public mutating func activate(context: ExchangeContext) -> [AirFrame] {
        mode = 0
        return feliCaActivationFrames()
    }

    /// Answers the commands listed above on the system whose IDm the command carries; a command for any other IDm
    /// or with an unknown code gets no answer.
    public mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        if let polling = FeliCaPollingRequest(command) { return respond(to: polling) }
        guard let addressed = FeliCaAddressedCommand(command),
            let system = systems.indices.first(where: { idm(ofSystem: $0) == addressed.idm })
        else { return .mute }
        let parameters = addressed.parameters
        switch addressed.code {
        case FeliCaCommandCode.requestService: return requestService(parameters, idm: addressed.idm, system: system)
        case FeliCaCommandCode.requestResponse:
            return fixed(parameters, length: 0, response: [FeliCaCommandCode.requestResponse + 1] + addressed.idm + [mode])
        case FeliCaCommandCode.readWithoutEncryption: return readWithoutEncryption(parameters, idm: addressed.idm, system: system)
        case FeliCaCommandCode.writeWithoutEncryption: return writeWithoutEncryption(parameters, idm: addressed.idm, system: system)
        case FeliCaCommandCode.searchServiceCode: return searchServiceCode(parameters, idm: addressed.idm, system: system)
        case FeliCaCommandCode.requestSystemCode:
            var body: [UInt8] = [UInt8(systems.count)]
            for entry in systems { body += [UInt8(entry.code >> 8), UInt8(entry.code & 0xFF)] }
            return fixed(parameters, length: 0, response: [FeliCaCommandCode.requestSystemCode + 1] + addressed.idm + body)
        case FeliCaCommandCode.requestSpecificationVersion:
            guard let version = specificationVersion else { return .mute }
            var body: [UInt8] = [0x00, 0x00, 0x00, UInt8(version.basicVersion & 0xFF), UInt8(version.basicVersion >> 8)]
            body.append(UInt8(truncatingIfNeeded: version.optionVersions.count))
            for option in version.optionVersions { body += [UInt8(option & 0xFF), UInt8(option >> 8)] }
            return fixed(parameters, length: 2, response: [FeliCaCommandCode.requestSpecificationVersion + 1] + addressed.idm + body)
        case FeliCaCommandCode.resetMode:
            guard specificationVersion != nil, parameters.count == 2 else { return .mute }
            mode = 0
            return fixed(parameters, length: 2, response: [FeliCaCommandCode.resetMode + 1] + addressed.idm + [0x00, 0x00])
        default:
            return .mute
        }
    }

    // MARK: Commands without lists

    private mutating func respond(to polling: FeliCaPollingRequest) -> TagAnswer {
        guard let index = systems.firstIndex(where: { polling.matches($0.code) }) else { return .mute }
        mode = 0
        let slot = slotPicker.pick(timeSlotNumber: polling.timeSlotNumber)
        let response = polling.response(
            idm: idm(ofSystem: index), pmm: pmm, systemCode: systems[index].code, communicationPerformance: [0x00, 0x83]
        )
        return .bytes(response, processingTime: FeliCaTiming.pollingResponseDelay(slot: slot))
    }

    /// A command whose parameters have a fixed length; any other length is dropped.
    private func fixed(_ parameters: ArraySlice<UInt8>, length: Int, response: [UInt8]) -> TagAnswer {
        guard parameters.count == length else { return .mute }
        return .bytes(response, processingTime: Self.fixedProcessing)
    }

    /// Request Service: Number of Node (1–32), node codes (little endian) → their key versions,
    /// `FFFF` for a node the system lacks (§4.4.3).
    private func requestService(_ parameters: ArraySlice<UInt8>, idm: [UInt8], system: Int) -> TagAnswer {
        var reader = ByteReader(parameters)
        guard let count = try? reader.readUInt8(), (1...32).contains(count), reader.remaining == 2 * Int(count) else {
            return .mute
        }
        var writer = ByteWriter()
        writer.write(FeliCaCommandCode.requestService + 1)
        writer.write(contentsOf: idm)
        writer.write(count)
        for _ in 0..<count {
            let node = (try? reader.readUInt16LE()) ?? 0xFFFF
            writer.writeLE(keyVersion(of: node, in: systems[system]) ?? 0xFFFF)
        }
        let time = FeliCaTiming.microseconds(200) + FeliCaTiming.microseconds(40) * Int(count)
        return .bytes(writer.bytes, processingTime: time)
    }

    private func keyVersion(of node: UInt16, in system: System) -> UInt16? {
        if let area = system.areas.first(where: { $0.code == node }) { return area.keyVersion }
        for service in system.services {
            if let index = service.codes.firstIndex(of: node), service.keyVersions.indices.contains(index) {
                return service.keyVersions[index]
            }
        }
        return nil
    }

    /// Search Service Code: the node at an index in code order, an area as code and end code,
    /// a service as its code, `FFFF` past the last (§4.4.9).
    private func searchServiceCode(_ parameters: ArraySlice<UInt8>, idm: [UInt8], system: Int) -> TagAnswer {
        var reader = ByteReader(parameters)
        guard parameters.count == 2, let index = try? reader.readUInt16LE() else { return .mute }
        var nodes: [(code: UInt16, end: UInt16?)] = systems[system].areas.map { ($0.code, $0.endCode) }
        for service in systems[system].services { nodes += service.codes.map { ($0, nil) } }
        nodes.sort { $0.code < $1.code }
        var writer = ByteWriter()
        writer.write(FeliCaCommandCode.searchServiceCode + 1)
        writer.write(contentsOf: idm)
        if Int(index) < nodes.count {
            writer.writeLE(nodes[Int(index)].code)
            if let end = nodes[Int(index)].end { writer.writeLE(end) }
        } else {
            writer.writeLE(UInt16(0xFFFF))
        }
        return .bytes(writer.bytes, processingTime: Self.fixedProcessing)
    }

    // MARK: Timing

    static let fixedProcessing = FeliCaTiming.microseconds(250)
    static let errorProcessing = FeliCaTiming.microseconds(200)
    static func readProcessing(blocks: Int) -> Duration { FeliCaTiming.microseconds(400) + FeliCaTiming.microseconds(80) * blocks }
    static func writeProcessing(blocks: Int) -> Duration { FeliCaTiming.microseconds(400) + FeliCaTiming.microseconds(2_500) * blocks }
}
