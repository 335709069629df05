#!/usr/bin/env python3
"""Generate StopKiosk's sample GTFS feed: a Quito-like network with fictional timetables.

Usage:
    python3 kiosk/tools/make_sample_feed.py [OUTPUT_DIR]

OUTPUT_DIR defaults to assets/sample-network/ in this repository. The script is deterministic
(no randomness, no clock): running it twice produces byte-identical files. It writes every GTFS .txt file
plus README.md (which carries the exact row counts, so never edit that README by hand: edit this script).

Place names are real and coordinates approximate real locations in Quito; the timetables, stop codes,
identifiers, phone numbers and URLs are invented by the StopKiosk project.

The network definition comes first (agencies, calendars, stops, routes, headways); the code that turns
it into timetables follows.
"""

import csv
import datetime
import math
import os
import sys

# =====================================================================================================
# Network definition
# =====================================================================================================

FEED_START = "20260101"
FEED_END = "20271231"
FEED_VERSION = "2026.11-muestra"

AGENCIES = [
    # agency_id, agency_name, agency_url, agency_phone, agency_fare_url, agency_email
    ("MQ", "Metro de Quito", "https://metro.quito.example", "+593 2 000 1111",
     "https://metro.quito.example/tarifas", "informacion@metro.quito.example"),
    ("EPMTPQ", "Empresa Pública Metropolitana de Transporte de Pasajeros de Quito",
     "https://pasajeros.quito.example", "+593 2 000 2222",
     "https://pasajeros.quito.example/tarifas", "atencion@pasajeros.quito.example"),
]
TIMEZONE = "America/Guayaquil"
LANG = "es"

# Service ids. LAB = laborable (Mon-Fri), SAB = sábado, DOM = domingo y feriados.
CALENDAR = [
    # service_id, mon..sun
    ("LAB", (1, 1, 1, 1, 1, 0, 0)),
    ("SAB", (0, 0, 0, 0, 0, 1, 0)),
    ("DOM", (0, 0, 0, 0, 0, 0, 1)),
]

# Holidays: the regular service of that weekday is removed and Sunday service added (the way agencies
# publish them). This is the sample's own holiday list, an approximation of Ecuador's calendar.
HOLIDAYS = [
    ("2026-01-01", "Año Nuevo"),
    ("2026-02-16", "Carnaval"),
    ("2026-02-17", "Carnaval"),
    ("2026-04-03", "Viernes Santo"),
    ("2026-05-01", "Día del Trabajo"),
    ("2026-08-10", "Primer Grito de Independencia"),
    ("2026-10-09", "Independencia de Guayaquil"),
    ("2026-11-02", "Día de Difuntos"),
    ("2026-11-03", "Independencia de Cuenca"),
    ("2026-12-25", "Navidad"),
    ("2027-01-01", "Año Nuevo"),
    ("2027-02-08", "Carnaval"),
    ("2027-02-09", "Carnaval"),
    ("2027-03-26", "Viernes Santo"),
    ("2027-12-25", "Navidad"),
]

# A service that exists only in calendar_dates.txt: Metro late-night trains for the Fiestas de Quito.
SPECIAL_SERVICE = ("FQ2026", "2026-12-06", "Fiestas de Quito: Metro nocturno")

# --- Metro line 1 -----------------------------------------------------------------------------------
# Each station is a parent station MQnn with two platforms: MQnnA (andén 1, toward El Labrador) and
# MQnnB (andén 2, toward Quitumbe). Platform stop_codes are "1" + nn + platform number, e.g. 1091/1092.
# (name, lat, lon, seconds of running time from the previous station, wheelchair_boarding of the station)
METRO_STATIONS = [
    ("Quitumbe", -0.2975, -78.5425, 0, 1),
    ("Morán Valverde", -0.2860, -78.5405, 120, 1),
    ("Solanda", -0.2705, -78.5392, 150, 1),
    ("El Calzado", -0.2598, -78.5335, 120, 1),
    ("El Recreo", -0.2520, -78.5225, 150, 1),
    ("La Magdalena", -0.2392, -78.5258, 120, 1),
    ("San Francisco", -0.2202, -78.5142, 180, 1),
    ("La Alameda", -0.2125, -78.5042, 120, 1),
    ("El Ejido", -0.2085, -78.4995, 90, 1),
    ("Universidad Central", -0.2015, -78.5045, 120, 1),
    ("La Pradera", -0.1905, -78.4868, 120, 1),
    ("La Carolina", -0.1835, -78.4842, 120, 1),
    ("Iñaquito", -0.1765, -78.4845, 90, 1),
    ("Jipijapa", -0.1660, -78.4822, 120, 1),
    ("El Labrador", -0.1558, -78.4872, 120, 1),
]
METRO_DWELL = 30  # seconds between arrival and departure at intermediate stations

# --- Other parent stations (interchanges) -----------------------------------------------------------
# stop_id, name, lat, lon, wheelchair_boarding, stop_desc
EXTRA_STATIONS = [
    ("EST-LAY", "La Y", -0.1612, -78.4897, 1, "Estación de transferencia La Y: Trolebús y Metrobús"),
    ("EST-RCOCA", "Río Coca", -0.1540, -78.4750, 1,
     "Estación de transferencia Río Coca: Ecovía y alimentadores"),
]

