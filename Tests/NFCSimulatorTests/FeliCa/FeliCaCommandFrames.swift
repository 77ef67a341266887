import NFCSimulator
import NFCTransport

/// Raw FeliCa command frames built from the manuals' formats (command code first, no LEN/CRC),
/// for the FeliCa suites.
enum FeliCaCommandFrames {
    /// Polling: `00`, system code (big endian), request code, time slot number.
    static func polling(_ systemCode: UInt16, requestCode: UInt8 = 0x00, timeSlots: UInt8 = 0x00) -> [UInt8] {
        [0x00, UInt8(systemCode >> 8), UInt8(systemCode & 0xFF), requestCode, timeSlots]
    }

    /// A 2-byte block list element (or a 3-byte one with a little-endian block number).
    static func element(_ block: UInt16, order: UInt8 = 0, accessMode: UInt8 = 0, threeByte: Bool = false) -> [UInt8] {
        let d0 = (accessMode & 0x07) << 4 | (order & 0x0F)
        if threeByte { return [d0, UInt8(block & 0xFF), UInt8(block >> 8)] }
        return [0x80 | d0, UInt8(block & 0xFF)]
    }

    /// Read Without Encryption with a service code list and raw block list elements.
    static func read(_ idm: [UInt8], services: [UInt16], elements: [[UInt8]]) -> [UInt8] {
        var frame: [UInt8] = [0x06] + idm + [UInt8(services.count)]
        for service in services { frame += [UInt8(service & 0xFF), UInt8(service >> 8)] }
        frame.append(UInt8(elements.count))
        for element in elements { frame += element }
        return frame
    }

    /// Read Without Encryption of some blocks of one service with 2-byte elements.
    static func read(_ idm: [UInt8], service: UInt16, blocks: [UInt16]) -> [UInt8] {
        read(idm, services: [service], elements: blocks.map { element($0) })
    }

    /// Write Without Encryption with a service code list, raw elements and the block data.
    static func write(_ idm: [UInt8], services: [UInt16], elements: [[UInt8]], data: [[UInt8]]) -> [UInt8] {
        var frame: [UInt8] = [0x08] + idm + [UInt8(services.count)]
        for service in services { frame += [UInt8(service & 0xFF), UInt8(service >> 8)] }
        frame.append(UInt8(elements.count))
        for element in elements { frame += element }
        for block in data { frame += block }
        return frame
    }

    /// Write Without Encryption of one block of one service.
    static func write(_ idm: [UInt8], service: UInt16, block: UInt16, data: [UInt8], accessMode: UInt8 = 0) -> [UInt8] {
        write(idm, services: [service], elements: [element(block, accessMode: accessMode)], data: [data])
    }

    /// A 16-byte block of one repeated byte.
    static func filled(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 16) }

    /// The error answer to a block command: response code, IDm, the two status flags.
    static func status(_ responseCode: UInt8, _ idm: [UInt8], _ flag1: UInt8, _ flag2: UInt8) -> [UInt8] {
        [responseCode] + idm + [flag1, flag2]
    }

    /// A duration from nanoseconds, rounded as the simulator rounds.
    static func duration(_ nanoseconds: Double) -> Duration { .nanoseconds(Int64(nanoseconds.rounded())) }

    /// The bytes a tag answers directly, `nil` when it stays silent.
    static func reply(_ answer: TagAnswer) -> [UInt8]? { answer.transceivedBytes }
}
