import Foundation
import NFCBytes
import NFCTransport

@available(iOS 17.4, *)
extension CardSession {
    /// A command APDU from the reader, answered once with ``respond(response:)`` (Apple's
    /// `CardSession.APDU`).
    public final class APDU: Sendable, Equatable, CustomDebugStringConvertible {
        /// The command APDU's bytes as the reader sent them (ISO/IEC 7816-4 §5.1).
        public let payload: Data
        private let command: EmulatedCommand
        private let answered = Guarded(false)

        init(_ command: EmulatedCommand) {
            self.command = command
            self.payload = Data(command.bytes)
        }

        /// Sends the response APDU: data, then the two status bytes (ISO/IEC 7816-4 §5.1).
        /// - Throws: ``CardSession/Error/transmissionError`` when the response has no status
        ///   word, was already sent, or the reader has gone.
        public func respond(response: Data) async throws {
            guard response.count >= 2 else { throw CardSession.Error.transmissionError }
            let first = answered.withLock { done -> Bool in
                defer { done = true }
                return !done
            }
            guard first, await command.respond([UInt8](response)) else { throw CardSession.Error.transmissionError }
        }

        /// Two APDUs are equal when they are the same command.
        public static func == (lhs: APDU, rhs: APDU) -> Bool { lhs === rhs }

        /// The command in hex, e.g. `APDU(00A4040007A0000002471001)`.
        public var debugDescription: String { "APDU(\(payload.map { String(format: "%02X", $0) }.joined()))" }
    }

    /// The session's events as an asynchronous sequence (Apple's `CardSession.EventStream`).
    public final class EventStream: AsyncSequence, Sendable {
        /// The events.
        public typealias Element = CardSession.Event
        /// The iterator.
        public typealias AsyncIterator = Iterator

        private let stream: AsyncStream<CardSession.Event>

        init(_ stream: AsyncStream<CardSession.Event>) { self.stream = stream }

        /// An iterator over the events; the sequence is meant to be read by one task.
        public func makeAsyncIterator() -> Iterator { Iterator(stream.makeAsyncIterator()) }

        /// Iterates the events; nil after ``CardSession/Event/sessionInvalidated(reason:)``.
        public final class Iterator: AsyncIteratorProtocol {
            /// The events.
            public typealias Element = CardSession.Event
            private var base: AsyncStream<CardSession.Event>.Iterator

            init(_ base: AsyncStream<CardSession.Event>.Iterator) { self.base = base }

            /// The next event, or nil once the session has ended.
            public func next() async throws -> CardSession.Event? { await base.next() }
        }
    }
}