# --- Boarding stops outside the Metro ---------------------------------------------------------------
# stop_id, stop_code, name, lat, lon, parent_station, platform_code, wheelchair_boarding, stop_desc
# wheelchair_boarding: 1 accessible, 2 not accessible, None = unknown (or inherited from the parent).
STOPS = [
    # Trolebús (Av. Maldonado / Centro Histórico / Av. 10 de Agosto)
    ("TB-RECREO", "2001", "El Recreo", -0.2527, -78.5218, "MQ05", "3", 1, "Andén del Trolebús"),
    ("TB-VILLAFLORA", "2002", "Villaflora", -0.2432, -78.5203, "", "", 1, "Av. Maldonado"),
    ("TB-CHIMBACALLE", "2003", "Chimbacalle", -0.2352, -78.5178, "", "", 1, "Av. Maldonado"),
    ("TB-CUMANDA", "2004", "Cumandá", -0.2272, -78.5138, "", "", 1, "Av. Maldonado"),
    ("TB-STODOMINGO", "2005", "Santo Domingo", -0.2238, -78.5128, "", "", 2,
     "Centro Histórico, calle Guayaquil"),
    ("TB-TEATRO", "2006", "Plaza del Teatro", -0.2182, -78.5098, "", "", 2,
     "Centro Histórico, calle Guayaquil"),
    ("TB-ALAMEDA", "2007", "La Alameda", -0.2137, -78.5030, "", "", 1, "Av. Gran Colombia"),
    ("TB-EJIDO-N", "2008", "El Ejido", -0.2078, -78.4985, "MQ09", "3", 1,
     "Andén del Trolebús hacia La Y"),
    ("TB-EJIDO-S", "2009", "El Ejido", -0.2080, -78.4988, "MQ09", "4", 1,
     "Andén del Trolebús hacia El Recreo"),
    ("TB-COLON", "2010", "Colón", -0.2005, -78.4935, "", "", 1, "Av. 10 de Agosto y Av. Colón"),
    ("TB-MJESUS", "2011", "Mariana de Jesús", -0.1912, -78.4905, "", "", 1,
     "Av. 10 de Agosto y Av. Mariana de Jesús"),
    ("TB-ESTADIO", "2012", "Estadio", -0.1778, -78.4878, "", "", None, "Av. 10 de Agosto"),
    ("TB-LAY", "2013", "La Y", -0.1610, -78.4893, "EST-LAY", "A", 1, "Andén del Trolebús"),
    # Ecovía (Av. 6 de Diciembre)
    ("EV-RCOCA", "3001", "Río Coca", -0.1538, -78.4752, "EST-RCOCA", "A", 1, "Andén de la Ecovía"),
    ("EV-VILLARROEL", "3002", "Gaspar de Villarroel", -0.1660, -78.4772, "", "", 1,
     "Av. 6 de Diciembre"),
    ("EV-NNUU", "3003", "Naciones Unidas", -0.1772, -78.4790, "", "", 1,
     "Av. 6 de Diciembre y Av. Naciones Unidas"),
    ("EV-EALFARO", "3004", "Eloy Alfaro", -0.1838, -78.4812, "", "", 1, "Av. 6 de Diciembre"),
    ("EV-BACAORTIZ", "3005", "Baca Ortiz", -0.1990, -78.4890, "", "", 1, "Av. 6 de Diciembre"),
    ("EV-CCULTURA", "3006", "Casa de la Cultura", -0.2078, -78.4962, "", "", 1,
     'Frente al parque "El Arbolito", Av. 6 de Diciembre'),
    ("EV-MARIN", "3007", "La Marín", -0.2182, -78.5080, "", "", 1, "Terminal sur de la Ecovía"),
    # Metrobús (Av. de la Prensa / Av. América)
    ("MB-OFELIA", "4001", "La Ofelia", -0.1175, -78.4968, "", "", 1, "Terminal norte del Metrobús"),
    ("MB-COTOCOLLAO", "4002", "Cotocollao", -0.1262, -78.4962, "", "", 1, "Av. de la Prensa"),
    ("MB-CONCEPCION", "4003", "La Concepción", -0.1388, -78.4930, "", "", 2, "Av. de la Prensa"),
    ("MB-ROSARIO", "4004", "El Rosario", -0.1500, -78.4912, "", "", None, "Av. de la Prensa"),
    ("MB-LAY", "4005", "La Y", -0.1615, -78.4902, "EST-LAY", "B", 1, "Andén del Metrobús"),
    ("MB-MANOSCA", "4006", "Mañosca", -0.1735, -78.4955, "", "", 1, "Av. América"),
    ("MB-MJESUS", "4007", "Mariana de Jesús", -0.1880, -78.4990, "", "", 1,
     "Av. América y Av. Mariana de Jesús"),
    ("MB-UCENTRAL", "4008", "Universidad Central", -0.2000, -78.5030, "", "", 1, "Av. América"),
    ("MB-STACLOTILDE", "4009", "Santa Clotilde", -0.2080, -78.5062, "", "", 1, "Av. América"),
    ("MB-MARIN", "4010", "Marín Central", -0.2192, -78.5090, "", "", 1, "Terminal sur del Metrobús"),
    # Alimentador A1 Río Coca – Cumbayá (Av. Interoceánica)
    ("A1-RCOCA", "5001", "Río Coca", -0.1542, -78.4746, "EST-RCOCA", "B", 1,
     "Andén de alimentadores"),
    ("A1-BATAN", "5002", "El Batán", -0.1718, -78.4688, "", "", None, "Av. Eloy Alfaro"),
    ("A1-TUNELES", "5003", "Túneles Guayasamín", -0.1902, -78.4612, "", "", 2,
     "Boca occidental de los túneles"),
    ("A1-MIRAVALLE", "5004", "Miravalle", -0.1952, -78.4468, "", "", None,
     "Parada a pedido: avise al conductor"),
    ("A1-PRIMAVERA", "5005", "La Primavera", -0.1988, -78.4392, "", "", None, "Av. Interoceánica"),
    ("A1-USFQ", "5006", "Universidad San Francisco", -0.1966, -78.4352, "", "", 1, "Diego de Robles"),
    ("A1-CUMBAYA", "5007", "Cumbayá", -0.2008, -78.4312, "", "", 1, "Parque central de Cumbayá"),
    # Alimentador A2 Quitumbe – Guamaní
    ("A2-QUITUMBE", "6001", "Quitumbe", -0.2980, -78.5432, "MQ01", "3", 1, "Andén de alimentadores"),
    ("A2-CUADRAS", "6002", "Las Cuadras", -0.3048, -78.5458, "", "", None, "Av. Mariscal Sucre"),
    ("A2-NAURORA", "6003", "Nueva Aurora", -0.3122, -78.5478, "", "", None, "Av. Mariscal Sucre"),
    ("A2-ECUATORIANA", "6004", "La Ecuatoriana", -0.3205, -78.5470, "", "", None,
     "Av. Mariscal Sucre"),
    ("A2-GUAMANI", "6005", "Guamaní", -0.3298, -78.5492, "", "", 1, "Terminal de Guamaní"),
    # Alimentador A3 El Labrador – Comité del Pueblo (stop codes with a leading zero, on purpose)
    ("A3-LABRADOR", "0701", "El Labrador", -0.1548, -78.4862, "", "", 2,
     "Parada de alimentadores, Av. Amazonas"),
    ("A3-BICENTENARIO", "0702", "Parque Bicentenario", -0.1440, -78.4858, "", "", None,
     "Av. Amazonas"),
    ("A3-KENNEDY", "0703", "Kennedy", -0.1365, -78.4795, "", "", None, "Av. Galo Plaza Lasso"),
    ("A3-COMITE", "0704", "Comité del Pueblo", -0.1248, -78.4705, "", "", 2,
     "Terminal del Comité del Pueblo"),
]

