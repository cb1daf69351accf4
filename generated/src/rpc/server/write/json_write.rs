//! Our own compact JSON writer. It appends to a `Vec<u8>` exactly the bytes
//! `serde_json::to_vec` writes for the same value; only its speed differs.
//!
//! serde_json looks at every byte of every string to find those JSON needs escaped. Most
//! strings of our replies are IDs, addresses, hex and decimal digits: plain ASCII that never
//! needs escaping. The wire types mark such text with [`ascii::serialize`], and this writer
//! copies marked text between quotes without looking at it. Everything else is written as
//! serde_json 1.x writes it with its compact formatter: the same escapes, the same numbers
//! (itoa for integers and zmij for floats, the crates serde_json uses), the same map keys and
//! errors, and serde_json's raw values (`RawValue`) copied as they are.
//!
//! The writer writes straight into the vector, with no `io::Write` in between, and allocates
//! nothing of its own per value.

use std::borrow::Cow;
use std::fmt::{self, Display};

use serde::ser::{self, Impossible, Serialize};

use crate::wire::ascii;

/// serde_json's private name for the struct a `RawValue` serializes as (feature `raw_value`):
/// its one field, of the same name, is JSON text to copy as it is.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// Appends the compact JSON of `value` to `out`: the bytes `serde_json::to_vec` gives, text
/// marked with [`ascii::serialize`] copied without being scanned for escapes. On an error,
/// `out` is left as it was.
pub(crate) fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    let start = out.len();
    let written = value.serialize(Writer { out: &mut *out });
    if written.is_err() {
        out.truncate(start);
    }
    written
}

/// The compact JSON of `value` in a new vector (see [`write()`]).
#[cfg(test)]
pub(crate) fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(128);
    write(&mut out, value)?;
    Ok(out)
}

/// Why a value could not be written: serde_json's message for the same failure (`key must be
/// a string`), or the message of a `Serialize` implementation's own error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Error {
    message: Cow<'static, str>,
}

impl Error {
    fn fixed(message: &'static str) -> Self {
        Self {
            message: Cow::Borrowed(message),
        }
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: Display>(message: T) -> Self {
        Self {
            message: Cow::Owned(message.to_string()),
        }
    }
}

fn key_must_be_a_string() -> Error {
    Error::fixed("key must be a string")
}

fn float_key_must_be_finite() -> Error {
    Error::fixed("float key must be finite (got NaN or +/-inf)")
}

fn expected_raw_value() -> Error {
    Error::fixed("expected RawValue")
}

/// What serde_json says when a raw value's struct has another field than its own.
fn expected_value() -> Error {
    Error::fixed("expected value")
}

/// What a `Display` implementation that fails on its own gives (serde_json panics there).
fn display_failed() -> Error {
    Error::fixed("a Display implementation returned an error")
}

// How each byte is written inside a JSON string. An entry 0: as it is; `u`: as `\u00XX`; any
// other entry `c`: as a backslash and `c`. As serde_json escapes: the control bytes 0x00 to
// 0x1f, `"` and `\`; nothing else (not DEL, not `/`, nothing beyond ASCII).
static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

static HEX_DIGITS: [u8; 16] = *b"0123456789abcdef";

/// Appends `text` between quotes, escaped.
fn write_str(out: &mut Vec<u8>, text: &str) {
    out.reserve(text.len() + 2);
    out.push(b'"');
    write_escaped(out, text);
    out.push(b'"');
}

/// Appends `text` escaped: each run of bytes that need no escape in one copy.
fn write_escaped(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    // Most text needs no escape: one look at every byte, then one copy.
    if !needs_escape(bytes) {
        out.extend_from_slice(bytes);
        return;
    }
    let mut run = 0;
    for (i, &byte) in bytes.iter().enumerate() {
        let escape = ESCAPE[usize::from(byte)];
        if escape == 0 {
            continue;
        }
        out.extend_from_slice(&bytes[run..i]);
        if escape == b'u' {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX_DIGITS[usize::from(byte >> 4)],
                HEX_DIGITS[usize::from(byte & 0xf)],
            ]);
        } else {
            out.extend_from_slice(&[b'\\', escape]);
        }
        run = i + 1;
    }
    out.extend_from_slice(&bytes[run..]);
}

/// Whether any byte of `bytes` is one JSON escapes (below 0x20, `"` or `\\`). Long text is
/// looked at with a branch-free fold the compiler vectorizes; text of 8 to 32 bytes (most
/// struct keys and values) eight bytes at a time in a `u64`, where the vector loop would
/// spend its time in its scalar tail; shorter text byte by byte.
fn needs_escape(bytes: &[u8]) -> bool {
    if !(8..=32).contains(&bytes.len()) {
        return bytes.iter().fold(false, |any, &b| {
            any | (b < 0x20) | (b == b'"') | (b == b'\\')
        });
    }
    let word_at = |at: usize| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        word_needs_escape(u64::from_le_bytes(word))
    };
    // Whole words, then the last eight bytes (overlapping the last whole word): no tail to
    // pad, which would be stored and read back at once (a stall on every short string).
    (0..bytes.len() / 8).fold(false, |any, i| any | word_at(i * 8)) | word_at(bytes.len() - 8)
}

/// Whether a byte of `word` is below 0x20, `"` or `\\`.
fn word_needs_escape(word: u64) -> bool {
    word_escapes(word) != 0
}

/// The bytes of `word` that are below 0x20, `"` or `\\`, as the high bit of each: the classic
/// tests for "a byte below n" (n <= 128) and "a zero byte" (after xor with the byte looked
/// for). Exact up to the lowest such byte (a borrow can mark bytes above it), so the first
/// one in text order is at `trailing_zeros() / 8` of a little-endian word.
pub(crate) fn word_escapes(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGHS;
    let zero = |x: u64| below(x, 1);
    below(word, 0x20)
        | zero(word ^ (ONES * u64::from(b'"')))
        | zero(word ^ (ONES * u64::from(b'\\')))
}

