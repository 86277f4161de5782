import Foundation
import MustCore
import TMDBStub
import Testing

@Suite struct ConfigTests {
    let scratch = TemporaryDirectory("config")

    func write(_ text: String, to name: String = "config.json") -> String {
        let path = scratch.file(name)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test(arguments: [("90s", 90.0), ("15m", 900), ("24h", 86400), ("7d", 604_800), ("1.5h", 5400), ("42", 42)])
    func parsesDurations(_ text: String, _ seconds: Double) {
        #expect(Durations.parse(text) == seconds)
    }

    @Test(arguments: ["", "fast", "10x", "m"])
    func rejectsBadDurations(_ text: String) {
        #expect(Durations.parse(text) == nil)
    }

    @Test func noConfigAtAllGivesDefaults() throws {
        let config = try ConfigLoader(environment: ["HOME": scratch.path]).load()
        #expect(config == Config())
        #expect(config.tmdb.baseURL.absoluteString == "https://api.themoviedb.org/3")
        #expect(config.tmdb.credentials == nil)
    }

    @Test func readsEveryKeyOfTheExample() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appending(path: "../../config.example.json").standardized.path
        let config = try ConfigLoader(environment: ["HOME": scratch.path]).load(explicitPath: example)
        // Every key, as the example writes it; its empty strings mean "unset" (nil).
        var expected = Config()
        expected.database = nil
        expected.tmdb.apiKey = nil
        expected.tmdb.accessToken = nil
        expected.tmdb.baseURL = URL(string: "https://api.themoviedb.org/3")!
        expected.tmdb.imageBaseURL = URL(string: "https://image.tmdb.org/t/p/")!
        expected.tmdb.language = "en-US"
        expected.tmdb.requestTimeout = 10
        expected.tmdb.maxRequestsPerSecond = 35
        expected.tmdb.maxRetries = 3
        expected.tmdb.transport = .curl
        expected.fetch.maxConcurrentOperations = 4
        expected.fetch.runBudget = 1800
        expected.fetch.writeBatchSize = 200
        expected.fetch.onNewData = nil
        expected.fetch.onNewDataTimeout = 30
        expected.schedule.minimumInterval = 900
        expected.schedule.maximumInterval = 86400
        expected.schedule.backoffFactor = 2
        expected.schedule.failureRetryInterval = 600
        expected.schedule.notFoundRetryInterval = 604_800
        expected.history.keep = 31_536_000
        expected.serve.listen = ListenAddress(host: "127.0.0.1", port: 8080)
        expected.serve.hosts = []
        expected.serve.timeZone = nil
        expected.posters.maxBytes = 500_000_000
        expected.posters.maxConcurrentDownloads = 4
        expected.family.region = "US"
        expected.family.services = []
        expected.family.availabilityEvery = 86400
        #expect(config == expected)
        // The example's values are the defaults, as it says.
        #expect(config == Config())
    }

