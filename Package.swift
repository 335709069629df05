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
    ],
    targets: [
        // Domain: stops, routes, service days, GTFS time, geography, text folding. Foundation only.
        .target(name: "TransitModel"),

        // The route database: schema, GTFS import, the queries every command shares.
        .target(
            name: "TransitStore",
            dependencies: [
                "TransitModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Round-based journey search (RAPTOR) over a compact in-memory timetable. Pure Swift, no database.
        .target(name: "JourneyPlanner"),

        // What the passenger and the integrator read: messages (es/en), text, JSON and terminal screens.
        .target(name: "KioskUI", dependencies: ["TransitModel"]),

        // Data the program ships: the Quito sample network (and later the recorded demo frames).
        .target(
            name: "SampleData",
            path: "assets",
            sources: ["SampleData.swift"],
            resources: [.copy("sample-network")]
        ),

        .executableTarget(
            name: "kiosk",
            dependencies: [
                "TransitModel", "TransitStore", "SampleData", "KioskUI", "JourneyPlanner",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "kiosk-bench",
            dependencies: [
                "TransitModel", "TransitStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "TransitModelTests", dependencies: ["TransitModel"]),
        .testTarget(name: "JourneyPlannerTests", dependencies: ["JourneyPlanner"]),
        .testTarget(
            name: "TransitStoreTests",
            dependencies: ["TransitStore", "TransitModel", "SampleData", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ]
)