# Station entrances (location_type 2): no stop_code, nobody boards here.
ENTRANCES = [
    ("MQ09-E1", "El Ejido – Entrada Parque El Ejido", -0.2090, -78.4990, "MQ09", 1),
]

# --- Routes -------------------------------------------------------------------------------------------
# route_id, agency_id, short, long name, route_type, colour, text colour, sort order, description
ROUTES = [
    ("MQ-L1", "MQ", "L1", "Quitumbe – El Labrador", 1, "D52B1E", "FFFFFF", 1,
     "Primera Línea del Metro de Quito"),
    ("EP-TB", "EPMTPQ", "TB", "Trolebús: El Recreo – La Y", 800, "1B6EC2", "FFFFFF", 2,
     "Corredor Trolebús por la Av. 10 de Agosto"),
    ("EP-EV", "EPMTPQ", "EV", "Ecovía: Río Coca – La Marín", 3, "00843D", "FFFFFF", 3,
     "Corredor Ecovía por la Av. 6 de Diciembre"),
    ("EP-MB", "EPMTPQ", "MB", "Metrobús: La Ofelia – Marín Central", 700, "F5B800", "000000", 4,
     "Corredor Central Norte"),
    ("EP-A1", "EPMTPQ", "A1", "Alimentador Río Coca – Cumbayá", 3, "7A4FA3", "FFFFFF", 5,
     "Por la Av. Interoceánica"),
    ("EP-A2", "EPMTPQ", "A2", "Alimentador Quitumbe – Guamaní", 3, "E87722", "000000", 6,
     "Por la Av. Mariscal Sucre"),
    ("EP-A3", "EPMTPQ", "A3", "Alimentador El Labrador – Comité del Pueblo", 3, "5B6770", "FFFFFF", 7,
     "Sin servicio domingos ni feriados"),
]

# --- Bus patterns ----------------------------------------------------------------------------------
# Direction 0 runs in list order, direction 1 in reverse. Each entry:
#   (stop_id in direction 0, stop_id in direction 1, minutes from the previous stop in direction 0 order,
#    timepoint)
# The trip's headsign per direction, the stop_sequence step and per-stop pickup/drop-off overrides
# complete the pattern.
BUS_PATTERNS = {
    "EP-TB": dict(
        headsigns=("La Y", "El Recreo"), seq_step=1,
        stops=[
            ("TB-RECREO", "TB-RECREO", 0, 1),
            ("TB-VILLAFLORA", "TB-VILLAFLORA", 3, 0),
            ("TB-CHIMBACALLE", "TB-CHIMBACALLE", 3, 0),
            ("TB-CUMANDA", "TB-CUMANDA", 5, 0),
            ("TB-STODOMINGO", "TB-STODOMINGO", 2, 0),
            ("TB-TEATRO", "TB-TEATRO", 3, 0),
            ("TB-ALAMEDA", "TB-ALAMEDA", 4, 0),
            ("TB-EJIDO-N", "TB-EJIDO-S", 3, 1),
            ("TB-COLON", "TB-COLON", 4, 0),
            ("TB-MJESUS", "TB-MJESUS", 4, 0),
            ("TB-ESTADIO", "TB-ESTADIO", 5, 0),
            ("TB-LAY", "TB-LAY", 5, 1),
        ]),
    "EP-EV": dict(
        headsigns=("La Marín", "Río Coca"), seq_step=10,  # stop_sequence 10, 20, 30 ... on purpose
        stops=[
            ("EV-RCOCA", "EV-RCOCA", 0, 1),
            ("EV-VILLARROEL", "EV-VILLARROEL", 8, 0),
            ("EV-NNUU", "EV-NNUU", 7, 1),
            ("EV-EALFARO", "EV-EALFARO", 6, 0),
            ("EV-BACAORTIZ", "EV-BACAORTIZ", 8, 0),
            ("EV-CCULTURA", "EV-CCULTURA", 7, 1),
            ("EV-MARIN", "EV-MARIN", 9, 1),
        ]),
    "EP-MB": dict(
        headsigns=("Marín Central", "La Ofelia"), seq_step=1,
        stops=[
            ("MB-OFELIA", "MB-OFELIA", 0, 1),
            ("MB-COTOCOLLAO", "MB-COTOCOLLAO", 4, 0),
            ("MB-CONCEPCION", "MB-CONCEPCION", 5, 0),
            ("MB-ROSARIO", "MB-ROSARIO", 4, 0),
            ("MB-LAY", "MB-LAY", 4, 1),
            ("MB-MANOSCA", "MB-MANOSCA", 5, 0),
            ("MB-MJESUS", "MB-MJESUS", 5, 0),
            ("MB-UCENTRAL", "MB-UCENTRAL", 5, 1),
            ("MB-STACLOTILDE", "MB-STACLOTILDE", 3, 0),
            ("MB-MARIN", "MB-MARIN", 5, 1),
        ]),
    "EP-A1": dict(
        headsigns=("Cumbayá", "Río Coca"), seq_step=1,
        request_stops={"A1-MIRAVALLE"},  # pickup_type 3 / drop_off_type 3: coordinate with the driver
        stops=[
            ("A1-RCOCA", "A1-RCOCA", 0, 1),
            ("A1-BATAN", "A1-BATAN", 5, 0),
            ("A1-TUNELES", "A1-TUNELES", 6, 0),
            ("A1-MIRAVALLE", "A1-MIRAVALLE", 6, 0),
            ("A1-PRIMAVERA", "A1-PRIMAVERA", 5, 0),
            ("A1-USFQ", "A1-USFQ", 3, 0),
            ("A1-CUMBAYA", "A1-CUMBAYA", 4, 1),
        ]),
    "EP-A2": dict(
        headsigns=("Guamaní", "Quitumbe"), seq_step=1,
        stops=[
            ("A2-QUITUMBE", "A2-QUITUMBE", 0, 1),
            ("A2-CUADRAS", "A2-CUADRAS", 5, 0),
            ("A2-NAURORA", "A2-NAURORA", 4, 0),
            ("A2-ECUATORIANA", "A2-ECUATORIANA", 5, 0),
            ("A2-GUAMANI", "A2-GUAMANI", 6, 1),
        ]),
    "EP-A3": dict(
        headsigns=("Comité del Pueblo", "El Labrador"), seq_step=1,
        short_hours=True,  # times before 10:00 written H:MM:SS (e.g. 5:30:00), as GTFS allows
        stops=[
            ("A3-LABRADOR", "A3-LABRADOR", 0, 1),
            ("A3-BICENTENARIO", "A3-BICENTENARIO", 6, 0),
            ("A3-KENNEDY", "A3-KENNEDY", 5, 0),
            ("A3-COMITE", "A3-COMITE", 7, 1),
        ]),
}

