// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "mustc",
    // Built and run on Linux; on macOS, Mutex (Synchronization) and TaskExecutor need macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "mustc", targets: ["mustc"]),
        .executable(name: "tmdb-stub", targets: ["tmdb-stub"]),
        .library(name: "MustCore", targets: ["MustCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The newData hook: async process wait (pidfd + epoll, off the cooperative pool), inherited descriptors closed.
        .package(url: "https://github.com/swiftlang/swift-subprocess", exact: "1.0.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        // The page's family password: bcrypt from HummingbirdBcrypt, which builds only its small C core.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
        // The family's page (MustWeb): HTTP on SwiftNIO, and Mustache templates that HTML-escape by default.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        // Hummingbird's own dependencies, named for the parts MustWeb uses directly: the thread pool that keeps
        // blocking SQLite reads off the event loop, and the channel handler that limits header time.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        // The one time source: AnyClock in production, TestClock in tests, so a test turns time instead of sleeping.
        .package(url: "https://github.com/pointfreeco/swift-clocks", exact: "1.1.1"),
        // Plex's webhooks are multipart/form-data: its parser, over the SwiftNIO and swift-collections already built.
        .package(url: "https://github.com/vapor/multipart-kit", exact: "4.7.1"),
    ],
    targets: [
        .target(
            name: "MustCore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API, for the one setting GRDB does not wrap (SQLITE_FCNTL_PERSIST_WAL).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                // Import: CSV.swift parses each record's fields; ZIPFoundation opens Letterboxd's export zip.
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                "CCurl",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                "CLibCrypto",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            plugins: ["EmbedMigrationsPlugin"]
        ),
        // libcurl's multi interface, for the HTTP transport; the header adds non-variadic setters Swift can call.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // OpenSSL's libcrypto, for SHA-256: session tokens are stored only as their hash, and CSRF tokens are
        // derived from the session token; the system library costs no build time, where swift-crypto builds BoringSSL.
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .executableTarget(
            name: "mustc",
            dependencies: [
                "MustCore",
                "MustWeb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The family's page (`mustc serve`): its own target, so MustCore never links the server.
        .target(
            name: "MustWeb",
            dependencies: [
                "MustCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                // `serve --fetch`: the page and the fetch as one group of services, stopped by the same signal.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // HTTP/1's version and keep-alive, which the HTTPTypes codec drops: a 1.0 request is closed after.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The time source's clock type (AnyClock), for the host list's once-a-minute re-read.
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "MultipartKit", package: "multipart-kit"),
            ]
        ),
        // Build-time tool: turns Migrations/*.sql into Swift string literals so the binary needs no bundle.
        .executableTarget(name: "EmbedMigrations"),
        .plugin(
            name: "EmbedMigrationsPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedMigrations"],
            path: "Sources/EmbedMigrationsPlugin"
        ),
        // A TMDB-compatible HTTP server for tests and benchmarks; never linked into mustc.
        .target(
            name: "TMDBStub",
            dependencies: [
                // The SQLite C API, for the tests' plain SQL on a database file (`sqlite`).
                "MustCore", .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .executableTarget(name: "tmdb-stub", dependencies: ["TMDBStub"]),
        // Issue 33's taste benchmark (contrib/benchmarks/taste): held-out ratings in IMDb's export shape.
        .executableTarget(name: "taste-bench", dependencies: ["MustCore"]),
        // The CPU of reading one details answer with its appended blocks, whole and cut to the region, for
        // contrib/benchmarks/run (`--only answer`); never linked into mustc.
        .executableTarget(name: "answer-bench", dependencies: ["MustCore"]),
        // What the three test targets share: the one way they wait on something outside the test (Poll).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "MustCoreTests",
            dependencies: [
                "MustCore", "TMDBStub", "TestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        // Pure parts of the page: charts, view models, templates' escaping; the page cache behind its middleware.
        .testTarget(
            name: "MustWebTests",
            dependencies: [
                "MustWeb", "MustCore", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The application opened in-process (`app.test(.router)`): routes without a port, on a TestClock.
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Clocks", package: "swift-clocks"), "TMDBStub", "TestSupport",
            ]
        ),
        // ZIPFoundation writes the Letterboxd export zips the import tests read.
        .testTarget(
            name: "mustcTests",
            dependencies: [
                "mustc", "MustCore", "TMDBStub", "TestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
    ]
)
