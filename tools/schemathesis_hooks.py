"""Schemathesis hooks for tools/schemathesis.sh.

- Explicit OpenAPI links, added to the document as it is loaded: a created game or deck leads to
  the routes of that game or deck, and a move or a draw to the next one, so the stateful phase
  plays real sequences. (Inferred links are off in tools/schemathesis.toml: schemathesis inferred
  "create game -> GET /v1/players/{name}" from a player name in the body, a link that does not
  exist.)
- Routes that need a seat token answer 401/403 to every random token and 404 to every random game
  id, and deck routes 404 to random deck ids, so on their own they are fuzzed only up to that
  check. Most such requests get a real game of the route's kind (with one of its seat tokens) or a
  real deck (with a card drawn first, so undo and reselect have one to act on): the ones the script
  created (PARLOR_FUZZ_GAMES="game/id:token:token,...", PARLOR_FUZZ_DECKS="id:token,...", with each deck's owner token) and every one
  the run creates. Every turn game in the document is covered: its routes are found by their paths,
  and what the hooks know of it (its create body, its resignation) is the game's own example in
  the document (tools/fuzz_games.py), so a game added to the registry needs no edit here.
  A `redo` comes after a move taken back, so that it has something to replay.
- Half of the moves are the AI's hint for the seat to act, so that games go on (random moves are
  nearly all unplayable).
  The choices come from SCHEMATHESIS_SEED, so a run replays.
- Fuzzing `end`, `resign` or `join` uses up a game (it ends, or its open seat is taken), after which
  every move on it is refused and a run learns nothing: those requests get a game created for them,
  and the other routes get a game that is still being played (a new one when none is left).
- What a schema cannot say is made plausible, so valid data is not refused for it: a schema-valid
  list in a create body that the game's example fills (UNO's `deck`) becomes the example's list
  shuffled (without a seed beside it), a free-form report parameter (Go's `dead` stones) is
  mostly left out, and a poker card repeated among the hands becomes one not yet used. Data that
  breaks the schema is left as it is, so the negative cases stay negative.
- AI asks think briefly (the run learns nothing more from 10 s thinks).
"""

import json
import os
import random
import re
import unicodedata

import requests
import schemathesis

import fuzz_games

BASE = os.environ.get("PARLOR_FUZZ_BASE", "")
# Games by kind ("gomoku", "go", "uno"), then by id: their seat tokens.
GAMES: dict[str, dict[str, list[str]]] = {}
for entry in filter(None, os.environ.get("PARLOR_FUZZ_GAMES", "").split(",")):
    kind_and_id, *tokens = entry.split(":")
    kind, game_id = kind_and_id.split("/")
    GAMES.setdefault(kind, {})[game_id] = tokens
# Deck id -> its owner token (every deck route needs it).
DECKS: dict[str, str] = dict(
    entry.split(":", 1) for entry in filter(None, os.environ.get("PARLOR_FUZZ_DECKS", "").split(","))
)

RNG = random.Random(int(os.environ.get("SCHEMATHESIS_SEED", "0")))
# The document as the server generated it (before the hooks add links): the games' examples.
DOC: dict = {}
# Names the run registered (canonical form): a random create or join naming one is refused (403,
# rightly: only the player's key seats them), so those requests are given a guest's name instead.
REGISTERED: set[str] = set()
# Registered names the run holds the current key of, for `POST /v1/players/{name}/key`
# (PARLOR_FUZZ_KEYS="name:key,…" from the script, then every player the run registers).
KEYS: dict[str, str] = dict(
    entry.split(":", 1) for entry in filter(None, os.environ.get("PARLOR_FUZZ_KEYS", "").split(","))
)
PLAYER_KEY = "/v1/players/{name}/key"


