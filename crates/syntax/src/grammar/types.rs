//! Decl-specifiers, declarators and type-ids.
//!
//! Declarators are parsed as written and kept flat: `DECLARATOR` holds its
//! `PTR_OPERATOR`s, then the declarator-id (`NAME`, `QUALIFIED_NAME`, ...) or a
//! `PAREN_DECLARATOR`, then the suffixes (`ARRAY_DECLARATOR`,
//! `FUNCTION_DECLARATOR`) in source order. Readers apply them inside-out.
//!
//! Whether an identifier in decl-specifier position is a type comes from the
//! name oracle (`paths::scan_name`); once a type specifier has been seen, the
//! next name is the declarator-id.

use crate::SyntaxKind::{self, *};
use crate::grammar::items::{self, templates};
use crate::grammar::paths::{self, Last, NameInfo, NameMode};
use crate::grammar::{attributes, expressions};
use crate::names::{Entry, NameKind, ScopeId, ScopeKind};
use crate::parser::Parser;

/// Where decl-specifiers are being parsed (what may appear, how unknown names are taken).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SpecCtx {
    Namespace,
    /// In a class body: `X(` names a constructor of the enclosing class `X`.
    Member,
    Block,
    Param,
    /// A type-id (no storage classes; any name in type position is the type).
    TypeId,
}

/// What a decl-specifier-seq contained.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DeclSpecs {
    pub any: bool,
    pub has_type: bool,
    pub typedef: bool,
    pub friend: bool,
    /// The type is a class or enum specifier with a body.
    pub class_def: bool,
    /// The type is an elaborated type specifier (`struct X`, `enum E`).
    pub elaborated: bool,
    /// What the named type is (for `typedef X Y;`, so that `Y::z` looks into `X`).
    pub type_entry: Option<Entry>,
    /// The type so far is sign and size keywords alone (`unsigned`, `long`).
    pub modifiers_only: bool,
}

/// Builtin type keywords and modifiers.
pub(crate) fn is_simple_type_keyword(k: SyntaxKind) -> bool {
    matches!(
        k,
        CHAR_KW
            | WCHAR_T_KW
            | CHAR8_T_KW
            | CHAR16_T_KW
            | CHAR32_T_KW
            | BOOL_KW
            | BOOL_C_KW
            | SHORT_KW
            | INT_KW
            | LONG_KW
            | SIGNED_KW
            | SIGNED2_KW
            | SIGNED3_KW
            | UNSIGNED_KW
            | FLOAT_KW
            | DOUBLE_KW
            | VOID_KW
            | INT128_KW
            | FLOAT16_KW
            | FLOAT32_KW
            | FLOAT32X_KW
            | FLOAT64_KW
            | FLOAT64X_KW
            | FLOAT128_KW
            | FLOAT128_GNU_KW
            | FLOAT80_KW
            | BF16_KW
            | AUTO_TYPE_KW
            | COMPLEX_KW
            | COMPLEX2_KW
            | AUTO_KW
    )
}

fn is_cv(k: SyntaxKind) -> bool {
    matches!(
        k,
        CONST_KW | CONST2_KW | CONST3_KW | VOLATILE_KW | VOLATILE2_KW | VOLATILE3_KW | RESTRICT2_KW | RESTRICT3_KW
    )
}

fn is_storage_or_function_specifier(k: SyntaxKind) -> bool {
    matches!(
        k,
        STATIC_KW
            | EXTERN_KW
            | REGISTER_KW
            | MUTABLE_KW
            | THREAD_LOCAL_KW
            | THREAD_LOCAL_C_KW
            | THREAD_KW
            | INLINE_KW
            | INLINE2_KW
            | INLINE3_KW
            | VIRTUAL_KW
            | EXPLICIT_KW
            | CONSTEXPR_KW
            | CONSTEVAL_KW
            | CONSTINIT_KW
            | NORETURN_KW
            | NOINLINE_KW
    )
}

/// GNU type-trait "functions" that name a type (`__underlying_type(T)`).
fn is_type_trait_type(text: &str) -> bool {
    matches!(
        text,
        "__underlying_type"
            | "__remove_cv"
            | "__remove_cvref"
            | "__remove_reference"
            | "__remove_pointer"
            | "__add_pointer"
            | "__add_lvalue_reference"
            | "__add_rvalue_reference"
            | "__decay"
            | "__make_signed"
            | "__make_unsigned"
            | "__remove_extent"
            | "__remove_all_extents"
            | "__remove_reference_t"
    )
}

