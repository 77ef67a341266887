import Logging

/// The PC/SC driver's logger, `opencorenfc.pcsc`: connections at debug, every APDU to the
/// reader (pseudo-APDUs and transparent-exchange frames included) at trace.
///
/// Nothing is logged at `info` or above: a program that does not bootstrap swift-log below
/// `info` sees nothing.
enum PCSCLog {
    static let logger = Logger(label: "opencorenfc.pcsc")
}
