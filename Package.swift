// swift-tools-version:6.1
// StopKiosk: a Linux stop-lookup kiosk. See README.md for the module map.
import PackageDescription

let package = Package(
    name: "StopKiosk",
    platforms: [.macOS(.v13)],
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
    ],
    targets: [
        // Domain: stops, routes, service days, GTFS time, geography, text folding. Foundation only.
        .target(name: "TransitModel"),

        // The route database: schema, GTFS import, the queries every command shares.
        .target(
            name: "TransitStore",
            dependencies: [
                "TransitModel", "JourneyPlanner",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Round-based journey search (RAPTOR) over a compact in-memory timetable. Pure Swift, no database.
        .target(name: "JourneyPlanner"),

        // Live departures: GTFS-Realtime decoding (swift-protobuf), matching to scheduled trips, freshness, alerts.
        // The generated protobuf code is committed; kiosk/tools/generate-realtime-proto.sh regenerates it.
        .target(
            name: "Realtime",
            dependencies: [
                "TransitModel", "TransitStore", .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            exclude: ["Proto/gtfs-realtime.proto"]
        ),

        // C libraries: thin shims exposing what does not import into Swift (function-like macros) as constants.
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        .target(name: "CZBar", linkerSettings: [.linkedLibrary("zbar")]),
        .target(name: "CImageCodecs", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]),
        .target(name: "CQREncode", linkerSettings: [.linkedLibrary("qrencode")]),
        .target(name: "CCairo", linkerSettings: [.linkedLibrary("cairo")]),

        // Stop-code payloads: URL templates, Ed25519 label signatures, key files, the payload parser.
        .target(name: "StopCodes", dependencies: ["TransitModel", .product(name: "Crypto", package: "swift-crypto")]),

        // Frames (V4L2 camera, Y4M and image replay), zbar decoding with cheap recovery, debouncing.
        .target(name: "Scanning", dependencies: ["CV4L2", "CZBar", "CImageCodecs"]),

        // Stop labels: layout, QR matrix (libqrencode), PDF/SVG/PNG (cairo), read-back check with the decoder.
        .target(name: "Labels", dependencies: ["TransitModel", "StopCodes", "Scanning", "CQREncode", "CCairo"]),

        // What the passenger and the integrator read: messages (es/en), text, JSON and terminal screens.
        .target(name: "KioskUI", dependencies: [
            "TransitModel", "TransitStore", "StopCodes", "Scanning", "JourneyPlanner",
            .product(name: "TOMLKit", package: "TOMLKit"), .product(name: "Logging", package: "swift-log"),
        ]),

        // Data the program ships: the Quito sample network and the recorded demo camera session.
        .target(
            name: "SampleData",
            path: "assets",
            sources: ["SampleData.swift"],
            resources: [.copy("sample-network"), .copy("demo")]
        ),

        .executableTarget(
            name: "kiosk",
            dependencies: [
                "TransitModel", "TransitStore", "SampleData", "KioskUI", "JourneyPlanner", "Scanning", "StopCodes", "Labels", "Realtime",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "kiosk-bench",
            dependencies: [
                "TransitModel", "TransitStore", "KioskUI", "JourneyPlanner", "Scanning", "StopCodes", "Labels", "SampleData", "Realtime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "TransitModelTests", dependencies: ["TransitModel"]),
        // Opens a camera, Y4M or image folder and prints JSON lines: a diagnostic, and what the capture tests run
        // under the fake V4L2 device (LD_PRELOAD must be set before a process starts).
        .executableTarget(name: "capture-probe", dependencies: ["Scanning"]),

        .testTarget(name: "JourneyPlannerTests", dependencies: ["JourneyPlanner"]),
        .testTarget(name: "RealtimeTests", dependencies: [
            "Realtime", "TransitModel", "TransitStore", .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        ]),
        .testTarget(name: "ScanningTests", dependencies: ["Scanning"]),
        .testTarget(name: "StopCodesTests", dependencies: ["StopCodes"]),
        .testTarget(name: "LabelsTests", dependencies: ["Labels", "TransitModel", "StopCodes", "Scanning"]),
        .testTarget(name: "KioskUITests", dependencies: ["KioskUI", "TransitModel", "TransitStore", "StopCodes", "Scanning", "SampleData"]),
        .testTarget(
            name: "TransitStoreTests",
            dependencies: ["TransitStore", "TransitModel", "SampleData", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ]
)
