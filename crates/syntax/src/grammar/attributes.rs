//! Attributes: `[[...]]` (with `using ns:`), GNU `__attribute__((...))`,
//! `alignas(...)`, and `__declspec(...)`.
//!
//! CUDA's `__global__`, `__device__`, `__launch_bounds__(...)` reach us as
//! `__attribute__((global))` etc.: they are ordinary GNU attributes here;
//! `cuda` gives them meaning. Arguments are kept as balanced tokens
//! (`ATTRIBUTE_ARGS`): their grammar depends on the attribute.

use crate::SyntaxKind::*;
use crate::grammar::{expressions, types};
use crate::parser::Parser;

/// Does an attribute specifier start here?
pub(crate) fn at_attribute(p: &Parser<'_>) -> bool {
    at_attribute_nth(p, 0)
}

pub(crate) fn at_attribute_nth(p: &Parser<'_>, n: usize) -> bool {
    match p.nth(n) {
        ATTRIBUTE_KW | ATTRIBUTE2_KW | ALIGNAS_KW | ALIGNAS_C_KW => true,
        L_BRACK => p.nth(n + 1) == L_BRACK,
        IDENT => p.nth_text(n) == "__declspec" && p.nth(n + 1) == L_PAREN,
        _ => false,
    }
}

/// GNU attributes only (where `[[...]]` would be ambiguous or not allowed).
pub(crate) fn at_gnu_attribute(p: &Parser<'_>) -> bool {
    matches!(p.current(), ATTRIBUTE_KW | ATTRIBUTE2_KW)
}

/// Index just past the attribute specifiers starting `n` tokens ahead.
pub(crate) fn skip_attributes(p: &Parser<'_>, mut n: usize) -> usize {
    while at_attribute_nth(p, n) {
        let open = if p.nth(n) == L_BRACK { n } else { n + 1 };
        match skip_group(p, open) {
            Some(end) => n = end,
            None => return n,
        }
    }
    n
}

/// Past the balanced `(...)` or `[...]` at `open`.
fn skip_group(p: &Parser<'_>, open: usize) -> Option<usize> {
    if !matches!(p.nth(open), L_PAREN | L_BRACK) {
        return None;
    }
    let mut depth = 0usize;
    let mut i = open;
    loop {
        match p.nth(i) {
            L_PAREN | L_BRACK | L_CURLY => depth += 1,
            R_PAREN | R_BRACK | R_CURLY => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            EOF => return None,
            _ => {}
        }
        i += 1;
    }
}

/// Zero or more attribute specifiers. Returns whether any was parsed.
pub(crate) fn attribute_specifier_seq(p: &mut Parser<'_>) -> bool {
    let mut any = false;
    while at_attribute(p) {
        attribute_specifier(p);
        any = true;
    }
    any
}

/// Zero or more GNU `__attribute__((...))` specifiers.
pub(crate) fn gnu_attributes(p: &mut Parser<'_>) -> bool {
    let mut any = false;
    while at_gnu_attribute(p) {
        attribute_specifier(p);
        any = true;
    }
    any
}

fn attribute_specifier(p: &mut Parser<'_>) {
    match p.current() {
        ATTRIBUTE_KW | ATTRIBUTE2_KW => gnu_attribute(p),
        ALIGNAS_KW | ALIGNAS_C_KW => alignas_specifier(p),
        L_BRACK => cxx_attribute(p),
        _ => declspec(p),
    }
}

/// `__attribute__((a, b(args), ...))`
fn gnu_attribute(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump_any();
    if p.expect(L_PAREN) {
        if p.expect(L_PAREN) {
            attribute_list(p, R_PAREN);
            p.expect(R_PAREN);
        }
        p.expect(R_PAREN);
    }
    m.complete(p, GNU_ATTRIBUTE);
}

/// `[[ using ns: a, ns::b(args), c... ]]`
fn cxx_attribute(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(L_BRACK);
    p.bump(L_BRACK);
    if p.at(USING_KW) {
        p.bump(USING_KW);
        p.expect(IDENT);
        p.expect(COLON);
    }
    attribute_list(p, R_BRACK);
    p.expect(R_BRACK);
    p.expect(R_BRACK);
    m.complete(p, ATTRIBUTE_LIST);
}

/// Comma-separated attributes until `end` (not consumed). Empty entries are allowed.
fn attribute_list(p: &mut Parser<'_>, end: crate::SyntaxKind) {
    while !p.at(end) && !p.at_eof() {
        if p.eat(COMMA) {
            continue;
        }
        let m = p.start();
        // The attribute name: any identifier or keyword (`const`, `noreturn`, `__const__`),
        // optionally `ns::name`.
        if p.current().is_keyword() || p.at(IDENT) {
            p.bump_any();
            if p.at(COLON2) && (p.nth(1) == IDENT || p.nth(1).is_keyword()) {
                p.bump(COLON2);
                p.bump_any();
            }
        } else {
            p.err_and_bump("expected an identifier");
            m.abandon(p);
            continue;
        }
        if p.at(L_PAREN) {
            let a = p.start();
            p.bump_balanced();
            a.complete(p, ATTRIBUTE_ARGS);
        }
        p.eat(DOT3);
        m.complete(p, ATTRIBUTE);
        if !p.at(end) && !p.eat(COMMA) {
            // Recover inside the attribute list only.
            while !p.at(end) && !p.at(COMMA) && !p.at_eof() {
                p.err_and_bump("expected a \",\"");
            }
        }
    }
}

/// `alignas(type-id)` / `alignas(expr)` (also `_Alignas`), with an optional `...`.
fn alignas_specifier(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump_any();
    if p.expect(L_PAREN) {
        p.with_gt_closes(false, |p| {
            let cp = p.checkpoint();
            let is_type = types::at_type_id_start(p)
                && types::type_id(p)
                && !p.has_error_since(cp)
                && matches!(p.current(), R_PAREN | DOT3);
            if !is_type {
                p.rewind(cp);
                expressions::assignment_expr(p);
            }
        });
        p.eat(DOT3);
        p.expect(R_PAREN);
    }
    m.complete(p, ALIGNAS_SPECIFIER);
}

/// `__declspec(...)` (MSVC; accepted as an identifier-spelled attribute).
fn declspec(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump_any();
    let a = p.start();
    p.bump_balanced();
    a.complete(p, ATTRIBUTE_ARGS);
    m.complete(p, DECLSPEC);
}
