//! How EDG names a callee in the cross-space call messages (spec 20 §6.1):
//!
//! - its qualified name and parameter types, `"Q::S::m(int) const"`,
//!   `"d2(const int *, float &)"`: typedefs seen through, parameters
//!   adjusted (arrays and functions decay, top-level cv dropped), class
//!   types fully qualified with EDG's padding (`"    ::V"` for a class of
//!   the global namespace, `" ::N::V"` otherwise);
//! - once the unit has an error, a callee with parameters by a
//!   pseudo-mangled form in which every type is `1?`: `"_Z2d11?"`,
//!   `"_ZNK1Q1S1mE1?"`, `"_ZN1DC1E1?"`, `"_Z1tI1?E1?1?"` (template
//!   arguments, return type, parameters).
//!
//! A function template's specialization is named by the template's
//! declaration with its parameters numbered and the arguments after the
//! name: `"T1  ::twice<int> (T1)"`, `"T1 *  ::h<float> (T1 *, int)"`,
//! `"T1 n::f<(int)3> ()"`, `"void  ::f<    ::P,  ::q::R> (const T1 &, T2 *)"`
//! (the global scope is `" ::"`). Shapes not checked against EDG (packs,
//! members of class templates, template-ids among the declared types,
//! other kinds of value arguments) fall back to the pseudo-mangled form.

use cufront_base_db::SourceDatabase;
use cufront_hir::Entity;
use cufront_hir::exec_space;
use cufront_hir::instances::{self, FnDecl, FnInstanceId};
use cufront_hir::item_tree::FnName;
use cufront_hir::scopes::{ScopeKind, def_map};
use cufront_hir::ty::{self, TyId, TyKind, canonical};

/// A callee as the messages name it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CalleeName {
    pub display: String,
    /// The qualified name alone (`H::m`, `H::H`): cicc's form in 3474.
    pub bare: String,
    /// The name in `identifier "…" is undefined in device code` (3525):
    /// `bare` with a member function's qualifiers (`"A::g const"`, checked).
    pub undefined: String,
    /// The form used once the unit has an error (callees with parameters).
    pub once_erred: Option<String>,
    /// The declaration with its types spelt as elsewhere in messages
    /// (`U::U(const U &)`, not the declaration form's `const     ::U &`):
    /// what overload-resolution notes print. Functions that are no
    /// template specializations only.
    pub ordinary: Option<String>,
}

fn decl_and_inst(db: &dyn SourceDatabase, e: Entity) -> Option<(FnDecl, FnInstanceId)> {
    match e {
        Entity::Fn(f) => {
            let d = FnDecl::Fn(f);
            Some((d, instances::fn_instance(db, d, None, Vec::new())))
        }
        Entity::FnInst(i) => Some((i.decl(db), i)),
        _ => None,
    }
}

pub(crate) fn is_destructor(db: &dyn SourceDatabase, e: Entity) -> bool {
    decl_and_inst(db, e).and_then(|(d, _)| d.data(db)).is_some_and(|d| d.name == FnName::Dtor)
}

pub(crate) fn is_call_operator(db: &dyn SourceDatabase, e: Entity) -> bool {
    decl_and_inst(db, e).and_then(|(d, _)| d.data(db)).is_some_and(|d| d.name == FnName::Operator("()".into()))
}

pub(crate) fn is_constexpr(db: &dyn SourceDatabase, e: Entity) -> bool {
    decl_and_inst(db, e).is_some_and(|(d, _)| exec_space::fn_is_constexpr(db, d))
}

