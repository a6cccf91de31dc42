//! Class templates (spec 50 §4): template-ids as types (`AppId` = template +
//! normalised arguments), argument normalisation (defaults substituted with
//! the earlier arguments, packs grouped, canonical types, evaluated values),
//! selection of the specialization an `AppId` names (explicit, partial by
//! deduction and partial ordering, or the primary), and the substitution
//! environment (`Env`) that lowering uses inside an instance (`InstId` =
//! pattern class + the arguments of its template chain).
//!
//! Instantiation is lazy: nothing here runs until layout or lookup asks for
//! the members of a specialization. Member types, bases, member typedefs and
//! alias templates are substituted as they are lowered (`ty::lower` with an
//! `Env`); there is no instantiated copy of a class.
//!
//! Limits: the nesting depth of instantiations is capped at 200 (§4.3; an
//! error value, never a stack overflow); template template parameters
//! applied inside patterns, member-template partial specializations and
//! anything needing overload resolution or constexpr calls are error values.

use std::cell::Cell;
use std::sync::Arc;

use cufront_base_db::SourceDatabase;

use crate::consteval::{self, EvalCx};
use crate::item_tree::{Builtin, ConstExpr, TemplateArgRef, TemplateKind, TemplateParam, TemplateParamKind, TypeRef};
use crate::scopes::{self, DeclKey, Def, DefMap, Ns, ScopeIdx, ScopeKind, def_map};
use crate::ty::{self, LowerCx, TyId, TyKind, mk};
use crate::{ClassId, TypedefId, item_tree_of};

mod addr_arg;
pub(crate) mod alias;
mod base_lookup;
mod injected;
mod integer_pack;
mod member_template;
pub(crate) mod trivial;
mod value_dep;

/// The instantiation depth limit (spec 50 §4.3).
pub const MAX_DEPTH: u32 = 200;

/// A template argument, normalised.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TemplateArg {
    /// A canonical type.
    Type(TyId),
    /// A value with its (canonical) type.
    Value(i128, TyId),
    Template(TemplateRef),
    /// The arguments of a parameter pack.
    Pack(Vec<TemplateArg>),
    /// A value parameter of a pattern (deduction only).
    ValueParam {
        depth: u32,
        index: u32,
    },
    /// Something a pattern cannot say yet (matches anything in deduction).
    Dependent(String),
    /// The address of a function (`&f`, `&S::m`) for a value parameter of
    /// pointer or pointer-to-member type, with that type (the tags of
    /// extended lambdas name their enclosing function so: `infer/ext_lambda.rs`).
    Addr(crate::Entity, TyId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TemplateRef {
    Class(ClassId),
    Alias(TypedefId),
    Param {
        depth: u32,
        index: u32,
    },
    /// A member alias template of a specialization, read in it
    /// (`templates/member_template.rs`).
    Member(InstId, TypedefId),
    /// A member class template of a specialization (`Agent::template
    /// PtxPlan` with `Agent` a specialization): applied with the
    /// specialization's arguments as its outer ones, named inside it.
    MemberClass(InstId, ClassId),
}

/// A class template specialization as a type: the template (canonical
/// declaration) and its normalised arguments (outer levels first).
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct AppId {
    #[returns(copy)]
    pub template: ClassId,
    #[returns(ref)]
    pub args: Vec<TemplateArg>,
}

/// A class of an instantiation: a pattern (primary template definition,
/// partial specialization, or a class nested in one) with the arguments of
/// its chain of enclosing templates, outermost first.
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct InstId {
    #[returns(copy)]
    pub class: ClassId,
    #[returns(ref)]
    pub args: Vec<TemplateArg>,
}

/// The substitution in effect while lowering inside an instance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Env {
    pub names: Vec<(String, TemplateArg)>,
    /// Class scopes of the current instantiation (members found there are substituted).
    pub scopes: Vec<ScopeIdx>,
    /// The arguments of the chain (`InstId::args` of its classes).
    pub args: Vec<TemplateArg>,
    /// The block-scope using-declarations in effect in the body being
    /// inferred or run, that name no type (`using cub::internal::enable_promotion;`),
    /// in order: unqualified lookup of their name finds what they name,
    /// also from the template arguments of the body's aliases.
    pub usings: Vec<crate::item_tree::Path>,
}

