//! Declarations at namespace, class and block scope.
//!
//! `declaration` dispatches on the first tokens (namespace, linkage
//! specification, using, templates, static_assert, asm, ...) and falls back to
//! `simple_declaration`: decl-specifiers, then init-declarators or one function
//! definition. Function bodies go to `statements::function_body` with the
//! function's parameter scope current, so that lazy bodies re-enter it.
//!
//! Block scope asks `try_simple_declaration`, which decides from a cheap look
//! at the first tokens (spec 50 §3.4: whatever can be a declaration is one)
//! and only for the ambiguous `T(x)` shapes runs a tentative parse bounded by
//! the first declarator.

pub(crate) mod classes;
pub(crate) mod templates;

use crate::SyntaxKind::{self, *};
use crate::grammar::paths::{self, Last, NameMode};
use crate::grammar::types::{self, DeclMode, DeclSpecs, DeclaratorInfo, SpecCtx};
use crate::grammar::{attributes, expressions, statements};
use crate::names::{Entry, NameKind};
use crate::parser::Parser;

pub(crate) use templates::template_param_list;

/// The contexts in which a statement asks for a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeclContext {
    /// A declaration statement (the `;` included).
    Block,
    /// An init-statement of `for`/`if`/`switch` (the `;` included).
    ForInit,
    /// A condition (`if (auto x = f())`): needs an initializer; no `;`.
    Condition,
    /// A for-range-declaration (`auto& [k, v]`): stops before the `:`.
    ForRange,
    /// A handler's exception-declaration (`catch (const E& e)`): one parameter, no `)`.
    Exception,
}

/// Declarations until `end` (not consumed) or end of input.
pub(crate) fn declaration_seq(p: &mut Parser<'_>, end: SyntaxKind) {
    while !p.at_eof() && !p.at(end) {
        let before = p.pos();
        declaration(p, SpecCtx::Namespace);
        if p.pos() == before {
            p.err_and_bump("expected a declaration");
        }
        p.publish();
    }
}

/// One declaration at namespace scope (`SpecCtx::Namespace`) or in a class body (`SpecCtx::Member`).
pub(crate) fn declaration(p: &mut Parser<'_>, ctx: SpecCtx) {
    // A declaration ends with `;`: error recovery inside it stops there.
    p.nested(|p| crate::grammar::recovery::with_semi_stop(p, |p| declaration_inner(p, ctx)));
}

fn declaration_inner(p: &mut Parser<'_>, ctx: SpecCtx) {
    match p.current() {
        SEMI => {
            let m = p.start();
            p.bump(SEMI);
            m.complete(p, EMPTY_DECL);
        }
        NAMESPACE_KW => namespace_def(p),
        INLINE_KW if p.nth(1) == NAMESPACE_KW => namespace_def(p),
        EXTERN_KW if p.nth(1) == STRING => linkage_spec(p, ctx),
        EXTERN_KW if p.nth(1) == TEMPLATE_KW => templates::explicit_instantiation(p, ctx),
        TEMPLATE_KW => templates::template_declaration(p, ctx),
        USING_KW => using_declaration(p),
        STATIC_ASSERT_KW | STATIC_ASSERT_C_KW => static_assert_decl(p),
        ASM_KW | ASM2_KW | ASM3_KW => asm_decl(p),
        EXPORT_KW => {
            let m = p.start();
            p.bump(EXPORT_KW);
            if p.at(L_CURLY) {
                p.bump(L_CURLY);
                declaration_seq(p, R_CURLY);
                p.expect(R_CURLY);
            } else {
                declaration(p, ctx);
            }
            m.complete(p, EXPORT_DECL);
        }
        EXTENSION_KW
            if matches!(p.nth(1), TEMPLATE_KW | USING_KW | NAMESPACE_KW | STATIC_ASSERT_KW | EXTENSION_KW)
                || (p.nth(1) == EXTERN_KW && p.nth(2) == STRING) =>
        {
            // `__extension__` before a declaration that is not a simple one.
            let m = p.start();
            p.bump(EXTENSION_KW);
            declaration(p, ctx);
            m.complete(p, SIMPLE_DECL);
        }
        PUBLIC_KW | PRIVATE_KW | PROTECTED_KW if ctx == SpecCtx::Member => {
            let m = p.start();
            p.bump_any();
            attributes::attribute_specifier_seq(p);
            p.expect(COLON);
            m.complete(p, ACCESS_SPECIFIER);
        }
        L_BRACK | ATTRIBUTE_KW | ATTRIBUTE2_KW if attribute_declaration_ahead(p) => {
            let m = p.start();
            attributes::attribute_specifier_seq(p);
            p.expect(SEMI);
            m.complete(p, ATTRIBUTE_DECL);
        }
        _ => {
            if at_deduction_guide(p) {
                deduction_guide(p);
            } else {
                simple_declaration(p, ctx);
            }
        }
    }
}

