import Foundation
import KioskTesting

/// Small GTFS feeds for the store's tests (running `kiosk`, folders and shared data: KioskTesting).
enum TestSupport {
    /// Writes a feed folder from file name → exact contents (bytes are written as given: BOM, CRLF …).
    static func writeFeed(_ files: [String: String], name: String = "feed") -> URL {
        TemporaryFolder.make(name, files: files)
    }

    /// A minimal valid feed; tests replace one file at a time to exercise one rule.
    static let minimalFeed: [String: String] = [
        "agency.txt":
            "agency_id,agency_name,agency_url,agency_timezone\nA,Agencia,https://a.example,America/Guayaquil\n",
        "stops.txt":
            "stop_id,stop_code,stop_name,stop_lat,stop_lon\nS1,101,Primera,-0.20,-78.50\nS2,102,Segunda,-0.21,-78.50\nS3,103,Tercera,-0.22,-78.50\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,1,Uno,3\n",
        "calendar.txt":
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\n",
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,WK,T1,Tercera\nR1,WK,T2,Tercera\n",
        "stop_times.txt":
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\nT1,08:20:00,08:20:00,S3,3\nT2,09:00:00,09:00:00,S1,1\nT2,09:10:00,09:10:00,S2,2\nT2,09:20:00,09:20:00,S3,3\n",
    ]

    /// The minimal feed with some files replaced (nil: removed).
    static func feed(replacing changes: [String: String?]) -> URL {
        var files = minimalFeed
        for (file, contents) in changes { files[file] = contents }
        return writeFeed(files)
    }
}
