#!/usr/bin/env python3
"""Checks `kiosk serve`'s OpenAPI document against the server that serves it.

Usage: check_openapi.py BASE_URL [--expired EXPIRED_URL]
  BASE_URL: a server on the bundled sample network (e.g. http://127.0.0.1:8080)
  EXPIRED_URL: the same network served with a clock past its calendar (kiosk serve --at 2028-03-01T08:00), whose
  answers without at= are 503s

1. The document at /api/v1/openapi.json is a valid OpenAPI 3.1 document (openapi-spec-validator).
2. Every request below is sent; the status must be one the document lists for that path, and the body must
   validate against that response's schema (openapi-schema-validator, OAS 3.1 dialect). Headers the response
   documents as required must be there, and every documented header that is there must match its schema.
3. Other methods (OTHER_METHODS) are checked against `x-other-methods`, the document's 405 for every path.
4. Every path in the document is exercised (a new endpoint without a request here fails the check).
Exit 0 when all hold; 1 with every failure listed otherwise.
"""
import json
import re
import sys
import urllib.error
import urllib.request
from xml.etree import ElementTree

from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate

# (path template, request target, extra headers, expected status)
REQUESTS = [
    ("/health", "/health", {}, 200),
    ("/api/v1/stops/{id}", "/api/v1/stops/1091?at=2026-11-25T08:00&window=30", {}, 200),
    ("/api/v1/stops/{id}", "/api/v1/stops/MQ09?at=2026-11-25T23:50&window=5", {}, 200),
    ("/api/v1/stops/{id}", "/api/v1/stops/1091?at=never", {}, 400),
    ("/api/v1/stops/{id}", "/api/v1/stops/1091?at=0001-01-01T00:00", {}, 400),
    ("/api/v1/stops/{id}", "/api/v1/stops/1019", {}, 404),
    ("/api/v1/stops/{id}", "/api/v1/stops/1091?at=2026-11-25T08:00", "ETAG", 304),
    ("/api/v1/stops", "/api/v1/stops?q=cumbaya", {}, 200),
    ("/api/v1/stops", "/api/v1/stops?near=-0.2085,-78.4996&radius=500", {}, 200),
    ("/api/v1/stops", "/api/v1/stops", {}, 400),
    ("/api/v1/plan", "/api/v1/plan?from=1091&to=Cumbay%C3%A1&at=2026-11-25T08:00", {}, 200),
    ("/api/v1/plan", "/api/v1/plan?from=1091&to=1011&at=2026-11-25T08:00&max_transfers=0", {}, 200),
    ("/api/v1/plan", "/api/v1/plan?from=1091&to=1091", {}, 400),
    ("/api/v1/plan", "/api/v1/plan?from=1091&to=nowhere-at-all", {}, 404),
    ("/api/v1/resolve", "/api/v1/resolve?payload=https%3A%2F%2Ftransit.example%2Fs%2F1091", {}, 200),
    ("/api/v1/resolve", "/api/v1/resolve?payload=WIFI%3AS%3Ax%3B%3B", {}, 200),
    ("/api/v1/resolve", "/api/v1/resolve?payload=https%3A%2F%2Ftransit.example%2Fs%2F1091%3Fk%3D00%26s%3Dx", {}, 200),
    ("/api/v1/resolve", "/api/v1/resolve", {}, 400),
    ("/api/v1/feed", "/api/v1/feed", {}, 200),
    ("/api/v1/openapi.json", "/api/v1/openapi.json", {}, 200),
    ("/api/v1/stops/{id}/speech", "/api/v1/stops/1091/speech?at=2026-11-25T08:00&lang=en", {}, 200),
    ("/api/v1/stops/{id}/speech", "/api/v1/stops/1091/speech?at=2026-11-25T08:00&detail=full", {}, 200),
    ("/api/v1/stops/{id}/speech", "/api/v1/stops/1091/speech?detail=everything", {}, 400),
    ("/api/v1/stops/{id}/speech", "/api/v1/stops/1019/speech", {}, 404),
    ("/api/v1/stops/{id}/map.svg", "/api/v1/stops/1091/map.svg?lang=en", {}, 200),
    ("/api/v1/stops/{id}/map.svg", "/api/v1/stops/1091/map.svg?lang=en&legend=none", {}, 200),
    ("/api/v1/stops/{id}/map.svg", "/api/v1/stops/1091/map.svg?radius=5", {}, 400),
    ("/api/v1/stops/{id}/map.svg", "/api/v1/stops/1091/map.svg?legend=short", {}, 400),
    ("/api/v1/stops/{id}/map.svg", "/api/v1/stops/1019/map.svg", {}, 404),
    ("/api/v1/stops/{id}/map.svg", "/api/v1/stops/1091/map.svg", "ETAG", 304),
    ("/api/v1/routes/{id}/diagram.svg", "/api/v1/routes/L1/diagram.svg?stop=1091", {}, 200),
    ("/api/v1/routes/{id}/diagram.svg", "/api/v1/routes/L1/diagram.svg?direction=2", {}, 400),
    ("/api/v1/routes/{id}/diagram.svg", "/api/v1/routes/NO-SUCH-ROUTE/diagram.svg", {}, 404),
    ("/api/v1/agencies", "/api/v1/agencies", {}, 200),
    ("/api/v1/agencies", "/api/v1/agencies", "ETAG", 304),
    ("/api/v1/routes", "/api/v1/routes", {}, 200),
    ("/api/v1/routes", "/api/v1/routes?q=cumbaya", {}, 200),
    ("/api/v1/routes", "/api/v1/routes?agency=no-such-agency", {}, 400),
    ("/api/v1/routes", "/api/v1/routes?q=%2B%2B", {}, 400),
    ("/api/v1/routes/{id}", "/api/v1/routes/L1?date=2026-11-25", {}, 200),
    ("/api/v1/routes/{id}", "/api/v1/routes/L1?date=2026-11-25", "ETAG", 304),
    ("/api/v1/routes/{id}", "/api/v1/routes/L1?date=25-11-2026", {}, 400),
    ("/api/v1/routes/{id}", "/api/v1/routes/NO-SUCH-ROUTE", {}, 404),
    ("/api/v1/routes/{id}/map.svg", "/api/v1/routes/L1/map.svg?from=1091&lang=en", {}, 200),
    ("/api/v1/routes/{id}/map.svg", "/api/v1/routes/L1/map.svg?legend=none", {}, 200),
    ("/api/v1/routes/{id}/map.svg", "/api/v1/routes/L1/map.svg?legend=short", {}, 400),
    ("/api/v1/routes/{id}/map.svg", "/api/v1/routes/NO-SUCH-ROUTE/map.svg", {}, 404),
    ("/api/v1/plan/map.svg", "/api/v1/plan/map.svg?from=1091&to=1011&at=2026-11-25T08:00", {}, 200),
    ("/api/v1/plan/map.svg", "/api/v1/plan/map.svg?from=1091&to=1011&at=2026-11-25T08:00&legend=none", {}, 200),
    ("/api/v1/plan/map.svg", "/api/v1/plan/map.svg?from=1091", {}, 400),
    ("/api/v1/plan/map.svg", "/api/v1/plan/map.svg?from=1091&to=1011&legend=", {}, 400),
    ("/api/v1/plan/map.svg", "/api/v1/plan/map.svg?from=1091&to=1011&at=2026-11-25T08:00&option=20", {}, 404),
]

