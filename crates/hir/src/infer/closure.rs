//! Closures: the type of a lambda expression and its members (spec 50 §8,
//! [expr.prim.lambda]).
//!
//! A lambda expression's type is a unique class local to the function whose
//! body holds it: `ClosureId` = the inference owner (a function, an
//! instance, or the `operator()` of an enclosing closure, so that a lambda
//! in `f<int>` and in `f<long>` are two types) + the expression. Its
//! members are `ClosureFnId`s: `operator()` (a template for a generic
//! lambda: one `auto` parameter, one invented template parameter, deduced
//! at each call), and for a captureless lambda the conversion to a pointer
//! to function and the static invoker g++ names `_FUN`.
//!
//! Inference: the owner types a lambda expression as its closure and walks
//! a non-generic body in place (what it calls is required by the owner, and
//! the owner's own calls of the closure need the deduced return type). An
//! `operator()` is an inference owner of its own (`InferOwner::Closure`):
//! its body is read in the owner's arena with the locals the lambda sees
//! (their types from the owner's inference: captures), its parameters
//! typed from the call. Only the owner's inference is read from there,
//! never the reverse, so there is no cycle (a generic lambda handed to
//! itself ends in `infer`'s cycle fallback).
//!
//! Numbering (the `<n>` of `Ul…E<n>_`): g++ 12 counts the lambdas of one
//! context in order of appearance, whatever their signatures (GCC < 13,
//! ABI version < 18). The contexts are the function (or the `operator()` of
//! the enclosing lambda: nested lambdas start again at 0). Extended
//! `__device__` lambdas do not count: cudafe++ replaces them in the host
//! file (spec 30 §5) before g++ numbers anything.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;

use super::{Arg, CallSite, Callee, Category, Infer, InferOwner, InferenceResult, OwnerInfo, owner_info};
use crate::Entity;
use crate::body::{Body, Capture, Expr, ExprId, LocalId};
use crate::item_tree::{Cv, Path, PathSegment, TypeRef};
use crate::templates::{Env, TemplateArg};
use crate::ty::{self, FnSig, TyId, TyKind, canonical, mk};

/// The closure type of one lambda expression of one owner's body.
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct ClosureId {
    #[returns(copy)]
    pub owner: InferOwner,
    #[returns(copy)]
    pub expr: ExprId,
}

/// Which member of a closure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClosureFnKind {
    /// `operator()` (a specialization of it for a generic lambda).
    Call,
    /// The static function the conversion returns (g++'s `_FUN`).
    Invoker,
    /// `operator R (*)(P…)() const` of a captureless lambda.
    Conversion,
}

/// A member function of a closure type.
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct ClosureFnId {
    #[returns(copy)]
    pub closure: ClosureId,
    #[returns(copy)]
    pub kind: ClosureFnKind,
    /// A generic lambda's invented template arguments, one per `auto`
    /// parameter in order (a pack for `auto...`); empty otherwise.
    #[returns(ref)]
    pub args: Vec<TemplateArg>,
}

/// What the lambda expression says (read from the owner's body).
#[derive(Clone, Debug)]
pub(crate) struct LambdaData {
    pub captures: Vec<Capture>,
    pub params: Vec<LocalId>,
    pub variadic: bool,
    pub ret: Option<TypeRef>,
    pub body: Option<crate::body::StmtId>,
    pub mutable: bool,
    pub host: bool,
    pub device: bool,
}

impl LambdaData {
    /// An extended `__device__` lambda: cudafe++ replaces it in the host file.
    pub fn is_extended_device(&self) -> bool {
        self.device && !self.host
    }
    pub fn captureless(&self) -> bool {
        self.captures.is_empty()
    }
}

/// The class properties of a closure type that its lambda's captures
/// and the standard decide.
#[derive(Clone, Copy)]
pub(crate) struct ClosureShape {
    /// No lambda-capture at all.
    pub captureless: bool,
    /// A defaulted default constructor and defaulted copy and move
    /// assignments ([expr.prim.lambda.closure]/13): a captureless lambda
    /// from C++20 on. Before C++20, and with captures, a closure has no
    /// default constructor and a deleted copy assignment.
    pub defaulted: bool,
    /// A variable or `this` captured by name: g++ gives it a non-static
    /// data member, so the closure is not empty.
    pub named_captures: bool,
}