impl Env {
    pub fn get(&self, name: &str) -> Option<&TemplateArg> {
        self.names.iter().rev().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    /// The latest block-scope using-declaration of `name`.
    pub fn using(&self, name: &str) -> Option<&crate::item_tree::Path> {
        self.usings.iter().rev().find(|p| p.segments.last().is_some_and(|s| s.name == name))
    }
}

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

thread_local! {
    /// How many member using-declarations are being resolved on this thread.
    static USING_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Resolves what a member using-declaration names (`f`), or `None` past 64
/// using-declarations resolved one inside the other: a class whose
/// using-declaration names its own member (`using typename A<T>::e;` in
/// `A`), or a member of ever new specializations (`A<A<T>>::e`), would
/// resolve itself without end. Real code chains a few (a base's
/// using-declaration naming its own base's member).
fn through_using<T>(f: impl FnOnce() -> T) -> Option<T> {
    const MAX_USING_DEPTH: u32 = 64;
    let d = USING_DEPTH.with(Cell::get);
    if d >= MAX_USING_DEPTH {
        return None;
    }
    Some(crate::guard::with_cell(&USING_DEPTH, d + 1, f))
}

/// Runs `f` one instantiation level deeper, or fails past `MAX_DEPTH`.
pub fn nested<T>(f: impl FnOnce() -> Result<T, crate::SemaError>) -> Result<T, crate::SemaError> {
    let d = DEPTH.with(|d| d.get());
    if d >= MAX_DEPTH {
        return Err(crate::SemaError::limit(format!("instantiation depth exceeds {MAX_DEPTH}")));
    }
    // Restored on every way out (`guard`): a query cancelled by an edit
    // unwinds through here.
    crate::guard::with_cell(&DEPTH, d + 1, f)
}

/// A template parameter list read in place in its item tree: lists hold
/// default arguments (type and expression trees), and copying them each
/// time a template-id is lowered or an instance's environment is built was
/// a visible share of a large unit's run.
pub(crate) struct TParams {
    tree: Arc<crate::item_tree::ItemTree>,
    of: TParamsOf,
}

enum TParamsOf {
    /// `classes[i].tparams`, checked to be `Some` on creation.
    Class(usize),
    /// `fn_templates[i].tparams`, checked to exist on creation.
    FnTemplate(usize),
}

impl TParams {
    /// A class's own parameter list (`None` when it is no template).
    pub(crate) fn of_class(db: &dyn SourceDatabase, c: ClassId) -> Option<TParams> {
        let tree = item_tree_of(db, c.item(db));
        let i = c.idx(db) as usize;
        tree.classes.get(i)?.tparams.as_ref()?;
        Some(TParams { tree, of: TParamsOf::Class(i) })
    }

    /// A function's own parameter list (`None` for a function that is no template).
    fn of_fn(db: &dyn SourceDatabase, f: crate::instances::FnDecl) -> Option<TParams> {
        let crate::instances::FnDecl::Template(t) = f else { return None };
        let tree = item_tree_of(db, t.item(db));
        let i = t.idx(db) as usize;
        tree.fn_templates.get(i)?;
        Some(TParams { tree, of: TParamsOf::FnTemplate(i) })
    }
}

impl std::ops::Deref for TParams {
    type Target = [TemplateParam];
    fn deref(&self) -> &[TemplateParam] {
        match self.of {
            TParamsOf::Class(i) => self.tree.classes[i].tparams.as_deref().unwrap_or_default(),
            TParamsOf::FnTemplate(i) => &self.tree.fn_templates[i].tparams,
        }
    }
}

/// The classes of the template chain of a class scope, outermost first, with
/// their template parameters (None for non-template levels).
fn chain(db: &dyn SourceDatabase, map: &DefMap, class: ClassId) -> Vec<(Option<ClassId>, ScopeIdx, Option<TParams>)> {
    chain_from(db, map, map.class_scope.get(&class).copied())
}

/// The templated scopes from `start` outwards, outermost first: classes,
/// and the bodies of templated functions with local classes (`None`; their
/// parameters are the function template's own).
fn chain_from(
    db: &dyn SourceDatabase,
    map: &DefMap,
    start: Option<ScopeIdx>,
) -> Vec<(Option<ClassId>, ScopeIdx, Option<TParams>)> {
    let mut out = Vec::new();
    let mut cur = start;
    while let Some(s) = cur {
        if !map.templated.contains(&s) {
            break;
        }
        match map.scope(s).kind {
            ScopeKind::Class(k) => out.push((Some(k), s, TParams::of_class(db, k).filter(|p| !p.is_empty()))),
            ScopeKind::Block(f) => out.push((None, s, TParams::of_fn(db, f).filter(|p| !p.is_empty()))),
            _ => {}
        }
        cur = map.scope(s).parent;
    }
    out.reverse();
    out
}

/// The number of template arguments the classes enclosing `scope` take.
pub(crate) fn outer_arity(db: &dyn SourceDatabase, map: &DefMap, scope: ScopeIdx) -> usize {
    match map.scope(scope).kind {
        ScopeKind::Class(k) if map.templated.contains(&scope) => {
            chain(db, map, k).iter().map(|(_, _, p)| p.as_ref().map_or(0, |p| p.len())).sum()
        }
        ScopeKind::Block(_) if map.templated.contains(&scope) => {
            chain_from(db, map, Some(scope)).iter().map(|(_, _, p)| p.as_ref().map_or(0, |p| p.len())).sum()
        }
        _ => 0,
    }
}

/// The environment of an instance.
pub fn inst_env(db: &dyn SourceDatabase, inst: InstId) -> Result<Env, crate::SemaError> {
    let map = def_map(db, inst.class(db).tu(db));
    env_for(db, &map, inst.class(db), inst.args(db))
}

fn env_for(
    db: &dyn SourceDatabase,
    map: &DefMap,
    class: ClassId,
    args: &[TemplateArg],
) -> Result<Env, crate::SemaError> {
    let mut env = Env { args: args.to_vec(), ..Env::default() };
    let mut i = 0;
    for (k, s, params) in chain(db, map, class) {
        env.scopes.push(s);
        if let (None, ScopeKind::Block(f)) = (k, &map.scope(s).kind) {
            // An out-of-line definition may name the class's parameters
            // its own way: its body (the local class's too) reads its names.
            let names: Vec<Option<String>> = f
                .data(db)
                .map(|d| d.outer_tparams.iter().flatten().map(|p| p.name.clone()).collect())
                .unwrap_or_default();
            for (n, a) in names.into_iter().zip(args) {
                if let Some(n) = n {
                    env.names.push((n, a.clone()));
                }
            }
        }
        for p in params.iter().flat_map(|p| p.iter()) {
            let a = args.get(i).ok_or("too few template arguments for the pattern")?;
            if let Some(n) = &p.name {
                env.names.push((n.clone(), a.clone()));
            }
            i += 1;
        }
    }
    if i != args.len() {
        return Err("too many template arguments for the pattern".into());
    }
    Ok(env)
}

/// What an `AppId` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selected {
    /// An explicit specialization (an ordinary class).
    Class(ClassId),
    Inst(InstId),
}

fn canonical_template(map: &DefMap, c: ClassId) -> ClassId {
    map.template_def.get(&c).copied().unwrap_or(c)
}

/// Makes the type `template<written>` (outer levels from `outer`).
pub fn apply(cx: LowerCx<'_>, template: ClassId, outer: Vec<TemplateArg>, written: &[TemplateArgRef]) -> TyId {
    let db = cx.db;
    let template = canonical_template(cx.map, template);
    match normalize_class_args(cx, template, outer, written) {
        Ok(args) => {
            if args.iter().any(is_dependent_arg) {
                return mk(db, TyKind::Dependent(format!("{}<…>", crate::layout::class_name(db, template))));
            }
            // An argument whose substitution failed makes the template-id
            // ill-formed: in SFINAE contexts (`_RequireInputIter<int>`'s
            // `is_convertible<iterator_traits<int>::iterator_category, …>`)
            // that failure is what removes a candidate. Errors that only
            // say the model stops short (an unsupported argument) are kept
            // inside, so the rest of the type stays usable.
            if let Some(e) =
                args.iter().find_map(|a| error_arg(db, a)).filter(crate::SemaError::is_substitution_failure)
            {
                return mk(db, TyKind::Error(e));
            }
            mk(db, TyKind::App(AppId::new(db, template, args)))
        }
        Err(e) => mk(db, TyKind::Error(e)),
    }
}

/// The error an argument is (a pack's first erroneous element).
fn error_arg(db: &dyn SourceDatabase, a: &TemplateArg) -> Option<crate::SemaError> {
    match a {
        TemplateArg::Type(t) => match t.kind(db) {
            TyKind::Error(e) => Some(e.clone()),
            _ => None,
        },
        TemplateArg::Pack(v) => v.iter().find_map(|x| error_arg(db, x)),
        _ => None,
    }
}

/// Whether an argument still mentions a pattern's parameters.
fn is_dependent_arg(a: &TemplateArg) -> bool {
    matches!(a, TemplateArg::Dependent(_))
}

/// Normalises the arguments of a class template.
pub(crate) fn normalize_class_args(
    cx: LowerCx<'_>,
    template: ClassId,
    outer: Vec<TemplateArg>,
    written: &[TemplateArgRef],
) -> Result<Vec<TemplateArg>, crate::SemaError> {
    let db = cx.db;
    let single = [template];
    let decls = cx.map.template_decls.get(&template).map_or(&single[..], Vec::as_slice);
    // Each declaration's parameter list.
    let levels: Vec<(ClassId, TParams)> = decls.iter().filter_map(|&d| Some((d, TParams::of_class(db, d)?))).collect();
    if levels.is_empty() {
        return Err("no template parameters".into());
    }
    // Defaults: the first declaration that has one for each position.
    let decl_cx = |d: ClassId| -> (ScopeIdx, crate::ItemId) {
        (cx.map.parent.get(&DeclKey::Class(d)).copied().unwrap_or(scopes::ROOT), d.item(db))
    };
    let outer_env = match cx.map.parent.get(&DeclKey::Class(template)).copied() {
        Some(s) if outer_arity(db, cx.map, s) > 0 => match cx.map.scope(s).kind {
            ScopeKind::Class(k) => env_for(db, cx.map, k, &outer)?,
            _ => Env::default(),
        },
        _ => Env::default(),
    };
    let params = &*levels[0].1;
    let defaults: Vec<Option<(ClassId, usize)>> = (0..params.len())
        .map(|i| levels.iter().find(|(_, p)| p.get(i).is_some_and(|p| p.default.is_some())).map(|(d, _)| (*d, i)))
        .collect();
    let (pscope, pitem) = decl_cx(levels[0].0);
    let pcx = LowerCx { db, map: cx.map, item: pitem, scope: pscope, env: Some(&outer_env) };
    let mut own = bind_in(cx, Some(pcx), params, written, &mut |i, sofar| {
        let (d, _) = defaults.get(i).copied().flatten()?;
        let (scope, item) = decl_cx(d);
        let dparams = &*levels.iter().find(|(x, _)| *x == d)?.1;
        let mut env = outer_env.clone();
        for (k, a) in sofar.iter().enumerate() {
            if let Some(n) = dparams.get(k).and_then(|p| p.name.clone()) {
                env.names.push((n, a.clone()));
            }
        }
        let dcx = LowerCx { db, map: cx.map, item, scope, env: Some(&env) };
        let p = &dparams[i];
        Some(lower_arg(dcx, &p.kind, p.default.as_ref()?))
    })?;
    let mut args = outer;
    args.append(&mut own);
    Ok(args)
}

/// Binds written arguments (pack expansions expanded) to parameters;
/// `default(i, args so far)` supplies missing ones.
pub(crate) fn bind(
    cx: LowerCx<'_>,
    params: &[TemplateParam],
    written: &[TemplateArgRef],
    default: &mut dyn FnMut(usize, &[TemplateArg]) -> Option<Result<TemplateArg, crate::SemaError>>,
) -> Result<Vec<TemplateArg>, crate::SemaError> {
    bind_in(cx, None, params, written, default)
}

/// `bind`, value parameters' types lowered where the template is declared
/// (`param_cx`: its item and scope, its outer arguments in the
/// environment) — `template <requires_stable_address S>` names an
/// enumeration of the template's namespace, not of the arguments' scope.
pub(crate) fn bind_in(
    cx: LowerCx<'_>,
    param_cx: Option<LowerCx<'_>>,
    params: &[TemplateParam],
    written: &[TemplateArgRef],
    default: &mut dyn FnMut(usize, &[TemplateArg]) -> Option<Result<TemplateArg, crate::SemaError>>,
) -> Result<Vec<TemplateArg>, crate::SemaError> {
    // Expand `X...` first: each yields finished arguments.
    enum W<'a> {
        Ref(&'a TemplateArgRef),
        Done(TemplateArg),
    }
    let mut ws: Vec<W<'_>> = Vec::new();
    for w in written {
        match w {
            TemplateArgRef::Expansion(x) => {
                for a in expand(cx, x)? {
                    ws.push(W::Done(a));
                }
            }
            w => ws.push(W::Ref(w)),
        }
    }
    let mut out: Vec<TemplateArg> = Vec::new();
    let mut it = ws.into_iter().peekable();
    for (i, p) in params.iter().enumerate() {
        // A value parameter's type names the template's own earlier
        // parameters (`template <class _Tp, _Tp __v>`): those bind to the
        // arguments so far, not to what the names mean where the
        // arguments are written ([temp.arg.nontype]/1).
        let penv = match &p.kind {
            TemplateParamKind::Value(t) if !matches!(t, TypeRef::Builtin(_)) => {
                let mut e = param_cx.map_or(cx.env, |p| p.env).cloned().unwrap_or_default();
                for (q, a) in params.iter().zip(&out) {
                    if let Some(n) = &q.name {
                        e.names.push((n.clone(), a.clone()));
                    }
                }
                Some(e)
            }
            _ => None,
        };
        if p.pack {
            let mut elems = Vec::new();
            for w in it.by_ref() {
                elems.push(match w {
                    W::Done(a) => a,
                    W::Ref(r) => lower_arg_in(cx, param_cx, penv.as_ref(), &p.kind, r)?,
                });
            }
            out.push(TemplateArg::Pack(elems));
            continue;
        }
        let a = match it.next() {
            Some(W::Done(a)) => a,
            Some(W::Ref(r)) => lower_arg_in(cx, param_cx, penv.as_ref(), &p.kind, r)?,
            None => match default(i, &out) {
                Some(r) => r?,
                None => {
                    return Err(crate::error::gap!("too few template arguments ({} of {})", out.len(), params.len()));
                }
            },
        };
        let a = retyped_value(cx.db, params, i, &out, a);
        out.push(a);
    }
    if it.next().is_some() {
        return Err("too many template arguments".into());
    }
    Ok(out)
}

/// A value argument for a parameter whose type is an earlier parameter
/// (`template<class T, T v>`: `mersenne_twister_engine<unsigned long, …,
/// 0xb5026f5aa96619e9ULL, …>`), converted to that parameter's argument: the
/// written expression's own type is not the argument's ([temp.arg.nontype]).
fn retyped_value(
    db: &dyn SourceDatabase,
    params: &[TemplateParam],
    i: usize,
    sofar: &[TemplateArg],
    a: TemplateArg,
) -> TemplateArg {
    let TemplateArg::Value(v, _) = a else { return a };
    let Some(TemplateParamKind::Value(t)) = params.get(i).map(|p| &p.kind) else { return a };
    let name = match t {
        TypeRef::Path(p) if !p.global && p.segments.len() == 1 && p.segments[0].args.is_none() => &p.segments[0].name,
        TypeRef::Cv(x, _) => match &**x {
            TypeRef::Path(p) if !p.global && p.segments.len() == 1 && p.segments[0].args.is_none() => {
                &p.segments[0].name
            }
            _ => return a,
        },
        _ => return a,
    };
    let Some(k) = params[..i].iter().position(|p| p.name.as_deref() == Some(name.as_str()) && !p.pack) else {
        return a;
    };
    match sofar.get(k) {
        Some(TemplateArg::Type(pt))
            if matches!(ty::canonical(db, *pt).kind(db), TyKind::Builtin(_) | TyKind::Enum(_)) =>
        {
            let pt = ty::canonical(db, *pt);
            TemplateArg::Value(consteval::convert(v, value_builtin(db, pt)), pt)
        }
        _ => a,
    }
}

/// The names used by a written argument that are packs of the environment.
pub(crate) fn packs_in(env: &Env, a: &TemplateArgRef, out: &mut Vec<(String, Vec<TemplateArg>)>) {
    fn path(env: &Env, p: &crate::item_tree::Path, out: &mut Vec<(String, Vec<TemplateArg>)>) {
        if let Some(first) = p.segments.first()
            && let Some(TemplateArg::Pack(v)) = env.get(&first.name)
            && !out.iter().any(|(n, _)| *n == first.name)
        {
            out.push((first.name.clone(), v.clone()));
        }
        for s in &p.segments {
            for a in s.args.iter().flatten() {
                if !matches!(a, TemplateArgRef::Expansion(_)) {
                    packs_in(env, a, out);
                }
            }
        }
    }
    fn ty(env: &Env, t: &TypeRef, out: &mut Vec<(String, Vec<TemplateArg>)>) {
        match t {
            TypeRef::Path(p) => path(env, p, out),
            TypeRef::Ptr(x)
            | TypeRef::LRef(x)
            | TypeRef::RRef(x)
            | TypeRef::Cv(x, _)
            | TypeRef::Complex(x)
            | TypeRef::Array(x, _) => ty(env, x, out),
            TypeRef::MemPtr(p, x) => {
                path(env, p, out);
                ty(env, x, out)
            }
            TypeRef::Func(f) => {
                ty(env, &f.ret, out);
                for p in &f.params {
                    ty(env, p, out);
                }
            }
            _ => {}
        }
    }
    fn expr(env: &Env, e: &ConstExpr, out: &mut Vec<(String, Vec<TemplateArg>)>) {
        match e {
            ConstExpr::Path(p) => path(env, p, out),
            ConstExpr::Unary(_, x) | ConstExpr::Cast(_, x) => expr(env, x, out),
            ConstExpr::Binary(_, a, b) => {
                expr(env, a, out);
                expr(env, b, out)
            }
            ConstExpr::Cond(a, b, c) => {
                expr(env, a, out);
                expr(env, b, out);
                expr(env, c, out)
            }
            ConstExpr::SizeofType(t) | ConstExpr::AlignofType(t) => ty(env, t, out),
            ConstExpr::Trait(_, ts) => {
                for t in ts {
                    ty(env, t, out);
                }
            }
            // Kept as text (`((void) _Pred, true)...`, libcu++'s `__all`):
            // the packs it names by their tokens.
            ConstExpr::Unsupported(text) => {
                for tok in crate::type_tokens(text) {
                    if let Some(TemplateArg::Pack(v)) = env.get(&tok)
                        && !out.iter().any(|(n, _)| *n == tok)
                    {
                        out.push((tok.clone(), v.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    match a {
        TemplateArgRef::Type(t) => ty(env, t, out),
        TemplateArgRef::Expr(e) => expr(env, e, out),
        TemplateArgRef::Expansion(x) => packs_in(env, x, out),
    }
}

/// Expands `x...` over the packs of the environment it names.
pub(crate) fn expand(cx: LowerCx<'_>, x: &TemplateArgRef) -> Result<Vec<TemplateArg>, crate::SemaError> {
    if let Some(r) = integer_pack::expand(cx, x) {
        return r;
    }
    let Some(env) = cx.env else { return Err("pack expansion outside a template".into()) };
    let mut packs = Vec::new();
    packs_in(env, x, &mut packs);
    let Some(n) = packs.first().map(|(_, v)| v.len()) else {
        return Ok(vec![TemplateArg::Dependent(format!("{x}..."))]);
    };
    if packs.iter().any(|(_, v)| v.len() != n) {
        return Err("pack expansion over packs of different lengths".into());
    }
    // `Ts...` alone: the elements themselves.
    if let TemplateArgRef::Type(TypeRef::Path(p)) | TemplateArgRef::Expr(ConstExpr::Path(p)) = x
        && p.segments.len() == 1
        && p.segments[0].args.is_none()
        && !p.global
        && let Some((_, v)) = packs.iter().find(|(name, _)| *name == p.segments[0].name)
    {
        return Ok(v.clone());
    }
    let mut out = Vec::new();
    for i in 0..n {
        let mut e = env.clone();
        for (name, v) in &packs {
            e.names.push((name.clone(), v[i].clone()));
        }
        let ecx = LowerCx { env: Some(&e), ..cx };
        out.push(match x {
            TemplateArgRef::Type(t) => TemplateArg::Type(ty::canonical(cx.db, ty::lower(ecx, t))),
            TemplateArgRef::Expr(ex) => value_arg(ecx, ex, None)?,
            TemplateArgRef::Expansion(_) => return Err("nested pack expansion".into()),
        });
    }
    Ok(out)
}

/// Lowers one written argument for a parameter of kind `kind`.
pub fn lower_arg(
    cx: LowerCx<'_>,
    kind: &TemplateParamKind,
    a: &TemplateArgRef,
) -> Result<TemplateArg, crate::SemaError> {
    lower_arg_in(cx, None, None, kind, a)
}

/// `lower_arg`, a value parameter's type lowered in `param_env` (the
/// template's parameters bound so far) when given.
fn lower_arg_in(
    cx: LowerCx<'_>,
    param_cx: Option<LowerCx<'_>>,
    param_env: Option<&Env>,
    kind: &TemplateParamKind,
    a: &TemplateArgRef,
) -> Result<TemplateArg, crate::SemaError> {
    let db = cx.db;
    if let (Some(penv), TemplateParamKind::Value(t)) = (param_env, kind) {
        let pt = ty::canonical(db, ty::lower(LowerCx { env: Some(penv), ..param_cx.unwrap_or(cx) }, t));
        let e = match a {
            TemplateArgRef::Expr(e) => Some(e.clone()),
            TemplateArgRef::Type(TypeRef::Path(p)) => Some(ConstExpr::Path(p.clone())),
            _ => None,
        };
        if let Some(e) = e {
            return value_arg_typed(cx, &e, Some(pt));
        }
    }
    match (kind, a) {
        (TemplateParamKind::Type, TemplateArgRef::Type(t)) => Ok(type_arg(cx, t)),
        (TemplateParamKind::Type, TemplateArgRef::Expr(ConstExpr::Path(p))) => {
            Ok(type_arg(cx, &TypeRef::Path(p.clone())))
        }
        (TemplateParamKind::Type, TemplateArgRef::Expr(e)) => {
            Err(crate::error::gap!("a value ({e:?}) for a type parameter"))
        }
        (TemplateParamKind::Value(t), TemplateArgRef::Expr(e)) => value_arg(cx, e, Some(t)),
        (TemplateParamKind::Value(t), TemplateArgRef::Type(TypeRef::Path(p))) => {
            value_arg(cx, &ConstExpr::Path(p.clone()), Some(t))
        }
        (TemplateParamKind::Value(_), TemplateArgRef::Type(_)) => Err("a type for a value parameter".into()),
        (
            TemplateParamKind::Template,
            TemplateArgRef::Type(TypeRef::Path(p)) | TemplateArgRef::Expr(ConstExpr::Path(p)),
        ) => {
            if p.segments.len() == 1
                && let Some(a @ TemplateArg::Template(_)) = cx.env.and_then(|e| e.get(&p.segments[0].name))
            {
                return Ok(a.clone());
            }
            match scopes::resolve_path(db, cx.map, cx.scope, p, Ns::Type) {
                Some(Def::ClassTemplate(c)) => {
                    let c = canonical_template(cx.map, c);
                    Ok(TemplateArg::Template(member_of_current(cx, c).unwrap_or(TemplateRef::Class(c))))
                }
                Some(Def::AliasTemplate(t)) => Ok(TemplateArg::Template(TemplateRef::Alias(t))),
                _ => member_template::arg(cx, p).unwrap_or_else(|| Err(crate::error::gap!("`{p}` is not a template"))),
            }
        }
        (TemplateParamKind::Template, _) => Err("not a template".into()),
        (_, TemplateArgRef::Expansion(_)) => Err("unexpanded pack".into()),
    }
}

pub(crate) fn type_arg(cx: LowerCx<'_>, t: &TypeRef) -> TemplateArg {
    let db = cx.db;
    let ty = ty::canonical(db, ty::lower(cx, t));
    match ty.kind(db) {
        TyKind::Dependent(s) => TemplateArg::Dependent(s.clone()),
        _ => TemplateArg::Type(ty),
    }
}

/// Evaluates a value argument, converted to the parameter's type.
pub(crate) fn value_arg(
    cx: LowerCx<'_>,
    e: &ConstExpr,
    param_ty: Option<&TypeRef>,
) -> Result<TemplateArg, crate::SemaError> {
    let db = cx.db;
    // A value parameter of a pattern stands for itself.
    if let ConstExpr::Path(p) = e
        && p.segments.len() == 1
        && !p.global
        && let Some(a @ (TemplateArg::ValueParam { .. } | TemplateArg::Dependent(_))) =
            cx.env.and_then(|env| env.get(&p.segments[0].name))
    {
        return Ok(a.clone());
    }
    let ty = param_ty.map(|t| ty::canonical(db, ty::lower(cx, t)));
    value_arg_typed(cx, e, ty)
}

/// Binds in `env` the enumerators an enumeration defined in a function body
/// brings into its block (`body::LocalDecl::Enumerators`), each as a value
/// in `cx`'s scope with the enumerators before it bound: CUB's kernels
/// name `enum { BLOCK_THREADS = Policy::BLOCK_THREADS, … };` in the template
/// arguments of their block-scope aliases. One whose value cannot be
/// computed (a pattern's, or not modelled) is bound as dependent, so that
/// no outer entity of its name is found instead; so are those after it
/// without a value of their own.
pub(crate) fn bind_enumerators(cx: LowerCx<'_>, env: &mut Env, enumerators: &[(String, Option<ConstExpr>)]) {
    let mut next = Some((0i128, mk(cx.db, TyKind::Builtin(Builtin::Int))));
    for (name, v) in enumerators {
        let value = match v {
            Some(e) => match value_arg(LowerCx { env: Some(env), ..cx }, e, None) {
                Ok(TemplateArg::Value(v, t)) => Some((v, t)),
                _ => None,
            },
            None => next,
        };
        let arg = match value {
            Some((v, t)) => TemplateArg::Value(v, t),
            None => TemplateArg::Dependent(name.clone()),
        };
        env.names.push((name.clone(), arg));
        next = value.map(|(v, t)| (v + 1, t));
    }
}

/// `value_arg` for a parameter of (lowered) type `ty`.
fn value_arg_typed(cx: LowerCx<'_>, e: &ConstExpr, ty: Option<TyId>) -> Result<TemplateArg, crate::SemaError> {
    let db = cx.db;
    if let ConstExpr::Path(p) = e
        && p.segments.len() == 1
        && !p.global
        && let Some(a @ (TemplateArg::ValueParam { .. } | TemplateArg::Dependent(_))) =
            cx.env.and_then(|env| env.get(&p.segments[0].name))
    {
        return Ok(a.clone());
    }
    // A parameter whose type does not substitute (`template <bool B,
    // enable_if_t<B, int> = 0>` with `B` false) takes no argument at all: the
    // template-id is invalid, a substitution failure where SFINAE applies.
    if let Some(TyKind::Error(why)) = ty.map(|t| t.kind(db))
        && why.is_substitution_failure()
    {
        return Err(crate::error::subst_failure!("substitution failure in a template parameter's type: {why}"));
    }
    if let Some(a) = ty.and_then(|t| addr_arg::function_address(cx, e, t)) {
        return Ok(a);
    }
    // `nullptr` for a pointer parameter (`enable_if_t<C>* = nullptr`,
    // CuTe's `__CUTE_REQUIRES`): the null pointer value, not an
    // unevaluated argument that would drop the candidate.
    if let (ConstExpr::Unsupported(text), Some(t)) = (e, ty)
        && text.trim() == "nullptr"
        && matches!(ty::canonical(db, t).kind(db), TyKind::Ptr(_) | TyKind::Builtin(Builtin::NullPtr))
    {
        return Ok(TemplateArg::Value(0, t));
    }
    if cx.env.is_some_and(|env| value_dep::is_value_dependent(db, env, e)) {
        return Ok(TemplateArg::Dependent("value-dependent expression".into()));
    }
    let v = match consteval::eval(&EvalCx::new(cx), e) {
        Ok(v) => v,
        Err(err)
            if cx.env.is_some_and(|env| {
                env.names.iter().any(|(_, a)| {
                    matches!(a, TemplateArg::ValueParam { .. } | TemplateArg::Dependent(_)) || has_param(db, a)
                })
            }) =>
        {
            return Ok(TemplateArg::Dependent(format!("{err}")));
        }
        // An invalid type or expression in the argument (`!(decltype(…){})`
        // whose operand does not substitute): the template-id is invalid.
        Err(consteval::ConstError::Unresolved(m)) if m.is_substitution_failure() => return Err(m),
        Err(err) => return Err(crate::error::gap!("template argument: {err}")),
    };
    let ty = match ty {
        Some(t) if !matches!(t.kind(db), TyKind::Dependent(_) | TyKind::Error(_) | TyKind::TemplateParam { .. }) => t,
        _ => auto_arg_type(cx, e).unwrap_or_else(|| mk(db, TyKind::Builtin(v.ty))),
    };
    let b = value_builtin(db, ty);
    Ok(TemplateArg::Value(consteval::convert(v.v, b), ty))
}

/// The type an `auto` value parameter takes from its argument where the
/// value's builtin would lose it ([temp.arg.nontype]/1, deduced as for
/// `auto x = e;`): an enumerator is of its enumeration (`constant_v<LOAD_CS>`
/// is `constant_v<(CacheLoadModifier)5>`, not `<5u>`), a cast of its
/// type, a name bound to a value argument of that argument's type.
fn auto_arg_type(cx: LowerCx<'_>, e: &ConstExpr) -> Option<TyId> {
    let db = cx.db;
    match e {
        ConstExpr::Path(p) => {
            if let ([seg], false, Some(TemplateArg::Value(_, t))) =
                (p.segments.as_slice(), p.global, cx.env.and_then(|env| env.get(&p.segments[0].name)))
                && seg.args.is_none()
            {
                return Some(*t);
            }
            match scopes::resolve_path(db, cx.map, cx.scope, p, Ns::Value) {
                Some(Def::Enumerator(en, _)) => Some(mk(db, TyKind::Enum(en))),
                _ => None,
            }
        }
        ConstExpr::Cast(t, _) => {
            let t = ty::canonical(db, ty::lower(cx, t));
            matches!(t.kind(db), TyKind::Enum(_) | TyKind::Builtin(_)).then_some(t)
        }
        _ => None,
    }
}

fn has_param(db: &dyn SourceDatabase, a: &TemplateArg) -> bool {
    match a {
        TemplateArg::Type(t) => matches!(t.kind(db), TyKind::TemplateParam { .. }),
        TemplateArg::Pack(v) => v.iter().any(|x| has_param(db, x)),
        TemplateArg::Template(TemplateRef::Param { .. }) => true,
        _ => false,
    }
}

/// The builtin a value of type `t` is stored as.
pub fn value_builtin(db: &dyn SourceDatabase, t: TyId) -> Builtin {
    match ty::canonical(db, t).kind(db) {
        TyKind::Builtin(b) => *b,
        TyKind::Qualified(i, _) => value_builtin(db, *i),
        TyKind::Enum(e) => ty::enum_info(db, *e).underlying,
        _ => Builtin::Long,
    }
}

/// The declared type of a value parameter placeholder, where deduction
/// bound it (`decltype(NAME)` in `env`, NAME bound to the placeholder):
/// the type an alias's `decltype(V)` of it names while the template's
/// arguments are deduced, so that `integral_constant<decltype(V), V>` stays
/// a pattern (`V` deduced from it) instead of a dependent type.
pub(crate) fn placeholder_decltype(env: &Env, a: &TemplateArg) -> Option<TyId> {
    if !matches!(a, TemplateArg::ValueParam { .. }) {
        return None;
    }
    env.names.iter().rev().find_map(|(k, v)| {
        let name = k.strip_prefix("decltype(")?.strip_suffix(')')?;
        match v {
            TemplateArg::Type(t) if env.get(name) == Some(a) => Some(*t),
            _ => None,
        }
    })
}

/// Lowers `alias<written>` (an alias template) in `cx`.
pub fn apply_alias(cx: LowerCx<'_>, t: TypedefId, written: &[TemplateArgRef]) -> TyId {
    let db = cx.db;
    let tree = item_tree_of(db, t.item(db));
    let Some(data) = tree.typedefs.get(t.idx(db) as usize) else {
        return mk(db, TyKind::Error("no such alias".into()));
    };
    let params = data.tparams.clone().unwrap_or_default();
    let scope = cx.map.parent.get(&DeclKey::Typedef(t)).copied().unwrap_or(scopes::ROOT);
    // A member alias template of the current instantiation sees its environment.
    let mut env = match cx.env {
        Some(e) if e.scopes.contains(&scope) => e.clone(),
        _ => Env::default(),
    };
    let item = t.item(db);
    let args = match alias::bind_args(cx, t, written) {
        Ok(a) => a,
        Err(e) => return mk(db, TyKind::Error(e)),
    };
    // An ill-formed argument makes the alias-id ill-formed even where the
    // alias does not use it (`__void_t<typename _Ep::pointer>` is a
    // substitution failure, not `void`: the detection idiom).
    if let Some(e) = args.iter().find_map(|a| error_arg(db, a)).filter(crate::SemaError::is_substitution_failure) {
        return mk(db, TyKind::Error(e));
    }
    for (p, a) in params.iter().zip(args) {
        if let Some(n) = &p.name {
            // A value placeholder keeps its declared type under the alias's
            // name for it (`constant_t<MODIFIER>`'s `decltype(Value)`).
            if let Some(t) = cx.env.and_then(|e| placeholder_decltype(e, &a)) {
                env.names.push((format!("decltype({n})"), TemplateArg::Type(t)));
            }
            env.names.push((n.clone(), a));
        }
    }
    nested(|| Ok(ty::lower(LowerCx { db, map: cx.map, item, scope, env: Some(&env) }, &data.ty)))
        .unwrap_or_else(|e| mk(db, TyKind::Error(e)))
}

crate::consteval::var_template::recorded_query! {
    /// The specialization an `AppId` names: an explicit specialization, the
    /// most specialized matching partial specialization, or the primary.
    pub fn select(app: AppId) -> Result<Selected, crate::SemaError> = select_of;
    tracked select_uses;
    cycle select_uses_cycle => select_cycle;
}

fn select_of(db: &dyn SourceDatabase, app: AppId) -> Result<Selected, crate::SemaError> {
    let template = app.template(db);
    let map = def_map(db, template.tu(db));
    let args = app.args(db);
    let n_outer = map.parent.get(&DeclKey::Class(template)).map_or(0, |s| outer_arity(db, &map, *s));
    let (outer, own) = args.split_at(n_outer.min(args.len()));
    let specs = map.specializations.get(&template).cloned().unwrap_or_default();
    let mut viable: Vec<(ClassId, Vec<TemplateArg>, Vec<TemplateArg>)> = Vec::new();
    for s in specs {
        let pat = spec_pattern(db, s);
        let Ok((nparams, pattern)) = pat.as_ref() else { continue };
        if *nparams == 0 {
            if pattern.as_slice() == own {
                let tree = item_tree_of(db, s.item(db));
                if tree.classes[s.idx(db) as usize].is_definition {
                    return Ok(Selected::Class(s));
                }
                // Declared, not (yet) defined: a later definition may follow.
                if let Some(def) = map.specializations.get(&template).into_iter().flatten().find(|k| {
                    **k != s
                        && spec_pattern(db, **k).as_ref().as_ref().is_ok_and(|(n, p)| *n == 0 && p.as_slice() == own)
                        && item_tree_of(db, k.item(db)).classes[k.idx(db) as usize].is_definition
                }) {
                    return Ok(Selected::Class(*def));
                }
                return Err(crate::error::gap!(
                    "incomplete explicit specialization {}",
                    crate::layout::class_name(db, s)
                ));
            }
            continue;
        }
        let Some(deduced) = deduce(db, pattern, own, 1, *nparams) else { continue };
        // Substitution: the pattern with the deduced arguments must give the
        // arguments exactly (non-deduced parts, SFINAE in aliases).
        let mut full = outer.to_vec();
        full.extend(deduced.iter().cloned());
        match substituted_pattern(db, &map, s, &full) {
            Ok(p) if p.as_slice() == own => {}
            _ => continue,
        }
        viable.push((s, pattern.clone(), full));
    }
    // Constraints: a partial specialization whose constraints are false is not a match.
    viable.retain(|v| crate::infer::spec_constraints_satisfied(db, &map, v.0, &v.2) != Some(false));
    // A declaration of a partial specialization (`template <class T>
    // requires C<T> struct X<T*>;`) and its definition are one
    // specialization: of equal patterns, a declaration gives way to a definition.
    let is_def =
        |c: ClassId| item_tree_of(db, c.item(db)).classes.get(c.idx(db) as usize).is_some_and(|d| d.is_definition);
    let snapshot: Vec<(ClassId, Vec<TemplateArg>)> = viable.iter().map(|v| (v.0, v.1.clone())).collect();
    viable.retain(|v| is_def(v.0) || !snapshot.iter().any(|(c, p)| *c != v.0 && *p == v.1 && is_def(*c)));
    // Partial specializations need a definition to be chosen… but a
    // declared one is still chosen (and then incomplete).
    let pick = match viable.len() {
        0 => None,
        1 => Some(0),
        _ => {
            let mut best = None;
            // Of equal patterns, the more constrained ([temp.spec.partial.order]).
            let w: Vec<u32> = viable.iter().map(|v| crate::infer::spec_constraint_weight(db, &map, v.0)).collect();
            for i in 0..viable.len() {
                let all = (0..viable.len()).all(|j| {
                    let ij = more_specialized(db, &viable[i].1, &viable[j].1, spec_arity(db, viable[j].0));
                    let ji = more_specialized(db, &viable[j].1, &viable[i].1, spec_arity(db, viable[i].0));
                    i == j || (ij && !ji) || (ij && ji && w[i] > w[j])
                });
                if all {
                    best = Some(i);
                    break;
                }
            }
            match best {
                Some(b) => Some(b),
                None => {
                    let names: Vec<String> = viable.iter().map(|v| display_pattern(db, v.0)).collect();
                    return Err(crate::error::gap!("ambiguous partial specializations: {}", names.join(", ")));
                }
            }
        }
    };
    if let Some(i) = pick {
        let (s, _, full) = viable.swap_remove(i);
        return Ok(Selected::Inst(InstId::new(db, s, full)));
    }
    let tree = item_tree_of(db, template.item(db));
    if !tree.classes[template.idx(db) as usize].is_definition {
        return Err(crate::error::gap!("incomplete class template {}", crate::layout::class_name(db, template)));
    }
    Ok(Selected::Inst(InstId::new(db, template, args.to_vec())))
}

fn select_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _app: AppId) -> Result<Selected, crate::SemaError> {
    Err("specialization selection refers to itself".into())
}

fn spec_arity(db: &dyn SourceDatabase, s: ClassId) -> u32 {
    spec_pattern(db, s).as_ref().as_ref().map_or(0, |(n, _)| *n)
}

crate::consteval::var_template::recorded_query! {
    /// A specialization's arguments (its own level) with its parameters as
    /// placeholders of depth 1, and the number of its parameters.
    pub fn spec_pattern(s: ClassId) -> Arc<Result<(u32, Vec<TemplateArg>), crate::SemaError>> = spec_pattern_of;
    tracked spec_pattern_uses;
    cycle spec_pattern_uses_cycle => spec_pattern_cycle;
}

fn spec_pattern_of(db: &dyn SourceDatabase, s: ClassId) -> Arc<Result<(u32, Vec<TemplateArg>), crate::SemaError>> {
    let map = def_map(db, s.tu(db));
    let tree = item_tree_of(db, s.item(db));
    let data = &tree.classes[s.idx(db) as usize];
    let params = data.tparams.clone().unwrap_or_default();
    let mut env = Env::default();
    // A member template's partial specialization (`__shared_count<_Lp>::
    // __not_alloc_shared_tag<_Sp_alloc_shared_tag<_Tp>>`): the enclosing
    // levels' arguments are not part of the pattern (matching sees the own
    // level only), but normalising the written arguments needs one per
    // outer parameter.
    let scope = map.parent.get(&DeclKey::Class(s)).copied().unwrap_or(scopes::ROOT);
    env.args = vec![TemplateArg::Dependent("outer template argument".into()); outer_arity(db, &map, scope)];
    for (i, p) in params.iter().enumerate() {
        let i = i as u32;
        let a = match p.kind {
            TemplateParamKind::Type => TemplateArg::Type(mk(db, TyKind::TemplateParam { depth: 1, index: i })),
            TemplateParamKind::Value(_) => TemplateArg::ValueParam { depth: 1, index: i },
            TemplateParamKind::Template => TemplateArg::Template(TemplateRef::Param { depth: 1, index: i }),
        };
        let a = if p.pack { TemplateArg::Pack(vec![TemplateArg::Dependent(format!("pack:{i}"))]) } else { a };
        if let Some(n) = &p.name {
            env.names.push((n.clone(), a));
        }
    }
    Arc::new(pattern_written_args(db, &map, s, &env, true).map(|a| (params.len() as u32, a)))
}

fn spec_pattern_cycle(
    _db: &dyn SourceDatabase,
    _id: salsa::Id,
    _s: ClassId,
) -> Arc<Result<(u32, Vec<TemplateArg>), crate::SemaError>> {
    Arc::new(Err("the arguments of a specialization depend on themselves".into()))
}

/// The specialization's written arguments lowered in `env`, normalised
/// against the primary template (own level only).
fn pattern_args(
    db: &dyn SourceDatabase,
    map: &DefMap,
    s: ClassId,
    env: &Env,
) -> Result<Vec<TemplateArg>, crate::SemaError> {
    pattern_written_args(db, map, s, env, false)
}

/// [`pattern_args`]; with `placeholders` (the pattern for deduction), a
/// type argument that fails with the parameters as placeholders is a
/// non-deduced context kept dependent ([temp.deduct.type]/5): libstdc++'s
/// `_Require<is_convertible<_Xp&&, …>>` or `__enable_if_t<is_x<_Tp>::value>`
/// evaluate the trait on the placeholders, which is no answer. The
/// substitution check (`substituted_pattern`) decides them.
fn pattern_written_args(
    db: &dyn SourceDatabase,
    map: &DefMap,
    s: ClassId,
    env: &Env,
    placeholders: bool,
) -> Result<Vec<TemplateArg>, crate::SemaError> {
    let tree = item_tree_of(db, s.item(db));
    let data = &tree.classes[s.idx(db) as usize];
    let mut written = data.spec_args.clone().ok_or("specialization without arguments")?;
    let scope = map.parent.get(&DeclKey::Class(s)).copied().unwrap_or(scopes::ROOT);
    let cx = LowerCx { db, map, item: s.item(db), scope, env: Some(env) };
    if placeholders {
        let names: Vec<String> = data.tparams.iter().flatten().filter_map(|p| p.name.clone()).collect();
        builtin_alias_args(db, map, scope, &mut written);
        non_deduced_args(db, map, scope, &names, &mut written);
        for w in &mut written {
            if let TemplateArgRef::Type(t) = w
                && matches!(ty::canonical(db, ty::lower(cx, t)).kind(db), TyKind::Error(_))
            {
                *w = TemplateArgRef::Type(TypeRef::Opaque("<non-deduced>".into()));
            }
        }
    }
    let Some(primary) = map.specializations.iter().find(|(_, v)| v.contains(&s)).map(|(k, _)| *k) else {
        return Err("specialization of an unknown template".into());
    };
    let n_outer = outer_arity(db, map, scope);
    let outer = env.args.get(..n_outer).map(<[TemplateArg]>::to_vec).unwrap_or_default();
    let mut all = normalize_class_args(cx, primary, outer, &written)?;
    Ok(all.split_off(n_outer.min(all.len())))
}

/// Replaces a written argument that is an alias template's id whose
/// target is a builtin type (`void_t<typename T::type>`) by that type: it
/// names it whatever its arguments, so partial ordering compares `void`
/// with `void` (libstdc++'s `__common_type_fold` specializations are
/// ordered so). Whether the arguments substitute is still checked when a
/// specialization is matched (`substituted_pattern` re-lowers the written
/// arguments).
fn builtin_alias_args(db: &dyn SourceDatabase, map: &DefMap, scope: ScopeIdx, written: &mut [TemplateArgRef]) {
    for w in written.iter_mut() {
        let TemplateArgRef::Type(TypeRef::Path(p)) = w else { continue };
        if p.segments.last().is_none_or(|s| s.args.is_none()) {
            continue;
        }
        let mut q = p.clone();
        for s in &mut q.segments {
            s.args = None;
        }
        let Some(Def::AliasTemplate(t)) = scopes::resolve_path(db, map, scope, &q, Ns::Type) else { continue };
        let tree = item_tree_of(db, t.item(db));
        if let Some(TypeRef::Builtin(b)) = tree.typedefs.get(t.idx(db) as usize).map(|d| &d.ty) {
            *w = TemplateArgRef::Type(TypeRef::Builtin(*b));
        }
    }
}

/// Marks written arguments that are non-deduced contexts by their form
/// (an alias template's id, `typename X<T>::type`, `T::type`, naming the
/// parameters) as `<non-deduced>`, without lowering them: lowering
/// `_Require<is_convertible<_Xp&&, __common_ref_C<_Xp, _Yp>>>` on the
/// placeholders selects a specialization of the template being matched,
/// which needs this very pattern. Only where each parameter they name is
/// also named by another argument, which deduces it.
fn non_deduced_args(
    db: &dyn SourceDatabase,
    map: &DefMap,
    scope: ScopeIdx,
    names: &[String],
    written: &mut [TemplateArgRef],
) {
    let idents = |w: &TemplateArgRef| -> Vec<String> {
        w.to_string()
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|x| names.iter().any(|n| n == x))
            .map(str::to_string)
            .collect()
    };
    let marked: Vec<bool> = written
        .iter()
        .map(|w| {
            let TemplateArgRef::Type(TypeRef::Path(p)) = w else { return false };
            let n = p.segments.len();
            let param_rooted =
                n > 1 && !p.global && p.segments[0].args.is_none() && names.contains(&p.segments[0].name);
            let member_of_id = p.segments[..n.saturating_sub(1)].iter().any(|s| s.args.is_some());
            let alias_id = p.segments.last().is_some_and(|s| s.args.is_some()) && {
                let mut q = p.clone();
                for s in &mut q.segments {
                    s.args = None;
                }
                matches!(scopes::resolve_path(db, map, scope, &q, Ns::Type), Some(Def::AliasTemplate(_)))
            };
            (param_rooted || member_of_id || alias_id) && !idents(w).is_empty()
        })
        .collect();
    let deduced: Vec<String> = written.iter().zip(&marked).filter(|(_, m)| !**m).flat_map(|(w, _)| idents(w)).collect();
    for (w, m) in written.iter_mut().zip(&marked) {
        if *m && idents(w).iter().all(|n| deduced.contains(n)) {
            *w = TemplateArgRef::Type(TypeRef::Opaque("<non-deduced>".into()));
        }
    }
}

/// The pattern of specialization `s` with its parameters bound to `args`
/// (outer levels first), for the substitution check.
pub fn substituted_pattern(
    db: &dyn SourceDatabase,
    map: &DefMap,
    s: ClassId,
    args: &[TemplateArg],
) -> Result<Vec<TemplateArg>, crate::SemaError> {
    let tree = item_tree_of(db, s.item(db));
    let data = &tree.classes[s.idx(db) as usize];
    let params = data.tparams.clone().unwrap_or_default();
    let own = &args[args.len() - params.len().min(args.len())..];
    // A member template's partial specialization sees the enclosing
    // instance (its member alias templates name the outer parameters:
    // `__shared_ptr<_Tp, _Lp>::__esft_base_t<_Yp>` uses `_Lp`).
    let n_outer = args.len() - own.len();
    let scope = map.parent.get(&DeclKey::Class(s)).copied().unwrap_or(scopes::ROOT);
    let mut env = match map.scope(scope).kind {
        ScopeKind::Class(k) if n_outer > 0 => env_for(db, map, k, &args[..n_outer]).unwrap_or_default(),
        _ => Env::default(),
    };
    env.args = args.to_vec();
    for (p, a) in params.iter().zip(own) {
        if let Some(n) = &p.name {
            env.names.push((n.clone(), a.clone()));
        }
    }
    let r = pattern_args(db, map, s, &env)?;
    if r.iter().any(|a| matches!(a, TemplateArg::Dependent(_))) {
        return Err(crate::SemaError::substitution("substitution failure"));
    }
    Ok(r)
}

/// Flattens packs (deduction and comparison see one list).
fn flat(args: &[TemplateArg]) -> Vec<TemplateArg> {
    let mut out = Vec::new();
    for a in args {
        match a {
            TemplateArg::Pack(v) => out.extend(flat(v)),
            a => out.push(a.clone()),
        }
    }
    out
}

/// Deduces the parameters (placeholders of `depth`) of a pattern from
/// arguments. Every parameter must be deduced.
pub(crate) fn deduce(
    db: &dyn SourceDatabase,
    pattern: &[TemplateArg],
    args: &[TemplateArg],
    depth: u32,
    n: u32,
) -> Option<Vec<TemplateArg>> {
    let mut out: Vec<Option<TemplateArg>> = vec![None; n as usize];
    // A pack parameter in the pattern is `Pack([Dependent("pack:i")])`: it takes the rest.
    let mut pi = 0;
    let mut ai = 0;
    let fa = flat_keep_pack_marker(pattern);
    let aa = flat(args);
    while pi < fa.len() {
        if let TemplateArg::Dependent(s) = &fa[pi]
            && let Some(i) = s.strip_prefix("pack:").and_then(|i| i.parse::<usize>().ok())
        {
            if pi + 1 != fa.len() {
                return None;
            }
            *out.get_mut(i)? = Some(TemplateArg::Pack(aa[ai.min(aa.len())..].to_vec()));
            ai = aa.len();
            pi += 1;
            continue;
        }
        let a = aa.get(ai)?;
        if !match_arg(db, &fa[pi], a, depth, &mut out) {
            return None;
        }
        pi += 1;
        ai += 1;
    }
    if ai != aa.len() {
        return None;
    }
    out.into_iter().collect()
}

fn flat_keep_pack_marker(args: &[TemplateArg]) -> Vec<TemplateArg> {
    flat(args)
}

pub(crate) fn bind_slot(out: &mut [Option<TemplateArg>], i: u32, a: TemplateArg) -> bool {
    let Some(slot) = out.get_mut(i as usize) else { return false };
    match slot {
        Some(x) => *x == a,
        None => {
            *slot = Some(a);
            true
        }
    }
}

fn match_arg(
    db: &dyn SourceDatabase,
    p: &TemplateArg,
    a: &TemplateArg,
    depth: u32,
    out: &mut [Option<TemplateArg>],
) -> bool {
    match (p, a) {
        (TemplateArg::Dependent(_), _) => true,
        (TemplateArg::Type(pt), TemplateArg::Type(at)) => match_ty(db, *pt, *at, depth, out),
        (TemplateArg::ValueParam { depth: d, index }, TemplateArg::Value(..) | TemplateArg::ValueParam { .. })
            if *d == depth =>
        {
            bind_slot(out, *index, a.clone())
        }
        (TemplateArg::Value(v, _), TemplateArg::Value(w, _)) => v == w,
        (TemplateArg::Template(TemplateRef::Param { depth: d, index }), TemplateArg::Template(_)) if *d == depth => {
            bind_slot(out, *index, a.clone())
        }
        (TemplateArg::Pack(ps), TemplateArg::Pack(xs)) => deduce_into(db, ps, xs, depth, out),
        _ => p == a,
    }
}

pub(crate) fn deduce_into(
    db: &dyn SourceDatabase,
    ps: &[TemplateArg],
    xs: &[TemplateArg],
    depth: u32,
    out: &mut [Option<TemplateArg>],
) -> bool {
    let (fp, fx) = (flat(ps), flat(xs));
    let mut i = 0;
    for (k, p) in fp.iter().enumerate() {
        if let TemplateArg::Dependent(s) = p
            && let Some(n) = s.strip_prefix("pack:").and_then(|n| n.parse::<u32>().ok())
        {
            return k + 1 == fp.len() && bind_slot(out, n, TemplateArg::Pack(fx[i.min(fx.len())..].to_vec()));
        }
        let Some(x) = fx.get(i) else { return false };
        if !match_arg(db, p, x, depth, out) {
            return false;
        }
        i += 1;
    }
    i == fx.len()
}

/// Matches a pattern type (placeholders of `depth`) against a type, binding `out`.
pub fn match_ty(db: &dyn SourceDatabase, p: TyId, a: TyId, depth: u32, out: &mut [Option<TemplateArg>]) -> bool {
    if p == a {
        return true;
    }
    match (p.kind(db), a.kind(db)) {
        (TyKind::TemplateParam { depth: d, index }, _) if *d == depth => bind_slot(out, *index, TemplateArg::Type(a)),
        (TyKind::Dependent(_), _) => true,
        (TyKind::Qualified(pi, pcv), TyKind::Qualified(ai, acv)) => {
            if (pcv.c && !acv.c) || (pcv.v && !acv.v) || (pcv.r && !acv.r) {
                return false;
            }
            let rest = crate::item_tree::Cv { c: acv.c && !pcv.c, v: acv.v && !pcv.v, r: acv.r && !pcv.r };
            let a2 = if rest.is_empty() { *ai } else { mk(db, TyKind::Qualified(*ai, rest)) };
            match_ty(db, *pi, a2, depth, out)
        }
        // `const T` from `const int[9]`: the cv of an array type is its
        // elements' ([basic.type.qualifier]/3), so `T = int[9]`.
        (TyKind::Qualified(pi, pcv), TyKind::Array(e, n)) => {
            let (acv, inner) = match ty::canonical(db, *e).kind(db) {
                TyKind::Qualified(i, cv) => (*cv, *i),
                _ => (crate::item_tree::Cv::default(), *e),
            };
            if (pcv.c && !acv.c) || (pcv.v && !acv.v) || (pcv.r && !acv.r) {
                return false;
            }
            let rest = crate::item_tree::Cv { c: acv.c && !pcv.c, v: acv.v && !pcv.v, r: acv.r && !pcv.r };
            let e2 = if rest.is_empty() { inner } else { mk(db, TyKind::Qualified(inner, rest)) };
            match_ty(db, *pi, mk(db, TyKind::Array(e2, *n)), depth, out)
        }
        (TyKind::Ptr(x), TyKind::Ptr(y))
        | (TyKind::LRef(x), TyKind::LRef(y))
        | (TyKind::RRef(x), TyKind::RRef(y))
        | (TyKind::Complex(x), TyKind::Complex(y)) => match_ty(db, *x, *y, depth, out),
        (TyKind::Array(x, n), TyKind::Array(y, m)) => n == m && match_ty(db, *x, *y, depth, out),
        // `T[N]` from `int[3]`: `N = 3`, as a `size_t` (the type of an
        // array bound; the parameter's own type converts it where the
        // instance is formed).
        (TyKind::ParamArray { elem, depth: d, index }, TyKind::Array(y, Some(m))) if *d == depth => {
            let bound = match out.get(*index as usize) {
                // Deduced already (from another bound, `T (&)[N]` and `U (&)[N]`,
                // or given): the values must agree, whatever their types.
                Some(Some(TemplateArg::Value(v, _))) => *v == *m as i128,
                _ => {
                    let size_t = mk(db, TyKind::Builtin(crate::item_tree::Builtin::ULong));
                    bind_slot(out, *index, TemplateArg::Value(*m as i128, size_t))
                }
            };
            bound && match_ty(db, *elem, *y, depth, out)
        }
        // `T[N]` from an array whose bound is another template's value
        // parameter (partial ordering's synthesized `N'`, [temp.deduct.partial]):
        // `N = N'`; the same parameter of the same template otherwise.
        (TyKind::ParamArray { elem, depth: d, index }, TyKind::ParamArray { elem: y, depth: dy, index: iy })
            if *d == depth =>
        {
            let arg = TemplateArg::ValueParam { depth: *dy, index: *iy };
            let bound = match out.get(*index as usize) {
                Some(Some(a)) => *a == arg,
                _ => bind_slot(out, *index, arg),
            };
            bound && match_ty(db, *elem, *y, depth, out)
        }
        (TyKind::ParamArray { elem, depth: d, index }, TyKind::ParamArray { elem: y, depth: dy, index: iy }) => {
            d == dy && index == iy && match_ty(db, *elem, *y, depth, out)
        }
        (TyKind::MemPtr { class: c1, pointee: p1 }, TyKind::MemPtr { class: c2, pointee: p2 }) => {
            match_ty(db, *c1, *c2, depth, out) && match_ty(db, *p1, *p2, depth, out)
        }
        (TyKind::Func(f), TyKind::Func(g)) if trailing_pack(db, &f.params).is_some() => {
            // `R(*)(C, B...)` with `B` being deduced, or a partial specialization's
            // `function<_Res(_ArgTypes...)>`: the pack takes the remaining parameters.
            let (n, i) = (f.params.len() - 1, trailing_pack(db, &f.params).unwrap_or(0));
            g.params.len() >= n
                && f.variadic == g.variadic
                && match_ty(db, f.ret, g.ret, depth, out)
                && f.params[..n]
                    .iter()
                    .zip(&g.params)
                    .all(|(x, y)| match_ty(db, param_adjusted(db, *x), param_adjusted(db, *y), depth, out))
                && bind_slot(
                    out,
                    i,
                    TemplateArg::Pack(
                        g.params[n..].iter().map(|t| TemplateArg::Type(param_adjusted(db, *t))).collect(),
                    ),
                )
        }
        (TyKind::Func(f), TyKind::Func(g)) => {
            f.params.len() == g.params.len()
                && f.variadic == g.variadic
                && match_ty(db, f.ret, g.ret, depth, out)
                && f.params
                    .iter()
                    .zip(&g.params)
                    .all(|(x, y)| match_ty(db, param_adjusted(db, *x), param_adjusted(db, *y), depth, out))
        }
        (TyKind::App(x), TyKind::App(y)) => {
            x.template(db) == y.template(db) && deduce_into(db, x.args(db), y.args(db), depth, out)
        }
        (TyKind::App(x), TyKind::Class(k)) => injected::explicit_specialization_app(db, *k)
            .is_some_and(|y| x.template(db) == y.template(db) && deduce_into(db, x.args(db), y.args(db), depth, out)),
        (TyKind::App(x), TyKind::Inst(i)) => injected::inst_app(db, *i)
            .is_some_and(|y| x.template(db) == y.template(db) && deduce_into(db, x.args(db), y.args(db), depth, out)),
        (TyKind::ParamApp { depth: d, index, args }, _) if *d == depth => {
            crate::templates_params::match_param_app(db, *index, args, a, depth, out)
        }
        (TyKind::ParamApp { depth: d, index, args }, TyKind::ParamApp { depth: d2, index: i2, args: a2 })
            if d == d2 =>
        {
            index == i2 && deduce_into(db, args, a2, depth, out)
        }
        _ => false,
    }
}

/// The pack parameter a function type's last parameter expands while it is
/// being deduced (the `pack:i` marker, see `deduce`).
fn trailing_pack(db: &dyn SourceDatabase, params: &[TyId]) -> Option<u32> {
    match params.last()?.kind(db) {
        TyKind::Dependent(s) => s.strip_prefix("pack:")?.parse().ok(),
        _ => None,
    }
}

/// A parameter's type in a function type: top-level cv and `restrict`
/// are not part of it (glibc's `strtol(const char* __restrict, …)`).
fn param_adjusted(db: &dyn SourceDatabase, t: TyId) -> TyId {
    let c = ty::canonical(db, t);
    match c.kind(db) {
        TyKind::Qualified(x, _) => *x,
        _ => c,
    }
}

/// Whether pattern `p` is at least as specialized as `q`: `q` deduces from
/// `p` (with `p`'s parameters as unique types).
pub(crate) fn more_specialized(db: &dyn SourceDatabase, p: &[TemplateArg], q: &[TemplateArg], q_arity: u32) -> bool {
    let p2: Vec<TemplateArg> = p.iter().map(|a| relabel(db, a)).collect();
    deduce(db, q, &p2, 1, q_arity).is_some()
}

/// Placeholders of depth 1 → depth 2 (unique types for partial ordering).
fn relabel(db: &dyn SourceDatabase, a: &TemplateArg) -> TemplateArg {
    match a {
        TemplateArg::Type(t) => TemplateArg::Type(relabel_ty(db, *t)),
        TemplateArg::ValueParam { depth: 1, index } => TemplateArg::ValueParam { depth: 2, index: *index },
        TemplateArg::Template(TemplateRef::Param { depth: 1, index }) => {
            TemplateArg::Template(TemplateRef::Param { depth: 2, index: *index })
        }
        TemplateArg::Pack(v) => TemplateArg::Pack(v.iter().map(|x| relabel(db, x)).collect()),
        TemplateArg::Dependent(s) if s.starts_with("pack:") => {
            TemplateArg::Pack(vec![TemplateArg::Dependent(format!("unique{s}"))])
        }
        a => a.clone(),
    }
}

fn relabel_ty(db: &dyn SourceDatabase, t: TyId) -> TyId {
    let k = match t.kind(db).clone() {
        TyKind::TemplateParam { depth: 1, index } => TyKind::TemplateParam { depth: 2, index },
        TyKind::Ptr(x) => TyKind::Ptr(relabel_ty(db, x)),
        TyKind::LRef(x) => TyKind::LRef(relabel_ty(db, x)),
        TyKind::RRef(x) => TyKind::RRef(relabel_ty(db, x)),
        TyKind::Qualified(x, cv) => TyKind::Qualified(relabel_ty(db, x), cv),
        TyKind::Array(x, n) => TyKind::Array(relabel_ty(db, x), n),
        TyKind::MemPtr { class, pointee } => {
            TyKind::MemPtr { class: relabel_ty(db, class), pointee: relabel_ty(db, pointee) }
        }
        // `_Multi_array<_Result_type (*)(_Visitor, _Variants...)>`: the
        // signature's parameters are the pattern's too; a trailing pack
        // becomes one unique type (no longer a pack to deduce).
        TyKind::Func(mut f) => {
            f.ret = relabel_ty(db, f.ret);
            f.params = f.params.iter().map(|p| relabel_ty(db, *p)).collect();
            TyKind::Func(f)
        }
        TyKind::Dependent(s) if s.starts_with("pack:") => TyKind::Dependent(format!("unique{s}")),
        TyKind::App(a) => {
            TyKind::App(AppId::new(db, a.template(db), a.args(db).iter().map(|x| relabel(db, x)).collect::<Vec<_>>()))
        }
        TyKind::ParamApp { depth: 1, index, args } => {
            TyKind::ParamApp { depth: 2, index, args: args.iter().map(|x| relabel(db, x)).collect() }
        }
        _ => return t,
    };
    mk(db, k)
}

fn display_pattern(db: &dyn SourceDatabase, s: ClassId) -> String {
    let tree = item_tree_of(db, s.item(db));
    let d = &tree.classes[s.idx(db) as usize];
    let args: Vec<String> = d.spec_args.iter().flatten().map(|a| a.to_string()).collect();
    format!("{}<{}>", d.name.clone().unwrap_or_default(), args.join(", "))
}

/// Resolves a type path that involves templates or the environment (template
/// parameters, template-ids, members of specializations).
pub fn lower_path(cx: LowerCx<'_>, p: &crate::item_tree::Path) -> TyId {
    match resolve(cx, p, Ns::Type) {
        Ok(Resolved::Ty(t)) => t,
        Ok(Resolved::Def(d, env, scope)) => def_to_ty(cx, d, env.as_ref(), scope, None),
        Ok(Resolved::Value(_)) => mk(cx.db, TyKind::Error(crate::error::gap!("`{p}` is a value"))),
        Err(e) => mk(cx.db, e),
    }
}

/// What a path resolves to.
pub enum Resolved {
    Ty(TyId),
    /// A declaration, with the environment of the instance it was found in
    /// (None: not in an instance) and the scope lookup started from.
    Def(Def, Option<Env>, ScopeIdx),
    Value(TemplateArg),
}

fn dependent(s: String) -> TyKind {
    TyKind::Dependent(s)
}

/// Resolves `p`. Errors are `TyKind`s to build.
pub fn resolve(cx: LowerCx<'_>, p: &crate::item_tree::Path, ns: Ns) -> Result<Resolved, TyKind> {
    let db = cx.db;
    let map = cx.map;
    let (first, rest) = p.segments.split_first().ok_or_else(|| TyKind::Error("empty path".into()))?;
    let last_ns = |i: usize| if i + 1 == p.segments.len() { ns } else { Ns::Scope };
    // The first segment: a template parameter, or ordinary lookup.
    let mut cur: Resolved = 'first: {
        if !p.global
            && let Some(a) = cx.env.and_then(|e| e.get(&first.name))
        {
            break 'first match (a, &first.args) {
                (TemplateArg::Type(t), None) => Resolved::Ty(*t),
                (TemplateArg::Template(TemplateRef::Class(c)), Some(args)) => {
                    Resolved::Ty(apply(cx, *c, Vec::new(), args))
                }
                (TemplateArg::Template(TemplateRef::MemberClass(i, c)), Some(args)) => {
                    Resolved::Ty(apply(cx, *c, i.args(db).clone(), args))
                }
                (TemplateArg::Template(TemplateRef::Alias(t)), Some(args)) => Resolved::Ty(apply_alias(cx, *t, args)),
                (TemplateArg::Template(TemplateRef::Member(i, t)), Some(args)) => {
                    Resolved::Ty(apply_alias_in(cx, *t, args, inst_env(db, *i).ok().as_ref()))
                }
                (TemplateArg::Dependent(s), _) => return Err(dependent(s.clone())),
                (TemplateArg::Template(TemplateRef::Param { depth, index }), Some(args)) => {
                    match crate::templates_params::param_app(cx, *depth, *index, args) {
                        Some(t) => Resolved::Ty(t),
                        None => return Err(dependent(p.to_string())),
                    }
                }
                (TemplateArg::Template(TemplateRef::Param { .. }), _) => return Err(dependent(p.to_string())),
                (a @ (TemplateArg::Value(..) | TemplateArg::ValueParam { .. }), None) => Resolved::Value(a.clone()),
                (TemplateArg::Pack(_), _) => {
                    return Err(TyKind::Error(crate::error::gap!("unexpanded pack `{}`", first.name)));
                }
                _ => return Err(TyKind::Error(crate::error::gap!("bad use of template parameter `{}`", first.name))),
            };
        }
        // A name a block-scope using-declaration brought in: what it
        // names, looked up as written there (that lookup sees no
        // using-declaration of the block, so `using a::a;` ends).
        if !p.global
            && let Some(u) = cx.env.and_then(|e| e.using(&first.name))
        {
            let mut q = u.clone();
            if let Some(l) = q.segments.last_mut() {
                l.args = first.args.clone();
            }
            q.segments.extend(rest.iter().cloned());
            let outer = cx.env.map(|e| Env { usings: Vec::new(), ..e.clone() });
            return resolve(LowerCx { env: outer.as_ref(), ..cx }, &q, ns);
        }
        // `decltype(__test<_Tp>(12))::value` (libcu++'s detection traits);
        // one naming a body's locals is bound in the environment by the
        // body's inference, under its token text (`bind_expr_decltypes`).
        if first.args.is_none() && !rest.is_empty() && first.name.starts_with("decltype(") {
            let key: String = first.name.chars().filter(|c| !c.is_whitespace()).collect();
            if let Some(TemplateArg::Type(t)) = cx.env.and_then(|e| e.get(&key)) {
                break 'first Resolved::Ty(*t);
            }
            if let Some(t) = crate::infer::decltype_text(cx, &first.name) {
                break 'first Resolved::Ty(t);
            }
        }
        let want = if first.args.is_some() { Ns::Type } else { last_ns(0) };
        if base_lookup::applies(p)
            && let Some(r) = base_lookup::nondependent_base_member(cx, &first.name, want)
        {
            break 'first r;
        }
        let d = if p.global {
            scopes::lookup_member(db, map, scopes::ROOT, &first.name, want)
        } else {
            scopes::lookup(db, map, cx.scope, &first.name, want)
        };
        let Some(d) = d else {
            if first.args.is_none()
                && !p.global
                && let Some(r) = using_of_dependent_base(cx, &first.name, want)
            {
                break 'first r;
            }
            return Err(TyKind::Error(crate::SemaError::not_found(format!("unresolved type `{p}`"))));
        };
        match (&d, &first.args) {
            (_, None) => Resolved::Def(d, cx.env.cloned(), cx.scope),
            (Def::ClassTemplate(c), Some(args)) => {
                let outer = outer_args_for(cx, *c);
                Resolved::Ty(apply(cx, *c, outer, args))
            }
            (Def::AliasTemplate(t), Some(args)) => Resolved::Ty(apply_alias(cx, *t, args)),
            // A member alias named after the template it names (CUB's `using
            // BlockRakingLayout = BlockRakingLayout<T, BLOCK_THREADS>;`): it
            // is declared only after its type-id ([basic.scope.pdecl]/3), so
            // there the name is the enclosing scope's template; the
            // arguments are still read here.
            (Def::Typedef(td), Some(args)) => {
                let outer = map.parent.get(&DeclKey::Typedef(*td)).and_then(|&s| map.scope(s).parent);
                match outer.and_then(|o| scopes::lookup(db, map, o, &first.name, Ns::Type)) {
                    Some(Def::ClassTemplate(c)) => {
                        let outer = outer_args_for(cx, c);
                        Resolved::Ty(apply(cx, c, outer, args))
                    }
                    Some(Def::AliasTemplate(t)) => Resolved::Ty(apply_alias(cx, t, args)),
                    _ => return Err(TyKind::Error(crate::error::gap!("`{}` is not a template", first.name))),
                }
            }
            _ => return Err(TyKind::Error(crate::error::gap!("`{}` is not a template", first.name))),
        }
    };
    for (i, seg) in rest.iter().enumerate() {
        let want = if seg.args.is_some() { Ns::Type } else { last_ns(i + 1) };
        // A class or typedef that is (or names) a specialization: go through its type.
        if let Resolved::Def(d, env, from) = &cur {
            let conv = match d {
                Def::ClassTemplate(c) => {
                    let cs = map.class_scope.get(c).copied();
                    env.as_ref().is_some_and(|e| cs.is_some_and(|s| e.scopes.contains(&s)))
                }
                Def::Class(_) => env.is_some(),
                Def::Typedef(_) => true,
                _ => false,
            };
            if conv {
                let t = ty::canonical(db, def_to_ty(cx, d.clone(), env.as_ref(), *from, None));
                // A member typedef of an instance (`remove_reference<_Ep>::type`)
                // names what its substituted type is: a plain class (a
                // non-template deleter), whose scope `scope_of` cannot see
                // through the unsubstituted typedef, or a type without
                // members (a closure, a pointer: `::pointer` is then a
                // substitution failure, as `unique_ptr`'s `_Ptr` asks).
                let plain = matches!(d, Def::Typedef(_)) && env.is_some();
                if plain
                    || matches!(
                        t.kind(db),
                        TyKind::App(_)
                            | TyKind::Inst(_)
                            | TyKind::Dependent(_)
                            | TyKind::Error(_)
                            | TyKind::TemplateParam { .. }
                    )
                {
                    cur = Resolved::Ty(t);
                }
            }
        }
        // Find the member in what we have so far.
        let (d, env, scope) = match cur {
            Resolved::Ty(t) => {
                let t = ty::canonical(db, t);
                // `typename T::x` with `T = volatile C`: a cv-qualified class
                // names the class ([basic.lookup.qual]).
                let t = match t.kind(db) {
                    TyKind::Qualified(inner, _) => ty::canonical(db, *inner),
                    _ => t,
                };
                match t.kind(db) {
                    TyKind::App(_) | TyKind::Inst(_) => {
                        let inst = match class_of(db, t) {
                            Ok(x) => x,
                            Err(e) => return Err(TyKind::Error(e)),
                        };
                        match member_of(db, inst, &seg.name, want, 0) {
                            Some((d, env, scope)) => (d, env, scope),
                            // `typename X<T>::type` with `T` a pattern's parameter: the
                            // member may come from a dependent base or a specialization
                            // not chosen yet, so it is a dependent type, not an error.
                            None if matches!(t.kind(db), TyKind::App(a) if a.args(db).iter().any(|x| crate::consteval::var_template::dependent(db, x))) =>
                            {
                                return Err(dependent(format!("{}::{}", ty::display(db, t), seg.name)));
                            }
                            None => {
                                return Err(TyKind::Error(crate::error::subst_failure!(
                                    "no member `{}` in {}",
                                    seg.name,
                                    ty::display(db, t)
                                )));
                            }
                        }
                    }
                    TyKind::Class(c) => {
                        let Some(&s) = map.class_scope.get(&map.class_definition(*c)) else {
                            return Err(TyKind::Error(crate::error::gap!("incomplete {}", ty::display(db, t))));
                        };
                        match scopes::lookup_member(db, map, s, &seg.name, want) {
                            Some(d) => (d, None, s),
                            None => match member_of(db, ClassRefT::Class(*c), &seg.name, want, 0) {
                                // In a specialization base.
                                Some(found) => found,
                                None => {
                                    return Err(TyKind::Error(crate::error::subst_failure!(
                                        "no member `{}` in {}",
                                        seg.name,
                                        ty::display(db, t)
                                    )));
                                }
                            },
                        }
                    }
                    TyKind::Enum(e) => {
                        let Some(&s) = map.enum_scope.get(e) else { return Err(TyKind::Error("enum".into())) };
                        match scopes::lookup_member(db, map, s, &seg.name, want) {
                            Some(d) => (d, None, s),
                            None => return Err(TyKind::Error(crate::error::gap!("no enumerator `{}`", seg.name))),
                        }
                    }
                    TyKind::Dependent(s) => return Err(dependent(format!("{s}::{}", seg.name))),
                    TyKind::TemplateParam { .. } => return Err(dependent(p.to_string())),
                    TyKind::Error(e) => return Err(TyKind::Error(e.clone())),
                    // A closure type declares no member types
                    // ([expr.prim.lambda.closure]).
                    TyKind::Closure(_) => {
                        return Err(TyKind::Error(crate::error::subst_failure!(
                            "no member `{}` in a closure type",
                            seg.name
                        )));
                    }
                    _ => {
                        return Err(TyKind::Error(crate::error::subst_failure!(
                            "`{}` is not a class",
                            ty::display(db, t)
                        )));
                    }
                }
            }
            Resolved::Def(d, env, _from) => {
                let Some(s) = scopes::scope_of(db, map, &d) else {
                    return Err(TyKind::Error(crate::error::gap!("`{}` is not a scope", p)));
                };
                match scopes::lookup_member(db, map, s, &seg.name, want) {
                    Some(d2) => (d2, env.filter(|e| e.scopes.contains(&s)), s),
                    // A member of a specialization base of a plain class
                    // (`struct N : bool_constant<true> {}`, `N::value`): the
                    // scope graph knows only plain bases.
                    None => match &d {
                        Def::Class(k) if env.is_none() => match member_of(db, ClassRefT::Class(*k), &seg.name, want, 0)
                        {
                            Some(found) => found,
                            None => {
                                return Err(TyKind::Error(crate::SemaError::not_found(format!(
                                    "unresolved type `{p}`"
                                ))));
                            }
                        },
                        _ => return Err(TyKind::Error(crate::SemaError::not_found(format!("unresolved type `{p}`")))),
                    },
                }
            }
            Resolved::Value(_) => return Err(TyKind::Error(crate::error::gap!("`{p}`: a value has no members"))),
        };
        let _ = scope;
        cur = match (&d, &seg.args) {
            (_, None) => Resolved::Def(d, env, scope),
            (Def::ClassTemplate(c), Some(args)) => {
                let ecx = LowerCx { env: env.as_ref().or(cx.env), ..cx };
                let outer = match &env {
                    Some(e) => e
                        .args
                        .get(
                            ..outer_arity(
                                db,
                                map,
                                map.parent.get(&DeclKey::Class(*c)).copied().unwrap_or(scopes::ROOT),
                            ),
                        )
                        .map(<[_]>::to_vec)
                        .unwrap_or_default(),
                    None => Vec::new(),
                };
                let _ = ecx;
                Resolved::Ty(apply(cx, *c, outer, args))
            }
            (Def::AliasTemplate(t), Some(args)) => {
                // Written arguments are lowered where they are written (cx);
                // the alias sees the instance's environment.
                Resolved::Ty(apply_alias_in(cx, *t, args, env.as_ref()))
            }
            _ => return Err(TyKind::Error(crate::error::gap!("`{}` is not a template", seg.name))),
        };
    }
    Ok(cur)
}

fn apply_alias_in(cx: LowerCx<'_>, t: TypedefId, written: &[TemplateArgRef], inst_env: Option<&Env>) -> TyId {
    // Lower the written arguments here, then let the alias see the instance.
    match inst_env {
        None => apply_alias(cx, t, written),
        Some(ie) => {
            let db = cx.db;
            let tree = item_tree_of(db, t.item(db));
            let params = tree.typedefs.get(t.idx(db) as usize).and_then(|d| d.tparams.clone()).unwrap_or_default();
            let args = match bind(cx, &params, written, &mut |_, _| None) {
                Ok(a) => a,
                Err(e) => return mk(db, TyKind::Error(e)),
            };
            let mut env = ie.clone();
            let mut refs = Vec::new();
            for (k, a) in args.into_iter().enumerate() {
                let name = format!("__arg{k}");
                env.names.push((name.clone(), a));
                refs.push(TemplateArgRef::Type(TypeRef::Path(crate::item_tree::Path::single(&name))));
            }
            // Bound through names: kinds are re-read from the parameters.
            let refs: Vec<TemplateArgRef> = refs
                .into_iter()
                .zip(&params)
                .map(|(r, p)| match (&p.kind, r) {
                    (TemplateParamKind::Value(_), TemplateArgRef::Type(TypeRef::Path(x))) => {
                        TemplateArgRef::Expr(ConstExpr::Path(x))
                    }
                    (_, r) => r,
                })
                // A pack is bound whole: `__argk...` gives its elements.
                .zip(&params)
                .map(|(r, p)| if p.pack { TemplateArgRef::Expansion(Box::new(r)) } else { r })
                .collect();
            apply_alias(LowerCx { env: Some(&env), ..cx }, t, &refs)
        }
    }
}

/// A member class template of the current instantiation named by its own
/// name (`specialize_plan<PtxPlan>` inside `ReduceByKeyAgent<…>`): the
/// template of that specialization, applied later with its arguments as
/// the outer ones (as `Agent::template PtxPlan` is, `member_template.rs`).
fn member_of_current(cx: LowerCx<'_>, c: ClassId) -> Option<TemplateRef> {
    let env = cx.env?;
    let parent = cx.map.parent.get(&DeclKey::Class(c)).copied()?;
    let ScopeKind::Class(k) = cx.map.scope(parent).kind else { return None };
    if !env.scopes.contains(&parent) {
        return None;
    }
    let n = outer_arity(cx.db, cx.map, parent);
    let args = env.args.get(..n).filter(|a| !a.is_empty())?;
    Some(TemplateRef::MemberClass(InstId::new(cx.db, k, args.to_vec()), c))
}

/// The outer arguments for a class template found by lookup from `cx`: those
/// of the current instantiation when it is a member of it.
fn outer_args_for(cx: LowerCx<'_>, c: ClassId) -> Vec<TemplateArg> {
    let Some(env) = cx.env else { return Vec::new() };
    let parent = cx.map.parent.get(&DeclKey::Class(c)).copied().unwrap_or(scopes::ROOT);
    if env.scopes.contains(&parent) {
        let n = outer_arity(cx.db, cx.map, parent);
        return env.args.get(..n).map(<[_]>::to_vec).unwrap_or_default();
    }
    Vec::new()
}

/// The type a declaration found by lookup denotes, substituting members of
/// the instance `env` describes.
pub fn def_to_ty(
    cx: LowerCx<'_>,
    d: Def,
    env: Option<&Env>,
    _from: ScopeIdx,
    _args: Option<&[TemplateArgRef]>,
) -> TyId {
    let db = cx.db;
    let map = cx.map;
    let in_env = |s: Option<ScopeIdx>| -> bool { s.is_some_and(|s| env.is_some_and(|e| e.scopes.contains(&s))) };
    let k = match d {
        Def::Class(c) => {
            let c = map.class_definition(c);
            let parent = map.parent.get(&DeclKey::Class(c)).copied();
            if in_env(parent) {
                let env = env.expect("in env");
                let n = parent.map_or(0, |p| outer_arity(db, map, p));
                TyKind::Inst(InstId::new(db, c, env.args.get(..n).map(<[_]>::to_vec).unwrap_or_default()))
            } else if parent.is_some_and(|p| map.templated.contains(&p)) {
                TyKind::Dependent(crate::layout::class_name(db, c))
            } else {
                TyKind::Class(c)
            }
        }
        Def::Typedef(td) => {
            let parent = map.parent.get(&DeclKey::Typedef(td)).copied();
            if in_env(parent) {
                let tree = item_tree_of(db, td.item(db));
                let Some(data) = tree.typedefs.get(td.idx(db) as usize) else {
                    return mk(db, TyKind::Error("typedef".into()));
                };
                let scope = parent.expect("in env");
                let tcx = LowerCx { db, map, item: td.item(db), scope, env };
                return nested(|| Ok(ty::lower(tcx, &data.ty))).unwrap_or_else(|e| mk(db, TyKind::Error(e)));
            } else if parent.is_some_and(|p| map.templated.contains(&p)) {
                TyKind::Dependent("member typedef of a template".to_string())
            } else {
                TyKind::Typedef(td)
            }
        }
        Def::Enum(e) => TyKind::Enum(e),
        Def::ClassTemplate(c) => {
            // The injected-class-name: the current instantiation.
            let cs = map.class_scope.get(&c).copied();
            match (env, cs) {
                (Some(e), Some(s)) if e.scopes.contains(&s) => {
                    let n = chain(db, map, c).iter().map(|(_, _, p)| p.as_ref().map_or(0, |p| p.len())).sum::<usize>();
                    let args = e.args.get(..n).map(<[_]>::to_vec).unwrap_or_default();
                    TyKind::App(AppId::new(db, canonical_template(map, c), args))
                }
                _ => match env.and_then(|e| injected::in_partial_specialization(db, map, c, e)) {
                    Some(k) => k,
                    None => TyKind::Error(crate::error::gap!(
                        "template `{}` used without arguments",
                        crate::layout::class_name(db, c)
                    )),
                },
            }
        }
        Def::AliasTemplate(_) | Def::Template => TyKind::Error("template used without arguments".into()),
        _ => TyKind::Error("not a type".into()),
    };
    mk(db, k)
}

/// The class a (canonical) App or Inst type denotes.
pub fn class_of(db: &dyn SourceDatabase, t: TyId) -> Result<ClassRefT, crate::SemaError> {
    match t.kind(db) {
        TyKind::App(a) => match select(db, *a)? {
            Selected::Class(c) => Ok(ClassRefT::Class(c)),
            Selected::Inst(i) => Ok(ClassRefT::Inst(i)),
        },
        TyKind::Inst(i) => Ok(ClassRefT::Inst(*i)),
        TyKind::Class(c) => Ok(ClassRefT::Class(*c)),
        _ => Err("not a class".into()),
    }
}

pub use crate::layout::ClassRef as ClassRefT;

/// Looks `name` up as a member of a class (instance or not): its own scope,
/// then its bases (instantiated). Returns the declaration, the environment
/// it is to be read in and its scope.
/// `using Base<T>::value;` in a class template, found by unqualified lookup
/// from inside an instance: the base is dependent, so the declaration names
/// something only with the instance's arguments (`cx.env`).
fn using_of_dependent_base(cx: LowerCx<'_>, name: &str, ns: Ns) -> Option<Resolved> {
    let env = cx.env?;
    let mut cur = Some(cx.scope);
    let mut steps = 0;
    while let Some(s) = cur {
        steps += 1;
        if steps > 64 {
            return None;
        }
        let scope = cx.map.scope(s);
        if matches!(scope.kind, ScopeKind::Class(_)) && env.scopes.contains(&s) {
            for d in scope.names.get(name).into_iter().flatten() {
                if let Def::UsingDecl(from, path) = d {
                    let inner = LowerCx { scope: *from, ..cx };
                    // Bounded: a declaration that names itself
                    // (`using typename B<T>::e;` in `B`) ends.
                    if let Some(Ok(r @ (Resolved::Def(..) | Resolved::Ty(_) | Resolved::Value(_)))) =
                        through_using(|| resolve(inner, path, ns))
                    {
                        return Some(r);
                    }
                }
            }
        }
        cur = scope.parent;
    }
    None
}

pub fn member_of(
    db: &dyn SourceDatabase,
    c: ClassRefT,
    name: &str,
    ns: Ns,
    depth: u32,
) -> Option<(Def, Option<Env>, ScopeIdx)> {
    if depth > 32 {
        return None;
    }
    let (class, env) = match c {
        ClassRefT::Class(k) => (k, None),
        ClassRefT::Inst(i) => (i.class(db), Some(inst_env(db, i).ok()?)),
    };
    let map = def_map(db, class.tu(db));
    let class = map.class_definition(class);
    let s = *map.class_scope.get(&class)?;
    if let Some(v) = map.scope(s).names.get(name) {
        let d = v
            .iter()
            .find(|d| match ns {
                Ns::Value => matches!(d, Def::Var(_) | Def::Enumerator(..) | Def::Value),
                _ => matches!(
                    d,
                    Def::Class(_)
                        | Def::Typedef(_)
                        | Def::Enum(_)
                        | Def::ClassTemplate(_)
                        | Def::AliasTemplate(_)
                        | Def::Var(_)
                        | Def::Enumerator(..)
                ),
            })
            .or_else(|| v.first())
            .cloned();
        if let Some(d) = d {
            let d = match d {
                Def::UsingDecl(from, p) => {
                    // `using Base::type;`: resolve in the instance.
                    let cx = LowerCx { db, map: &map, item: class.item(db), scope: from, env: env.as_ref() };
                    return match through_using(|| resolve(cx, &p, ns)) {
                        Some(Ok(Resolved::Def(d, e, sc))) => Some((d, e, sc)),
                        _ => None,
                    };
                }
                d => d,
            };
            return Some((d, env, s));
        }
    }
    // Enumerators of unscoped enums are in the class scope already; bases next.
    for b in class_bases_of(db, c).iter() {
        if let Some(bc) = b.class
            && let Some(r) = member_of(db, bc, name, ns, depth + 1)
        {
            return Some(r);
        }
    }
    None
}

/// The bases of a class or an instance.
pub fn class_bases_of(db: &dyn SourceDatabase, c: ClassRefT) -> Arc<Vec<ty::BaseInfo>> {
    match c {
        ClassRefT::Class(k) => ty::class_bases(db, k),
        ClassRefT::Inst(i) => inst_bases(db, i),
    }
}

crate::consteval::var_template::recorded_query! {
    /// The bases of an instance, substituted (pack expansions expanded).
    pub fn inst_bases(i: InstId) -> Arc<Vec<ty::BaseInfo>> = inst_bases_of;
    tracked inst_bases_uses;
    cycle inst_bases_uses_cycle => inst_bases_cycle;
}

fn inst_bases_of(db: &dyn SourceDatabase, i: InstId) -> Arc<Vec<ty::BaseInfo>> {
    let class = i.class(db);
    let map = def_map(db, class.tu(db));
    let tree = item_tree_of(db, class.item(db));
    let Some(data) = tree.classes.get(class.idx(db) as usize) else { return Arc::new(Vec::new()) };
    let env = match inst_env(db, i) {
        Ok(e) => e,
        Err(e) => {
            return Arc::new(vec![ty::BaseInfo {
                class: None,
                ty: None,
                is_virtual: false,
                access: crate::item_tree::Access::Public,
                error: Some(ty::BaseError::Template(e.to_string())),
            }]);
        }
    };
    // Bases are looked up from inside the class (they may name members of the enclosing instance).
    let scope = map.parent.get(&DeclKey::Class(class)).copied().unwrap_or(scopes::ROOT);
    let scope = map.class_scope.get(&class).copied().unwrap_or(scope);
    let mut out = Vec::new();
    for b in &data.bases {
        let mut tys = Vec::new();
        if b.pack {
            let cx = LowerCx { db, map: &map, item: class.item(db), scope, env: Some(&env) };
            match expand(cx, &TemplateArgRef::Type(b.ty.clone())) {
                Ok(v) => {
                    for a in v {
                        match a {
                            TemplateArg::Type(t) => tys.push(t),
                            _ => tys.push(mk(db, TyKind::Error("pack base is not a type".into()))),
                        }
                    }
                }
                Err(e) => tys.push(mk(db, TyKind::Error(e))),
            }
        } else {
            let cx = LowerCx { db, map: &map, item: class.item(db), scope, env: Some(&env) };
            let cx = LowerCx { scope: ty::base_scope(&map, class, &b.ty, scope), ..cx };
            tys.push(ty::canonical(db, ty::lower(cx, &b.ty)));
        }
        for t in tys {
            out.push(ty::base_info(db, t, ClassRefT::Inst(i), b.is_virtual, b.access));
        }
    }
    Arc::new(out)
}

fn inst_bases_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _i: InstId) -> Arc<Vec<ty::BaseInfo>> {
    Arc::new(Vec::new())
}

/// The value of a member (static constexpr variable or enumerator) of an
/// instance, or a variable/enumerator of the current instantiation.
pub fn member_value(cx: LowerCx<'_>, d: &Def, env: Option<&Env>) -> Result<consteval::Value, consteval::ConstError> {
    let db = cx.db;
    let map = cx.map;
    match d {
        Def::Var(v) => {
            let parent = map.parent.get(&DeclKey::Var(*v)).copied().unwrap_or(scopes::ROOT);
            let in_env = env.is_some_and(|e| e.scopes.contains(&parent));
            if !in_env {
                return consteval::var_value(db, *v);
            }
            let tree = item_tree_of(db, v.item(db));
            let data = tree.vars.get(v.idx(db) as usize).ok_or(consteval::ConstError::Cycle)?;
            let (true, Some(init)) = (data.is_const, &data.init) else {
                return Err(consteval::ConstError::NotConstant(data.name.clone()));
            };
            let vcx = LowerCx { db, map, item: v.item(db), scope: parent, env };
            let val =
                nested(|| consteval::eval(&EvalCx::new(vcx), init).map_err(|e| crate::SemaError::gap(e.to_string())))
                    .map_err(consteval::ConstError::unsupported)?;
            let t = ty::canonical(db, ty::lower(vcx, &data.ty));
            let b = match t.kind(db) {
                TyKind::Builtin(_) | TyKind::Qualified(..) | TyKind::Enum(_) => value_builtin(db, t),
                _ => val.ty,
            };
            Ok(consteval::Value { v: consteval::convert(val.v, b), ty: b })
        }
        Def::Enumerator(e, k) => {
            let es = map.enum_scope.get(e).copied().and_then(|s| map.scope(s).parent).unwrap_or(scopes::ROOT);
            let in_env = env.is_some_and(|x| x.scopes.contains(&es));
            if !in_env {
                let info = ty::enum_info(db, *e);
                return match info.values.get(*k as usize) {
                    Some(Ok(v)) => Ok(consteval::Value { v: *v, ty: info.underlying }),
                    Some(Err(e)) => Err(e.clone()),
                    None => Err(consteval::ConstError::Cycle),
                };
            }
            let tree = item_tree_of(db, e.item(db));
            let data = tree.enums.get(e.idx(db) as usize).ok_or(consteval::ConstError::Cycle)?;
            let ecx = LowerCx { db, map, item: e.item(db), scope: es, env };
            let mut next = 0i128;
            for (i, (_, init)) in data.enumerators.iter().enumerate() {
                let v = match init {
                    Some(x) => consteval::eval(&EvalCx::new(ecx), x)?.v,
                    None => next,
                };
                if i == *k as usize {
                    return Ok(consteval::Value { v, ty: Builtin::Int });
                }
                next = v + 1;
            }
            Err(consteval::ConstError::Cycle)
        }
        _ => Err(consteval::ConstError::NotConstant("not a constant".into())),
    }
}

/// Whether class `c` is a template pattern or declared inside one.
pub fn is_templated(db: &dyn SourceDatabase, map: &DefMap, c: ClassId) -> bool {
    let tree = item_tree_of(db, c.item(db));
    let data = &tree.classes[c.idx(db) as usize];
    match data.template {
        TemplateKind::Primary => return true,
        TemplateKind::Specialization if data.tparams.as_ref().is_some_and(|p| !p.is_empty()) => return true,
        _ => {}
    }
    map.parent.get(&DeclKey::Class(c)).is_some_and(|p| map.templated.contains(p))
}

/// A readable spelling of an argument list.
pub fn display_args(db: &dyn SourceDatabase, args: &[TemplateArg]) -> String {
    let parts: Vec<String> = flat(args).iter().map(|a| display_arg(db, a)).collect();
    parts.join(", ")
}

fn display_arg(db: &dyn SourceDatabase, a: &TemplateArg) -> String {
    match a {
        TemplateArg::Type(t) => ty::display(db, *t),
        TemplateArg::Value(v, t) => match ty::canonical(db, *t).kind(db) {
            TyKind::Builtin(Builtin::Bool) => (if *v != 0 { "true" } else { "false" }).to_string(),
            _ => v.to_string(),
        },
        TemplateArg::Template(TemplateRef::Class(c)) => crate::layout::class_name(db, *c),
        TemplateArg::Template(TemplateRef::MemberClass(i, c)) => {
            format!("{}::{}", inst_name(db, *i), crate::layout::class_name(db, *c))
        }
        TemplateArg::Template(TemplateRef::Alias(t) | TemplateRef::Member(_, t)) => {
            let tree = item_tree_of(db, t.item(db));
            tree.typedefs.get(t.idx(db) as usize).map(|d| d.name.clone()).unwrap_or_default()
        }
        TemplateArg::Template(TemplateRef::Param { depth, index }) | TemplateArg::ValueParam { depth, index } => {
            format!("P{depth}_{index}")
        }
        TemplateArg::Pack(v) => display_args(db, v),
        TemplateArg::Dependent(s) => s.clone(),
        TemplateArg::Addr(e, _) => format!("&{}", crate::symbols::mangled_name(db, *e).unwrap_or_default()),
    }
}

/// The display name of an instance: the pattern's qualified name with the
/// arguments of each template level (`std::pair<int, double>`,
/// `A<int>::B`).
pub fn inst_name(db: &dyn SourceDatabase, i: InstId) -> String {
    level_names(db, i, &|db, a| display_arg(db, a), &|db, c| Some(crate::layout::class_name(db, c)))
        .unwrap_or_else(|| "?".into())
}

/// Builds a name level by level; `arg` spells an argument, `base` the
/// outermost templated class's qualified name.
fn level_names(
    db: &dyn SourceDatabase,
    i: InstId,
    arg: &dyn Fn(&dyn SourceDatabase, &TemplateArg) -> String,
    base: &dyn Fn(&dyn SourceDatabase, ClassId) -> Option<String>,
) -> Option<String> {
    let class = i.class(db);
    let map = def_map(db, class.tu(db));
    let args = i.args(db);
    let ch = chain(db, &map, class);
    let mut out = String::new();
    let mut k = 0;
    for (n, (c, _, params)) in ch.iter().enumerate() {
        let c = c.as_ref()?;
        let tree = item_tree_of(db, c.item(db));
        let data = &tree.classes[c.idx(db) as usize];
        if n == 0 {
            // The enclosing namespaces, with the name: the primary template's.
            let named = match data.template {
                TemplateKind::Specialization => {
                    map.specializations.iter().find(|(_, v)| v.contains(c)).map(|(p, _)| *p)?
                }
                _ => *c,
            };
            out.push_str(&base(db, named)?);
        } else {
            out.push_str("::");
            out.push_str(data.name.as_deref()?);
        }
        let np = params.as_ref().map_or(0, |p| p.len());
        let level_args = args.get(k..k + np)?.to_vec();
        k += np;
        let shown: Vec<TemplateArg> = if data.template == TemplateKind::Specialization && params.is_some() {
            // A partial specialization: the arguments it matched.
            let env = env_for(db, &map, *c, args.get(..k)?).ok()?;
            pattern_args(db, &map, *c, &env).ok()?
        } else {
            level_args
        };
        if params.is_some() {
            let parts: Vec<String> = flat(&shown).iter().map(|a| arg(db, a)).collect();
            let s = parts.join(", ");
            out.push('<');
            out.push_str(&s);
            if s.ends_with('>') {
                out.push(' ');
            }
            out.push('>');
        }
    }
    Some(out)
}

/// How C++ code after the unit names a type (`::std::pair<int, double>`), or None.
pub fn cxx_type(db: &dyn SourceDatabase, t: TyId) -> Option<String> {
    Some(match t.kind(db) {
        TyKind::Builtin(b) => ty::builtin_name(*b).to_string(),
        TyKind::Ptr(x) => match x.kind(db) {
            TyKind::Func(_) | TyKind::Array(..) => return None,
            _ => format!("{}*", cxx_type(db, *x)?),
        },
        TyKind::LRef(x) => format!("{}&", cxx_type(db, *x)?),
        TyKind::RRef(x) => format!("{}&&", cxx_type(db, *x)?),
        TyKind::Qualified(x, cv) => {
            let mut s = cxx_type(db, *x)?;
            if matches!(x.kind(db), TyKind::Array(..) | TyKind::Func(_)) {
                return None;
            }
            if cv.c {
                s.push_str(" const");
            }
            if cv.v {
                s.push_str(" volatile");
            }
            s
        }
        TyKind::Class(c) => crate::layout::cxx_spelling(db, *c)?,
        TyKind::App(a) => match select(db, *a).ok()? {
            Selected::Class(_) | Selected::Inst(_) => {
                let template = a.template(db);
                let name = class_path(db, template)?;
                let parts: Option<Vec<String>> = flat(a.args(db)).iter().map(|x| cxx_arg(db, x)).collect();
                let s = parts?.join(", ");
                if s.ends_with('>') { format!("{name}<{s} >") } else { format!("{name}<{s}>") }
            }
        },
        TyKind::Inst(i) if !chain_is_public(db, *i) => return None,
        TyKind::Inst(i) => {
            level_names(db, *i, &|db, a| cxx_arg(db, a).unwrap_or_else(|| "?".into()), &|db, c| class_path(db, c))
                .filter(|s| !s.contains('?'))?
        }
        TyKind::Enum(e) => {
            let map = def_map(db, e.item(db).tu(db));
            let tree = item_tree_of(db, e.item(db));
            let name = tree.enums.get(e.idx(db) as usize)?.name.clone()?;
            let parent = map.parent.get(&DeclKey::Enum(*e)).copied()?;
            format!("{}::{name}", scope_path(db, &map, parent)?)
        }
        _ => return None,
    })
}

/// Whether every nested class of an instance's chain is public (C++ can name it).
fn chain_is_public(db: &dyn SourceDatabase, i: InstId) -> bool {
    let class = i.class(db);
    let map = def_map(db, class.tu(db));
    chain(db, &map, class).iter().skip(1).all(|(c, _, _)| {
        let Some(c) = c else { return false };
        let tree = item_tree_of(db, c.item(db));
        let d = &tree.classes[c.idx(db) as usize];
        d.access == crate::item_tree::Access::Public && !d.anonymous_member && d.name.is_some()
    })
}

fn cxx_arg(db: &dyn SourceDatabase, a: &TemplateArg) -> Option<String> {
    Some(match a {
        TemplateArg::Type(t) => cxx_type(db, *t)?,
        TemplateArg::Value(v, t) => {
            let t = ty::canonical(db, *t);
            match t.kind(db) {
                TyKind::Builtin(Builtin::Bool) => (if *v != 0 { "true" } else { "false" }).to_string(),
                TyKind::Builtin(b) => format!("(({}){v})", ty::builtin_name(*b)),
                TyKind::Enum(_) => format!("(({}){v})", cxx_type(db, t)?),
                _ => return None,
            }
        }
        TemplateArg::Template(TemplateRef::Class(c)) => class_path(db, *c)?,
        _ => return None,
    })
}

/// `::ns::Name` of a class template or class (no elaboration).
fn class_path(db: &dyn SourceDatabase, c: ClassId) -> Option<String> {
    let map = def_map(db, c.tu(db));
    let tree = item_tree_of(db, c.item(db));
    let data = tree.classes.get(c.idx(db) as usize)?;
    if data.access != crate::item_tree::Access::Public || data.qualifier.is_some() {
        return None;
    }
    let name = data.name.clone()?;
    let parent = map.parent.get(&DeclKey::Class(c)).copied()?;
    Some(format!("{}::{name}", scope_path(db, &map, parent)?))
}

/// `::a::b` for a namespace scope (empty for the global one); None for
/// anonymous namespaces and class scopes.
fn scope_path(db: &dyn SourceDatabase, map: &DefMap, s: ScopeIdx) -> Option<String> {
    let mut parts = Vec::new();
    let mut cur = Some(s);
    while let Some(c) = cur {
        let scope = map.scope(c);
        match &scope.kind {
            ScopeKind::Root => break,
            ScopeKind::Namespace { name: Some(n), .. } => parts.push(n.clone()),
            ScopeKind::Class(k) if !map.templated.contains(&c) => {
                let t = item_tree_of(db, k.item(db));
                let d = &t.classes[k.idx(db) as usize];
                if d.access != crate::item_tree::Access::Public || d.qualifier.is_some() {
                    return None;
                }
                parts.push(d.name.clone()?);
            }
            _ => return None,
        }
        cur = scope.parent;
    }
    parts.reverse();
    Some(parts.iter().map(|p| format!("::{p}")).collect())
}

/// `t` without top-level cv-qualifiers.
fn strip_cv(db: &dyn SourceDatabase, t: TyId) -> TyId {
    match t.kind(db) {
        TyKind::Qualified(x, _) => *x,
        _ => t,
    }
}

/// Why a type trait builtin has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraitError {
    /// This evaluator does not decide the trait, or not on these types:
    /// another one may (`consteval::traits`).
    NotEvaluated(String),
    /// The trait is decided here, and its arguments failed (a layout, an
    /// instantiation).
    Failed(String),
}

impl std::fmt::Display for TraitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TraitError::NotEvaluated(s) | TraitError::Failed(s) => f.write_str(s),
        }
    }
}

