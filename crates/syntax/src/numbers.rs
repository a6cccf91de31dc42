//! The lexical checks of a number token, as EDG makes them.
//!
//! The lexer takes a number as a whole preprocessing number (digits,
//! letters, `.`, digit separators, and a sign after `e`/`E`/`p`/`P`), so
//! `0x1e+1` and `1e+` are one token each, as in the preprocessor that made
//! the `.ii`. This module then reads the token as EDG's scanner does and
//! reports its first problem: a radix prefix without digits ("invalid
//! hexadecimal number"), a digit the radix lacks ("invalid octal digit",
//! "invalid binary number"), text after the number and its suffix ("extra
//! text after expected end of number"), a misplaced digit separator. A
//! token with such an error still stands for a number, so the parse goes
//! on as EDG's does, with no further error.
//!
//! User-defined suffixes are not checked here: whether `12abc` names a
//! literal operator is a question of lookup.

/// A problem of a number token: its byte offset in the token and EDG's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumberError {
    pub offset: usize,
    pub msg: &'static str,
}

const HEX: &str = "invalid hexadecimal number";
const OCTAL: &str = "invalid octal digit";
const BINARY: &str = "invalid binary number";
const EXTRA: &str = "extra text after expected end of number";
const SEPARATOR: &str = "digit separator cannot appear here";
const FLOATING: &str = "invalid floating constant";
const UDL_CHAR: &str = "non-identifier character in user-defined literal suffix";

/// How a number token reads: float or integer, and its problems (the
/// misplaced digit separators, each, else at most one other).
pub fn check(t: &[u8], separators: bool) -> (bool, Vec<NumberError>) {
    let mut errors = Vec::new();
    let radix_prefix = t.len() >= 2 && t[0] == b'0' && matches!(t[1] | 0x20, b'x' | b'b');
    let hex = radix_prefix && t[1] | 0x20 == b'x';
    if separators {
        // A separator must stand before a digit, and not right after the prefix.
        let digit = |b: u8| if hex { b.is_ascii_hexdigit() } else { b.is_ascii_digit() };
        for (i, &b) in t.iter().enumerate() {
            if b == b'\'' && (!t.get(i + 1).copied().is_some_and(digit) || (radix_prefix && i == 2)) {
                errors.push(NumberError { offset: i, msg: SEPARATOR });
            }
        }
    }
    let (float, problem, _) = read(t, hex);
    if errors.is_empty() {
        errors.extend(problem);
    }
    (float, errors)
}

/// Where the user-defined suffix of a number token without problems
/// starts (`12abc`: 2, `1lul`: 1, `1.5e`: 3, `0x1.0p`: 5), if it has one.
pub fn user_suffix(t: &[u8]) -> Option<usize> {
    let hex = t.len() >= 2 && t[0] == b'0' && t[1] | 0x20 == b'x';
    match read(t, hex) {
        (_, None, suffix) => suffix,
        _ => None,
    }
}

/// EDG's reading: digits of the radix, fraction and exponent, then a
/// standard suffix or a user-defined one; the first problem, and where a
/// user-defined suffix starts.
fn read(t: &[u8], hex: bool) -> (bool, Option<NumberError>, Option<usize>) {
    let err = |offset, msg| (Some(NumberError { offset, msg }), None);
    let with = |float: bool, (e, s): (Option<NumberError>, Option<usize>)| (float, e, s);
    let at = |i: usize| t.get(i).copied().unwrap_or(0);
    let run = |mut i: usize, digit: fn(u8) -> bool| {
        while i < t.len() && (digit(t[i]) || t[i] == b'\'') {
            i += 1;
        }
        i
    };
    let mut float = false;
    let mut i;
    if hex {
        i = run(2, |b| b.is_ascii_hexdigit());
        let mut digits = i > 2;
        if at(i) == b'.' {
            let j = run(i + 1, |b| b.is_ascii_hexdigit());
            digits |= j > i + 1;
            float = true;
            i = j;
        }
        if !digits {
            return with(float, err(0, HEX));
        }
        match exponent(t, i, b'p') {
            Some(j) => {
                float = true;
                i = j;
            }
            // A hexadecimal fraction needs an exponent.
            None if float && i == t.len() => return with(true, err(i, FLOATING)),
            None => {}
        }
    } else if at(0) == b'0' && at(1) | 0x20 == b'b' {
        i = run(2, |b| matches!(b, b'0' | b'1'));
        if i == 2 {
            return with(false, err(0, BINARY));
        }
        if at(i).is_ascii_digit() {
            return with(false, err(i, BINARY));
        }
    } else {
        i = run(0, |b| b.is_ascii_digit());
        if at(i) == b'.' {
            float = true;
            i = run(i + 1, |b| b.is_ascii_digit());
        }
        if let Some(j) = exponent(t, i, b'e') {
            float = true;
            i = j;
        }
        if !float
            && at(0) == b'0'
            && let Some(bad) = t[..i].iter().position(|&b| matches!(b, b'8' | b'9'))
        {
            return with(false, err(bad, OCTAL));
        }
    }
    let j = i + standard_suffix(&t[i..], float);
    if j == t.len() {
        return (float, None, None);
    }
    if is_ident_start(t[j]) {
        // A user-defined suffix: an identifier to the end of the token.
        let mut k = i;
        while k < t.len() && (is_ident_start(t[k]) || t[k].is_ascii_digit()) {
            k += 1;
        }
        return match t.get(k) {
            None => (float, None, Some(i)),
            // `1e+`: an integer whose exponent has no digits.
            Some(b'+' | b'-') if !float => with(float, err(k, EXTRA)),
            Some(_) => with(float, err(k, UDL_CHAR)),
        };
    }
    with(float, err(j, EXTRA))
}