/// `[[...]];` / `__attribute__((...));` alone.
fn attribute_declaration_ahead(p: &Parser<'_>) -> bool {
    attributes::at_attribute(p) && p.nth(attributes::skip_attributes(p, 0)) == SEMI
}

/// `explicit(opt) TemplateName ( params ) -> type ;`
fn at_deduction_guide(p: &Parser<'_>) -> bool {
    let mut n = attributes::skip_attributes(p, 0);
    if p.nth(n) == EXPLICIT_KW {
        n += 1;
        if p.nth(n) == L_PAREN {
            match paths::skip_parens(p, n) {
                Some(e) => n = e,
                None => return false,
            }
        }
    }
    if p.nth(n) != IDENT || p.nth(n + 1) != L_PAREN {
        return false;
    }
    let Some(e) = p.names.lookup_entry(p.nth_text(n)) else { return false };
    if !(e.kind == NameKind::Template && e.type_template) {
        return false;
    }
    paths::skip_parens(p, n + 1).is_some_and(|end| p.nth(end) == ARROW)
}

fn deduction_guide(p: &mut Parser<'_>) {
    let m = p.start();
    attributes::attribute_specifier_seq(p);
    if p.at(EXPLICIT_KW) {
        p.bump(EXPLICIT_KW);
        if p.at(L_PAREN) {
            p.bump(L_PAREN);
            expressions::constant_expr(p);
            p.expect(R_PAREN);
        }
    }
    if p.at(IDENT) {
        let n = p.start();
        p.bump(IDENT);
        n.complete(p, NAME_REF);
    } else {
        p.error("expected an identifier");
    }
    if p.at(L_PAREN) {
        let prev = p.names.push_scope(crate::names::ScopeKind::Function);
        types::param_list(p);
        p.names.enter_scope(prev);
    } else {
        p.error("expected a \"(\"");
    }
    p.expect(ARROW);
    if !types::type_id(p) {
        p.error("expected a type specifier");
    }
    expect_semi(p);
    m.complete(p, DEDUCTION_GUIDE);
}

/// `namespace a { }`, `inline namespace v1 { }`, `namespace a::inline b { }`,
/// `namespace { }`, `namespace a = b::c;`, with GNU attributes after the name.
fn namespace_def(p: &mut Parser<'_>) {
    let m = p.start();
    let mut inline = p.eat(INLINE_KW);
    p.bump(NAMESPACE_KW);
    attributes::attribute_specifier_seq(p);
    if p.at(IDENT) && p.nth(1) == EQ {
        let n = p.start();
        let text = p.current_text();
        p.bump(IDENT);
        n.complete(p, NAME);
        p.bump(EQ);
        let target = paths::name(p, NameMode::Expr);
        match target {
            Some(info) => {
                if let Some(s) = info.entry.and_then(|e| e.scope) {
                    p.names.declare_entry(text, Entry::with_scope(NameKind::Namespace, s));
                }
            }
            None => p.error("expected an identifier"),
        }
        expect_semi(p);
        m.complete(p, NAMESPACE_ALIAS);
        return;
    }
    let saved = p.names.current_scope();
    let mut named = false;
    loop {
        if p.at(IDENT) {
            let text = p.current_text();
            let n = p.start();
            p.bump(IDENT);
            n.complete(p, NAME);
            let s = p.names.namespace_scope(text, inline);
            p.names.enter_scope(s);
            named = true;
            if p.at(COLON2) {
                p.bump(COLON2);
                inline = p.eat(INLINE_KW);
                continue;
            }
        }
        break;
    }
    if !named {
        let s = p.names.namespace_scope("", false);
        p.names.enter_scope(s);
    }
    attributes::attribute_specifier_seq(p);
    if p.expect(L_CURLY) {
        declaration_seq(p, R_CURLY);
        p.expect(R_CURLY);
    }
    p.names.enter_scope(saved);
    m.complete(p, NAMESPACE_DEF);
}