# (path template, method, request target): any method but GET and HEAD is the document's `x-other-methods` 405.
OTHER_METHODS = [
    ("/api/v1/stops/{id}", "TRACE", "/api/v1/stops/1091"),
    ("/api/v1/stops/{id}", "POST", "/api/v1/stops/1091"),
    ("/api/v1/plan", "DELETE", "/api/v1/plan?from=1091&to=1011"),
    ("/api/v1/feed", "PROPFIND", "/api/v1/feed"),
    ("/health", "OPTIONS", "/health"),
    ("/api/v1/stops/{id}/map.svg", "PUT", "/api/v1/stops/1091/map.svg"),
    (None, "PATCH", "/api/v1/no-such-thing"),
]

# Requests to the server whose clock is past the sample's calendar (--expired): 503 with Retry-After.
EXPIRED_REQUESTS = [
    ("/api/v1/stops/{id}", "/api/v1/stops/1091", {}, 503),
    ("/api/v1/plan", "/api/v1/plan?from=1091&to=1011", {}, 503),
    ("/api/v1/plan/map.svg", "/api/v1/plan/map.svg?from=1091&to=1011", {}, 503),
    ("/api/v1/stops/{id}/speech", "/api/v1/stops/1091/speech", {}, 503),
    ("/api/v1/routes/{id}", "/api/v1/routes/L1", {}, 503),
    ("/health", "/health", {}, 200),
]

# What a body of each non-JSON media type must be: a WAV's RIFF header, an SVG document that parses as XML.
def check_binary(media, body):
    if media == "audio/wav":
        return None if body[:4] == b"RIFF" and body[8:12] == b"WAVE" and len(body) > 44 else "not a WAV file"
    if media == "image/svg+xml":
        try:
            root = ElementTree.fromstring(body)
        except ElementTree.ParseError as error:
            return f"not well-formed XML: {error}"
        return None if root.tag.endswith("svg") else f"root element is {root.tag}, not svg"
    return f"no check for {media}"