# --- Bus headways ---------------------------------------------------------------------------------
# Per route and service: (first departure, last departure, [(from, until, headway minutes), ...]).
# Both directions leave their first stop at the same times. A departure t is generated while
# t <= last; the next one is t + the headway of the period containing t.
WD_PEAKS = lambda base, peak, late: [  # noqa: E731  (weekday profile: two peaks)
    ("00:00", "06:30", base), ("06:30", "09:00", peak), ("09:00", "16:30", base),
    ("16:30", "19:30", peak), ("19:30", "30:00", late)]

BUS_HEADWAYS = {
    "EP-TB": {
        "LAB": ("05:00", "23:00", WD_PEAKS(12, 8, 15)),
        "SAB": ("05:30", "22:30", [("00:00", "10:00", 12), ("10:00", "20:00", 10),
                                   ("20:00", "30:00", 15)]),
        "DOM": ("06:00", "22:00", [("00:00", "30:00", 15)]),
    },
    "EP-EV": {
        "LAB": ("05:00", "23:00", WD_PEAKS(12, 9, 15)),
        "SAB": ("05:30", "22:30", [("00:00", "30:00", 12)]),
        "DOM": ("06:00", "22:00", [("00:00", "30:00", 15)]),
    },
    "EP-MB": {
        "LAB": ("05:00", "22:30", WD_PEAKS(10, 8, 15)),
        "SAB": ("05:30", "22:00", [("00:00", "30:00", 12)]),
        "DOM": ("06:00", "21:30", [("00:00", "30:00", 15)]),
    },
    "EP-A1": {
        "LAB": ("05:30", "22:00", [("00:00", "09:00", 15), ("09:00", "16:30", 20),
                                   ("16:30", "19:30", 15), ("19:30", "30:00", 20)]),
        "SAB": ("06:00", "21:00", [("00:00", "30:00", 20)]),
        "DOM": ("06:30", "20:30", [("00:00", "30:00", 30)]),
    },
    "EP-A2": {
        "LAB": ("05:00", "22:30", [("00:00", "09:00", 10), ("09:00", "16:30", 15),
                                   ("16:30", "19:30", 10), ("19:30", "30:00", 15)]),
        "SAB": ("05:30", "22:00", [("00:00", "30:00", 15)]),
        "DOM": ("06:00", "21:00", [("00:00", "30:00", 20)]),
    },
    "EP-A3": {  # no Sunday / holiday service at all
        "LAB": ("05:30", "21:30", [("00:00", "09:00", 20), ("09:00", "16:30", 30),
                                   ("16:30", "19:30", 20), ("19:30", "30:00", 30)]),
        "SAB": ("06:00", "20:00", [("00:00", "30:00", 30)]),
    },
}

# Extra explicit bus trips: (route_id, service_id, direction_id, first-stop departure, variant)
# The last Ecovía trips of a weekday run past midnight (23:40 -> 24:25:00).
EXTRA_BUS_TRIPS = [
    ("EP-EV", "LAB", 0, "23:40", None),
    ("EP-EV", "LAB", 1, "23:40", None),
]
# Metrobús "Expreso" trips on weekday peaks skip these stops (one minute saved per skipped stop).
MB_EXPRESS_SKIPS = {"MB-CONCEPCION", "MB-ROSARIO", "MB-MANOSCA"}
MB_EXPRESS = [  # (direction, first departure, last departure, every minutes)
    (0, "07:05", "08:35", 15),
    (1, "17:05", "18:35", 15),
]

# wheelchair_accessible on trips: 1 everywhere except older buses: all A3 trips are 2, and every third
# A2 trip of the day (per direction) is 2.

# --- Metro frequencies ------------------------------------------------------------------------------
# One template trip per (service, direction, period); the Sunday template carries two frequency rows.
# (template suffix, service, [(start, end, headway_secs, exact_times), ...])
# Periods with exact_times=1 are chosen so that end_time lies strictly between the last departure and
# the last departure + headway (as the GTFS reference asks).
METRO_FREQUENCIES = [
    ("P1", "LAB", [("05:30:00", "06:30:00", 360, 0)]),
    ("P2", "LAB", [("06:30:00", "09:00:00", 240, 1)]),   # 06:30, 06:34 ... 08:58
    ("P3", "LAB", [("09:00:00", "16:45:00", 480, 0)]),
    ("P4", "LAB", [("16:45:00", "19:30:00", 240, 1)]),   # 16:45, 16:49 ... 19:29
    ("P5", "LAB", [("19:30:00", "23:00:00", 600, 0)]),
    ("S1", "SAB", [("06:00:00", "10:00:00", 600, 0)]),
    ("S2", "SAB", [("10:00:00", "22:00:00", 480, 0)]),
    ("D", "DOM", [("06:00:00", "14:00:00", 720, 0), ("14:00:00", "22:00:00", 600, 0)]),
]
# Fiestas de Quito: explicit (non-frequency) Metro trips, both directions, every 20 min.
METRO_SPECIAL = ("22:20", "25:40", 20)

