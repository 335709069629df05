import Foundation

/// A tiny English US feed for the passenger locale (`PassengerLocale`): agency_lang en, America/New_York, no
/// feed_info (so agency_lang decides), and a translations.txt that names stops, headsigns and a route in Spanish
/// (and one stop in English, by record, differently from stops.txt) — both GTFS forms, record_id and field_value.
public enum EnglishUSFeed {
    public static let files: [String: String] = [
        "agency.txt": """
            agency_id,agency_name,agency_url,agency_timezone,agency_lang
            RVT,River Valley Transit,https://rvt.example,America/New_York,en

            """,
        "stops.txt": """
            stop_id,stop_code,stop_name,stop_lat,stop_lon
            MAIN,101,Main Street Station,35.0456,-85.3097
            LIB,102,Public Library,35.0470,-85.3100
            ZOO,103,City Zoo,35.0600,-85.3000

            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type
            R4,RVT,4,Riverside Loop,3

            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            ALL,1,1,1,1,1,1,1,20260101,20261231

            """,
        "trips.txt": """
            route_id,service_id,trip_id,trip_headsign,direction_id
            R4,ALL,T1,City Zoo,0
            R4,ALL,T2,City Zoo,0
            R4,ALL,T3,Downtown,1

            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,15:05:00,15:05:00,MAIN,1
            T1,15:10:00,15:10:00,LIB,2
            T1,15:20:00,15:20:00,ZOO,3
            T2,21:35:00,21:35:00,MAIN,1
            T2,21:40:00,21:40:00,LIB,2
            T2,21:50:00,21:50:00,ZOO,3
            T3,16:00:00,16:00:00,ZOO,1
            T3,16:10:00,16:10:00,LIB,2
            T3,16:15:00,16:15:00,MAIN,3

            """,
        "translations.txt": """
            table_name,field_name,language,translation,record_id,record_sub_id,field_value
            stops,stop_name,es,Estación Calle Mayor,MAIN,,
            stops,stop_name,es-US,Biblioteca Pública,,,Public Library
            stops,stop_name,en,Main St Station,MAIN,,
            trips,trip_headsign,es,Zoológico,,,City Zoo
            trips,trip_headsign,es,Centro,T3,,
            routes,route_long_name,es,Circuito Ribereño,R4,,
            agency,agency_name,es,Tránsito del Valle,RVT,,

            """,
    ]

    /// A Wednesday afternoon, five minutes before the 15:05 from Main Street (New York time).
    public static let afternoon = "2026-08-19T15:00"

    /// The feed written to a fresh folder.
    public static func folder() -> URL { TemporaryFolder.make("english-us", files: files) }
}
