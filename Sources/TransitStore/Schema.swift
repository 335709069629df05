import GRDB

/// The route database's layout. Text GTFS identifiers are kept for display and lookups, but every
/// relationship uses a dense integer key (`*_idx`), which keeps `stop_times` — nine rows in ten of any
/// feed — small and its indexes fast. Times are integer seconds from the service day's origin (see
/// `GTFSTime`), dates integer `YYYYMMDD`.
public enum Schema {
    public static let version = 2

    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: tablesV1)
        }
        migrator.registerMigration("v2 shapes") { db in
            try db.execute(sql: tablesV2)
        }
        // The name search's index (filled at the end of an import); readers do without it in older files.
        migrator.registerMigration("v2 stop name index") { db in
            try db.execute(sql: StopNameIndex.table)
        }
        // The feeds a database holds (readers of older files take them for one feed).
        migrator.registerMigration("v2 feeds") { db in
            try db.execute(sql: FeedTable.create)
            try db.execute(sql: Interchanges.table)
        }
        // Where each trip ends, for its destination when the feed gives no headsign (`TripDestination`). Filled at
        // the end of an import (`fillLastStops`); readers of older files find it from the stop times instead.
        migrator.registerMigration("v2 trip last stop") { db in
            try db.execute(sql: "ALTER TABLE trips ADD COLUMN last_stop_idx INTEGER")
            try fillLastStops(db)
        }
        // translations.txt (`FeedTranslations`); readers of older files show the feed's own names.
        migrator.registerMigration("v2 translations") { db in
            try db.execute(sql: FeedTranslations.table)
        }
        return migrator
    }

    static let tablesV1 = """
        CREATE TABLE feed_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE table_counts (table_name TEXT PRIMARY KEY, row_count INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE import_warnings (message TEXT NOT NULL, count INTEGER NOT NULL, examples TEXT NOT NULL);
        CREATE TABLE agency (
            agency_idx INTEGER PRIMARY KEY, agency_id TEXT NOT NULL UNIQUE, agency_name TEXT NOT NULL,
            agency_url TEXT, agency_timezone TEXT NOT NULL, agency_lang TEXT, agency_phone TEXT);
        CREATE TABLE stops (
            stop_idx INTEGER PRIMARY KEY, stop_id TEXT NOT NULL UNIQUE, stop_code TEXT, stop_name TEXT,
            stop_desc TEXT, stop_lat REAL, stop_lon REAL, zone_id TEXT, location_type INTEGER NOT NULL DEFAULT 0,
            parent_idx INTEGER REFERENCES stops(stop_idx), platform_code TEXT, wheelchair_boarding INTEGER NOT NULL DEFAULT 0,
            name_key TEXT NOT NULL DEFAULT '');
        CREATE TABLE routes (
            route_idx INTEGER PRIMARY KEY, route_id TEXT NOT NULL UNIQUE, agency_idx INTEGER REFERENCES agency(agency_idx),
            route_short_name TEXT, route_long_name TEXT, route_desc TEXT, route_type INTEGER NOT NULL,
            route_color TEXT, route_text_color TEXT, route_sort_order INTEGER);
        CREATE TABLE services (service_idx INTEGER PRIMARY KEY, service_id TEXT NOT NULL UNIQUE);
        CREATE TABLE calendar (
            service_idx INTEGER PRIMARY KEY REFERENCES services(service_idx),
            weekdays INTEGER NOT NULL, -- bit 0 = Monday … bit 6 = Sunday
            start_date INTEGER NOT NULL, end_date INTEGER NOT NULL);
        CREATE TABLE calendar_dates (
            service_idx INTEGER NOT NULL REFERENCES services(service_idx), date INTEGER NOT NULL,
            exception_type INTEGER NOT NULL, -- 1 added, 2 removed
            PRIMARY KEY (service_idx, date)) WITHOUT ROWID;
        CREATE TABLE trips (
            trip_idx INTEGER PRIMARY KEY, trip_id TEXT NOT NULL UNIQUE, route_idx INTEGER NOT NULL REFERENCES routes(route_idx),
            service_idx INTEGER NOT NULL REFERENCES services(service_idx), trip_headsign TEXT, trip_short_name TEXT,
            direction_id INTEGER, block_id TEXT, shape_id TEXT, wheelchair_accessible INTEGER NOT NULL DEFAULT 0,
            bikes_allowed INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE stop_times (
            trip_idx INTEGER NOT NULL, stop_sequence INTEGER NOT NULL, stop_idx INTEGER NOT NULL,
            arrival_time INTEGER, departure_time INTEGER, stop_headsign TEXT,
            pickup_type INTEGER NOT NULL DEFAULT 0, drop_off_type INTEGER NOT NULL DEFAULT 0,
            timepoint INTEGER NOT NULL DEFAULT 1, shape_dist_traveled REAL,
            PRIMARY KEY (trip_idx, stop_sequence)) WITHOUT ROWID;
        CREATE TABLE frequencies (
            trip_idx INTEGER NOT NULL REFERENCES trips(trip_idx), start_time INTEGER NOT NULL, end_time INTEGER NOT NULL,
            headway_secs INTEGER NOT NULL, exact_times INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE transfers (
            from_stop_idx INTEGER REFERENCES stops(stop_idx), to_stop_idx INTEGER REFERENCES stops(stop_idx),
            from_route_idx INTEGER, to_route_idx INTEGER, from_trip_idx INTEGER, to_trip_idx INTEGER,
            transfer_type INTEGER NOT NULL, min_transfer_time INTEGER);
        CREATE TABLE stop_routes (
            stop_idx INTEGER NOT NULL, route_idx INTEGER NOT NULL, direction_id INTEGER NOT NULL, -- -1: feed gives none
            headsigns TEXT NOT NULL, -- separated by U+001F
            PRIMARY KEY (stop_idx, route_idx, direction_id)) WITHOUT ROWID;
        CREATE TABLE stop_service_spans (
            stop_idx INTEGER NOT NULL, service_idx INTEGER NOT NULL, route_idx INTEGER NOT NULL, direction_id INTEGER NOT NULL,
            first_departure INTEGER NOT NULL, last_departure INTEGER NOT NULL,
            PRIMARY KEY (stop_idx, service_idx, route_idx, direction_id)) WITHOUT ROWID;
        CREATE TABLE feed_info (
            feed_publisher_name TEXT NOT NULL, feed_publisher_url TEXT, feed_lang TEXT, default_lang TEXT,
            feed_start_date INTEGER, feed_end_date INTEGER, feed_version TEXT, feed_contact_email TEXT, feed_contact_url TEXT);
        """

    /// Version 2: shapes.txt, one row per shape used by a trip (linked by `trips.shape_id`), simplified to about
    /// a metre and stored as a `ShapeCoding` BLOB of delta-encoded microdegrees.
    static let tablesV2 = """
        CREATE TABLE shapes (
            shape_idx INTEGER PRIMARY KEY, shape_id TEXT NOT NULL UNIQUE,
            point_count INTEGER NOT NULL, -- points kept after simplification
            source_point_count INTEGER NOT NULL, -- points in shapes.txt
            points BLOB NOT NULL);
        """

    /// Sets `trips.last_stop_idx` to the stop of each trip's highest stop_sequence: one primary-key seek per trip.
    static func fillLastStops(_ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE trips SET last_stop_idx = (SELECT st.stop_idx FROM stop_times st WHERE st.trip_idx = trips.trip_idx
                ORDER BY st.stop_sequence DESC LIMIT 1)
                """)
    }

    /// Built after the rows are in: one sorted pass each is far cheaper than maintaining them row by row.
    static let indexesV1 = """
        CREATE INDEX stop_times_by_stop_time ON stop_times(stop_idx, departure_time);
        CREATE INDEX trips_by_route ON trips(route_idx, direction_id);
        CREATE INDEX trips_by_service ON trips(service_idx);
        CREATE INDEX trips_by_shape ON trips(shape_id);
        CREATE INDEX stops_by_code ON stops(stop_code);
        CREATE INDEX stops_by_name_key ON stops(name_key);
        CREATE INDEX stops_by_parent ON stops(parent_idx);
        CREATE INDEX stops_by_position ON stops(stop_lat, stop_lon);
        CREATE INDEX frequencies_by_trip ON frequencies(trip_idx);
        CREATE INDEX calendar_dates_by_date ON calendar_dates(date);
        CREATE INDEX transfers_by_from_stop ON transfers(from_stop_idx);
        """

    /// The tables whose row counts the summary and the metadata report, in import order.
    public static let countedTables = [
        "agency", "stops", "routes", "services", "calendar", "calendar_dates", "trips", "stop_times",
        "frequencies", "transfers", "feed_info", "shapes", "stop_routes", "stop_service_spans",
    ]
}