/// How the messages name `e`; `None` when the model cannot say (then the
/// finding is dropped).
pub(crate) fn callee_name(db: &dyn SourceDatabase, e: Entity) -> Option<CalleeName> {
    let (decl, inst) = decl_and_inst(db, e)?;
    let data = decl.data(db)?;
    let sig = instances::signature(db, inst).ok()?;
    let scopes = scope_names(db, decl)?;
    let class = scopes.last().filter(|(is_class, _)| *is_class).map(|(_, n)| n.clone());
    let (plain, code) = match &data.name {
        FnName::Ident(n) => (n.clone(), format!("{}{n}", n.len())),
        FnName::Ctor => (class.clone()?, "C1".into()),
        FnName::Dtor => (format!("~{}", class.clone()?), "D1".into()),
        FnName::Operator(op) => {
            let unary = sig.params.len() + usize::from(class.is_some() && !data.linkage.is_static) == 1;
            (format!("operator {op}"), operator_code(op, unary)?.into())
        }
        FnName::Conversion(_) | FnName::Literal(_) => return None,
    };
    let targs = inst.args(db).len();
    let templated = matches!(decl, FnDecl::Template(_)) || inst.outer(db).is_some();
    let nested = !scopes.is_empty();
    let once_erred = (!sig.params.is_empty() || templated).then(|| {
        let mut s = String::from("_Z");
        if nested {
            s.push('N');
            if data.ty.cv.c {
                s.push('K');
            }
            if data.ty.cv.v {
                s.push('V');
            }
            for (_, n) in &scopes {
                s.push_str(&format!("{}{n}", n.len()));
            }
        }
        s.push_str(&code);
        if nested {
            s.push('E');
        }
        if matches!(decl, FnDecl::Template(_)) {
            s.push('I');
            s.push_str(&"1?".repeat(targs));
            s.push('E');
            s.push_str("1?");
        }
        s.push_str(&"1?".repeat(sig.params.len()));
        s
    });
    let qual: String = scopes.iter().map(|(_, n)| format!("{n}::")).collect();
    // `qual plain(params) cv ref` with each parameter spelt by `spell`.
    let declaration = |spell: &dyn Fn(TyId) -> Option<String>| {
        let params: Vec<String> = sig.params.iter().map(|&p| spell(p)).collect::<Option<_>>()?;
        let mut s = format!("{qual}{plain}({})", params.join(", "));
        if data.ty.cv.c {
            s.push_str(" const");
        }
        if data.ty.cv.v {
            s.push_str(" volatile");
        }
        match data.ty.ref_qual {
            1 => s.push_str(" &"),
            2 => s.push_str(" &&"),
            _ => {}
        }
        Some(s)
    };
    let (display, ordinary) = if templated {
        let display = match template_form(db, decl, inst, &scopes, &plain) {
            Some(s) => s,
            None => once_erred.clone()?,
        };
        (display, None)
    } else {
        let ordinary = declaration(&|p| crate::spell::spell(db, decayed(db, p)));
        (declaration(&|p| param_type(db, p))?, ordinary)
    };
    let bare = format!("{qual}{plain}");
    let mut undefined = bare.clone();
    if data.ty.cv.c {
        undefined.push_str(" const");
    }
    if data.ty.cv.v {
        undefined.push_str(" volatile");
    }
    Some(CalleeName { display, bare, undefined, once_erred, ordinary })
}

/// How cicc's late messages name a function template specialization that
/// calls: `"kern<int> "`, `"kern<    ::G> "`, `"q::k3<unsigned int> "`,
/// `"k2<float, (int)3> "`, `"S::m<char> "` (the arguments in the
/// declaration form's spelling, a space after the list; checked). `None`
/// for a member of a class template specialization, an operator, or
/// arguments not spelled.
pub(crate) fn instance_caller_name(db: &dyn SourceDatabase, inst: FnInstanceId) -> Option<String> {
    let decl = inst.decl(db);
    let FnDecl::Template(_) = decl else { return None };
    if inst.outer(db).is_some() {
        return None;
    }
    let FnName::Ident(plain) = &decl.data(db)?.name else { return None };
    let qual: String = scope_names(db, decl)?.iter().map(|(_, n)| format!("{n}::")).collect();
    let args: Vec<String> = inst.args(db).iter().map(|a| template_arg_text(db, a)).collect::<Option<_>>()?;
    Some(format!("{qual}{plain}<{}> ", args.join(", ")))
}