fn write_integer<I: itoa::Integer>(out: &mut Vec<u8>, value: I) {
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// A finite float as serde_json writes it (`0.1`, `1.0`, `-0.0`, `1e+300`).
fn write_finite<F: zmij::Float>(out: &mut Vec<u8>, value: F) {
    out.extend_from_slice(zmij::Buffer::new().format_finite(value).as_bytes());
}

/// Appends the `Display` text of `value` between quotes, escaped, without a `String` between.
fn write_display<T: Display + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    struct Escaping<'a>(&'a mut Vec<u8>);

    impl fmt::Write for Escaping<'_> {
        fn write_str(&mut self, text: &str) -> fmt::Result {
            write_escaped(self.0, text);
            Ok(())
        }
    }

    out.push(b'"');
    fmt::write(&mut Escaping(&mut *out), format_args!("{value}")).map_err(|_| display_failed())?;
    out.push(b'"');
    Ok(())
}

/// Writes the inner value of a newtype struct named [`ascii::TOKEN`]: its text between quotes,
/// unscanned, when it is a string; otherwise (not the marker's use, but possible) the value as
/// `fallback` writes it.
fn write_marked<T, S>(out: &mut Vec<u8>, value: &T, fallback: S) -> Result<(), Error>
where
    T: Serialize + ?Sized,
    S: FnOnce(&mut Vec<u8>) -> Result<(), Error>,
{
    let start = out.len();
    match value.serialize(MarkedText { out: &mut *out }) {
        Ok(()) => Ok(()),
        Err(_) => {
            out.truncate(start);
            fallback(out)
        }
    }
}

/// Whether a newtype struct's name is [`ascii::TOKEN`]: compared as a fixed-size array,
/// which compiles to two loads and compares instead of a call to `memcmp` (every ID, address
/// and number a reply holds asks).
fn is_marked(name: &str) -> bool {
    const TOKEN: &[u8; ascii::TOKEN.len()] = match ascii::TOKEN.as_bytes().first_chunk() {
        Some(token) => token,
        None => panic!("the token fits"),
    };
    name.as_bytes().first_chunk() == Some(TOKEN) && name.len() == TOKEN.len()
}

/// The serializer of a value.
struct Writer<'a> {
    out: &'a mut Vec<u8>,
}

/// Where a sequence, map or struct is: serde_json's states. A value that announced no
/// elements had its brackets written at once (`Empty`), as serde_json does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Empty,
    First,
    Rest,
    /// The struct serde_json's `RawValue` serializes as.
    Raw,
}

/// The serializer of a sequence, map or struct under way.
struct Compound<'a> {
    out: &'a mut Vec<u8>,
    state: State,
}

impl<'a> Writer<'a> {
    /// Opens an array or an object; with no elements announced it is closed at once.
    fn open(self, open: u8, close: u8, len: Option<usize>) -> Compound<'a> {
        self.out.push(open);
        let state = if len == Some(0) {
            self.out.push(close);
            State::Empty
        } else {
            State::First
        };
        Compound {
            out: self.out,
            state,
        }
    }

    /// Writes `{"variant":`, what a variant with data starts with.
    fn open_variant(&mut self, variant: &str) {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.push(b':');
    }
}

impl<'a> ser::Serializer for Writer<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.out
            .extend_from_slice(if value { b"true" } else { b"false" });
        Ok(())
    }

    fn serialize_i8(self, value: i8) -> Result<(), Error> {
        write_integer(self.out, value);
        Ok(())
    }

    fn serialize_i16(self, value: i16) -> Result<(), Error> {
        write_integer(self.out, value);
        Ok(())
    }

    fn serialize_i32(self, value: i32) -> Result<(), Error> {
        write_integer(self.out, value);
        Ok(())
    }

    fn serialize_i64(self, value: i64) -> Result<(), Error> {
        write_integer(self.out, value);
        Ok(())
    }

    fn serialize_i128(self, value: i128) -> Result<(), Error> {
        write_integer(self.out, value);
        Ok(())
    }

    fn serialize_u8(self, value: u8) -> Result<(), Error> {
        write_integer(self.out, value);
        Ok(())
    }

    fn serialize_u16(self, value: u16) -> Result<(), Error> {
        write_integer(self.out, value);
        Ok(())
    }

    fn serialize_u32(self, value: u32) -> Result<(), Error> {
        write_integer(self.out, value);
        Ok(())
    }

    fn serialize_u64(self, value: u64) -> Result<(), Error> {
        write_integer(self.out, value);
        Ok(())
    }

    fn serialize_u128(self, value: u128) -> Result<(), Error> {
        write_integer(self.out, value);
        Ok(())
    }

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        if value.is_finite() {
            write_finite(self.out, value);
        } else {
            self.out.extend_from_slice(b"null");
        }
        Ok(())
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        if value.is_finite() {
            write_finite(self.out, value);
        } else {
            self.out.extend_from_slice(b"null");
        }
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        write_str(self.out, value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        write_str(self.out, value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), Error> {
        self.out.push(b'[');
        for (i, &byte) in value.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            write_integer(self.out, byte);
        }
        self.out.push(b']');
        Ok(())
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if is_marked(name) {
            write_marked(self.out, value, |out| value.serialize(Writer { out }))
        } else {
            value.serialize(self)
        }
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        mut self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.open_variant(variant);
        value.serialize(Writer {
            out: &mut *self.out,
        })?;
        self.out.push(b'}');
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.open(b'[', b']', len))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        mut self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.open_variant(variant);
        self.serialize_seq(Some(len))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.open(b'{', b'}', len))
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        if name == RAW_VALUE_TOKEN {
            Ok(Compound {
                out: self.out,
                state: State::Raw,
            })
        } else {
            self.serialize_map(Some(len))
        }
    }

    fn serialize_struct_variant(
        mut self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.open_variant(variant);
        self.serialize_map(Some(len))
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        write_display(self.out, value)
    }
}