/// Does a decl-specifier that can only begin a declaration start here
/// (storage class, function specifier, `typedef`, `friend`, cv, class key)?
/// A decl-specifier that is not part of a type: a storage class, a function
/// specifier, `constexpr`/`consteval`/`constinit`, `typedef`, `friend`.
pub(crate) fn is_non_type_decl_specifier(k: SyntaxKind) -> bool {
    is_storage_or_function_specifier(k) || matches!(k, TYPEDEF_KW | FRIEND_KW)
}

pub(crate) fn at_decl_only_specifier(p: &Parser<'_>) -> bool {
    let k = p.current();
    is_storage_or_function_specifier(k)
        || is_cv(k)
        || matches!(k, TYPEDEF_KW | FRIEND_KW | STRUCT_KW | CLASS_KW | UNION_KW | ENUM_KW)
}

/// Can a type-id start here (keyword type, cv, `typename`, `decltype`, or a
/// name the oracle calls a type)?
/// At `struct`, `class`, `union` or `enum`: what follows is a type, never
/// an expression.
pub(crate) fn at_class_key(p: &Parser<'_>) -> bool {
    matches!(p.current(), STRUCT_KW | CLASS_KW | UNION_KW | ENUM_KW)
}

pub(crate) fn at_type_id_start(p: &Parser<'_>) -> bool {
    at_type_id_start_nth(p, 0)
}

pub(crate) fn at_type_id_start_nth(p: &Parser<'_>, n: usize) -> bool {
    let k = p.nth(n);
    if is_simple_type_keyword(k) || is_cv(k) {
        return true;
    }
    match k {
        TYPENAME_KW | STRUCT_KW | CLASS_KW | UNION_KW | ENUM_KW | TYPEOF_KW | TYPEOF2_KW | TYPEOF3_KW | ATOMIC_KW
        | BITINT_KW => true,
        DECLTYPE_KW | DECLTYPE2_KW => match paths::scan_name(p, n) {
            Some(s) => s.is_type() || s.dependent,
            None => true,
        },
        IDENT | COLON2 => {
            if k == IDENT && is_type_trait_type(p.nth_text(n)) && p.nth(n + 1) == L_PAREN {
                return p.names.lookup_entry(p.nth_text(n)).is_none();
            }
            match paths::scan_name(p, n) {
                Some(s) => {
                    s.is_type()
                        || (s.entry.is_some_and(|e| e.kind == NameKind::Concept)
                            && matches!(p.nth(n + s.len), AUTO_KW | DECLTYPE_KW))
                }
                None => false,
            }
        }
        _ => false,
    }
}

/// A type-id (`const int*`, `std::vector<T>&`, `void(*)(int)`). Returns `false`
/// with nothing consumed if none starts here. A trailing `...` is left to the caller.
pub(crate) fn type_id(p: &mut Parser<'_>) -> bool {
    if !at_type_id_start(p) && !matches!(p.current(), IDENT | COLON2) {
        return false;
    }
    let m = p.start();
    p.with_gt_closes(p.gt_closes, |p| {
        let specs = decl_specifiers(p, SpecCtx::TypeId);
        if !specs.has_type {
            p.error("expected a type specifier");
        }
        if at_abstract_declarator_start(p) {
            declarator(p, DeclMode::Abstract, SpecCtx::TypeId);
        }
    });
    m.complete(p, TYPE_ID);
    true
}

/// The type-id of a `new` expression: no parenthesized declarators or
/// function suffixes (`new T(args)` passes arguments), arrays take expressions.
pub(crate) fn new_type_id(p: &mut Parser<'_>) -> bool {
    if !at_type_id_start(p) && !matches!(p.current(), IDENT | COLON2) {
        return false;
    }
    let m = p.start();
    let specs = decl_specifiers(p, SpecCtx::TypeId);
    if !specs.has_type {
        p.error("expected a type specifier");
    }
    if at_ptr_operator(p) || p.at(L_BRACK) {
        let d = p.start();
        while at_ptr_operator(p) {
            ptr_operator(p);
        }
        while p.at(L_BRACK) && p.nth(1) != L_BRACK {
            array_suffix(p);
        }
        d.complete(p, ABSTRACT_DECLARATOR);
    }
    m.complete(p, TYPE_ID);
    true
}

/// A type-specifier-seq (decl-specifiers without storage classes), as in a
/// conversion-function-id. Returns whether a type was found.
pub(crate) fn type_specifier_seq(p: &mut Parser<'_>) -> bool {
    decl_specifiers(p, SpecCtx::TypeId).has_type
}