/// `extern "C" { ... }` / `extern "C" declaration`
fn linkage_spec(p: &mut Parser<'_>, ctx: SpecCtx) {
    let m = p.start();
    p.bump(EXTERN_KW);
    p.bump(STRING);
    if p.at(L_CURLY) {
        p.bump(L_CURLY);
        declaration_seq(p, R_CURLY);
        p.expect(R_CURLY);
    } else {
        declaration(p, ctx);
    }
    m.complete(p, LINKAGE_SPEC);
}

/// `using namespace N;`, `using X = T;`, `using A::b, C::d;`, `using typename A::b;`, `using enum E;`
pub(crate) fn using_declaration(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(USING_KW);
    if p.at(NAMESPACE_KW) {
        p.bump(NAMESPACE_KW);
        match paths::name(p, NameMode::Expr) {
            Some(info) => {
                if let Some(s) = info.entry.and_then(|e| e.scope)
                    && info.entry.is_some_and(|e| e.kind == NameKind::Namespace)
                {
                    p.names.using_directive(s);
                }
            }
            None => p.error("expected an identifier"),
        }
        attributes::attribute_specifier_seq(p);
        expect_semi(p);
        m.complete(p, USING_DIRECTIVE);
        return;
    }
    // Alias declaration: `using X attrs = type-id;`
    if p.at(IDENT) && {
        let n = attributes::skip_attributes(p, 1);
        p.nth(n) == EQ
    } {
        let text = p.current_text();
        let n = p.start();
        p.bump(IDENT);
        n.complete(p, NAME);
        attributes::attribute_specifier_seq(p);
        p.expect(EQ);
        let templated = p.names.at_template_declaration();
        let target = p.names.declaration_scope();
        let ty = type_id_entry(p);
        let entry = if templated {
            Entry { type_template: true, ..Entry::new(NameKind::Template) }
        } else {
            match ty {
                Some(e) => Entry { kind: NameKind::Type, scope: e.scope, dependent: e.dependent, type_template: false },
                None => Entry::new(NameKind::Type),
            }
        };
        p.names.declare_entry_in(target, text, entry);
        expect_semi(p);
        m.complete(p, ALIAS_DECL);
        return;
    }
    if p.at(ENUM_KW) {
        // `using enum E;` (C++20): the enumerators become visible here.
        p.bump(ENUM_KW);
        if let Some(info) = paths::name(p, NameMode::Type) {
            if let Some(s) = info.entry.and_then(|e| e.scope) {
                p.names.using_directive(s);
            }
        } else {
            p.error("expected an identifier");
        }
        expect_semi(p);
        m.complete(p, USING_DECL);
        return;
    }
    loop {
        let typename = p.eat(TYPENAME_KW);
        match paths::name(p, NameMode::Expr) {
            Some(info) => {
                if let Some(idx) = info.last_ident
                    && matches!(info.last, Last::Ident)
                {
                    let text = p.inp.text(idx);
                    let entry = match info.entry {
                        _ if typename => Entry { dependent: true, ..Entry::new(NameKind::Type) },
                        Some(e) => e,
                        None => Entry::new(NameKind::Value),
                    };
                    // An inheriting constructor (`using Base::Base;`) declares nothing by that name.
                    if !info.ctor_like {
                        let target = p.names.declaration_scope();
                        p.names.declare_entry_in(target, text, entry);
                    }
                }
            }
            None => {
                p.error("expected an identifier");
                break;
            }
        }
        p.eat(DOT3);
        if !p.eat(COMMA) {
            break;
        }
    }
    expect_semi(p);
    m.complete(p, USING_DECL);
}

/// A type-id; returns what its type names when it is just a name (for aliases).
fn type_id_entry(p: &mut Parser<'_>) -> Option<Entry> {
    let simple = paths::scan_name(p, 0).filter(|s| matches!(p.nth(s.len), SEMI));
    if !types::type_id(p) {
        p.error("expected a type specifier");
        return None;
    }
    simple.and_then(|s| s.entry)
}

/// `static_assert(cond);` / `static_assert(cond, "message");`
pub(crate) fn static_assert_decl(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump_any();
    if p.expect(L_PAREN) {
        p.with_gt_closes(false, |p| {
            expressions::assignment_expr(p);
            if p.eat(COMMA) {
                expressions::assignment_expr(p);
            }
        });
        p.expect(R_PAREN);
    }
    expect_semi(p);
    m.complete(p, STATIC_ASSERT_DECL);
}

/// `asm("...");` at namespace scope (the operands are kept as balanced tokens).
fn asm_decl(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump_any();
    while matches!(p.current(), VOLATILE_KW | VOLATILE2_KW | VOLATILE3_KW | INLINE_KW | GOTO_KW) {
        p.bump_any();
    }
    if p.at(L_PAREN) {
        p.bump_balanced();
    } else {
        p.error("expected a \"(\"");
    }
    expect_semi(p);
    m.complete(p, ASM_DECL);
}

