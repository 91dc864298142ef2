//! The OpenAPI description of every turn-based game's routes, built from the same trait and the
//! same registry as the routes themselves: a game added to the registry is documented with it,
//! with full schemas for its create body, move, state, events and result.

use utoipa::openapi::path::{
    HttpMethod, Operation, OperationBuilder, ParameterBuilder, ParameterIn,
};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::security::SecurityRequirement;
use utoipa::openapi::tag::TagBuilder;
use utoipa::openapi::{
    Components, ContentBuilder, HeaderBuilder, OpenApi, Ref, RefOr, Required, ResponseBuilder,
};
use utoipa::{IntoParams, PartialSchema, ToSchema};

use super::{GamePaths, LogQuery};
use crate::games::registry::{Games, TurnGameVisitor};
use crate::games::{AiAnalysis, GameResult, TurnGame};
use crate::http::problems::{problem_refs, ProblemSet};
use crate::service::resource::{ClockView, SeatView};
use crate::service::seeks::{SeekCreated, SeekRequest};
use crate::service::turns::follow::StreamTicket;
use crate::service::turns::{
    AiMoveRequest, JoinRequest, LogItem, MessageRequest, SeatInvite, SeatToken,
};

/// Adds the tag, paths and schemas of every game `R` lists to `doc`.
pub fn add_turn_games<R: Games>(doc: &mut OpenApi) {
    struct Docs<'a>(&'a mut OpenApi);
    impl TurnGameVisitor for Docs<'_> {
        fn visit<G: TurnGame>(&mut self) {
            add_game::<G>(self.0);
        }
    }
    R::visit(&mut Docs(doc));
}

/// The component names of one game's schemas: `GomokuGame`, `GomokuOutcome` …
struct Names {
    title: String,
}

impl Names {
    fn of<G: TurnGame>() -> Self {
        let mut title = String::new();
        for part in G::NAME.split(['-', '_']) {
            let mut chars = part.chars();
            if let Some(first) = chars.next() {
                title.extend(first.to_uppercase());
                title.push_str(chars.as_str());
            }
        }
        Names { title }
    }

    fn name(&self, suffix: &str) -> String {
        format!("{}{suffix}", self.title)
    }

    fn reference(&self, suffix: &str) -> RefOr<Schema> {
        RefOr::Ref(Ref::from_schema_name(self.name(suffix)))
    }
}

fn reference_to<T: ToSchema>() -> RefOr<Schema> {
    RefOr::Ref(Ref::from_schema_name(T::name()))
}

/// Adds `T` and every schema it refers to.
fn register<T: ToSchema>(components: &mut Components) {
    register_parts::<T>(components);
    components
        .schemas
        .entry(T::name().into_owned())
        .or_insert(T::schema());
}

/// Adds every schema `T` refers to, but not `T` itself.
fn register_parts<T: ToSchema>(components: &mut Components) {
    let mut found = Vec::new();
    T::schemas(&mut found);
    for (name, schema) in found {
        components.schemas.entry(name).or_insert(schema);
    }
}

/// An RFC 3339 instant.
fn date_time() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String).format(Some(
        utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::DateTime),
    ))
}

fn object() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(SchemaType::Type(Type::Object))
}

fn array_of(items: RefOr<Schema>) -> RefOr<Schema> {
    ArrayBuilder::new().items(items).into()
}