/// Decl-specifiers (with attributes among them) into `DECL_SPECIFIERS`.
pub(crate) fn decl_specifiers(p: &mut Parser<'_>, ctx: SpecCtx) -> DeclSpecs {
    let m = p.start();
    let mut s = DeclSpecs::default();
    // A bad combination of type keywords, reported at its token.
    let mut keyword_problem = super::type_keywords::check(p).map(|(ahead, msg)| (p.pos() + ahead, msg));
    loop {
        if let Some((at, msg)) = keyword_problem
            && p.pos() >= at
        {
            p.error(msg);
            keyword_problem = None;
        }
        let k = p.current();
        if attributes::at_attribute(p) {
            attributes::attribute_specifier_seq(p);
            continue;
        }
        match k {
            TYPEDEF_KW => {
                s.typedef = true;
                p.bump_any();
            }
            FRIEND_KW => {
                s.friend = true;
                p.bump_any();
            }
            EXPLICIT_KW => {
                p.bump_any();
                if p.at(L_PAREN) {
                    p.bump(L_PAREN);
                    p.with_gt_closes(false, expressions::constant_expr);
                    p.expect(R_PAREN);
                }
            }
            _ if is_storage_or_function_specifier(k) && ctx != SpecCtx::TypeId => p.bump_any(),
            _ if is_cv(k) => p.bump_any(),
            EXTENSION_KW => p.bump_any(),
            ATOMIC_KW => {
                if p.nth(1) == L_PAREN {
                    if s.has_type {
                        break;
                    }
                    let a = p.start();
                    p.bump_any();
                    p.bump(L_PAREN);
                    p.with_gt_closes(false, |p| {
                        if !type_id(p) {
                            p.error("expected a type specifier");
                        }
                    });
                    p.expect(R_PAREN);
                    a.complete(p, ATOMIC_SPECIFIER);
                    s.has_type = true;
                } else {
                    p.bump_any();
                }
            }
            BITINT_KW => {
                if s.has_type && !matches!(p.nth(1), L_PAREN) {
                    break;
                }
                let t = p.start();
                p.bump_any();
                if p.expect(L_PAREN) {
                    p.with_gt_closes(false, expressions::constant_expr);
                    p.expect(R_PAREN);
                }
                t.complete(p, SIMPLE_TYPE_SPECIFIER);
                s.has_type = true;
            }
            // After a class or enum definition a type keyword starts the next
            // declaration (`struct S {} int b;` lacks a `;`, as EDG reports).
            _ if is_simple_type_keyword(k) && s.class_def => break,
            _ if is_simple_type_keyword(k) => {
                // `struct S int x;`: no keyword combines with a named class.
                if s.elaborated {
                    p.error("invalid combination of type specifiers");
                    s.elaborated = false;
                }
                p.bump_any();
                if k != COMPLEX_KW && k != COMPLEX2_KW {
                    let modifier = matches!(k, SIGNED_KW | UNSIGNED_KW | SHORT_KW | LONG_KW);
                    s.modifiers_only = modifier && (s.modifiers_only || !s.has_type);
                    s.has_type = true;
                }
            }
            DECLTYPE_KW | DECLTYPE2_KW => {
                if s.has_type {
                    break;
                }
                // `decltype(x)::type` is a qualified name; `decltype(x)` alone a type.
                let t = p.start();
                match paths::scan_name(p, 0) {
                    Some(sc) if sc.last != Last::Decltype => {
                        paths::name(p, NameMode::Type);
                    }
                    _ => decltype_specifier(p),
                }
                t.complete(p, SIMPLE_TYPE_SPECIFIER);
                s.has_type = true;
            }
            TYPEOF_KW | TYPEOF2_KW | TYPEOF3_KW => {
                if s.has_type {
                    break;
                }
                typeof_specifier(p);
                s.has_type = true;
            }
            STRUCT_KW | CLASS_KW | UNION_KW | ENUM_KW => {
                // After a class definition the keyword starts the next
                // declaration (a missing `;`); after another type specifier
                // EDG reports the pair and reads the class specifier all the
                // same (`int class = 1;`).
                // (After `unsigned` alone EDG points elsewhere: not claimed.)
                if s.class_def || s.modifiers_only {
                    break;
                }
                if s.has_type {
                    p.error("invalid combination of type specifiers");
                }
                let r = items::classes::class_or_enum_specifier(p, ctx, s.friend);
                s.has_type = true;
                s.class_def = r.defined;
                s.elaborated = !r.defined;
                s.type_entry = r.entry;
            }
            TYPENAME_KW => {
                if s.has_type {
                    break;
                }
                let t = p.start();
                p.bump(TYPENAME_KW);
                match paths::name(p, NameMode::Type) {
                    Some(info) => s.type_entry = info.entry,
                    None => p.error("expected an identifier"),
                }
                t.complete(p, TYPENAME_SPECIFIER);
                s.has_type = true;
            }
            IDENT | COLON2 => {
                if s.has_type {
                    break;
                }
                if k == IDENT && is_type_trait_type(p.current_text()) && p.nth(1) == L_PAREN {
                    let t = p.start();
                    p.bump(IDENT);
                    p.bump(L_PAREN);
                    p.with_gt_closes(false, |p| {
                        if !type_id(p) {
                            p.error("expected a type specifier");
                        }
                    });
                    p.expect(R_PAREN);
                    t.complete(p, SIMPLE_TYPE_SPECIFIER);
                    s.has_type = true;
                    continue;
                }
                if !names_type_here(p, ctx) {
                    break;
                }
                let t = p.start();
                let info = paths::name(p, NameMode::Type);
                // A constrained placeholder: `Concept auto`, `Concept<T> decltype(auto)`.
                if info.is_some_and(|i| i.entry.is_some_and(|e| e.kind == NameKind::Concept)) {
                    if p.at(AUTO_KW) {
                        p.bump(AUTO_KW);
                    } else if matches!(p.current(), DECLTYPE_KW) {
                        decltype_specifier(p);
                    }
                }
                t.complete(p, SIMPLE_TYPE_SPECIFIER);
                s.has_type = true;
                s.type_entry = info.and_then(|i| i.entry);
            }
            _ => break,
        }
        s.any = true;
    }
    if s.any {
        m.complete(p, DECL_SPECIFIERS);
    } else {
        m.abandon(p);
    }
    s
}