# --- Transfers --------------------------------------------------------------------------------------
# (from stops, to stops, transfer_type, min_transfer_time, from_route, to_route, both_ways)
TRANSFERS = [
    (["MQ09A", "MQ09B"], ["TB-EJIDO-N", "TB-EJIDO-S"], 2, 240, "", "", True),
    (["MQ09"], ["EV-CCULTURA"], 2, 420, "", "", True),        # parent station id on purpose
    (["MQ05A", "MQ05B"], ["TB-RECREO"], 2, 180, "", "", True),
    (["MQ08A", "MQ08B"], ["TB-ALAMEDA"], 3, None, "", "", True),  # forbidden (see README)
    (["MQ10A", "MQ10B"], ["MB-UCENTRAL"], 2, 300, "", "", True),
    (["TB-LAY"], ["MB-LAY"], 0, None, "", "", True),
    (["EV-RCOCA"], ["A1-RCOCA"], 1, None, "EP-EV", "EP-A1", False),  # timed: A1 waits for Ecovía
    (["A1-RCOCA"], ["EV-RCOCA"], 0, None, "", "", False),
    (["MQ01B"], ["A2-QUITUMBE"], 1, None, "MQ-L1", "EP-A2", False),  # timed: A2 waits for the Metro
    (["A2-QUITUMBE"], ["MQ01A"], 2, 120, "", "", False),
    (["MQ15A", "MQ15B"], ["A3-LABRADOR"], 2, 240, "", "", True),
]

# =====================================================================================================
# Generation
# =====================================================================================================

DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def hm(text):
    """'HH:MM' or 'HH:MM:SS' -> seconds."""
    parts = [int(p) for p in text.split(":")]
    while len(parts) < 3:
        parts.append(0)
    return parts[0] * 3600 + parts[1] * 60 + parts[2]


def fmt(seconds, short_hours=False):
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    if short_hours:
        return f"{h}:{m:02d}:{s:02d}"
    return f"{h:02d}:{m:02d}:{s:02d}"


def compact(text):
    return text.replace(":", "")[:4]


def gtfs_date(iso):
    return iso.replace("-", "")


def coord(x):
    return f"{x:.6f}"


def departures(first, last, periods):
    t, end, out = hm(first), hm(last), []
    while t <= end:
        out.append(t)
        step = next(h for a, b, h in periods if hm(a) <= t < hm(b))
        t += step * 60
    return out