/// The game resource with this game's `state`.
fn resource_schema(names: &Names) -> RefOr<Schema> {
    object()
        .description(Some(
            "A game: who sits where, whose turn it is, the result once it ends, and `state` as the caller's seat may see it.",
        ))
        .property("id", ObjectBuilder::new().schema_type(Type::String).format(Some(utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Uuid))))
        .required("id")
        .property("game", ObjectBuilder::new().schema_type(Type::String))
        .required("game")
        .property("status", reference_to::<crate::games::GameStatus>())
        .required("status")
        .property(
            "version",
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64)))
                .description(Some("+1 on every accepted change; also the `ETag`")),
        )
        .required("version")
        .property("created_at", date_time())
        .required("created_at")
        .property("updated_at", date_time())
        .required("updated_at")
        .property("seats", array_of(reference_to::<SeatView>()))
        .required("seats")
        .property(
            "rated",
            ObjectBuilder::new().schema_type(Type::Boolean).description(Some(
                "Whether the game moves Glicko-2 ratings when it ends: a rated game whose every human seat a registered player claimed with their own key, with no seat left open",
            )),
        )
        .required("rated")
        .property(
            "turn",
            ObjectBuilder::new()
                .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
                .minimum(Some(0))
                .description(Some("The seat to act; null when the game is not active")),
        )
        .required("turn")
        .property(
            "result",
            utoipa::openapi::schema::OneOfBuilder::new()
                .item(reference_to::<GameResult>())
                .item(ObjectBuilder::new().schema_type(Type::Null)),
        )
        .required("result")
        .property("state", names.reference("View"))
        .required("state")
        .property("clock", reference_to::<ClockView>())
        .property(
            "server_time",
            date_time().description(Some("A timed game's: the server's time when it answered, to correct a local countdown for skew")),
        )
        .into()
}

/// The answer to a change: the game and its events (and the AI's move for `ai-move`).
fn outcome_schema(names: &Names) -> RefOr<Schema> {
    object()
        .description(Some(
            "The game after the change and what happened. `move`, `analysis` and `applied` are present on `ai-move` answers.",
        ))
        .property("game", names.reference("Game"))
        .required("game")
        .property("events", array_of(names.reference("Event")))
        .required("events")
        .property("move", names.reference("Move"))
        .property("analysis", reference_to::<AiAnalysis>())
        .property("applied", ObjectBuilder::new().schema_type(Type::Boolean))
        .into()
}

fn created_schema(names: &Names) -> RefOr<Schema> {
    utoipa::openapi::schema::AllOfBuilder::new()
        .item(names.reference("Game"))
        .item(
            object()
                .property("tokens", array_of(reference_to::<SeatToken>()))
                .required("tokens")
                .property("invites", array_of(reference_to::<SeatInvite>()))
                .required("invites")
                .property(
                    "owner_token",
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .description(Some(
                            "A table of AIs alone only: the token that drives it (`ai-move`, \
                         `undo`, `redo`, `end`)",
                        )),
                ),
        )
        .description(Some(
            "The new game, each human seat's token, each seat reserved by invitation's code and \
             (a table of AIs alone) its owner token, shown only now",
        ))
        .into()
}

fn joined_schema(names: &Names) -> RefOr<Schema> {
    object()
        .property(
            "seat",
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(0)),
        )
        .required("seat")
        .property(
            "token",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .description(Some("The seat's secret, shown only now")),
        )
        .required("token")
        .property("game", names.reference("Game"))
        .required("game")
        .property("events", array_of(names.reference("Event")))
        .required("events")
        .into()
}

fn json_body(schema: RefOr<Schema>, required: bool) -> utoipa::openapi::request_body::RequestBody {
    RequestBodyBuilder::new()
        .content(
            "application/json",
            ContentBuilder::new().schema(Some(schema)).build(),
        )
        .required(Some(if required {
            Required::True
        } else {
            Required::False
        }))
        .build()
}

/// A request body with named examples: the game's own ([`TurnGame::example`]), which the
/// conformance suite plays too.
fn json_body_with_examples(
    schema: RefOr<Schema>,
    examples: Vec<(&str, &str, serde_json::Value)>,
) -> utoipa::openapi::request_body::RequestBody {
    let mut body = json_body(schema, true);
    let content = body
        .content
        .get_mut("application/json")
        .expect("json_body describes JSON");
    for (name, summary, value) in examples {
        let mut example = utoipa::openapi::example::Example::new();
        example.summary = summary.to_owned();
        example.value = Some(value);
        content.examples.insert(name.to_owned(), RefOr::T(example));
    }
    body
}

fn id_param() -> utoipa::openapi::path::Parameter {
    ParameterBuilder::new()
        .name("id")
        .parameter_in(ParameterIn::Path)
        .required(Required::True)
        .description(Some("Game id"))
        .schema(Some(ObjectBuilder::new().schema_type(Type::String).format(
            Some(utoipa::openapi::SchemaFormat::KnownFormat(
                utoipa::openapi::KnownFormat::Uuid,
            )),
        )))
        .build()
}

