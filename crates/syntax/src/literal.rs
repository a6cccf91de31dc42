//! Values of literal tokens: lexical facts only. Giving a literal its type is
//! the reader's job (`hir` and `emit` map [`IntLiteral`] onto their own type
//! lists), so this module knows nothing of types.

/// An integer literal split into what [lex.icon] needs to type it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntLiteral {
    pub value: u128,
    /// A `u`/`U` suffix.
    pub unsigned: bool,
    /// How many `l`/`L` the suffix has (0, 1 or 2).
    pub longs: u8,
    /// A `z`/`Z` suffix (`size_t` literals).
    pub size: bool,
    /// Written in decimal: hex, octal and binary literals may also take the
    /// unsigned types.
    pub decimal: bool,
}

impl IntLiteral {
    /// `None` for text that is not an integer literal (user-defined
    /// suffixes included) or whose value does not fit in 128 bits.
    pub fn parse(text: &str) -> Option<IntLiteral> {
        let lower = text.replace('\'', "").to_ascii_lowercase();
        let digits = lower.trim_end_matches(['u', 'l', 'z']);
        let suffix = &lower[digits.len()..];
        let (radix, body) = if let Some(h) = digits.strip_prefix("0x") {
            (16, h)
        } else if let Some(b) = digits.strip_prefix("0b") {
            (2, b)
        } else if digits.len() > 1 && digits.starts_with('0') {
            (8, &digits[1..])
        } else {
            (10, digits)
        };
        let longs = suffix.matches('l').count();
        if body.is_empty() || longs > 2 || suffix.matches('u').count() > 1 {
            return None;
        }
        Some(IntLiteral {
            value: u128::from_str_radix(body, radix).ok()?,
            unsigned: suffix.contains('u'),
            longs: longs as u8,
            size: suffix.contains('z'),
            decimal: radix == 10,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::IntLiteral;

    #[test]
    fn integer_literals() {
        let v = |t: &str| IntLiteral::parse(t).map(|l| (l.value, l.unsigned, l.longs, l.decimal));
        assert_eq!(v("0"), Some((0, false, 0, true)));
        assert_eq!(v("1'000ul"), Some((1000, true, 1, true)));
        assert_eq!(v("0x10ULL"), Some((16, true, 2, false)));
        assert_eq!(v("0b101"), Some((5, false, 0, false)));
        assert_eq!(v("017"), Some((15, false, 0, false)));
        assert_eq!(v("18446744073709551615"), Some((u64::MAX as u128, false, 0, true)));
        assert_eq!(IntLiteral::parse("12uz").map(|l| l.size), Some(true));
        assert_eq!(v("0x"), None);
        assert_eq!(v("1lll"), None);
        assert_eq!(v("08"), None);
        assert_eq!(v("1.5"), None);
    }
}