def build():
    tables = {}

    tables["agency.txt"] = (
        ["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang", "agency_phone",
         "agency_fare_url", "agency_email"],
        [[a, n, u, TIMEZONE, LANG, p, f, e] for a, n, u, p, f, e in AGENCIES])

    tables["feed_info.txt"] = (
        ["feed_publisher_name", "feed_publisher_url", "feed_lang", "default_lang", "feed_start_date",
         "feed_end_date", "feed_version", "feed_contact_email", "feed_contact_url"],
        [["Proyecto StopKiosk (red de ejemplo)", "https://transit.example/gtfs", LANG, LANG,
          FEED_START, FEED_END, FEED_VERSION, "datos@transit.example",
          "https://transit.example/gtfs/contacto"]])

    # ---- calendars
    tables["calendar.txt"] = (
        ["service_id"] + list(DAY_NAMES) + ["start_date", "end_date"],
        [[sid] + [str(d) for d in days] + [FEED_START, FEED_END] for sid, days in CALENDAR])
    cal_dates = []
    for iso, _name in HOLIDAYS:
        weekday = datetime.date.fromisoformat(iso).weekday()
        assert weekday != 6, f"holiday {iso} is a Sunday"
        regular = "SAB" if weekday == 5 else "LAB"
        cal_dates.append([regular, gtfs_date(iso), "2"])
        cal_dates.append(["DOM", gtfs_date(iso), "1"])
    cal_dates.append([SPECIAL_SERVICE[0], gtfs_date(SPECIAL_SERVICE[1]), "1"])
    tables["calendar_dates.txt"] = (["service_id", "date", "exception_type"], cal_dates)

    # ---- stops
    stop_rows = []
    for i, (name, lat, lon, _run, wb) in enumerate(METRO_STATIONS, start=1):
        sid = f"MQ{i:02d}"
        stop_rows.append([sid, "", name, "Estación del Metro de Quito", coord(lat), coord(lon), "1", "",
                          str(wb), ""])
        for suffix, pnum, dlon, toward in (("A", 1, -0.00012, METRO_STATIONS[-1][0]),
                                           ("B", 2, 0.00012, METRO_STATIONS[0][0])):
            desc = f"Andén {pnum} – hacia {toward}"
            if toward == name:  # the terminal's arrival platform
                desc = f"Andén {pnum} – llegadas, fin del recorrido"
            stop_rows.append([f"{sid}{suffix}", f"1{i:02d}{pnum}", name, desc,
                              coord(lat), coord(lon + dlon), "0", sid, "", str(pnum)])
    for sid, name, lat, lon, wb, desc in EXTRA_STATIONS:
        stop_rows.append([sid, "", name, desc, coord(lat), coord(lon), "1", "", str(wb), ""])
    for sid, code, name, lat, lon, parent, pcode, wb, desc in STOPS:
        stop_rows.append([sid, code, name, desc, coord(lat), coord(lon), "0", parent,
                          "" if wb is None else str(wb), pcode])
    for sid, name, lat, lon, parent, wb in ENTRANCES:
        stop_rows.append([sid, "", name, "", coord(lat), coord(lon), "2", parent, str(wb), ""])
    tables["stops.txt"] = (
        ["stop_id", "stop_code", "stop_name", "stop_desc", "stop_lat", "stop_lon", "location_type",
         "parent_station", "wheelchair_boarding", "platform_code"], stop_rows)

    # ---- routes
    tables["routes.txt"] = (
        ["route_id", "agency_id", "route_short_name", "route_long_name", "route_desc", "route_type",
         "route_color", "route_text_color", "route_sort_order"],
        [[rid, ag, short, long_, desc, str(rtype), col, tcol, str(order)]
         for rid, ag, short, long_, rtype, col, tcol, order, desc in ROUTES])

    trips, stop_times, frequencies = [], [], []
    st_header = ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence", "pickup_type",
                 "drop_off_type", "timepoint"]

    # ---- Metro
    n = len(METRO_STATIONS)
    offsets = []  # (arrival, departure) offsets from the first departure, direction 0 order
    t = 0
    for k, (_name, _lat, _lon, run, _wb) in enumerate(METRO_STATIONS):
        t += run
        arr = t
        if 0 < k < n - 1:
            t += METRO_DWELL
        offsets.append((arr, t))
    total = offsets[-1][0]
    assert total == metro_running_time()

    def metro_pattern(direction):
        """[(stop_id, arrival offset, departure offset)] in travel order."""
        out = []
        for k in (range(n) if direction == 0 else range(n - 1, -1, -1)):
            stop = f"MQ{k + 1:02d}{'A' if direction == 0 else 'B'}"
            if direction == 0:
                arr, dep = offsets[k]
            else:  # mirror: running times between the same stations, reversed
                arr, dep = total - offsets[k][1], total - offsets[k][0]
            out.append((stop, arr, dep))
        return out

    def emit_trip_times(trip_id, start, pattern, seq_step=1, short_hours=False, request_stops=()):
        last = len(pattern) - 1
        for idx, (stop, arr, dep, tp) in enumerate(pattern):
            pickup = "1" if idx == last else ("3" if stop in request_stops else "")
            drop = "1" if idx == 0 else ("3" if stop in request_stops else "")
            stop_times.append([trip_id, fmt(start + arr, short_hours), fmt(start + dep, short_hours), stop,
                               str((idx + 1) * seq_step), pickup, drop, str(tp)])

    headsigns = (METRO_STATIONS[-1][0], METRO_STATIONS[0][0])
    for suffix, service, rows in METRO_FREQUENCIES:
        for direction in (0, 1):
            trip_id = f"L1-{service}-{direction}-{suffix}"
            trips.append(["MQ-L1", service, trip_id, headsigns[direction], "", str(direction), "1"])
            pattern = [(s, a, d, 1) for s, a, d in metro_pattern(direction)]
            emit_trip_times(trip_id, hm(rows[0][0]), pattern)
            for start, end, headway, exact in rows:
                frequencies.append([trip_id, start, end, str(headway), str(exact)])
    sp_first, sp_last, sp_every = METRO_SPECIAL
    for direction in (0, 1):
        for start in range(hm(sp_first), hm(sp_last) + 1, sp_every * 60):
            trip_id = f"L1-{SPECIAL_SERVICE[0]}-{direction}-{compact(fmt(start))}"
            trips.append(["MQ-L1", SPECIAL_SERVICE[0], trip_id, headsigns[direction], "", str(direction),
                          "1"])
            emit_trip_times(trip_id, start, [(s, a, d, 1) for s, a, d in metro_pattern(direction)])

    # ---- buses
    def bus_pattern(route_id, direction, skip=()):
        spec = BUS_PATTERNS[route_id]
        stops = spec["stops"]
        cum, t = [], 0
        for s0, s1, mins, tp in stops:
            t += mins
            cum.append(t)
        seq = range(len(stops)) if direction == 0 else range(len(stops) - 1, -1, -1)
        out, saved = [], 0
        for k in seq:
            s0, s1, _mins, tp = stops[k]
            stop = s0 if direction == 0 else s1
            if stop in skip:
                saved += 60
                continue
            off = (cum[k] if direction == 0 else cum[-1] - cum[k]) * 60 - saved
            out.append((stop, off, off, tp))
        return out

    def add_bus_trip(route_id, service, direction, start, trip_id, short_name="", wheelchair="1",
                     skip=()):
        spec = BUS_PATTERNS[route_id]
        trips.append([route_id, service, trip_id, spec["headsigns"][direction], short_name,
                      str(direction), wheelchair])
        emit_trip_times(trip_id, start, bus_pattern(route_id, direction, skip), spec["seq_step"],
                        spec.get("short_hours", False), spec.get("request_stops", ()))

    services_order = [sid for sid, _ in CALENDAR]
    for route_id, _ag, short, *_rest in ROUTES:
        if route_id not in BUS_HEADWAYS:
            continue
        for service in services_order:
            if service not in BUS_HEADWAYS[route_id]:
                continue
            first, last, periods = BUS_HEADWAYS[route_id][service]
            for direction in (0, 1):
                for count, start in enumerate(departures(first, last, periods)):
                    if route_id == "EP-A3":
                        wheelchair = "2"
                    elif route_id == "EP-A2" and count % 3 == 2:
                        wheelchair = "2"
                    else:
                        wheelchair = "1"
                    add_bus_trip(route_id, service, direction, start,
                                 f"{short}-{service}-{direction}-{compact(fmt(start))}", wheelchair=wheelchair)
    for route_id, service, direction, start, _variant in EXTRA_BUS_TRIPS:
        short = next(r[2] for r in ROUTES if r[0] == route_id)
        add_bus_trip(route_id, service, direction, hm(start),
                     f"{short}-{service}-{direction}-{compact(start)}")
    for direction, first, last, every in MB_EXPRESS:
        for start in range(hm(first), hm(last) + 1, every * 60):
            add_bus_trip("EP-MB", "LAB", direction, start, f"MB-LAB-{direction}-{compact(fmt(start))}X",
                         short_name="Expreso", skip=MB_EXPRESS_SKIPS)

    tables["trips.txt"] = (
        ["route_id", "service_id", "trip_id", "trip_headsign", "trip_short_name", "direction_id",
         "wheelchair_accessible"], trips)
    tables["stop_times.txt"] = (st_header, stop_times)
    tables["frequencies.txt"] = (["trip_id", "start_time", "end_time", "headway_secs", "exact_times"],
                                 frequencies)

    # ---- transfers
    rows = []
    for froms, tos, ttype, mintime, froute, troute, both in TRANSFERS:
        pairs = [(a, b) for a in froms for b in tos]
        if both:
            pairs += [(b, a) for a in froms for b in tos]
        for a, b in pairs:
            rows.append([a, b, froute, troute, str(ttype), "" if mintime is None else str(mintime)])
    tables["transfers.txt"] = (
        ["from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "transfer_type",
         "min_transfer_time"], rows)
    return tables


