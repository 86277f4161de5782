import Foundation

/// Reads one config file into a `Config`, rejecting unknown keys and wrong types by name.
/// Keys named "$comment" are ignored anywhere, so the example file can explain itself; a key set to "" is unset.
struct ConfigFileReader {
    let path: String

    func apply(to config: inout Config) throws(ConfigError) {
        let root = try parse()
        guard case .object(let top) = root else {
            throw .wrongType(source: path, key: "(top level)", expected: "an object", found: root.typeName)
        }
        let section = Section(path: path, prefix: "", values: top)
        try section.checkKeys([
            "database", "tmdb", "fetch", "schedule", "history", "serve", "posters", "family", "notify", "suggest",
        ])
        config.database = try section.string("database").flatMap { $0.isEmpty ? nil : $0 }
        if let tmdb = try section.object("tmdb") { try apply(tmdb: tmdb, to: &config) }
        if let fetch = try section.object("fetch") {
            try fetch.checkKeys([
                "maxConcurrentOperations", "runBudget", "writeBatchSize", "onNewData", "onNewDataTimeout",
            ])
            config.fetch.maxConcurrentOperations =
                try fetch.integer("maxConcurrentOperations", minimum: 1) ?? config.fetch.maxConcurrentOperations
            config.fetch.runBudget = try fetch.duration("runBudget") ?? config.fetch.runBudget
            config.fetch.writeBatchSize = try fetch.integer("writeBatchSize", minimum: 1) ?? config.fetch.writeBatchSize
            config.fetch.onNewData = try fetch.arguments("onNewData") ?? config.fetch.onNewData
            config.fetch.onNewDataTimeout = try fetch.duration("onNewDataTimeout") ?? config.fetch.onNewDataTimeout
        }
        if let history = try section.object("history") {
            try history.checkKeys(["keep"])
            config.history.keep = try history.duration("keep") ?? config.history.keep
        }
        if let serve = try section.object("serve") {
            try serve.checkKeys(["listen", "hosts", "timeZone", "publicURL", "proxyAuth"])
            if let proxy = try serve.object("proxyAuth") { config.serve.proxyAuth = try proxy.proxyAuth() }
            config.serve.hosts = try serve.hostNames("hosts") ?? config.serve.hosts
            // Empty is unset, as everywhere in the example: the system's zone.
            if let zone = try serve.string("timeZone"), !zone.isEmpty {
                guard TimeZone(identifier: zone) != nil else {
                    throw .invalidValue(
                        source: path, key: "serve.timeZone", expected: "a time zone name such as Europe/Berlin or UTC")
                }
                config.serve.timeZone = zone
            }
            if let listen = try serve.string("listen") {
                guard let address = ListenAddress.parse(listen) else {
                    throw .invalidValue(source: path, key: "serve.listen", expected: ListenAddress.expected)
                }
                config.serve.listen = address
            }
            if let url = try serve.string("publicURL"), !url.isEmpty {
                guard let base = Config.Serve.publicBase(url) else {
                    throw .invalidValue(
                        source: path, key: "serve.publicURL",
                        expected: "an http or https URL such as https://films.example")
                }
                config.serve.publicURL = base
            }
        }
        if let schedule = try section.object("schedule") { try apply(schedule: schedule, to: &config) }
        if let posters = try section.object("posters") {
            try posters.checkKeys(["maxBytes", "maxConcurrentDownloads"])
            config.posters.maxBytes = try posters.byteCount("maxBytes") ?? config.posters.maxBytes
            config.posters.maxConcurrentDownloads =
                try posters.integer("maxConcurrentDownloads", minimum: 1) ?? config.posters.maxConcurrentDownloads
        }
        if let family = try section.object("family") { try apply(family: family, to: &config) }
        if let suggest = try section.object("suggest") {
            try suggest.checkKeys(["requestsPerDay"])
            config.suggest.requestsPerDay =
                try suggest.integer("requestsPerDay", minimum: 0) ?? config.suggest.requestsPerDay
        }
        if let notify = try section.object("notify") { try apply(notify: notify, to: &config) }
    }

