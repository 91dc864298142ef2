//! The OpenAPI schema of [`PlayerSpec`]: exactly one of a human (`{"name"}`), an AI
//! (`{"ai", "name"?}`) or an open seat (`{"open": true}`), as seat planning accepts them. A plain
//! object of three optional fields documented most combinations as valid though they are refused.

use serde_json::{json, Value};
use utoipa::openapi::schema::{
    AdditionalProperties, ObjectBuilder, OneOfBuilder, Ref, Schema, SchemaType, Type,
};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use super::turn::{AiLevel, PlayerSpec};

/// Anything but control characters, with at least one character that is not a space (names
/// are trimmed, then 1–32 characters).
const NAME_PATTERN: &str = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$";

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
        let human = shape("Human", "A human player's seat (1–32 characters).")
            .property("name", name(false).examples([json!("alice")]))
            .required("name")
            .property("ai", no_ai())
            .property("open", not_open());
        let ai = shape("AI", "An AI seat, named `AI` unless named.")
            .property("ai", RefOr::Ref(Ref::from_schema_name(AiLevel::name())))
            .required("ai")
            .property("name", name(true))
            .property("open", not_open());
        let open = shape("Open", "A seat somebody joins later with `POST …/join`.")
            .property("open", only(&[json!(true)], false))
            .required("open")
            .property("ai", no_ai())
            .property("name", ObjectBuilder::new().schema_type(Type::Null));
        OneOfBuilder::new()
            .description(Some(
                "Who sits in a seat: `{\"name\": \"alice\"}`, `{\"ai\": \"hard\"}` (optionally \
                 named) or `{\"open\": true}`.",
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