def resolve(document, node):
    """A reference object ({"$ref": "#/components/responses/NotFound", "description": ...}) as the object it names;
    its own description and summary win, as OpenAPI 3.1 says."""
    while isinstance(node, dict) and "$ref" in node:
        target = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = {**target, **{k: v for k, v in node.items() if k in ("description", "summary")}}
    return node


def fetch(base, target, headers, method="GET"):
    request = urllib.request.Request(base + target, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def main():
    arguments = sys.argv[1:]
    expired = None
    if len(arguments) == 3 and arguments[1] == "--expired":
        expired = arguments.pop(2).rstrip("/")
        arguments.pop(1)
    if len(arguments) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    base = arguments[0].rstrip("/")
    status, _, body = fetch(base, "/api/v1/openapi.json", {})
    if status != 200:
        print(f"GET /api/v1/openapi.json: status {status}")
        return 1
    document = json.loads(body)
    validate(document)
    failures = []
    covered = set()
    for path, target, headers, expected in REQUESTS:
        if headers == "ETAG":
            _, first_headers, _ = fetch(base, target, {})
            headers = {"If-None-Match": first_headers.get("ETag", '"none"')}
        covered.add(path)
        failures += check(document, base, "GET", path, target, headers, expected)
    for path, method, target in OTHER_METHODS:
        failures += check(document, base, method, path, target, {}, 405)
    if expired:
        for path, target, headers, expected in EXPIRED_REQUESTS:
            failures += check(document, expired, "GET", path, target, headers, expected, " (expired clock)")
    for path in document["paths"]:
        if path not in covered:
            failures.append(f"{path}: documented but not exercised by this check")
    for failure in failures:
        print(failure)
    count = len(REQUESTS) + len(OTHER_METHODS) + (len(EXPIRED_REQUESTS) if expired else 0)
    on_expired = f" ({len(EXPIRED_REQUESTS)} on the expired clock)" if expired else ""
    print(f"{count} requests{on_expired}, {len(covered)} paths, {len(failures)} failures")
    return 1 if failures else 0


def check(document, base, method, path, target, headers, expected, note=""):
    """The failures of one request: its status, headers and body against what the document says of them. A GET
    is checked against the path's operation; another method against `x-other-methods`."""
    status, response_headers, body = fetch(base, target, headers, method)
    where = f"{method} {target}{note}"
    if status != expected:
        return [f"{where}: status {status}, expected {expected}: {body[:200]!r}"]
    if path is not None and path not in document["paths"]:
        return [f"{where}: {path} is not in the document"]
    if method == "GET":
        operation = document["paths"][path].get("get")
        if operation is None:
            return [f"{where}: {path} has no GET in the document"]
        responses = operation["responses"]
    else:
        responses = document.get("x-other-methods", {}).get("responses", {})
    response = resolve(document, responses.get(str(status)))
    if response is None:
        return [f"{where}: status {status} is not documented for {path or 'other methods'}"]
    failures = check_headers(where, response.get("headers", {}), response_headers)
    content = response.get("content")
    if not content:
        if body:
            failures.append(f"{where}: the document gives no body for {status}, the server sent {len(body)} bytes")
        return failures
    media = response_headers.get("Content-Type", "").split(";")[0].strip()
    if media not in content:
        return failures + [f"{where}: Content-Type {media} is not documented ({', '.join(content)})"]
    if not media.endswith("json"):
        problem = check_binary(media, body)
        return failures + ([f"{where}: {problem}"] if problem else [])
    schema = dict(content[media]["schema"])
    schema["components"] = document["components"]
    errors = sorted(OAS31Validator(schema).iter_errors(json.loads(body)), key=lambda e: list(e.path))
    return failures + [f"{where}: {'/'.join(map(str, e.path))}: {e.message[:200]}" for e in errors[:5]]


def check_headers(where, documented, received):
    """A documented header marked required must be sent; a documented header that is sent must match its schema
    (an integer schema takes the header's digits as a number)."""
    received = {name.lower(): value for name, value in received.items()}
    failures = []
    for name, header in documented.items():
        value = received.get(name.lower())
        if value is None:
            if header.get("required"):
                failures.append(f"{where}: header {name} is required by the document and missing")
            continue
        schema = header.get("schema", {})
        instance = int(value) if schema.get("type") == "integer" and re.fullmatch(r"-?[0-9]+", value) else value
        for error in OAS31Validator(schema).iter_errors(instance):
            failures.append(f"{where}: header {name}: {value!r}: {error.message[:200]}")
    return failures


if __name__ == "__main__":
    sys.exit(main())
