//! Variable template specializations in integral constant expressions
//! (`is_same_v<T, use_default>` in a template argument, an `enable_if`
//! condition): the arguments bound to the template's parameters (defaults
//! included), its initializer evaluated where it is declared.
//!
//! Arguments that still name a pattern's parameters make the value
//! dependent (`NotConstant`), which template argument lowering turns into
//! a dependent argument rather than an error.
//!
//! The specializations an evaluation instantiates are part of the values
//! of the queries that evaluate (g++ emits some of them unasked,
//! `infer/constraint_vars.rs`), so that the list is a function of the
//! inputs, not of which query ran first. Invariant: every tracked query
//! whose execution may evaluate a constant runs its whole body under
//! [`recording`] and either returns `(value, uses)` (its public function
//! [`replay`]s the uses into the caller's frame, memoized or not: `canonical`,
//! `signature`, `select`, `constraints_satisfied`, …), or keeps them
//! (`infer`'s `instantiated_vars`) or drops them ([`isolated`]: a unit's
//! static assertions, `mangled_name`). The frame itself is a per-thread
//! stack of the executions under way, never read across a query boundary;
//! queries that only parse (item trees, bodies, scopes) need none.

use crate::item_tree::{ConstExpr, Path};
use crate::item_tree_of;
use crate::scopes::{self, DeclKey, Def, Ns};
use crate::templates::{self, Env, TemplateArg};
use crate::ty::{self, LowerCx, TyKind};
use rustc_hash::FxHashSet;
use std::sync::Arc;

use super::{ConstError, EvalCx, Value};

/// A variable template specialization an evaluation instantiated.
pub type VarUse = (crate::VarTemplateId, Vec<TemplateArg>);

/// The specializations an evaluation instantiated, in first-use order
/// without duplicates, as a query's value carries them (`None`: none).
/// Shared: a memoized query hands the same list to every caller.
pub type VarUses = Option<Arc<[VarUse]>>;

/// The longest list kept: a runaway evaluation cannot grow it forever.
const MAX_USES: usize = 4096;

/// What a frame has seen, in order: a use it made itself, or the whole
/// list a query it asked returned (kept whole, so that asking a memoized
/// query again costs a pointer comparison, not a walk of its list).
enum Entry {
    One(VarUse),
    Query(Arc<[VarUse]>),
}

/// The uses of the query execution under way on this thread (one frame
/// per [`recording`]).
#[derive(Default)]
struct Frame {
    entries: Vec<Entry>,
    ones: FxHashSet<VarUse>,
    /// The lists of `Entry::Query`, by address.
    queries: FxHashSet<usize>,
}

impl Frame {
    fn finish(self) -> VarUses {
        match self.entries.as_slice() {
            [] => return None,
            [Entry::Query(l)] => return Some(l.clone()),
            _ => {}
        }
        let mut seen: FxHashSet<&VarUse> = FxHashSet::default();
        let mut out: Vec<VarUse> = Vec::new();
        for e in &self.entries {
            let list: &[VarUse] = match e {
                Entry::One(u) => std::slice::from_ref(u),
                Entry::Query(l) => l,
            };
            for u in list {
                if out.len() < MAX_USES && seen.insert(u) {
                    out.push(u.clone());
                }
            }
        }
        Some(out.into())
    }
}

thread_local! {
    static FRAME: std::cell::RefCell<Option<Frame>> = const { std::cell::RefCell::new(None) };
}

/// `f()`, and the variable template specializations (concepts included)
/// evaluated meanwhile. Nested calls keep their own lists; a query that
/// returns its list as part of its value hands it to its caller with
/// [`replay`], so a memoized answer contributes the same uses as a fresh
/// one (see the module comment).
pub(crate) fn recording<R>(f: impl FnOnce() -> R) -> (R, VarUses) {
    let (r, frame) = in_frame(f);
    (r, frame.and_then(Frame::finish))
}

/// `f()` in a fresh frame, and that frame (the caller's is put back).
fn in_frame<R>(f: impl FnOnce() -> R) -> (R, Option<Frame>) {
    /// Puts the caller's frame back if `f` unwinds (a cancelled query).
    struct Restore(Option<Option<Frame>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(saved) = self.0.take() {
                FRAME.with(|u| *u.borrow_mut() = saved);
            }
        }
    }
    let mut restore = Restore(Some(FRAME.with(|u| u.borrow_mut().replace(Frame::default()))));
    // Every recorded query runs here, so chains of queries that recurse
    // through one another (a typedef of a typedef of … 100,000 deep, each
    // `canonical` of the next) grow the stack on demand instead of
    // overflowing it.
    let r = stacker::maybe_grow(1 << 20, 16 << 20, f);
    let saved = restore.0.take().flatten();
    let got = FRAME.with(|u| std::mem::replace(&mut *u.borrow_mut(), saved));
    (r, got)
}