    /// `notify`: `ntfy`, `gotify` and `webhook` destinations, `kinds`, `tonight` and `sendTimeout`.
    private func apply(notify: Section, to config: inout Config) throws(ConfigError) {
        try notify.checkKeys(["ntfy", "gotify", "webhook", "kinds", "tonight", "sendTimeout"])
        var destinations: [NotifyDestination] = []
        for service in NotifyDestination.Service.allCases {
            guard let section = try notify.object(service.rawValue) else { continue }
            destinations.append(try section.destination(service))
        }
        config.notify.destinations = destinations
        if let kinds = try notify.kinds("kinds") { config.notify.kinds = kinds }
        if let text = try notify.string("tonight") {
            guard let weekly = WeeklyTime.parse(text) else {
                throw .invalidValue(
                    source: path, key: "notify.tonight", expected: "a day and a time such as \"Fri 18:00\"")
            }
            config.notify.tonight = weekly
        }
        config.notify.sendTimeout = try notify.duration("sendTimeout") ?? config.notify.sendTimeout
        if config.notify.tonight != nil, !config.notify.kinds.contains(.night) {
            throw .invalidValue(
                source: path, key: "notify.kinds", expected: "a list holding \"night\" when notify.tonight is set")
        }
        if config.notify.kinds.contains(.night), config.notify.tonight == nil {
            throw .invalidValue(
                source: path, key: "notify.tonight",
                expected: "set (such as \"Fri 18:00\") when notify.kinds holds \"night\"")
        }
    }

    private func apply(family: Section, to config: inout Config) throws(ConfigError) {
        try family.checkKeys(["region", "services", "availabilityEvery"])
        config.family.region = try family.region("region") ?? config.family.region
        config.family.services = try family.services("services") ?? config.family.services
        config.family.availabilityEvery = try family.duration("availabilityEvery") ?? config.family.availabilityEvery
    }

    private func apply(tmdb: Section, to config: inout Config) throws(ConfigError) {
        try tmdb.checkKeys([
            "apiKey", "accessToken", "baseURL", "language", "requestTimeout", "maxRequestsPerSecond", "maxRetries",
            "transport", "imageBaseURL",
        ])
        config.tmdb.apiKey = try tmdb.string("apiKey") ?? config.tmdb.apiKey
        config.tmdb.accessToken = try tmdb.string("accessToken") ?? config.tmdb.accessToken
        config.tmdb.baseURL = try tmdb.url("baseURL") ?? config.tmdb.baseURL
        config.tmdb.imageBaseURL = try tmdb.url("imageBaseURL") ?? config.tmdb.imageBaseURL
        config.tmdb.language = try tmdb.language("language") ?? config.tmdb.language
        config.tmdb.requestTimeout = try tmdb.duration("requestTimeout") ?? config.tmdb.requestTimeout
        config.tmdb.maxRequestsPerSecond =
            try tmdb.positive("maxRequestsPerSecond") ?? config.tmdb.maxRequestsPerSecond
        config.tmdb.maxRetries = try tmdb.integer("maxRetries", minimum: 0) ?? config.tmdb.maxRetries
        config.tmdb.transport = try tmdb.choice("transport", of: HTTPTransportKind.self) ?? config.tmdb.transport
    }

    private func apply(schedule: Section, to config: inout Config) throws(ConfigError) {
        try schedule.checkKeys([
            "minimumInterval", "maximumInterval", "backoffFactor", "failureRetryInterval", "notFoundRetryInterval",
        ])
        config.schedule.minimumInterval =
            try schedule.duration("minimumInterval") ?? config.schedule.minimumInterval
        config.schedule.maximumInterval =
            try schedule.duration("maximumInterval") ?? config.schedule.maximumInterval
        config.schedule.backoffFactor = try schedule.positive("backoffFactor") ?? config.schedule.backoffFactor
        config.schedule.failureRetryInterval =
            try schedule.duration("failureRetryInterval") ?? config.schedule.failureRetryInterval
        config.schedule.notFoundRetryInterval =
            try schedule.duration("notFoundRetryInterval") ?? config.schedule.notFoundRetryInterval
        if config.schedule.maximumInterval < config.schedule.minimumInterval {
            throw .invalidValue(
                source: path, key: "schedule.maximumInterval", expected: "at least schedule.minimumInterval")
        }
        if config.schedule.backoffFactor < 1 {
            throw .invalidValue(source: path, key: "schedule.backoffFactor", expected: "a number of at least 1")
        }
    }