/// `;`, or an error and recovery to the next `;` (consumed) or `}` (not consumed).
/// The `;` that ends a declaration: missing, it is reported and the parser
/// skips to a stop token (the `;` itself, or a closer of an enclosing construct).
pub(crate) fn expect_semi(p: &mut Parser<'_>) {
    crate::grammar::recovery::with_semi_stop(p, |p| crate::grammar::recovery::expect_or_skip(p, SEMI));
}

/// Decl-specifiers, then init-declarators or a function definition.
pub(crate) fn simple_declaration(p: &mut Parser<'_>, ctx: SpecCtx) {
    declares_nothing(p, ctx);
    let cp = p.checkpoint();
    let m = p.start();
    let specs = types::decl_specifiers(p, ctx);
    if specs.any && p.has_error_since(cp) && p.at(SEMI) {
        // The decl-specifiers had an error and recovery stopped at the `;`
        // (`A<int b;`): the declaration ends there.
        p.bump(SEMI);
        m.complete(p, SIMPLE_DECL);
        return;
    }
    if !specs.any && !at_declarator_start(p) {
        m.abandon(p);
        let e = p.start();
        p.error("expected a declaration");
        if !p.at(R_CURLY) || ctx == SpecCtx::Namespace {
            p.bump_balanced();
        }
        e.complete(p, ERROR);
        return;
    }
    let kind = declarators_rest(p, ctx, DeclContext::Block, &specs, None);
    m.complete(p, kind);
}

fn at_declarator_start(p: &Parser<'_>) -> bool {
    matches!(p.current(), IDENT | COLON2 | OPERATOR_KW | TILDE | STAR | AMP | AMP2 | L_PAREN | L_BRACK | DOT3)
        || (p.at(COLON) && true)
}

/// After the decl-specifiers: the init-declarators and the `;`, or a function
/// definition. Returns the node kind (`SIMPLE_DECL` or `FUNCTION_DEF`).
/// `first` is a declarator already parsed (tentative block declarations).
fn declarators_rest(
    p: &mut Parser<'_>,
    ctx: SpecCtx,
    dctx: DeclContext,
    specs: &DeclSpecs,
    first: Option<(crate::parser::Marker, crate::parser::Marker, DeclaratorInfo)>,
) -> SyntaxKind {
    if first.is_none() && p.at(SEMI) {
        // `struct X;`, `struct X {...};`, `enum class E : int;`, `friend class X;`
        if !specs.any {
            p.error("expected a declaration");
        }
        p.bump(SEMI);
        return SIMPLE_DECL;
    }
    if first.is_none() && specs.class_def && !at_declarator_start(p) {
        // `struct S {} int b;`: the `;` is missing; what follows is the next declaration.
        p.error("expected a \";\"");
        return SIMPLE_DECL;
    }
    let (list, mut first) = match first {
        Some((list, idm, d)) => (list, Some((idm, d))),
        None => (p.start(), None),
    };
    let mut is_first = true;
    loop {
        let (idm, d) = match first.take() {
            Some(f) => f,
            None => {
                let idm = p.start();
                if ctx == SpecCtx::Member && p.at(COLON) {
                    // Unnamed bit-field `int : 3;`
                    bit_field(p);
                    idm.complete(p, INIT_DECLARATOR);
                    if p.eat(COMMA) {
                        is_first = false;
                        continue;
                    }
                    break;
                }
                implicit_int(p, ctx, specs);
                let before = p.pos();
                let mode = if ctx == SpecCtx::Member { DeclMode::Named } else { DeclMode::NamedInit };
                let d = types::declarator(p, mode, ctx);
                if d.name.is_none() && (p.pos() == before || !specs.any || !d.is_function) {
                    // A declarator without a name (`int *;`, `A<int> > x;`): skip to a stop token.
                    let msg = if specs.any { "expected an identifier" } else { "expected a declaration" };
                    crate::grammar::recovery::error_and_skip(p, msg);
                }
                declare_declarator(p, specs, &d, ctx);
                (idm, d)
            }
        };
        if ctx == SpecCtx::Member {
            virt_specifiers(p);
        }
        if is_first && d.is_function && dctx == DeclContext::Block && ctx != SpecCtx::Block && at_function_body(p) {
            idm.abandon(p);
            list.abandon(p);
            function_definition_rest(p, &d);
            return FUNCTION_DEF;
        }
        initializer(p, ctx, &d);
        idm.complete(p, INIT_DECLARATOR);
        is_first = false;
        if !p.eat(COMMA) {
            break;
        }
    }
    list.complete(p, INIT_DECLARATOR_LIST);
    match dctx {
        // EDG accepts a member declaration whose `;` is missing before the
        // `}` of the class with a discretionary error (`--diag_suppress=65`
        // silences it); everywhere else the error is hard.
        DeclContext::Block if ctx == SpecCtx::Member && p.at(R_CURLY) => p.error_expected_discretionary(SEMI),
        DeclContext::Block | DeclContext::ForInit => expect_semi(p),
        _ => {}
    }
    SIMPLE_DECL
}