/// A function template specialization's declaration form (see the module
/// comment); `None` for a shape not checked.
fn template_form(
    db: &dyn SourceDatabase,
    decl: FnDecl,
    inst: FnInstanceId,
    scopes: &[(bool, String)],
    plain: &str,
) -> Option<String> {
    use cufront_hir::item_tree::TemplateParamKind;
    use cufront_hir::templates::{Env, TemplateArg};
    let FnDecl::Template(_) = decl else { return None };
    let data = decl.data(db)?;
    let tparams = decl.tparams(db);
    let args = inst.args(db);
    if inst.outer(db).is_some()
        || !matches!(data.name, FnName::Ident(_))
        || data.ty.cv.c
        || data.ty.cv.v
        || data.ty.ref_qual != 0
        || data.ty.variadic
        || !data.pack_params.is_empty()
        || args.len() != tparams.len()
    {
        return None;
    }
    let mut env = Env::default();
    for (k, p) in tparams.iter().enumerate() {
        let a = match p.kind {
            TemplateParamKind::Type if !p.pack => {
                TemplateArg::Type(ty::mk(db, TyKind::TemplateParam { depth: 0, index: k as u32 }))
            }
            TemplateParamKind::Value(_) if !p.pack => TemplateArg::ValueParam { depth: 0, index: k as u32 },
            _ => return None,
        };
        env.names.push((p.name.clone()?, a));
    }
    let map = def_map(db, decl.tu(db));
    let scope = instances::fn_scope(db, decl)?;
    let cx = ty::LowerCx { db, map: &map, item: decl.item(db), scope, env: Some(&env) };
    let ret = declared_type_text(db, ty::lower(cx, &data.ty.ret))?;
    let params: Vec<String> = data
        .ty
        .params
        .iter()
        .map(|p| {
            let t = ty::lower(cx, p);
            declared_type_text(db, t)?;
            param_type(db, t)
        })
        .collect::<Option<_>>()?;
    let targs: Vec<String> = args.iter().map(|a| template_arg_text(db, a)).collect::<Option<_>>()?;
    let qual =
        if scopes.is_empty() { " ::".to_string() } else { scopes.iter().map(|(_, n)| format!("{n}::")).collect() };
    Some(format!("{ret} {qual}{plain}<{}> ({})", targs.join(", "), params.join(", ")))
}

/// A declared type of a function template, its own type parameters
/// `T1`, `T2`…, when it is built of shapes checked (no template-id, no
/// value parameter, no dependent name).
fn declared_type_text(db: &dyn SourceDatabase, t: TyId) -> Option<String> {
    fn checked(db: &dyn SourceDatabase, t: TyId) -> bool {
        match canonical(db, t).kind(db) {
            TyKind::Builtin(_) | TyKind::Class(_) | TyKind::Enum(_) | TyKind::TemplateParam { depth: 0, .. } => true,
            TyKind::Ptr(x) | TyKind::LRef(x) | TyKind::RRef(x) | TyKind::Qualified(x, _) | TyKind::Array(x, _) => {
                checked(db, *x)
            }
            _ => false,
        }
    }
    if !checked(db, t) {
        return None;
    }
    type_text(db, t)
}

/// A template argument in the declaration form: a type as in parameter
/// lists, a value cast to its type (`(int)3`, `(bool)1`, `(char)65`,
/// `(unsigned int)7u`).
fn template_arg_text(db: &dyn SourceDatabase, a: &cufront_hir::templates::TemplateArg) -> Option<String> {
    use cufront_hir::item_tree::Builtin;
    use cufront_hir::templates::TemplateArg;
    match a {
        TemplateArg::Type(t) => type_text(db, *t),
        TemplateArg::Value(v, t) => match canonical(db, *t).kind(db) {
            TyKind::Builtin(Builtin::Bool) => Some(format!("(bool){}", i32::from(*v != 0))),
            TyKind::Builtin(Builtin::Int) => Some(format!("(int){v}")),
            TyKind::Builtin(Builtin::Char) => Some(format!("(char){v}")),
            TyKind::Builtin(Builtin::UInt) => Some(format!("(unsigned int){v}u")),
            _ => None,
        },
        _ => None,
    }
}

/// The names of the scopes around `decl`'s function, outermost first, each
/// flagged when it is a class. `None` for a scope the messages cannot name.
pub(crate) fn scope_names(db: &dyn SourceDatabase, decl: FnDecl) -> Option<Vec<(bool, String)>> {
    scope_chain(db, decl.tu(db), instances::fn_scope(db, decl)?)
}