    /// An empty string is "unset" for every key, whatever the key's type: a string, a number, a duration, a list,
    /// a region, a section. Before, a region, a duration or a list given as "" was an error.
    @Test func anEmptyStringIsUnsetForEveryKey() throws {
        let keys: [String: [String]] = [
            "tmdb": [
                "apiKey", "accessToken", "baseURL", "imageBaseURL", "language", "requestTimeout",
                "maxRequestsPerSecond", "maxRetries", "transport",
            ],
            "fetch": ["maxConcurrentOperations", "runBudget", "writeBatchSize", "onNewData", "onNewDataTimeout"],
            "schedule": [
                "minimumInterval", "maximumInterval", "backoffFactor", "failureRetryInterval", "notFoundRetryInterval",
            ],
            "history": ["keep"],
            "serve": ["listen", "hosts", "timeZone"],
            "posters": ["maxBytes", "maxConcurrentDownloads"],
            "family": ["region", "services", "availabilityEvery"],
        ]
        let sections = keys.sorted { $0.key < $1.key }.map { section, names in
            "\"\(section)\": {" + names.map { "\"\($0)\": \"\"" }.joined(separator: ", ") + "}"
        }
        let everyKey = "{\"database\": \"\", " + sections.joined(separator: ", ") + "}"
        #expect(try ConfigLoader(environment: [:]).load(explicitPath: write(everyKey)) == Config(), "\(everyKey)")
        let everySection =
            "{" + (["database"] + keys.keys.sorted()).map { "\"\($0)\": \"\"" }.joined(separator: ", ") + "}"
        #expect(try ConfigLoader(environment: [:]).load(explicitPath: write(everySection)) == Config())
        // Inside a list an empty string is no key: still refused, by name.
        #expect {
            try ConfigLoader(environment: [:]).load(explicitPath: write(#"{"family": {"services": [""]}}"#))
        } throws: { "\($0)".contains("family.services") }
    }

    @Test func postersHaveTheirHostAndBoundAndBadValuesNameTheKey() throws {
        let defaults = try ConfigLoader(environment: [:]).load(explicitPath: write("{}"))
        #expect(defaults.tmdb.imageBaseURL.absoluteString == "https://image.tmdb.org/t/p/")
        #expect(defaults.posters.maxBytes == 500_000_000 && defaults.posters.maxConcurrentDownloads == 4)
        let set = try ConfigLoader(environment: ["MUSTC_TMDB_IMAGE_BASE_URL": "http://127.0.0.1:9/t/p/"]).load(
            explicitPath: write(
                #"{"tmdb": {"imageBaseURL": "https://img.example/t/p/"}, "posters": {"maxBytes": 5000000000}}"#))
        #expect(set.tmdb.imageBaseURL.absoluteString == "http://127.0.0.1:9/t/p/", "the environment wins")
        #expect(set.posters.maxBytes == 5_000_000_000)
        for (bad, key) in [
            (#"{"posters": {"maxBytes": -1}}"#, "posters.maxBytes"),
            (#"{"posters": {"maxBytes": "1GB"}}"#, "posters.maxBytes"),
            (#"{"posters": {"size": 1}}"#, "posters.size"),
            (#"{"tmdb": {"imageBaseURL": "file:///etc"}}"#, "tmdb.imageBaseURL"),
        ] {
            #expect {
                try ConfigLoader(environment: [:]).load(explicitPath: write(bad))
            } throws: { "\($0)".contains(key) }
        }
        #expect(throws: ConfigError.self) {
            try ConfigLoader(environment: ["MUSTC_TMDB_IMAGE_BASE_URL": "elsewhere"]).load(explicitPath: write("{}"))
        }
    }

    @Test func serveListenIsReadAndABadOneNamesTheKey() throws {
        let config = try ConfigLoader(environment: [:]).load(explicitPath: write(#"{"serve": {"listen": ":9000"}}"#))
        #expect(config.serve.listen == ListenAddress(host: "0.0.0.0", port: 9000))
        #expect(throws: ConfigError.self) {
            try ConfigLoader(environment: [:]).load(explicitPath: write(#"{"serve": {"listen": "9000"}}"#))
        }
        #expect(throws: ConfigError.self) {
            try ConfigLoader(environment: [:]).load(explicitPath: write(#"{"serve": {"port": 9000}}"#))
        }
    }

    @Test func serveTimeZoneIsAnIANANameAndABadOneNamesTheKey() throws {
        #expect(try ConfigLoader(environment: [:]).load(explicitPath: write("{}")).serve.timeZone == nil)
        let config = try ConfigLoader(environment: [:]).load(
            explicitPath: write(#"{"serve": {"timeZone": "Europe/Berlin"}}"#))
        #expect(config.serve.timeZone == "Europe/Berlin")
        #expect {
            try ConfigLoader(environment: [:]).load(explicitPath: write(#"{"serve": {"timeZone": "Mars/Olympus"}}"#))
        } throws: { error in
            "\(error)".contains("serve.timeZone")
        }
    }

    /// The names the page answers to besides its own, normalized as `Host` is.
    @Test func serveHostsAreReadAndABadOneNamesTheKey() throws {
        let path = write(#"{"serve": {"hosts": ["Movies.Example.ORG.", "192.168.1.20", "[FD00::20]", "fd00::21"]}}"#)
        let config = try ConfigLoader(environment: [:]).load(explicitPath: path)
        #expect(config.serve.hosts == ["movies.example.org", "192.168.1.20", "fd00::20", "fd00::21"])
        for bad in [#""movies.example.org""#, #"["a b"]"#, #"[8080]"#, #"["http://example.org"]"#] {
            let path = write(#"{"serve": {"hosts": \#(bad)}}"#)
            do {
                _ = try ConfigLoader(environment: [:]).load(explicitPath: path)
                Issue.record("\(bad) was accepted")
            } catch {
                #expect("\(error)".contains("serve.hosts"), "\(bad): \(error)")
            }
        }
    }

    @Test func languageIsEnglishUnlessSet() throws {
        #expect(try ConfigLoader(environment: [:]).load(explicitPath: write("{}")).tmdb.language == "en-US")
        for language in ["fr-FR", "de", "pt-BR"] {
            let config = try ConfigLoader(environment: [:]).load(
                explicitPath: write(#"{"tmdb": {"language": "\#(language)"}}"#))
            #expect(config.tmdb.language == language)
        }
    }

    @Test func transportCanFallBackToURLSession() throws {
        let config = try ConfigLoader(environment: [:]).load(
            explicitPath: write(#"{"tmdb": {"transport": "urlsession"}}"#))
        #expect(config.tmdb.transport == .urlsession)
    }

    @Test func lookupOrderIsFlagThenVariableThenXDG() throws {
        let flag = write(#"{"database": "/flag.sqlite"}"#, to: "flag.json")
        let variable = write(#"{"database": "/variable.sqlite"}"#, to: "variable.json")
        try FileManager.default.createDirectory(atPath: scratch.file("xdg/mustc"), withIntermediateDirectories: true)
        _ = write(#"{"database": "/xdg.sqlite"}"#, to: "xdg/mustc/config.json")
        let environment = ["MUSTC_CONFIG": variable, "XDG_CONFIG_HOME": scratch.file("xdg"), "HOME": scratch.path]
        #expect(try ConfigLoader(environment: environment).load(explicitPath: flag).database == "/flag.sqlite")
        #expect(try ConfigLoader(environment: environment).load().database == "/variable.sqlite")
        var withoutVariable = environment
        withoutVariable["MUSTC_CONFIG"] = nil
        #expect(try ConfigLoader(environment: withoutVariable).load().database == "/xdg.sqlite")
    }

    @Test func environmentOverridesTheFile() throws {
        let path = write(#"{"tmdb": {"apiKey": "file-key", "baseURL": "https://example.org/3"}}"#)
        let config = try ConfigLoader(environment: [
            "TMDB_ACCESS_TOKEN": "env-token", "MUSTC_TMDB_BASE_URL": "http://127.0.0.1:9/3",
            "MUSTC_DATABASE": "/tmp/x.sqlite",
        ]).load(explicitPath: path)
        #expect(config.tmdb.credentials == .accessToken("env-token"))
        #expect(config.tmdb.baseURL.absoluteString == "http://127.0.0.1:9/3")
        #expect(config.database == "/tmp/x.sqlite")
    }

    @Test func listenVariableOverridesTheFileAndABadOneIsNamed() throws {
        let path = write(#"{"serve": {"listen": "127.0.0.1:9000"}}"#)
        #expect(try ConfigLoader(environment: [:]).load(explicitPath: path).serve.listen.port == 9000)
        let config = try ConfigLoader(environment: ["MUSTC_LISTEN": "0.0.0.0:8080"]).load(explicitPath: path)
        #expect(config.serve.listen == ListenAddress(host: "0.0.0.0", port: 8080))
        // Empty is unset, as for every variable: the file's address stays.
        #expect(try ConfigLoader(environment: ["MUSTC_LISTEN": ""]).load(explicitPath: path).serve.listen.port == 9000)
        for bad in ["8080", "host:http", "127.0.0.1:70000"] {
            #expect {
                try ConfigLoader(environment: ["MUSTC_LISTEN": bad]).load(explicitPath: path)
            } throws: { error in
                error as? ConfigError
                    == .invalidValue(source: "environment", key: "MUSTC_LISTEN", expected: ListenAddress.expected)
            }
        }
    }

    @Test func defaultDatabaseFollowsXDGDataHome() {
        #expect(
            ConfigLoader(environment: ["XDG_DATA_HOME": "/data"]).defaultDatabasePath == "/data/mustc/mustc.sqlite")
        #expect(
            ConfigLoader(environment: ["HOME": "/home/a"]).defaultDatabasePath
                == "/home/a/.local/share/mustc/mustc.sqlite")
    }

    @Test func namesFileKeyAndTypeOnError() throws {
        let cases: [(String, ConfigError)] = [
            (
                #"{"fetch": {"maxConcurrentOperations": "four"}}"#,
                .wrongType(
                    source: "", key: "fetch.maxConcurrentOperations", expected: "a whole number", found: "a string")
            ),
            (#"{"tmdb": {"apiKee": "x"}}"#, .unknownKey(source: "", key: "tmdb.apiKee", known: [])),
            (
                #"{"schedule": {"minimumInterval": "soon"}}"#,
                .invalidValue(source: "", key: "schedule.minimumInterval", expected: "")
            ),
            (#"{"tmdb": {"transport": "wget"}}"#, .invalidValue(source: "", key: "tmdb.transport", expected: "")),
            (#"{"tmdb": {"language": "French"}}"#, .invalidValue(source: "", key: "tmdb.language", expected: "")),
            (#"{"tmdb": {"language": "fr-fr"}}"#, .invalidValue(source: "", key: "tmdb.language", expected: "")),
        ]
        for (text, expected) in cases {
            let path = write(text)
            #expect {
                try ConfigLoader(environment: [:]).load(explicitPath: path)
            } throws: { error in
                let message = "\(error)"
                return message.contains(path) && sameCase(error as? ConfigError, expected)
                    && message.contains(key(of: expected))
            }
        }
    }

    @Test(arguments: [
        ("fetch", "runBudget", "1e300"), ("tmdb", "requestTimeout", "\"3653d\""),
        ("schedule", "minimumInterval", "315576001"), ("schedule", "maximumInterval", "\"1e300s\""),
        ("schedule", "failureRetryInterval", "1e20"), ("schedule", "notFoundRetryInterval", "\"87700h\""),
    ])
    func everyDurationHasAnUpperBound(_ section: String, _ name: String, _ value: String) {
        let path = write(#"{"\#(section)": {"\#(name)": \#(value)}}"#)
        #expect {
            try ConfigLoader(environment: [:]).load(explicitPath: path)
        } throws: { error in
            guard case .invalidValue(_, let key, let expected) = error as? ConfigError else { return false }
            return key == "\(section).\(name)" && expected.contains("at most 10 years")
        }
    }

    @Test func tenYearsIsStillAccepted() throws {
        let config = try ConfigLoader(environment: [:]).load(
            explicitPath: write(#"{"schedule": {"maximumInterval": "3652d"}, "fetch": {"runBudget": 315576000}}"#))
        #expect(config.schedule.maximumInterval == 3652 * 86400)
        #expect(config.fetch.runBudget == Durations.longest)
    }

    @Test func malformedJSONNamesTheFile() {
        let path = write("{\"tmdb\": {")
        #expect {
            try ConfigLoader(environment: [:]).load(explicitPath: path)
        } throws: { error in
            guard case .malformedJSON(let file, _) = error as? ConfigError else { return false }
            return file == path
        }
    }

    @Test func missingExplicitFileIsAnError() {
        #expect(throws: ConfigError.fileNotFound(path: "/nonexistent/mustc.json", via: "--config")) {
            try ConfigLoader(environment: [:]).load(explicitPath: "/nonexistent/mustc.json")
        }
    }

    private func key(of error: ConfigError) -> String {
        switch error {
        case .unknownKey(_, let key, _), .wrongType(_, let key, _, _), .invalidValue(_, let key, _): key
        default: ""
        }
    }

    private func sameCase(_ left: ConfigError?, _ right: ConfigError) -> Bool {
        switch (left, right) {
        case (.unknownKey?, .unknownKey), (.wrongType?, .wrongType), (.invalidValue?, .invalidValue): true
        default: false
        }
    }
}
