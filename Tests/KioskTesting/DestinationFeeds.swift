import Foundation

/// A small feed shaped like Renfe's for the destination rule (`TripDestination`): trains without `trip_headsign`
/// whose `trip_short_name` is the train number, no shapes.txt, one train whose stop time at Madrid gives a
/// `stop_headsign`, and a bus whose headsign repeats its own route number ("109 Maryland Pkwy Northbound").
public enum HeadsignlessFeed {
    /// The stops: Madrid (MAD) → Zaragoza (ZAR) → Barcelona (BCN) by train; the bus LV1 → LV2 → LV3 nearby.
    public static let files: [String: String] = [
        "agency.txt": """
            agency_id,agency_name,agency_url,agency_timezone,agency_lang
            RENFE,Renfe Viajeros,https://renfe.example,Europe/Madrid,es

            """,
        "stops.txt": """
            stop_id,stop_code,stop_name,stop_lat,stop_lon
            MAD,60000,Madrid-Puerta de Atocha,40.4065,-3.6895
            ZAR,71801,Zaragoza-Delicias,41.6580,-0.9110
            BCN,71801B,Barcelona-Sants,41.3791,2.1402
            LV1,901,Glorieta de Atocha,40.4075,-3.6925
            LV2,902,Paseo del Prado,40.4130,-3.6920
            LV3,903,Cibeles,40.4193,-3.6931

            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type
            AVE,RENFE,AVE,,2
            ALVIA,RENFE,ALVIA,,2
            B109,RENFE,109,Maryland Pkwy,3

            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            DAILY,1,1,1,1,1,1,1,20260101,20261231

            """,
        "trips.txt": """
            route_id,service_id,trip_id,trip_headsign,trip_short_name,direction_id
            AVE,DAILY,T03083,,03083,0
            ALVIA,DAILY,T00601,,00601,0
            AVE,DAILY,T03163,,03163,0
            B109,DAILY,BUS1,109 Maryland Pkwy Northbound,,0

            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign
            T03083,08:30:00,08:30:00,MAD,1,
            T03083,09:45:00,09:47:00,ZAR,2,
            T03083,11:00:00,11:00:00,BCN,3,
            T00601,08:40:00,08:40:00,MAD,1,
            T00601,10:10:00,10:10:00,ZAR,2,
            T03163,09:00:00,09:00:00,MAD,1,Barcelona por Zaragoza
            T03163,10:15:00,10:17:00,ZAR,2,
            T03163,11:30:00,11:30:00,BCN,3,
            BUS1,08:35:00,08:35:00,LV1,1,
            BUS1,08:40:00,08:40:00,LV2,2,
            BUS1,08:45:00,08:45:00,LV3,3,

            """,
    ]

    /// A Monday morning before the first train, as `--at` takes it (Madrid time).
    public static let morning = "2026-11-23T08:20"

    /// The feed written to a fresh folder.
    public static func folder() -> URL { TemporaryFolder.make("headsignless", files: files) }
}
