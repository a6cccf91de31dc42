//! Classes, structs, unions and enums: specifiers with bodies, elaborated
//! type specifiers, base clauses, member specifications, enumerators.
//!
//! A class gets a persistent scope (`ScopeKind::Class`) holding its members,
//! its injected class name and its non-dependent bases; a forward
//! declaration creates the scope that the definition later fills.
//! Members of explicit and partial specializations are also made visible
//! through the primary template's scope (see docs/name-oracle.md).

use crate::SyntaxKind::*;
use crate::grammar::paths::{self, Last, NameMode};
use crate::grammar::types::{self, SpecCtx};
use crate::grammar::{attributes, expressions, items};
use crate::names::{Entry, NameKind, ScopeId, ScopeKind};
use crate::parser::Parser;

pub(crate) struct ClassResult {
    /// A body was parsed (or an opaque enum declaration with a base).
    pub defined: bool,
    /// What the name denotes.
    pub entry: Option<Entry>,
}

/// At `class`/`struct`/`union`/`enum`.
pub(crate) fn class_or_enum_specifier(p: &mut Parser<'_>, ctx: SpecCtx, friend: bool) -> ClassResult {
    if p.at(ENUM_KW) { enum_specifier(p, ctx) } else { class_specifier(p, ctx, friend) }
}

fn at_class_name(p: &Parser<'_>) -> bool {
    matches!(p.current(), IDENT | COLON2)
        || (matches!(p.current(), DECLTYPE_KW) && paths::scan_name(p, 0).is_some_and(|s| s.last != Last::Decltype))
}

/// Does a class body or base clause follow (rather than an elaborated specifier)?
fn at_class_body(p: &Parser<'_>) -> bool {
    let mut n = 0;
    // `final` / `__final` (contextual), then `{` or `:`
    if p.nth(0) == IDENT && matches!(p.nth_text(0), "final" | "__final") {
        n = 1;
    }
    match p.nth(n) {
        L_CURLY => true,
        COLON => !matches!(p.nth(n + 1), INT_NUMBER),
        _ => false,
    }
}