    private func parse() throws(ConfigError) -> JSONValue {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        do {
            return try JSONReader.parse(data)
        } catch {
            throw .malformedJSON(path: path, detail: error.description)
        }
    }
}

/// One JSON object of the config file, with typed accessors that name the full key on error.
private struct Section {
    let path: String
    let prefix: String
    let values: [String: JSONValue]

    func checkKeys(_ known: [String]) throws(ConfigError) {
        for key in values.keys.sorted() where key != "$comment" && !known.contains(key) {
            throw .unknownKey(source: path, key: prefix + key, known: known)
        }
    }

    /// The key's value; nil when it is absent, null or an empty string: "" is "unset" for every key, whatever its
    /// type (the example writes "" for keys it leaves to their defaults).
    private func present(_ key: String) -> JSONValue? {
        switch values[key] {
        case .none, .null, .string(""): nil
        case .some(let value): value
        }
    }

    private func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> ConfigError {
        .wrongType(source: path, key: prefix + key, expected: expected, found: value.typeName)
    }

    func object(_ key: String) throws(ConfigError) -> Section? {
        guard let value = present(key) else { return nil }
        guard case .object(let nested) = value else { throw mismatch(key, "an object", value) }
        return Section(path: path, prefix: prefix + key + ".", values: nested)
    }