/// In decl-specifier position with no type yet: is the name at the cursor the type?
fn names_type_here(p: &Parser<'_>, ctx: SpecCtx) -> bool {
    let Some(scan) = paths::scan_name(p, 0) else { return false };
    if !matches!(scan.last, Last::Ident | Last::TemplateId | Last::Decltype) {
        return false;
    }
    let next = p.nth(scan.len);
    // Constructors: `X::X(`, `X<T>::X(`, and `X(` in the body of class `X`.
    if next == L_PAREN && matches!(ctx, SpecCtx::Namespace | SpecCtx::Member) {
        if scan.ctor_like {
            return false;
        }
        if ctx == SpecCtx::Member
            && !scan.qualified
            && let Some(class) = p.names.enclosing_class()
            && p.names.is_class_name(class, p.current_text())
        {
            return false;
        }
    }
    if scan.entry.is_some_and(|e| e.kind == NameKind::Concept) {
        return matches!(next, AUTO_KW | DECLTYPE_KW);
    }
    if scan.is_type() {
        return true;
    }
    // Not known as a type. Where only a type can be, take it as one: a
    // parameter or type-id without a type yet, or a name followed by
    // something only a declarator can start with (`unknown_t x;`,
    // `T::type* p` in a declaration with C++20 implicit typename).
    if scan.entry.is_some_and(|e| matches!(e.kind, NameKind::Value | NameKind::Namespace) && !e.dependent) {
        return false;
    }
    if scan.entry.is_some_and(|e| e.kind == NameKind::Template && !e.type_template) {
        return false;
    }
    match ctx {
        SpecCtx::TypeId | SpecCtx::Param => true,
        SpecCtx::Namespace | SpecCtx::Member | SpecCtx::Block => {
            matches!(next, IDENT | STAR | AMP | AMP2 | COLON2 | DOT3 | OPERATOR_KW | TILDE)
                || is_cv(next)
                || attributes::at_attribute_nth(p, scan.len)
                || (next == L_PAREN && ctx != SpecCtx::Block && matches!(p.nth(scan.len + 1), STAR | AMP | AMP2))
        }
    }
}

/// `decltype(expr)` / `decltype(auto)`.
pub(crate) fn decltype_specifier(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump_any();
    if p.expect(L_PAREN) {
        if p.at(AUTO_KW) && p.nth(1) == R_PAREN {
            p.bump(AUTO_KW);
        } else {
            p.with_gt_closes(false, expressions::expr);
        }
        p.expect(R_PAREN);
    }
    m.complete(p, DECLTYPE_SPECIFIER);
}