/// `f()` in a frame of its own whose uses are dropped: the body of a query
/// that keeps what it evaluates to itself (a constraint check records its
/// own part, a unit's static assertions answer for none), so that nothing
/// reaches its caller's frame whether it runs or is memoized. The frame is
/// dropped as it is, never merged into a list.
pub(crate) fn isolated<R>(f: impl FnOnce() -> R) -> R {
    in_frame(f).0
}

/// The value of a query that returns its uses (`(value, uses)`, computed
/// under [`recording`]), its uses recorded as the caller's own.
pub(crate) fn replay<T: Clone>(r: &(T, VarUses)) -> T {
    record_uses(&r.1);
    r.0.clone()
}

/// Declares a query that follows the invariant of this module: the public
/// function gives the value and [`replay`]s the uses into the caller's
/// frame; the tracked `…_uses` query computes the value under
/// [`recording`] and memoizes it with its uses; with `cycle`, a cycle's
/// fallback is the given function's value with no uses.
///
/// ```text
/// recorded_query! {
///     /// The type a typedef names.
///     pub fn typedef_ty(t: TypedefId) -> TyId = typedef_ty_of;
///     tracked typedef_ty_uses;
///     cycle typedef_ty_uses_cycle => typedef_cycle;
/// }
/// ```
///
/// declares `pub fn typedef_ty(db, t) -> TyId`, the tracked
/// `typedef_ty_uses(db, t) -> (TyId, VarUses)` that runs
/// `typedef_ty_of(db, t)`, and `typedef_ty_uses_cycle(db, id, t)` that
/// answers `(typedef_cycle(db, id, t), None)`.
macro_rules! recorded_query {
    (
        $(#[$doc:meta])*
        pub fn $name:ident($arg:ident: $arg_ty:ty) -> $ret:ty = $of:ident;
        tracked $uses:ident;
        cycle $uses_cycle:ident => $cycle:ident;
    ) => {
        $(#[$doc])*
        pub fn $name(db: &dyn cufront_base_db::SourceDatabase, $arg: $arg_ty) -> $ret {
            $crate::consteval::var_template::replay($uses(db, $arg))
        }

        #[doc = concat!("[`", stringify!($name), "`] with the variable template specializations its evaluation instantiates.")]
        #[salsa::tracked(returns(ref), cycle_result = $uses_cycle)]
        fn $uses(db: &dyn cufront_base_db::SourceDatabase, $arg: $arg_ty) -> ($ret, $crate::consteval::var_template::VarUses) {
            $crate::consteval::var_template::recording(|| $of(db, $arg))
        }

        fn $uses_cycle(db: &dyn cufront_base_db::SourceDatabase, id: salsa::Id, $arg: $arg_ty) -> ($ret, $crate::consteval::var_template::VarUses) {
            ($cycle(db, id, $arg), None)
        }
    };
    (
        $(#[$doc:meta])*
        pub fn $name:ident($arg:ident: $arg_ty:ty) -> $ret:ty = $of:ident;
        tracked $uses:ident;
    ) => {
        $(#[$doc])*
        pub fn $name(db: &dyn cufront_base_db::SourceDatabase, $arg: $arg_ty) -> $ret {
            $crate::consteval::var_template::replay($uses(db, $arg))
        }

        #[doc = concat!("[`", stringify!($name), "`] with the variable template specializations its evaluation instantiates.")]
        #[salsa::tracked(returns(ref))]
        fn $uses(db: &dyn cufront_base_db::SourceDatabase, $arg: $arg_ty) -> ($ret, $crate::consteval::var_template::VarUses) {
            $crate::consteval::var_template::recording(|| $of(db, $arg))
        }
    };
}
pub(crate) use recorded_query;

/// Records a list a query returned as the current frame's.
pub(crate) fn record_uses(uses: &VarUses) {
    let Some(l) = uses else { return };
    FRAME.with(|u| {
        if let Some(f) = u.borrow_mut().as_mut()
            && f.queries.insert(Arc::as_ptr(l) as *const VarUse as usize)
        {
            f.entries.push(Entry::Query(l.clone()));
        }
    });
}

pub(crate) fn record_use(vt: crate::VarTemplateId, args: &[TemplateArg]) {
    FRAME.with(|u| {
        if let Some(f) = u.borrow_mut().as_mut()
            && f.ones.len() < MAX_USES
        {
            let key = (vt, args.to_vec());
            if !f.ones.contains(&key) {
                f.ones.insert(key.clone());
                f.entries.push(Entry::One(key));
            }
        }
    });
}

/// The uses of a list, in order.
pub(crate) fn uses_of(uses: &VarUses) -> &[VarUse] {
    uses.as_deref().unwrap_or(&[])
}

/// The value of `p` when its last segment names a variable template with
/// arguments; `None` when it does not.
pub(crate) fn eval_path(cx: &EvalCx<'_>, p: &Path, depth: u32) -> Option<Result<Value, ConstError>> {
    let (last, outer) = p.segments.split_last()?;
    let written = last.args.as_ref()?;
    // The variable template is looked up by the path without its arguments.
    let mut segments = Vec::with_capacity(p.segments.len());
    segments.extend_from_slice(outer);
    segments.push(crate::item_tree::PathSegment { name: last.name.clone(), args: None });
    let bare = Path { global: p.global, segments };
    let lcx = cx.lower;
    let vt = match scopes::resolve_path(lcx.db, lcx.map, lcx.scope, &bare, Ns::Value) {
        Some(Def::VarTemplate(vt)) => vt,
        _ => return None,
    };
    Some(eval_var_template(lcx, vt, written, depth))
}

fn eval_var_template(
    cx: LowerCx<'_>,
    vt: crate::VarTemplateId,
    written: &[crate::item_tree::TemplateArgRef],
    depth: u32,
) -> Result<Value, ConstError> {
    if depth > 64 {
        return Err(ConstError::Limit("variable templates nested too deeply".into()));
    }
    let args = var_template_args(cx, vt, written).map_err(ConstError::unsupported)?;
    eval_var_template_args(cx, vt, args, depth)
}

/// The value of `vt<args>` for arguments already lowered (a compound
/// requirement's `{ e } -> C<…>` passes `decltype((e))` first).
pub(crate) fn eval_with_args(cx: LowerCx<'_>, vt: crate::VarTemplateId, args: Vec<TemplateArg>) -> Option<Value> {
    eval_var_template_args(cx, vt, args, 0).ok()
}

fn eval_var_template_args(
    cx: LowerCx<'_>,
    vt: crate::VarTemplateId,
    args: Vec<TemplateArg>,
    depth: u32,
) -> Result<Value, ConstError> {
    let db = cx.db;
    if args.iter().any(|a| dependent(db, a)) {
        return Err(ConstError::NotConstant("variable template (dependent)".into()));
    }
    let (vt, args) = select_var_template(db, cx.map, vt, &args);
    record_use(vt, &args);
    let tree = item_tree_of(db, vt.item(db));
    let data = tree.var_templates.get(vt.idx(db) as usize).ok_or(ConstError::Cycle)?;
    let vscope = cx.map.parent.get(&DeclKey::VarTemplate(vt)).copied().unwrap_or(scopes::ROOT);
    let params = &data.tparams;
    // A member variable template of the current instantiation sees the
    // class's parameters (`variant<_Types...>::__exactly_once<_Tp>` is
    // `__detail::__variant::__exactly_once<_Tp, _Types...>`).
    let mut env = match cx.env {
        Some(e) if e.scopes.contains(&vscope) => e.clone(),
        _ => Env::default(),
    };
    for (p, a) in params.iter().zip(&args) {
        if let Some(n) = &p.name {
            env.names.push((n.clone(), a.clone()));
        }
    }
    let vcx = LowerCx { db, map: cx.map, item: vt.item(db), scope: vscope, env: Some(&env) };
    let init: &ConstExpr = data.var.init.as_ref().ok_or_else(|| ConstError::NotConstant(data.var.name.clone()))?;
    let v = templates::nested(|| {
        super::eval_depth(&EvalCx::new(vcx), init, depth + 1).map_err(|e| crate::SemaError::gap(e.to_string()))
    })
    .map_err(ConstError::unsupported)?;
    let t = ty::canonical(db, ty::lower(vcx, &data.var.ty));
    let t = match t.kind(db) {
        TyKind::Qualified(x, _) => ty::canonical(db, *x),
        _ => t,
    };
    Ok(match t.kind(db) {
        TyKind::Builtin(b) if super::is_integral(*b) => Value { v: super::convert(v.v, *b), ty: *b },
        _ => v,
    })
}

/// Whether an argument still names a pattern's parameters.
pub(crate) fn dependent(db: &dyn cufront_base_db::SourceDatabase, a: &TemplateArg) -> bool {
    match a {
        TemplateArg::Dependent(_) | TemplateArg::ValueParam { .. } => true,
        TemplateArg::Template(templates::TemplateRef::Param { .. }) => true,
        TemplateArg::Type(t) => ty_dependent(db, *t, 0),
        TemplateArg::Pack(v) => v.iter().any(|x| dependent(db, x)),
        _ => false,
    }
}

fn ty_dependent(db: &dyn cufront_base_db::SourceDatabase, t: crate::TyId, depth: u32) -> bool {
    if depth > 32 {
        return true;
    }
    match t.kind(db) {
        TyKind::TemplateParam { .. } | TyKind::ParamApp { .. } | TyKind::ParamArray { .. } | TyKind::Dependent(_) => {
            true
        }
        TyKind::Ptr(x) | TyKind::LRef(x) | TyKind::RRef(x) | TyKind::Qualified(x, _) | TyKind::Array(x, _) => {
            ty_dependent(db, *x, depth + 1)
        }
        TyKind::App(a) => a.args(db).iter().any(|x| dependent(db, x)),
        TyKind::Func(f) => {
            ty_dependent(db, f.ret, depth + 1) || f.params.iter().any(|p| ty_dependent(db, *p, depth + 1))
        }
        _ => false,
    }
}

/// The arguments of `vt<written>`: written ones lowered in `cx`, defaults
/// filled in where the template is declared.
pub(crate) fn var_template_args(
    cx: LowerCx<'_>,
    vt: crate::VarTemplateId,
    written: &[crate::item_tree::TemplateArgRef],
) -> Result<Vec<TemplateArg>, crate::SemaError> {
    let db = cx.db;
    let vt = primary_var_template(db, cx.map, vt);
    let tree = item_tree_of(db, vt.item(db));
    let data = tree.var_templates.get(vt.idx(db) as usize).ok_or("no such variable template")?;
    let vscope = cx.map.parent.get(&DeclKey::VarTemplate(vt)).copied().unwrap_or(scopes::ROOT);
    let params = data.tparams.clone();
    templates::bind(cx, &params, written, &mut |i, sofar| {
        let p = params.get(i)?;
        let mut env = Env::default();
        for (k, a) in sofar.iter().enumerate() {
            if let Some(n) = params.get(k).and_then(|p| p.name.clone()) {
                env.names.push((n, a.clone()));
            }
        }
        let dcx = LowerCx { db, map: cx.map, item: vt.item(db), scope: vscope, env: Some(&env) };
        Some(templates::lower_arg(dcx, &p.kind, p.default.as_ref()?))
    })
}

/// The primary declaration of the variable template `vt` names (lookup
/// may find one of its partial specializations, declared with the same
/// name in the same scope).
pub(crate) fn primary_var_template(
    db: &dyn cufront_base_db::SourceDatabase,
    map: &scopes::DefMap,
    vt: crate::VarTemplateId,
) -> crate::VarTemplateId {
    let tree = item_tree_of(db, vt.item(db));
    let Some(data) = tree.var_templates.get(vt.idx(db) as usize) else { return vt };
    if data.spec_args.is_none() {
        return vt;
    }
    let scope = map.parent.get(&DeclKey::VarTemplate(vt)).copied().unwrap_or(scopes::ROOT);
    map.scope(scope)
        .names
        .get(&data.var.name)
        .into_iter()
        .flatten()
        .find_map(|d| match d {
            Def::VarTemplate(v)
                if item_tree_of(db, v.item(db))
                    .var_templates
                    .get(v.idx(db) as usize)
                    .is_some_and(|d| d.spec_args.is_none()) =>
            {
                Some(*v)
            }
            _ => None,
        })
        .unwrap_or(vt)
}

/// The declaration a variable template specialization `vt<args>` uses:
/// the most specialized partial specialization whose pattern deduces from
/// `args` and substitutes back to them, with its own arguments; else the
/// primary with `args`.
pub(crate) fn select_var_template(
    db: &dyn cufront_base_db::SourceDatabase,
    map: &scopes::DefMap,
    vt: crate::VarTemplateId,
    args: &[TemplateArg],
) -> (crate::VarTemplateId, Vec<TemplateArg>) {
    let tree = item_tree_of(db, vt.item(db));
    let Some(data) = tree.var_templates.get(vt.idx(db) as usize) else { return (vt, args.to_vec()) };
    let scope = map.parent.get(&DeclKey::VarTemplate(vt)).copied().unwrap_or(scopes::ROOT);
    let name = data.var.name.clone();
    // The primary: the declaration without arguments (its parameters give kinds).
    let decls: Vec<crate::VarTemplateId> = map
        .scope(scope)
        .names
        .get(&name)
        .into_iter()
        .flatten()
        .filter_map(|d| match d {
            Def::VarTemplate(v) => Some(*v),
            _ => None,
        })
        .collect();
    // Each declaration read in place in its item tree (this runs for every
    // specialization evaluated: copying the declarations was a visible share
    // of a large unit's run).
    fn data_in<'t>(
        db: &dyn cufront_base_db::SourceDatabase,
        v: crate::VarTemplateId,
        tree: &'t crate::item_tree::ItemTree,
    ) -> Option<&'t crate::item_tree::VarTemplateData> {
        tree.var_templates.get(v.idx(db) as usize)
    }
    let trees: Vec<(crate::VarTemplateId, Arc<crate::item_tree::ItemTree>)> =
        decls.iter().map(|&v| (v, item_tree_of(db, v.item(db)))).collect();
    let Some((primary, ptree)) = trees.iter().find(|(v, t)| data_in(db, *v, t).is_some_and(|d| d.spec_args.is_none()))
    else {
        return (vt, args.to_vec());
    };
    let primary = *primary;
    let Some(pdata) = data_in(db, primary, ptree) else { return (vt, args.to_vec()) };
    let mut viable: Vec<(crate::VarTemplateId, Vec<TemplateArg>, Vec<TemplateArg>, u32)> = Vec::new();
    for (s, stree) in &trees {
        let s = *s;
        let Some(sd) = data_in(db, s, stree) else { continue };
        let Some(written) = &sd.spec_args else { continue };
        let n = sd.tparams.len() as u32;
        let lower_pattern = |env: &Env| -> Result<Vec<TemplateArg>, crate::SemaError> {
            let cx = LowerCx { db, map, item: s.item(db), scope, env: Some(env) };
            templates::bind(cx, &pdata.tparams, written, &mut |_, _| None)
        };
        let mut penv = Env::default();
        for (i, p) in sd.tparams.iter().enumerate() {
            let i = i as u32;
            let a = match p.kind {
                crate::item_tree::TemplateParamKind::Type => {
                    TemplateArg::Type(ty::mk(db, TyKind::TemplateParam { depth: 1, index: i }))
                }
                crate::item_tree::TemplateParamKind::Value(_) => TemplateArg::ValueParam { depth: 1, index: i },
                crate::item_tree::TemplateParamKind::Template => {
                    TemplateArg::Template(templates::TemplateRef::Param { depth: 1, index: i })
                }
            };
            let a = if p.pack { TemplateArg::Pack(vec![TemplateArg::Dependent(format!("pack:{i}"))]) } else { a };
            if let Some(nm) = &p.name {
                penv.names.push((nm.clone(), a));
            }
        }
        let Ok(pattern) = lower_pattern(&penv) else { continue };
        let Some(deduced) = templates::deduce(db, &pattern, args, 1, n) else { continue };
        let mut senv = Env::default();
        for (p, a) in sd.tparams.iter().zip(&deduced) {
            if let Some(nm) = &p.name {
                senv.names.push((nm.clone(), a.clone()));
            }
        }
        match lower_pattern(&senv) {
            Ok(back) if back.as_slice() == args => viable.push((s, pattern, deduced, n)),
            _ => {}
        }
    }
    let pick = (0..viable.len()).find(|&i| {
        (0..viable.len()).all(|j| i == j || templates::more_specialized(db, &viable[i].1, &viable[j].1, viable[j].3))
    });
    match pick {
        Some(i) => {
            let (s, _, deduced, _) = viable.swap_remove(i);
            (s, deduced)
        }
        None => (primary, args.to_vec()),
    }
}
