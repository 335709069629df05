#!/usr/bin/env python3
"""Checks `kiosk serve`'s OpenAPI document against the server that serves it.

Usage: check_openapi.py BASE_URL      (e.g. http://127.0.0.1:8080, a server on the bundled sample network)

1. The document at /api/v1/openapi.json is a valid OpenAPI 3.1 document (openapi-spec-validator).
2. Every request below is sent; the status must be one the document lists for that path, and the body must
   validate against that response's schema (openapi-schema-validator, OAS 3.1 dialect).
3. Every path in the document is exercised (a new endpoint without a request here fails the check).
Exit 0 when all hold; 1 with every failure listed otherwise.
"""
import json
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
    ("/api/v1/stops/{id}/map.svg", "/api/v1/stops/1091/map.svg?radius=5", {}, 400),
    ("/api/v1/stops/{id}/map.svg", "/api/v1/stops/1019/map.svg", {}, 404),
    ("/api/v1/stops/{id}/map.svg", "/api/v1/stops/1091/map.svg", "ETAG", 304),
    ("/api/v1/routes/{id}/diagram.svg", "/api/v1/routes/L1/diagram.svg?stop=1091", {}, 200),
    ("/api/v1/routes/{id}/diagram.svg", "/api/v1/routes/L1/diagram.svg?direction=2", {}, 400),
    ("/api/v1/routes/{id}/diagram.svg", "/api/v1/routes/NO-SUCH-ROUTE/diagram.svg", {}, 404),
    ("/api/v1/plan/map.svg", "/api/v1/plan/map.svg?from=1091&to=1011&at=2026-11-25T08:00", {}, 200),
    ("/api/v1/plan/map.svg", "/api/v1/plan/map.svg?from=1091", {}, 400),
    ("/api/v1/plan/map.svg", "/api/v1/plan/map.svg?from=1091&to=1011&at=2026-11-25T08:00&option=20", {}, 404),
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


def fetch(base, target, headers):
    request = urllib.request.Request(base + target, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    base = sys.argv[1].rstrip("/")
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
        status, response_headers, body = fetch(base, target, headers)
        covered.add(path)
        where = f"GET {target}"
        if status != expected:
            failures.append(f"{where}: status {status}, expected {expected}: {body[:200]!r}")
            continue
        operation = document["paths"].get(path, {}).get("get")
        if operation is None:
            failures.append(f"{where}: {path} is not in the document")
            continue
        response = resolve(document, operation["responses"].get(str(status)))
        if response is None:
            failures.append(f"{where}: status {status} is not documented for {path}")
            continue
        content = response.get("content")
        if not content:
            if body:
                failures.append(f"{where}: the document gives no body for {status}, the server sent {len(body)} bytes")
            continue
        media = response_headers.get("Content-Type", "").split(";")[0].strip()
        if media not in content:
            failures.append(f"{where}: Content-Type {media} is not documented ({', '.join(content)})")
            continue
        if not media.endswith("json"):
            problem = check_binary(media, body)
            if problem:
                failures.append(f"{where}: {problem}")
            continue
        schema = dict(content[media]["schema"])
        schema["components"] = document["components"]
        errors = sorted(OAS31Validator(schema).iter_errors(json.loads(body)), key=lambda e: list(e.path))
        for error in errors[:5]:
            failures.append(f"{where}: {'/'.join(map(str, error.path))}: {error.message[:200]}")
    for path in document["paths"]:
        if path not in covered:
            failures.append(f"{path}: documented but not exercised by this check")
    for failure in failures:
        print(failure)
    print(f"{len(REQUESTS)} requests, {len(covered)} paths, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