impl Compound<'_> {
    /// Writes the `,` before every element or key but the first, as serde_json: also after
    /// brackets closed at once (a value that announced no elements and then wrote some gets
    /// `[],1]` from serde_json, and from us).
    fn separate(&mut self) {
        if self.state != State::First {
            self.out.push(b',');
        }
        self.state = State::Rest;
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if self.state == State::Raw {
            return Err(expected_value());
        }
        self.separate();
        value.serialize(Writer {
            out: &mut *self.out,
        })
    }

    /// Closes what is open unless it was closed at once, then writes `after` (the `}` of a
    /// variant, or nothing).
    fn close(self, close: u8, after: &[u8]) -> Result<(), Error> {
        match self.state {
            State::Raw => return Ok(()),
            State::Empty => {}
            State::First | State::Rest => self.out.push(close),
        }
        self.out.extend_from_slice(after);
        Ok(())
    }
}

/// The array-like compounds: each element written by `element`; at the end the `]`, and for
/// a tuple variant the `}` of its object.
macro_rules! array_like {
    ($($name:ident :: $method:ident => $after:literal;)*) => {$(
        impl ser::$name for Compound<'_> {
            type Ok = ();
            type Error = Error;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.element(value)
            }

            fn end(self) -> Result<(), Error> {
                self.close(b']', $after)
            }
        }
    )*};
}

array_like! {
    SerializeSeq::serialize_element => b"";
    SerializeTuple::serialize_element => b"";
    SerializeTupleStruct::serialize_field => b"";
    SerializeTupleVariant::serialize_field => b"}";
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        if self.state == State::Raw {
            return Err(expected_value());
        }
        self.separate();
        key.serialize(KeyWriter {
            out: &mut *self.out,
        })
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if self.state == State::Raw {
            return Err(expected_value());
        }
        self.out.push(b':');
        value.serialize(Writer {
            out: &mut *self.out,
        })
    }

    fn end(self) -> Result<(), Error> {
        self.close(b'}', b"")
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if self.state != State::Raw {
            // As `serialize_entry` with a string key, without the key's serializer.
            self.separate();
            write_str(self.out, key);
            self.out.push(b':');
            return value.serialize(Writer {
                out: &mut *self.out,
            });
        }
        if key == RAW_VALUE_TOKEN {
            value.serialize(RawText {
                out: &mut *self.out,
            })
        } else {
            Err(expected_value())
        }
    }

    fn end(self) -> Result<(), Error> {
        self.close(b'}', b"")
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        ser::SerializeMap::serialize_entry(self, key, value)
    }

    fn end(self) -> Result<(), Error> {
        self.close(b'}', b"}")
    }
}

/// The serializer of a map key: what serde_json accepts there, written as it writes it
/// (strings; integers, bools and finite floats between quotes; unit variants by name; the
/// inner value of a newtype struct or an option), and serde_json's error for the rest.
struct KeyWriter<'a> {
    out: &'a mut Vec<u8>,
}

impl KeyWriter<'_> {
    fn quoted_integer<I: itoa::Integer>(self, value: I) -> Result<(), Error> {
        self.out.push(b'"');
        write_integer(self.out, value);
        self.out.push(b'"');
        Ok(())
    }

    fn quoted_float<F: zmij::Float>(self, value: F, finite: bool) -> Result<(), Error> {
        if !finite {
            return Err(float_key_must_be_finite());
        }
        self.out.push(b'"');
        write_finite(self.out, value);
        self.out.push(b'"');
        Ok(())
    }
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.out
            .extend_from_slice(if value { b"\"true\"" } else { b"\"false\"" });
        Ok(())
    }

    fn serialize_i8(self, value: i8) -> Result<(), Error> {
        self.quoted_integer(value)
    }

    fn serialize_i16(self, value: i16) -> Result<(), Error> {
        self.quoted_integer(value)
    }

    fn serialize_i32(self, value: i32) -> Result<(), Error> {
        self.quoted_integer(value)
    }

    fn serialize_i64(self, value: i64) -> Result<(), Error> {
        self.quoted_integer(value)
    }

    fn serialize_i128(self, value: i128) -> Result<(), Error> {
        self.quoted_integer(value)
    }

    fn serialize_u8(self, value: u8) -> Result<(), Error> {
        self.quoted_integer(value)
    }

    fn serialize_u16(self, value: u16) -> Result<(), Error> {
        self.quoted_integer(value)
    }

    fn serialize_u32(self, value: u32) -> Result<(), Error> {
        self.quoted_integer(value)
    }

    fn serialize_u64(self, value: u64) -> Result<(), Error> {
        self.quoted_integer(value)
    }

    fn serialize_u128(self, value: u128) -> Result<(), Error> {
        self.quoted_integer(value)
    }

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        self.quoted_float(value, value.is_finite())
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        self.quoted_float(value, value.is_finite())
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        write_str(self.out, value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        write_str(self.out, value);
        Ok(())
    }

    fn serialize_bytes(self, _value: &[u8]) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_none(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if is_marked(name) {
            write_marked(self.out, value, |out| value.serialize(KeyWriter { out }))
        } else {
            value.serialize(self)
        }
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        write_display(self.out, value)
    }
}

/// Takes the text of a marked value ([`ascii::TOKEN`]) and writes it between quotes, as it is.
/// It accepts a string only; anything else fails (writing nothing), and the caller then writes
/// the value as usual.
struct MarkedText<'a> {
    out: &'a mut Vec<u8>,
}

fn not_marked_text() -> Error {
    Error::fixed("not a string")
}

