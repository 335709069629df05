import ArgumentParser
import TransitModel

/// `kiosk lookup QUERY` with only `--db`, `--config`, `--at`, `--window`, `--nearby`, `--lang` and `--json`, the way
/// integrators script it by the thousand, read without ArgumentParser.
///
/// ArgumentParser finds a command's options by reflection: each option type is instantiated and its conformances
/// looked up among the executable's 7,500, about 8 ms of a 45 ms `kiosk lookup` process. Anything else — help,
/// `--speak`, `--realtime`, `--opt=value`, a repeated or unknown option, a value starting with `-`, a value that
/// does not convert or validate — returns nil and is parsed by ArgumentParser as before, so usage errors and help
/// stay its own. The command built here is the same `LookupCommand` value ArgumentParser would decode.
enum PlainLookup {
    /// Options that take a value, as ArgumentParser spells them for `lookup`.
    private static let valued: Set<String> = ["--db", "--config", "--at", "--window", "--nearby", "--lang"]

    static func command(_ arguments: [String]) -> LookupCommand? {
        guard arguments.first == "lookup" else { return nil }
        var query: String?
        var values: [String: String] = [:]
        var json = false
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            if argument == "--json" {
                guard !json else { return nil }
                json = true
            } else if valued.contains(argument) {
                guard values[argument] == nil, let value = rest.popFirst(), !value.hasPrefix("-") else { return nil }
                values[argument] = value
            } else if argument.hasPrefix("-") || query != nil || argument == "help" {
                return nil
            } else {
                query = argument
            }
        }
        guard let query else { return nil }

        var command = LookupCommand()
        command.query = query
        var database = DatabaseOptions()
        database.db = values["--db"]
        command.database = database
        var config = ConfigOption()
        config.config = values["--config"]
        command.configOption = config
        var moment = MomentOption()
        moment.at = values["--at"]
        command.moment = moment
        command.window = 60
        command.nearby = 400
        if let window = values["--window"] {
            guard let minutes = Int(argument: window) else { return nil }
            command.window = minutes
        }
        if let nearby = values["--nearby"] {
            guard let metres = Int(argument: nearby) else { return nil }
            command.nearby = metres
        }
        var output = OutputOptions()
        output.json = json
        output.lang = nil
        if let lang = values["--lang"] {
            guard let language = Language(argument: lang) else { return nil }
            output.lang = language
        }
        command.output = output
        var live = LiveOptions()
        live.sources = []
        live.realtimeMode = nil
        command.live = live
        var speech = SpeechOptions()
        speech.speak = false
        speech.speakTo = nil
        speech.speech = .short
        speech.printSpeech = false
        command.speech = speech
        // Out of range: ArgumentParser says so, in its words.
        guard (try? command.validate()) != nil else { return nil }
        return command
    }
}