/// The end of an exponent (`e`, sign, digits) at `i`, if one is there
/// (`marker` is `e` or `p`, either case).
fn exponent(t: &[u8], i: usize, marker: u8) -> Option<usize> {
    if t.get(i).is_none_or(|&b| b | 0x20 != marker) {
        return None;
    }
    let mut j = i + 1;
    if matches!(t.get(j), Some(b'+' | b'-')) {
        j += 1;
    }
    if !t.get(j).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    while j < t.len() && (t[j].is_ascii_digit() || t[j] == b'\'') {
        j += 1;
    }
    Some(j)
}

/// The length of the longest standard suffix `rest` starts with.
fn standard_suffix(rest: &[u8], float: bool) -> usize {
    let lower: Vec<u8> = rest.iter().take(4).map(u8::to_ascii_lowercase).collect();
    let candidates: &[&[u8]] =
        if float { &[b"f", b"l"] } else { &[b"ull", b"llu", b"uz", b"zu", b"ul", b"lu", b"ll", b"u", b"l", b"z"] };
    candidates.iter().find(|c| lower.starts_with(c)).map_or(0, |c| c.len())
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80 || b == b'\\'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(t: &str) -> Option<(usize, &'static str)> {
        check(t.as_bytes(), true).1.first().map(|e| (e.offset, e.msg))
    }

    #[test]
    fn user_defined_suffixes() {
        let got: Vec<_> = ["12abc", "1lul", "1.5e", "0x1.0p", "42_km", "1ul", "1.5f", "0x1p3", "08", "1e+"]
            .iter()
            .map(|t| user_suffix(t.as_bytes()))
            .collect();
        assert_eq!(got, [Some(2), Some(1), Some(3), Some(5), Some(2), None, None, None, None, None]);
    }

    #[test]
    fn valid_numbers_have_no_error() {
        for t in [
            "0",
            "42",
            "0x1F",
            "0X1p-3",
            "0x1.8p3",
            "0b1010",
            "017",
            "1'000'000u",
            "1e+5f",
            ".5",
            "09.5",
            "1e5",
            "1ull",
            "2LLU",
            "1.5L",
            "42_km",
            "1.0_e",
            "12abc",
            "1.5e",
            "0x1.0p",
            "1lul",
            "3uz",
        ] {
            assert_eq!(first(t), None, "{t}");
        }
    }

    #[test]
    fn edg_errors_and_where() {
        assert_eq!(first("0x"), Some((0, HEX)));
        assert_eq!(first("0xg"), Some((0, HEX)));
        assert_eq!(first("1e+"), Some((2, EXTRA)));
        assert_eq!(first("08"), Some((1, OCTAL)));
        assert_eq!(first("0778"), Some((3, OCTAL)));
        assert_eq!(first("0b"), Some((0, BINARY)));
        assert_eq!(first("0b12"), Some((3, BINARY)));
        assert_eq!(first("1u2"), Some((2, EXTRA)));
        assert_eq!(first("1.2.3"), Some((3, EXTRA)));
        assert_eq!(first("0x1e+1"), Some((4, EXTRA)));
        assert_eq!(first("0xe+1"), Some((3, EXTRA)));
        assert_eq!(first("0x1p+"), Some((4, EXTRA)));
        assert_eq!(first("0x1.0"), Some((5, FLOATING)));
        assert_eq!(first("1.5_x.5"), Some((5, UDL_CHAR)));
        assert_eq!(first("2.5E-"), Some((4, UDL_CHAR)));
        assert_eq!(first("1'"), Some((1, SEPARATOR)));
        assert_eq!(first("0x'1"), Some((2, SEPARATOR)));
        let (_, errors) = check(b"1'2''", true);
        assert_eq!(errors.iter().map(|e| e.offset).collect::<Vec<_>>(), [3, 4]);
        let (_, errors) = check(b"1''2", true);
        assert_eq!(errors.iter().map(|e| e.offset).collect::<Vec<_>>(), [1]);
    }
}