impl From<String> for TraitError {
    fn from(s: String) -> TraitError {
        TraitError::Failed(s)
    }
}

impl From<crate::SemaError> for TraitError {
    fn from(e: crate::SemaError) -> TraitError {
        TraitError::Failed(e.to_string())
    }
}

impl From<&str> for TraitError {
    fn from(s: &str) -> TraitError {
        TraitError::Failed(s.to_string())
    }
}

/// A type trait builtin on types (spec 50 §1).
pub fn type_trait(db: &dyn SourceDatabase, name: &str, tys: &[TyId]) -> Result<bool, TraitError> {
    let class = |t: TyId| -> Option<ClassRefT> {
        let t = ty::canonical(db, t);
        let t = match t.kind(db) {
            TyKind::Qualified(x, _) => *x,
            _ => t,
        };
        class_of(db, t).ok()
    };
    let key = |c: ClassRefT| -> Option<crate::item_tree::ClassKey> {
        let k = match c {
            ClassRefT::Class(k) => k,
            ClassRefT::Inst(i) => i.class(db),
        };
        Some(item_tree_of(db, k.item(db)).classes.get(k.idx(db) as usize)?.key)
    };
    let t0 = *tys.first().ok_or("trait without a type")?;
    let c0 = ty::canonical(db, t0);
    if let TyKind::Closure(cl) = strip_cv(db, c0).kind(db)
        && let Some(v) = closure_trait(db, *cl, name)
    {
        return v;
    }
    Ok(match name {
        "is_same" => {
            let t1 = *tys.get(1).ok_or("is_same needs two types")?;
            c0 == ty::canonical(db, t1)
        }
        // A closure type is a (non-union) class type ([expr.prim.lambda.closure]/1).
        "is_class" => {
            matches!(strip_cv(db, c0).kind(db), TyKind::Closure(_))
                || class(t0).and_then(key).is_some_and(|k| k != crate::item_tree::ClassKey::Union)
        }
        "is_union" => class(t0).and_then(key) == Some(crate::item_tree::ClassKey::Union),
        "is_enum" => matches!(c0.kind(db), TyKind::Enum(_)),
        "is_empty" => match class(t0) {
            Some(c) => crate::layout::layout_ref(db, c).map_err(|e| e.to_string())?.empty,
            None => false,
        },
        "is_polymorphic" => match class(t0) {
            Some(c) => crate::layout::layout_ref(db, c).map_err(|e| e.to_string())?.dynamic,
            None => false,
        },
        "is_final" => match class(t0) {
            Some(c) => {
                let k = match c {
                    ClassRefT::Class(k) => k,
                    ClassRefT::Inst(i) => i.class(db),
                };
                item_tree_of(db, k.item(db)).classes.get(k.idx(db) as usize).is_some_and(|d| d.is_final)
            }
            None => false,
        },
        "is_pod"
        | "is_trivial"
        | "is_trivially_copyable"
        | "is_standard_layout"
        | "is_trivially_destructible"
        | "has_trivial_destructor" => {
            // An array has its element type's properties.
            let mut e = c0;
            while let TyKind::Array(x, _) = e.kind(db) {
                e = ty::canonical(db, *x);
            }
            match class(e) {
                Some(c) => {
                    use trivial::Trivially;
                    let standard =
                        || crate::layout::layout_ref(db, c).map(|l| l.standard_layout).map_err(|e| e.to_string());
                    match name {
                        "is_standard_layout" => standard()?,
                        "is_trivially_destructible" | "has_trivial_destructor" => {
                            trivial::class_is(db, c, Trivially::Destructible, 0)?
                        }
                        "is_trivially_copyable" => trivial::class_is(db, c, Trivially::Copyable, 0)?,
                        "is_trivial" => trivial::class_is(db, c, Trivially::Trivial, 0)?,
                        _ => trivial::class_is(db, c, Trivially::Trivial, 0)? && standard()?,
                    }
                }
                None => !matches!(
                    e.kind(db),
                    TyKind::LRef(_) | TyKind::RRef(_) | TyKind::Func(_) | TyKind::Dependent(_) | TyKind::Error(_)
                ),
            }
        }
        _ => return Err(TraitError::NotEvaluated(format!("type trait __{name} not evaluated"))),
    })
}