pub(crate) fn closure_shape(db: &dyn SourceDatabase, c: ClosureId) -> ClosureShape {
    let body = owner_body(db, c.owner(db));
    let data = lambda_data(&body, c.expr(db));
    let captureless = data.as_ref().is_some_and(|d| d.captureless());
    let named_captures =
        data.is_some_and(|d| d.captures.iter().any(|c| matches!(c, Capture::Var { .. } | Capture::This { .. })));
    let cxx20 = owner_tu(db, c.owner(db)).options(db).lang(db).standard >= cufront_base_db::LangStandard::Cxx20;
    ClosureShape { captureless, defaulted: captureless && cxx20, named_captures }
}

pub(crate) fn lambda_data(body: &Body, e: ExprId) -> Option<LambdaData> {
    match body.exprs.get(e.0 as usize)? {
        Expr::Lambda { captures, params, variadic, ret, body: b, mutable, host, device, .. } => Some(LambdaData {
            captures: captures.clone(),
            params: params.clone(),
            variadic: *variadic,
            ret: ret.clone(),
            body: *b,
            mutable: *mutable,
            host: *host,
            device: *device,
        }),
        _ => None,
    }
}

/// The body a closure's lambda expression is in (its owner's).
pub fn owner_body(db: &dyn SourceDatabase, owner: InferOwner) -> Arc<Body> {
    match owner {
        InferOwner::Closure(f) => owner_body(db, f.closure(db).owner(db)),
        _ => match owner_info(db, owner) {
            Ok(i) => i.body,
            Err(_) => Arc::default(),
        },
    }
}

/// The unit an owner's body is in.
pub fn owner_tu(db: &dyn SourceDatabase, owner: InferOwner) -> cufront_base_db::TranslationUnit {
    match owner {
        InferOwner::Fn(f) => f.item(db).tu(db),
        InferOwner::Inst(i) => i.decl(db).tu(db),
        InferOwner::Closure(f) => owner_tu(db, f.closure(db).owner(db)),
        InferOwner::Var(v) => v.item(db).tu(db),
        InferOwner::VarInst(i) => i.decl(db).item(db).tu(db),
    }
}

/// A lambda's trailing return type as written (the invented parameters of
/// a generic lambda as `TemplateParam { 0, k }`), if it has one.
pub fn closure_written_ret(db: &dyn SourceDatabase, c: ClosureId) -> Option<TyId> {
    let info = super::closure_site_info(db, c).ok()?;
    let body = owner_body(db, c.owner(db));
    let data = lambda_data(&body, c.expr(db))?;
    let r = data.ret.as_ref()?;
    let mut env: Env = info.env.clone().unwrap_or_default();
    for k in 0..auto_params(&body, &data.params).len() {
        env.names.push((auto_name(k), TemplateArg::Type(mk(db, TyKind::TemplateParam { depth: 0, index: k as u32 }))));
    }
    let map = crate::def_map(db, info.item.tu(db));
    let cx = ty::LowerCx { db, map: &map, item: info.item, scope: info.scope, env: Some(&env) };
    crate::templates::nested(|| Ok(ty::lower(cx, r))).ok()
}

/// The `auto` parameters of a lambda, in order: each one invented template
/// parameter.
fn auto_params(body: &Body, params: &[LocalId]) -> Vec<LocalId> {
    params.iter().copied().filter(|p| super::contains_auto(&body.local(*p).ty)).collect()
}

pub(crate) fn is_generic(body: &Body, params: &[LocalId]) -> bool {
    !auto_params(body, params).is_empty()
}

/// The name the `k`-th invented parameter gets in an `Env` (no identifier
/// can be spelled so).
fn auto_name(k: usize) -> String {
    format!("auto:{}", k + 1)
}

/// `t` with its `auto` replaced by the `k`-th invented parameter's name.
fn with_auto_named(t: &TypeRef, k: usize) -> TypeRef {
    match t {
        TypeRef::Opaque(s) if s == "auto" => {
            TypeRef::Path(Path { global: false, segments: vec![PathSegment { name: auto_name(k), args: None }] })
        }
        TypeRef::Ptr(x) => TypeRef::Ptr(Box::new(with_auto_named(x, k))),
        TypeRef::LRef(x) => TypeRef::LRef(Box::new(with_auto_named(x, k))),
        TypeRef::RRef(x) => TypeRef::RRef(Box::new(with_auto_named(x, k))),
        TypeRef::Cv(x, cv) => TypeRef::Cv(Box::new(with_auto_named(x, k)), *cv),
        other => other.clone(),
    }
}

