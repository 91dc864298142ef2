//! The problem+json responses, declared once: each is a reusable response in the OpenAPI
//! document's components, and every route refers to the ones it can give.

use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{ContentBuilder, HeaderBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::ToResponse;

/// Declares each problem response: a unit type implementing `ToResponse` (for `utoipa::path`'s
/// `response = …`), its component name, status and description.
macro_rules! problems {
    ($( $ty:ident => $status:literal, $description:literal $(, retry: $retry:literal)?; )*) => {
        $(
            #[doc = $description]
            pub struct $ty;

            impl<'r> ToResponse<'r> for $ty {
                fn response() -> (&'r str, RefOr<Response>) {
                    (stringify!($ty), problem_response($description, false $(|| $retry)?))
                }
            }
        )*

        /// Every problem response with its status, for the components and for [`problem_refs`].
        pub fn all() -> Vec<(&'static str, &'static str, RefOr<Response>)> {
            vec![$( ($status, stringify!($ty), <$ty as ToResponse>::response().1), )*]
        }
    };
}

problems! {
    BadRequest => "400", "`invalid_request`: not JSON, wrong types, unknown fields or values, bad notation";
    Unauthorized => "401", "`unauthorized`: no valid `Authorization: Bearer <token>` where one is needed";
    Forbidden => "403", "`forbidden`: a valid token of another seat or another game";
    NotFound => "404", "`not_found`: no such game, deck, player or route (a malformed id too)";
    Conflict => "409", "`not_your_turn`, `game_over`, `not_started` or `conflict` (lost a race, no open seat): fetch the game and retry";
    PreconditionFailed => "412", "`precondition_failed`: the `If-Match` version is stale";
    PayloadTooLarge => "413", "`payload_too_large`: the body is over the configured limit";
    Unprocessable => "422", "`illegal_move` (the rules forbid it) or `invalid_request` (values out of range)";
    TooManyRequests => "429", "`rate_limited`: this client's rate of AI requests or of creations is used up (see `Retry-After`)", retry: true;
    Unavailable => "503", "`unavailable`: the database is down, every AI thread is busy or the server holds as many streams as it allows (see `Retry-After`)", retry: true;
}

fn problem_response(description: &str, retry_after: bool) -> RefOr<Response> {
    let mut response = ResponseBuilder::new().description(description).content(
        "application/problem+json",
        ContentBuilder::new()
            .schema(Some(RefOr::Ref(Ref::from_schema_name("Problem"))))
            .build(),
    );
    if retry_after {
        response = response.header(
            "Retry-After",
            HeaderBuilder::new()
                .schema(ObjectBuilder::new().schema_type(Type::String))
                .description(Some("Seconds to wait before retrying"))
                .build(),
        );
    }
    RefOr::T(response.build())
}

/// A set of problem statuses a route can answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProblemSet(&'static [&'static str]);

impl ProblemSet {
    pub const CREATE: ProblemSet = ProblemSet(&["400", "401", "403", "413", "422", "429", "503"]);
    pub const READ_AS_SEAT: ProblemSet = ProblemSet(&["400", "401", "403", "404", "503"]);
    pub const LIST: ProblemSet = ProblemSet(&["400", "404", "422", "503"]);
    pub const MOVE: ProblemSet = ProblemSet(&[
        "400", "401", "403", "404", "409", "412", "413", "422", "503",
    ]);
    pub const AI: ProblemSet = ProblemSet(&[
        "400", "401", "403", "404", "409", "412", "413", "422", "429", "503",
    ]);
    pub const JOIN: ProblemSet = ProblemSet(&[
        "400", "401", "403", "404", "409", "412", "413", "422", "503",
    ]);
    pub const SEAT_ACTION: ProblemSet =
        ProblemSet(&["400", "401", "403", "404", "409", "412", "422", "503"]);
    pub const REPORT: ProblemSet = ProblemSet(&["400", "404", "422", "429", "503"]);
}

/// References to the shared responses of `set`, by status.
pub fn problem_refs(set: ProblemSet) -> Vec<(String, RefOr<Response>)> {
    all()
        .into_iter()
        .filter(|(status, _, _)| set.0.contains(status))
        .map(|(status, name, _)| (status.to_owned(), RefOr::Ref(Ref::from_response_name(name))))
        .collect()
}

/// Puts every problem response into the document's components, once.
pub fn add_components(doc: &mut utoipa::openapi::OpenApi) {
    let components = doc.components.get_or_insert_with(Default::default);
    for (_, name, response) in all() {
        components.responses.insert(name.to_owned(), response);
    }
}
