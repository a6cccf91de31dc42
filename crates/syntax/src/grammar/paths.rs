//! Names: qualified names, template-ids, operator and destructor names.

use crate::parser::Parser;
use crate::SyntaxKind::*;

/// An id-expression (`x`, `N::f<int>`, `operator+`, `~T`). Returns `false` with nothing consumed if none starts here.
pub(crate) fn id_expression(p: &mut Parser<'_>) -> bool {
    if !p.at(IDENT) {
        return false;
    }
    let m = p.start();
    p.bump(IDENT);
    m.complete(p, NAME_REF);
    true
}