fn seat_token() -> SecurityRequirement {
    SecurityRequirement::new("seat_token", Vec::<String>::new())
}

/// How an operation may be called: with a seat token, or either with or without one, or with or
/// without a player key.
enum Auth {
    None,
    Token,
    Optional,
    OptionalPlayerKey,
    PlayerKey,
}

struct Op<'a> {
    names: &'a Names,
    tag: &'static str,
    id: String,
    summary: &'a str,
    description: &'a str,
    auth: Auth,
}

impl Op<'_> {
    fn build(
        self,
        with_id: bool,
        body: Option<utoipa::openapi::request_body::RequestBody>,
        ok_status: &str,
        ok: utoipa::openapi::Response,
        problems: ProblemSet,
    ) -> Operation {
        let mut op = OperationBuilder::new()
            .tag(self.tag)
            .operation_id(Some(format!(
                "{}_{}",
                self.names.title.to_lowercase(),
                self.id
            )))
            .summary(Some(self.summary))
            .description(Some(self.description))
            .request_body(body)
            .response(ok_status, ok);
        if with_id {
            op = op.parameter(id_param());
        }
        for (status, reference) in problem_refs(problems) {
            op = op.response(status, reference);
        }
        op = match self.auth {
            Auth::None => op,
            Auth::Token => op.security(seat_token()),
            Auth::Optional => op
                .security(SecurityRequirement::default())
                .security(seat_token()),
            Auth::OptionalPlayerKey => op
                .security(SecurityRequirement::default())
                .security(SecurityRequirement::new("player_key", Vec::<String>::new())),
            Auth::PlayerKey => {
                op.security(SecurityRequirement::new("player_key", Vec::<String>::new()))
            }
        };
        op.build()
    }
}

fn json_response(
    description: &str,
    schema: RefOr<Schema>,
    etag: bool,
) -> utoipa::openapi::Response {
    let mut response = ResponseBuilder::new().description(description).content(
        "application/json",
        ContentBuilder::new().schema(Some(schema)).build(),
    );
    if etag {
        response = response.header(
            "ETag",
            HeaderBuilder::new()
                .schema(ObjectBuilder::new().schema_type(Type::String))
                .description(Some("The view's validator: the version in quotes for the public view (\"12\"), with the seat for a seat's view (\"12-seat-1\")"))
                .build(),
        );
    }
    response.build()
}

