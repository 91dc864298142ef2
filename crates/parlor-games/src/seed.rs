//! Random seeds on the wire. A 64-bit seed does not fit a JavaScript number (exact only up to
//! 2^53), so answers write it as a decimal string; requests may send a string or a number.

use std::fmt;

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

/// A 64-bit random seed: `"18446744073709551615"` (a plain number is accepted on input).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seed(pub u64);

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl de::Visitor<'_> for Visit {
            type Value = Seed;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a seed: a whole number from 0 to 18446744073709551615, as a string or a number")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Seed, E> {
                Ok(Seed(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Seed, E> {
                u64::try_from(v)
                    .map(Seed)
                    .map_err(|_| E::custom("a seed is not negative"))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Seed, E> {
                Err(E::custom(
                    "a seed is a whole number; send large seeds as strings",
                ))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Seed, E> {
                v.trim().parse().map(Seed).map_err(|_| {
                    E::custom("a seed is a whole number from 0 to 18446744073709551615")
                })
            }
        }
        d.deserialize_any(Visit)
    }
}

impl PartialSchema for Seed {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(SchemaType::Type(Type::String))
                    .pattern(Some("^[0-9]{1,20}$")),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(SchemaType::Type(Type::Integer))
                    .minimum(Some(0))
                    .maximum(Some(u64::MAX as f64)),
            )
            .description(Some(
                "A 64-bit seed. Answers write it as a decimal string (JavaScript numbers lose \
                 precision above 2^53); requests may send the string or a JSON integer.",
            ))
            .examples([serde_json::json!("12345678901234567890")])
            .into()
    }
}

impl ToSchema for Seed {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_travel_as_strings_and_arrive_either_way() {
        let big = Seed(u64::MAX);
        assert_eq!(
            serde_json::to_string(&big).unwrap(),
            "\"18446744073709551615\""
        );
        assert_eq!(
            serde_json::from_str::<Seed>("\"18446744073709551615\"").unwrap(),
            big
        );
        assert_eq!(serde_json::from_str::<Seed>("42").unwrap(), Seed(42));
        for bad in [
            "-1",
            "1.5",
            "\"x\"",
            "\"18446744073709551616\"",
            "null",
            "[]",
        ] {
            assert!(serde_json::from_str::<Seed>(bad).is_err(), "{bad}");
        }
    }
}
