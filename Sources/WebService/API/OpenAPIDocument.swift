/// The OpenAPI 3.1 document served at `/api/v1/openapi.json`: the API's contract, written by hand.
///
/// Hand-written rather than generated with swift-openapi-generator: its build plugin compiles the generator (and
/// swift-syntax) in every clean CI build, several minutes on the project's 2-core machines; and a generated server
/// re-encodes responses through its own Codable types, while the stop view and the plan must stay byte for byte
/// what `kiosk lookup --json` and `kiosk plan --json` print (one renderer, `KioskJSON`). The tests keep the document
/// honest instead: `openapi-spec-validator` checks it, and every endpoint's real responses (each documented status)
/// are validated against its schemas (`kiosk/tests/web/check_openapi.py`, run by `OpenAPIContractTests`).
enum OpenAPIDocument {
    static let json = #"""
        {
         "openapi": "3.1.0",
         "info": {
          "title": "StopKiosk API",
          "version": "1.0.0",
          "description": "Stop views, journey plans, stop search and scanned-label checks from the route database `kiosk serve` reads. Errors are application/problem+json. GET and HEAD only; other methods get 405."
         },
         "servers": [
          {
           "url": "/"
          }
         ],
         "paths": {
          "/health": {
           "get": {
            "operationId": "health",
            "summary": "Liveness and the feed in service",
            "responses": {
             "200": {
              "description": "The server answers",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Health"
                }
               }
              }
             }
            }
           }
          },
          "/api/v1/stops/{id}": {
           "get": {
            "operationId": "stopView",
            "summary": "A stop's routes, departures, first and last service, nearby stops",
            "parameters": [
             {
              "name": "id",
              "in": "path",
              "description": "stop_id or stop_code (an exact stop_id wins); a station stands for its platforms",
              "schema": {
               "type": "string"
              },
              "required": true
             },
             {
              "name": "at",
              "in": "query",
              "description": "local date-time in the agency's time zone, e.g. 2026-11-25T08:00 (default: now, to the minute)",
              "schema": {
               "type": "string"
              }
             },
             {
              "name": "window",
              "in": "query",
              "description": "minutes of departures (1–1440, default from the config)",
              "schema": {
               "type": "integer",
               "minimum": 1,
               "maximum": 1440
              }
             },
             {
              "name": "nearby",
              "in": "query",
              "description": "radius for nearby stops in metres (0–5000)",
              "schema": {
               "type": "integer",
               "minimum": 0,
               "maximum": 5000
              }
             },
             {
              "name": "lang",
              "in": "query",
              "description": "es or en (the JSON has no text; checked for integrators that send it)",
              "schema": {
               "type": "string",
               "enum": [
                "es",
                "en"
               ]
              }
             }
            ],
            "responses": {
             "200": {
              "description": "The stop view",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/StopView"
                }
               }
              },
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                }
               },
               "Cache-Control": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "304": {
              "description": "Not modified (If-None-Match named the ETag)"
             },
             "400": {
              "description": "A bad at, window, nearby or lang",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             },
             "404": {
              "description": "No such stop; suggestions list close matches",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             },
             "503": {
              "description": "The timetable does not cover today",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            }
           }
          },
          "/api/v1/stops": {
           "get": {
            "operationId": "searchStops",
            "summary": "Stops by name or code (accent-insensitive), or near a point",
            "parameters": [
             {
              "name": "q",
              "in": "query",
              "description": "name, code or ID",
              "schema": {
               "type": "string"
              }
             },
             {
              "name": "near",
              "in": "query",
              "description": "latitude,longitude in degrees",
              "schema": {
               "type": "string",
               "pattern": "^-?[0-9.]+,-?[0-9.]+$"
              }
             },
             {
              "name": "radius",
              "in": "query",
              "description": "metres around near (1–5000)",
              "schema": {
               "type": "integer",
               "minimum": 1,
               "maximum": 5000
              }
             },
             {
              "name": "limit",
              "in": "query",
              "description": "most stops (1–50, default 10)",
              "schema": {
               "type": "integer",
               "minimum": 1,
               "maximum": 50
              }
             }
            ],
            "responses": {
             "200": {
              "description": "Matches (q) or stops nearest first (near)",
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                }
               }
              },
              "content": {
               "application/json": {
                "schema": {
                 "oneOf": [
                  {
                   "$ref": "#/components/schemas/StopSearch"
                  },
                  {
                   "$ref": "#/components/schemas/StopsNear"
                  }
                 ]
                }
               }
              }
             },
             "304": {
              "description": "Not modified (If-None-Match named the ETag)"
             },
             "400": {
              "description": "Neither or both of q and near, or a bad value",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            }
           }
          },
          "/api/v1/plan": {
           "get": {
            "operationId": "plan",
            "summary": "Journey options from one stop to another",
            "parameters": [
             {
              "name": "from",
              "in": "query",
              "description": "stop ID, code, label URL or name",
              "schema": {
               "type": "string"
              },
              "required": true
             },
             {
              "name": "to",
              "in": "query",
              "description": "stop ID, code, label URL or name",
              "schema": {
               "type": "string"
              },
              "required": true
             },
             {
              "name": "at",
              "in": "query",
              "description": "local date-time in the agency's time zone, e.g. 2026-11-25T08:00 (default: now, to the minute)",
              "schema": {
               "type": "string"
              }
             },
             {
              "name": "max_transfers",
              "in": "query",
              "description": "0–8 (default from the config)",
              "schema": {
               "type": "integer",
               "minimum": 0,
               "maximum": 8
              }
             }
            ],
            "responses": {
             "200": {
              "description": "The plan (options may be empty)",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/JourneyPlan"
                }
               }
              },
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                }
               },
               "Cache-Control": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "304": {
              "description": "Not modified (If-None-Match named the ETag)"
             },
             "400": {
              "description": "A bad value, the same stop twice, or an ambiguous name",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             },
             "404": {
              "description": "No such stop",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             },
             "503": {
              "description": "The timetable does not cover today",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            }
           }
          },
          "/api/v1/resolve": {
           "get": {
            "operationId": "resolve",
            "summary": "What the kiosk makes of a scanned payload: the stop and the signature verdict",
            "parameters": [
             {
              "name": "payload",
              "in": "query",
              "description": "the scanned text, percent-encoded",
              "schema": {
               "type": "string"
              },
              "required": true
             }
            ],
            "responses": {
             "200": {
              "description": "The verdict (status says whether it is a stop)",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Resolution"
                }
               }
              }
             },
             "400": {
              "description": "No payload",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            }
           }
          },
          "/api/v1/feed": {
           "get": {
            "operationId": "feed",
            "summary": "The timetable in service",
            "responses": {
             "200": {
              "description": "Feed name, hash, validity and import time",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Feed"
                }
               }
              },
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                }
               },
               "Cache-Control": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "304": {
              "description": "Not modified (If-None-Match named the ETag)"
             }
            }
           }
          },
          "/api/v1/stops/{id}/speech": {
           "get": {
            "operationId": "stopSpeech",
            "summary": "The stop view spoken (espeak-ng), as the kiosk says it: alerts first, then the next departures",
            "parameters": [
             {
              "name": "id",
              "in": "path",
              "description": "stop_id or stop_code (an exact stop_id wins); a station stands for its platforms",
              "schema": {
               "type": "string"
              },
              "required": true
             },
             {
              "name": "lang",
              "in": "query",
              "description": "es or en: the language spoken or written in the picture (default: Accept-Language, else the config)",
              "schema": {
               "type": "string",
               "enum": [
                "es",
                "en"
               ]
              }
             },
             {
              "name": "at",
              "in": "query",
              "description": "local date-time in the agency's time zone, e.g. 2026-11-25T08:00 (default: now, to the minute)",
              "schema": {
               "type": "string"
              }
             },
             {
              "name": "window",
              "in": "query",
              "description": "minutes of departures (1–1440, default from the config)",
              "schema": {
               "type": "integer",
               "minimum": 1,
               "maximum": 1440
              }
             },
             {
              "name": "detail",
              "in": "query",
              "description": "short (the next departures, default) or full (station, more times, first and last service)",
              "schema": {
               "type": "string",
               "enum": [
                "short",
                "full"
               ]
              }
             }
            ],
            "responses": {
             "200": {
              "description": "16-bit mono PCM WAV at the config's [speech] rate and volume",
              "content": {
               "audio/wav": {
                "schema": {
                 "type": "string",
                 "contentMediaType": "audio/wav"
                }
               }
              },
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                }
               },
               "Cache-Control": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "304": {
              "description": "Not modified (If-None-Match named the ETag)"
             },
             "400": {
              "description": "A bad at, window, detail or lang",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             },
             "404": {
              "description": "No such stop",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             },
             "503": {
              "description": "Speech synthesis unavailable on this server (espeak-ng or its voice missing) or busy (16 answers already waiting: ask again in a few seconds), or the timetable does not cover today",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            }
           }
          },
          "/api/v1/stops/{id}/map.svg": {
           "get": {
            "operationId": "stopMap",
            "summary": "The stop's map (SVG, no tiles): nearby stops with codes, the routes serving it from their shapes, a scale bar and a north arrow",
            "parameters": [
             {
              "name": "id",
              "in": "path",
              "description": "stop_id or stop_code (an exact stop_id wins); a station stands for its platforms",
              "schema": {
               "type": "string"
              },
              "required": true
             },
             {
              "name": "lang",
              "in": "query",
              "description": "es or en: the language spoken or written in the picture (default: Accept-Language, else the config)",
              "schema": {
               "type": "string",
               "enum": [
                "es",
                "en"
               ]
              }
             },
             {
              "name": "radius",
              "in": "query",
              "description": "metres around the stop for nearby stops (50–5000, default: the config's nearby radius)",
              "schema": {
               "type": "integer",
               "minimum": 50,
               "maximum": 5000
              }
             }
            ],
            "responses": {
             "200": {
              "description": "The stop map",
              "content": {
               "image/svg+xml": {
                "schema": {
                 "type": "string",
                 "description": "an SVG document with <title>, <desc> and the text of what it shows"
                }
               }
              },
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                }
               },
               "Cache-Control": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "304": {
              "description": "Not modified (If-None-Match named the ETag)"
             },
             "400": {
              "description": "A bad radius or lang, or a stop without coordinates",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             },
             "404": {
              "description": "No such stop",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            }
           }
          },
          "/api/v1/routes/{id}/diagram.svg": {
           "get": {
            "operationId": "routeDiagram",
            "summary": "One direction of a route as a line diagram (SVG): its stops in travel order, transfers with the other routes' badges",
            "parameters": [
             {
              "name": "id",
              "in": "path",
              "description": "route_id, or a short name that only one route has",
              "schema": {
               "type": "string"
              },
              "required": true
             },
             {
              "name": "direction",
              "in": "query",
              "description": "direction_id, 0 or 1 (default: the one serving stop, else the first)",
              "schema": {
               "type": "integer",
               "minimum": 0,
               "maximum": 1
              }
             },
             {
              "name": "stop",
              "in": "query",
              "description": "the viewer's stop (ID or code), highlighted",
              "schema": {
               "type": "string"
              }
             },
             {
              "name": "lang",
              "in": "query",
              "description": "es or en: the language spoken or written in the picture (default: Accept-Language, else the config)",
              "schema": {
               "type": "string",
               "enum": [
                "es",
                "en"
               ]
              }
             }
            ],
            "responses": {
             "200": {
              "description": "The line diagram",
              "content": {
               "image/svg+xml": {
                "schema": {
                 "type": "string",
                 "description": "an SVG document with <title>, <desc> and the text of what it shows"
                }
               }
              },
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                }
               },
               "Cache-Control": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "304": {
              "description": "Not modified (If-None-Match named the ETag)"
             },
             "400": {
              "description": "A bad direction or lang",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             },
             "404": {
              "description": "No such route or stop, or the route has no stops in that direction",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            }
           }
          },
          "/api/v1/plan/map.svg": {
           "get": {
            "operationId": "journeyMap",
            "summary": "One option of a journey plan as a map (SVG): rides along their shapes, walks dashed, boarding, transfer and arrival points numbered as in the plan",
            "parameters": [
             {
              "name": "from",
              "in": "query",
              "description": "stop ID, code, label URL or name",
              "schema": {
               "type": "string"
              },
              "required": true
             },
             {
              "name": "to",
              "in": "query",
              "description": "stop ID, code, label URL or name",
              "schema": {
               "type": "string"
              },
              "required": true
             },
             {
              "name": "at",
              "in": "query",
              "description": "local date-time in the agency's time zone, e.g. 2026-11-25T08:00 (default: now, to the minute)",
              "schema": {
               "type": "string"
              }
             },
             {
              "name": "max_transfers",
              "in": "query",
              "description": "0–8 (default from the config)",
              "schema": {
               "type": "integer",
               "minimum": 0,
               "maximum": 8
              }
             },
             {
              "name": "option",
              "in": "query",
              "description": "which option of the plan, from 1 (default 1)",
              "schema": {
               "type": "integer",
               "minimum": 1,
               "maximum": 20
              }
             },
             {
              "name": "lang",
              "in": "query",
              "description": "es or en: the language spoken or written in the picture (default: Accept-Language, else the config)",
              "schema": {
               "type": "string",
               "enum": [
                "es",
                "en"
               ]
              }
             }
            ],
            "responses": {
             "200": {
              "description": "The journey map",
              "content": {
               "image/svg+xml": {
                "schema": {
                 "type": "string",
                 "description": "an SVG document with <title>, <desc> and the text of what it shows"
                }
               }
              },
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                }
               },
               "Cache-Control": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "304": {
              "description": "Not modified (If-None-Match named the ETag)"
             },
             "400": {
              "description": "A missing from or to, a bad at, option or lang",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             },
             "404": {
              "description": "No such stop, no journey, or no such option",
              "content": {
               "application/problem+json": {
                "schema": {
                 "$ref": "#/components/schemas/Problem"
                }
               }
              }
             }
            }
           }
          },
          "/api/v1/openapi.json": {
           "get": {
            "operationId": "openapi",
            "summary": "This document",
            "responses": {
             "200": {
              "description": "OpenAPI 3.1",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          }
         },
         "components": {
          "schemas": {
           "Time": {
            "type": "string",
            "description": "ISO 8601 with the agency's UTC offset",
            "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(Z|[+-]\\d{2}:\\d{2})$"
           },
           "Wheelchair": {
            "type": "string",
            "enum": [
             "unknown",
             "accessible",
             "not_accessible"
            ]
           },
           "StopInfo": {
            "type": "object",
            "required": [
             "id",
             "name",
             "location_type",
             "wheelchair_boarding"
            ],
            "properties": {
             "id": {
              "type": "string"
             },
             "code": {
              "type": "string"
             },
             "name": {
              "type": "string"
             },
             "parent_station_id": {
              "type": "string"
             },
             "parent_station_name": {
              "type": "string"
             },
             "platform_code": {
              "type": "string"
             },
             "wheelchair_boarding": {
              "$ref": "#/components/schemas/Wheelchair"
             },
             "latitude": {
              "type": "number"
             },
             "longitude": {
              "type": "number"
             },
             "location_type": {
              "type": "integer",
              "description": "0 stop or platform, 1 station, 2 entrance (GTFS location_type)"
             }
            }
           },
           "Route": {
            "type": "object",
            "required": [
             "id",
             "mode",
             "agency"
            ],
            "properties": {
             "id": {
              "type": "string"
             },
             "short_name": {
              "type": "string"
             },
             "long_name": {
              "type": "string"
             },
             "mode": {
              "type": "string"
             },
             "color": {
              "type": "string",
              "pattern": "^.*$",
              "description": "six hex digits as in the feed (unchecked)"
             },
             "text_color": {
              "type": "string"
             },
             "agency": {
              "type": "string"
             }
            }
           },
           "Departure": {
            "type": "object",
            "required": [
             "route",
             "headsign",
             "time",
             "minutes_from_now",
             "trip_id",
             "service_date",
             "scheduled_time",
             "wheelchair_accessible",
             "stop_id",
             "approximate"
            ],
            "properties": {
             "route": {
              "$ref": "#/components/schemas/Route"
             },
             "headsign": {
              "type": "string"
             },
             "direction_id": {
              "type": "integer"
             },
             "time": {
              "$ref": "#/components/schemas/Time"
             },
             "minutes_from_now": {
              "type": "integer"
             },
             "trip_id": {
              "type": "string"
             },
             "service_date": {
              "type": "string",
              "format": "date"
             },
             "scheduled_time": {
              "type": "string",
              "pattern": "^\\d{2,3}:\\d{2}:\\d{2}$"
             },
             "wheelchair_accessible": {
              "$ref": "#/components/schemas/Wheelchair"
             },
             "stop_id": {
              "type": "string"
             },
             "platform_code": {
              "type": "string"
             },
             "approximate": {
              "type": "boolean"
             },
             "realtime": {
              "type": "object",
              "description": "live state and prediction, present when the server has live data"
             }
            }
           },
           "StopView": {
            "type": "object",
            "required": [
             "stop",
             "platforms",
             "at",
             "window_minutes",
             "time_zone",
             "service_date",
             "routes",
             "departures",
             "service_spans",
             "nearby",
             "nearby_radius_meters"
            ],
            "description": "The stop view: the same JSON `kiosk lookup --json` prints, byte for byte. Fields are added, never renamed.",
            "properties": {
             "stop": {
              "$ref": "#/components/schemas/StopInfo"
             },
             "platforms": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/StopInfo"
              }
             },
             "at": {
              "$ref": "#/components/schemas/Time"
             },
             "window_minutes": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1440
             },
             "time_zone": {
              "type": "string"
             },
             "service_date": {
              "type": "string",
              "format": "date"
             },
             "routes": {
              "type": "array",
              "items": {
               "type": "object",
               "required": [
                "route",
                "directions"
               ],
               "properties": {
                "route": {
                 "$ref": "#/components/schemas/Route"
                },
                "directions": {
                 "type": "array",
                 "items": {
                  "type": "object",
                  "required": [
                   "headsigns"
                  ],
                  "properties": {
                   "direction_id": {
                    "type": "integer"
                   },
                   "headsigns": {
                    "type": "array",
                    "items": {
                     "type": "string"
                    }
                   }
                  }
                 }
                }
               }
              }
             },
             "departures": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/Departure"
              }
             },
             "service_spans": {
              "type": "array",
              "items": {
               "type": "object",
               "required": [
                "route",
                "headsigns",
                "first",
                "last"
               ],
               "properties": {
                "route": {
                 "$ref": "#/components/schemas/Route"
                },
                "direction_id": {
                 "type": "integer"
                },
                "headsigns": {
                 "type": "array",
                 "items": {
                  "type": "string"
                 }
                },
                "first": {
                 "$ref": "#/components/schemas/Time"
                },
                "last": {
                 "$ref": "#/components/schemas/Time"
                }
               }
              }
             },
             "next_departure": {
              "$ref": "#/components/schemas/Departure"
             },
             "nearby": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/NearbyStop"
              }
             },
             "nearby_radius_meters": {
              "type": "integer"
             },
             "alerts": {
              "type": "array",
              "items": {
               "type": "object"
              },
              "description": "service alerts in force (live data only)"
             },
             "realtime_age_seconds": {
              "type": "integer"
             }
            }
           },
           "NearbyStop": {
            "type": "object",
            "required": [
             "stop",
             "distance_meters",
             "direction",
             "routes"
            ],
            "properties": {
             "stop": {
              "$ref": "#/components/schemas/StopInfo"
             },
             "distance_meters": {
              "type": "integer",
              "minimum": 0
             },
             "direction": {
              "type": "string",
              "enum": [
               "N",
               "NE",
               "E",
               "SE",
               "S",
               "SW",
               "W",
               "NW"
              ]
             },
             "routes": {
              "type": "array",
              "items": {
               "type": "string"
              }
             }
            }
           },
           "JourneyStep": {
            "type": "object",
            "required": [
             "kind",
             "from",
             "to",
             "departure",
             "arrival",
             "minutes"
            ],
            "properties": {
             "kind": {
              "type": "string",
              "enum": [
               "walk",
               "ride"
              ]
             },
             "from": {
              "$ref": "#/components/schemas/StopInfo"
             },
             "to": {
              "$ref": "#/components/schemas/StopInfo"
             },
             "departure": {
              "$ref": "#/components/schemas/Time"
             },
             "arrival": {
              "$ref": "#/components/schemas/Time"
             },
             "minutes": {
              "type": "integer"
             },
             "route": {
              "$ref": "#/components/schemas/Route"
             },
             "headsign": {
              "type": "string"
             },
             "trip_id": {
              "type": "string"
             },
             "service_date": {
              "type": "string",
              "format": "date"
             },
             "stops": {
              "type": "integer"
             }
            }
           },
           "JourneyPlan": {
            "type": "object",
            "required": [
             "from",
             "to",
             "at",
             "time_zone",
             "max_transfers",
             "walk_radius_meters",
             "options",
             "routes_at_origin",
             "routes_at_destination"
            ],
            "description": "The journey plan: the same JSON `kiosk plan --json` prints, byte for byte.",
            "properties": {
             "from": {
              "$ref": "#/components/schemas/StopInfo"
             },
             "to": {
              "$ref": "#/components/schemas/StopInfo"
             },
             "at": {
              "$ref": "#/components/schemas/Time"
             },
             "time_zone": {
              "type": "string"
             },
             "max_transfers": {
              "type": "integer"
             },
             "walk_radius_meters": {
              "type": "integer"
             },
             "options": {
              "type": "array",
              "items": {
               "type": "object",
               "required": [
                "departure",
                "arrival",
                "duration_minutes",
                "transfers",
                "legs"
               ],
               "properties": {
                "departure": {
                 "$ref": "#/components/schemas/Time"
                },
                "arrival": {
                 "$ref": "#/components/schemas/Time"
                },
                "duration_minutes": {
                 "type": "integer"
                },
                "transfers": {
                 "type": "integer"
                },
                "legs": {
                 "type": "array",
                 "items": {
                  "$ref": "#/components/schemas/JourneyStep"
                 }
                }
               }
              }
             },
             "routes_at_origin": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/Route"
              }
             },
             "routes_at_destination": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/Route"
              }
             }
            }
           },
           "StopSearch": {
            "type": "object",
            "required": [
             "query",
             "stops"
            ],
            "properties": {
             "query": {
              "type": "string"
             },
             "stops": {
              "type": "array",
              "items": {
               "type": "object",
               "required": [
                "stop",
                "match",
                "page"
               ],
               "properties": {
                "stop": {
                 "$ref": "#/components/schemas/StopInfo"
                },
                "match": {
                 "type": "string",
                 "enum": [
                  "id_or_code",
                  "exact",
                  "prefix",
                  "word_prefix",
                  "contains"
                 ]
                },
                "page": {
                 "type": "string",
                 "description": "the stop's phone page"
                }
               }
              }
             }
            }
           },
           "StopsNear": {
            "type": "object",
            "required": [
             "near",
             "radius_meters",
             "stops"
            ],
            "properties": {
             "near": {
              "type": "object",
              "required": [
               "latitude",
               "longitude"
              ],
              "properties": {
               "latitude": {
                "type": "number"
               },
               "longitude": {
                "type": "number"
               }
              }
             },
             "radius_meters": {
              "type": "integer"
             },
             "stops": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/NearbyStop"
              }
             }
            }
           },
           "Resolution": {
            "type": "object",
            "required": [
             "status",
             "text",
             "detail",
             "stop",
             "reference",
             "links"
            ],
            "properties": {
             "status": {
              "type": "string",
              "enum": [
               "stop",
               "not_a_stop_code",
               "forged",
               "signature_required",
               "unknown_stop"
              ]
             },
             "text": {
              "type": "string",
              "description": "the payload made safe for display"
             },
             "detail": {
              "type": [
               "string",
               "null"
              ]
             },
             "stop": {
              "oneOf": [
               {
                "type": "null"
               },
               {
                "type": "object",
                "required": [
                 "id",
                 "name"
                ],
                "properties": {
                 "id": {
                  "type": "string"
                 },
                 "code": {
                  "type": "string"
                 },
                 "name": {
                  "type": "string"
                 },
                 "platforms": {
                  "type": "array",
                  "items": {
                   "type": "string"
                  }
                 }
                }
               }
              ]
             },
             "reference": {
              "oneOf": [
               {
                "type": "null"
               },
               {
                "type": "object",
                "required": [
                 "kind",
                 "value",
                 "signature",
                 "source"
                ],
                "properties": {
                 "kind": {
                  "type": "string",
                  "enum": [
                   "stop_code",
                   "stop_id",
                   "code_or_id"
                  ]
                 },
                 "value": {
                  "type": "string"
                 },
                 "signature": {
                  "type": "string",
                  "enum": [
                   "verified",
                   "unsigned",
                   "not_checked"
                  ]
                 },
                 "key_id": {
                  "type": "string"
                 },
                 "source": {
                  "type": "string",
                  "enum": [
                   "own_label",
                   "foreign_label",
                   "bare"
                  ]
                 }
                }
               }
              ]
             },
             "links": {
              "oneOf": [
               {
                "type": "null"
               },
               {
                "type": "object",
                "required": [
                 "stop",
                 "page"
                ],
                "properties": {
                 "stop": {
                  "type": "string"
                 },
                 "page": {
                  "type": "string"
                 }
                }
               }
              ]
             }
            }
           },
           "Feed": {
            "type": "object",
            "required": [
             "feed_name",
             "feed_id",
             "feed_hash",
             "imported_at",
             "service_start",
             "service_end",
             "time_zone",
             "database_generation"
            ],
            "properties": {
             "feed_name": {
              "type": "string"
             },
             "feed_id": {
              "type": "string"
             },
             "feed_hash": {
              "type": "string"
             },
             "imported_at": {
              "type": [
               "string",
               "null"
              ]
             },
             "service_start": {
              "type": [
               "string",
               "null"
              ]
             },
             "service_end": {
              "type": [
               "string",
               "null"
              ]
             },
             "time_zone": {
              "type": "string"
             },
             "database_generation": {
              "type": "integer",
              "minimum": 0,
              "description": "times the database was replaced under the running server"
             }
            }
           },
           "Problem": {
            "type": "object",
            "required": [
             "type",
             "title",
             "status",
             "detail"
            ],
            "description": "RFC 9457 problem details",
            "properties": {
             "type": {
              "type": "string"
             },
             "title": {
              "type": "string"
             },
             "status": {
              "type": "integer"
             },
             "detail": {
              "type": "string"
             },
             "instance": {
              "type": "string"
             },
             "suggestions": {
              "type": "array",
              "items": {
               "type": "object",
               "required": [
                "id",
                "name"
               ],
               "properties": {
                "id": {
                 "type": "string"
                },
                "code": {
                 "type": "string"
                },
                "name": {
                 "type": "string"
                }
               }
              }
             }
            }
           },
           "Health": {
            "type": "object",
            "required": [
             "status",
             "feed_hash"
            ],
            "properties": {
             "status": {
              "type": "string",
              "enum": [
               "ok"
              ]
             },
             "feed_hash": {
              "type": "string"
             }
            }
           }
          }
         }
        }
        """#
}