    func string(_ key: String) throws(ConfigError) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let text) = value else { throw mismatch(key, "a string", value) }
        return text.isEmpty ? nil : text
    }

    /// An ISO 639-1 language, optionally with an ISO 3166-1 region, as TMDB takes it: "en", "en-US", "pt-BR".
    func language(_ key: String) throws(ConfigError) -> String? {
        guard let text = try string(key) else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let valid =
            parts.count <= 2 && parts[0].count == 2 && parts[0].allSatisfy { $0.isASCII && $0.isLowercase }
            && (parts.count == 1 || (parts[1].count == 2 && parts[1].allSatisfy { $0.isASCII && $0.isUppercase }))
        guard valid else {
            throw .invalidValue(source: path, key: prefix + key, expected: "a language such as \"en-US\" or \"fr\"")
        }
        return text
    }

    /// An ISO 3166-1 alpha-2 region in capitals: "US", "GB", "DE".
    func region(_ key: String) throws(ConfigError) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let text) = value else { throw mismatch(key, "a string", value) }
        guard text.count == 2, text.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw .invalidValue(
                source: path, key: prefix + key, expected: "a two-letter ISO 3166-1 region in capitals, such as \"US\"")
        }
        return text
    }

    /// Provider names or ids: an array of strings or whole numbers, for example ["Netflix", 337].
    func services(_ key: String) throws(ConfigError) -> [String]? {
        guard let value = present(key) else { return nil }
        let expected = "an array of provider names or ids (for example [\"Netflix\", 337])"
        guard case .array(let elements) = value else { throw mismatch(key, expected, value) }
        var services: [String] = []
        for element in elements {
            switch element {
            case .string(let text) where !text.trimmingCharacters(in: .whitespaces).isEmpty:
                services.append(text.trimmingCharacters(in: .whitespaces))
            case .number(let number) where number.rounded() == number && number > 0 && number < 1e9:
                services.append(String(Int(number)))
            default: throw mismatch(key, expected, element)
            }
        }
        return services
    }

    func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, of: Choice.Type) throws(ConfigError) -> Choice?
    where Choice.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            let names = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            throw .invalidValue(source: path, key: prefix + key, expected: names)
        }
        return choice
    }

    /// A command as an argv array: at least the program, every element a non-empty string. No shell parses it.
    func arguments(_ key: String) throws(ConfigError) -> [String]? {
        guard let value = present(key) else { return nil }
        let expected = "an array of strings, the program first (for example [\"notify-send\", \"mustc\"])"
        guard case .array(let elements) = value else { throw mismatch(key, expected, value) }
        var arguments: [String] = []
        for element in elements {
            guard case .string(let text) = element else { throw mismatch(key, expected, element) }
            arguments.append(text)
        }
        guard let program = arguments.first, !program.isEmpty else {
            throw .invalidValue(source: path, key: prefix + key, expected: expected + ", not empty")
        }
        return arguments
    }

    /// `serve.proxyAuth`: the header (a name a header can have), the trusted proxies (at least one), the parents.
    func proxyAuth() throws(ConfigError) -> ProxyAuth {
        try checkKeys(["header", "trustedProxies", "parents"])
        let token = CharacterSet(
            charactersIn: "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard let header = try string("header"), header.count <= 64, header.unicodeScalars.allSatisfy(token.contains)
        else {
            throw .invalidValue(source: path, key: prefix + "header", expected: "a header name such as \"Remote-User\"")
        }
        let expected =
            "an array of "
            + AddressRange.expected.replacingOccurrences(of: "an address or a network", with: "addresses or networks")
        guard let listed = try strings("trustedProxies", expected: expected), !listed.isEmpty else {
            throw .invalidValue(source: path, key: prefix + "trustedProxies", expected: expected + ", not empty")
        }
        var ranges: [AddressRange] = []
        for text in listed {
            guard let range = AddressRange(text) else {
                throw .invalidValue(source: path, key: prefix + "trustedProxies", expected: expected)
            }
            ranges.append(range)
        }
        let parents = try strings("parents", expected: "an array of member names") ?? []
        return ProxyAuth(header: header, trustedProxies: ranges, parents: parents)
    }

    /// An array of strings, or nil when absent.
    func strings(_ key: String, expected: String) throws(ConfigError) -> [String]? {
        guard let value = present(key) else { return nil }
        guard case .array(let elements) = value else { throw mismatch(key, expected, value) }
        var texts: [String] = []
        for element in elements {
            guard case .string(let text) = element else { throw mismatch(key, expected, element) }
            texts.append(text)
        }
        return texts
    }

    /// Host names or addresses as a browser writes them in `Host`, without a port: "movies.example.org",
    /// "192.168.1.20", "[fd00::1]".
    func hostNames(_ key: String) throws(ConfigError) -> [String]? {
        guard let value = present(key) else { return nil }
        let expected = "an array of host names or addresses without a port (for example [\"movies.example.org\"])"
        guard case .array(let elements) = value else { throw mismatch(key, expected, value) }
        var names: [String] = []
        for element in elements {
            guard case .string(let text) = element, let name = HostName.normalized(text)
            else { throw .invalidValue(source: path, key: prefix + key, expected: expected) }
            names.append(name)
        }
        return names
    }

    /// One notification destination: `url` always, `token` (Gotify needs one), ntfy's `priority`, a webhook's
    /// `headers`. Nothing with a line break can reach a header.
    func destination(_ service: NotifyDestination.Service) throws(ConfigError) -> NotifyDestination {
        var known = ["url", "token"]
        if service == .ntfy { known.append("priority") }
        if service == .webhook { known = ["url", "headers"] }
        try checkKeys(known)
        guard let url = try url("url") else {
            throw .invalidValue(source: path, key: prefix + "url", expected: "an http or https URL")
        }
        if service == .ntfy, url.lastPathComponent.isEmpty || url.lastPathComponent == "/" {
            throw .invalidValue(
                source: path, key: prefix + "url",
                expected: "a topic URL such as \"https://ntfy.sh/our-family-movies\"")
        }
        var destination = NotifyDestination(service: service, url: url)
        if known.contains("token") {
            destination.token = try string("token")
            if let token = destination.token, !Self.fitsHeader(token) {
                throw .invalidValue(source: path, key: prefix + "token", expected: "a token without line breaks")
            }
            if service == .gotify, destination.token == nil {
                throw .invalidValue(source: path, key: prefix + "token", expected: "Gotify's application token")
            }
        }
        if service == .ntfy, let priority = try integer("priority", minimum: 1) {
            guard priority <= 5 else {
                throw .invalidValue(source: path, key: prefix + "priority", expected: "a whole number from 1 to 5")
            }
            destination.priority = priority
        }
        if service == .webhook, let headers = try object("headers") {
            for (name, value) in headers.values where name != "$comment" {
                guard case .string(let text) = value, Self.fitsHeader(text), Self.isHeaderName(name) else {
                    throw .invalidValue(
                        source: path, key: headers.prefix + name,
                        expected: "a header name mapped to a string without line breaks")
                }
                destination.headers[name] = text
            }
        }
        return destination
    }

    /// `notify.kinds`: any of "availability", "rating" and "night".
    func kinds(_ key: String) throws(ConfigError) -> Set<Config.Notify.Kind>? {
        guard let value = present(key) else { return nil }
        let expected = "an array of \"availability\", \"rating\" and \"night\""
        guard case .array(let elements) = value else { throw mismatch(key, expected, value) }
        var kinds: Set<Config.Notify.Kind> = []
        for element in elements {
            guard case .string(let text) = element, let kind = Config.Notify.Kind(rawValue: text) else {
                throw .invalidValue(source: path, key: prefix + key, expected: expected)
            }
            kinds.insert(kind)
        }
        return kinds
    }

    static func fitsHeader(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    static func isHeaderName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_".unicodeScalars.contains($0))
            }
    }

    func url(_ key: String) throws(ConfigError) -> URL? {
        guard let text = try string(key) else { return nil }
        guard let url = HTTPURL.parse(text) else {
            throw .invalidValue(source: path, key: prefix + key, expected: "an http or https URL")
        }
        return url
    }

    /// A whole number of bytes, 0 or more: `integer` stops below 10^9, and a poster bound may be larger.
    func byteCount(_ key: String) throws(ConfigError) -> Int64? {
        guard let value = present(key) else { return nil }
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 1e15 else {
            throw mismatch(key, "a whole number of bytes", value)
        }
        guard number >= 0 else {
            throw .invalidValue(source: path, key: prefix + key, expected: "a whole number of bytes, 0 or more")
        }
        return Int64(number)
    }

    func positive(_ key: String) throws(ConfigError) -> Double? {
        guard let value = present(key) else { return nil }
        guard case .number(let number) = value else { throw mismatch(key, "a number", value) }
        guard number > 0 else { throw .invalidValue(source: path, key: prefix + key, expected: "a number above 0") }
        return number
    }

    func integer(_ key: String, minimum: Int) throws(ConfigError) -> Int? {
        guard let value = present(key) else { return nil }
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 1e9 else {
            throw mismatch(key, "a whole number", value)
        }
        guard Int(number) >= minimum else {
            throw .invalidValue(source: path, key: prefix + key, expected: "a whole number of at least \(minimum)")
        }
        return Int(number)
    }

    func duration(_ key: String) throws(ConfigError) -> TimeInterval? {
        guard let value = present(key) else { return nil }
        let seconds: Double?
        switch value {
        case .number(let number): seconds = number
        case .string(let text): seconds = Durations.parse(text)
        default: throw mismatch(key, "a duration (seconds, or a string like \"90s\", \"15m\", \"24h\")", value)
        }
        guard let seconds, seconds > 0, seconds <= Durations.longest else {
            throw .invalidValue(
                source: path, key: prefix + key,
                expected: "a positive duration of at most 10 years (seconds, or a string like \"90s\", \"15m\", "
                    + "\"24h\")")
        }
        return seconds
    }
}