fn class_specifier(p: &mut Parser<'_>, ctx: SpecCtx, friend: bool) -> ClassResult {
    let m = p.start();
    let key = p.current();
    p.bump_any();
    attributes::attribute_specifier_seq(p);
    let templated = p.names.at_template_declaration();
    let target = p.names.declaration_scope();
    let mut name_text: Option<&str> = None;
    let mut info = None;
    if at_class_name(p) {
        let start = p.pos();
        let n = p.start();
        info = paths::name(p, NameMode::Type);
        match info {
            Some(i) if !i.qualified && i.last == Last::Ident => {
                n.complete(p, NAME);
                name_text = Some(p.inp.text(start));
            }
            _ => n.abandon(p),
        }
    }
    attributes::attribute_specifier_seq(p);
    if info.is_none() && !at_class_body(p) {
        // `int class = 1;`: neither a name nor a body; EDG skips the rest
        // of the declaration.
        super::super::recovery::error_and_skip(p, "expected either a definition or a tag name");
    }
    if !at_class_body(p) {
        // Elaborated type specifier: `struct X`, `class N::Y`, `struct X<int>`.
        let mut entry = info.and_then(|i| i.entry);
        if let Some(text) = name_text {
            let full_decl = p.at(SEMI) && !friend;
            let existing = if full_decl { p.names.lookup_local(target, text) } else { p.names.lookup_entry(text) };
            let is_class = existing.is_some_and(|e| e.is_type() || e.kind == NameKind::Template);
            if !is_class {
                let scope_at =
                    if full_decl || ctx == SpecCtx::Member && !friend { target } else { p.names.enclosing_namespace() };
                let new = new_class_scope(p, scope_at, text);
                let e = class_entry(templated, new);
                p.names.declare_entry_in(scope_at, text, e);
                entry = Some(e);
            } else if let Some(old) = existing
                && templated
                && old.kind == NameKind::Type
                && let Some(s) = old.scope
            {
                // First seen as a plain class (`friend class X;`), now known to be a template.
                let e = class_entry(true, s);
                let scope_at = if full_decl { target } else { p.names.enclosing_namespace() };
                p.names.declare_entry_in(scope_at, text, e);
                entry = Some(e);
            } else {
                entry = existing;
            }
        }
        m.complete(p, ELABORATED_TYPE_SPECIFIER);
        return ClassResult { defined: false, entry };
    }
    // A definition. Its scope's parent is the current scope (template parameters included).
    let scope: ScopeId;
    let entry: Entry;
    match (name_text, info) {
        (Some(text), _) => {
            // The injected class name of `target` itself is not an earlier
            // declaration of a member class (`struct A { struct A {}; }` is ill-formed).
            let existing = p
                .names
                .lookup_local(target, text)
                .filter(|e| e.scope.is_some_and(|s| s != target) && (e.is_type() || e.kind == NameKind::Template));
            scope = match existing.and_then(|e| e.scope) {
                Some(s) if p.names.scope_kind(s) == ScopeKind::Class => s,
                _ => new_class_scope(p, target, text),
            };
            entry = class_entry(templated || existing.is_some_and(|e| e.kind == NameKind::Template), scope);
            p.names.declare_entry_in(target, text, entry);
        }
        (None, Some(i)) => {
            // `struct X<int> {...}` (a specialization) or `struct N::X {...}`.
            let existing = i.entry.filter(|e| e.scope.is_some());
            let spec_name = i.last_ident.map(|idx| p.inp.text(idx)).unwrap_or("");
            if i.last == Last::TemplateId {
                let s = new_class_scope(p, target, spec_name);
                if let Some(primary) = existing.and_then(|e| e.scope)
                    && p.names.scope_kind(primary) == ScopeKind::Class
                {
                    // Members of specializations are visible through the primary (for parsing).
                    p.names.add_base(primary, s);
                }
                scope = s;
                entry = Entry { type_template: true, ..Entry::with_scope(NameKind::Template, s) };
            } else {
                scope = match existing.and_then(|e| e.scope) {
                    Some(s) if p.names.scope_kind(s) == ScopeKind::Class => s,
                    _ => new_class_scope(p, target, spec_name),
                };
                entry = existing.unwrap_or(Entry::with_scope(NameKind::Type, scope));
            }
        }
        (None, None) => {
            // Anonymous: members of an anonymous union/struct member are members of the enclosing class.
            scope = new_class_scope(p, target, "");
            entry = Entry::with_scope(NameKind::Type, scope);
            if ctx == SpecCtx::Member && p.names.scope_kind(target) == ScopeKind::Class {
                p.names.add_base(target, scope);
            }
        }
    }
    if p.at(IDENT) {
        let v = p.start();
        p.bump(IDENT);
        v.complete(p, VIRT_SPECIFIER);
    }
    // `struct N::X<...> {...}`: unqualified names in the body are looked up in `N` too.
    // `N` is re-entered lexically (a reactivation scope between the body and the current
    // scope), not as a base, so classes derived from `X` do not inherit `N`'s names.
    let quals: Vec<ScopeId> = match info {
        Some(i) if i.qualified && name_text.is_none() => i.qualifier_scopes().filter(|&q| q != scope).collect(),
        _ => Vec::new(),
    };
    let before_quals = if quals.is_empty() { None } else { Some(p.names.push_reactivation(&quals)) };
    let here = p.names.current_scope();
    p.names.reparent(scope, here);
    let prev = p.names.enter_scope(scope);
    // The injected class name.
    let injected_name = p.names.scope_name(scope).to_string();
    if !injected_name.is_empty() {
        let injected = Entry { scope: Some(scope), ..entry };
        p.names.declare_entry_in(scope, &injected_name, injected);
    }
    if p.at(COLON) {
        base_clause(p, scope);
    }
    p.in_class_members(member_specification);
    p.names.enter_scope(before_quals.unwrap_or(prev));
    attributes::gnu_attributes(p);
    let _ = key;
    m.complete(p, CLASS_SPECIFIER);
    ClassResult { defined: true, entry: Some(entry) }
}

fn new_class_scope(p: &mut Parser<'_>, parent: ScopeId, name: &str) -> ScopeId {
    let prev = p.names.enter_scope(parent);
    let s = p.names.new_scope(ScopeKind::Class, name);
    p.names.enter_scope(prev);
    s
}

fn class_entry(template: bool, scope: ScopeId) -> Entry {
    if template {
        Entry { type_template: true, ..Entry::with_scope(NameKind::Template, scope) }
    } else {
        Entry::with_scope(NameKind::Type, scope)
    }
}

/// `: public A, virtual B<T>, C...`
fn base_clause(p: &mut Parser<'_>, class: ScopeId) {
    let m = p.start();
    p.bump(COLON);
    loop {
        let b = p.start();
        attributes::attribute_specifier_seq(p);
        while matches!(p.current(), VIRTUAL_KW | PUBLIC_KW | PRIVATE_KW | PROTECTED_KW) {
            p.bump_any();
        }
        let in_template = p.names.in_template();
        if matches!(p.current(), DECLTYPE_KW | DECLTYPE2_KW)
            && paths::scan_name(p, 0).is_some_and(|s| s.last == Last::Decltype)
        {
            types::decltype_specifier(p);
            p.names.add_dependent_base(class);
        } else {
            match paths::name(p, NameMode::Type) {
                Some(info) => {
                    let dependent = info.dependent
                        || info.entry.is_none_or(|e| e.dependent)
                        || (in_template && info.last == Last::TemplateId);
                    match info.entry.and_then(|e| e.scope) {
                        Some(s) if !dependent => p.names.add_base(class, s),
                        _ => p.names.add_dependent_base(class),
                    }
                }
                None => p.error("expected an identifier"),
            }
        }
        p.eat(DOT3);
        b.complete(p, BASE_SPECIFIER);
        if !p.eat(COMMA) {
            break;
        }
    }
    m.complete(p, BASE_CLAUSE);
}