/// The class properties of a closure type ([expr.prim.lambda.closure]) as
/// g++ answers them: a lambda without captures is an empty, standard-layout,
/// trivially copyable class; it is trivial (so POD) only from C++20 on, where
/// it gets a defaulted default constructor (before, it has none). A closure
/// that captures a variable or `this` by name is not empty (g++ gives each
/// a member); its other properties are not decided here (its members are
/// not laid out), nor are traits that do not depend on the members (`None`).
fn closure_trait(db: &dyn SourceDatabase, c: crate::infer::ClosureId, name: &str) -> Option<Result<bool, TraitError>> {
    let shape = crate::infer::closure_shape(db, c);
    if name == "is_empty" && shape.named_captures {
        return Some(Ok(false));
    }
    let v = match name {
        "is_empty"
        | "is_standard_layout"
        | "is_trivially_copyable"
        | "is_trivially_destructible"
        | "has_trivial_destructor" => true,
        "is_trivial" | "is_pod" => shape.defaulted,
        _ => return None,
    };
    if !shape.captureless {
        return Some(Err(TraitError::NotEvaluated(format!("type trait __{name} of a closure with captures"))));
    }
    Some(Ok(v))
}

/// `sizeof...(name)` in an environment.
pub fn sizeof_pack(env: Option<&Env>, name: &str) -> Option<usize> {
    match env?.get(name)? {
        TemplateArg::Pack(v) => Some(v.len()),
        _ => None,
    }
}

