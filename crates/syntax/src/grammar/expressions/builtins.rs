//! GNU builtins with type operands (`__builtin_offsetof`, `__builtin_va_arg`,
//! `__builtin_bit_cast`, ...) and type-trait pseudo-functions (`__is_same(T, U)`).
//! Builtins with only expression operands (`__builtin_expect`,
//! `__builtin_choose_expr`) are ordinary calls.

use super::assign;
use super::atoms::{close_paren, skip_to_close, try_type_id_before_any};
use crate::SyntaxKind::*;
use crate::grammar::types;
use crate::parser::{CompletedMarker, Parser};

/// A keyword builtin call (at the keyword).
pub(crate) fn builtin_call(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let k = p.current();
    p.bump_any();
    if p.expect(L_PAREN) {
        p.with_gt_closes(false, |p| match k {
            BUILTIN_OFFSETOF_KW => {
                type_operand(p);
                if p.expect(COMMA) {
                    member_designator(p);
                }
            }
            BUILTIN_VA_ARG_KW | BUILTIN_CONVERTVECTOR_KW => {
                assign(p);
                if p.expect(COMMA) {
                    type_operand(p);
                }
            }
            BUILTIN_BIT_CAST_KW => {
                type_operand(p);
                if p.expect(COMMA) {
                    assign(p);
                }
            }
            _ => {
                type_operand(p);
                if p.expect(COMMA) {
                    type_operand(p);
                }
            }
        });
        close_paren(p);
    }
    m.complete(p, BUILTIN_CALL_EXPR)
}

fn type_operand(p: &mut Parser<'_>) {
    if !p.nested(types::type_id).unwrap_or(true) {
        p.error("expected a type specifier");
    }
}

/// `a.b[3].c` in `__builtin_offsetof`.
fn member_designator(p: &mut Parser<'_>) {
    if !p.at(IDENT) {
        p.error("expected an identifier");
        return;
    }
    name_ref(p);
    loop {
        match p.current() {
            DOT => {
                p.bump(DOT);
                if p.at(IDENT) {
                    name_ref(p);
                } else {
                    p.error("expected an identifier");
                    return;
                }
            }
            L_BRACK => {
                p.bump(L_BRACK);
                p.nested(super::expr_opt);
                if !p.eat(R_BRACK) {
                    p.error("expected a \"]\"");
                    skip_to_close(p, R_BRACK);
                }
            }
            _ => return,
        }
    }
}

fn name_ref(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(IDENT);
    m.complete(p, NAME_REF);
}

/// At an identifier: is it a type-trait pseudo-function call (`__is_same(T, U)`)?
/// Spec 50 §3.1: names like `__is_pointer` are ordinary identifiers once
/// declared (libstdc++ declares templates with such names), so the name table
/// is asked first.
pub(crate) fn at_type_trait(p: &Parser<'_>) -> bool {
    if !p.nth_at(1, L_PAREN) {
        return false;
    }
    let text = p.current_text();
    let trait_like =
        ["__is_", "__has_", "__reference_", "__nv_is_", "__array_"].iter().any(|pre| text.starts_with(pre))
            || text == "__builtin_has_attribute";
    trait_like && p.names.lookup(text).is_none()
}

/// `__is_constructible(T, Args...)`: each operand a type-id or an expression, maybe a pack expansion.
pub(crate) fn type_trait(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump(IDENT);
    p.bump(L_PAREN);
    p.with_gt_closes(false, |p| {
        if p.at(R_PAREN) {
            return;
        }
        loop {
            if !p.nested(|p| try_type_id_before_any(p, &[COMMA, R_PAREN, DOT3])).unwrap_or(true) {
                assign(p);
            }
            p.eat(DOT3);
            if !p.eat(COMMA) {
                break;
            }
        }
    });
    close_paren(p);
    m.complete(p, TYPE_TRAIT_EXPR)
}