/// `int;`: builtin type keywords alone declare nothing. EDG warns (64) at
/// namespace scope and makes it an error in a class. Other forms (`const
/// int;`, `static int;`, `struct {};`) draw other messages and are left
/// alone, as are blocks (parsed tentatively there).
fn declares_nothing(p: &mut Parser<'_>, ctx: SpecCtx) {
    const MSG: &str = "declaration does not declare anything";
    let mut n = 0;
    while matches!(
        p.nth(n),
        CHAR_KW
            | WCHAR_T_KW
            | CHAR16_T_KW
            | CHAR32_T_KW
            | BOOL_KW
            | SHORT_KW
            | INT_KW
            | LONG_KW
            | SIGNED_KW
            | UNSIGNED_KW
            | FLOAT_KW
            | DOUBLE_KW
    ) {
        n += 1;
    }
    if n == 0 || p.nth(n) != SEMI || !matches!(ctx, SpecCtx::Namespace | SpecCtx::Member) {
        return;
    }
    if ctx == SpecCtx::Member {
        p.error(MSG);
    } else {
        p.warning(MSG);
    }
}

/// C++ has no implicit `int`: a variable declared with no type specifier
/// (`x = 1;` at namespace scope, `static k = 1;`) is an error at its name,
/// one per declarator, as EDG reports it. Only plain names followed by what
/// ends a variable's declarator are judged: constructors, destructors and
/// conversion functions are declared with no type.
fn implicit_int(p: &mut Parser<'_>, ctx: SpecCtx, specs: &DeclSpecs) {
    let judged = matches!(ctx, SpecCtx::Namespace | SpecCtx::Member | SpecCtx::Block)
        && !specs.has_type
        && !specs.typedef
        && !specs.friend
        && p.at(IDENT)
        && matches!(p.nth(1), EQ | SEMI | COMMA | L_BRACK);
    if judged {
        p.error(if specs.any {
            "explicit type is missing (\"int\" assumed)"
        } else {
            "this declaration has no storage class or type specifier"
        });
    }
}

/// `override`, `final` (contextual keywords after a member declarator).
fn virt_specifiers(p: &mut Parser<'_>) {
    while p.at(IDENT) && matches!(p.current_text(), "override" | "final" | "__final") {
        let m = p.start();
        p.bump(IDENT);
        m.complete(p, VIRT_SPECIFIER);
    }
}

/// After a function declarator: `{`, `try`, `:` (ctor-initializer), `= default`, `= delete`.
fn at_function_body(p: &Parser<'_>) -> bool {
    match p.current() {
        L_CURLY | TRY_KW | COLON => true,
        EQ => matches!(p.nth(1), DEFAULT_KW | DELETE_KW) && p.nth(2) == SEMI,
        _ => false,
    }
}

/// The rest of a function definition, with the parameters in scope.
fn function_definition_rest(p: &mut Parser<'_>, d: &DeclaratorInfo) {
    let prev = d.param_scope.map(|s| p.names.enter_scope(s));
    match p.current() {
        EQ => {
            let m = p.start();
            p.bump(EQ);
            let kind = if p.eat(DEFAULT_KW) {
                DEFAULTED_BODY
            } else {
                p.bump(DELETE_KW);
                DELETED_BODY
            };
            p.expect(SEMI);
            m.complete(p, kind);
        }
        _ => {
            if p.at(COLON) {
                ctor_initializer(p);
            }
            if p.at(L_CURLY) || p.at(TRY_KW) {
                statements::function_body(p);
            } else {
                p.error("expected a \"{\"");
            }
        }
    }
    if let Some(prev) = prev {
        p.names.enter_scope(prev);
    }
}