fn add_game<G: TurnGame>(doc: &mut OpenApi) {
    let names = Names::of::<G>();
    let paths = GamePaths::of::<G>();
    let example = G::example();
    let tag = G::NAME;
    let components = doc.components.get_or_insert_with(Default::default);
    register::<G::Options>(components);
    register::<G::Move>(components);
    register::<G::View>(components);
    register::<G::Event>(components);
    register::<GameResult>(components);
    register::<AiAnalysis>(components);
    register::<SeatView>(components);
    register::<ClockView>(components);
    register::<SeatToken>(components);
    register::<SeatInvite>(components);
    register::<AiMoveRequest>(components);
    register::<JoinRequest>(components);
    register::<LogItem>(components);
    register::<crate::games::GameStatus>(components);
    // Each game's own names for its parts, so a generated client gets `GomokuMove`, `GoView` …
    for (suffix, schema) in [
        ("Options", reference_to::<G::Options>()),
        ("Move", reference_to::<G::Move>()),
        ("View", reference_to::<G::View>()),
        ("Event", reference_to::<G::Event>()),
    ] {
        let name = names.name(suffix);
        let target = match &schema {
            RefOr::Ref(r) => r
                .ref_location
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_owned(),
            RefOr::T(_) => String::new(),
        };
        if name != target {
            components.schemas.insert(name, schema);
        }
    }
    components
        .schemas
        .insert(names.name("Game"), resource_schema(&names));
    components
        .schemas
        .insert(names.name("Outcome"), outcome_schema(&names));
    components
        .schemas
        .insert(names.name("Created"), created_schema(&names));
    components
        .schemas
        .insert(names.name("Joined"), joined_schema(&names));
    register::<StreamTicket>(components);
    components
        .schemas
        .insert(names.name("Snapshot"), snapshot_schema(&names));
    components
        .schemas
        .insert(names.name("Change"), change_schema(&names));

    let op = |id: &str, summary: &'static str, description: &'static str, auth: Auth| Op {
        names: &names,
        tag,
        id: id.to_owned(),
        summary,
        description,
        auth,
    };
    let outcome = || {
        json_response(
            "The game after the change, with its events",
            names.reference("Outcome"),
            true,
        )
    };
    let mut add = |path: &str, method: HttpMethod, operation: Operation| {
        doc.paths.add_path_operation(path, vec![method], operation);
    };

    add(
        &paths.games,
        HttpMethod::Post,
        op(
            "create",
            "Create a game",
            "Creates a game. The answer holds each human seat's token: it is shown only once. A seat may be left `{\"open\": true}` for somebody to `join`. With a player key (`Authorization: Bearer <key>`) seat 0 is that registered player's (it must name them); a seat naming a registered player without their key is refused (403).",
            Auth::OptionalPlayerKey,
        )
        .build(
            false,
            Some(json_body_with_examples(
                names.reference("Options"),
                vec![(
                    "two_humans",
                    "Two human seats; the game starts at once, seat 0 to move",
                    example.create,
                )],
            )),
            "201",
            {
                let mut r = json_response("Created; `tokens` are shown only now", names.reference("Created"), true);
                r.headers.insert(
                    "Location".into(),
                    HeaderBuilder::new()
                        .schema(ObjectBuilder::new().schema_type(Type::String))
                        .description(Some("The new game's URL"))
                        .build(),
                );
                r
            },
            ProblemSet::CREATE,
        ),
    );
    add(
        &paths.game,
        HttpMethod::Get,
        op(
            "get",
            "Read a game",
            "The game; with a seat token, that seat's private view. Each view has its own ETag (`\"12\"` the public view of version 12, `\"12-seat-1\"` seat 1's), so `If-None-Match` with the ETag last received answers 304 only when that same view is unchanged. Answers say `Vary: Authorization`; a seat's view is `Cache-Control: private, no-cache`. A long poll for scripts: `?wait=30&after=12` answers as soon as the game passes version 12, or 304 after 30 seconds (at most 60).",
            Auth::Optional,
        )
        .build(
            true,
            None,
            "200",
            json_response("The game", names.reference("Game"), true),
            ProblemSet::READ_AS_SEAT,
        )
        .with_query::<super::events::ReadQuery>()
        .with_response("304", "Not modified: the `If-None-Match` view is current, or a long poll's time is up"),
    );
    let moves = op(
        "play",
        "Play a move",
        "Plays one move for the token's seat. `If-Match` with the ETag last received (or `\"<version>\"`) makes it conditional on the version.",
        Auth::Token,
    )
    .build(
        true,
        Some(json_body_with_examples(names.reference("Move"), {
            let mut moves = vec![
                ("first", "Seat 0's first move in the `two_humans` game", example.first),
                ("second", "Seat 1's answer to `first`", example.second),
            ];
            if let Some(resign) = example.resign {
                moves.push(("resign", "Resigns (any seat, at any time)", resign));
            }
            moves
        })),
        "200",
        outcome(),
        ProblemSet::MOVE,
    );
    add(&paths.action("moves"), HttpMethod::Post, moves);
    let log = op(
        "log",
        "The move log",
        "The move log, oldest first; `seq` equals the version each change produced. Pages with `after` (a seq) and `limit`.",
        Auth::None,
    )
    .build(
        true,
        None,
        "200",
        json_response("Log entries", array_of(reference_to::<LogItem>()), false),
        ProblemSet::LIST,
    );
    add(
        &paths.action("moves"),
        HttpMethod::Get,
        log.with_query::<LogQuery>(),
    );
    add(
        &paths.action("ai-move"),
        HttpMethod::Post,
        op(
            "ai_move",
            "Ask the AI",
            "Asks the AI for the seat to act. An AI seat needs no token and the move is played; for a human seat it is a hint (`apply` defaults to false) and needs that seat's token. A table of AIs alone plays one move per request, and only with its owner token (the create answer's `owner_token`; 401 without, 403 with another). The body may be empty. With `auto_ai`, the AI seats that follow play too, until a human may act: each such move counts against the client's AI rate limit, and when none is left the game waits for the next request. In a rated game (the resource's `rated`) only the AI seat's own move is played, at its level and the default think time, asked for with a seat token of the game (401 without); a hint, a preview (`apply`: false), `level` and `time_ms` are 409 `conflict`: create with `\"rated\": false` for them.",
            Auth::Optional,
        )
        .build(
            true,
            Some(json_body(
                utoipa::openapi::schema::OneOfBuilder::new()
                    .item(reference_to::<AiMoveRequest>())
                    .item(ObjectBuilder::new().schema_type(Type::Null))
                    .into(),
                false,
            )),
            "200",
            outcome(),
            ProblemSet::AI,
        ),
    );
    add(
        &paths.action("join"),
        HttpMethod::Post,
        op(
            "join",
            "Join an open seat",
            "Takes an open seat: the one the body's `invite` code names (a wrong code: 403), else one reserved for the key's registered player, else the first seat open to anyone (403 when every open seat left is reserved for somebody else). A name holds at most one seat of a game unless the creator allowed more (UNO's `seats_per_name`): 409 beyond. The answer holds the seat's token, shown only now. 409 when no seat is open; of two players racing for the last seat one wins, the other gets 409. The game starts when its last seat fills (unless created with `\"start\": false`). A guest gives `{\"name\"}` (a registered name is refused, 403); a registered player sends their key (`Authorization: Bearer <key>`) and may leave the body empty.",
            Auth::OptionalPlayerKey,
        )
        .build(
            true,
            Some(json_body(
                utoipa::openapi::schema::OneOfBuilder::new()
                    .item(reference_to::<JoinRequest>())
                    .item(ObjectBuilder::new().schema_type(Type::Null))
                    .into(),
                false,
            )),
            "200",
            json_response("The seat taken, its token and the game", names.reference("Joined"), true),
            ProblemSet::JOIN,
        ),
    );
    add(
        &paths.action("start"),
        HttpMethod::Post,
        op(
            "start",
            "Start a waiting game",
            "Starts a game whose seats are all taken but that waits for `start` (created with `\"start\": false`). Any seat's token.",
            Auth::Token,
        )
        .build(true, None, "200", outcome(), ProblemSet::SEAT_ACTION),
    );
    add(
        &paths.action("end"),
        HttpMethod::Post,
        op(
            "end",
            "End a game",
            "Ends the game before it finished: status `aborted`, no scores or ratings move. Any seat's token (a table of AIs alone: its owner token), until every seat has made its first move; after that a game between two or more humans is 409 `conflict`: resign instead (a resignation is accepted from either seat at any time).",
            Auth::Token,
        )
        .build(true, None, "200", outcome(), ProblemSet::SEAT_ACTION),
    );
    {
        let mut operation = op(
            "reissue_token",
            "Take a seat back",
            "Issues a fresh token for a seat held by a registered player, who proves it with their key (`Authorization: Bearer <player key>`); the seat's old token stops working. A guest's seat cannot be taken back: keep its token (a browser page keeps it in `sessionStorage`).",
            Auth::PlayerKey,
        )
        .build(
            true,
            None,
            "200",
            json_response("The seat, its new token and the game", names.reference("Joined"), true),
            ProblemSet::SEAT_ACTION,
        );
        operation.parameters.get_or_insert_with(Vec::new).push(
            ParameterBuilder::new()
                .name("seat")
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .description(Some("Seat number, from 0"))
                .schema(Some(
                    ObjectBuilder::new()
                        .schema_type(Type::Integer)
                        .minimum(Some(0)),
                ))
                .build(),
        );
        add(&paths.seat_token(), HttpMethod::Post, operation);
    }
    add(
        &paths.action("claim-victory"),
        HttpMethod::Post,
        op(
            "claim_victory",
            "Claim the win from an opponent who walked away",
            "In a game without a clock, a human seat whose opponent (the seat to act, a human) has not acted for the server's claim time (`--claim-after-secs`, 3 days by default) takes the win: the opponent loses with reason `abandoned` (in UNO with more seats the opponent leaves the table and play goes on). 409 `conflict` before that time (the answer says how long is left), on one's own turn, or in a timed game, whose clock decides.",
            Auth::Token,
        )
        .build(true, None, "200", outcome(), ProblemSet::SEAT_ACTION),
    );
    add(
        &paths.action("rematch"),
        HttpMethod::Post,
        op(
            "rematch",
            "Play a finished game again",
            "By a seat of a finished game (its token): the first call creates the follow-up game, with the same options and the seats rotated by one (with two seats the colours swap); AI seats carry over. Every human seat that calls gets its seat there and its token (the same token on every call); the follow-up waits until every human seat of the old game has called, then starts. The old game's stream announces it: an event `{\"type\": \"rematch\", \"id\"}`. 409 `conflict` for a game not finished.",
            Auth::Token,
        )
        .build(
            true,
            None,
            "200",
            json_response("The seat taken in the follow-up, its token and that game", names.reference("Joined"), true),
            ProblemSet::SEAT_ACTION,
        ),
    );
    if G::DRAWS {
        add(
            &paths.action("draw"),
            HttpMethod::Post,
            op(
                "draw",
                "Offer or accept a draw",
                "A seat offers a draw (event `draw_offered`); the other seat's `draw` accepts it and the game ends in a draw (reason `draw`). A move by either seat declines a waiting offer (`draw_declined`), as it declines a take-back. Between two humans only: 409 `conflict` against an AI seat, or for a second offer by the same seat.",
                Auth::Token,
            )
            .build(true, None, "200", outcome(), ProblemSet::SEAT_ACTION),
        );
    }
    if G::UNDO {
        add(
            &paths.action("undo"),
            HttpMethod::Post,
            op(
                "undo",
                "Take back a move",
                "Takes back the last move (against an AI: back to the human's last turn). Any seat token of the game; a table of AIs alone, its owner token. Never in a rated game (409 `conflict`: its result is final and rates once); create with `\"rated\": false` for take-backs.",
                Auth::Token,
            )
            .build(true, None, "200", outcome(), ProblemSet::SEAT_ACTION),
        );
    }
    if G::REDO {
        add(
            &paths.action("redo"),
            HttpMethod::Post,
            op(
                "redo",
                "Replay a taken-back move",
                "Replays the last taken-back move; a new move clears the redo line. Never in a rated game (409 `conflict`).",
                Auth::Token,
            )
            .build(true, None, "200", outcome(), ProblemSet::SEAT_ACTION),
        );
    }
    add_live::<G>(doc, &names, &paths);
    if G::MESSAGES {
        register::<MessageRequest>(doc.components.get_or_insert_with(Default::default));
        add_message::<G>(doc, &names, &paths);
    }
    for spec in G::reports() {
        let schemas = (spec.schema)();
        let schema_name = schemas[0].0.clone();
        let components = doc.components.get_or_insert_with(Default::default);
        for (name, schema) in schemas {
            components.schemas.entry(name).or_insert(schema);
        }
        let mut operation = Op {
            names: &names,
            tag,
            id: spec.name.to_owned(),
            summary: spec.summary,
            description: spec.summary,
            auth: Auth::None,
        }
        .build(
            true,
            None,
            "200",
            if spec.content_type == "application/json" {
                json_response(
                    spec.summary,
                    RefOr::Ref(Ref::from_schema_name(schema_name)),
                    false,
                )
            } else {
                ResponseBuilder::new()
                    .description(spec.summary)
                    .content(
                        spec.content_type,
                        ContentBuilder::new()
                            .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                            .build(),
                    )
                    .build()
            },
            ProblemSet::REPORT,
        );
        let mut params = operation.parameters.take().unwrap_or_default();
        for param in spec.params {
            let mut schema = ObjectBuilder::new().schema_type(Type::String);
            if !param.values.is_empty() {
                schema = schema.enum_values(Some(param.values.iter().copied()));
            }
            if let Some(pattern) = param.pattern {
                schema = schema.pattern(Some(pattern));
            }
            params.push(
                ParameterBuilder::new()
                    .name(param.name)
                    .parameter_in(ParameterIn::Query)
                    .required(Required::False)
                    .description(Some(param.description))
                    .schema(Some(schema))
                    .build(),
            );
        }
        operation.parameters = Some(params);
        doc.paths
            .add_path_operation(paths.action(spec.name), vec![HttpMethod::Get], operation);
    }
    doc.tags.get_or_insert_with(Vec::new).push(
        TagBuilder::new()
            .name(tag)
            .description(Some(G::DESCRIPTION))
            .build(),
    );
}

