//! Reading the top-level members of a JSON-RPC envelope (a request on the server, a reply on
//! the client) as raw JSON borrowed from the body, in one pass and without copying.

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// What a JSON text is: an object, with the raw values of the members asked for, or the kind
/// of value it is instead (`"an array"`, `"a string"`, …).
pub(crate) enum Envelope<'a, const N: usize> {
    Object(Members<'a, N>),
    // The server answers every non-object alike; the client names it.
    Other(#[cfg_attr(not(feature = "client"), allow(dead_code))] &'static str),
}

/// The members asked for of an object; every other member is skipped.
pub(crate) struct Members<'a, const N: usize> {
    /// The raw value of each name asked for, in the order asked; the last one where a name
    /// is given more than once.
    pub(crate) values: [Option<&'a RawValue>; N],
    /// The first name asked for that the object gives more than once.
    pub(crate) repeated: Option<&'static str>,
}

/// Reads `body` (one JSON value and nothing after it) for the members `names`. The server
/// passes a [`StrRead`](serde_json::de::StrRead) over a body it has checked is UTF-8 (a
/// [`SliceRead`](serde_json::de::SliceRead) does not check the strings it skips); the client
/// a `SliceRead`.
pub(crate) fn read<'a, const N: usize>(
    body: impl serde_json::de::Read<'a>,
    names: [&'static str; N],
) -> Result<Envelope<'a, N>, serde_json::Error> {
    let mut de = serde_json::Deserializer::new(body);
    let envelope = Whole(names).deserialize(&mut de)?;
    de.end()?;
    Ok(envelope)
}

/// The whole value, with the names asked for.
struct Whole<const N: usize>([&'static str; N]);

/// A member name: the index of the name asked for, or `None` to skip the member.
struct Name<'n, const N: usize>(&'n [&'static str; N]);

impl<'de, const N: usize> DeserializeSeed<'de> for Name<'_, N> {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<const N: usize> Visitor<'_> for Name<'_, N> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|n| *n == name))
    }
}

impl<'de, const N: usize> DeserializeSeed<'de> for Whole<N> {
    type Value = Envelope<'de, N>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Envelope<'de, N>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, const N: usize> Visitor<'de> for Whole<N> {
    type Value = Envelope<'de, N>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Envelope<'de, N>, A::Error> {
        let mut members = Members {
            values: [None; N],
            repeated: None,
        };
        while let Some(key) = map.next_key_seed(Name(&self.0))? {
            let Some(i) = key else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let value = map.next_value::<&'de RawValue>()?;
            if members.values[i].replace(value).is_some() {
                members.repeated.get_or_insert(self.0[i]);
            }
        }
        Ok(Envelope::Object(members))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Envelope<'de, N>, A::Error> {
        // Read to the end, so that a broken array is reported as not JSON.
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Envelope::Other("an array"))
    }

    fn visit_str<E>(self, _: &str) -> Result<Envelope<'de, N>, E> {
        Ok(Envelope::Other("a string"))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Envelope<'de, N>, E> {
        Ok(Envelope::Other("a boolean"))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Envelope<'de, N>, E> {
        Ok(Envelope::Other("a number"))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Envelope<'de, N>, E> {
        Ok(Envelope::Other("a number"))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Envelope<'de, N>, E> {
        Ok(Envelope::Other("a number"))
    }

    fn visit_unit<E>(self) -> Result<Envelope<'de, N>, E> {
        Ok(Envelope::Other("null"))
    }
}