/// The methods of a serializer that accepts a string only, failing with `$error` otherwise.
macro_rules! only_strings {
    ($error:expr) => {
        type Ok = ();
        type Error = Error;
        type SerializeSeq = Impossible<(), Error>;
        type SerializeTuple = Impossible<(), Error>;
        type SerializeTupleStruct = Impossible<(), Error>;
        type SerializeTupleVariant = Impossible<(), Error>;
        type SerializeMap = Impossible<(), Error>;
        type SerializeStruct = Impossible<(), Error>;
        type SerializeStructVariant = Impossible<(), Error>;

        fn serialize_bool(self, _: bool) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_i8(self, _: i8) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_i16(self, _: i16) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_i32(self, _: i32) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_i64(self, _: i64) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_i128(self, _: i128) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_u8(self, _: u8) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_u16(self, _: u16) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_u32(self, _: u32) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_u64(self, _: u64) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_u128(self, _: u128) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_f32(self, _: f32) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_f64(self, _: f64) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_char(self, _: char) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_none(self) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_unit(self) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
        ) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: &T,
        ) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Error> {
            Err($error)
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
            Err($error)
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
            Err($error)
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, Error> {
            Err($error)
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, Error> {
            Err($error)
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
            Err($error)
        }
        fn serialize_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStruct, Error> {
            Err($error)
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, Error> {
            Err($error)
        }
    };
}

impl ser::Serializer for MarkedText<'_> {
    only_strings!(not_marked_text());

    fn serialize_str(self, text: &str) -> Result<(), Error> {
        self.out.reserve(text.len() + 2);
        self.out.push(b'"');
        self.out.extend_from_slice(text.as_bytes());
        self.out.push(b'"');
        Ok(())
    }

    // Text from `Display` was not promised to be plain: the caller writes it escaped.
    fn collect_str<T: Display + ?Sized>(self, _: &T) -> Result<(), Error> {
        Err(not_marked_text())
    }
}

/// Writes the text of a serde_json `RawValue` as it is, as serde_json does: no quotes, no
/// escapes.
struct RawText<'a> {
    out: &'a mut Vec<u8>,
}

impl ser::Serializer for RawText<'_> {
    only_strings!(expected_raw_value());

    fn serialize_str(self, text: &str) -> Result<(), Error> {
        self.out.extend_from_slice(text.as_bytes());
        Ok(())
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        struct Verbatim<'a>(&'a mut Vec<u8>);

        impl fmt::Write for Verbatim<'_> {
            fn write_str(&mut self, text: &str) -> fmt::Result {
                self.0.extend_from_slice(text.as_bytes());
                Ok(())
            }
        }

        fmt::write(&mut Verbatim(self.out), format_args!("{value}")).map_err(|_| display_failed())
    }
}

