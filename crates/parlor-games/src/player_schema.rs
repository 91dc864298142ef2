//! The OpenAPI schema of [`PlayerSpec`]: exactly one of a human (`{"name"}`), an AI
//! (`{"ai", "name"?}`) or an open seat (`{"open": true | "invite" | {"for": name}}`), as seat
//! planning accepts them. A plain
//! object of three optional fields documented most combinations as valid though they are refused.

use serde_json::{json, Value};
use utoipa::openapi::schema::{
    AdditionalProperties, ObjectBuilder, OneOfBuilder, Ref, Schema, SchemaType, Type,
};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use super::turn::{AiLevel, PlayerSpec};

/// Anything but control characters and the Basic Multilingual Plane's invisible characters
/// (Default_Ignorable_Code_Point, bidirectional controls included; the server refuses the other
/// planes' too), with at least one character that is not a space (names are trimmed, then 1–32
/// characters). `AI` (any case, look-alikes) is for AI seats only, which no pattern says.
const NAME_PATTERN: &str = r"^[^\x00-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]*[^\s\x00-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8][^\x00-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]*$";

/// `kind`, or `kind` and null.
fn typed(kind: Type, nullable: bool) -> ObjectBuilder {
    let kind = if nullable {
        SchemaType::from_iter([kind, Type::Null])
    } else {
        SchemaType::new(kind)
    };
    ObjectBuilder::new().schema_type(kind)
}

fn name(nullable: bool) -> ObjectBuilder {
    typed(Type::String, nullable)
        .min_length(Some(1))
        .max_length(Some(32))
        .pattern(Some(NAME_PATTERN))
}

/// A name as a request body gives it (`RegisterRequest`), for `#[schema(schema_with)]`.
pub fn player_name() -> Schema {
    name(false).into()
}

/// A name that may be left out or null (`JoinRequest`).
pub fn optional_player_name() -> Schema {
    name(true).into()
}

/// A boolean (or null, when `nullable`) that must be one of `values`.
fn only(values: &[Value], nullable: bool) -> ObjectBuilder {
    typed(Type::Boolean, nullable).enum_values(Some(values.iter().cloned()))
}

fn shape(title: &str, description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .title(Some(title))
        .description(Some(description))
        .additional_properties(Some(AdditionalProperties::FreeForm(false)))
}

impl PartialSchema for PlayerSpec {
    fn schema() -> RefOr<Schema> {
        let no_ai = || ObjectBuilder::new().schema_type(Type::Null);
        let not_open = || only(&[json!(false), Value::Null], true);
        let human = shape(
            "Human",
            "A human player's seat (1–32 characters, no invisible characters; not `AI`).",
        )
        .property("name", name(false).examples([json!("alice")]))
        .required("name")
        .property("ai", no_ai())
        .property("open", not_open());
        let ai = shape("AI", "An AI seat, named `AI` unless named.")
            .property("ai", RefOr::Ref(Ref::from_schema_name(AiLevel::name())))
            .required("ai")
            .property("name", name(true))
            .property("open", not_open());
        let anyone = only(&[json!(true)], false)
            .title(Some("Anyone"))
            .description(Some(
                "Open to anyone: the game is listed and the first `join` takes it.",
            ));
        let invite = typed(Type::String, false)
            .enum_values(Some([json!("invite")]))
            .title(Some("Invite"))
            .description(Some(
                "Reserved by invitation: the create answer's `invites` gives the seat's code, \
                 which `join` must present.",
            ));
        let reserved = shape(
            "Reserved",
            "Reserved for one registered player: only that player's key joins it.",
        )
        .property("for", name(false).examples([json!("carol")]))
        .required("for");
        let open_as = OneOfBuilder::new().item(anyone).item(invite).item(reserved);
        let open = shape(
            "Open",
            "A seat somebody joins later with `POST …/join`: anyone (`true`), the holder of its \
             invitation code (`\"invite\"`) or one registered player (`{\"for\": \"carol\"}`).",
        )
        .property("open", open_as)
        .required("open")
        .property("ai", no_ai())
        .property("name", ObjectBuilder::new().schema_type(Type::Null));
        OneOfBuilder::new()
            .description(Some(
                "Who sits in a seat: `{\"name\": \"alice\"}`, `{\"ai\": \"hard\"}` (optionally \
                 named) or an open seat: `{\"open\": true}` (anyone), `{\"open\": \"invite\"}` \
                 or `{\"open\": {\"for\": \"carol\"}}`.",
            ))
            .item(human)
            .item(ai)
            .item(open)
            .into()
    }
}

impl ToSchema for PlayerSpec {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("PlayerSpec")
    }

    /// The AI levels it refers to.
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((AiLevel::name().into_owned(), AiLevel::schema()));
        AiLevel::schemas(schemas);
    }
}

#[cfg(test)]
mod tests {
    use icu_properties::props::{BinaryProperty, DefaultIgnorableCodePoint};

    /// The `\uXXXX` and `\uXXXX-\uXXXX` items of the pattern's first character class.
    fn invisible_ranges(pattern: &str) -> Vec<(u32, u32)> {
        let class = &pattern[pattern.find('[').unwrap()..pattern.find(']').unwrap()];
        let hex = |s: &str| u32::from_str_radix(&s[..4], 16).unwrap();
        let mut ranges = Vec::new();
        let mut rest = class;
        while let Some(at) = rest.find("\\u") {
            let first = hex(&rest[at + 2..]);
            rest = &rest[at + 6..];
            match rest.strip_prefix("-\\u") {
                Some(end) => {
                    ranges.push((first, hex(end)));
                    rest = &end[4..];
                }
                None => ranges.push((first, first)),
            }
        }
        ranges
    }

    #[test]
    fn the_name_pattern_excludes_exactly_the_planes_first_invisible_characters() {
        for pattern in [super::NAME_PATTERN] {
            let ranges = invisible_ranges(pattern);
            assert!(!ranges.is_empty(), "{pattern}");
            for c in ('\u{A0}'..='\u{FFFF}').filter(|c| !c.is_control()) {
                let excluded = ranges.iter().any(|&(a, b)| (a..=b).contains(&(c as u32)));
                assert_eq!(
                    excluded,
                    DefaultIgnorableCodePoint::for_char(c),
                    "U+{:04X} in {pattern}",
                    c as u32
                );
            }
        }
    }
}