/// `: a(1), b{2}, Base<T>(x), Pack(args)...` (at `:`).
pub(crate) fn ctor_initializer(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(COLON);
    loop {
        let mi = p.start();
        let ok = if matches!(p.current(), DECLTYPE_KW | DECLTYPE2_KW)
            && paths::scan_name(p, 0).is_some_and(|s| s.last == Last::Decltype)
        {
            types::decltype_specifier(p);
            true
        } else {
            // A mem-initializer-id names a member or a base (a type, possibly dependent).
            let dependent_template =
                p.at(IDENT) && p.nth(1) == L_ANGLE && p.names.lookup_entry(p.current_text()).is_none();
            paths::name(p, if dependent_template { NameMode::Type } else { NameMode::Expr }).is_some()
        };
        if !ok {
            p.error("expected an identifier");
        }
        if p.at(L_PAREN) {
            expressions::arg_list(p);
        } else if p.at(L_CURLY) {
            expressions::braced_init_list(p);
        } else {
            p.error("expected a \"(\"");
        }
        p.eat(DOT3);
        mi.complete(p, MEM_INITIALIZER);
        if !p.eat(COMMA) {
            break;
        }
    }
    m.complete(p, CTOR_INITIALIZER);
}

fn bit_field(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(COLON);
    expressions::constant_expr(p);
    m.complete(p, BIT_FIELD_WIDTH);
}

/// An initializer after a declarator: `= x`, `= {..}`, `{..}`, `(args)`,
/// `: width` (bit-field), `= 0` (pure), `= default`/`= delete`.
fn initializer(p: &mut Parser<'_>, ctx: SpecCtx, d: &DeclaratorInfo) {
    if ctx == SpecCtx::Member && p.at(COLON) {
        bit_field(p);
        // C++20 default member initializer of a bit-field.
    }
    match p.current() {
        EQ => {
            if d.is_function && matches!(p.nth(1), DEFAULT_KW | DELETE_KW) {
                let m = p.start();
                p.bump(EQ);
                let kind = if p.eat(DEFAULT_KW) {
                    DEFAULTED_BODY
                } else {
                    p.bump(DELETE_KW);
                    DELETED_BODY
                };
                m.complete(p, kind);
                return;
            }
            if d.is_function && p.nth(1) == INT_NUMBER && p.nth_text(1) == "0" {
                let m = p.start();
                p.bump(EQ);
                p.bump(INT_NUMBER);
                m.complete(p, PURE_SPECIFIER);
                return;
            }
            let m = p.start();
            p.bump(EQ);
            expressions::initializer_clause(p);
            m.complete(p, EQUAL_INITIALIZER);
        }
        L_CURLY => {
            let m = p.start();
            expressions::braced_init_list(p);
            m.complete(p, INITIALIZER);
        }
        L_PAREN if !d.is_function => {
            let m = p.start();
            expressions::arg_list(p);
            m.complete(p, INITIALIZER);
        }
        _ => {}
    }
}

/// Records the name a declarator declares.
fn declare_declarator(p: &mut Parser<'_>, specs: &DeclSpecs, d: &DeclaratorInfo, ctx: SpecCtx) {
    if specs.friend {
        return;
    }
    let Some(idx) = d.ident else { return };
    let text = p.inp.text(idx);
    // A constructor declares no name (the injected class name stays a type).
    if ctx == SpecCtx::Member
        && !specs.has_type
        && let Some(class) = p.names.enclosing_class()
        && p.names.is_class_name(class, text)
    {
        return;
    }
    let templated = p.names.at_template_declaration();
    let entry = if specs.typedef {
        match specs.type_entry {
            Some(e) if !d.derived => {
                Entry { kind: NameKind::Type, scope: e.scope, dependent: e.dependent, type_template: false }
            }
            Some(e) => Entry { dependent: e.dependent, ..Entry::new(NameKind::Type) },
            None => Entry::new(NameKind::Type),
        }
    } else if templated {
        Entry::new(NameKind::Template)
    } else {
        Entry::new(NameKind::Value)
    };
    let target = if ctx == SpecCtx::Block { p.names.current_scope() } else { p.names.declaration_scope() };
    p.names.declare_entry_in(target, text, entry);
}

// ---- block scope

/// Whether the tokens at the cursor start a declaration (decided without parsing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    No,
    Yes,
    /// `T(x)`-like: parse tentatively up to the end of the first declarator.
    Maybe,
}

