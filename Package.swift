// swift-tools-version:6.2
// StopKiosk: a Linux stop-lookup kiosk. See README.md for the module map.
import PackageDescription

/// `kiosk/fuzz/run-fuzzers.sh` sets KIOSK_FUZZ=1 to build the fuzzer in the tests' own build folder: the project's
/// own code (only the readers' part of it is built then) gets libFuzzer's coverage and AddressSanitizer, while the
/// dependencies already compiled for the tests are reused as they are. A separate sanitized build of every
/// dependency was about nine minutes of the test command, two copies of BoringSSL most of it.
let fuzzing = Context.environment["KIOSK_FUZZ"] == "1"
let fuzzSwiftFlags: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : []
let fuzzCFlags = fuzzing ? ["-fsanitize=fuzzer-no-link,address"] : []

/// Warnings in the project's own code fail the build (dependencies keep their own settings).
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)] + fuzzSwiftFlags
let werror: [CSetting] = [.unsafeFlags(["-Werror"] + fuzzCFlags)]

/// A C library from Debian, found through pkg-config; a missing -dev package names itself in the build error.
func systemLibrary(_ name: String, pkgConfig: String, debian: String) -> Target {
    .systemLibrary(
        name: name, path: "Sources/SystemLibraries/\(name)", pkgConfig: pkgConfig, providers: [.apt([debian])])
}

