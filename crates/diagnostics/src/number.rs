//! Message numbers: internal table index ↔ display number (spec 60 §5.1), and
//! the `--diag_*` / pragma lists of numbers and tags (spec 60 §5.2–5.4,
//! spec 10 §3 item 12–13).

use std::fmt;

use crate::catalog;

/// Index into EDG's message table (0–3794). This is the identity of a
/// diagnostic everywhere inside cufront; users see [`DiagId::display`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DiagId(pub u16);

/// Number of slots in the message table.
pub const TABLE_SIZE: u16 = 3795;
/// First NVIDIA slot; from here on the display number is index + 16543.
pub const FIRST_CUDA_INDEX: u16 = 3457;
/// Difference between display number and index for NVIDIA slots.
pub const CUDA_DISPLAY_OFFSET: u32 = 16543;

impl DiagId {
    /// From a display number (`20091`) or a raw index (`3548`), the way
    /// options and pragmas accept them: values above 19999 are display numbers.
    /// Returns `None` outside 1..=3794 (0, "unknown error", is not accepted).
    pub fn from_user_number(n: u64) -> Option<DiagId> {
        let raw = if n > 19999 { n - CUDA_DISPLAY_OFFSET as u64 } else { n };
        if (1..TABLE_SIZE as u64).contains(&raw) { Some(DiagId(raw as u16)) } else { None }
    }

    /// The number users see: unchanged up to 3456, index + 16543 above.
    pub fn display(self) -> u32 {
        if self.0 >= FIRST_CUDA_INDEX { self.0 as u32 + CUDA_DISPLAY_OFFSET } else { self.0 as u32 }
    }

    /// The raw index (SARIF `ruleId` is `EC<index>`).
    pub fn index(self) -> u16 {
        self.0
    }
}

impl fmt::Display for DiagId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.display())
    }
}

/// Why a `--diag_*` list item was rejected. The display text is cudafe++'s
/// command-line error message (614 / 613), the argument being the bad item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiagListError {
    /// 574 `invalid number: %s` (an item starting with a digit that is not a
    /// decimal number, e.g. `12abc`, `0x3ac`, or one that overflows)
    BadNumber(String),
    /// 614 `invalid error number in diagnostic control option: %s`
    InvalidNumber(String),
    /// 613 `invalid error tag in diagnostic control option: %s`
    InvalidTag(String),
}

impl DiagListError {
    /// The message number cudafe++ reports this with (a command-line error).
    pub fn id(&self) -> DiagId {
        match self {
            DiagListError::BadNumber(_) => DiagId(574),
            DiagListError::InvalidNumber(_) => DiagId(614),
            DiagListError::InvalidTag(_) => DiagId(613),
        }
    }
    /// The offending item (the `%s` fill-in).
    pub fn item(&self) -> &str {
        match self {
            DiagListError::BadNumber(s) | DiagListError::InvalidNumber(s) | DiagListError::InvalidTag(s) => s,
        }
    }
}

impl fmt::Display for DiagListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagListError::BadNumber(s) => write!(f, "invalid number: {s}"),
            DiagListError::InvalidNumber(s) => {
                write!(f, "invalid error number in diagnostic control option: {s}")
            }
            DiagListError::InvalidTag(s) => {
                write!(f, "invalid error tag in diagnostic control option: {s}")
            }
        }
    }
}

/// One item of a list: a number (display or raw) or a tag. Blanks around the
/// item are ignored (cudafe++ accepts `940, 177`); an item that starts with a
/// digit is a number, anything else (`-1`, `+940`, empty) a tag.
pub fn parse_diag_item(item: &str) -> Result<DiagId, DiagListError> {
    let item = item.trim_matches([' ', '\t']);
    if item.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
        let n: u64 = item.parse().map_err(|_| DiagListError::BadNumber(item.to_owned()))?;
        return DiagId::from_user_number(n).ok_or_else(|| DiagListError::InvalidNumber(item.to_owned()));
    }
    catalog::by_tag(item).ok_or_else(|| DiagListError::InvalidTag(item.to_owned()))
}

/// A comma-separated `--diag_suppress` (etc.) value. The first bad item is
/// reported, as cudafe++ stops at it.
pub fn parse_diag_list(list: &str) -> Result<Vec<DiagId>, DiagListError> {
    list.split(',').map(parse_diag_item).collect()
}