/// The stream's first event (`event: game`).
fn snapshot_schema(names: &Names) -> RefOr<Schema> {
    object()
        .description(Some(
            "`event: game`, `id:` the version: the game as the stream's viewer sees it. It opens a stream, and replaces the changes a resuming client missed when they are no longer kept (`missed`).",
        ))
        .property("game", names.reference("Game"))
        .required("game")
        .property(
            "missed",
            ObjectBuilder::new().schema_type(Type::Boolean).description(Some(
                "The client resumed after changes that are no longer kept; this is the game now",
            )),
        )
        .required("missed")
        .into()
}

/// One change on a stream (`event: change`).
fn change_schema(names: &Names) -> RefOr<Schema> {
    object()
        .description(Some(
            "`event: change`, `id:` the version it produced: the game after one accepted change as the viewer sees it, and the events of that change.",
        ))
        .property("game", names.reference("Game"))
        .required("game")
        .property("events", array_of(names.reference("Event")))
        .required("events")
        .into()
}

/// The event stream, its ticket, and seeking an opponent.
fn add_live<G: TurnGame>(doc: &mut OpenApi, names: &Names, paths: &GamePaths) {
    let op = |id: &str, summary: &'static str, description: &'static str, auth: Auth| Op {
        names,
        tag: "live",
        id: id.to_owned(),
        summary,
        description,
        auth,
    };
    let stream = ResponseBuilder::new()
        .description(
            "Server-sent events: `event: game` first, then one `event: change` per accepted change, `id:` the version; a `: keep-alive` comment every 15 s",
        )
        .content(
            "text/event-stream",
            ContentBuilder::new()
                .schema(Some(
                    utoipa::openapi::schema::OneOfBuilder::new()
                        .item(names.reference("Snapshot"))
                        .item(names.reference("Change")),
                ))
                .build(),
        )
        .build();
    let events = op(
        "events",
        "Follow a game live",
        "A stream of the game (`text/event-stream`, for `EventSource`, `curl -N` or a bot). The first event is the game as the viewer sees it (`event: game`); then one `event: change` per accepted change, `id:` the version it produced, `data:` the game after it and its events, as the change's own answer showed that viewer. The stream ends after the change that finishes the game. A seat sees its own view: with `Authorization: Bearer <seat token>`, or (EventSource sends no headers) with `?ticket=` from `stream-ticket`; without either, a spectator's. Reconnecting with `Last-Event-ID` (or `?since=VERSION`) sends every change after that version first, then goes live; when they are no longer kept, one `event: game` with `missed: true` instead. A finished game with nothing more to send answers 204, which stops `EventSource`. A client that reads too slowly is dropped (it reconnects and loses nothing); 503 when the server holds as many streams as it allows.",
        Auth::Optional,
    )
    .build(true, None, "200", stream, ProblemSet::READ_AS_SEAT)
    .with_query::<super::events::EventsQuery>()
    .with_response("204", "The game is over and the client has seen its last change");
    doc.paths
        .add_path_operation(paths.action("events"), vec![HttpMethod::Get], events);
    let ticket = op(
        "stream_ticket",
        "A ticket for a seat's stream",
        "A ticket that opens this game's stream once, within 60 s, as the token's seat: `GET …/events?ticket=…`. For browsers, whose `EventSource` cannot send `Authorization`.",
        Auth::Token,
    )
    .build(
        true,
        None,
        "200",
        json_response("The ticket", reference_to::<StreamTicket>(), false),
        ProblemSet::READ_AS_SEAT,
    );
    doc.paths.add_path_operation(
        paths.action("stream-ticket"),
        vec![HttpMethod::Post],
        ticket,
    );
    let components = doc.components.get_or_insert_with(Default::default);
    add_seek_request::<G>(components, names);
    register::<SeekCreated>(components);
    let seek = Op {
        tag: "seeks",
        ..op(
            "seek",
            "Seek an opponent",
            "Opens a seek: the lobby pairs it with other seeks of this game with the same `options` and number of `players` (colours drawn at random unless `seat` asks for one; with a player key, each player's rating within the other's `rating_range`), creates the game and sends each seek `event: paired` on its own stream (`GET /v1/seeks/{id}/events`), with its seat's token: the seek's `secret`. A seek lives while its stream (or a long poll, `GET /v1/seeks/{id}?wait=`) is open, and two minutes without one. Open seeks are listed on the lobby's stream, without their secrets.",
            Auth::OptionalPlayerKey,
        )
    }
    .build(
        false,
        Some(json_body(names.reference("SeekRequest"), true)),
        "201",
        json_response(
            "The seek (paired already if it could be); `secret` is shown only now",
            reference_to::<SeekCreated>(),
            false,
        ),
        ProblemSet::CREATE,
    );
    doc.paths
        .add_path_operation(&paths.seeks, vec![HttpMethod::Post], seek);
}