/// The names of scope `s` and the scopes around it, outermost first (the
/// root's left out), each flagged when it is a class.
pub(crate) fn scope_chain(
    db: &dyn SourceDatabase,
    tu: cufront_base_db::TranslationUnit,
    mut s: cufront_hir::scopes::ScopeIdx,
) -> Option<Vec<(bool, String)>> {
    let map = def_map(db, tu);
    let mut out = Vec::new();
    loop {
        let scope = map.scope(s);
        match &scope.kind {
            ScopeKind::Root => break,
            ScopeKind::Namespace { name: Some(n), .. } => out.push((false, n.clone())),
            ScopeKind::Namespace { name: None, .. } => {}
            ScopeKind::Class(c) => {
                let tree = cufront_hir::item_tree_of(db, c.item(db));
                out.push((true, tree.classes.get(c.idx(db) as usize)?.name.clone()?));
            }
            ScopeKind::Enum(_) | ScopeKind::Block(_) => return None,
        }
        s = scope.parent?;
    }
    out.reverse();
    Some(out)
}

/// Itanium's operator codes, which EDG's pseudo-mangled form uses.
fn operator_code(op: &str, unary: bool) -> Option<&'static str> {
    Some(match (op, unary) {
        ("+", true) => "ps",
        ("-", true) => "ng",
        ("*", true) => "de",
        ("&", true) => "ad",
        ("+", false) => "pl",
        ("-", false) => "mi",
        ("*", false) => "ml",
        ("&", false) => "an",
        ("/", _) => "dv",
        ("%", _) => "rm",
        ("|", _) => "or",
        ("^", _) => "eo",
        ("=", _) => "aS",
        ("+=", _) => "pL",
        ("-=", _) => "mI",
        ("*=", _) => "mL",
        ("/=", _) => "dV",
        ("%=", _) => "rM",
        ("&=", _) => "aN",
        ("|=", _) => "oR",
        ("^=", _) => "eO",
        ("<<", _) => "ls",
        (">>", _) => "rs",
        ("<<=", _) => "lS",
        (">>=", _) => "rS",
        ("==", _) => "eq",
        ("!=", _) => "ne",
        ("<", _) => "lt",
        (">", _) => "gt",
        ("<=", _) => "le",
        (">=", _) => "ge",
        ("<=>", _) => "ss",
        ("!", _) => "nt",
        ("&&", _) => "aa",
        ("||", _) => "oo",
        ("++", _) => "pp",
        ("--", _) => "mm",
        (",", _) => "cm",
        ("->*", _) => "pm",
        ("->", _) => "pt",
        ("()", _) => "cl",
        ("[]", _) => "ix",
        ("~", _) => "co",
        ("new", _) => "nw",
        ("new[]", _) => "na",
        ("delete", _) => "dl",
        ("delete[]", _) => "da",
        _ => return None,
    })
}

/// A parameter's type as EDG prints it in a function's declaration form.
fn param_type(db: &dyn SourceDatabase, p: TyId) -> Option<String> {
    type_text(db, decayed(db, p))
}

/// A parameter's type as the function's type has it: arrays and functions
/// decayed to pointers, top-level cv gone.
fn decayed(db: &dyn SourceDatabase, p: TyId) -> TyId {
    let p = canonical(db, p);
    match p.kind(db) {
        TyKind::Array(e, _) => ty::mk(db, TyKind::Ptr(*e)),
        TyKind::Func(_) => ty::mk(db, TyKind::Ptr(p)),
        TyKind::Qualified(x, _) => *x,
        _ => p,
    }
}

/// EDG's spelling of a type: `const int *`, `float &`, `int (*)(int)`,
/// `int (*)[3]`.
fn type_text(db: &dyn SourceDatabase, t: TyId) -> Option<String> {
    declarator(db, canonical(db, t), String::new())
}