/// The position in the numbering of `e`'s context, as g++ numbers closures:
/// the lambdas whose innermost enclosing lambda is the same as `e`'s (or
/// none), extended `__device__` lambdas left out, in order of appearance.
///
/// `device_view`: the unit is the device's, where extended `__device__`
/// lambdas are closures too and count (on the host cudafe++ has replaced
/// them by wrapper objects, so g++ does not count them).
pub fn lambda_index(body: &Body, e: ExprId, device_view: bool) -> u32 {
    lambda_predecessors(body, e, device_view).len() as u32
}

/// The lambdas numbered before `e` in its context (see [`lambda_index`]).
pub fn lambda_predecessors(body: &Body, e: ExprId, device_view: bool) -> Vec<ExprId> {
    let ranges = &body.expr_ranges;
    let Some(&me) = ranges.get(e.0 as usize) else { return Vec::new() };
    let lambdas: Vec<(ExprId, cufront_syntax::TextRange)> = body
        .exprs
        .iter()
        .enumerate()
        .filter(|(_, x)| matches!(x, Expr::Lambda { .. }))
        .filter_map(|(i, _)| Some((ExprId(i as u32), *ranges.get(i)?)))
        .collect();
    let context = |r: cufront_syntax::TextRange, id: ExprId| {
        lambdas
            .iter()
            .filter(|(o, or)| *o != id && or.contains_range(r) && *or != r)
            .min_by_key(|(_, or)| or.len())
            .map(|(o, _)| *o)
    };
    let mine = context(me, e);
    let mut out = Vec::new();
    for &(o, r) in &lambdas {
        if o == e || r.start() >= me.start() {
            continue;
        }
        if !device_view && lambda_data(body, o).is_some_and(|d| d.is_extended_device()) {
            continue;
        }
        if context(r, o) == mine {
            out.push(o);
        }
    }
    out
}

/// The parameter types of a closure's `operator()` (adjusted: top-level
/// cv dropped, arrays and functions decayed, packs expanded) and, for a
/// generic lambda, as declared with the invented parameters
/// (`TemplateParam { depth: 0, index: k }`). `args` binds the invented
/// parameters (empty: they stay parameters).
pub(crate) fn closure_params(
    db: &dyn SourceDatabase,
    at: &Site,
    body: &Body,
    data: &LambdaData,
    args: &[TemplateArg],
) -> Result<Vec<TyId>, crate::SemaError> {
    let marked = params_marked(db, at, body, data, args)?;
    if marked.iter().any(|(_, pack)| *pack) {
        return Err("generic pack not deduced".into());
    }
    Ok(marked.into_iter().map(|(t, _)| t).collect())
}

/// The parameters of a closure's `operator()` as declared, for its mangled
/// names: a generic lambda's `auto`s as its invented parameters, and an
/// `auto...` pack as its pattern marked `true` (mangled `Dp <pattern>`,
/// `UlDpT_E_`), which `closure_params` cannot expand without arguments.
pub fn closure_declared_params(db: &dyn SourceDatabase, c: ClosureId) -> Result<Vec<(TyId, bool)>, crate::SemaError> {
    let info = super::closure_site_info(db, c)?;
    let body = owner_body(db, c.owner(db));
    let data = lambda_data(&body, c.expr(db)).ok_or("not a lambda expression")?;
    params_marked(db, &Site::of(&info), &body, &data, &[])
}

/// Whether a closure's parameter list ends in a C ellipsis
/// (`[](_V0& __v, ...) -> _V0& { return __v; }`, mangled `…zE_`).
pub fn closure_variadic(db: &dyn SourceDatabase, c: ClosureId) -> bool {
    let body = owner_body(db, c.owner(db));
    lambda_data(&body, c.expr(db)).is_some_and(|d| d.variadic)
}