/// `{Title}SeekRequest`: the seek body with `options` typed as this game's create body less
/// `players` and a fixed deal, so Swagger UI and generated clients show what a seek may carry.
fn add_seek_request<G: TurnGame>(components: &mut Components, names: &Names) {
    let RefOr::T(Schema::Object(mut options)) = G::Options::schema() else {
        unreachable!("a game's create options are an object")
    };
    let left_out = |field: &str| field == "players" || G::FIXED_DEAL_OPTIONS.contains(&field);
    options.properties.retain(|field, _| !left_out(field));
    options.required.retain(|field| !left_out(field));
    // The create body's example seats players.
    options.example = None;
    options.examples.clear();
    options.description = Some(format!(
        "The body of `POST /v1/{}/games` without `players` (the paired seeks are the players) or options that fix the deal in advance. A test table or `\"start\": false` is refused (422).",
        G::NAME
    ));
    components
        .schemas
        .insert(names.name("SeekOptions"), options.into());
    register_parts::<SeekRequest>(components);
    let RefOr::T(Schema::Object(mut request)) = SeekRequest::schema() else {
        unreachable!("the seek body is an object")
    };
    let description = request
        .properties
        .get("options")
        .and_then(|schema| match schema {
            RefOr::T(Schema::Object(o)) => o.description.clone(),
            _ => None,
        });
    request.properties.insert(
        "options".into(),
        utoipa::openapi::schema::OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .item(names.reference("SeekOptions"))
            .description(description)
            .into(),
    );
    request.description = Some(format!("Body of `POST /v1/{}/seeks`.", G::NAME));
    request.example = Some(serde_json::json!({"name": "alice", "seat": 0}));
    components
        .schemas
        .insert(names.name("SeekRequest"), request.into());
}