/// A reply `body` that is a plain success reply to request `id` (`"jsonrpc":"2.0"`, that id,
/// a `result` and no `error`, no member given twice, nothing after the object), with its
/// `result` decoded as `R` in the same pass over the body; `None` for anything else, which the
/// caller then reads member by member to say what is wrong.
#[cfg(feature = "client")]
pub(crate) fn read_success<R: serde::de::DeserializeOwned>(body: &[u8], id: u64) -> Option<R> {
    // Checking the whole body once is cheaper than checking each string as it is read.
    let mut de = serde_json::Deserializer::from_str(std::str::from_utf8(body).ok()?);
    let reply = de.deserialize_map(Success(std::marker::PhantomData)).ok()?;
    de.end().ok()?;
    let (jsonrpc, reply_id, result) = reply?;
    (jsonrpc.get() == r#""2.0""# && reply_id.get().parse::<u64>() == Ok(id)).then_some(result)
}

/// The members of a plain success reply: `jsonrpc` and `id` raw, `result` typed; `None` when
/// one is missing or repeated or an `error` is given.
#[cfg(feature = "client")]
struct Success<R>(std::marker::PhantomData<R>);

#[cfg(feature = "client")]
type SuccessMembers<'a, R> = Option<(&'a RawValue, &'a RawValue, R)>;

#[cfg(feature = "client")]
impl<'de, R: serde::Deserialize<'de>> Visitor<'de> for Success<R> {
    type Value = SuccessMembers<'de, R>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC reply")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        const NAMES: [&str; 4] = ["jsonrpc", "result", "error", "id"];
        let (mut jsonrpc, mut id, mut result) = (None, None, None);
        while let Some(key) = map.next_key_seed(Name(&NAMES))? {
            // Stopping early leaves the object unread: the caller sees an error either way.
            let repeated = match key {
                None => map.next_value::<IgnoredAny>().map(|_| false)?,
                Some(0) => jsonrpc
                    .replace(map.next_value::<&'de RawValue>()?)
                    .is_some(),
                Some(1) if result.is_none() => {
                    result = Some(map.next_value::<R>()?);
                    false
                }
                Some(3) => id.replace(map.next_value::<&'de RawValue>()?).is_some(),
                // A second `result`, or an `error`.
                Some(_) => true,
            };
            if repeated {
                return Ok(None);
            }
        }
        Ok(jsonrpc.zip(id).zip(result).map(|((j, i), r)| (j, i, r)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::de::{SliceRead, StrRead};

    fn object<'a, const N: usize>(body: &'a str, names: [&'static str; N]) -> Members<'a, N> {
        match read(serde_json::de::StrRead::new(body), names) {
            Ok(Envelope::Object(m)) => m,
            Ok(Envelope::Other(kind)) => panic!("{body}: {kind}"),
            Err(e) => panic!("{body}: {e}"),
        }
    }

    #[test]
    fn reads_the_members_asked_for_and_skips_the_rest() {
        let m = object(r#"{"x":{"y":[1]},"b":2,"a":"t","c":null}"#, ["a", "b"]);
        let got: Vec<Option<&str>> = m.values.iter().map(|v| v.map(RawValue::get)).collect();
        assert_eq!(got, [Some(r#""t""#), Some("2")]);
        assert_eq!(m.repeated, None);
        // Escaped names are names; a repeated one keeps its last value and is reported.
        let m = object(r#"{"\u0061":1,"b":2,"a":3}"#, ["a", "b"]);
        assert_eq!(m.values[0].map(RawValue::get), Some("3"));
        assert_eq!(m.repeated, Some("a"));
    }

    #[cfg(feature = "client")]
    #[test]
    fn a_plain_success_reply_is_read_in_one_pass_and_nothing_else_is() {
        let ok = |body: &str| read_success::<Vec<u8>>(body.as_bytes(), 7);
        assert_eq!(
            ok(r#"{"jsonrpc":"2.0","result":[1,2],"id":7}"#),
            Some(vec![1, 2])
        );
        assert_eq!(
            ok(r#"{"id":7,"x":{"y":1},"result":[],"jsonrpc":"2.0"}"#),
            Some(vec![])
        );
        for body in [
            r#"{"jsonrpc":"2.0","result":[1],"id":8}"#,
            r#"{"jsonrpc":"2.0","result":[1],"id":"7"}"#,
            r#"{"jsonrpc":"2.0","result":[1],"id":null}"#,
            r#"{"jsonrpc":"2.0","result":[1]}"#,
            r#"{"jsonrpc":"1.0","result":[1],"id":7}"#,
            r#"{"jsonrpc":"2\u002e0","result":[1],"id":7}"#,
            r#"{"result":[1],"id":7}"#,
            r#"{"jsonrpc":"2.0","result":[1],"error":{},"id":7}"#,
            r#"{"jsonrpc":"2.0","result":[1],"result":[2],"id":7}"#,
            r#"{"jsonrpc":"2.0","jsonrpc":"2.0","result":[1],"id":7}"#,
            r#"{"jsonrpc":"2.0","result":[1],"id":7,"id":7}"#,
            r#"{"jsonrpc":"2.0","error":{"code":1,"message":"m"},"id":7}"#,
            r#"{"jsonrpc":"2.0","result":["x"],"id":7}"#,
            r#"{"jsonrpc":"2.0","result":[1],"id":7} x"#,
            r#"[{"jsonrpc":"2.0","result":[1],"id":7}]"#,
            "",
        ] {
            assert_eq!(ok(body), None, "{body}");
        }
    }

    #[test]
    fn says_what_a_body_is_instead_of_an_object() {
        for (body, kind) in [
            ("[1, {}]", "an array"),
            (r#""x""#, "a string"),
            ("true", "a boolean"),
            ("-1", "a number"),
            ("1.5", "a number"),
            ("null", "null"),
        ] {
            assert!(
                matches!(read(StrRead::new(body), ["a"]), Ok(Envelope::Other(k)) if k == kind),
                "{body}"
            );
        }
        // Broken JSON, and JSON with text after it, are errors of the parser.
        assert!(read(StrRead::new("[1,"), ["a"]).is_err());
        assert!(read(SliceRead::new(b"{} x"), ["a"]).is_err());
    }
}