/// `__typeof__(type-id)` / `__typeof__(expr)` (also `typeof`, `__typeof`).
fn typeof_specifier(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump_any();
    if p.expect(L_PAREN) {
        p.with_gt_closes(false, |p| {
            let cp = p.checkpoint();
            let is_type = at_type_id_start(p) && type_id(p) && !p.has_error_since(cp) && p.at(R_PAREN);
            if !is_type && !p.must_keep(cp) {
                p.rewind(cp);
                expressions::expr(p);
            }
        });
        p.expect(R_PAREN);
    }
    m.complete(p, TYPEOF_SPECIFIER);
}

// ---- declarators

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeclMode {
    /// A declarator with a declarator-id (declarations).
    Named,
    /// A parameter: the id is optional.
    Param,
    /// An abstract declarator (type-ids).
    Abstract,
    /// Like `Named`, in a block or at namespace scope, where `T x(args)` can
    /// be a variable with a parenthesized initializer.
    NamedInit,
}

/// What a declarator contained.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DeclaratorInfo {
    pub name: Option<NameInfo>,
    /// The declarator-id is a plain identifier: its token index and whether it is the whole declarator.
    pub ident: Option<usize>,
    /// The declarator-id's nearest suffix is a parameter list: this declares a function.
    pub is_function: bool,
    /// Any pointer, reference, array or function part.
    pub derived: bool,
    /// The scope holding the parameters of the function declared (for its body).
    pub param_scope: Option<ScopeId>,
    pub pack: bool,
}

pub(crate) fn at_ptr_operator(p: &Parser<'_>) -> bool {
    match p.current() {
        STAR | AMP | AMP2 => true,
        IDENT | COLON2 => member_pointer_len(p).is_some(),
        _ => false,
    }
}

/// `C::*` / `N::C<T>::*`: the number of tokens before the `*`.
fn member_pointer_len(p: &Parser<'_>) -> Option<usize> {
    let s = paths::scan_name(p, 0)?;
    (p.nth(s.len) == COLON2 && p.nth(s.len + 1) == STAR).then_some(s.len + 1)
}

fn at_abstract_declarator_start(p: &Parser<'_>) -> bool {
    at_ptr_operator(p) || (p.at(L_BRACK) && p.nth(1) != L_BRACK) || p.at(L_PAREN)
}

/// `*` / `&` / `&&` / `C::*`, with cv-qualifiers and attributes.
pub(crate) fn ptr_operator(p: &mut Parser<'_>) {
    let m = p.start();
    match p.current() {
        STAR => {
            p.bump(STAR);
            ptr_quals(p);
        }
        AMP | AMP2 => {
            p.bump_any();
            attributes::attribute_specifier_seq(p);
        }
        _ => {
            if let Some(len) = member_pointer_len(p) {
                let q = p.start();
                let start = p.pos();
                while p.pos() < start + len - 1 && !p.at_eof() {
                    if p.at(L_ANGLE) {
                        paths::template_arg_list(p);
                    } else {
                        p.bump_any();
                    }
                }
                q.complete(p, QUALIFIED_NAME);
                p.expect(COLON2);
                p.expect(STAR);
                ptr_quals(p);
            } else {
                p.err_and_bump("expected a declaration");
            }
        }
    }
    m.complete(p, PTR_OPERATOR);
}

fn ptr_quals(p: &mut Parser<'_>) {
    loop {
        if is_cv(p.current()) || p.at(ATOMIC_KW) && p.nth(1) != L_PAREN {
            p.bump_any();
        } else if attributes::at_attribute(p) {
            attributes::attribute_specifier_seq(p);
        } else {
            break;
        }
    }
}

/// A declarator (`*const p`, `(&a)[3]`, `f(int) const &`, `A::B::operator()`).
pub(crate) fn declarator(p: &mut Parser<'_>, mode: DeclMode, ctx: SpecCtx) -> DeclaratorInfo {
    p.nested(|p| declarator_inner(p, mode, ctx)).unwrap_or_default()
}

