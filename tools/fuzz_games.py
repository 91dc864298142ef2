"""What the fuzz knows of each turn-based game, read from the OpenAPI document the server
generates, so that a game added to the registry needs no edit here or in the hooks.

Each game's create operation (`POST /v1/{game}/games`) carries the game's own example
(`TurnGame::example`) as the request example `two_humans`, and its move operation the examples
`first`, `second` and `resign` (when it has one).

Command line (tools/schemathesis.sh), the document on stdin:
  fuzz_games.py kinds                 the games, one per line
  fuzz_games.py body KIND OPEN        a create body: two seats, the second open when OPEN is 1
"""

import json
import re
import sys

CREATE = re.compile(r"^/v1/([a-z_-]+)/games$")


def kinds(doc: dict) -> list[str]:
    """Every turn-based game the document lists."""
    return [m.group(1) for p in doc.get("paths", {}) for m in [CREATE.match(p)] if m]


def _body_content(doc: dict, path: str) -> dict:
    operation = doc.get("paths", {}).get(path, {}).get("post", {})
    return operation.get("requestBody", {}).get("content", {}).get("application/json", {})


def _example(content: dict, name: str):
    return content.get("examples", {}).get(name, {}).get("value")


def resolve(doc: dict, schema: dict) -> dict:
    """`schema`, or the component it refers to."""
    while isinstance(schema, dict) and "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema if isinstance(schema, dict) else {}


def create_example(doc: dict, kind: str) -> dict:
    """The game's example create body (two human seats)."""
    return _example(_body_content(doc, f"/v1/{kind}/games"), "two_humans") or {}


def options_schema(doc: dict, kind: str) -> dict:
    return resolve(doc, _body_content(doc, f"/v1/{kind}/games").get("schema", {}))


def move_example(doc: dict, kind: str, name: str):
    """The game's move example `name` (`first`, `second`, `resign`), or None."""
    return _example(_body_content(doc, f"/v1/{kind}/games/{{id}}/moves"), name)


def create_body(doc: dict, kind: str, open_seat: bool) -> dict:
    """A two-seat game of `kind`, the second seat open for `join` when asked. A whole-number
    option the game's example sets (Go's board size) takes its largest value, so that every
    point a move's schema allows is on the board; the example's other options (a deal fixed in
    advance, which an open seat refuses) are left out."""
    second = {"open": True} if open_seat else {"name": "fuzz-b"}
    body: dict = {"players": [{"name": "fuzz-a"}, second]}
    properties = options_schema(doc, kind).get("properties", {})
    for key, value in create_example(doc, kind).items():
        schema = resolve(doc, properties.get(key, {}))
        if isinstance(value, int) and not isinstance(value, bool) and "maximum" in schema:
            body[key] = schema["maximum"]
    return body


def main(argv: list[str]) -> int:
    doc = json.load(sys.stdin)
    if argv[1:2] == ["kinds"]:
        print("\n".join(kinds(doc)))
    elif argv[1:2] == ["body"] and len(argv) == 4:
        print(json.dumps(create_body(doc, argv[2], argv[3] == "1")))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
