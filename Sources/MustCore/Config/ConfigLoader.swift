import Foundation

/// Finds, reads and checks the config file, then applies environment overrides.
///
/// Lookup: `--config PATH`, then `$MUSTC_CONFIG`, then `$XDG_CONFIG_HOME/mustc/config.json`
/// (or `~/.config/mustc/config.json`). Only the last may be missing.
public struct ConfigLoader: Sendable {
    public var environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    public func load(explicitPath: String? = nil) throws(ConfigError) -> Config {
        var config = Config()
        if let (path, via) = configFile() {
            guard FileManager.default.fileExists(atPath: path) else {
                if via == "default location" { return try applyEnvironment(to: config) }
                throw .fileNotFound(path: path, via: via)
            }
            try ConfigFileReader(path: path).apply(to: &config)
        }
        return try applyEnvironment(to: config)

        func configFile() -> (String, String)? {
            if let explicitPath { return (explicitPath, "--config") }
            if let path = environment["MUSTC_CONFIG"], !path.isEmpty { return (path, "MUSTC_CONFIG") }
            return (defaultConfigPath, "default location")
        }
    }

    public var defaultConfigPath: String {
        baseDirectory(xdg: "XDG_CONFIG_HOME", fallback: ".config") + "/mustc/config.json"
    }

    public var defaultDatabasePath: String {
        baseDirectory(xdg: "XDG_DATA_HOME", fallback: ".local/share") + "/mustc/mustc.sqlite"
    }

    private func baseDirectory(xdg: String, fallback: String) -> String {
        if let value = environment[xdg], value.hasPrefix("/") { return value }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/" + fallback
    }

    private func applyEnvironment(to base: Config) throws(ConfigError) -> Config {
        var config = base
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let key = value("TMDB_API_KEY") { config.tmdb.apiKey = key }
        if let token = value("TMDB_ACCESS_TOKEN") { config.tmdb.accessToken = token }
        if let path = value("MUSTC_DATABASE") { config.database = path }
        if let text = value("MUSTC_TMDB_BASE_URL") {
            guard let url = HTTPURL.parse(text) else {
                throw .invalidValue(
                    source: "environment", key: "MUSTC_TMDB_BASE_URL", expected: "an http or https URL")
            }
            config.tmdb.baseURL = url
        }
        if let text = value("MUSTC_TMDB_IMAGE_BASE_URL") {
            guard let url = HTTPURL.parse(text) else {
                throw .invalidValue(
                    source: "environment", key: "MUSTC_TMDB_IMAGE_BASE_URL", expected: "an http or https URL")
            }
            config.tmdb.imageBaseURL = url
        }
        // For a container, whose command is fixed but whose port mapping is not; `serve --listen` still wins.
        if let text = value("MUSTC_LISTEN") {
            guard let address = ListenAddress.parse(text) else {
                throw .invalidValue(source: "environment", key: "MUSTC_LISTEN", expected: ListenAddress.expected)
            }
            config.serve.listen = address
        }
        return config
    }
}

enum HTTPURL {
    static func parse(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }
}