fn look(p: &Parser<'_>, ctx: DeclContext) -> Look {
    let mut n = attributes::skip_attributes(p, 0);
    while p.nth(n) == EXTENSION_KW {
        if p.nth(n + 1) == L_PAREN {
            return Look::No;
        }
        n += 1;
        n = attributes::skip_attributes(p, n);
    }
    let k = p.nth(n);
    let next = p.nth(n + 1);
    match k {
        USING_KW | STATIC_ASSERT_KW | STATIC_ASSERT_C_KW | TYPEDEF_KW => Look::Yes,
        NAMESPACE_KW => Look::Yes,
        STATIC_KW | EXTERN_KW | REGISTER_KW | MUTABLE_KW | THREAD_LOCAL_KW | THREAD_LOCAL_C_KW | THREAD_KW
        | INLINE_KW | INLINE2_KW | INLINE3_KW | CONSTEXPR_KW | CONSTEVAL_KW | CONSTINIT_KW | VIRTUAL_KW
        | EXPLICIT_KW | FRIEND_KW | NOINLINE_KW => Look::Yes,
        CONST_KW | CONST2_KW | CONST3_KW | VOLATILE_KW | VOLATILE2_KW | VOLATILE3_KW => Look::Yes,
        STRUCT_KW | CLASS_KW | UNION_KW | ENUM_KW => Look::Yes,
        ATOMIC_KW | BITINT_KW => Look::Yes,
        _ if types::is_simple_type_keyword(k) => match next {
            L_PAREN => Look::Maybe,
            L_CURLY | DOT | ARROW => Look::No,
            _ => Look::Yes,
        },
        TYPEOF_KW | TYPEOF2_KW | TYPEOF3_KW | DECLTYPE_KW | DECLTYPE2_KW | TYPENAME_KW => Look::Maybe,
        IDENT | COLON2 => {
            if k == IDENT && next == COLON && ctx == DeclContext::Block {
                return Look::No; // a label
            }
            let Some(s) = paths::scan_name(p, n) else { return Look::No };
            let after = p.nth(n + s.len);
            if s.entry.is_some_and(|e| e.kind == NameKind::Concept) {
                return if matches!(after, AUTO_KW | DECLTYPE_KW) { Look::Yes } else { Look::No };
            }
            if s.is_type() {
                return match after {
                    IDENT | STAR | AMP | AMP2 | OPERATOR_KW => Look::Yes,
                    _ if types::is_simple_type_keyword(after) => Look::No,
                    CONST_KW | CONST2_KW | VOLATILE_KW | VOLATILE2_KW | RESTRICT2_KW | RESTRICT3_KW => Look::Yes,
                    // Decl-specifiers come in any order (`uint32_t constexpr k = 1;`,
                    // `T static x;`): no expression has a type name before them.
                    _ if types::is_non_type_decl_specifier(after) => Look::Yes,
                    COLON2 if p.nth(n + s.len + 1) == STAR => Look::Yes,
                    L_PAREN => Look::Maybe,
                    L_BRACK if p.nth(n + s.len + 1) == L_BRACK => Look::Yes,
                    ATTRIBUTE_KW | ATTRIBUTE2_KW | ALIGNAS_KW => Look::Yes,
                    _ => Look::No,
                };
            }
            // Two names in a row can only be a declaration (`unknown_t x;`, `T::type x;`),
            // and so is a name before a decl-specifier (`unknown_t constexpr x`).
            if (s.is_unknown() || s.dependent)
                && matches!(s.last, Last::Ident | Last::TemplateId)
                && (after == IDENT || types::is_non_type_decl_specifier(after))
            {
                return Look::Yes;
            }
            // `X<long>::type* p;`: the parser cannot see members of a class
            // template's specializations, but as an expression this statement
            // would be a discarded product (or an assignment to one), so the
            // declaration is the only reading that means anything.
            if s.qualified
                && (s.is_unknown() || s.dependent)
                && matches!(s.last, Last::Ident | Last::TemplateId)
                && ptr_declarator_follows(p, n + s.len)
            {
                return Look::Yes;
            }
            Look::No
        }
        _ => Look::No,
    }
}

/// At `i`: cv-qualifiers and at least one pointer/reference operator, then an identifier, then a
/// token that ends an init-declarator (`;`, `=`, `,`, `[`, `{`).
fn ptr_declarator_follows(p: &Parser<'_>, mut i: usize) -> bool {
    let mut ptr_ops = 0;
    loop {
        match p.nth(i) {
            STAR | AMP | AMP2 => ptr_ops += 1,
            CONST_KW | CONST2_KW | VOLATILE_KW | VOLATILE2_KW | RESTRICT2_KW | RESTRICT3_KW => {}
            _ => break,
        }
        i += 1;
    }
    ptr_ops > 0 && p.nth(i) == IDENT && matches!(p.nth(i + 1), SEMI | EQ | COMMA | L_BRACK | L_CURLY)
}

