//! Initializers: braced init lists (designators included), argument lists.

use super::atoms::skip_to_close;
use super::{assign, constant_expr};
use crate::SyntaxKind::*;
use crate::parser::{CompletedMarker, Parser};

/// An initializer-clause: an assignment-expression or a braced-init-list.
pub(crate) fn initializer_clause(p: &mut Parser<'_>) {
    initializer_clause_opt(p);
}

fn initializer_clause_opt(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if p.at(L_CURLY) { Some(braced_init_list_cm(p)) } else { assign(p) }
}

/// An initializer-clause optionally followed by `...` (a `PACK_EXPANSION`).
fn initializer_clause_pack(p: &mut Parser<'_>) {
    if let Some(cm) = initializer_clause_opt(p)
        && p.at(DOT3)
    {
        let m = cm.precede(p);
        p.bump(DOT3);
        m.complete(p, PACK_EXPANSION);
    }
}

/// `{ a, b..., .x = c, [2] = d, }` (at `{`).
pub(crate) fn braced_init_list(p: &mut Parser<'_>) {
    braced_init_list_cm(p);
}

fn braced_init_list_cm(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump(L_CURLY);
    p.with_gt_closes(false, |p| {
        p.nested(|p| {
            while !p.at(R_CURLY) && !p.at_eof() {
                init_list_element(p);
                if !p.eat(COMMA) {
                    break;
                }
            }
        })
    });
    if !p.eat(R_CURLY) {
        p.error("expected a \"}\"");
        skip_to_close(p, R_CURLY);
    }
    m.complete(p, INIT_LIST)
}

fn init_list_element(p: &mut Parser<'_>) {
    let designated = match p.current() {
        DOT => p.nth_at(1, IDENT),
        L_BRACK => at_array_designator(p),
        // GNU's obsolete `field: value`.
        IDENT => p.nth_at(1, COLON),
        _ => false,
    };
    if !designated {
        initializer_clause_pack(p);
        return;
    }
    let m = p.start();
    if p.at(IDENT) {
        name(p);
        p.bump(COLON);
        initializer_clause(p);
        m.complete(p, DESIGNATED_INIT);
        return;
    }
    loop {
        match p.current() {
            DOT => {
                p.bump(DOT);
                if p.at(IDENT) {
                    name(p);
                } else {
                    p.error("expected an identifier");
                    break;
                }
            }
            L_BRACK => {
                p.bump(L_BRACK);
                constant_expr(p);
                // GNU range designator `[1 ... 5]`.
                if p.eat(DOT3) {
                    constant_expr(p);
                }
                if !p.eat(R_BRACK) {
                    p.error("expected a \"]\"");
                    skip_to_close(p, R_BRACK);
                }
            }
            _ => break,
        }
    }
    if p.eat(EQ) {
        initializer_clause(p);
    } else if p.at(L_CURLY) {
        braced_init_list(p);
    } else {
        // GNU allows `[3] x` without `=`.
        initializer_clause(p);
    }
    m.complete(p, DESIGNATED_INIT);
}

fn name(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(IDENT);
    m.complete(p, NAME_REF);
}

/// At `[` in an initializer list: is this an array designator (`[2] = x`,
/// `[1 ... 3] = x`, `[0][1] = x`, `[0].f = x`) rather than a lambda?
fn at_array_designator(p: &Parser<'_>) -> bool {
    let mut depth = 0usize;
    let mut i = 0;
    loop {
        match p.nth(i) {
            L_BRACK | L_PAREN | L_CURLY => depth += 1,
            R_BRACK | R_PAREN | R_CURLY => {
                depth -= 1;
                if depth == 0 {
                    return p.nth(i) == R_BRACK && matches!(p.nth(i + 1), EQ | DOT | L_BRACK);
                }
            }
            EOF | SEMI => return false,
            _ => {}
        }
        i += 1;
    }
}

/// `( args )` as an `ARG_LIST` (at `(`).
pub(crate) fn arg_list(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(L_PAREN);
    p.with_gt_closes(false, |p| p.nested(expr_list));
    if !p.eat(R_PAREN) {
        p.error("expected a \")\"");
        skip_to_close(p, R_PAREN);
    }
    m.complete(p, ARG_LIST);
}

/// The comma-separated initializer-clauses between parentheses (pack expansions
/// included), up to but not including the `)`.
pub(crate) fn expr_list(p: &mut Parser<'_>) {
    if p.at(R_PAREN) {
        return;
    }
    loop {
        initializer_clause_pack(p);
        if !p.eat(COMMA) {
            break;
        }
    }
}
