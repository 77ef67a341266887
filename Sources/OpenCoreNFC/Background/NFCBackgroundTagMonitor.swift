import Foundation
import NDEF
import NFCTags
import NFCTransport

/// Background tag reading on one reader: every tap is read and dispatched as an iPhone would
/// (``NFCBackgroundTagReader``), one event per tap — a tag held on the reader is one tap, and
/// a tag taken away and brought back is two.
///
/// The reader's own event stream decides what a tap is (the simulator: a tag placed in the
/// field; PC/SC: pcscd's card event counter). Taps on one reader are handled in order; run
/// one monitor per reader so that readers never wait for one another.
public struct NFCBackgroundTagMonitor: Sendable {
    /// The reader watched.
    public let driver: any ReaderDriver
    /// The name events carry (default: the driver's).
    public let readerName: String
    /// The apps and association files taps are dispatched to.
    public let reader: NFCBackgroundTagReader
    /// The device's state at each tap.
    public let state: @Sendable () -> NFCBackgroundDeviceState

    /// Watches `driver`; `readerName` defaults to the driver's name and `state` to the process's ``NFCBackgroundDeviceState/current(_:)``,
    /// asked again at each tap. Nothing is read until ``events()`` is called.
    public init(
        driver: any ReaderDriver, readerName: String? = nil, reader: NFCBackgroundTagReader,
        state: @escaping @Sendable () -> NFCBackgroundDeviceState = { .current() }
    ) {
        self.driver = driver
        self.readerName = readerName ?? driver.name
        self.reader = reader
        self.state = state
    }

    /// The events, until the caller stops iterating (or the reader's stream ends).
    public func events() -> AsyncStream<NFCBackgroundTagEvent> {
        let (stream, continuation) = AsyncStream<NFCBackgroundTagEvent>.makeStream(bufferingPolicy: .unbounded)
        let monitor = self
        let task = Task {
            for await event in await monitor.driver.events(matching: .all) {
                switch event {
                case .targetArrived(let target):
                    continuation.yield(await monitor.tap(target))
                case .targetLeft(let target):
                    continuation.yield(.left(reader: monitor.readerName, target: target))
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Reads the tag that arrived and dispatches its message.
    func tap(_ target: TargetInfo) async -> NFCBackgroundTagEvent {
        do {
            let message = try await readMessage(target)
            return .tapped(NFCBackgroundTap(reader: readerName, target: target, dispatch: reader.dispatch(message, state: state())))
        } catch {
            return .readFailed(reader: readerName, target: target, reason: error.description)
        }
    }

    /// The tag's NDEF message, `nil` when it holds none.
    func readMessage(_ target: TargetInfo) async throws(NFCBackgroundReadError) -> NDEFMessage? {
        let connection: any TagConnection
        do {
            connection = try await driver.connect(to: target, meter: AirTimeMeter())
        } catch {
            throw NFCBackgroundReadError("cannot connect: \(error)")
        }
        let engine = TagEngines.engine(for: TagFamily(target))
        let result: NDEFReadResult
        do {
            result = try await engine.readNDEF(on: connection)
        } catch {
            await connection.disconnect()
            throw NFCBackgroundReadError("cannot read NDEF: \(error)")
        }
        await connection.disconnect()
        guard !result.message.isEmpty else { return nil }
        do {
            return try NDEFMessage(decoding: result.message)
        } catch {
            throw NFCBackgroundReadError("the tag holds a malformed NDEF message: \(error)")
        }
    }
}

/// One reader's background-reading event.
public enum NFCBackgroundTagEvent: Sendable {
    /// A tag was tapped, read and dispatched.
    case tapped(NFCBackgroundTap)
    /// A tag was tapped but could not be read (it left too soon, it is not NDEF, its message is
    /// malformed): nothing was delivered.
    case readFailed(reader: String, target: TargetInfo, reason: String)
    /// The tag left the reader.
    case left(reader: String, target: TargetInfo)
}

/// A tap that was read.
public struct NFCBackgroundTap: Sendable {
    /// The reader it happened on.
    public let reader: String
    /// The tag.
    public let target: TargetInfo
    /// What background reading did with its message.
    public let dispatch: NFCBackgroundDispatch
}

/// Why a tapped tag could not be read.
public struct NFCBackgroundReadError: Error, Sendable, CustomStringConvertible {
    /// What failed: connecting, reading the NDEF message, or decoding it, with the underlying error.
    public let description: String
    init(_ description: String) { self.description = description }
}
