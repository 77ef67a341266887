import ArgumentParser

/// `nfc readers [--json]`
struct ReadersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readers",
        abstract: "List readers: sim (the simulator) always, then PC/SC readers."
    )

    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let image = SimulatedReader.defaultImagePath
        if json {
            Output.line(JSONValue.array([
                .object([("name", .string("sim")), ("kind", .string("simulator")), ("image", .string(image))])
            ]).serialized(pretty: true))
        } else {
            Output.line("sim\tsimulated field with a persistent virtual tag (\(image))")
        }
    }
}