/// `t` around the declarator text `inner` (what is already built from the
/// outside in: `*`, `&`, `(*)`).
fn declarator(db: &dyn SourceDatabase, t: TyId, inner: String) -> Option<String> {
    let join = |base: String, inner: &str| if inner.is_empty() { base } else { format!("{base} {inner}") };
    match t.kind(db) {
        TyKind::Builtin(b) => Some(join(ty::builtin_name(*b).to_string(), &inner)),
        // A function template's own parameter in its declaration form.
        TyKind::TemplateParam { depth: 0, index } => Some(join(format!("T{}", index + 1), &inner)),
        TyKind::Class(_) | TyKind::Enum(_) | TyKind::App(_) | TyKind::Inst(_) => Some(join(class_text(db, t)?, &inner)),
        TyKind::Qualified(x, cv) => {
            let q = match (cv.c, cv.v) {
                (true, true) => "const volatile",
                (true, false) => "const",
                (false, true) => "volatile",
                (false, false) => "",
            };
            match canonical(db, *x).kind(db) {
                // `int *const`: the qualifier follows the `*`.
                TyKind::Ptr(_) | TyKind::MemPtr { .. } => declarator(db, *x, format!("{q}{inner}")),
                _ => {
                    let base = declarator(db, *x, String::new())?;
                    Some(join(if q.is_empty() { base } else { format!("{q} {base}") }, &inner))
                }
            }
        }
        TyKind::Ptr(x) => declarator(db, *x, format!("*{inner}")),
        TyKind::LRef(x) => declarator(db, *x, format!("&{inner}")),
        TyKind::RRef(x) => declarator(db, *x, format!("&&{inner}")),
        TyKind::Array(e, n) => {
            let inner = if inner.is_empty() { inner } else { format!("({inner})") };
            let bound = n.map_or(String::new(), |n| n.to_string());
            declarator(db, *e, format!("{inner}[{bound}]"))
        }
        TyKind::Func(f) => {
            let inner = if inner.is_empty() { inner } else { format!("({inner})") };
            let params: Vec<String> = f.params.iter().map(|&p| param_type(db, p)).collect::<Option<_>>()?;
            let mut ps = params.join(", ");
            if f.variadic {
                ps.push_str(if ps.is_empty() { "..." } else { ", ..." });
            }
            declarator(db, f.ret, format!("{inner}({ps})"))
        }
        _ => None,
    }
}

/// A class or enum, fully qualified, with EDG's padding before the `::`.
fn class_text(db: &dyn SourceDatabase, t: TyId) -> Option<String> {
    use cufront_hir::templates::TemplateArg;
    let name = match t.kind(db) {
        TyKind::Class(c) => cufront_hir::layout::class_name(db, *c),
        // A specialization is followed by a space (`" ::ns::Y<int> "`,
        // checked); only with arguments of builtin types or values (how
        // EDG pads a class among them is not checked).
        TyKind::App(app) => {
            let builtin = |a: &TemplateArg| match a {
                TemplateArg::Type(x) => matches!(canonical(db, *x).kind(db), TyKind::Builtin(_)),
                TemplateArg::Value(..) => true,
                _ => false,
            };
            if !app.args(db).iter().all(builtin) {
                return None;
            }
            format!("{} ", ty::display(db, t))
        }
        TyKind::Inst(_) => return None,
        _ => ty::display(db, t),
    };
    let name = name.replace("(anonymous namespace)", "_NV_ANON_NAMESPACE");
    let pad = if name.contains("::") { " " } else { "    " };
    Some(format!("{pad}::{name}"))
}

/// The unqualified name cicc's early messages give a callee or a caller
/// (`"cf"` for `ns::cf`, `"sm"` for `S::sm`, `"lowest"` for
/// `std::numeric_limits<float>::lowest`, `"operator()"`; checked).
pub(crate) fn plain_name(db: &dyn SourceDatabase, decl: FnDecl) -> Option<String> {
    match &decl.data(db)?.name {
        FnName::Ident(n) => Some(n.clone()),
        FnName::Operator(op) if op == "()" => Some("operator()".into()),
        _ => None,
    }
}