FILE_ORDER = ["agency.txt", "feed_info.txt", "routes.txt", "stops.txt", "calendar.txt", "calendar_dates.txt",
              "trips.txt", "stop_times.txt", "frequencies.txt", "transfers.txt"]


def write_table(path, header, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def distance_m(lat1, lon1, lat2, lon2):
    """Great-circle distance in metres (haversine, mean Earth radius)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(a))


def nearby_pairs(stop_rows, limit=400.0):
    """Boarding stops of different stations closer than `limit` metres: [(metres, row, row)]."""
    board = [r for r in stop_rows if r[6] == "0"]
    out = []
    for i, a in enumerate(board):
        for b in board[i + 1:]:
            if a[7] and a[7] == b[7]:
                continue
            m = distance_m(float(a[4]), float(a[5]), float(b[4]), float(b[5]))
            if m < limit:
                out.append((round(m), a, b))
    return sorted(out, key=lambda x: (x[0], x[1][0], x[2][0]))


def metro_running_time():
    return sum(run for _n, _a, _o, run, _w in METRO_STATIONS) + METRO_DWELL * (len(METRO_STATIONS) - 2)


def readme(tables):
    total = metro_running_time()
    sp_first, sp_last, sp_every = METRO_SPECIAL
    counts = "\n".join(f"| `{name}` | {len(tables[name][1])} |" for name in FILE_ORDER)
    route_lines = "\n".join(
        f"| `{rid}` | {short} | {long_} | {rtype} | `{col}` / `{tcol}` | {ag} |"
        for rid, ag, short, long_, rtype, col, tcol, _o, _d in ROUTES)
    by_id = {r[0]: r for r in tables["stops.txt"][1]}
    code_lines = []
    for row in tables["stops.txt"][1]:
        sid, code, name, desc, lat, lon, ltype, parent, wb, pcode = row
        if code:
            where = f"{parent} andén {pcode}" if parent else ""
            code_lines.append(f"| `{code}` | `{sid}` | {name} | {where} | {desc} |")
    near_lines = "\n".join(f"| {m} | `{a[1]}` {a[2]} (`{a[0]}`) | `{b[1]}` {b[2]} (`{b[0]}`) |"
                           for m, a, b in nearby_pairs(tables["stops.txt"][1]))
    holidays = ", ".join(f"{d} ({n})" for d, n in HOLIDAYS)
    metro_freq = "\n".join(
        f"| `L1-{svc}-0/1-{suffix}` | {svc} | {s}–{e} | {h} s | {x} |"
        for suffix, svc, rows in METRO_FREQUENCIES for s, e, h, x in rows)
    n_trips = {}
    for row in tables["trips.txt"][1]:
        n_trips[(row[0], row[1])] = n_trips.get((row[0], row[1]), 0) + 1
    trips_lines = "\n".join(
        f"| `{rid}` | " + " | ".join(str(n_trips.get((rid, s), 0)) for s in ("LAB", "SAB", "DOM", "FQ2026"))
        + " |" for rid, *_ in ROUTES)
    return f"""# StopKiosk sample network (Quito)

A small GTFS feed for a Quito-like city, used by StopKiosk's tests, demo and benchmarks. **It is not
official data.** Place names are real and coordinates approximate real locations, but every timetable,
stop code, identifier, phone number and URL was invented by the StopKiosk project (URLs use `.example`
domains). `feed_info.txt` names the project as publisher.

Generated by `kiosk/tools/make_sample_feed.py` (Python 3, standard library only, deterministic).
Do not edit these files by hand — change the network definition at the top of the script and run:

```
python3 kiosk/tools/make_sample_feed.py            # writes assets/sample-network/
python3 kiosk/tools/make_sample_feed.py OTHER_DIR  # or anywhere else
```

Files are UTF-8 without BOM, LF line endings, RFC 4180 quoting (one `stop_desc` contains a comma and
double quotes). There is **no `shapes.txt`**: trips have no shapes, consumers draw straight lines or nothing.

## Agencies and routes

Two agencies, both `America/Guayaquil`, language `es`: `MQ` Metro de Quito and `EPMTPQ` (municipal
passenger company: Trolebús, Ecovía, Metrobús and feeders).

| route_id | short | long name | route_type | colour / text | agency |
|---|---|---|---|---|---|
{route_lines}

Trips per route and service:

| route_id | LAB | SAB | DOM | FQ2026 |
|---|---|---|---|---|
{trips_lines}

Metro L1 serves the 15 real stations, Quitumbe … El Labrador; each station is a parent station
(`MQ01` … `MQ15`, `location_type` 1) with platform `MQnnA` (andén 1, toward El Labrador, direction 0) and
`MQnnB` (andén 2, toward Quitumbe, direction 1). Running time end to end is {fmt(total)} with
{METRO_DWELL} s dwell (arrival ≠ departure) at intermediate stations.

Interchanges: **El Ejido** (`MQ09`) holds the Metro platforms *and* the Trolebús platforms `TB-EJIDO-N`
and `TB-EJIDO-S`, plus an entrance `MQ09-E1` (`location_type` 2); **El Recreo** (`MQ05`) holds the
Trolebús terminus; **Quitumbe** (`MQ01`) the A2 feeder platform; **La Y** (`EST-LAY`) the Trolebús and
Metrobús platforms; **Río Coca** (`EST-RCOCA`) the Ecovía terminus and the A1 feeder to Cumbayá.
Boarding stops of *different* stations less than 400 m apart (haversine), for nearby-stop lists and
walking transfers:

| metres | stop | stop |
|---|---|---|
{near_lines}

## Calendars

| service_id | days | where |
|---|---|---|
| `LAB` | Monday–Friday, {FEED_START}–{FEED_END} | calendar.txt |
| `SAB` | Saturday, {FEED_START}–{FEED_END} | calendar.txt |
| `DOM` | Sunday, {FEED_START}–{FEED_END}, and every holiday below | calendar.txt + calendar_dates.txt |
| `FQ2026` | only {SPECIAL_SERVICE[1]} | calendar_dates.txt only (no calendar.txt row) |

Holidays (`exception_type` 2 for the regular service of that day, `exception_type` 1 for `DOM`):
{holidays}. 2027-12-25 is a Saturday, so there `SAB` is removed instead of `LAB`.
`FQ2026` ({SPECIAL_SERVICE[2]}) adds Metro trains from {sp_first} to {sp_last} every {sp_every} min
in each direction after the Sunday frequencies end; the last ones arrive after 26:00.

## Timetables

* Metro L1 is **frequency-based** (`frequencies.txt`): one template trip per service, direction and period;
  its `stop_times` start at the period's (first) `start_time`. The Sunday template carries two rows.

| template trips | service | period | headway | exact_times |
|---|---|---|---|---|
{metro_freq}

* All other routes have explicit trips and stop_times. The corridors (TB, EV, MB) run weekdays from 05:00
  to 22:30–23:00 with 8–15 min headways (peaks 06:30–09:00 and 16:30–19:30), sparser Saturdays and Sundays. Both directions leave
  their first stop at the same minutes. Trip ids read `SHORT-SERVICE-DIRECTION-HHMM` (first departure).
* First stop of every trip: `drop_off_type` 1; last stop: `pickup_type` 1. `timepoint` 1 at terminals
  and main stops, 0 elsewhere (times are still given everywhere).
* Past midnight: `EV-LAB-0-2340` and `EV-LAB-1-2340` (last Ecovía of a weekday: 23:40:00 → 24:25:00)
  and the `FQ2026` Metro trains after 24:00.

## Deliberate oddities (each exists so the importer and the kiosk meet it)

* Stations have no `stop_code`; every boarding stop (`location_type` 0) has one, unique. The A3 feeder's
  codes have a leading zero (`0701`…`0704`): treat codes as text, never as numbers.
* Same names on different stops: two "Mariana de Jesús", two "Universidad Central", three "El Labrador"
  (station, platforms, A3 stop), "La Alameda"/"El Ejido"/"Río Coca"/"La Y"/"Quitumbe" on children.
* Extended route types (`800` trolleybus, `700` bus service) next to basic ones (`1`, `3`).
* A route (L1) mixing frequency-based template trips with ordinary trips (`FQ2026`).
* A service (`FQ2026`) that exists only in `calendar_dates.txt`; a route (A3) with no Sunday/holiday
  service, and Saturday-holiday handling on 2027-12-25.
* Ecovía `stop_sequence` values go 10, 20, 30 … (increasing, not consecutive).
* A3 times before 10:00 are written with one hour digit (`5:30:00`), which GTFS allows.
* Miravalle (`5004`, A1) is a request stop: `pickup_type` 3 and `drop_off_type` 3.
* Metrobús weekday-peak trips with `trip_short_name` "Expreso" (trip ids ending in `X`) skip
  La Concepción, El Rosario and Mañosca: one route, two stop patterns.
* `wheelchair_boarding` is 1, 2 or empty (unknown; for Metro platforms, inherited from the station);
  trips are `wheelchair_accessible` 1 except all A3 trips and every third A2 trip of a day per direction (2).
* `transfers.txt` has types 0, 1 (timed, with `from_route_id`/`to_route_id`), 2 (with
  `min_transfer_time`, one row using the parent station `MQ09`) and 3: the transfer between Metro
  La Alameda and Trolebús La Alameda is forbidden (fictional: the crossing is closed), even though the
  stops are under 200 m apart, so a planner must not walk it.

## Facts the tests rely on

If you change the timetable, these change too (times are departure times, service-day clock):

* Wednesday 2026-11-25, El Ejido andén 1 (`1091`, L1 toward El Labrador, `exact_times` 1 period):
  08:03:30, 08:07:30, 08:11:30, 08:15:30, 08:19:30, 08:23:30, 08:27:30 between 08:00 and 08:30.
* Wednesday 2026-11-25, Colón (`2010`), Trolebús toward La Y: 08:07, 08:15, 08:23 between 08:00 and
  08:30 (the same stop also serves the other direction: 08:02, 08:10, 08:18, 08:26 toward El Recreo).
* Friday 2026-11-27's trip `EV-LAB-0-2340` leaves Río Coca (`3001`) at 23:40:00, passes Casa de la
  Cultura (`3006`) at 24:16:00 (Saturday 2026-11-28 00:16) and reaches La Marín (`3007`) at 24:25:00.
* 2026-12-25 (Friday, Navidad): `LAB` does not run, `DOM` does; the first Trolebús from El Recreo
  (`2001`) leaves at 06:00 instead of 05:00, and A3 (`0701`…`0704`) has no departures at all.

## Row counts (data rows, header excluded)

| file | rows |
|---|---|
{counts}

## Stop codes

| stop_code | stop_id | stop_name | station / platform | stop_desc |
|---|---|---|---|---|
""" + "\n".join(code_lines) + "\n"


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.normpath(os.path.join(here, "..", "..", "assets", "sample-network"))
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        ok = len(argv) == 2
        print(__doc__.strip(), file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 2
    out = argv[1] if len(argv) == 2 else default
    os.makedirs(out, exist_ok=True)
    tables = build()
    for name in FILE_ORDER:
        header, rows = tables[name]
        write_table(os.path.join(out, name), header, rows)
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(readme(tables))
    summary = ", ".join(f"{name} {len(tables[name][1])}" for name in FILE_ORDER)
    print(f"wrote {out}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