/// `closure_params`, an unexpanded `auto...` pack (no arguments) given as
/// its pattern, marked `true`.
fn params_marked(
    db: &dyn SourceDatabase,
    at: &Site,
    body: &Body,
    data: &LambdaData,
    args: &[TemplateArg],
) -> Result<Vec<(TyId, bool)>, crate::SemaError> {
    let map = crate::def_map(db, at.item.tu(db));
    let mut env: Env = at.env.clone().unwrap_or_default();
    let autos = auto_params(body, &data.params);
    for (k, _) in autos.iter().enumerate() {
        let a = match args.get(k) {
            Some(a) => a.clone(),
            None => TemplateArg::Type(mk(db, TyKind::TemplateParam { depth: 0, index: k as u32 })),
        };
        env.names.push((auto_name(k), a));
    }
    let cx = ty::LowerCx { db, map: &map, item: at.item, scope: at.scope, env: Some(&env) };
    let mut out = Vec::new();
    for &p in &data.params {
        let loc = body.local(p);
        let written = match autos.iter().position(|x| *x == p) {
            Some(k) => with_auto_named(&loc.ty, k),
            None => loc.ty.clone(),
        };
        if loc.pack {
            // A pack: `auto... xs` (its invented parameter is a pack) or `Ts... xs`.
            let k = autos.iter().position(|x| *x == p);
            let elems: Vec<TyId> = match k.and_then(|k| args.get(k)) {
                Some(TemplateArg::Pack(xs)) => {
                    let mut v = Vec::new();
                    for x in xs {
                        let TemplateArg::Type(t) = x else { return Err("non-type pack element".into()) };
                        let mut e2 = env.clone();
                        e2.names.push((auto_name(k.unwrap_or(0)), TemplateArg::Type(*t)));
                        let cx2 = ty::LowerCx { env: Some(&e2), ..cx };
                        v.push(crate::templates::nested(|| Ok(ty::lower(cx2, &written)))?);
                    }
                    v
                }
                Some(_) => return Err("pack parameter without a pack".into()),
                None if k.is_some() => {
                    let t = crate::templates::nested(|| Ok(ty::lower(cx, &written)))?;
                    out.push((adjust(db, t), true));
                    continue;
                }
                None => crate::instances::expand_param(cx, &env, &written)?,
            };
            out.extend(elems.into_iter().map(|t| (adjust(db, t), false)));
            continue;
        }
        let t = crate::templates::nested(|| Ok(ty::lower(cx, &written)))?;
        out.push((adjust(db, t), false));
    }
    Ok(out)
}

fn adjust(db: &dyn SourceDatabase, t: TyId) -> TyId {
    let c = canonical(db, t);
    match c.kind(db) {
        TyKind::Qualified(x, _) => super::decay(db, *x),
        _ => super::decay(db, c),
    }
}

crate::consteval::var_template::recorded_query! {
    /// The signature of a closure member (`operator()`'s return type deduced
    /// from its body when not written: the closure's own inference).
    pub fn closure_fn_sig(f: ClosureFnId) -> Result<FnSig, crate::SemaError> = closure_fn_sig_of;
    tracked closure_fn_sig_uses;
}

fn closure_fn_sig_of(db: &dyn SourceDatabase, f: ClosureFnId) -> Result<FnSig, crate::SemaError> {
    let c = f.closure(db);
    let info = super::closure_site_info(db, c)?;
    let body = owner_body(db, c.owner(db));
    let data = lambda_data(&body, c.expr(db)).ok_or("not a lambda expression")?;
    let params = closure_params(db, &Site::of(&info), &body, &data, f.args(db))?;
    let call_ret = match &data.ret {
        Some(r) => {
            let map = crate::def_map(db, info.item.tu(db));
            let cx = ty::LowerCx { db, map: &map, item: info.item, scope: info.scope, env: info.env.as_ref() };
            crate::templates::nested(|| Ok(ty::lower(cx, r)))?
        }
        None => {
            let call = ClosureFnId::new(db, c, ClosureFnKind::Call, f.args(db).clone());
            let r = super::infer(db, InferOwner::Closure(call));
            r.returned.unwrap_or_else(|| mk(db, TyKind::Builtin(crate::item_tree::Builtin::Void)))
        }
    };
    let call_sig = FnSig {
        ret: call_ret,
        params,
        variadic: data.variadic,
        noexcept: false,
        cv: Cv { c: !data.mutable, v: false, r: false },
        ref_qual: 0,
    };
    Ok(match f.kind(db) {
        ClosureFnKind::Call => call_sig,
        ClosureFnKind::Invoker => FnSig { cv: Cv::default(), ..call_sig },
        ClosureFnKind::Conversion => {
            let pointee = FnSig { cv: Cv::default(), ..call_sig };
            let fp = mk(db, TyKind::Ptr(mk(db, TyKind::Func(pointee))));
            FnSig {
                ret: fp,
                params: Vec::new(),
                variadic: false,
                noexcept: false,
                cv: Cv { c: true, v: false, r: false },
                ref_qual: 0,
            }
        }
    })
}

