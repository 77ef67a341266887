import NDEFJSON

/// A command whose `--json` flag makes its output JSON: its errors are then a JSON object on
/// standard output too (``CLIError/json``).
protocol JSONOutputCommand {
    var wantsJSONOutput: Bool { get }
}

extension ScanCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension ReadCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension DumpCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension RestoreCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension APDUCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension ReadersCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension TagShowCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension NDEFDecodeCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension DispatchCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension WatchCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension LintCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension OATHListCommand: JSONOutputCommand { var wantsJSONOutput: Bool { options.json } }
extension OATHCodeCommand: JSONOutputCommand { var wantsJSONOutput: Bool { options.json } }
extension OATHAddCommand: JSONOutputCommand { var wantsJSONOutput: Bool { options.json } }
extension OATHDeleteCommand: JSONOutputCommand { var wantsJSONOutput: Bool { options.json } }
extension OATHPasswordCommand: JSONOutputCommand { var wantsJSONOutput: Bool { options.json } }
extension OATHResetCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension FIDOInfoCommand: JSONOutputCommand { var wantsJSONOutput: Bool { options.json } }
extension FIDOAssertCommand: JSONOutputCommand { var wantsJSONOutput: Bool { options.json } }
extension FIDORegisterCommand: JSONOutputCommand { var wantsJSONOutput: Bool { options.json } }
extension FIDOSetPINCommand: JSONOutputCommand { var wantsJSONOutput: Bool { options.json } }
extension PIVStatusCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension PIVSignCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension PIVGenerateCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension WriteCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json && oldJSONFile == nil } }
extension FormatCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension LockCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension NDEFEncodeCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json && oldJSONFile == nil } }
extension ProtectCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension UnprotectCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension PIVChangePINCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension PIVChangePUKCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension PIVUnblockPINCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension PIVResetCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
extension FIDOResetCommand: JSONOutputCommand { var wantsJSONOutput: Bool { options.json } }
extension SUNVerifyCommand: JSONOutputCommand { var wantsJSONOutput: Bool { json } }