fn declarator_inner(p: &mut Parser<'_>, mode: DeclMode, ctx: SpecCtx) -> DeclaratorInfo {
    let m = p.start();
    let mut info = DeclaratorInfo::default();
    while at_ptr_operator(p) {
        ptr_operator(p);
        info.derived = true;
    }
    let saved_scope = p.names.current_scope();
    let mut reactivated = false;
    let mut inner_function = false;
    if p.at(DOT3) && mode != DeclMode::NamedInit {
        p.bump(DOT3);
        info.pack = true;
    }
    let abstract_ok = matches!(mode, DeclMode::Param | DeclMode::Abstract);
    if matches!(mode, DeclMode::Named | DeclMode::NamedInit) && p.at(L_BRACK) && p.nth(1) != L_BRACK {
        structured_binding(p, &mut info);
    } else if p.at(L_PAREN) && at_paren_declarator(p, mode) {
        let pd = p.start();
        p.bump(L_PAREN);
        let inner = declarator(p, if abstract_ok { mode } else { DeclMode::Named }, ctx);
        p.expect(R_PAREN);
        pd.complete(p, PAREN_DECLARATOR);
        info.name = inner.name;
        info.ident = inner.ident;
        info.pack |= inner.pack;
        info.param_scope = inner.param_scope;
        inner_function = inner.is_function;
        info.derived |= inner.derived;
        // `(*fp)(int)`: the id's nearest suffix is inside the parentheses.
        info.is_function = inner.is_function && !inner.derived;
    } else if mode != DeclMode::Abstract && at_declarator_id(p) {
        let start = p.pos();
        let n = p.start();
        let name = paths::name(p, NameMode::Expr);
        match name {
            Some(ni) if !ni.qualified && ni.last == Last::Ident => {
                n.complete(p, NAME);
                info.ident = Some(start);
            }
            _ => {
                n.abandon(p);
            }
        }
        info.name = name;
        // An out-of-line member (`void A::B::f(...)`): re-enter the classes so
        // that the parameters, trailing return type and body see their members.
        if let Some(ni) = name
            && ni.qualified
            && ni.qualifier_scopes().next().is_some()
        {
            let quals: Vec<ScopeId> = ni.qualifier_scopes().collect();
            p.names.push_reactivation(&quals);
            reactivated = true;
        }
    } else if matches!(mode, DeclMode::Named | DeclMode::NamedInit) {
        // No declarator-id: let the caller report what it expected.
    }
    let mut first_suffix = true;
    loop {
        if p.at(L_BRACK) && p.nth(1) != L_BRACK {
            array_suffix(p);
            info.derived = true;
            first_suffix = false;
        } else if p.at(L_PAREN) {
            let mut cp = None;
            if mode == DeclMode::NamedInit && first_suffix && info.name.is_some() {
                match param_list_look(p, ctx) {
                    ParamLook::No => break,
                    ParamLook::Yes => {}
                    ParamLook::Maybe => cp = Some(p.checkpoint()),
                }
            }
            let scope = function_suffix(p);
            // A parameter list that went through a braced group with an
            // error stands (`Parser::must_keep`).
            if let Some(cp) = cp
                && !p.must_keep(cp)
                && (p.has_error_since(cp)
                    || !(matches!(
                        p.current(),
                        SEMI | COMMA | EQ | L_CURLY | COLON | TRY_KW | ASM_KW | ASM2_KW | ASM3_KW
                    ) || attributes::at_attribute(p)
                        || p.at_contextual("override")
                        || p.at_contextual("final")))
            {
                // Not a parameter list after all: a parenthesized initializer.
                p.rewind(cp);
                break;
            }
            if first_suffix && !inner_function {
                if info.name.is_some() || info.param_scope.is_none() {
                    info.param_scope = Some(scope);
                }
                info.is_function = info.name.is_some() || mode == DeclMode::Abstract || mode == DeclMode::Param;
            }
            info.derived = true;
            first_suffix = false;
        } else if attributes::at_attribute(p) {
            attributes::attribute_specifier_seq(p);
        } else if matches!(p.current(), ASM_KW | ASM2_KW | ASM3_KW) && p.nth(1) == L_PAREN {
            // GNU asm label: `int f() __asm__("f_impl");`
            let a = p.start();
            p.bump_any();
            p.bump_balanced();
            a.complete(p, ASM_DECL);
        } else {
            break;
        }
    }
    if reactivated {
        p.names.enter_scope(saved_scope);
    }
    let kind = if info.name.is_none() && abstract_ok { ABSTRACT_DECLARATOR } else { DECLARATOR };
    m.complete(p, kind);
    info
}

/// `[a, b, c]` (after `auto` and ref-qualifiers): declares each name.
fn structured_binding(p: &mut Parser<'_>, info: &mut DeclaratorInfo) {
    let m = p.start();
    p.bump(L_BRACK);
    let start = p.pos();
    while p.at(IDENT) {
        let text = p.current_text();
        let n = p.start();
        p.bump(IDENT);
        n.complete(p, NAME);
        attributes::attribute_specifier_seq(p);
        p.names.declare(text, NameKind::Value);
        if !p.eat(COMMA) {
            break;
        }
    }
    if p.pos() == start {
        p.error("expected an identifier");
    }
    p.expect(R_BRACK);
    m.complete(p, STRUCTURED_BINDING);
    // Stands for a declarator-id; the names are already declared.
    info.name = Some(NameInfo {
        entry: None,
        qualified: false,
        dependent: false,
        last: Last::Ident,
        last_ident: None,
        quals: [None; 8],
        ctor_like: false,
    });
}