/// Additions to a built operation.
trait OperationExt {
    /// The query parameters `P` describes.
    fn with_query<P: IntoParams>(self) -> Self;
    /// A response without a body.
    fn with_response(self, status: &str, description: &str) -> Self;
}

impl OperationExt for Operation {
    fn with_query<P: IntoParams>(mut self) -> Self {
        self.parameters
            .get_or_insert_with(Vec::new)
            .extend(P::into_params(|| Some(ParameterIn::Query)));
        self
    }

    fn with_response(mut self, status: &str, description: &str) -> Self {
        self.responses.responses.insert(
            status.to_owned(),
            RefOr::T(ResponseBuilder::new().description(description).build()),
        );
        self
    }
}

fn add_message<G: TurnGame>(doc: &mut OpenApi, names: &Names, paths: &GamePaths) {
    let operation = Op {
        names,
        tag: G::NAME,
        id: "message".into(),
        summary: "Send a message to a seat",
        description: "A message from the token's seat to another seat: only the receiver sees the text; everyone sees that a message was sent.",
        auth: Auth::Token,
    }
    .build(
        true,
        Some(json_body(reference_to::<MessageRequest>(), true)),
        "200",
        json_response("The game after the message", names.reference("Outcome"), true),
        ProblemSet::MOVE,
    );
    doc.paths
        .add_path_operation(paths.action("messages"), vec![HttpMethod::Post], operation);
}
