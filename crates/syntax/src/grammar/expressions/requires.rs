//! C++20 requires-expressions and requires-clauses.

use super::atoms::{self, skip_to_close};
use super::expr_opt;
use crate::SyntaxKind::*;
use crate::grammar::{paths, types};
use crate::parser::{CompletedMarker, Parser};

/// `requires (params) { requirements }` (at `requires`).
pub(crate) fn requires_expr(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump(REQUIRES_KW);
    p.names.push_block_scope();
    if p.at(L_PAREN) {
        types::param_list(p);
    }
    if p.eat(L_CURLY) {
        p.with_gt_closes(false, |p| {
            while !p.at(R_CURLY) && !p.at_eof() {
                let start = p.pos();
                requirement(p);
                if p.pos() == start {
                    p.err_and_bump("expected an expression");
                }
            }
        });
        p.expect(R_CURLY);
    } else {
        p.error("expected a \"{\"");
    }
    p.names.pop_scope();
    m.complete(p, REQUIRES_EXPR)
}

/// A simple (`e;`), type (`typename T::x;`), compound (`{ e } noexcept -> C<int>;`)
/// or nested (`requires C<T>;`) requirement.
fn requirement(p: &mut Parser<'_>) {
    let m = p.start();
    match p.current() {
        TYPENAME_KW => {
            p.bump(TYPENAME_KW);
            if !paths::id_expression(p) {
                p.error("expected an identifier");
            }
        }
        L_CURLY => {
            p.bump(L_CURLY);
            p.nested(expr_opt);
            if !p.eat(R_CURLY) {
                p.error("expected a \"}\"");
                skip_to_close(p, R_CURLY);
            }
            p.eat(NOEXCEPT_KW);
            if p.eat(ARROW) {
                // A type-constraint: a concept name, maybe with arguments.
                if !paths::id_expression(p) {
                    p.error("expected an identifier");
                }
            }
        }
        // A nested requirement takes a whole logical-or-expression (unlike a requires-clause).
        REQUIRES_KW => {
            p.bump(REQUIRES_KW);
            super::logical_or_expr(p);
        }
        _ => {
            p.nested(expr_opt);
        }
    }
    if !p.eat(SEMI) {
        p.error("expected a \";\"");
        while !p.at_eof() && !p.at_any(&[SEMI, R_CURLY]) {
            p.bump_balanced();
        }
        p.eat(SEMI);
    }
    m.complete(p, REQUIREMENT);
}

/// A constraint-logical-or-expression: primary expressions joined by `&&` and `||`.
/// No postfix operators: in `requires C<T> (T x)` the parenthesis is not a call.
pub(crate) fn constraint_expr(p: &mut Parser<'_>) {
    let Some(mut lhs) = constraint_and(p) else { return };
    while p.at(PIPE2) {
        let m = lhs.precede(p);
        p.bump(PIPE2);
        constraint_and(p);
        lhs = m.complete(p, BIN_EXPR);
    }
}

fn constraint_and(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let mut lhs = constraint_primary(p)?;
    while p.at(AMP2) {
        let m = lhs.precede(p);
        p.bump(AMP2);
        constraint_primary(p);
        lhs = m.complete(p, BIN_EXPR);
    }
    Some(lhs)
}

fn constraint_primary(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    // `!C<T>` is not a primary expression, but compilers diagnose it late; accept it.
    if p.at(BANG) {
        let m = p.start();
        p.bump(BANG);
        p.nested(constraint_primary);
        return Some(m.complete(p, PREFIX_EXPR));
    }
    if p.at(L_BRACK) {
        // Not a lambda here: nothing valid starts a constraint with `[`.
        p.error("expected an expression");
        return None;
    }
    atoms::primary(p)
}
