//! Attributes: `[[...]]`, `__attribute__((...))`, `alignas(...)`, `__declspec(...)`.

use crate::parser::Parser;

/// Zero or more attribute specifiers. Returns whether any was parsed.
pub(crate) fn attribute_specifier_seq(p: &mut Parser<'_>) -> bool {
    let _ = p;
    false
}
