//! Base58 (Bitcoin alphabet) for the short inputs cb58 carries (IDs, node IDs, short IDs):
//! the number is kept in 32-bit limbs and divided or multiplied by 58^5 at a time, a few
//! dozen word operations for a 36-byte ID instead of the byte-by-byte bignum of a general
//! encoder. Longer inputs go through the same code with heap buffers.

const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// 58^5, the largest power of 58 below 2^32.
const BIG: u64 = 656_356_768;

/// The value of each ASCII character, or 0xff.
const VALUES: [u8; 128] = {
    let mut t = [0xffu8; 128];
    let mut i = 0;
    while i < 58 {
        t[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// Inputs up to this many bytes are encoded without touching the heap.
const SHORT_BYTES: usize = 40;

/// The most base58 digits `n` bytes take (log 256 / log 58 < 1.37).
const fn max_digits(n: usize) -> usize {
    n * 137 / 100 + 6
}

/// Writes the base58 digits (values 0..58, most significant first) of the number whose
/// big-endian bytes are `rest` (no leading zero byte) into `digits`; returns how many.
/// `limbs` must hold `rest.len().div_ceil(4)` zeros, `digits` `max_digits(rest.len())`.
fn digits_of(rest: &[u8], limbs: &mut [u32], digits: &mut [u8]) -> usize {
    let pad = limbs.len() * 4 - rest.len();
    for (i, &b) in rest.iter().enumerate() {
        let at = pad + i;
        limbs[at / 4] |= u32::from(b) << (8 * (3 - at % 4));
    }
    // Least significant first, five per division by 58^5.
    let mut len = 0;
    let mut start = 0; // first non-zero limb
    while start < limbs.len() {
        let mut rem: u64 = 0;
        for limb in limbs[start..].iter_mut() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / BIG) as u32;
            rem = cur % BIG;
        }
        while start < limbs.len() && limbs[start] == 0 {
            start += 1;
        }
        for _ in 0..5 {
            digits[len] = (rem % 58) as u8;
            rem /= 58;
            len += 1;
        }
    }
    // The last group may run past the number's top digit.
    while len > 0 && digits[len - 1] == 0 {
        len -= 1;
    }
    digits[..len].reverse();
    len
}

/// Appends the base58 text of `input` to `out`.
pub(crate) fn encode_into(input: &[u8], out: &mut String) {
    if input.len() <= SHORT_BYTES {
        out.push_str(ShortText::encode(input).as_str());
        return;
    }
    let zeros = input.iter().take_while(|&&b| b == 0).count();
    let rest = &input[zeros..];
    let mut limbs = vec![0u32; rest.len().div_ceil(4)];
    let mut digits = vec![0u8; max_digits(rest.len())];
    let len = digits_of(rest, &mut limbs, &mut digits);
    out.reserve(zeros + len);
    out.extend(std::iter::repeat_n('1', zeros));
    out.extend(digits[..len].iter().map(|&d| ALPHABET[d as usize] as char));
}

/// The base58 text of up to 40 bytes, on the stack (at most 60 characters).
pub(crate) struct ShortText {
    bytes: [u8; max_digits(SHORT_BYTES) + SHORT_BYTES],
    len: usize,
}

impl ShortText {
    /// The text of `input`; inputs longer than 40 bytes give the text of their first 40.
    pub(crate) fn encode(input: &[u8]) -> ShortText {
        let input = &input[..input.len().min(SHORT_BYTES)];
        let zeros = input.iter().take_while(|&&b| b == 0).count();
        let rest = &input[zeros..];
        let mut limbs = [0u32; SHORT_BYTES / 4];
        let mut digits = [0u8; max_digits(SHORT_BYTES)];
        let len = digits_of(rest, &mut limbs[..rest.len().div_ceil(4)], &mut digits);
        let mut out = ShortText {
            bytes: [0; max_digits(SHORT_BYTES) + SHORT_BYTES],
            len: zeros + len,
        };
        out.bytes[..zeros].fill(b'1');
        for (slot, &d) in out.bytes[zeros..zeros + len].iter_mut().zip(&digits[..len]) {
            *slot = ALPHABET[d as usize];
        }
        out
    }

    /// The text.
    pub(crate) fn as_str(&self) -> &str {
        // Only alphabet characters (ASCII) are ever written.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

/// The base58 text of `input`.
pub(crate) fn encode(input: &[u8]) -> String {
    let mut out = String::with_capacity(input.len() * 138 / 100 + 1);
    encode_into(input, &mut out);
    out
}

/// Why a string is not base58.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InvalidCharacter {
    pub(crate) character: char,
    pub(crate) index: usize,
}

impl std::fmt::Display for InvalidCharacter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "provided string contained invalid character {:?} at byte {}",
            self.character, self.index
        )
    }
}

