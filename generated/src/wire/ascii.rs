//! A mark for text that is known to need no escaping in JSON.
//!
//! Many wire values are written as plain ASCII: cb58 IDs, bech32 addresses, hex, decimal
//! digits. A JSON writer normally looks at every byte of a string to find the ones it must
//! escape. [`serialize`] hands such text to the serializer wrapped in a newtype struct with a
//! private name, [`TOKEN`]. Every serializer writes a newtype struct as its inner value, so
//! serde_json and any other format write the same string as before. Our own writer,
//! [`crate::rpc::server::write::json_write`], recognises the name and copies the text between quotes without
//! looking at its bytes.

/// The name of the newtype struct that marks text needing no escaping. It is private: only
/// [`serialize`] should produce it, and only our JSON writer looks for it.
pub(crate) const TOKEN: &str = "$avalanche_rpc::ascii";

/// Serializes `text`, which must be printable ASCII without `"` or `\` (bytes 0x20 to 0x7e,
/// except 0x22 and 0x5c), as a string.
///
/// It calls `serialize_newtype_struct(TOKEN, text)`. serde_json, like any serializer, writes
/// a newtype struct as its inner value, so it writes the string as usual (scanning it for
/// escapes, finding none). Our writer, [`crate::rpc::server::write::json_write`], writes it between quotes
/// without scanning. Debug builds check the promise about the bytes; release builds trust it,
/// and a broken promise there gives invalid JSON from our writer.
pub(crate) fn serialize<S: serde::Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    debug_assert!(
        text.bytes()
            .all(|b| (0x20..=0x7e).contains(&b) && b != b'"' && b != b'\\'),
        "text marked as plain ASCII needs escaping in JSON: {text:?}"
    );
    s.serialize_newtype_struct(TOKEN, text)
}