/// At a declarator-id: a name, `operator`, `~X`.
fn at_declarator_id(p: &Parser<'_>) -> bool {
    match p.current() {
        IDENT | COLON2 | OPERATOR_KW => true,
        TILDE => matches!(p.nth(1), IDENT | DECLTYPE_KW),
        DECLTYPE_KW => paths::scan_name(p, 0).is_some_and(|s| s.last == Last::Destructor),
        _ => false,
    }
}

/// At `(` where a declarator-id or nested declarator could be: is it a
/// parenthesized declarator (rather than a parameter list)?
fn at_paren_declarator(p: &Parser<'_>, mode: DeclMode) -> bool {
    match mode {
        DeclMode::Named | DeclMode::NamedInit => true,
        DeclMode::Param | DeclMode::Abstract => match p.nth(1) {
            STAR | AMP | AMP2 => true,
            // `(C::*pm)`
            IDENT | COLON2 => {
                let s = paths::scan_name(p, 1);
                match s {
                    Some(s) if p.nth(1 + s.len) == COLON2 && p.nth(2 + s.len) == STAR => true,
                    // `int (x)` in a parameter: a parenthesized name unless it is a type.
                    Some(s) => mode == DeclMode::Param && !s.is_type() && !s.qualified && p.nth(1 + s.len) == R_PAREN,
                    None => false,
                }
            }
            DOT3 => mode == DeclMode::Param,
            L_PAREN => true,
            _ => false,
        },
    }
}

/// After `T x`, at `(`: does a parameter list follow (a function), rather
/// than a parenthesized initializer (a variable)?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ParamLook {
    No,
    Yes,
    /// `T x(U(...))`: a parameter if the whole list parses as parameters.
    Maybe,
}

pub(crate) fn param_list_look(p: &Parser<'_>, ctx: SpecCtx) -> ParamLook {
    use ParamLook::*;
    let k = p.nth(1);
    if matches!(k, R_PAREN | DOT3) || attributes::at_attribute_nth(p, 1) {
        return Yes;
    }
    if is_simple_type_keyword(k) || is_cv(k) || is_storage_or_function_specifier(k) {
        // `int(3)` / `int{3}` would be functional casts in an initializer;
        // `void (*f)(int)`, `int(x)`, `int()` are parameters (spec 50 §3.4).
        return match p.nth(2) {
            L_CURLY => No,
            L_PAREN => Maybe,
            _ => Yes,
        };
    }
    match k {
        TYPENAME_KW | DECLTYPE_KW | DECLTYPE2_KW => Maybe,
        STRUCT_KW | CLASS_KW | UNION_KW | ENUM_KW | TYPEOF_KW | TYPEOF2_KW | TYPEOF3_KW | ATOMIC_KW => Yes,
        IDENT | COLON2 => {
            let Some(s) = paths::scan_name(p, 1) else { return No };
            let after = p.nth(1 + s.len);
            if s.is_type() {
                return match after {
                    L_PAREN => Maybe,
                    L_CURLY | DOT | ARROW => No,
                    _ => Yes,
                };
            }
            if s.entry.is_some() || s.dependent {
                return if s.entry.is_some_and(|e| e.kind == NameKind::Concept) { Yes } else { No };
            }
            // Unknown name: only a declaration has two names in a row.
            let two_names = after == IDENT;
            match ctx {
                SpecCtx::Block => {
                    if two_names {
                        Yes
                    } else {
                        No
                    }
                }
                _ => {
                    if two_names || matches!(after, STAR | AMP | AMP2 | COMMA | R_PAREN | COLON2) || is_cv(after) {
                        Yes
                    } else {
                        No
                    }
                }
            }
        }
        _ => No,
    }
}

fn array_suffix(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(L_BRACK);
    // C99 array qualifiers in parameters: `int a[__restrict 3]`, `a[static 3]`.
    while is_cv(p.current()) || p.at(STATIC_KW) {
        p.bump_any();
    }
    if !p.at(R_BRACK) {
        p.with_gt_closes(false, expressions::conditional_expr);
    }
    crate::grammar::recovery::expect_or_skip(p, R_BRACK);
    attributes::attribute_specifier_seq(p);
    m.complete(p, ARRAY_DECLARATOR);
}