/// Checks that our writer writes `value` as serde_json does: the same bytes, or errors with
/// the same message. The crate's tests call it for every typed value they roundtrip through a
/// method's params or result type (`catalog::roundtrip`).
#[cfg(test)]
pub(crate) fn assert_same_as_serde_json<T: Serialize + ?Sized>(value: &T) {
    match (serde_json::to_vec(value), to_vec(value)) {
        (Ok(theirs), Ok(ours)) => assert!(
            ours == theirs,
            "our writer wrote\n{}\nserde_json wrote\n{}",
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        ),
        (Err(theirs), Err(ours)) => assert_eq!(ours.to_string(), theirs.to_string()),
        (theirs, ours) => panic!(
            "serde_json gave {:?}, our writer {:?}",
            theirs.map(|b| String::from_utf8_lossy(&b).into_owned()),
            ours.map(|b| String::from_utf8_lossy(&b).into_owned())
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::{Serialize, Serializer};
    use serde_json::value::RawValue;
    use serde_json::{Map, Number, Value, json};

    use super::{assert_same_as_serde_json, to_vec, write};
    use crate::wire::ascii;

    #[test]
    fn the_escape_check_finds_every_byte_json_escapes_in_every_position() {
        for len in 1..=40 {
            for at in 0..len {
                for byte in 0..=u8::MAX {
                    let mut bytes = vec![b'x'; len];
                    bytes[at] = byte;
                    let want = byte < 0x20 || byte == b'"' || byte == b'\\';
                    assert_eq!(
                        super::needs_escape(&bytes),
                        want,
                        "{byte:#x} at {at} of {len}"
                    );
                }
            }
        }
        // Bytes above 0x7f (UTF-8) beside one that needs escaping, and alone.
        assert!(super::needs_escape("é\"".as_bytes()));
        assert!(!super::needs_escape("é€𝄞 and more text, é€𝄞".as_bytes()));
        assert!(!super::needs_escape(b""));
    }

    /// Both writers' output for `value`, checked equal; ours as text.
    fn same<T: Serialize + ?Sized>(value: &T) -> String {
        assert_same_as_serde_json(value);
        String::from_utf8(to_vec(value).expect("writes")).expect("UTF-8")
    }

    /// The error both writers give for `value`, checked equal.
    fn same_error<T: Serialize + ?Sized>(value: &T) -> String {
        let theirs = serde_json::to_vec(value)
            .expect_err("serde_json fails")
            .to_string();
        let ours = to_vec(value).expect_err("our writer fails").to_string();
        assert_eq!(ours, theirs);
        ours
    }

    /// Every byte JSON escapes (the control bytes, `"`, `\`), and some it does not.
    fn awkward_text() -> String {
        let mut text: String = (0u8..0x20).map(char::from).collect();
        text.push_str("\x7f\"\\/ plain é € 😀 \u{2028}\u{2029}\u{feff} end\\");
        text
    }

    #[derive(Serialize)]
    struct UnitStruct;

    #[derive(Serialize)]
    struct Newtype(u32);

    #[derive(Serialize)]
    struct EmptyTupleStruct();

    #[derive(Serialize)]
    struct TupleStruct(i8, String, Option<u8>);

    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Key {
        Alpha,
        #[serde(rename = "be\"ta")]
        Beta,
    }

    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    struct NewtypeKey(String);

    #[derive(Serialize)]
    enum Every {
        Unit,
        Newtype(i64),
        Tuple(u8, char),
        EmptyTuple(),
        Struct {
            a: bool,
            b: Option<String>,
        },
        EmptyStruct {},
        #[serde(rename = "ren\named")]
        Renamed(UnitStruct),
    }

    #[derive(Serialize)]
    struct Inner {
        x: u8,
        y: &'static str,
    }

    #[derive(Serialize)]
    #[serde(untagged)]
    enum Untagged {
        Number(u32),
        Record { x: String },
        List(Vec<u8>),
        Nothing,
    }

    #[derive(Serialize)]
    #[serde(tag = "t")]
    enum Internal {
        Record { x: u8 },
        Wrapped(Inner),
        Bare,
    }

    #[derive(Serialize)]
    #[serde(tag = "t", content = "c")]
    enum Adjacent {
        One(u8),
        Record { x: u8 },
        Bare,
        Pair(u8, u8),
    }

    #[derive(Serialize)]
    struct Flat {
        id: u32,
        #[serde(flatten)]
        rest: BTreeMap<String, Value>,
        #[serde(flatten)]
        inner: Inner,
    }

    /// Bytes, written through `serialize_bytes`.
    struct Bytes(&'static [u8]);

    impl Serialize for Bytes {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }

    /// A map written with `collect_map` (its length unknown), keys of any type.
    struct Pairs<K, V>(Vec<(K, V)>);

    impl<K: Serialize, V: Serialize> Serialize for Pairs<K, V> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }

    /// A value written with `collect_str`.
    struct Shown(&'static str);

    impl std::fmt::Display for Shown {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "<{}|{}>", self.0, self.0.len())
        }
    }

    impl Serialize for Shown {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(self)
        }
    }

    #[derive(Serialize)]
    struct Everything {
        yes: bool,
        no: bool,
        i8s: [i8; 3],
        i16s: [i16; 3],
        i32s: [i32; 3],
        i64s: [i64; 3],
        i128s: [i128; 3],
        u8s: [u8; 2],
        u16s: [u16; 2],
        u32s: [u32; 2],
        u64s: [u64; 2],
        u128s: [u128; 2],
        f32s: Vec<f32>,
        f64s: Vec<f64>,
        chars: Vec<char>,
        text: String,
        bytes: Bytes,
        no_bytes: Bytes,
        unit: (),
        unit_struct: UnitStruct,
        newtype: Newtype,
        tuple: (u8, &'static str, TupleStruct),
        none: Option<u8>,
        some: Option<Option<u8>>,
        some_none: Option<Option<u8>>,
        variants: Vec<Every>,
        empty_seq: Vec<u8>,
        empty_array: [u8; 0],
        empty_tuple_struct: EmptyTupleStruct,
        empty_map: BTreeMap<String, u8>,
        string_keys: BTreeMap<String, u8>,
        i64_keys: BTreeMap<i64, u8>,
        i128_keys: BTreeMap<i128, u8>,
        u128_keys: BTreeMap<u128, u8>,
        bool_keys: BTreeMap<bool, u8>,
        char_keys: BTreeMap<char, u8>,
        variant_keys: BTreeMap<Key, u8>,
        newtype_keys: BTreeMap<NewtypeKey, u8>,
        option_keys: Pairs<Option<u8>, u8>,
        float_keys: Pairs<f64, u8>,
        f32_keys: Pairs<f32, u8>,
        shown_keys: Pairs<Shown, u8>,
        nested: BTreeMap<String, BTreeMap<i32, Vec<Option<Every>>>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        kept: Vec<u8>,
        #[serde(skip)]
        _never: u8,
        untagged: Vec<Untagged>,
        internal: Vec<Internal>,
        adjacent: Vec<Adjacent>,
        flat: Flat,
        shown: Shown,
        awkward_shown: Shown,
        value: Value,
    }

    fn everything() -> Everything {
        let text = awkward_text();
        Everything {
            yes: true,
            no: false,
            i8s: [i8::MIN, 0, i8::MAX],
            i16s: [i16::MIN, -1, i16::MAX],
            i32s: [i32::MIN, 7, i32::MAX],
            i64s: [i64::MIN, -42, i64::MAX],
            i128s: [i128::MIN, -1, i128::MAX],
            u8s: [0, u8::MAX],
            u16s: [0, u16::MAX],
            u32s: [0, u32::MAX],
            u64s: [0, u64::MAX],
            u128s: [0, u128::MAX],
            f32s: vec![
                0.0,
                -0.0,
                0.1,
                1.0,
                1e7,
                1e-7,
                3.4028235e38,
                f32::MIN_POSITIVE,
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
            ],
            f64s: vec![
                0.0,
                -0.0,
                0.1,
                1.0,
                1.5,
                -2.25,
                100.0,
                1e15,
                1e16,
                1e17,
                1e-5,
                1e-6,
                1e300,
                -1e-300,
                5e-324,
                f64::MAX,
                f64::MIN_POSITIVE,
                123_456_789.012_345_68,
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
            ],
            chars: (0u8..0x20)
                .map(char::from)
                .chain(['\x7f', '"', '\\', '/', 'a', 'é', '€', '😀'])
                .collect(),
            text: text.clone(),
            bytes: Bytes(&[0, 1, 127, 128, 255]),
            no_bytes: Bytes(&[]),
            unit: (),
            unit_struct: UnitStruct,
            newtype: Newtype(9),
            tuple: (1, "two", TupleStruct(-3, "four".into(), None)),
            none: None,
            some: Some(Some(5)),
            some_none: Some(None),
            variants: vec![
                Every::Unit,
                Every::Newtype(-1),
                Every::Tuple(2, '"'),
                Every::EmptyTuple(),
                Every::Struct {
                    a: true,
                    b: Some(text.clone()),
                },
                Every::Struct { a: false, b: None },
                Every::EmptyStruct {},
                Every::Renamed(UnitStruct),
            ],
            empty_seq: vec![],
            empty_array: [],
            empty_tuple_struct: EmptyTupleStruct(),
            empty_map: BTreeMap::new(),
            string_keys: [(text.clone(), 1), (String::new(), 2), ("k".into(), 3)].into(),
            i64_keys: [(i64::MIN, 1), (0, 2), (i64::MAX, 3)].into(),
            i128_keys: [(i128::MIN, 1), (i128::MAX, 2)].into(),
            u128_keys: [(0, 1), (u128::MAX, 2)].into(),
            bool_keys: [(true, 1), (false, 2)].into(),
            char_keys: [('\n', 1), ('"', 2), ('x', 3), ('😀', 4)].into(),
            variant_keys: [(Key::Alpha, 1), (Key::Beta, 2)].into(),
            newtype_keys: [(NewtypeKey("n\tk".into()), 1)].into(),
            option_keys: Pairs(vec![(Some(3), 1)]),
            float_keys: Pairs(vec![(0.1, 1), (-0.0, 2), (1e300, 3), (5.0, 4)]),
            f32_keys: Pairs(vec![(0.5, 1), (1e30, 2)]),
            shown_keys: Pairs(vec![(Shown("a\"b"), 1)]),
            nested: [(
                "outer".into(),
                [
                    (-1, vec![None, Some(Every::Unit)]),
                    (
                        2,
                        vec![Some(Every::Struct {
                            a: true,
                            b: Some("x".into()),
                        })],
                    ),
                    (3, vec![]),
                ]
                .into(),
            )]
            .into(),
            skipped: None,
            kept: vec![1],
            _never: 0,
            untagged: vec![
                Untagged::Number(1),
                Untagged::Record { x: text.clone() },
                Untagged::List(vec![]),
                Untagged::Nothing,
            ],
            internal: vec![
                Internal::Record { x: 1 },
                Internal::Wrapped(Inner { x: 2, y: "in" }),
                Internal::Bare,
            ],
            adjacent: vec![
                Adjacent::One(1),
                Adjacent::Record { x: 2 },
                Adjacent::Bare,
                Adjacent::Pair(3, 4),
            ],
            flat: Flat {
                id: 7,
                rest: [
                    ("extra".to_string(), json!([1, "two", null])),
                    ("\u{0}odd key".to_string(), json!({})),
                ]
                .into(),
                inner: Inner { x: 8, y: "flat" },
            },
            shown: Shown("shown"),
            awkward_shown: Shown(Box::leak(text.into_boxed_str())),
            value: json!({"b": [1, -2, 0.5, true, null, "s"], "a": {}, "c": []}),
        }
    }

    #[test]
    fn every_form_of_the_data_model_is_written_as_serde_json_writes_it() {
        let text = same(&everything());
        // Spot checks of what both writers write.
        for expected in [
            r#""f64s":[0.0,-0.0,0.1,1.0,1.5,-2.25,100.0,1000000000000000.0,1e+16,1e+17,0.00001,1e-6,1e+300,"#,
            r#""i128s":[-170141183460469231731687303715884105728,-1,170141183460469231731687303715884105727]"#,
            r#""u128s":[0,340282366920938463463374607431768211455]"#,
            r#"null,null,null],"chars":["\u0000","\u0001""#,
            r#""\b","\t","\n","\u000b","\f","\r","\u000e""#,
            // Not escaped: DEL, `/`, anything beyond ASCII.
            concat!(
                r#""\u001f",""#,
                "\x7f",
                r#"","\"","\\","/","a","é","€","😀"]"#
            ),
            r#""bytes":[0,1,127,128,255],"no_bytes":[],"unit":null,"unit_struct":null"#,
            r#""variants":["Unit",{"Newtype":-1},{"Tuple":[2,"\""]},{"EmptyTuple":[]},"#,
            r#"{"EmptyStruct":{}},{"ren\named":null}]"#,
            r#""empty_seq":[],"empty_array":[],"empty_tuple_struct":[],"empty_map":{}"#,
            r#""i64_keys":{"-9223372036854775808":1,"0":2,"9223372036854775807":3}"#,
            r#""bool_keys":{"false":2,"true":1}"#,
            r#""variant_keys":{"Alpha":1,"be\"ta":2}"#,
            r#""option_keys":{"3":1},"float_keys":{"0.1":1,"-0.0":2,"1e+300":3,"5.0":4}"#,
            r#""shown_keys":{"<a\"b|3>":1}"#,
            r#""kept":[1],"untagged":[1,{"x":"#,
            r#"[],null],"internal":[{"t":"Record","x":1},{"t":"Wrapped","x":2,"y":"in"},{"t":"Bare"}]"#,
            r#""adjacent":[{"t":"One","c":1},{"t":"Record","c":{"x":2}},{"t":"Bare"},{"t":"Pair","c":[3,4]}]"#,
            r#""flat":{"id":7,"\u0000odd key":{},"extra":[1,"two",null],"x":8,"y":"flat"}"#,
            r#""shown":"<shown|5>""#,
        ] {
            assert!(text.contains(expected), "{expected}\nnot in\n{text}");
        }
        assert!(!text.contains("skipped") && !text.contains("never"));
        let back: Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(back["text"], Value::String(awkward_text()));
    }

    #[test]
    fn every_char_and_every_lone_byte_string_is_escaped_as_serde_json_escapes_it() {
        for c in (0..=0x2ffu32)
            .chain([0xfffd, 0x10ffff])
            .filter_map(char::from_u32)
        {
            same(&c);
            same(&c.to_string());
            same(&format!("a{c}b{c}{c}"));
            same(&BTreeMap::from([(c, c)]));
        }
        same("");
        same(&awkward_text());
        same(&awkward_text().repeat(50));
    }

    #[test]
    fn top_level_scalars_and_empty_containers_are_written_as_serde_json_writes_them() {
        same(&());
        same(&None::<u8>);
        same(&Some(()));
        same(&true);
        same(&0u8);
        same(&-0.0f64);
        same(&f64::NAN);
        same(&Vec::<Value>::new());
        same(&Map::new());
        same(&UnitStruct);
        same(&Every::Unit);
        same(&Every::EmptyStruct {});
        same(&Every::EmptyTuple());
        same(&[[[(); 0]; 1]; 2]);
    }

    /// A value that announces lengths it does not keep: serde_json closes the brackets of an
    /// announced empty sequence or map at once and writes what follows after them.
    struct Lying;

    impl Serialize for Lying {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{SerializeMap, SerializeSeq, SerializeTupleVariant};
            let mut outer = s.serialize_seq(Some(0))?;
            outer.serialize_element(&1)?;
            outer.serialize_element(&LyingMap)?;
            outer.serialize_element(&LyingVariant)?;
            return outer.end();

            struct LyingMap;
            impl Serialize for LyingMap {
                fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let mut map = s.serialize_map(Some(0))?;
                    map.serialize_entry("k", &2)?;
                    map.end()
                }
            }

            struct LyingVariant;
            impl Serialize for LyingVariant {
                fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let mut v = s.serialize_tuple_variant("E", 0, "V", 0)?;
                    v.serialize_field(&3)?;
                    v.end()
                }
            }
        }
    }

    #[test]
    fn announced_lengths_that_are_not_kept_give_serde_jsons_bytes() {
        assert_eq!(same(&Lying), r#"[],1,{},"k":2},{"V":[],3]}]"#);
    }

    /// A deterministic pseudo-random generator (xorshift64*).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        fn text(&mut self) -> String {
            const PIECES: &[&str] = &[
                "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\r", "\x08", "\x0c", "\0",
                "\x1f", "\x7f", "é", "€", "😀", "\u{2028}", "abc", "NodeID-", "0x",
            ];
            let len = self.below(12);
            (0..len)
                .map(|_| PIECES[self.below(PIECES.len() as u64) as usize])
                .collect()
        }

        fn number(&mut self) -> Value {
            match self.below(6) {
                0 => Value::from(self.next()),
                1 => Value::from(self.next() as i64),
                2 => Value::from(self.below(1000)),
                // Any bits: every exponent, also NaN and infinities (written as null).
                3 => {
                    Number::from_f64(f64::from_bits(self.next())).map_or(Value::Null, Value::Number)
                }
                4 => Value::from((self.below(2_000_000) as f64 - 1_000_000.0) / 1000.0),
                _ => Value::from(f64::from(f32::from_bits(self.next() as u32))),
            }
        }

        fn value(&mut self, depth: u32) -> Value {
            let kinds = if depth >= 5 { 4 } else { 6 };
            match self.below(kinds) {
                0 => Value::Null,
                1 => Value::Bool(self.below(2) == 1),
                2 => self.number(),
                3 => Value::String(self.text()),
                4 => Value::Array((0..self.below(5)).map(|_| self.value(depth + 1)).collect()),
                _ => Value::Object(
                    (0..self.below(5))
                        .map(|_| (self.text(), self.value(depth + 1)))
                        .collect(),
                ),
            }
        }
    }

    #[test]
    fn pseudo_random_json_values_are_written_as_serde_json_writes_them() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut bytes = 0;
        for _ in 0..4000 {
            let value = rng.value(0);
            bytes += same(&value).len();
        }
        // The trees are not all trivial.
        assert!(bytes > 100_000, "{bytes} bytes");
    }

    #[derive(Serialize)]
    struct WithRaw<'a> {
        owned: Box<RawValue>,
        borrowed: &'a RawValue,
        list: Vec<Box<RawValue>>,
        map: BTreeMap<&'static str, &'a RawValue>,
        optional: Option<&'a RawValue>,
    }

    #[test]
    fn raw_values_are_copied_as_they_are() {
        let text = r#"{"a" : [1, 2 ,"\u0041\n"], "b":null}"#;
        let borrowed: &RawValue = serde_json::from_str(text).expect("raw");
        // (It drops the whitespace around the value, keeps the whitespace inside.)
        let owned = RawValue::from_string(" [ 1e3 , \"x\" ] ".to_string()).expect("raw");
        let value = WithRaw {
            owned,
            borrowed,
            list: vec![RawValue::from_string("7".into()).expect("raw")],
            map: [("k", borrowed)].into(),
            optional: Some(borrowed),
        };
        let written = same(&value);
        assert!(
            written.contains(&format!(r#""borrowed":{text}"#)),
            "{written}"
        );
        assert!(written.contains(r#""owned":[ 1e3 , "x" ],"#), "{written}");
        assert!(written.contains(r#""list":[7]"#), "{written}");
        same(borrowed);
        same(&value.owned);
        // A raw value is not a key.
        same_error(&Pairs(vec![(borrowed, 1)]));
    }

    const CB58_ID: &str = "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm";

    /// Text marked as plain ASCII through `ascii::serialize`, as the wire types do.
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    struct Marked(&'static str);

    impl Serialize for Marked {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            ascii::serialize(self.0, s)
        }
    }

    /// Text marked without `ascii::serialize`'s check: a broken promise, to see what our
    /// writer does with it in every build.
    struct Unchecked(&'static str);

    impl Serialize for Unchecked {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct(ascii::TOKEN, self.0)
        }
    }

    /// The marker's name around something that is not a string.
    struct MarkedNumber(u32);

    impl Serialize for MarkedNumber {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct(ascii::TOKEN, &self.0)
        }
    }

    #[test]
    fn marked_text_is_written_as_serde_json_writes_it() {
        assert_eq!(same(&Marked(CB58_ID)), format!("\"{CB58_ID}\""));
        same(&Marked(""));
        let printable: String = (0x20u8..0x7f)
            .filter(|b| *b != b'"' && *b != b'\\')
            .map(char::from)
            .collect();
        same(&Marked(Box::leak(printable.into_boxed_str())));
        same(&vec![Marked(CB58_ID), Marked("P-avax1xyz")]);
        same(&Some(Marked("0x00ff")));
        // As a map key too, also inside an option.
        assert_eq!(
            same(&BTreeMap::from([(Marked(CB58_ID), Marked("1"))])),
            format!("{{\"{CB58_ID}\":\"1\"}}")
        );
        same(&Pairs(vec![(Some(Marked("k")), 1)]));
        // The name around another value: that value, in both places.
        assert_eq!(same(&MarkedNumber(42)), "42");
        assert_eq!(same(&Pairs(vec![(MarkedNumber(42), 1)])), r#"{"42":1}"#);
    }

    #[test]
    fn our_writer_copies_marked_text_without_scanning_it() {
        // serde_json scans the text and escapes the quote; our writer trusts the mark and
        // copies the text as it is (here a broken promise, so invalid JSON).
        let broken = Unchecked("a\"b\\c\n");
        assert_eq!(
            serde_json::to_vec(&broken).expect("writes"),
            br#""a\"b\\c\n""#
        );
        assert_eq!(to_vec(&broken).expect("writes"), b"\"a\"b\\c\n\"");
        let keyed = Pairs(vec![(Unchecked("\"q"), 1)]);
        assert_eq!(to_vec(&keyed).expect("writes"), b"{\"\"q\":1}");
        assert_eq!(
            serde_json::to_vec(&keyed).expect("writes"),
            b"{\"\\\"q\":1}"
        );
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "needs escaping in JSON")]
    fn debug_builds_refuse_marked_text_that_needs_escaping() {
        let _ = to_vec(&Marked("a\"b"));
    }

    #[derive(Serialize)]
    struct Custom;

    struct Failing;

    impl Serialize for Failing {
        fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no \"good\" at all"))
        }
    }

    #[test]
    fn what_serde_json_refuses_our_writer_refuses_with_the_same_message() {
        assert_eq!(
            same_error(&Pairs(vec![(vec![1u8], 1)])),
            "key must be a string"
        );
        same_error(&Pairs(vec![((), 1)]));
        same_error(&Pairs(vec![(None::<u8>, 1)]));
        same_error(&Pairs(vec![(UnitStruct, 1)]));
        same_error(&Pairs(vec![(Custom, 1)]));
        same_error(&Pairs(vec![(Every::Newtype(1), 1)]));
        same_error(&Pairs(vec![(Every::Tuple(1, 'a'), 1)]));
        same_error(&Pairs(vec![(Every::EmptyStruct {}, 1)]));
        same_error(&Pairs(vec![((1, 2), 1)]));
        same_error(&Pairs(vec![(Bytes(b"k"), 1)]));
        same_error(&Pairs(vec![(BTreeMap::from([(1, 2)]), 1)]));
        same_error(&Pairs(vec![(Inner { x: 1, y: "y" }, 1)]));
        same_error(&Pairs(vec![(TupleStruct(1, "a".into(), None), 1)]));
        assert_eq!(
            same_error(&Pairs(vec![(f64::NAN, 1)])),
            "float key must be finite (got NaN or +/-inf)"
        );
        same_error(&Pairs(vec![(f32::NEG_INFINITY, 1)]));
        // A Serialize implementation's own error passes through.
        assert_eq!(same_error(&vec![Failing]), "no \"good\" at all");
        same_error(&BTreeMap::from([("k", Failing)]));
    }

    #[test]
    fn write_appends_and_leaves_the_vector_as_it_was_on_an_error() {
        let mut out = b"prefix:".to_vec();
        write(&mut out, &json!({"a": [1, "b"]})).expect("writes");
        assert_eq!(out, br#"prefix:{"a":[1,"b"]}"#);
        let failing = (1, "two", Pairs(vec![(vec![3], 4)]));
        write(&mut out, &failing).expect_err("a list is not a key");
        assert_eq!(out, br#"prefix:{"a":[1,"b"]}"#);
    }

    #[test]
    fn named_result_types_decoded_from_the_spec_examples_are_written_as_serde_json_writes_them() {
        fn check<T: serde::de::DeserializeOwned + Serialize>(method: &str) -> usize {
            let info = crate::METHODS
                .iter()
                .find(|m| m.name == method)
                .unwrap_or_else(|| panic!("{method} is in the catalog"));
            assert!(!info.examples.is_empty(), "{method} has examples");
            for example in info.examples {
                let mut result = example.result();
                crate::rpc::normalize(&mut result, info.rules);
                let typed: T = crate::rpc::decode(&result)
                    .unwrap_or_else(|e| panic!("{method} `{}`: {e}", example.name));
                let written = same(&typed);
                let reread: Value = serde_json::from_str(&written).expect("valid JSON");
                assert_eq!(reread, example.expected(), "{method} `{}`", example.name);
            }
            info.examples.len()
        }
        let checked =
            check::<crate::platform::GetCurrentValidatorsResult>("platform.getCurrentValidators")
                + check::<crate::avm::GetUtxosResult>("avm.getUTXOs")
                + check::<crate::info::GetNodeVersionResult>("info.getNodeVersion");
        assert!(checked >= 3, "{checked} examples");
    }

    /// `catalog::roundtrip` checks our writer against serde_json (in the crate's tests) for
    /// every typed value it decodes, so running every example of every method through its
    /// params and result types covers every generated type the examples reach.
    #[test]
    fn every_methods_params_and_result_types_are_written_as_serde_json_writes_them() {
        let mut checked = 0;
        for method in crate::METHODS {
            for example in method.examples {
                let params = method.roundtrip_params(&example.params());
                let result = method.roundtrip_result(&example.result());
                assert!(
                    params.is_ok() && result.is_ok(),
                    "{} `{}`: {params:?} {result:?}",
                    method.name,
                    example.name
                );
                checked += 2;
            }
        }
        assert!(checked >= 2 * crate::METHODS.len(), "{checked} values");
    }
}