/// How EDG names a function instance in its instantiation context
/// (`instantiation of "…" at line N`): the pattern's declaration with
/// the template parameters' names, then their arguments (checked):
///
/// - `"void k(T *) [with T=float]"`: a function template whose
///   parameters are all deduced from its parameter types;
/// - `"void k2<B,T>(T *) [with B=3, T=double]"`: the parameter list,
///   without blanks, when one is not (`f5<T>()`);
/// - `"T ns::P<T, N>::v(const T *, unsigned int) [with T=char, N=3]"`: a
///   member of a class template specialization;
/// - types as in `%t` (typedefs by name: `size_t`), class template
///   specializations with every argument (`const std::vector<T,
///   std::allocator<T>> &`), arguments as `closure_args` spells them
///   (`Max<float>`, `lambda []()->void`, `256`).
///
/// `None` for other shapes (member templates of class templates, packs,
/// qualified or variadic functions, arguments not spelled).
pub(crate) fn instance_context_name(db: &dyn SourceDatabase, inst: FnInstanceId) -> Option<String> {
    use cufront_hir::item_tree::TemplateParamKind;
    use cufront_hir::templates::{Env, TemplateArg};
    let decl = inst.decl(db);
    let data = decl.data(db)?;
    let FnName::Ident(plain) = &data.name else { return None };
    if data.ty.cv.c || data.ty.cv.v || data.ty.ref_qual != 0 || data.ty.variadic || !data.pack_params.is_empty() {
        return None;
    }
    // The parameters and arguments named: the class's for a member of a
    // class template specialization, else the function template's own.
    let (params, args, qual) = match (decl, inst.outer(db)) {
        (FnDecl::Template(_), None) => {
            let scopes = scope_names(db, decl)?;
            if scopes.iter().any(|(class, _)| *class) {
                return None;
            }
            let qual: String = scopes.iter().map(|(_, n)| format!("{n}::")).collect();
            (decl.tparams(db), inst.args(db).clone(), qual)
        }
        (FnDecl::Fn(_), Some(outer)) => {
            let pattern = outer.class(db);
            let tree = cufront_hir::item_tree_of(db, pattern.item(db));
            let class = tree.classes.get(pattern.idx(db) as usize)?;
            if class.spec_args.is_some() {
                return None;
            }
            let map = def_map(db, decl.tu(db));
            let scope = instances::fn_scope(db, decl)?;
            let ScopeKind::Class(c) = map.scope(scope).kind else { return None };
            if c != pattern {
                return None;
            }
            let (name, _) = crate::spell::template_name(db, pattern)?;
            let params = class.tparams.clone()?;
            let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect::<Option<_>>()?;
            (params, outer.args(db).clone(), format!("{name}<{}>::", names.join(", ")))
        }
        _ => return None,
    };
    if params.len() != args.len() || params.iter().any(|p| p.pack) {
        return None;
    }
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect::<Option<_>>()?;
    let mut env = Env::default();
    for (k, (p, n)) in params.iter().zip(&names).enumerate() {
        let a = match p.kind {
            TemplateParamKind::Type => {
                TemplateArg::Type(ty::mk(db, TyKind::TemplateParam { depth: 0, index: k as u32 }))
            }
            TemplateParamKind::Value(_) => TemplateArg::ValueParam { depth: 0, index: k as u32 },
            TemplateParamKind::Template => return None,
        };
        env.names.push((n.clone(), a));
    }
    let map = def_map(db, decl.tu(db));
    let scope = instances::fn_scope(db, decl)?;
    let cx = ty::LowerCx { db, map: &map, item: decl.item(db), scope, env: Some(&env) };
    let ret = pattern_type_text(db, ty::lower(cx, &data.ty.ret), &names)?;
    if ret.ends_with('*') || ret.ends_with('&') {
        return None; // where EDG puts the name after a declarator is not checked
    }
    let fn_params: Vec<String> = data
        .ty
        .params
        .iter()
        .map(|p| pattern_type_text(db, decayed_pattern(db, ty::lower(cx, p)), &names))
        .collect::<Option<_>>()?;
    // A function template lists its parameters when one is not deduced
    // from the parameter types.
    let mut list = String::new();
    if matches!(decl, FnDecl::Template(_)) {
        let mut all_deduced = true;
        for n in &names {
            let mut deduced = false;
            for p in &data.ty.params {
                deduced |= deducible(p, n)?;
            }
            all_deduced &= deduced;
        }
        if !all_deduced {
            list = format!("<{}>", names.join(","));
        }
    }
    let with: Vec<String> = names
        .iter()
        .zip(&args)
        .map(|(n, a)| Some(format!("{n}={}", crate::closure_args::template_arg(db, a)?)))
        .collect::<Option<_>>()?;
    Some(format!("{ret} {qual}{plain}{list}({}) [with {}]", fn_params.join(", "), with.join(", ")))
}