def _canonical(name: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


REGISTERED.update(_canonical(name) for name in KEYS)

# A share of the requests keeps what schemathesis generated (a random token, none, a foreign id),
# so the 401/403/404 paths stay fuzzed too.
KEEP_GENERATED = 0.2

DECK = "/v1/poker/decks/{id}"
SEEK = "/v1/seeks/{id}"
SEEK_CREATE = re.compile(r"^/v1/[a-z_-]+/seeks$")
CREATE = re.compile(r"^/v1/([a-z_-]+)/games$")
GAME_PATH = re.compile(r"^/v1/([a-z_-]+)/games/\{id\}")


def _ref(path: str, method: str) -> str:
    return "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method


def _link(target_path: str, method: str, id_from: str) -> dict:
    return {"operationRef": _ref(target_path, method), "parameters": {"path.id": id_from}}


def _add_links(paths: dict, source: tuple[str, str, str], targets: list[tuple[str, str]], id_from: str) -> None:
    path, method, status = source
    response = paths.get(path, {}).get(method, {}).get("responses", {}).get(status)
    if response is None:
        return
    links = response.setdefault("links", {})
    for target_path, target_method in targets:
        if target_method in paths.get(target_path, {}):
            name = f"{target_method.upper()} {target_path}"
            links[name] = _link(target_path, target_method, id_from)


DECK_ROUTES = [(DECK, "get"), (DECK + "/draw", "post"), (DECK + "/undo", "post"), (DECK + "/reselect", "post"), (DECK + "/shuffle", "post")]


@schemathesis.hook
def before_load_schema(context, raw_schema):
    DOC.update(json.loads(json.dumps(raw_schema)))
    paths = raw_schema.get("paths", {})
    for create in [p for p in paths if CREATE.match(p)]:
        game = create + "/{id}"
        routes = [
            (path, method)
            for path, item in paths.items()
            if path == game or path.startswith(game + "/")
            for method in item
            if method in ("get", "post")
        ]
        _add_links(paths, (create, "post", "201"), routes, "$response.body#/id")
        for path, method in routes:
            if method == "post":
                _add_links(paths, (path, method, "200"), routes, "$request.path.id")
    _add_links(paths, ("/v1/poker/decks", "post", "201"), DECK_ROUTES, "$response.body#/id")
    for path, method in DECK_ROUTES[1:]:
        _add_links(paths, (path, method, "200"), DECK_ROUTES, "$request.path.id")


@schemathesis.hook
def after_call(context, case, response):
    if case.method.upper() == "POST" and case.path == PLAYER_KEY and response.status_code == 200:
        KEYS[case.path_parameters["name"]] = response.json()["key"]  # the old key is gone
        return
    if case.method.upper() != "POST" or response.status_code != 201:
        return
    body = response.json()
    created = CREATE.match(case.path)
    if created:
        tokens = [t["token"] for t in body.get("tokens", []) if t.get("token")]
        if tokens:
            GAMES.setdefault(created.group(1), {})[body["id"]] = tokens
    elif case.path == "/v1/poker/decks":
        DECKS[body["id"]] = body["token"]
    elif case.path == "/v1/players" and isinstance(body.get("name"), str):
        REGISTERED.add(_canonical(body["name"]))
        KEYS[body["name"]] = body["key"]


def _create_game(kind: str, open_seat: bool) -> str | None:
    """A new two-seat game of `kind` (the second seat open for `join`), remembered with its tokens."""
    if not BASE:
        return None
    body = fuzz_games.create_body(DOC, kind, open_seat)
    try:
        created = requests.post(f"{BASE}/v1/{kind}/games", json=body, timeout=10).json()
    except (requests.RequestException, ValueError):
        return None
    tokens = [t["token"] for t in created.get("tokens", []) if t.get("token")]
    if "id" not in created or not tokens:
        return None
    GAMES.setdefault(kind, {})[created["id"]] = tokens
    return created["id"]


def _game(kind: str, game_id: str, token: str | None = None) -> dict:
    """The game as a spectator (or, with `token`, its seat) sees it; empty when it cannot be read."""
    headers = {"Authorization": "Bearer " + token} if token else {}
    try:
        game = requests.get(f"{BASE}/v1/{kind}/games/{game_id}", headers=headers, timeout=10).json()
    except (requests.RequestException, ValueError):
        return {}
    return game if isinstance(game, dict) else {}


def _token_to_act(kind: str, game_id: str) -> str | None:
    """The seat token of the seat to act, if it is a human seat the run holds a token for."""
    tokens = GAMES[kind].get(game_id, [])
    turn = _game(kind, game_id).get("turn")
    if not isinstance(turn, int) or turn >= len(tokens) or not tokens[turn]:
        return None
    return tokens[turn]


def _is_being_played(kind: str, game_id: str) -> bool:
    return _game(kind, game_id).get("status") == "active"


def _uses_up_the_game(case, kind: str) -> bool:
    if case.path.endswith(("/end", "/join")):
        return True
    resign = fuzz_games.move_example(DOC, kind, "resign")
    return case.path.endswith("/moves") and resign is not None and _same(case.body, resign)


def _same(value, example) -> bool:
    """`value` is `example`, but for the case of its words (`{"move": "RESIGN"}`)."""
    if isinstance(value, str) and isinstance(example, str):
        return value.lower() == example.lower()
    if isinstance(value, dict) and isinstance(example, dict):
        return value.keys() == example.keys() and all(_same(value[k], example[k]) for k in example)
    return value == example


def _live_game(kind: str, case) -> str | None:
    """A game for this request: a new one when the request uses it up, else a game still being
    played (a new one when every known game is over)."""
    if not BASE:
        return RNG.choice(sorted(GAMES[kind]))
    if _uses_up_the_game(case, kind):
        return _create_game(kind, open_seat=case.path.endswith("/join"))
    candidates = sorted(GAMES[kind])
    RNG.shuffle(candidates)
    for game_id in candidates[:4]:
        if _is_being_played(kind, game_id):
            return game_id
        del GAMES[kind][game_id]  # over for good: stop picking it
    return _create_game(kind, open_seat=False)


def _use_a_real_game(case, kind: str) -> None:
    game_id = _live_game(kind, case) or RNG.choice(sorted(GAMES[kind]))
    case.path_parameters["id"] = game_id
    if case.headers is None:
        case.headers = {}
    case.headers["Authorization"] = "Bearer " + RNG.choice(GAMES[kind][game_id])
    if case.path.endswith("/redo"):
        _something_to_redo(kind, game_id)
    if "If-Match" in case.headers:
        _the_current_version(case, kind, game_id)


def _something_to_redo(kind: str, game_id: str) -> None:
    """A move played and taken back first (the AI's move for the seat to move; then both seats
    ask for the undo: between humans one proposes and the other agrees), so that `redo` has one
    to replay: without it nearly every redo is a 409 and the route's real work is never fuzzed."""
    if not BASE:
        return
    url = f"{BASE}/v1/{kind}/games/{game_id}"
    try:
        to_act = _token_to_act(kind, game_id)
        if to_act:
            think = {"level": "easy", "time_ms": 20, "apply": True}
            requests.post(f"{url}/ai-move", json=think, headers={"Authorization": "Bearer " + to_act}, timeout=10)
        for token in GAMES[kind][game_id][:2]:
            requests.post(f"{url}/undo", headers={"Authorization": "Bearer " + token}, timeout=10)
    except requests.RequestException:
        return


def _the_current_version(case, kind: str, game_id: str) -> None:
    """A random `If-Match` is always stale (412) or malformed (400): where the request says one,
    it names the game's current version, so the request reaches the rules."""
    version = _game(kind, game_id).get("version")
    if isinstance(version, int):
        case.headers["If-Match"] = f'"{version}"'
    else:
        del case.headers["If-Match"]


def _use_a_real_deck(case) -> None:
    deck_id = case.path_parameters.get("id")
    if deck_id not in DECKS:
        deck_id = RNG.choice(sorted(DECKS))
        case.path_parameters["id"] = deck_id
    if case.headers is None:
        case.headers = {}
    owner = {"Authorization": "Bearer " + DECKS[deck_id]}
    case.headers.update(owner)
    if case.headers and "If-Match" in case.headers and RNG.random() < 0.5:
        del case.headers["If-Match"]
    if BASE and case.path.endswith(("/undo", "/reselect")):
        # Something to take back or swap; a full or missing deck just says so.
        requests.post(f"{BASE}/v1/poker/decks/{deck_id}/draw", json={"count": 1}, headers=owner, timeout=10)


def _as_the_seat_to_act(case, kind: str) -> None:
    """A move goes out with the token of the seat to act, and half the time it is the move the
    AI hints for that seat: random moves are nearly all out of turn or unplayable (UNO's cards),
    and explore nothing."""
    if not BASE:
        return
    game_id = case.path_parameters["id"]
    to_act = _token_to_act(kind, game_id)
    if not to_act:
        return
    case.headers["Authorization"] = "Bearer " + to_act
    if RNG.random() < 0.5:
        return
    try:
        hint = requests.post(
            f"{BASE}/v1/{kind}/games/{game_id}/ai-move",
            json={"level": "easy", "time_ms": 20},
            headers={"Authorization": "Bearer " + to_act},
            timeout=10,
        ).json()
    except (requests.RequestException, ValueError):
        return
    if isinstance(hint, dict) and isinstance(hint.get("move"), dict):
        case.body = hint["move"]


def _guest(name) -> bool:
    return not isinstance(name, str) or _canonical(name) not in REGISTERED


def _no_registered_names(case) -> None:
    body = case.body if isinstance(case.body, dict) else {}
    players = body.get("players")
    for player in players if isinstance(players, list) else []:
        if isinstance(player, dict) and not _guest(player.get("name")):
            player["name"] = f"guest-{RNG.randrange(10**6)}"


# An AI thinks for up to `time_ms` (10 s at most): the coverage phase sends that bound often, and a
# run that waits 10 s a time learns nothing more than with a short think, so asks are kept short.
AI_THINK_MS = 200


POKER_CARD = re.compile(r"^(([2-9TtJjQqKkAa]|10)[SHDCshdc]|[Jj][Kk])$")
POKER_DECK = [r + s for r in "23456789TJQKA" for s in "SHDC"]


def _valid_code(item, schema: dict) -> bool:
    """Whether `item` is one of the codes a list's items schema allows (its enum or pattern); a
    list of anything else (the players) is never a code list."""
    schema = fuzz_games.resolve(DOC, schema)
    if "enum" in schema:
        return item in schema["enum"]
    if "pattern" in schema:
        return isinstance(item, str) and re.search(schema["pattern"], item) is not None
    return False


def _real_lists(case, kind: str) -> None:
    """A schema-valid list of codes where the game's example create body has one (UNO's `deck`,
    108 card codes) is nearly never what the rules demand (the 108-card deck) but a schema cannot say:
    such a list becomes the example's, shuffled, and a seed given beside it is dropped (one or
    the other). A list that breaks the schema stays as it is."""
    body = case.body if isinstance(case.body, dict) else {}
    properties = fuzz_games.options_schema(DOC, kind).get("properties", {})
    for key, example in fuzz_games.create_example(DOC, kind).items():
        value = body.get(key)
        if not isinstance(example, list) or not isinstance(value, list) or len(value) != len(example):
            continue
        items = fuzz_games.resolve(DOC, properties.get(key, {})).get("items", {})
        if all(_valid_code(item, items) for item in value):
            body[key] = RNG.sample(example, len(example))
            body.pop("seed", None)


def _poker_card(code: str) -> str:
    code = code.upper()
    return "T" + code[2] if code.startswith("10") else code


def _distinct_poker_cards(hands: list) -> None:
    """A card twice among the hands (one deck holds each once; jokers five times) is refused, and
    a schema cannot say so: repeats of a valid code become cards not yet used. Anything else,
    valid or not, stays as it is."""
    used: set[str] = set()
    jokers = 0
    for hand in hands:
        for i, code in enumerate(hand if isinstance(hand, list) else []):
            if not isinstance(code, str) or not POKER_CARD.match(code):
                continue
            if _poker_card(code) == "JK":
                jokers += 1
                if jokers <= 5:
                    continue
            if _poker_card(code) in used or _poker_card(code) == "JK":
                unused = [c for c in POKER_DECK if c not in used]
                if not unused:
                    return  # more cards than a deck holds: rightly refused
                code = RNG.choice(unused)
                hand[i] = code
            used.add(_poker_card(code))


def _plausible_cards(case) -> None:
    body = case.body if isinstance(case.body, dict) else {}
    if case.path == "/v1/poker/compare" and isinstance(body.get("hands"), list):
        _distinct_poker_cards(body["hands"])
    elif case.path == "/v1/poker/evaluate" and isinstance(body.get("cards"), list):
        _distinct_poker_cards([body["cards"]])
    elif CREATE.match(case.path):
        _real_lists(case, CREATE.match(case.path).group(1))


def _fits_a_path(name: str) -> bool:
    """Whether a name sent as a path parameter stays one whole segment (see `before_call`)."""
    return name not in ("", ".", "..") and not re.search(r"[/?#%]", name)


@schemathesis.hook
def before_call(context, case, kwargs):
    # Schemathesis percent-encodes a path parameter but leaves `/`, `?`, `#` and `%` as they are,
    # which change the path (`POST /v1/players/a?b/key` is `POST /v1/players/a`: 405, rightly),
    # and a name `.` or `..` is a dot segment the client removes (`/v1/players/./key` is
    # `/v1/players/key`), as is an empty one (negative cases break the schema's `minLength`).
    # Such names get `-` for those characters; a name keeps its others.
    name = (case.path_parameters or {}).get("name")
    if isinstance(name, str) and not _fits_a_path(name):
        name = re.sub(r"[/?#%]", "-", name)
        case.path_parameters["name"] = "-" if name in ("", ".", "..") else name
    if case.method.upper() == "POST" and CREATE.match(case.path) and not (case.headers or {}).get("Authorization"):
        _no_registered_names(case)
    if case.method.upper() == "POST":
        _plausible_cards(case)
    # A long poll (`GET …/games/{id}?wait=`) waits up to a minute for a change nobody makes.
    # Query values come as numbers or as text.
    wait = (case.query or {}).get("wait")
    if not isinstance(wait, bool) and str(wait).strip().isdigit() and int(str(wait).strip()) > 1:
        case.query["wait"] = 1
    if case.path.endswith("/ai-move") and isinstance(case.body, dict):
        think = case.body.get("time_ms")
        if isinstance(think, int) and not isinstance(think, bool) and think > AI_THINK_MS:
            case.body["time_ms"] = AI_THINK_MS
    if RNG.random() < KEEP_GENERATED:
        return
    game = GAME_PATH.match(case.path)
    if game and GAMES.get(game.group(1)):
        _use_a_real_game(case, game.group(1))
        if case.method.upper() == "POST" and case.path.endswith("/moves"):
            _as_the_seat_to_act(case, game.group(1))
        if case.method.upper() == "POST" and case.path.endswith("/messages"):
            _to_another_seat(case, game.group(1))
        if case.path.endswith("/join"):
            _as_a_guest(case)
        if case.path.endswith("/seats/{seat}/token"):
            _as_a_seated_player(case, game.group(1))
        if case.method.upper() == "GET" and case.query and RNG.random() < 0.8:
            _no_free_form_parameters(case)
    elif case.path.startswith(DECK) and DECKS:
        _use_a_real_deck(case)
    elif case.path.startswith(SEEK):
        _use_a_real_seek(case)
    elif SEEK_CREATE.match(case.path):
        # A random player key is refused (401) every time: most seeks are a guest's.
        _as_a_guest(case)
    elif case.path == PLAYER_KEY and (names := sorted(n for n in KEYS if _fits_a_path(n))):
        # A random key is refused (401) every time: most rotations name a player and hold its key.
        # Only a name the path keeps whole: a registered `a?b` would be sent as `/v1/players/a`.
        name = RNG.choice(names)
        case.path_parameters["name"] = name
        if case.headers is None:
            case.headers = {}
        case.headers["Authorization"] = "Bearer " + KEYS[name]


def _use_a_real_seek(case) -> None:
    """A seek's routes need its id and secret: a random secret is refused (401/403) every time.
    Most calls get a seek of their own, opened now, that nobody will pair with (its name and
    options are its own), with its secret."""
    if not BASE:
        return
    name = f"seeker-{RNG.randrange(10**9)}"
    body = {"name": name, "options": {"size": 9 + RNG.randrange(11), "rated": False, "auto_ai": RNG.random() < 0.5}}
    try:
        created = requests.post(f"{BASE}/v1/gomoku/seeks", json=body, timeout=10).json()
    except (requests.RequestException, ValueError):
        return
    if "secret" not in created:
        return
    case.path_parameters["id"] = created["seek"]["id"]
    if case.headers is None:
        case.headers = {}
    case.headers["Authorization"] = "Bearer " + created["secret"]
    case.query = {k: v for k, v in (case.query or {}).items() if k != "ticket"}


def _no_free_form_parameters(case) -> None:
    """Drops the query parameters of free form (a pattern, not a list of values) from a read of a
    game: random values are nearly never right (Go's `dead` names stones of the game), so they
    would be refused (422, rightly) every time and the report itself never reached."""
    operation = DOC.get("paths", {}).get(case.path, {}).get("get", {})
    for parameter in operation.get("parameters", []):
        schema = fuzz_games.resolve(DOC, parameter.get("schema", {}))
        if parameter.get("in") == "query" and "pattern" in schema:
            case.query.pop(parameter["name"], None)


def _to_another_seat(case, kind: str) -> None:
    """A message from one seat to another (the seed refuses one to yourself), most of the time."""
    tokens = GAMES[kind].get(case.path_parameters["id"], [])
    if len(tokens) < 2 or not isinstance(case.body, dict) or RNG.random() < 0.3:
        return
    sender = RNG.randrange(len(tokens))
    case.headers["Authorization"] = "Bearer " + tokens[sender]
    case.body["to"] = (sender + 1 + RNG.randrange(len(tokens) - 1)) % len(tokens)


def _as_a_seated_player(case, kind: str) -> None:
    """Taking a seat back needs the key of the registered player who holds it: a seat token is no
    player key (403 every time). The request gets a player registered now, seated at seat 0 of a
    new game created with its key."""
    if not BASE:
        return
    name = f"fz{RNG.randrange(10**9)}"
    try:
        key = requests.post(f"{BASE}/v1/players", json={"name": name}, timeout=10).json()["key"]
        body = fuzz_games.create_body(DOC, kind, False)
        body["players"][0] = {"name": name}
        created = requests.post(
            f"{BASE}/v1/{kind}/games", json=body, headers={"Authorization": "Bearer " + key}, timeout=10
        ).json()
    except (requests.RequestException, ValueError, KeyError):
        return
    if "id" not in created:
        return
    REGISTERED.add(_canonical(name))
    KEYS[name] = key
    case.path_parameters["id"] = created["id"]
    case.path_parameters["seat"] = 0
    case.headers["Authorization"] = "Bearer " + key


def _as_a_guest(case) -> None:
    """A join as a guest: a seat token is no player key (403 every time), and a guest needs a name."""
    case.headers.pop("Authorization", None)
    if not isinstance(case.body, dict):
        case.body = {}
    name = case.body.get("name")
    # A generated name mostly mixes scripts (Latin beside Cyrillic …), which names refuse (422,
    # rightly, and beyond what a schema pattern can say): most joins get a plain guest name.
    plain = isinstance(name, str) and name.isascii() and name.strip()
    if not plain or not _guest(name) or RNG.random() < 0.8:
        case.body["name"] = f"guest-{RNG.randrange(10**6)}"
    # A random invitation code names no seat (422, rightly): most joins go without one.
    case.body.pop("invite", None)
