//! Classic bech32 (BIP-173) for the one shape addresses take, a lower-case human-readable
//! part and a 20-byte payload, in one pass without allocation. Anything else (upper case,
//! another length, a bad checksum) is left to the `bech32` crate, which also words the error.

const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATOR: [u32; 5] = [
    0x3b6a_57b2,
    0x2650_8e6d,
    0x1ea1_19fa,
    0x3d42_33dd,
    0x2a14_62b3,
];

/// The value of each lower-case data character, or 0xff.
const VALUES: [u8; 128] = {
    let mut t = [0xffu8; 128];
    let mut i = 0;
    while i < 32 {
        t[CHARSET[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// 20 bytes are 32 five-bit groups.
const DATA_CHARS: usize = 32;

/// For each value of the checksum's top five bits, the XOR of the generators they select.
const GENERATED: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut top = 0;
    while top < 32 {
        let mut i = 0;
        while i < 5 {
            if (top >> i) & 1 == 1 {
                t[top] ^= GENERATOR[i];
            }
            i += 1;
        }
        top += 1;
    }
    t
};

const fn step(chk: u32, value: u8) -> u32 {
    (((chk & 0x01ff_ffff) << 5) ^ value as u32) ^ GENERATED[(chk >> 25) as usize]
}

/// The checksum state after the expanded human-readable part, or `None` when it is not a
/// valid lower-case one (1 to 83 characters in 33..=126, no upper case).
fn hrp_state(hrp: &str) -> Option<u32> {
    // The networks' own, worked out once.
    match hrp {
        "avax" => return Some(AVAX),
        "fuji" => return Some(FUJI),
        "local" => return Some(LOCAL),
        "custom" => return Some(CUSTOM),
        _ => {}
    }
    hrp_state_of(hrp.as_bytes())
}

const AVAX: u32 = known(hrp_state_of(b"avax"));
const FUJI: u32 = known(hrp_state_of(b"fuji"));
const LOCAL: u32 = known(hrp_state_of(b"local"));
const CUSTOM: u32 = known(hrp_state_of(b"custom"));

/// A known HRP's state (a valid HRP always has one).
const fn known(state: Option<u32>) -> u32 {
    match state {
        Some(state) => state,
        None => panic!("not a valid HRP"),
    }
}

/// As [`hrp_state`], computed.
const fn hrp_state_of(h: &[u8]) -> Option<u32> {
    if h.is_empty() || h.len() > 83 {
        return None;
    }
    let mut i = 0;
    while i < h.len() {
        if h[i] < 33 || h[i] > 126 || h[i].is_ascii_uppercase() {
            return None;
        }
        i += 1;
    }
    let mut chk = 1;
    let mut i = 0;
    while i < h.len() {
        chk = step(chk, h[i] >> 5);
        i += 1;
    }
    chk = step(chk, 0);
    let mut i = 0;
    while i < h.len() {
        chk = step(chk, h[i] & 31);
        i += 1;
    }
    Some(chk)
}

/// Appends `<hrp>1<data><checksum>` for `payload`; `false` (nothing written) when `hrp` is not
/// a valid lower-case human-readable part.
pub(crate) fn encode_into(hrp: &str, payload: &[u8; 20], out: &mut String) -> bool {
    let Some(mut chk) = hrp_state(hrp) else {
        return false;
    };
    let mut text = [0u8; DATA_CHARS + 6];
    // 8-bit bytes to 5-bit groups: 20 bytes are exactly 32 groups.
    let (mut acc, mut bits, mut n) = (0u32, 0u32, 0);
    for &b in payload {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            let v = ((acc >> bits) & 31) as u8;
            chk = step(chk, v);
            text[n] = CHARSET[usize::from(v)];
            n += 1;
        }
    }
    for _ in 0..6 {
        chk = step(chk, 0);
    }
    chk ^= 1;
    for i in 0..6 {
        text[n + i] = CHARSET[((chk >> (5 * (5 - i))) & 31) as usize];
    }
    out.reserve(hrp.len() + 1 + text.len());
    out.push_str(hrp);
    out.push('1');
    // Only charset characters were written.
    out.push_str(std::str::from_utf8(&text).unwrap_or_default());
    true
}

/// The human-readable part and payload of a lower-case bech32 string holding 20 bytes with a
/// valid checksum; `None` for anything else.
pub(crate) fn decode(text: &str) -> Option<(&str, [u8; 20])> {
    // The data part holds no `1` (it is not in the charset), so the separator is the last `1`
    // exactly when it stands right before the data part's 38 characters.
    let split = text.len().checked_sub(DATA_CHARS + 7)?;
    if text.as_bytes()[split] != b'1' || text.len() > 90 {
        return None;
    }
    let (hrp, rest) = (text.get(..split)?, &text.as_bytes()[split + 1..]);
    let mut chk = hrp_state(hrp)?;
    let mut payload = [0u8; 20];
    let (mut acc, mut bits, mut n) = (0u32, 0u32, 0);
    for (i, &c) in rest.iter().enumerate() {
        let v = *VALUES.get(usize::from(c))?;
        if v == 0xff {
            return None;
        }
        chk = step(chk, v);
        if i < DATA_CHARS {
            acc = (acc << 5) | u32::from(v);
            bits += 5;
            if bits >= 8 {
                bits -= 8;
                payload[n] = (acc >> bits) as u8;
                n += 1;
            }
        }
    }
    // 32 groups are exactly 160 bits: no padding is left over.
    (chk == 1 && n == 20).then_some((hrp, payload))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bech32::{Bech32, Hrp};

    #[test]
    fn agrees_with_the_bech32_crate() {
        let mut rng = super::super::test_rng::XorShift(0x2545_f491_4f6c_dd1d);
        for hrp in ["avax", "fuji", "local", "custom", "a", "x-y"] {
            for _ in 0..300 {
                let payload: [u8; 20] = rng.bytes();
                let mut ours = String::new();
                assert!(encode_into(hrp, &payload, &mut ours));
                let theirs = bech32::encode::<Bech32>(Hrp::parse(hrp).unwrap(), &payload).unwrap();
                assert_eq!(ours, theirs);
                assert_eq!(decode(&ours), Some((hrp, payload)));
            }
        }
    }

    #[test]
    fn leaves_everything_else_to_the_crate() {
        let good = {
            let mut s = String::new();
            encode_into("avax", &[7; 20], &mut s);
            s
        };
        assert!(decode(&good).is_some());
        // A changed data character breaks the checksum.
        let mut bad = good.clone().into_bytes();
        let last = bad.len() - 1;
        bad[last] = if bad[last] == b'q' { b'p' } else { b'q' };
        assert_eq!(decode(std::str::from_utf8(&bad).unwrap()), None);
        // Upper case, another length, no separator, a bad character.
        assert_eq!(decode(&good.to_uppercase()), None);
        assert_eq!(decode(&good[..good.len() - 1]), None);
        assert_eq!(decode("avaxqqqq"), None);
        assert_eq!(decode(&good.replace('q', "b")), None);
        assert!(!encode_into("AVAX", &[0; 20], &mut String::new()));
        assert!(!encode_into("", &[0; 20], &mut String::new()));
    }
}
