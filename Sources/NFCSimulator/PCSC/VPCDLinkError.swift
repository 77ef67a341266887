#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the link to vpcd could not be made or broke.
public enum VPCDLinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing listens at the endpoint: pcscd is not running, or runs without vpcd.
    case connectionRefused(VPCDEndpoint)
    /// The host name does not resolve (`getaddrinfo` failed with this message).
    case unresolvableHost(VPCDEndpoint, reason: String)
    /// Connecting failed for another reason (`errno`), or took longer than the time limit.
    case connectFailed(VPCDEndpoint, errno: Int32)
    /// A socket call failed on an open connection (`errno`).
    case io(operation: String, errno: Int32)
    /// A response longer than the 65 535 bytes a vpcd message carries.
    case responseTooLong(Int)
    /// ``VPCDLink/serve(_:removeAfter:afterCommand:)`` was called without a connection.
    case notConnected
    /// ``VPCDLink/stop()`` was called.
    case stopped

    public var description: String {
        switch self {
        case .connectionRefused(let endpoint):
            "cannot connect to vpcd at \(endpoint): connection refused — is pcscd running with vsmartcard-vpcd?"
        case .unresolvableHost(let endpoint, let reason):
            "cannot resolve \(endpoint.host) for vpcd at \(endpoint): \(reason)"
        case .connectFailed(let endpoint, let code):
            "cannot connect to vpcd at \(endpoint): \(Self.message(code))"
        case .io(let operation, let code):
            "vpcd connection: \(operation) failed: \(Self.message(code))"
        case .responseTooLong(let count):
            "a response of \(count) bytes does not fit a vpcd message (65535 at most)"
        case .notConnected:
            "not connected to vpcd"
        case .stopped:
            "the vpcd link was stopped"
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

    public var description: String {
        switch self {
        case .peerClosed: "vpcd closed the connection"
        case .stopped: "stopped"
        case .cardRemoved(let count): "card removed after \(count) commands"
        case .failed(let error): "\(error)"
        }
    }
}