/// The inference of a closure's `operator()`: its body in the owner's
/// arena, the owner's locals visible where the lambda is (with the types
/// the owner's inference gave them), its parameters typed from the
/// signature.
pub(crate) fn infer_closure(
    db: &dyn SourceDatabase,
    f: ClosureFnId,
    info: OwnerInfo,
    stop: Option<ExprId>,
) -> InferenceResult {
    let c = f.closure(db);
    let parent = lambda_site(db, c);
    let body = info.body.clone();
    let Some(data) = lambda_data(&body, c.expr(db)) else {
        return InferenceResult { skipped: Some("not a lambda expression".into()), ..Default::default() };
    };
    if data.is_extended_device() {
        return InferenceResult {
            skipped: Some("extended __device__ lambda (device code)".into()),
            ..Default::default()
        };
    }
    let params = match closure_params(db, &Site::of(&info), &body, &data, f.args(db)) {
        Ok(p) => p,
        Err(e) => return InferenceResult { skipped: Some(e.to_string()), ..Default::default() },
    };
    let tu = info.item.tu(db);
    let map = crate::def_map(db, tu);
    let mut cx = super::new_infer(db, &map, &body, &info, Some(InferOwner::Closure(f)));
    cx.stop_at = stop;
    // The captures: the owner's locals, as the owner typed them.
    for (i, t) in parent.local_tys.iter().enumerate() {
        if let Some(slot) = cx.res.local_tys.get_mut(i) {
            *slot = *t;
        }
    }
    if let Some(visible) = parent.lambda_scopes.get(&c.expr(db)) {
        cx.scopes = vec![visible.clone()];
    }
    cx.scopes.push(Vec::new());
    cx.bind_lambda_packs(&data, f.args(db));
    cx.bind_params(&data.params, &params);
    cx.returns.push(None);
    if let Some(b) = data.body {
        cx.stmt(b);
    }
    let ret = cx.returns.pop().flatten();
    cx.res.returned = ret;
    cx.res
}

/// The `Env` the lambda of `c` is written in, where it differs from its
/// owner's: block-scope aliases declared before it (the owner's inference
/// up to the lambda binds them). `None` for a body without any.
pub(crate) fn lambda_env(db: &dyn SourceDatabase, c: ClosureId) -> Option<Env> {
    if !has_local_aliases(&owner_body(db, c.owner(db))) {
        return None;
    }
    lambda_site(db, c).lambda_envs.get(&c.expr(db)).cloned()
}

fn has_local_aliases(body: &Body) -> bool {
    body.stmts.iter().any(|s| matches!(s, crate::body::Stmt::Alias(_)))
        || body.local_decls.iter().any(|(_, d)| matches!(d, crate::body::LocalDecl::Alias { .. }))
}

/// The owner's inference up to the lambda expression of `c` (what its body
/// sees: the owner's locals with their types and the names visible there),
/// not the whole owner's: a call after the lambda may need the closure's
/// own inference (`auto` return type deduction of the template it is
/// handed to), which reads this, so reading the whole owner would cycle.
#[salsa::tracked(returns(clone))]
pub(crate) fn lambda_site(db: &dyn SourceDatabase, c: ClosureId) -> Arc<InferenceResult> {
    // What it evaluates is no caller's (`consteval::var_template`).
    crate::consteval::var_template::isolated(|| lambda_site_of(db, c))
}

fn lambda_site_of(db: &dyn SourceDatabase, c: ClosureId) -> Arc<InferenceResult> {
    Arc::new(super::infer_owner_until(db, c.owner(db), Some(c.expr(db))))
}

/// The walk depth that stops an inference at its `stop_at` lambda.
const STOPPED: u32 = u32::MAX / 2;