let package = Package(
    name: "StopKiosk",
    products: [
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "kiosk-bench", targets: ["kiosk-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // ── Domain ──────────────────────────────────────────────────────────────────────────────────────────
        // Domain values: stops, routes, service days, GTFS time, geography, languages, text folding. Foundation only.
        .target(name: "TransitModel", swiftSettings: strict),
        // Round-based journey search (RAPTOR) over a compact in-memory timetable. Pure Swift: no store, no C.
        .target(name: "JourneyPlanner", swiftSettings: strict),

        // ── Platform: files, signals; C libraries and their thin shims ──────────────────────────────────────
        // Atomic file replacement, temporary-file registry, signal handling (for executables), bounded reads.
        .target(name: "SystemSupport", dependencies: ["CFileLease"], swiftSettings: strict),
        // File leases and the mapping swap under SystemSupport's StableFileMapping (variadic fcntl, mremap, SIGRTMIN).
        .target(name: "CFileLease", cSettings: werror),
        systemLibrary("LibZBar", pkgConfig: "zbar", debian: "libzbar-dev"),
        systemLibrary("LibV4L2", pkgConfig: "libv4l2", debian: "libv4l-dev"),
        systemLibrary("LibPNG", pkgConfig: "libpng", debian: "libpng-dev"),
        systemLibrary("LibJPEG", pkgConfig: "libjpeg", debian: "libjpeg62-turbo-dev"),
        systemLibrary("LibQREncode", pkgConfig: "libqrencode", debian: "libqrencode-dev"),
        systemLibrary("LibCairo", pkgConfig: "cairo", debian: "libcairo2-dev"),
        systemLibrary("LibZ", pkgConfig: "zlib", debian: "zlib1g-dev"),
        systemLibrary("LibEspeakNG", pkgConfig: "espeak-ng", debian: "libespeak-ng-dev"),
        // zxing-cpp (C++), the second decoder; CZXing is its extern "C" shim.
        .systemLibrary(name: "CZXingLibrary", pkgConfig: "zxing", providers: [.apt(["libzxing-dev"])]),
        // Shims: what does not import into Swift (function-like macros) exposed as constants, nothing more.
        .target(name: "CV4L2", dependencies: ["LibV4L2"], cSettings: werror),
        .target(name: "CZBar", dependencies: ["LibZBar"], cSettings: werror),
        .target(name: "CImageCodecs", dependencies: ["LibPNG", "LibJPEG"], cSettings: werror),
        .target(name: "CQREncode", dependencies: ["LibQREncode"], cSettings: werror),
        .target(name: "CCairo", dependencies: ["LibCairo"], cSettings: werror),
        .target(
            name: "CZXing", dependencies: ["CZXingLibrary"], cxxSettings: [.unsafeFlags(["-Werror"] + fuzzCFlags)],
            linkerSettings: [.linkedLibrary("stdc++")]),

        // ── Data and codes ──────────────────────────────────────────────────────────────────────────────────
        // The route database: schema, GTFS import, the queries every command shares, the planner's data provider.
        .target(
            name: "TransitStore",
            dependencies: [
                "TransitModel", "SystemSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The adapter: store rows → planner timetable, and journey plans as `JourneyPlan` values.
        .target(
            name: "TripPlanning",
            dependencies: [
                "TransitModel", "TransitStore", "JourneyPlanner", "SystemSupport", "Realtime",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // Stop-code payloads: URL templates, Ed25519 label signatures, key files, the payload parser.
        .target(
            name: "StopCodes",
            dependencies: ["TransitModel", "SystemSupport", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        // Frames (V4L2 camera, Y4M and image replay); zbar decoding with cheap recovery, zxing-cpp behind it.
        .target(
            name: "Scanning", dependencies: ["TransitModel", "CV4L2", "CZBar", "CZXing", "CImageCodecs", "LibZ"],
            swiftSettings: strict),
        // Stop labels: layout, QR (libqrencode), PDF/SVG/PNG (cairo), read back with the decoder before writing.
        .target(
            name: "Labels",
            dependencies: ["TransitModel", "StopCodes", "Scanning", "SystemSupport", "CQREncode", "CCairo"],
            swiftSettings: strict
        ),

        // ── What every surface shares: renderings, configuration, the scan service ──────────────────────────
        // The message catalog (es/en) and the text and JSON renderings of stop views and plans.
        .target(name: "StopPresentation", dependencies: ["TransitModel"], swiftSettings: strict),
        // Spoken output: espeak-ng synthesis to PCM in memory (serialised), WAV files, audio sinks (a player program,
        // or a log for tests), and the speaker that says one text at a time off the caller's thread.
        .target(
            name: "Speech",
            dependencies: ["TransitModel", "LibEspeakNG", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The TOML config file: every key, its validation and defaults (symbology names are checked with Scanning).
        .target(
            name: "KioskConfiguration",
            dependencies: [
                "TransitModel", "StopCodes", "Scanning", "SystemSupport", .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: strict
        ),
        // Frames → decoder → payload → stop, debounced; its JSON/text lines; the recorded demo camera session.
        .target(
            name: "ScanService",
            dependencies: ["TransitModel", "TransitStore", "StopCodes", "Scanning", "KioskConfiguration"],
            swiftSettings: strict
        ),

        // Live departures: GTFS-Realtime decoding (swift-protobuf), matching to scheduled trips, freshness, alerts,
        // feed polling. The generated protobuf code is committed; kiosk/tools/generate-realtime-proto.sh regenerates it.
        .target(
            name: "Realtime",
            dependencies: [
                "TransitModel", "TransitStore", "SystemSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            exclude: ["Proto/gtfs-realtime.proto"],
            swiftSettings: strict
        ),

        // ── Surfaces ────────────────────────────────────────────────────────────────────────────────────────
        // What every kiosk surface shares below the surfaces themselves: the running kiosk's health (for /metrics and
        // systemd's watchdog) and the severe messages that take the screen. Neither surface imports the other.
        .target(
            name: "KioskCore",
            dependencies: ["TransitModel", "TransitStore", "StopPresentation", "SystemSupport", "Realtime"],
            swiftSettings: strict
        ),
        // The kiosk on a terminal: state machine, screens, terminal I/O, keys, the run loop, doctor.
        .target(
            name: "TerminalKiosk",
            dependencies: [
                "TransitModel", "TransitStore", "TripPlanning", "StopCodes", "Scanning", "StopPresentation",
                "KioskConfiguration", "ScanService", "SystemSupport", "Realtime", "Speech", "KioskCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // The web service on Hummingbird 2: phone pages, the versioned JSON API (OpenAPI), `/kiosk` over SSE, metrics.
        .target(
            name: "WebService",
            dependencies: [
                "TransitModel", "TransitStore", "TripPlanning", "StopCodes", "StopPresentation", "KioskConfiguration",
                "ScanService", "Scanning", "SystemSupport", "Realtime", "Speech",
                // gzip for answers (Middleware/Gzip.swift): the system's zlib, as the PNG writer uses it.
                "LibZ",
                // `kiosk run`'s /metrics reads the kiosk's `KioskHealth` (Monitoring/KioskRunMetrics); `/kiosk` the
                // severe takeover. Both from KioskCore: the web layer does not build with the terminal UI.
                "KioskCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The API contract, served as it is; embedded so the program needs no resource bundle beside it.
            resources: [.embedInCode("API/openapi.json")],
            swiftSettings: strict
        ),

        // Data the program ships: the Quito sample network and the recorded demo camera session.
        .target(
            name: "SampleData",
            path: "assets",
            sources: ["SampleData.swift"],
            resources: [.copy("sample-network"), .copy("demo"), .copy("realtime")],
            swiftSettings: strict
        ),

        .executableTarget(
            name: "kiosk",
            dependencies: [
                "TransitModel", "TransitStore", "TripPlanning", "SampleData", "StopPresentation", "KioskConfiguration",
                "ScanService", "TerminalKiosk", "KioskCore", "Scanning", "StopCodes", "Labels", "SystemSupport",
                "Realtime", "Speech",
                "WebService",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "kiosk-bench",
            dependencies: [
                "TransitModel", "TransitStore", "TripPlanning", "JourneyPlanner", "StopPresentation",
                "KioskConfiguration",
                "ScanService", "TerminalKiosk", "Scanning", "StopCodes", "Labels", "SampleData", "Realtime", "Speech",
                "SystemSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Fuzz targets for the readers of outside input (CSV, payloads, config, images); without -DFUZZING it replays
        // inputs, which is how the tests run the seed corpus (kiosk/fuzz/run-fuzzers.sh builds the real fuzzer).
        .executableTarget(
            name: "kiosk-fuzz",
            dependencies: [
                "TransitStore", "StopCodes", "KioskConfiguration", "Scanning", "Realtime", "StopPresentation",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: strict + (fuzzing ? [.define("FUZZING")] : []),
            linkerSettings: fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : []
        ),
        // Opens a camera, Y4M or image folder and prints JSON lines: a diagnostic, and what the capture tests run
        // under the fake V4L2 device (LD_PRELOAD must be set before a process starts).
        .executableTarget(name: "capture-probe", dependencies: ["Scanning"], swiftSettings: strict),

        // ── Tests ───────────────────────────────────────────────────────────────────────────────────────────
        // What every test target shares: running the binaries, finding tools, QR codes, PNGs, temporary folders.
        // (Named like HummingbirdTesting: test targets keep a local `TestSupport` enum for their own fixtures.)
        .target(
            name: "KioskTesting", dependencies: ["CQREncode", "Scanning"], path: "Tests/KioskTesting",
            swiftSettings: strict),
        .testTarget(name: "TransitModelTests", dependencies: ["TransitModel"], swiftSettings: strict),
        .testTarget(
            name: "SystemSupportTests", dependencies: ["SystemSupport", "KioskTesting"], swiftSettings: strict),
        .testTarget(
            name: "JourneyPlannerTests", dependencies: ["JourneyPlanner", "KioskTesting"], swiftSettings: strict),
        .testTarget(
            name: "RealtimeTests",
            dependencies: [
                "Realtime", "TransitModel", "TransitStore", "KioskTesting",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "ScanningTests", dependencies: ["Scanning", "KioskTesting"], swiftSettings: strict),
        .testTarget(name: "StopCodesTests", dependencies: ["StopCodes", "KioskTesting"], swiftSettings: strict),
        .testTarget(
            name: "LabelsTests",
            dependencies: ["Labels", "TransitModel", "StopCodes", "Scanning", "KioskTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TransitStoreTests",
            dependencies: [
                "TransitStore", "TransitModel", "SampleData", "KioskTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TripPlanningTests",
            dependencies: ["TripPlanning", "TransitStore", "TransitModel", "KioskTesting", "Realtime", "JourneyPlanner"],
            swiftSettings: strict
        ),
        // Pictures end to end: a hand-made feed → the store's geometry → SVG, parsed as XML and rasterised.
        .testTarget(
            name: "MapTests",
            dependencies: [
                "TransitStore", "TransitModel", "StopPresentation", "TripPlanning", "Scanning", "KioskTesting",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "StopPresentationTests",
            dependencies: ["StopPresentation", "TransitModel", "TransitStore", "SampleData", "KioskTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "SpeechTests", dependencies: ["Speech", "StopPresentation", "TransitModel", "KioskTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "KioskConfigurationTests",
            dependencies: ["KioskConfiguration", "StopCodes", "KioskTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ScanServiceTests",
            dependencies: [
                "ScanService", "KioskConfiguration", "Scanning", "StopCodes", "TransitStore", "TransitModel",
                "KioskTesting",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WebServiceTests",
            dependencies: [
                "WebService", "KioskConfiguration", "StopPresentation", "StopCodes", "TransitStore", "TransitModel",
                "TripPlanning", "SampleData", "KioskTesting", "Realtime", "Speech", "SystemSupport", "KioskCore",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TerminalKioskTests",
            dependencies: [
                "TerminalKiosk", "KioskCore", "ScanService", "StopPresentation", "TransitModel", "TransitStore",
                "TripPlanning", "StopCodes", "Speech", "KioskConfiguration",
                "Scanning", "KioskTesting",
            ],
            swiftSettings: strict
        ),
    ]
)