/// Multiplies the little-endian number in `limbs` by `mul` and adds `add` (one group of up to
/// ten digits: 58^10 < 2^64), with one 128-bit product per limb; returns the limb carried out.
fn mul_add(limbs: &mut [u64], mul: u64, add: u64) -> u64 {
    let mut carry = u128::from(add);
    for limb in limbs {
        let cur = u128::from(*limb) * u128::from(mul) + carry;
        *limb = cur as u64;
        carry = cur >> 64;
    }
    carry as u64
}

/// Decodes base58 text into `out` (cleared first).
///
/// The number is built in 64-bit limbs, ten digits at a time.
pub(crate) fn decode_into(text: &str, out: &mut Vec<u8>) -> Result<(), InvalidCharacter> {
    out.clear();
    let bytes = text.as_bytes();
    let mut values = Vec::new();
    let mut value_stack = [0u8; 96];
    let digits: &mut [u8] = if bytes.len() <= value_stack.len() {
        &mut value_stack[..bytes.len()]
    } else {
        values.resize(bytes.len(), 0);
        &mut values
    };
    for (i, &b) in bytes.iter().enumerate() {
        let v = if b < 128 { VALUES[b as usize] } else { 0xff };
        if v == 0xff {
            let character = text[i..].chars().next().unwrap_or('\u{fffd}');
            return Err(InvalidCharacter {
                character,
                index: i,
            });
        }
        digits[i] = v;
    }
    let ones = digits.iter().take_while(|&&d| d == 0).count();
    let rest = &digits[ones..];
    // Little-endian 64-bit limbs; each group of up to ten digits (58^10 < 2^64) multiplies
    // and adds with one 128-bit product per limb.
    let max_limbs = rest.len() * 733 / 8000 + 2;
    let mut limb_stack = [0u64; 10];
    let mut limb_heap = Vec::new();
    let limbs: &mut [u64] = if max_limbs <= limb_stack.len() {
        &mut limb_stack[..max_limbs]
    } else {
        limb_heap.resize(max_limbs, 0);
        &mut limb_heap
    };
    let mut used = 0;
    for group in rest.chunks(10) {
        let mut mul: u64 = 1;
        let mut add: u64 = 0;
        for &d in group {
            mul *= 58;
            add = add * 58 + u64::from(d);
        }
        let carry = mul_add(&mut limbs[..used], mul, add);
        if carry > 0 {
            limbs[used] = carry;
            used += 1;
        }
    }
    for _ in 0..ones {
        out.push(0);
    }
    let mut leading = true;
    for limb in limbs[..used].iter().rev() {
        for byte in limb.to_be_bytes() {
            if leading && byte == 0 {
                continue;
            }
            leading = false;
            out.push(byte);
        }
    }
    Ok(())
}

