//! HTTP: one module per resource, the error mapping, the seat-token extractor and the OpenAPI
//! document. Handlers only translate between HTTP and the service layer.

pub mod auth;
pub mod conditional;
pub mod error;
pub mod games;
pub mod limits;
pub mod middleware;
pub mod openapi;
pub mod ops;
pub mod play;
pub mod players;
pub mod poker;
pub mod problems;
pub mod seeks;
pub mod stream;
pub mod turns;

use actix_web::{web, HttpResponse};

use crate::games::registry::Games;
use crate::service::ServiceError;
use error::ApiError;

/// Every route (the turn-based games' from `R`), and the extractor settings that turn bad input
/// into problem+json.
pub fn configure<R: Games>(cfg: &mut web::ServiceConfig, body_limit: usize) {
    cfg.app_data(
        web::JsonConfig::default()
            .limit(body_limit)
            // curl users forget `-H 'Content-Type: application/json'`; the body is JSON anyway.
            .content_type_required(false)
            .error_handler(move |err, _| error::json_error(err, body_limit)),
    )
    .app_data(web::PayloadConfig::default().limit(body_limit))
    .app_data(web::QueryConfig::default().error_handler(|err, _| error::query_error(err)))
    .app_data(web::PathConfig::default().error_handler(|err, _| error::path_error(err)))
    .configure(ops::configure::<R>)
    .configure(play::configure)
    .configure(games::configure)
    .configure(players::configure)
    .configure(turns::configure::<R>)
    .configure(seeks::configure)
    .configure(poker::configure)
    .default_service(web::to(ops::no_route));
}

/// A resource whose other methods answer 405 with `Allow` (the app's default would say 404).
pub fn resource(path: &str, allow: &'static str) -> actix_web::Resource {
    web::resource(path).default_service(web::to(move || async move {
        Err::<HttpResponse, _>(ApiError::MethodNotAllowed(allow))
    }))
}

/// A route for GET that answers HEAD the same way (actix sends no body for HEAD).
pub fn get_or_head() -> actix_web::Route {
    web::route().guard(actix_web::guard::Any(actix_web::guard::Get()).or(actix_web::guard::Head()))
}

/// The query of a route that takes no parameters: any parameter is a 400, as on every route
/// (an unknown parameter is a client's mistake worth telling, never silently ignored).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

/// A body that may be left out: no body or `null` means all defaults, so
/// `curl -X POST …/ai-move` just works. A body of only whitespace is not JSON, and is a 400 like
/// any other body that does not parse.
pub fn optional_json<T: serde::de::DeserializeOwned + Default>(body: &[u8]) -> Result<T, ApiError> {
    if body.is_empty() {
        return Ok(T::default());
    }
    serde_json::from_slice::<Option<Object<T>>>(body)
        .map(|o| o.map(|o| o.0).unwrap_or_default())
        .map_err(|e| {
            ApiError::Service(ServiceError::BadInput(format!(
                "invalid JSON body: {}",
                error::client_words(&e.to_string())
            )))
        })
}

/// A request body that must be a JSON object. serde would also build a struct from an array of
/// its fields (`[15, "freestyle", …]`), which no client means and the OpenAPI document forbids.
#[derive(Debug)]
pub struct Object<T>(pub T);

impl<'de, T: serde::de::DeserializeOwned> serde::Deserialize<'de> for Object<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let value = object_value(d)?;
        T::deserialize(value).map(Object).map_err(D::Error::custom)
    }
}

/// An [`Object`] body together with its JSON, for a service that keeps what was asked (a game's
/// create options, which a rematch creates its game from).
#[derive(Debug)]
pub struct ObjectWithJson<T>(pub T, pub serde_json::Value);

impl<'de, T: serde::de::DeserializeOwned> serde::Deserialize<'de> for ObjectWithJson<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let value = object_value(d)?;
        let typed = T::deserialize(&value).map_err(D::Error::custom)?;
        Ok(ObjectWithJson(typed, value))
    }
}

fn object_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<serde_json::Value, D::Error> {
    use serde::de::Error;
    let value = d.deserialize_any(UniqueKeys)?;
    if !value.is_object() {
        return Err(D::Error::custom("the body must be a JSON object"));
    }
    Ok(value)
}

/// Builds a [`serde_json::Value`] as `Value::deserialize` does, but refuses an object that names
/// a key twice, at any depth: serde_json keeps the last, so `{"move": "h8", "move": "a1"}` would
/// play a1 where a client (or a proxy that checked the first) meant h8.
struct UniqueKeys;

impl<'de> serde::de::Visitor<'de> for UniqueKeys {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(UniqueKeys)? {
            items.push(item);
        }
        Ok(items.into())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        use serde::de::Error;
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(A::Error::custom(format!(
                    "duplicate key {:?} in the JSON body",
                    key.chars().take(40).collect::<String>()
                )));
            }
            let value = map.next_value_seed(UniqueKeys)?;
            object.insert(key, value);
        }
        Ok(object.into())
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for UniqueKeys {
    type Value = serde_json::Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// A list's `limit` query parameter: 1..=100, `default` when absent.
pub fn page_limit(limit: Option<i64>, default: i64) -> Result<i64, ApiError> {
    let limit = limit.unwrap_or(default);
    if (1..=100).contains(&limit) {
        Ok(limit)
    } else {
        Err(ApiError::Service(ServiceError::Invalid(format!(
            "limit must be 1 to 100, not {limit}"
        ))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::turns::AiMoveRequest;

    #[test]
    fn an_optional_body_may_be_left_out_but_not_be_blank() {
        for absent in [&b""[..], b"null", b"{}", b" {} \n"] {
            let parsed: AiMoveRequest = optional_json(absent).unwrap();
            assert!(parsed.level.is_none() && parsed.time_ms.is_none());
        }
        // Whitespace alone is no JSON document (schemathesis sent "\n" to `ai-move`).
        for blank in [&b"\n"[..], b"   "] {
            assert!(optional_json::<AiMoveRequest>(blank).is_err());
        }
    }

    #[test]
    fn a_key_named_twice_is_refused_at_any_depth() {
        let parse = |body: &str| serde_json::from_str::<Object<serde_json::Value>>(body);
        for twice in [
            r#"{"move": "h8", "move": "a1"}"#,
            r#"{"a": {"b": 1, "c": [ {"d": 1, "d": 2} ], "b": 2}}"#,
            r#"{"a": [{"x": null, "x": null}]}"#,
        ] {
            let err = parse(twice).unwrap_err().to_string();
            assert!(err.contains("duplicate key"), "{twice}: {err}");
        }
        assert!(parse(r#"{"move": "h8", "move": "a1"}"#)
            .unwrap_err()
            .to_string()
            .contains(r#"duplicate key "move" in the JSON body"#));
        // Every other value survives as serde_json builds it; the same key in two objects is fine.
        let body =
            r#"{"a": {"k": 1}, "b": {"k": [1, -2, 1.5, 18446744073709551615, "s", true, null]}}"#;
        assert_eq!(
            parse(body).unwrap().0,
            serde_json::from_str::<serde_json::Value>(body).unwrap()
        );
        let err = optional_json::<AiMoveRequest>(br#"{"level": "easy", "level": "hard"}"#);
        assert!(
            matches!(&err, Err(ApiError::Service(ServiceError::BadInput(t))) if t.contains(r#"duplicate key "level""#)),
            "{err:?}"
        );
    }
}