/// The specializations the complete classes of a unit need (as members,
/// bases, array elements; transitively), in the order they are reached.
pub fn needed_specializations(db: &dyn SourceDatabase, tu: cufront_base_db::TranslationUnit) -> Vec<TyId> {
    let map = def_map(db, tu);
    let mut seen = rustc_hash::FxHashSet::default();
    let mut out = Vec::new();
    let mut todo: Vec<ClassRefT> = map.classes.iter().map(|c| ClassRefT::Class(*c)).collect();
    todo.reverse();
    let mut visit = |t: TyId, todo: &mut Vec<ClassRefT>, out: &mut Vec<TyId>| {
        let mut t = ty::canonical(db, t);
        loop {
            match t.kind(db) {
                TyKind::Array(e, _) | TyKind::Qualified(e, _) => t = *e,
                _ => break,
            }
        }
        if matches!(t.kind(db), TyKind::App(_) | TyKind::Inst(_)) && seen.insert(t) {
            out.push(t);
            if let Ok(c) = class_of(db, t) {
                todo.push(c);
            }
        }
    };
    let mut n = 0;
    while let Some(c) = todo.pop() {
        n += 1;
        if n > 100_000 {
            break;
        }
        let Ok(l) = crate::layout::layout_ref(db, c) else { continue };
        let mut tys: Vec<TyId> = l.fields.iter().map(|f| f.ty).collect();
        tys.extend(l.bases.iter().filter_map(|b| b.ty));
        for t in tys.into_iter().rev() {
            visit(t, &mut todo, &mut out);
        }
    }
    out
}