/// In a block, a for-init, a condition, a range-for or a handler: parses a
/// declaration if the tokens at the cursor are one, else consumes nothing
/// and returns `false` (the caller parses an expression).
///
/// `Block` and `ForInit` consume the `;`; `Condition` stops after the
/// initializer, `ForRange` before the `:`, `Exception` before the `)`.
/// Nodes: `SIMPLE_DECL` (or `USING_DIRECTIVE`, `ALIAS_DECL`, `USING_DECL`,
/// `STATIC_ASSERT_DECL`, `NAMESPACE_ALIAS`); `PARAM` for `Exception`.
pub(crate) fn try_simple_declaration(p: &mut Parser<'_>, ctx: DeclContext) -> bool {
    if ctx == DeclContext::Exception {
        if p.at(DOT3) {
            return false;
        }
        if types::at_type_id_start(p)
            || types::at_decl_only_specifier(p)
            || attributes::at_attribute(p)
            || p.at(IDENT)
            || p.at(COLON2)
        {
            types::param(p);
            return true;
        }
        return false;
    }
    let look = look(p, ctx);
    if look == Look::No {
        return false;
    }
    if matches!(ctx, DeclContext::Block | DeclContext::ForInit) && look == Look::Yes {
        match p.current() {
            USING_KW => {
                using_declaration(p);
                return true;
            }
            STATIC_ASSERT_KW | STATIC_ASSERT_C_KW => {
                static_assert_decl(p);
                return true;
            }
            NAMESPACE_KW => {
                namespace_def(p);
                return true;
            }
            _ => {}
        }
    }
    let tentative = look == Look::Maybe || matches!(ctx, DeclContext::Condition | DeclContext::ForRange);
    let cp = p.checkpoint();
    let m = p.start();
    let specs = types::decl_specifiers(p, SpecCtx::Block);
    // A declaration that went through a braced group (`struct S {…}`) and
    // found an error stands: parsed again as an expression, the group and
    // every speculation in it would be parsed once more per nesting level
    // (`Parser::must_keep`).
    if tentative && (!specs.has_type || p.has_error_since(cp)) && !p.must_keep(cp) {
        m.abandon(p);
        p.rewind(cp);
        return false;
    }
    if p.at(SEMI) && matches!(ctx, DeclContext::Block | DeclContext::ForInit) {
        // `struct X;` / `struct X {...};` / `enum E {...};`
        p.bump(SEMI);
        m.complete(p, SIMPLE_DECL);
        return true;
    }
    let list_first = p.start();
    let idm = p.start();
    let before = p.pos();
    let d = types::declarator(p, DeclMode::NamedInit, SpecCtx::Block);
    if tentative && !p.must_keep(cp) {
        let follow_ok = match ctx {
            DeclContext::Block | DeclContext::ForInit => {
                matches!(p.current(), SEMI | COMMA | EQ | L_CURLY | L_PAREN)
                    || (ctx == DeclContext::ForInit && p.at(COLON))
            }
            DeclContext::Condition => matches!(p.current(), EQ | L_CURLY),
            DeclContext::ForRange => p.at(COLON),
            DeclContext::Exception => p.at(R_PAREN),
        };
        if d.name.is_none() || !follow_ok || p.has_error_since(cp) || p.pos() == before {
            idm.abandon(p);
            list_first.abandon(p);
            m.abandon(p);
            p.rewind(cp);
            return false;
        }
    } else if d.name.is_none() {
        p.error("expected an identifier");
    }
    declare_declarator(p, &specs, &d, SpecCtx::Block);
    match ctx {
        DeclContext::ForRange => {
            idm.complete(p, INIT_DECLARATOR);
            list_first.complete(p, INIT_DECLARATOR_LIST);
        }
        DeclContext::Condition => {
            initializer(p, SpecCtx::Block, &d);
            idm.complete(p, INIT_DECLARATOR);
            list_first.complete(p, INIT_DECLARATOR_LIST);
        }
        _ => {
            if ctx == DeclContext::ForInit && p.at(COLON) {
                // A range-for after all: stop before the `:`.
                idm.complete(p, INIT_DECLARATOR);
                list_first.complete(p, INIT_DECLARATOR_LIST);
            } else {
                declarators_rest(p, SpecCtx::Block, DeclContext::Block, &specs, Some((list_first, idm, d)));
            }
        }
    }
    m.complete(p, SIMPLE_DECL);
    true
}