/// `(params) cv ref noexcept attrs -> trailing requires`. Returns the parameter scope.
fn function_suffix(p: &mut Parser<'_>) -> ScopeId {
    let m = p.start();
    let prev = p.names.push_scope(ScopeKind::Function);
    let scope = p.names.current_scope();
    param_list(p);
    loop {
        let k = p.current();
        if is_cv(k) {
            p.bump_any();
        } else if matches!(k, AMP | AMP2) {
            let r = p.start();
            p.bump_any();
            r.complete(p, REF_QUALIFIER);
        } else if k == NOEXCEPT_KW {
            noexcept_spec(p);
        } else if k == THROW_KW {
            throw_spec(p);
        } else if attributes::at_attribute(p) {
            attributes::attribute_specifier_seq(p);
        } else {
            break;
        }
    }
    if p.at(ARROW) {
        let t = p.start();
        p.bump(ARROW);
        if !type_id(p) {
            p.error("expected a type specifier");
        }
        t.complete(p, TRAILING_RETURN_TYPE);
        attributes::gnu_attributes(p);
    }
    if p.at(REQUIRES_KW) {
        templates::requires_clause(p);
    }
    p.names.enter_scope(prev);
    m.complete(p, FUNCTION_DECLARATOR);
    scope
}

/// `noexcept` / `noexcept(expr)`
pub(crate) fn noexcept_spec(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(NOEXCEPT_KW);
    if p.at(L_PAREN) {
        p.bump(L_PAREN);
        p.with_gt_closes(false, expressions::constant_expr);
        p.expect(R_PAREN);
    }
    m.complete(p, NOEXCEPT_SPEC);
}

/// `throw()` / `throw(T, U...)` / `throw(...)`
fn throw_spec(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(THROW_KW);
    if p.expect(L_PAREN) {
        p.with_gt_closes(false, |p| {
            while !p.at(R_PAREN) && !p.at_eof() {
                if !p.eat(DOT3) && !type_id(p) {
                    p.err_and_bump("expected a type specifier");
                }
                p.eat(DOT3);
                if !p.eat(COMMA) {
                    break;
                }
            }
        });
        p.expect(R_PAREN);
    }
    m.complete(p, THROW_SPEC);
}

/// `( param, ... )` into `PARAM_LIST`; parameters are declared in the current scope.
pub(crate) fn param_list(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(L_PAREN);
    p.with_gt_closes(false, |p| {
        while !p.at(R_PAREN) && !p.at_eof() {
            if p.at(DOT3) {
                p.bump(DOT3);
                break;
            }
            let before = p.pos();
            param(p);
            if p.at(DOT3) {
                // `int...` (C varargs without a comma)
                p.bump(DOT3);
                break;
            }
            if !p.eat(COMMA) {
                break;
            }
            if p.pos() == before {
                break;
            }
            if p.at(R_PAREN) {
                p.error("expected a type specifier");
            }
        }
    });
    if !p.eat(R_PAREN) {
        p.error("expected a \")\"");
        // Recover to the closing parenthesis of this list.
        while !p.at_eof() && !p.at(R_PAREN) && !p.at(SEMI) && !p.at(L_CURLY) && !p.at(R_CURLY) {
            p.bump_balanced();
        }
        p.eat(R_PAREN);
    }
    m.complete(p, PARAM_LIST);
}

/// One parameter declaration (also template non-type parameters and catch parameters).
pub(crate) fn param(p: &mut Parser<'_>) {
    let m = p.start();
    let specs = decl_specifiers(p, SpecCtx::Param);
    if !specs.has_type {
        if p.at(THIS_KW) {
            // C++23 explicit object parameter `this T self` is not in our dialects; recover.
            p.err_and_bump("expected a type specifier");
        } else if !specs.any {
            p.err_and_bump("expected a type specifier");
            m.complete(p, PARAM);
            return;
        } else {
            p.error("expected a type specifier");
        }
    }
    let at_declarator = at_ptr_operator(p)
        || matches!(p.current(), L_PAREN | DOT3 | IDENT | COLON2 | ASM_KW | ASM2_KW | ASM3_KW)
        || (p.at(L_BRACK) && p.nth(1) != L_BRACK)
        || attributes::at_attribute(p);
    let d = if at_declarator { declarator(p, DeclMode::Param, SpecCtx::Param) } else { DeclaratorInfo::default() };
    if let Some(i) = d.ident {
        let text = p.inp.text(i);
        p.names.declare(text, NameKind::Value);
    }
    if p.at(EQ) {
        let init = p.start();
        p.bump(EQ);
        expressions::initializer_clause(p);
        init.complete(p, EQUAL_INITIALIZER);
    }
    m.complete(p, PARAM);
}
