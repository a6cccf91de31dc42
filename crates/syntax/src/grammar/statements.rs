//! Statements and function bodies.

use crate::grammar::{expressions, items};
use crate::parser::Parser;
use crate::SyntaxKind::*;

/// The contents of a function body: a compound statement (or function-try-block).
pub(crate) fn body_contents(p: &mut Parser<'_>) {
    compound_stmt(p);
}

/// A function body at its definition: `LAZY_BODY` (balanced tokens) when
/// lazy bodies are on, else the parsed compound statement in a `FUNCTION_BODY`.
pub(crate) fn function_body(p: &mut Parser<'_>) {
    let m = p.start();
    if p.opts.lazy_bodies {
        p.bump_balanced();
        m.complete(p, LAZY_BODY);
    } else {
        body_contents(p);
        m.complete(p, FUNCTION_BODY);
    }
}

pub(crate) fn compound_stmt(p: &mut Parser<'_>) {
    let m = p.start();
    p.expect(L_CURLY);
    while !p.at_eof() && !p.at(R_CURLY) {
        statement(p);
    }
    p.expect(R_CURLY);
    m.complete(p, COMPOUND_STMT);
}

pub(crate) fn statement(p: &mut Parser<'_>) {
    if p.at(L_CURLY) {
        compound_stmt(p);
        return;
    }
    if items::try_block_declaration(p) {
        return;
    }
    let m = p.start();
    expressions::expr(p);
    if !p.eat(SEMI) && !p.at(R_CURLY) {
        p.err_and_bump("expected a \";\"");
    }
    m.complete(p, EXPR_STMT);
}
