//! JSON text made ahead of time and written into an answer as it is.
//!
//! A long Go game's answer carries its whole move list (API.md's state); writing 375 move names
//! again for every request made a request late in a game dearer than one at its start. The game
//! keeps the list written instead, a move appended at a time, and the answer copies it.
//!
//! serde_json copies a [`serde_json::value::RawValue`] into its output unread, but its public
//! ways to make one either parse the text (`RawValue::from_string`) or write it from a value
//! (`to_raw_value`), each as dear as writing the list again. [`ReadyJson`] serializes as
//! `RawValue` itself does: a struct of serde_json's reserved raw-value name, which serde_json's
//! writer copies and its `to_value` parses. That name is serde_json's own protocol, not public
//! API, so the tests below check what serde_json makes of it: a serde_json that changed it fails
//! them instead of writing the wrong thing.

use std::sync::Arc;

use serde::ser::{Serialize, SerializeStruct, Serializer};

/// The name by which serde_json (1.x, feature `raw_value`) tells a raw value to its serializers.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// Text that is already valid JSON; serializes to exactly that text. The text may be shared
/// with whoever keeps it written (an `Arc`), so an answer holding it copies nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadyJson(Arc<String>);

impl ReadyJson {
    /// Wraps `text`, which must be one valid JSON value: nothing checks it (checking would cost
    /// what keeping it ready saves), so only code that writes it from parts it knows may call this.
    pub fn trusted(text: impl Into<Arc<String>>) -> ReadyJson {
        let text = text.into();
        debug_assert!(
            serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok(),
            "not JSON: {text}"
        );
        ReadyJson(text)
    }
}

impl Serialize for ReadyJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        as_is(self.0.as_str(), serializer)
    }
}

/// Writes `text`, which must be one valid JSON value, as it is (see [`ReadyJson::trusted`]); for
/// `#[serde(serialize_with)]` on a field that borrows ready text.
pub fn as_is<T, S>(text: &T, serializer: S) -> Result<S::Ok, S::Error>
where
    T: AsRef<str> + ?Sized,
    S: Serializer,
{
    let mut raw = serializer.serialize_struct(RAW_VALUE_TOKEN, 1)?;
    raw.serialize_field(RAW_VALUE_TOKEN, text.as_ref())?;
    raw.end()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[derive(serde::Serialize)]
    struct Holder {
        before: u8,
        list: ReadyJson,
        after: &'static str,
    }

    fn holder() -> Holder {
        Holder {
            before: 1,
            list: ReadyJson::trusted(r#"["D4","Q16","pass"]"#.to_owned()),
            after: "x",
        }
    }

    #[test]
    fn is_written_as_the_text_it_holds() {
        assert_eq!(
            serde_json::to_string(&holder()).unwrap(),
            r#"{"before":1,"list":["D4","Q16","pass"],"after":"x"}"#
        );
    }

    #[test]
    fn becomes_the_value_it_holds() {
        assert_eq!(
            serde_json::to_value(holder()).unwrap(),
            json!({"before": 1, "list": ["D4", "Q16", "pass"], "after": "x"})
        );
    }
}