/// The bytes of base58 `text` when they are exactly `len` (at most 40) of them, left-aligned
/// in the array; `None` for anything else (a character outside the alphabet, another length).
/// What [`decode_into`] gives for such a text, in one pass with no sink: a cb58 ID's usual case.
pub(crate) fn decode_exact(text: &str, len: usize) -> Option<[u8; 40]> {
    let bytes = text.as_bytes();
    let ones = bytes.iter().take_while(|&&b| b == b'1').count();
    // Five little-endian 64-bit limbs hold 40 bytes; a larger number is not `len` bytes.
    let mut limbs = [0u64; 5];
    let mut used = 0;
    for group in bytes[ones..].chunks(10) {
        let (mut mul, mut add) = (1u64, 0u64);
        for &b in group {
            let v = *VALUES.get(usize::from(b))?;
            if v == 0xff {
                return None;
            }
            mul *= 58;
            add = add * 58 + u64::from(v);
        }
        let carry = mul_add(&mut limbs[..used], mul, add);
        if carry > 0 {
            *limbs.get_mut(used)? = carry;
            used += 1;
        }
    }
    let mut number = [0u8; 40];
    for (i, limb) in limbs.iter().enumerate() {
        number[32 - 8 * i..40 - 8 * i].copy_from_slice(&limb.to_be_bytes());
    }
    // The text's leading `1`s are zero bytes, then come the number's significant bytes.
    let significant = 40 - number.iter().take_while(|&&b| b == 0).count();
    if len > 40 || ones + significant != len {
        return None;
    }
    let mut out = [0u8; 40];
    out[len - significant..len].copy_from_slice(&number[40 - significant..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::XorShift;
    use super::*;

    /// `len` bytes from `rng`, with leading zeros and 0xff runs (the edge cases) common.
    fn bytes(rng: &mut XorShift, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| {
                let r = rng.next_u64();
                match r % 7 {
                    0 => 0,
                    1 => 0xff,
                    _ => (r >> 24) as u8,
                }
            })
            .collect()
    }

    #[test]
    fn encodes_and_decodes_as_a_general_base58_codec_does() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        for len in (0..=48).chain([63, 64, 65, 100, 200]) {
            for _ in 0..200 {
                let input = bytes(&mut rng, len);
                let text = encode(&input);
                assert_eq!(text, bs58::encode(&input).into_string(), "{input:?}");
                let mut back = Vec::new();
                decode_into(&text, &mut back).unwrap();
                assert_eq!(back, input, "{text}");
            }
        }
    }

    #[test]
    fn decode_exact_gives_what_decode_into_gives_at_that_length_and_nothing_else() {
        let mut rng = XorShift(0x3c6e_f372_fe94_f82b);
        let mut texts: Vec<String> = (0..=44)
            .flat_map(|len| {
                (0..100)
                    .map(|_| encode(&bytes(&mut rng, len)))
                    .collect::<Vec<_>>()
            })
            .collect();
        texts.extend(
            [
                "",
                "1",
                "11",
                "z",
                "1z1z",
                "zzzzzzzzzz",
                "0abc",
                "abIc",
                "abcé",
            ]
            .map(String::from),
        );
        texts.push("z".repeat(60));
        for text in &texts {
            let mut general = Vec::new();
            let general = decode_into(text, &mut general).ok().map(|()| general);
            for len in [
                0,
                1,
                20,
                24,
                32,
                36,
                40,
                41,
                general.as_ref().map_or(0, Vec::len),
            ] {
                let exact = decode_exact(text, len).map(|out| out[..len].to_vec());
                let want = general.clone().filter(|g| g.len() == len && len <= 40);
                assert_eq!(exact, want, "{text} at {len}");
            }
        }
    }

    #[test]
    fn decodes_what_a_general_codec_decodes() {
        // Texts that no encoder writes (e.g. with more digits than needed) decode the same.
        for text in [
            "",
            "1",
            "11",
            "z",
            "zzzzzzzzzz",
            "1z1z",
            "2NEpo7TZRRrLZSi2U",
        ] {
            let mut got = Vec::new();
            decode_into(text, &mut got).unwrap();
            assert_eq!(got, bs58::decode(text).into_vec().unwrap(), "{text}");
        }
    }

    #[test]
    fn rejects_characters_outside_the_alphabet() {
        for (text, character, index) in [("0abc", '0', 0), ("abIc", 'I', 2), ("abcé", 'é', 3)] {
            let err = decode_into(text, &mut Vec::new()).unwrap_err();
            assert_eq!(err, InvalidCharacter { character, index });
        }
        assert_eq!(
            decode_into("ab l", &mut Vec::new())
                .unwrap_err()
                .to_string(),
            "provided string contained invalid character ' ' at byte 2"
        );
    }
}
