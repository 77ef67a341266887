/// The command line the running command was parsed from, for the one thing ArgumentParser's parsed
/// values cannot say: the order of different options relative to each other (the records of
/// `nfc write` and `nfc ndef encode`, ``RecordArguments``).
///
/// `NFCMain` parses `CommandLine.arguments` once and runs the command with this set to the same
/// arguments; a test parses its own arguments and runs the command in process the same way:
///
/// ```swift
/// try await Invocation.$arguments.withValue(arguments) {
///     var command = try NFCCommand.parseAsRoot(arguments)
///     try command.run()
/// }
/// ```
enum Invocation {
    /// The arguments after the program name, exactly as parsed; empty outside a run.
    @TaskLocal static var arguments: [String] = []
}
