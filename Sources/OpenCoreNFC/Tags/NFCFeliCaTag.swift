import Foundation
import NFCBytes
import NFCTransport

/// A FeliCa tag, as Core NFC's `NFCFeliCaTag`.
///
/// The commands are those of the FeliCa Card User's Manual Excerpted Edition (Sony M617-E02) §4.4
/// and JIS X 6319-4 §9–§10. Every command after Polling carries ``currentIDm`` after its command
/// code. Multi-byte codes are passed as the card reads them: service and node codes and block
/// numbers little endian, system codes high byte first. Status flags come back to the caller;
/// a non-zero Status Flag 1 is not an error of the call. Errors are `NFCReaderError`s.
@available(iOS 13.0, *)
@preconcurrency
public protocol NFCFeliCaTag: NFCNDEFTag, __NFCTag {
    /// The system code most recently selected with Polling (at discovery, or by ``polling(systemCode:requestCode:timeSlot:completionHandler:)``).
    var currentSystemCode: Data { get }
    /// The IDm of the selected system; empty after a Polling that no system answered.
    var currentIDm: Data { get }

    /// Polling (`00`): selects the system with this code (2 bytes, high byte first, one of the
    /// app's declared system codes, no `FF` wildcard byte) and returns its PMm and the request data.
    func polling(
        systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot,
        completionHandler: @escaping (Data, Data, (any Error)?) -> Void)
    /// Polling (`00`): selects the system with this declared code (2 bytes, high byte first); returns its PMm and the
    /// request data (empty when the card sends none).
    func polling(systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot) async throws -> (
        Data, Data
    )

    /// Request Service (`02`): the key version of each node (1–32 codes of 2 bytes, little endian);
    /// `FFFF` for a node the system lacks.
    func requestService(nodeCodeList: [Data], completionHandler: @escaping ([Data], (any Error)?) -> Void)
    /// Request Service (`02`): the key version of each node, 2 bytes each; `FFFF` for a node the system lacks.
    func requestService(nodeCodeList: [Data]) async throws -> [Data]

    /// Request Response (`04`): the card's mode, 0–3.
    func requestResponse(completionHandler: @escaping (Int, (any Error)?) -> Void)
    /// Request Response (`04`): the card's mode, 0–3.
    func requestResponse() async throws -> Int

    /// Read Without Encryption (`06`): Status Flag 1, Status Flag 2 and, when Status Flag 1 is 0,
    /// the 16-byte blocks.
    func readWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data], completionHandler: @escaping (Int, Int, [Data], (any Error)?) -> Void)
    /// Read Without Encryption (`06`): Status Flag 1, Status Flag 2 and, when Status Flag 1 is 0, the 16-byte blocks.
    func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data]) async throws -> (Int, Int, [Data])

    /// Write Without Encryption (`08`): one 16-byte block of data per block list element.
    func writeWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data], blockData: [Data],
        completionHandler: @escaping (Int, Int, (any Error)?) -> Void)
    /// Write Without Encryption (`08`), one 16-byte block per block list element; returns Status Flag 1 and Status Flag 2.
    func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data]) async throws -> (Int, Int)

    /// Request System Code (`0C`): the codes of the card's systems, 2 bytes each as the card sends them.
    func requestSystemCode(completionHandler: @escaping ([Data], (any Error)?) -> Void)
    /// Request System Code (`0C`): the codes of the card's systems, 2 bytes each as the card sends them.
    func requestSystemCode() async throws -> [Data]

    /// Request Service v2 (`32`): flags, encryption identifier, AES and DES key versions.
    func requestServiceV2(
        nodeCodeList: [Data],
        completionHandler: @escaping (Int, Int, NFCFeliCaEncryptionId, [Data], [Data], (any Error)?) -> Void)
    /// Request Service v2 (`32`): Status Flag 1, Status Flag 2, the encryption identifier, then the AES and DES key versions
    /// (when Status Flag 1 is not 0: identifier `.AES` and empty lists).
    func requestServiceV2(nodeCodeList: [Data]) async throws -> (Int, Int, NFCFeliCaEncryptionId, [Data], [Data])

    /// Request Specification Version (`3C`, response format `00`): flags, basic version, option versions.
    func requestSpecificationVersion(completionHandler: @escaping (Int, Int, Data, Data, (any Error)?) -> Void)
    /// Request Specification Version (`3C`): Status Flag 1, Status Flag 2, the basic version and the option versions
    /// (both empty when Status Flag 1 is not 0).
    func requestSpecificationVersion() async throws -> (Int, Int, Data, Data)

    /// Reset Mode (`3E`): returns the card to mode 0.
    func resetMode(completionHandler: @escaping (Int, Int, (any Error)?) -> Void)
    /// Reset Mode (`3E`): returns the card to mode 0; returns Status Flag 1 and Status Flag 2.
    func resetMode() async throws -> (Int, Int)

    /// Sends a command packet (command code first, at most 254 bytes, without LEN and CRC, which
    /// the reader adds) and returns the response packet without LEN and CRC.
    func sendFeliCaCommand(commandPacket: Data, completionHandler: @escaping (Data, (any Error)?) -> Void)
    /// Sends a command packet (command code first, 1–254 bytes, without LEN and CRC) and returns the response packet
    /// without LEN and CRC.
    func sendFeliCaCommand(commandPacket: Data) async throws -> Data
}

/// The FeliCa tags sessions hand out. The commands live in `Tags/FeliCa/`.
///
/// Mutable state: the system Polling last selected, under a mutex.
@available(iOS 13.0, *)
final class FeliCaTagObject: NFCTagObject, NFCFeliCaTag, __NFCTag, @unchecked Sendable {
    /// IDm and system code chosen by a Polling command; nil until the first one.
    let selection = Guarded<(idm: Data, systemCode: Data)?>(nil)

    var type: NFCTagType { .feliCa }

    var currentIDm: Data {
        selection.withLock { $0?.idm } ?? Data(target.identifier)
    }

    var currentSystemCode: Data {
        if let code = selection.withLock({ $0?.systemCode }) { return code }
        guard case .felica(let f) = target.parameters else { return Data() }
        return Data([UInt8(f.systemCode >> 8), UInt8(f.systemCode & 0xFF)])
    }

    /// The PMm the card reported at discovery.
    var pmm: [UInt8] {
        guard case .felica(let f) = target.parameters else { return [] }
        return f.pmm
    }

    /// Runs an async operation and hands its result to a completion adapter on the session queue.
    func complete<T: Sendable>(
        _ operation: @escaping @Sendable () async throws -> T, _ handler: @escaping (Result<T, any Error>) -> Void
    ) {
        nonisolated(unsafe) let handler = handler
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            deliver { handler(result) }
        }
    }
}
