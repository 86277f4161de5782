import Foundation
import MustCore
import TMDBStub
import Testing

/// The config keys of the history and the newData hook: defaults, the example file, and wrong values named.
@Suite struct HistoryConfigTests {
    let scratch = TemporaryDirectory("config-history")

    func load(_ text: String) throws(ConfigError) -> Config {
        let path = scratch.file("config.json")
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return try ConfigLoader(environment: ["HOME": scratch.path]).load(explicitPath: path)
    }

    @Test func defaultsAndTheExampleFile() throws {
        #expect(Config().history.keep == 365 * 86_400)
        #expect(Config().fetch.onNewData == nil)
        #expect(Config().fetch.onNewDataTimeout == 30)
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appending(path: "../../config.example.json").standardized.path
        let config = try ConfigLoader(environment: ["HOME": scratch.path]).load(explicitPath: example)
        #expect(config.history == Config().history)
        #expect(config.fetch == Config().fetch)
    }

    @Test func readsTheKeys() throws {
        let config = try load(
            #"{"history": {"keep": "30d"}, "fetch": {"onNewData": ["notify-send", "mustc"], "onNewDataTimeout": 5}}"#)
        #expect(config.history.keep == 30 * 86_400)
        #expect(config.fetch.onNewData == ["notify-send", "mustc"])
        #expect(config.fetch.onNewDataTimeout == 5)
    }

    @Test(arguments: [
        (#"{"fetch": {"onNewData": "notify-send mustc"}}"#, "fetch.onNewData"),
        (#"{"fetch": {"onNewData": ["notify-send", 3]}}"#, "fetch.onNewData"),
        (#"{"fetch": {"onNewData": []}}"#, "fetch.onNewData"),
        (#"{"fetch": {"onNewData": [""]}}"#, "fetch.onNewData"),
        (#"{"fetch": {"onNewDataTimeout": "0s"}}"#, "fetch.onNewDataTimeout"),
        (#"{"history": {"keep": "soon"}}"#, "history.keep"),
        (#"{"history": {"keepFor": "1d"}}"#, "history.keepFor"),
    ])
    func namesTheWrongKey(_ text: String, _ key: String) {
        #expect {
            _ = try load(text)
        } throws: { error in
            (error as? ConfigError)?.description.contains("\"\(key)\"") == true
        }
    }

    @Test func theHooksProgramMustExistAndItsEnvironmentHoldsNoSecret() throws {
        #expect(throws: ConfigError.self) {
            try NewDataHook(
                arguments: ["no-such-program-mustc"], timeout: 1, environment: ["PATH": "/usr/bin"], secrets: [])
        }
        #expect(throws: ConfigError.self) {
            try NewDataHook(arguments: ["/nonexistent/hook"], timeout: 1, environment: [:], secrets: [])
        }
        let hook = try NewDataHook(
            arguments: ["true"], timeout: 1,
            environment: [
                "PATH": "/usr/bin:/bin", "TMDB_API_KEY": "k", "TMDB_ACCESS_TOKEN": "t", "COPY": "x-sekrit-x",
                "HOME": "/h",
            ],
            secrets: ["sekrit", ""])
        #expect(hook.executable == "/usr/bin/true")
        #expect(hook.environment == ["PATH": "/usr/bin:/bin", "HOME": "/h"])
    }
}