/// `{ members }`
fn member_specification(p: &mut Parser<'_>) {
    let m = p.start();
    if !p.expect(L_CURLY) {
        m.complete(p, MEMBER_LIST);
        return;
    }
    while !p.at(R_CURLY) && !p.at_eof() {
        let before = p.pos();
        items::declaration(p, SpecCtx::Member);
        if p.pos() == before {
            p.err_and_bump("expected a declaration");
        }
    }
    p.expect(R_CURLY);
    m.complete(p, MEMBER_LIST);
}

/// `enum [class|struct] attrs name [: type] { enumerators }`, opaque
/// `enum class E : int;`, or elaborated `enum E`.
fn enum_specifier(p: &mut Parser<'_>, ctx: SpecCtx) -> ClassResult {
    let m = p.start();
    p.bump(ENUM_KW);
    let scoped = p.eat(CLASS_KW) || p.eat(STRUCT_KW);
    attributes::attribute_specifier_seq(p);
    let target = p.names.declaration_scope();
    let mut name_text: Option<&str> = None;
    let mut info = None;
    if at_class_name(p) {
        let start = p.pos();
        let n = p.start();
        info = paths::name(p, NameMode::Type);
        match info {
            Some(i) if !i.qualified && i.last == Last::Ident => {
                n.complete(p, NAME);
                name_text = Some(p.inp.text(start));
            }
            _ => n.abandon(p),
        }
    }
    attributes::attribute_specifier_seq(p);
    let has_base = p.at(COLON) && (types::at_type_id_start_nth(p, 1) || matches!(p.nth(1), IDENT | COLON2));
    if has_base {
        let b = p.start();
        p.bump(COLON);
        if !types::type_specifier_seq(p) {
            p.error("expected a type specifier");
        }
        b.complete(p, ENUM_BASE);
    }
    let existing = name_text
        .and_then(|t| p.names.lookup_local(target, t))
        .or_else(|| info.and_then(|i| i.entry))
        .filter(|e| e.scope.is_some());
    if !p.at(L_CURLY) {
        let opaque = has_base || (scoped && p.at(SEMI));
        let mut entry = existing;
        if entry.is_none()
            && let Some(text) = name_text
        {
            let s = new_enum_scope(p, target, text);
            let e = Entry::with_scope(NameKind::Type, s);
            p.names.declare_entry_in(target, text, e);
            entry = Some(e);
        }
        m.complete(p, if opaque { ENUM_SPECIFIER } else { ELABORATED_TYPE_SPECIFIER });
        return ClassResult { defined: opaque, entry };
    }
    let scope = match existing.and_then(|e| e.scope) {
        Some(s) if p.names.scope_kind(s) == ScopeKind::Enum => s,
        _ => new_enum_scope(p, target, name_text.unwrap_or("")),
    };
    let entry = Entry::with_scope(NameKind::Type, scope);
    if let Some(text) = name_text {
        p.names.declare_entry_in(target, text, entry);
    }
    // Unscoped enumerators are also members of the enclosing scope.
    let outer = if ctx == SpecCtx::Block { p.names.current_scope() } else { target };
    enumerator_list(p, scope, (!scoped).then_some(outer));
    attributes::gnu_attributes(p);
    m.complete(p, ENUM_SPECIFIER);
    ClassResult { defined: true, entry: Some(entry) }
}

fn new_enum_scope(p: &mut Parser<'_>, parent: ScopeId, name: &str) -> ScopeId {
    let prev = p.names.enter_scope(parent);
    let s = p.names.new_scope(ScopeKind::Enum, name);
    p.names.enter_scope(prev);
    s
}

fn enumerator_list(p: &mut Parser<'_>, scope: ScopeId, outer: Option<ScopeId>) {
    let m = p.start();
    p.bump(L_CURLY);
    p.with_gt_closes(false, |p| {
        while !p.at(R_CURLY) && !p.at_eof() {
            let e = p.start();
            if p.at(IDENT) {
                let text = p.current_text();
                let n = p.start();
                p.bump(IDENT);
                n.complete(p, NAME);
                p.names.declare_entry_in(scope, text, Entry::new(NameKind::Value));
                if let Some(o) = outer {
                    p.names.declare_entry_in(o, text, Entry::new(NameKind::Value));
                }
            } else {
                p.error("expected an identifier");
                if !p.at(COMMA) {
                    p.bump_balanced();
                }
            }
            attributes::attribute_specifier_seq(p);
            if p.at(EQ) {
                let i = p.start();
                p.bump(EQ);
                expressions::constant_expr(p);
                i.complete(p, EQUAL_INITIALIZER);
            }
            e.complete(p, ENUMERATOR);
            if !p.eat(COMMA) {
                break;
            }
        }
    });
    crate::grammar::recovery::expect_or_skip(p, R_CURLY);
    m.complete(p, ENUMERATOR_LIST);
}
