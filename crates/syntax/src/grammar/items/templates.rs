//! Templates: `template<...>` declarations, parameters, explicit
//! specializations and instantiations, concepts, requires-clauses.
//!
//! The parameters live in a `ScopeKind::Template` scope that stays current
//! while the templated declaration is parsed; `Names::at_template_declaration`
//! tells the declaration it is a template (so its name is declared as one).

use crate::SyntaxKind::*;
use crate::grammar::expressions;
use crate::grammar::items::{self, expect_semi};
use crate::grammar::paths::{self, NameMode};
use crate::grammar::types::{self, SpecCtx};
use crate::names::{Entry, NameKind, ScopeKind};
use crate::parser::Parser;

/// At `template`: a template declaration, an explicit specialization
/// (`template<>`) or an explicit instantiation (`template class X<int>;`).
pub(crate) fn template_declaration(p: &mut Parser<'_>, ctx: SpecCtx) {
    if p.nth(1) != L_ANGLE {
        explicit_instantiation(p, ctx);
        return;
    }
    let m = p.start();
    p.bump(TEMPLATE_KW);
    // `template<>` declares no parameters: what follows is not a template.
    let prev = p.names.current_scope();
    let kind = if p.nth(0) == L_ANGLE && p.nth(1) == R_ANGLE {
        p.bump(L_ANGLE);
        p.bump(R_ANGLE);
        EXPLICIT_SPECIALIZATION
    } else {
        p.names.push_scope(ScopeKind::Template);
        template_param_list(p);
        TEMPLATE_DECL
    };
    if p.at(REQUIRES_KW) {
        requires_clause(p);
    }
    if p.at(CONCEPT_KW) {
        concept_def(p);
    } else if p.at(SEMI) {
        // `template <…> ;` (or a parameter list cut short before the `;`).
        p.error("expected a declaration");
        p.bump(SEMI);
    } else {
        items::declaration(p, ctx);
    }
    p.names.enter_scope(prev);
    m.complete(p, kind);
}

/// `[extern] template declaration` without a parameter list.
pub(crate) fn explicit_instantiation(p: &mut Parser<'_>, ctx: SpecCtx) {
    let m = p.start();
    p.eat(EXTERN_KW);
    p.bump(TEMPLATE_KW);
    items::declaration(p, ctx);
    m.complete(p, EXPLICIT_INSTANTIATION);
}

/// `concept C = constraint-expression;` (after the template parameters).
fn concept_def(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(CONCEPT_KW);
    if p.at(IDENT) {
        let text = p.current_text();
        let n = p.start();
        p.bump(IDENT);
        n.complete(p, NAME);
        let target = p.names.declaration_scope();
        p.names.declare_entry_in(target, text, Entry::new(NameKind::Concept));
    } else {
        p.error("expected an identifier");
    }
    if p.expect(EQ) {
        expressions::constant_expr(p);
    }
    expect_semi(p);
    m.complete(p, CONCEPT_DEF);
}

/// `requires constraint-logical-or-expression` (at `requires`).
pub(crate) fn requires_clause(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(REQUIRES_KW);
    expressions::constraint_expr(p);
    m.complete(p, REQUIRES_CLAUSE);
}

/// `< param, ... >` (at `<`); declares the parameters in the current scope.
pub(crate) fn template_param_list(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(L_ANGLE);
    p.with_gt_closes(true, |p| {
        while !p.at(R_ANGLE) && !p.at_eof() {
            let before = p.pos();
            p.nested(template_param);
            if !p.eat(COMMA) || p.pos() == before {
                break;
            }
        }
    });
    if !p.eat(R_ANGLE) {
        p.error("expected a \",\" or \">\"");
    }
    m.complete(p, TEMPLATE_PARAM_LIST);
}

fn template_param(p: &mut Parser<'_>) {
    match p.current() {
        CLASS_KW | TYPENAME_KW => {
            // `typename T::type N` is a non-type parameter.
            let qualified = p.nth(1) == COLON2 || (p.nth(1) == IDENT && matches!(p.nth(2), COLON2 | L_ANGLE));
            if p.at(TYPENAME_KW) && qualified {
                types::param(p);
                return;
            }
            // `class T void f()`, `class T struct S {}`: EDG reads `class T`
            // as an elaborated type of a non-type parameter, and reports
            // the type specifier after it.
            let k = p.nth(2);
            if p.at(CLASS_KW)
                && p.nth(1) == IDENT
                && (types::is_simple_type_keyword(k) || matches!(k, STRUCT_KW | CLASS_KW | UNION_KW | ENUM_KW))
            {
                types::param(p);
                return;
            }
            let m = p.start();
            p.bump_any();
            type_param_rest(p, false);
            m.complete(p, TYPE_TEMPLATE_PARAM);
        }
        TEMPLATE_KW => {
            let m = p.start();
            p.bump(TEMPLATE_KW);
            // The inner parameters are not visible outside.
            let prev = p.names.push_scope(ScopeKind::Template);
            if p.at(L_ANGLE) {
                template_param_list(p);
            } else {
                p.error("expected a \"<\"");
            }
            if p.at(REQUIRES_KW) {
                requires_clause(p);
            }
            p.names.enter_scope(prev);
            if !(p.eat(CLASS_KW) || p.eat(TYPENAME_KW)) {
                p.error("expected \"class\" or \"typename\"");
            }
            type_param_rest(p, true);
            m.complete(p, TEMPLATE_TEMPLATE_PARAM);
        }
        IDENT | COLON2 if at_type_constraint(p) => {
            // `Concept T`, `Concept<U> T = X`
            let m = p.start();
            paths::name(p, NameMode::Expr);
            type_param_rest(p, false);
            m.complete(p, TYPE_TEMPLATE_PARAM);
        }
        _ => types::param(p),
    }
}

/// A concept name (maybe with arguments) not followed by `auto` (a constrained placeholder).
fn at_type_constraint(p: &Parser<'_>) -> bool {
    paths::scan_name(p, 0).is_some_and(|s| {
        s.entry.is_some_and(|e| e.kind == NameKind::Concept) && !matches!(p.nth(s.len), AUTO_KW | DECLTYPE_KW)
    })
}

/// `...opt name opt (= default)opt` after `class`/`typename`/a type-constraint.
fn type_param_rest(p: &mut Parser<'_>, template_template: bool) {
    p.eat(DOT3);
    if p.at(IDENT) {
        let text = p.current_text();
        let n = p.start();
        p.bump(IDENT);
        n.complete(p, NAME);
        let entry = if template_template {
            Entry { type_template: true, dependent: true, ..Entry::new(NameKind::Template) }
        } else {
            Entry { dependent: true, ..Entry::new(NameKind::Type) }
        };
        p.names.declare_entry(text, entry);
    }
    if p.at(EQ) {
        let m = p.start();
        p.bump(EQ);
        if template_template {
            if paths::name(p, NameMode::Type).is_none() {
                p.error("expected an identifier");
            }
        } else if !types::type_id(p) {
            p.error("expected a type specifier");
        }
        m.complete(p, EQUAL_INITIALIZER);
    }
}