/// A parameter's type in the function's type: arrays and functions
/// decayed, top-level cv gone (on the pattern's types, typedefs kept).
fn decayed_pattern(db: &dyn SourceDatabase, p: TyId) -> TyId {
    match p.kind(db) {
        TyKind::Array(e, _) => ty::mk(db, TyKind::Ptr(*e)),
        TyKind::Func(_) => ty::mk(db, TyKind::Ptr(p)),
        TyKind::Qualified(x, _) => *x,
        _ => p,
    }
}

/// Whether template parameter `name` is deduced from a parameter of type
/// `t` as written; `None` when the model cannot say (a qualified name
/// with arguments, an expression argument, `decltype`, an array bound).
fn deducible(t: &cufront_hir::item_tree::TypeRef, name: &str) -> Option<bool> {
    use cufront_hir::item_tree::{TemplateArgRef, TypeRef};
    match t {
        TypeRef::Builtin(_) | TypeRef::LocalClass(_) | TypeRef::LocalEnum(_) => Some(false),
        TypeRef::Ptr(x) | TypeRef::LRef(x) | TypeRef::RRef(x) | TypeRef::Cv(x, _) | TypeRef::Array(x, None) => {
            deducible(x, name)
        }
        TypeRef::Path(p) => {
            let (last, qualifier) = p.segments.split_last()?;
            if qualifier.iter().any(|s| s.args.is_some()) {
                return None;
            }
            if p.segments.len() == 1 && last.name == name && last.args.is_none() {
                return Some(true);
            }
            let mut found = false;
            for a in last.args.iter().flatten() {
                match a {
                    TemplateArgRef::Type(x) => found |= deducible(x, name)?,
                    _ => return None,
                }
            }
            Some(found)
        }
        _ => None,
    }
}

/// A type of a pattern's declaration as EDG prints it there: its own
/// template parameters by name (`const T *`), typedefs by name, class
/// template specializations with all their arguments and no blank
/// between closing brackets (`std::vector<T, std::allocator<T>>`).
fn pattern_type_text(db: &dyn SourceDatabase, t: TyId, names: &[String]) -> Option<String> {
    use cufront_hir::templates::TemplateArg;
    let sigil = |inner: TyId, s: &str| {
        let x = pattern_type_text(db, inner, names)?;
        // Pointers to functions, arrays and members put the name inside.
        if matches!(canonical(db, inner).kind(db), TyKind::Func(_) | TyKind::Array(..) | TyKind::MemPtr { .. }) {
            return None;
        }
        Some(if x.ends_with('*') || x.ends_with('&') { format!("{x}{s}") } else { format!("{x} {s}") })
    };
    match t.kind(db) {
        TyKind::TemplateParam { depth: 0, index } => names.get(*index as usize).cloned(),
        TyKind::Ptr(x) => sigil(*x, "*"),
        TyKind::LRef(x) => sigil(*x, "&"),
        TyKind::RRef(x) => sigil(*x, "&&"),
        TyKind::Qualified(x, cv) => {
            if cv.r || !(cv.c || cv.v) {
                return None;
            }
            let q = match (cv.c, cv.v) {
                (true, true) => "const volatile",
                (true, false) => "const",
                _ => "volatile",
            };
            let inner = pattern_type_text(db, *x, names)?;
            if matches!(x.kind(db), TyKind::Ptr(_)) {
                Some(format!("{inner}{q}"))
            } else {
                Some(format!("{q} {inner}"))
            }
        }
        TyKind::App(app) => {
            let (template, count) = crate::spell::template_name(db, app.template(db))?;
            if app.args(db).len() != count {
                return None;
            }
            let args: Vec<String> = app
                .args(db)
                .iter()
                .map(|a| match a {
                    TemplateArg::Type(x) => pattern_type_text(db, *x, names),
                    TemplateArg::ValueParam { depth: 0, index } => names.get(*index as usize).cloned(),
                    TemplateArg::Value(v, vt) => crate::spell::value(db, *v, *vt),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            Some(format!("{template}<{}>", args.join(", ")))
        }
        TyKind::Builtin(_) | TyKind::Class(_) | TyKind::Enum(_) | TyKind::Typedef(_) => crate::spell::spell(db, t),
        _ => None,
    }
}
