//! Decl-specifiers, declarators and type-ids.

use crate::parser::Parser;
use crate::SyntaxKind::*;

/// Can a type-id start here (keyword type, cv, or a name the oracle calls a type)?
pub(crate) fn at_type_id_start(p: &Parser<'_>) -> bool {
    p.at_any(&[INT_KW, CHAR_KW, VOID_KW, BOOL_KW, FLOAT_KW, DOUBLE_KW, CONST_KW, UNSIGNED_KW])
}

/// A type-id (`const int*`, `std::vector<T>&`). Returns `false` with nothing consumed if none starts here.
pub(crate) fn type_id(p: &mut Parser<'_>) -> bool {
    if !at_type_id_start(p) {
        return false;
    }
    let m = p.start();
    while at_type_id_start(p) || p.at(STAR) || p.at(AMP) {
        p.bump_any();
    }
    m.complete(p, TYPE_ID);
    true
}