impl Infer<'_> {
    /// Whether the inference has reached its `stop_at` lambda: what the
    /// frames above still do (a call's overload resolution, a declaration's
    /// constructor) may need the closure's inference, which reads this one.
    pub(super) fn stopped(&self) -> bool {
        self.depth >= STOPPED / 2
    }

    /// A specialization of a generic `operator()` with an `auto...` pack:
    /// its invented parameters are bound in the `Env` (a pack to its
    /// elements) and the pack parameters recorded, so that a pack expansion
    /// in the body (`(cudaMalloc(&col, n), ...)`, `f(v...)`) is inferred
    /// once per element (`pack_elems`).
    fn bind_lambda_packs(&mut self, data: &LambdaData, args: &[TemplateArg]) {
        let autos = auto_params(self.body, &data.params);
        if args.is_empty() || !autos.iter().any(|p| self.body.local(*p).pack) {
            return;
        }
        let mut env = self.env.clone().unwrap_or_default();
        for (k, p) in autos.iter().enumerate() {
            let Some(a) = args.get(k) else { return };
            env.names.push((auto_name(k), a.clone()));
            if self.body.local(*p).pack {
                self.lambda_packs.push((*p, with_auto_named(&self.body.local(*p).ty, k)));
            }
        }
        self.env = Some(env);
    }

    /// Binds a lambda's parameters to the types of its `operator()`
    /// (expanded packs: the pack's local gets its first element's type).
    fn bind_params(&mut self, params: &[LocalId], tys: &[TyId]) {
        let mut k = 0;
        for &p in params {
            let t = if self.body.local(p).pack {
                mk(self.db, TyKind::Dependent("pack".into()))
            } else {
                let t = tys.get(k).copied().unwrap_or_else(|| self.error("lambda parameter"));
                k += 1;
                t
            };
            self.res.local_tys[p.0 as usize] = Some(t);
            self.bind_local(p);
        }
    }

    /// A lambda expression: its closure type. The capture initializers are
    /// evaluated here; a non-generic body is walked in place (its return
    /// type is needed by this owner's own calls of the closure).
    pub(super) fn lambda_expr(&mut self, e: ExprId) -> (TyId, Category) {
        let db = self.db;
        let pr = Category::PRValue;
        let Some(data) = lambda_data(self.body, e) else { return (self.error("lambda"), pr) };
        let Some(owner) = self.owner else { return (mk(db, TyKind::Dependent("closure".into())), pr) };
        let closure = ClosureId::new(db, owner, e);
        // Init-captures: their initializers are evaluated here, their names
        // are the body's (not this scope's).
        let mut captured = Vec::new();
        for c in &data.captures {
            match c {
                Capture::Var { name, local: Some(l), init: Some(x), .. } => {
                    let init = self.expr_cat(*x);
                    let t = self.local_declared_ty(*l, Some(init));
                    self.res.local_tys[l.0 as usize] = Some(t);
                    captured.push((name.clone(), *l));
                }
                Capture::Var { init: Some(x), .. } => {
                    self.expr(*x);
                }
                _ => {}
            }
        }
        let mut visible: Vec<(String, LocalId)> = self.scopes.iter().flatten().cloned().collect();
        visible.extend(captured);
        self.res.lambda_scopes.insert(e, visible);
        if has_local_aliases(self.body) {
            self.res.lambda_envs.insert(e, self.env.clone().unwrap_or_default());
        }
        let t = mk(db, TyKind::Closure(closure));
        if self.stop_at == Some(e) {
            // `lambda_site`: every walk above returns at once from here on,
            // and nothing is resolved any more (`stopped`).
            self.depth = STOPPED;
            return (t, pr);
        }
        // An extended `__device__` lambda of host code has its wrapper's
        // type; without the wrapper model (the device view) it is an
        // ordinary closure, walked and called as one.
        if data.is_extended_device()
            && let Some(w) = self.extended_lambda(e, &data, t)
        {
            return (w, pr);
        }
        if is_generic(self.body, &data.params) {
            return (t, pr);
        }
        let ret = self.walk_lambda(e, &data, &[]);
        if data.ret.is_none() {
            self.res.closure_rets.insert(e, ret.unwrap_or_else(|| self.builtin(crate::item_tree::Builtin::Void)));
        }
        // Emitted when called, which the closure almost always is; listing
        // it here keeps what its body calls reachable when the call is in
        // code the model does not follow.
        self.require(Entity::Closure(ClosureFnId::new(db, closure, ClosureFnKind::Call, Vec::new())));
        let device_view = self.owner.is_some_and(|o| owner_tu(db, o).options(db).lang(db).device_view);
        if data.host && data.device && data.captureless() && !device_view {
            // cudafe++'s host-device wrapper keeps the conversion to a
            // pointer to function of a captureless lambda (spec 30 §5).
            self.closure_conversion(closure);
        }
        if data.host
            && data.device
            && let Some(w) = self.extended_lambda(e, &data, t)
        {
            return (w, pr);
        }
        (t, pr)
    }

    /// Walks a lambda's body in place, its parameters typed `tys` (lowered
    /// from the declaration when empty), in the scopes of its definition.
    /// Returns the type of its first `return`.
    fn walk_lambda(&mut self, e: ExprId, data: &LambdaData, args: &[TemplateArg]) -> Option<TyId> {
        let db = self.db;
        let params = closure_params(db, &self.site(), self.body, data, args).unwrap_or_default();
        let saved_scopes = match self.res.lambda_scopes.get(&e) {
            Some(v) => Some(std::mem::replace(&mut self.scopes, vec![v.clone()])),
            None => None,
        };
        let saved_ret = self.ret;
        self.ret = data.ret.as_ref().map(|r| self.lower(r));
        // What the body declares (statics, nested lambdas) is the closure's.
        let saved_owner = self.owner;
        if let Some(o) = saved_owner {
            let call = ClosureFnId::new(db, ClosureId::new(db, o, e), ClosureFnKind::Call, args.to_vec());
            self.owner = Some(InferOwner::Closure(call));
        }
        self.scopes.push(Vec::new());
        self.bind_params(&data.params, &params);
        self.returns.push(None);
        if let Some(b) = data.body {
            self.stmt(b);
        }
        let ret = self.returns.pop().flatten();
        self.scopes.pop();
        if let Some(s) = saved_scopes {
            self.scopes = s;
        }
        self.ret = saved_ret;
        self.owner = saved_owner;
        ret
    }

    /// The call operator's type of the non-generic lambda `e` walked in
    /// place (its return type deduced there): `R(P…)`.
    pub(super) fn closure_call_type(&mut self, e: ExprId, data: &LambdaData) -> Option<TyId> {
        let params = closure_params(self.db, &self.site(), self.body, data, &[]).ok()?;
        let ret = match &data.ret {
            Some(r) => self.lower(r),
            None => *self.res.closure_rets.get(&e)?,
        };
        Some(mk(
            self.db,
            TyKind::Func(FnSig {
                ret,
                params,
                variadic: data.variadic,
                noexcept: false,
                cv: Cv::default(),
                ref_qual: 0,
            }),
        ))
    }

    /// The conversion of a captureless closure to a pointer to function:
    /// the conversion function, the invoker it returns and the call
    /// operator the invoker calls.
    pub(super) fn closure_conversion(&mut self, c: ClosureId) {
        let db = self.db;
        for k in [ClosureFnKind::Conversion, ClosureFnKind::Invoker, ClosureFnKind::Call] {
            self.require(Entity::Closure(ClosureFnId::new(db, c, k, Vec::new())));
        }
    }

    /// A static local: an entity of the function being inferred (a lambda's
    /// body walked in place: of its `operator()`).
    pub(super) fn local_static(&mut self, l: LocalId) {
        if let Some(o) = self.owner {
            self.require(Entity::LocalStatic(crate::instances::LocalStaticId::new(self.db, o, l)));
        }
    }

    /// A closure converted to `to` (a pointer to function): its conversion.
    pub(super) fn closure_to_pointer(&mut self, from: TyId, to: TyId) {
        let db = self.db;
        if let TyKind::Closure(k) = super::strip_cv(db, canonical(db, from)).kind(db)
            && matches!(canonical(db, to).kind(db), TyKind::Ptr(_))
        {
            self.closure_conversion(*k);
        }
    }

    /// `p` with a leading block-scope namespace alias replaced by its target.
    pub(super) fn expand_ns_alias(&self, p: &Path) -> Option<Path> {
        if p.global || p.segments.len() < 2 {
            return None;
        }
        let (_, target) = self.ns_aliases.iter().rev().find(|(n, _)| *n == p.segments[0].name)?;
        let mut out = target.clone();
        out.segments.extend(p.segments[1..].iter().cloned());
        Some(out)
    }

    /// A call of an object of closure type `c`.
    pub(super) fn call_closure(&mut self, e: ExprId, c: ClosureId, a: &[Arg]) -> (TyId, Category) {
        let db = self.db;
        let site = CallSite::Expr(e);
        let local = Some(c.owner(db)) == self.owner;
        let body: Arc<Body> = if local { Arc::new(Body::default()) } else { owner_body(db, c.owner(db)) };
        let body: &Body = if local { self.body } else { &body };
        let Some(data) = lambda_data(body, c.expr(db)) else {
            self.res.calls.push((site, Callee::Unresolved("closure without its lambda".into())));
            return (self.error("closure"), Category::PRValue);
        };
        let args = match self.deduce_autos(body, &data, a) {
            Ok(x) => x,
            Err(err) => {
                self.res.calls.push((site, Callee::Unresolved(err.to_string().into())));
                return (self.error(err), Category::PRValue);
            }
        };
        let f = ClosureFnId::new(db, c, ClosureFnKind::Call, args.clone());
        let sig = if local {
            let params = closure_params(db, &self.site(), self.body, &data, &args).unwrap_or_default();
            let ret = match &data.ret {
                Some(r) => self.lower(r),
                None if args.is_empty() => self
                    .res
                    .closure_rets
                    .get(&c.expr(db))
                    .copied()
                    .unwrap_or_else(|| self.builtin(crate::item_tree::Builtin::Void)),
                None => {
                    let r = self.walk_lambda(c.expr(db), &data, &args);
                    r.unwrap_or_else(|| self.builtin(crate::item_tree::Builtin::Void))
                }
            };
            Ok(FnSig {
                ret,
                params,
                variadic: data.variadic,
                noexcept: false,
                cv: Cv { c: !data.mutable, v: false, r: false },
                ref_qual: 0,
            })
        } else {
            closure_fn_sig(db, f)
        };
        match sig {
            Ok(sig) => {
                let ent = Entity::Closure(f);
                self.require(ent);
                self.res.calls.push((site, Callee::Entity(ent)));
                self.convert_args(site, &sig, a);
                self.returned(site, sig.ret)
            }
            Err(err) => {
                self.res.calls.push((site, Callee::Unresolved(err.to_string().into())));
                (self.error(err), Category::PRValue)
            }
        }
    }

    /// The invented template arguments of a generic lambda's call with `a`
    /// (deduced like a function template's, [temp.deduct.call]).
    fn deduce_autos(&self, body: &Body, data: &LambdaData, a: &[Arg]) -> Result<Vec<TemplateArg>, crate::SemaError> {
        let db = self.db;
        let autos = auto_params(body, &data.params);
        if autos.is_empty() {
            return Ok(Vec::new());
        }
        let mut out: Vec<Option<TemplateArg>> = vec![None; autos.len()];
        let mut pos = 0;
        for &p in &data.params {
            let loc = body.local(p);
            let k = autos.iter().position(|x| *x == p);
            if loc.pack {
                let rest: &[Arg] = a.get(pos..).unwrap_or(&[]);
                pos = a.len();
                let Some(k) = k else { continue };
                let pattern = with_auto_named(&loc.ty, 0);
                let mut elems = Vec::new();
                for x in rest {
                    let mut one = vec![None];
                    let pt = self.invented_ty(&pattern, 0);
                    if !super::deduce_one(db, pt, *x, &mut one) {
                        return Err("cannot deduce a generic lambda's pack".into());
                    }
                    elems.push(one[0].clone().ok_or("pack element not deduced")?);
                }
                out[k] = Some(TemplateArg::Pack(elems));
                continue;
            }
            let Some(x) = a.get(pos) else { break };
            pos += 1;
            let Some(k) = k else { continue };
            let pt = self.invented_ty(&with_auto_named(&loc.ty, k), k);
            let mut one = vec![None; autos.len()];
            if !super::deduce_one(db, pt, *x, &mut one) {
                return Err("cannot deduce a generic lambda's parameter".into());
            }
            out[k] = one[k].clone();
        }
        out.into_iter()
            .map(|x| x.ok_or_else(|| crate::SemaError::gap("generic lambda parameter not deduced")))
            .collect()
    }

    /// A parameter type with the `k`-th invented parameter as deduction's
    /// placeholder (`TemplateParam { 1, k }`).
    fn invented_ty(&self, t: &TypeRef, k: usize) -> TyId {
        let mut env: Env = self.env.clone().unwrap_or_default();
        env.names
            .push((auto_name(k), TemplateArg::Type(mk(self.db, TyKind::TemplateParam { depth: 1, index: k as u32 }))));
        let cx = ty::LowerCx { db: self.db, map: self.map, item: self.item, scope: self.scope, env: Some(&env) };
        crate::templates::nested(|| Ok(ty::lower(cx, t))).unwrap_or_else(|e| self.error(e))
    }
}

/// Where a lambda's types are lowered: its owner's item, scope and
/// template arguments.
pub(crate) struct Site {
    pub item: crate::ItemId,
    pub scope: crate::ScopeIdx,
    pub env: Option<Env>,
}

impl Site {
    pub fn of(info: &OwnerInfo) -> Site {
        Site { item: info.item, scope: info.scope, env: info.env.clone() }
    }
}

impl Infer<'_> {
    fn site(&self) -> Site {
        Site { item: self.item, scope: self.scope, env: self.env.clone() }
    }
}
