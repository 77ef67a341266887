#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the link to vpcd could not be made or broke.
///
/// A struct with a stable ``Code-swift.struct`` and the details the code has; two errors are
/// equal when their code and details are.
public struct VPCDLinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name, e.g. `connectionRefused`.
        public var description: String { name }

        /// Nothing listens at the endpoint: pcscd is not running, or runs without vpcd.
        public static let connectionRefused = Code("connectionRefused")
        /// The host name does not resolve.
        public static let unresolvableHost = Code("unresolvableHost")
        /// Connecting failed for another reason, or took longer than the time limit.
        public static let connectFailed = Code("connectFailed")
        /// A socket call failed on an open connection.
        public static let io = Code("io")
        /// A response longer than the 65 535 bytes a vpcd message carries.
        public static let responseTooLong = Code("responseTooLong")
        /// ``VPCDLink/serve(_:removeAfter:afterCommand:)`` was called without a connection.
        public static let notConnected = Code("notConnected")
        /// ``VPCDLink/stop()`` was called.
        public static let stopped = Code("stopped")
    }

    /// What went wrong.
    public let code: Code
    /// Where vpcd was expected (connection failures).
    public let endpoint: VPCDEndpoint?
    /// The socket call that failed (``Code-swift.struct/io``).
    public let operation: String?
    /// The `errno` of a failed socket call.
    public let errno: Int32?
    /// The resolver's message (``Code-swift.struct/unresolvableHost``).
    public let reason: String?
    /// The length of a response too long to send.
    public let length: Int?

    init(
        _ code: Code, endpoint: VPCDEndpoint? = nil, operation: String? = nil, errno: Int32? = nil, reason: String? = nil,
        length: Int? = nil
    ) {
        self.code = code
        self.endpoint = endpoint
        self.operation = operation
        self.errno = errno
        self.reason = reason
        self.length = length
    }

    /// Nothing listens at `endpoint`.
    public static func connectionRefused(_ endpoint: VPCDEndpoint) -> VPCDLinkError {
        VPCDLinkError(.connectionRefused, endpoint: endpoint)
    }
    /// The host name does not resolve (`getaddrinfo` failed with `reason`).
    public static func unresolvableHost(_ endpoint: VPCDEndpoint, reason: String) -> VPCDLinkError {
        VPCDLinkError(.unresolvableHost, endpoint: endpoint, reason: reason)
    }
    /// Connecting failed with `errno`.
    public static func connectFailed(_ endpoint: VPCDEndpoint, errno: Int32) -> VPCDLinkError {
        VPCDLinkError(.connectFailed, endpoint: endpoint, errno: errno)
    }
    /// A socket call failed on an open connection.
    public static func io(operation: String, errno: Int32) -> VPCDLinkError { VPCDLinkError(.io, operation: operation, errno: errno) }
    /// A response of `length` bytes does not fit a vpcd message.
    public static func responseTooLong(_ length: Int) -> VPCDLinkError { VPCDLinkError(.responseTooLong, length: length) }
    /// Not connected.
    public static let notConnected = VPCDLinkError(.notConnected)
    /// Stopped.
    public static let stopped = VPCDLinkError(.stopped)

    /// A sentence for people: what failed, where, and the system's message for an `errno`.
    public var description: String {
        let at = endpoint.map { "\($0)" } ?? "?"
        return switch code {
        case .connectionRefused: "cannot connect to vpcd at \(at): connection refused — is pcscd running with vsmartcard-vpcd?"
        case .unresolvableHost: "cannot resolve \(endpoint?.host ?? "?") for vpcd at \(at): \(reason ?? "")"
        case .connectFailed: "cannot connect to vpcd at \(at): \(Self.message(errno ?? 0))"
        case .io: "vpcd connection: \(operation ?? "?") failed: \(Self.message(errno ?? 0))"
        case .responseTooLong: "a response of \(length ?? 0) bytes does not fit a vpcd message (65535 at most)"
        case .notConnected: "not connected to vpcd"
        case .stopped: "the vpcd link was stopped"
        default: code.name
        }
    }

    /// `strerror` text for an `errno` value.
    static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// How one vpcd connection ended.
public enum VPCDLinkEnding: Sendable, Hashable, CustomStringConvertible {
    /// vpcd closed the connection (pcscd stopped or restarted).
    case peerClosed
    /// ``VPCDLink/stop()`` was called.
    case stopped
    /// The card left the reader: the connection was closed on receiving the APDU after the
    /// allowed number, without answering it.
    case cardRemoved(afterCommands: Int)
    /// The connection broke.
    case failed(VPCDLinkError)

    /// A short phrase for people, e.g. `card removed after 3 commands`.
    public var description: String {
        switch self {
        case .peerClosed: "vpcd closed the connection"
        case .stopped: "stopped"
        case .cardRemoved(let count): "card removed after \(count) commands"
        case .failed(let error): "\(error)"
        }
    }
}
