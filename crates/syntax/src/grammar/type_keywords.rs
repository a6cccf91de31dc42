//! EDG's checks of the builtin type keywords of one decl-specifier-seq:
//! "invalid combination of type specifiers" and "duplicate specifier in
//! declaration".
//!
//! EDG judges each keyword as it reads it (a second base type such as
//! `int int`, `short long`, a third `long`, `signed unsigned`; a repeated
//! `short`/`signed`/`unsigned` is a duplicate), at that keyword; and the
//! modifiers against the base type once the sequence is read (`long char`,
//! `unsigned float`), at the first token of the sequence. The sequence is
//! read ahead here, over keywords only; one with any other token among its
//! type keywords, or a keyword this module does not model (`__int128`,
//! `_Complex`, `_Float16`, ...), is left alone.

use crate::SyntaxKind::{self, *};
use crate::parser::Parser;

/// The problem of the decl-specifier-seq at `p`: how many tokens ahead it
/// is reported and the message.
pub(crate) fn check(p: &Parser<'_>) -> Option<(usize, &'static str)> {
    let mut base: Option<SyntaxKind> = None;
    let (mut shorts, mut longs, mut signed, mut unsigned) = (0, 0, false, false);
    let mut i = 0;
    loop {
        let k = p.nth(i);
        match k {
            SHORT_KW | LONG_KW | SIGNED_KW | SIGNED2_KW | SIGNED3_KW | UNSIGNED_KW => {
                let is_signed = matches!(k, SIGNED_KW | SIGNED2_KW | SIGNED3_KW);
                let duplicate =
                    (k == SHORT_KW && shorts > 0) || (is_signed && signed) || (k == UNSIGNED_KW && unsigned);
                if duplicate {
                    return Some((i, DUPLICATE));
                }
                let clash = (k == SHORT_KW && longs > 0)
                    || (k == LONG_KW && (shorts > 0 || longs == 2))
                    || (is_signed && unsigned)
                    || (k == UNSIGNED_KW && signed);
                if clash {
                    return Some((i, INVALID));
                }
                match k {
                    SHORT_KW => shorts += 1,
                    LONG_KW => longs += 1,
                    UNSIGNED_KW => unsigned = true,
                    _ => signed = true,
                }
            }
            CHAR_KW | WCHAR_T_KW | CHAR8_T_KW | CHAR16_T_KW | CHAR32_T_KW | BOOL_KW | INT_KW | FLOAT_KW | DOUBLE_KW
            | VOID_KW | AUTO_KW => {
                if base.is_some() {
                    return Some((i, INVALID));
                }
                base = Some(k);
            }
            _ if is_other_specifier(k) => {}
            // A type keyword not modelled here: no judgement.
            _ if super::types::is_simple_type_keyword(k) => return None,
            _ => break,
        }
        i += 1;
    }
    let modifiers_fit = match base {
        None | Some(INT_KW) => true,
        Some(CHAR_KW) => shorts == 0 && longs == 0,
        Some(DOUBLE_KW) => shorts == 0 && longs <= 1 && !signed && !unsigned,
        Some(_) => shorts == 0 && longs == 0 && !signed && !unsigned,
    };
    (!modifiers_fit).then_some((0, INVALID))
}

const INVALID: &str = "invalid combination of type specifiers";
const DUPLICATE: &str = "duplicate specifier in declaration";

/// Keywords that may stand among the type keywords of a decl-specifier-seq.
fn is_other_specifier(k: SyntaxKind) -> bool {
    matches!(
        k,
        CONST_KW
            | VOLATILE_KW
            | STATIC_KW
            | EXTERN_KW
            | REGISTER_KW
            | MUTABLE_KW
            | THREAD_LOCAL_KW
            | INLINE_KW
            | VIRTUAL_KW
            | CONSTEXPR_KW
            | CONSTEVAL_KW
            | CONSTINIT_KW
            | TYPEDEF_KW
            | FRIEND_KW
    )
}
