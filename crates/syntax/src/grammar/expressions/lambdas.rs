//! Lambda expressions, including the CUDA extended-lambda spellings that
//! appear in preprocessed text (`[=] __attribute__((device)) (int i) {...}`).

use super::atoms::{close_paren, skip_to_close};
use super::{braced_init_list, expr_list, initializer_clause};
use crate::SyntaxKind::*;
use crate::grammar::{attributes, items, statements, types};
use crate::names::NameKind;
use crate::parser::{CompletedMarker, Parser};

/// `[captures] <tparams> requires-clause attrs (params) specifiers { body }` (at `[`).
pub(crate) fn lambda_expr(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    // Init-captures, parameters and the body live in a scope of their own.
    p.names.push_block_scope();
    introducer(p);
    if p.at(L_ANGLE) {
        items::template_param_list(p);
        if p.at(REQUIRES_KW) {
            items::templates::requires_clause(p);
        }
    }
    attributes::attribute_specifier_seq(p);
    if p.at(L_PAREN) || at_lambda_specifier(p) {
        lambda_declarator(p);
    }
    if p.at(L_CURLY) {
        p.with_gt_closes(false, |p| p.in_new_body(statements::compound_stmt));
    } else {
        p.error("expected a \"{\"");
    }
    p.names.pop_scope();
    m.complete(p, LAMBDA_EXPR)
}

fn at_lambda_specifier(p: &Parser<'_>) -> bool {
    matches!(
        p.current(),
        MUTABLE_KW | CONSTEXPR_KW | CONSTEVAL_KW | STATIC_KW | NOEXCEPT_KW | THROW_KW | ARROW | REQUIRES_KW
    ) || attributes::at_attribute(p)
}

/// `[=, &x, this, *this, y = e, &z = e, ...xs, ys...]`
fn introducer(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(L_BRACK);
    p.with_gt_closes(false, |p| {
        while !p.at(R_BRACK) && !p.at_eof() {
            if !capture(p) {
                break;
            }
            if !p.eat(COMMA) {
                break;
            }
        }
    });
    if !p.eat(R_BRACK) {
        p.error("expected a \"]\"");
        skip_to_close(p, R_BRACK);
    }
    m.complete(p, LAMBDA_INTRODUCER);
}

/// One capture; `false` (after an error) if none is here.
fn capture(p: &mut Parser<'_>) -> bool {
    let m = p.start();
    match p.current() {
        // Capture defaults.
        EQ | AMP if matches!(p.nth(1), COMMA | R_BRACK) => p.bump_any(),
        THIS_KW => p.bump(THIS_KW),
        STAR if p.nth_at(1, THIS_KW) => {
            p.bump(STAR);
            p.bump(THIS_KW);
        }
        AMP | DOT3 | IDENT => {
            p.eat(AMP);
            p.eat(DOT3);
            if !p.at(IDENT) {
                p.error("expected an identifier");
                m.abandon(p);
                return false;
            }
            let name = p.current_text();
            let n = p.start();
            p.bump(IDENT);
            n.complete(p, NAME);
            // `x...` (a pack) or an init-capture `x = e`, `x(e)`, `x{e}`, which declares `x`.
            p.eat(DOT3);
            let init_capture = matches!(p.current(), EQ | L_PAREN | L_CURLY);
            match p.current() {
                EQ => {
                    p.bump(EQ);
                    initializer_clause(p);
                }
                L_PAREN => {
                    p.bump(L_PAREN);
                    expr_list(p);
                    close_paren(p);
                }
                L_CURLY => braced_init_list(p),
                _ => {}
            }
            if init_capture {
                p.names.declare(name, NameKind::Value);
            }
        }
        _ => {
            p.error("expected an identifier");
            m.abandon(p);
            return false;
        }
    }
    m.complete(p, CAPTURE);
    true
}

/// `(params) mutable constexpr noexcept attrs -> T requires C`
fn lambda_declarator(p: &mut Parser<'_>) {
    let m = p.start();
    if p.at(L_PAREN) {
        types::param_list(p);
    }
    loop {
        match p.current() {
            MUTABLE_KW | CONSTEXPR_KW | CONSTEVAL_KW | STATIC_KW => p.bump_any(),
            NOEXCEPT_KW => types::noexcept_spec(p),
            THROW_KW if p.nth_at(1, L_PAREN) => {
                let t = p.start();
                p.bump(THROW_KW);
                p.bump_balanced();
                t.complete(p, THROW_SPEC);
            }
            ARROW => {
                let t = p.start();
                p.bump(ARROW);
                if !types::type_id(p) {
                    p.error("expected a type specifier");
                }
                t.complete(p, TRAILING_RETURN_TYPE);
            }
            REQUIRES_KW => items::templates::requires_clause(p),
            _ if attributes::at_attribute(p) => {
                attributes::attribute_specifier_seq(p);
            }
            _ => break,
        }
    }
    m.complete(p, LAMBDA_DECLARATOR);
}
