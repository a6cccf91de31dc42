//! Expressions.

use crate::parser::Parser;
use crate::SyntaxKind::*;

/// A full expression, comma operator included.
pub(crate) fn expr(p: &mut Parser<'_>) {
    assignment_expr(p);
    while p.eat(COMMA) {
        assignment_expr(p);
    }
}

/// An assignment-expression (no top-level comma).
pub(crate) fn assignment_expr(p: &mut Parser<'_>) {
    let m = p.start();
    while !p.at_eof() && !p.at_any(&[SEMI, COMMA, R_PAREN, R_BRACK, R_CURLY]) {
        p.bump_balanced();
    }
    m.complete(p, BIN_EXPR);
}

/// A constant-expression (conditional-expression).
pub(crate) fn constant_expr(p: &mut Parser<'_>) {
    assignment_expr(p);
}

/// An initializer-clause: an assignment-expression or a braced-init-list.
pub(crate) fn initializer_clause(p: &mut Parser<'_>) {
    if p.at(L_CURLY) {
        braced_init_list(p);
    } else {
        assignment_expr(p);
    }
}

/// `{ a, b, .x = c }`
pub(crate) fn braced_init_list(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump_balanced();
    m.complete(p, INIT_LIST);
}
