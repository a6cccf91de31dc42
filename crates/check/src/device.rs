//! What cicc's front end reports on the device preprocessing (spec 20
//! §6.2, §7; spec 61): the device pass of `cufront check`.
//!
//! Two phases, as cicc prints them:
//! - while parsing, in source order: a `constexpr` host function called
//!   from device code without `--expt-relaxed-constexpr` (3474 from a
//!   `__device__` body, 3476 from a kernel; the callee named without its
//!   parameters), and host variables used in device bodies (warnings 3551
//!   to 3553, #20094–20096);
//! - the declaration warnings of the host pass again (20050, 20012), and
//!   `constexpr` on a kernel (3575, an error); the declaration rules of
//!   `device_decls` (thread_local device variables, kernel parameters,
//!   redeclarations with other execution spaces);
//! - after the unit is parsed, only when the first phase found no error,
//!   without source lines: each call of a host function from a device body
//!   (3473, or 3475 from a kernel) followed by `identifier "f" is
//!   undefined in device code` (3525), from a `__host__ __device__` body
//!   a warning (3468, #20011), and the undefined-in-device-code error of
//!   each host variable used; device functions in source order, then
//!   kernels.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Severity};
use cufront_hir::FnId;
use cufront_hir::exec_space::{self, ExecSpace};
use cufront_hir::infer::{self, CallSite, Callee, InferOwner};
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::FnName;

use crate::calls::{self, innermost_lambda, lambda_space, lambdas_of};
use crate::{Found, Options, names};

const H_HD_ILLEGAL_CALL: DiagId = DiagId(3468);
/// `calling a constexpr __host__ function from a __host__ __device__ function`.
const H_HD_ILLEGAL_CALL_CONSTEXPR: DiagId = DiagId(3470);
const H_D_ILLEGAL_CALL: DiagId = DiagId(3473);
const H_D_ILLEGAL_CALL_CONSTEXPR: DiagId = DiagId(3474);
const H_G_ILLEGAL_CALL: DiagId = DiagId(3475);
const H_G_ILLEGAL_CALL_CONSTEXPR: DiagId = DiagId(3476);
const UNDEFINED_IN_DEVICE_CODE: DiagId = DiagId(3525);
/// `A __global__ function or function template cannot be marked constexpr`.
const GLOBAL_CONSTEXPR: DiagId = DiagId(3575);

/// One finding of the device pass, relative to its item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceFinding {
    pub at: u32,
    pub skip_blanks: bool,
    /// Reported after the unit is parsed, without a source line.
    pub late: bool,
    pub id: DiagId,
    pub severity: Severity,
    pub args: Vec<Arg>,
}

/// The device pass's findings on the calls of one body.
#[salsa::tracked(returns(clone))]
pub fn fn_device_call_findings(db: &dyn SourceDatabase, f: FnId, relaxed_constexpr: bool) -> Arc<Vec<DeviceFinding>> {
    let decl = FnDecl::Fn(f);
    let Some(data) = decl.data(db) else { return Arc::default() };
    let Some(caller_name) = (match &data.name {
        FnName::Ident(n) => Some(n.clone()),
        FnName::Operator(op) => Some(format!("operator{op}")),
        _ => None,
    }) else {
        return Arc::default();
    };
    Arc::new(call_findings(db, InferOwner::Fn(f), decl, caller_name, relaxed_constexpr))
}

/// The late findings on the calls of a function template specialization
/// that device code reaches (`reached_instances`): EDG checks the
/// instance's body, dependent calls and others alike, and names the caller
/// by the instance (`"kern<    ::Fn> "`, `names::instance_caller_name`).
/// The early messages (a `constexpr` host callee) are left out: EDG gives
/// those of non-dependent calls on the template, once, and the others per
/// instance, twice (checked), which is not modelled.
#[salsa::tracked(returns(clone))]
pub fn inst_device_call_findings(
    db: &dyn SourceDatabase,
    inst: cufront_hir::instances::FnInstanceId,
) -> Arc<Vec<DeviceFinding>> {
    let Some(caller_name) = names::instance_caller_name(db, inst) else { return Arc::default() };
    let mut out = call_findings(db, InferOwner::Inst(inst), inst.decl(db), caller_name, true);
    out.retain(|f| f.late);
    Arc::new(out)
}

/// The device pass's findings on the calls `infer` records for `owner`,
/// the body of `decl`, whose messages name it `caller_name`.
fn call_findings(
    db: &dyn SourceDatabase,
    owner: InferOwner,
    decl: FnDecl,
    caller_name: String,
    relaxed_constexpr: bool,
) -> Vec<DeviceFinding> {
    let space = exec_space::fn_exec_space(db, decl);
    if matches!(space, ExecSpace::Host | ExecSpace::ImplicitHost) {
        return Vec::new();
    }
    let r = infer::infer(db, owner);
    if r.skipped.is_some() {
        return Vec::new();
    }
    let body = infer::decl_body(db, decl);
    let lambdas = lambdas_of(&body);
    let mut out = Vec::new();
    for (site, callee) in &r.calls {
        let Callee::Entity(callee) = callee else { continue };
        let (CallSite::Expr(_) | CallSite::Local(_)) = site else { continue };
        // A `__shared__` (or other memory-space) local is not constructed by the body.
        if let CallSite::Local(l) = site
            && body.locals.get(l.0 as usize).is_some_and(|l| l.cuda.has_memory_space())
        {
            continue;
        }
        let Some(range) = calls::site_range(&body, *site) else { continue };
        let (space, caller, in_lambda) = match innermost_lambda(&lambdas, range) {
            None => (space, caller_name.clone(), false),
            Some(l) => match lambda_space(l, space, true) {
                Some(s) => (s, "operator()".to_string(), true),
                None => continue,
            },
        };
        if !matches!(exec_space::exec_space(db, *callee), Some(ExecSpace::Host | ExecSpace::ImplicitHost)) {
            continue;
        }
        let Some(name) = names::callee_name(db, *callee) else { continue };
        let constexpr = names::is_constexpr(db, *callee);
        // cicc's early messages name the callee unqualified (`"cf"` for
        // `ns::cf`, `"sm"` for `S::sm`; checked).
        let plain = match *callee {
            cufront_hir::Entity::Fn(f) => names::plain_name(db, FnDecl::Fn(f)),
            cufront_hir::Entity::FnInst(i) => names::plain_name(db, i.decl(db)),
            _ => None,
        };
        if constexpr && relaxed_constexpr {
            continue;
        }
        let (at, skip_blanks, _) = calls::caret(db, &body, *site, *callee);
        let mut push = |late, id, severity, args| out.push(DeviceFinding { at, skip_blanks, late, id, severity, args });
        let caller = Arg::Str(caller);
        match (space, constexpr) {
            (ExecSpace::Device, true) | (ExecSpace::Global, true) => {
                let id =
                    if space == ExecSpace::Device { H_D_ILLEGAL_CALL_CONSTEXPR } else { H_G_ILLEGAL_CALL_CONSTEXPR };
                push(false, id, Severity::Error, vec![Arg::Str(plain.unwrap_or_else(|| name.bare.clone())), caller]);
            }
            // Checked outside lambdas only.
            (ExecSpace::HostDevice, true) if !in_lambda => {
                if let Some(plain) = plain {
                    push(false, H_HD_ILLEGAL_CALL_CONSTEXPR, Severity::Warning, vec![Arg::Str(plain), caller]);
                }
            }
            (ExecSpace::Device | ExecSpace::Global, false) => {
                let id = if space == ExecSpace::Device { H_D_ILLEGAL_CALL } else { H_G_ILLEGAL_CALL };
                push(true, id, Severity::Error, vec![Arg::Str(name.display.clone()), caller]);
                push(true, UNDEFINED_IN_DEVICE_CODE, Severity::Error, vec![Arg::Str(name.undefined.clone())]);
            }
            (ExecSpace::HostDevice, false) => {
                push(true, H_HD_ILLEGAL_CALL, Severity::Warning, vec![Arg::Str(name.display.clone()), caller]);
            }
            _ => {}
        }
    }
    out
}

/// Whether a call in a template depends on its parameters, as far as the
/// model is sure (`None` otherwise): how EDG reports a `constexpr` host
/// callee of device code in instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dependence {
    /// Not dependent (`cf()`, `ns::cf()`, `S::sm()` without arguments):
    /// reported once per template, at its first instantiation, in the
    /// context of what instantiated it (the instance itself left out).
    None,
    /// A dependent name (`cft<T>()`, `std::numeric_limits<T>::lowest()`,
    /// `C<T>::cm()`): once per instance, the instance in the context.
    Name,
    /// `f()` on a local or parameter of a dependent type: the same,
    /// reported twice (checked with a class and a closure type).
    Object,
}

/// Whether a written type or name mentions one of `names`; `None` when
/// the model cannot say (expression arguments, `decltype`, array bounds).
fn type_mentions(t: &cufront_hir::item_tree::TypeRef, names: &[String]) -> Option<bool> {
    use cufront_hir::item_tree::TypeRef;
    match t {
        TypeRef::Builtin(_) | TypeRef::LocalClass(_) | TypeRef::LocalEnum(_) => Some(false),
        TypeRef::Ptr(x)
        | TypeRef::LRef(x)
        | TypeRef::RRef(x)
        | TypeRef::Cv(x, _)
        | TypeRef::Complex(x)
        | TypeRef::Array(x, None) => type_mentions(x, names),
        TypeRef::Path(p) => path_mentions(p, names),
        _ => None,
    }
}

fn path_mentions(p: &cufront_hir::item_tree::Path, names: &[String]) -> Option<bool> {
    use cufront_hir::item_tree::TemplateArgRef;
    let mut unsure = false;
    for seg in &p.segments {
        if names.contains(&seg.name) {
            return Some(true);
        }
        for a in seg.args.iter().flatten() {
            match a {
                TemplateArgRef::Type(t) => match type_mentions(t, names) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => unsure = true,
                },
                _ => unsure = true,
            }
        }
    }
    if unsure { None } else { Some(false) }
}

/// How the call `e` of a template's body depends on `names`, its
/// template parameters.
fn dependence(
    body: &cufront_hir::body::Body,
    r: &infer::InferenceResult,
    e: cufront_hir::body::ExprId,
    names: &[String],
) -> Option<Dependence> {
    use cufront_hir::body::Expr;
    let Some(Expr::Call { callee, args }) = body.exprs.get(e.0 as usize) else { return None };
    let Some(Expr::Path(p)) = body.exprs.get(callee.0 as usize) else { return None };
    if let Some(infer::Resolution::Local(l)) = r.resolutions.get(callee) {
        let local = body.locals.get(l.0 as usize)?;
        return type_mentions(&local.ty, names)?.then_some(Dependence::Object);
    }
    if path_mentions(p, names)? {
        return Some(Dependence::Name);
    }
    // A type-dependent argument makes the call dependent (checked: `cf(t)`
    // with `T t` is reported once per instance, `cf(1)`, `cf(1 + 2)`,
    // `cf(x)` and `cf(-x)` with `int x` once per template).
    let mut dependent = false;
    for &a in args {
        dependent |= type_dependent(body, r, a, names)?;
    }
    Some(if dependent { Dependence::Name } else { Dependence::None })
}

/// Whether the expression `e` of a template's body has a type that
/// depends on `names`; `None` where the model cannot say (only literals,
/// locals and built-in operators over them are read).
fn type_dependent(
    body: &cufront_hir::body::Body,
    r: &infer::InferenceResult,
    e: cufront_hir::body::ExprId,
    names: &[String],
) -> Option<bool> {
    use cufront_hir::body::Expr;
    match body.exprs.get(e.0 as usize)? {
        Expr::Literal(_) => Some(false),
        Expr::Path(_) => match r.resolutions.get(&e)? {
            infer::Resolution::Local(l) => type_mentions(&body.locals.get(l.0 as usize)?.ty, names),
            _ => None,
        },
        Expr::Unary { expr, .. } => type_dependent(body, r, *expr, names),
        Expr::Binary { lhs, rhs, .. } => {
            Some(type_dependent(body, r, *lhs, names)? | type_dependent(body, r, *rhs, names)?)
        }
        _ => None,
    }
}

/// The names of the template parameters in scope in an instance's
/// pattern: the function template's own and its class's; `None` for a
/// class nested in a class template (whose outer parameters are not read).
fn template_param_names(db: &dyn SourceDatabase, inst: cufront_hir::instances::FnInstanceId) -> Option<Vec<String>> {
    let decl = inst.decl(db);
    let mut out: Vec<String> = decl.tparams(db).iter().filter_map(|p| p.name.clone()).collect();
    if let Some(data) = decl.data(db) {
        out.extend(data.outer_tparams.iter().flatten().filter_map(|p| p.name.clone()));
    }
    if let Some(o) = inst.outer(db) {
        let pattern = o.class(db);
        let tree = cufront_hir::item_tree_of(db, pattern.item(db));
        let c = tree.classes.get(pattern.idx(db) as usize)?;
        if c.tparams.as_ref().map_or(0, Vec::len) != o.args(db).len() {
            return None;
        }
        out.extend(c.tparams.iter().flatten().filter_map(|p| p.name.clone()));
    }
    Some(out)
}

/// An instance with its pattern's body, inference, lambdas and template
/// parameter names.
type InstanceBody<'a> = (
    cufront_hir::instances::FnInstanceId,
    &'a cufront_hir::body::Body,
    &'a infer::InferenceResult,
    &'a [calls::Lambda],
    &'a [String],
);

/// One instantiation of the walk: the instance and the offset (in the
/// unit) of the call that first referred to it.
type Step = (cufront_hir::instances::FnInstanceId, u32);

/// `expression must have class type but it has type %t`.
const NOT_CLASS: DiagId = DiagId(153);

/// The class template specialization `t` is (references and cv aside).
fn class_instance(db: &dyn SourceDatabase, t: cufront_hir::ty::TyId) -> Option<cufront_hir::templates::InstId> {
    use cufront_hir::ty::{TyKind, canonical};
    let mut t = canonical(db, t);
    while let TyKind::LRef(x) | TyKind::RRef(x) | TyKind::Qualified(x, _) = t.kind(db) {
        t = canonical(db, *x);
    }
    if !matches!(t.kind(db), TyKind::App(_) | TyKind::Inst(_)) {
        return None;
    }
    match cufront_hir::templates::class_of(db, t) {
        Ok(cufront_hir::templates::ClassRefT::Inst(i)) => Some(i),
        _ => None,
    }
}

/// The member accesses `x.m` of an instance's body whose object is a
/// local, parameter or data member declared of a template parameter's
/// type (`T x`, `const T &x`: dependent, so EDG checks them in the
/// instance only) and is no class there: a scalar, an enumeration or a
/// pointer to an object (checked). `T *p; p.m` is an error of the
/// template itself, not modelled here.
fn dependent_non_class_members(
    db: &dyn SourceDatabase,
    inst: cufront_hir::instances::FnInstanceId,
    body: &cufront_hir::body::Body,
    r: &infer::InferenceResult,
    names: &[String],
) -> Vec<cufront_hir::body::ExprId> {
    use cufront_hir::body::{Expr, ExprId};
    use cufront_hir::item_tree::{Builtin, TypeRef};
    use cufront_hir::ty::{TyKind, canonical};
    fn is_param(t: &TypeRef, names: &[String]) -> bool {
        match t {
            TypeRef::Cv(x, _) | TypeRef::LRef(x) | TypeRef::RRef(x) => is_param(x, names),
            TypeRef::Path(p) => {
                !p.global && matches!(p.segments.as_slice(), [s] if s.args.is_none() && names.contains(&s.name))
            }
            _ => false,
        }
    }
    let mut out = Vec::new();
    for (i, e) in body.exprs.iter().enumerate() {
        let Expr::Member { base, arrow: false, .. } = e else { continue };
        let Some(Expr::Path(p)) = body.exprs.get(base.0 as usize) else { continue };
        let declared = match r.resolutions.get(base) {
            Some(infer::Resolution::Local(l)) => body.locals.get(l.0 as usize).map(|l| l.ty.clone()),
            Some(infer::Resolution::Field) => {
                let ([seg], Some(outer)) = (p.segments.as_slice(), inst.outer(db)) else { continue };
                let pattern = outer.class(db);
                let tree = cufront_hir::item_tree_of(db, pattern.item(db));
                tree.classes
                    .get(pattern.idx(db) as usize)
                    .and_then(|c| c.fields.iter().find(|f| f.name.as_deref() == Some(seg.name.as_str())))
                    .map(|f| f.ty.clone())
            }
            _ => None,
        };
        if !declared.is_some_and(|t| is_param(&t, names)) {
            continue;
        }
        let Some(t) = r.ty(*base) else { continue };
        let mut c = canonical(db, t);
        if let TyKind::Qualified(x, _) = c.kind(db) {
            c = canonical(db, *x);
        }
        let scalar = match c.kind(db) {
            TyKind::Builtin(b) => !matches!(b, Builtin::Void | Builtin::NullPtr),
            TyKind::Enum(_) => true,
            TyKind::Ptr(x) => {
                matches!(
                    canonical(db, *x).kind(db),
                    TyKind::Builtin(b) if !matches!(b, Builtin::Void)
                ) || matches!(canonical(db, *x).kind(db), TyKind::Class(_) | TyKind::Enum(_) | TyKind::Ptr(_))
            }
            _ => false,
        };
        if scalar {
            out.push(ExprId(i as u32));
        }
    }
    out
}

/// A type or name as cicc's front end spells it: `bool` is `__nv_bool`
/// there (checked in `detected during` names, template arguments, `%t`
/// and `operand types are`), a whole word only.
fn nv_bool(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let bytes = s.as_bytes();
    let ident = |b: u8| b == b'_' || b.is_ascii_alphanumeric();
    let mut i = 0;
    while i < s.len() {
        if s[i..].starts_with("bool") && (i == 0 || !ident(bytes[i - 1])) && bytes.get(i + 4).is_none_or(|b| !ident(*b))
        {
            out.push_str("__nv_bool");
            i += 4;
            continue;
        }
        let c = s[i..].chars().next().unwrap_or_default();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Whether `e` names a local or parameter declared of a type that
/// mentions one of `names`, the template parameters (`T x`, `const T &x`):
/// an operand whose operators EDG resolves in each instance.
fn dependent_object(
    body: &cufront_hir::body::Body,
    r: &infer::InferenceResult,
    e: cufront_hir::body::ExprId,
    names: &[String],
) -> bool {
    let Some(cufront_hir::body::Expr::Path(_)) = body.exprs.get(e.0 as usize) else { return false };
    let Some(infer::Resolution::Local(l)) = r.resolutions.get(&e) else { return false };
    body.locals.get(l.0 as usize).is_some_and(|l| type_mentions(&l.ty, names) == Some(true))
}

/// Whether `f` is the `operator()` of a lambda that EDG makes an
/// implicitly `constexpr` host function: one of a host function, without
/// annotations or captures, whose body is empty (`[] { }`, checked; what
/// else EDG finds constexpr-suitable is not modelled).
fn constexpr_host_closure(db: &dyn SourceDatabase, f: infer::ClosureFnId) -> bool {
    use cufront_hir::body::{Expr, Stmt};
    let c = f.closure(db);
    if f.kind(db) != infer::ClosureFnKind::Call || !f.args(db).is_empty() {
        return false;
    }
    let InferOwner::Fn(owner) = c.owner(db) else { return false };
    if !matches!(exec_space::fn_exec_space(db, FnDecl::Fn(owner)), ExecSpace::Host | ExecSpace::ImplicitHost) {
        return false;
    }
    let body = infer::owner_body(db, c.owner(db));
    let Some(Expr::Lambda {
        captures,
        host: false,
        device: false,
        consteval: false,
        tparams: false,
        body: Some(s),
        ..
    }) = body.exprs.get(c.expr(db).0 as usize)
    else {
        return false;
    };
    captures.is_empty() && matches!(body.stmts.get(s.0 as usize), Some(Stmt::Compound(v)) if v.is_empty())
}

/// EDG's instantiation of the function template specializations (and
/// members of class template specializations) the unit uses, after the
/// unit is parsed: those its non-template functions call, in the order
/// first referred to, each instantiated with what its body calls and
/// nobody referred to before, at once, depth first (checked: a callee
/// already referred to by the unit is instantiated as its own root).
/// Host instances are walked too: cicc instantiates them, and they
/// launch kernels.
struct Walk<'a> {
    db: &'a dyn SourceDatabase,
    tu: TranslationUnit,
    opts: Options,
    /// Where each item outside system and toolkit headers starts.
    user_starts: rustc_hash::FxHashMap<cufront_hir::ItemId, u32>,
    seen: rustc_hash::FxHashSet<cufront_hir::instances::FnInstanceId>,
    /// The non-dependent calls reported (once per template).
    reported: rustc_hash::FxHashSet<(FnDecl, cufront_hir::body::ExprId)>,
    /// Instances in the order instantiated.
    order: Vec<cufront_hir::instances::FnInstanceId>,
    /// Findings on `constexpr` host callees, with their context.
    out: Vec<Found>,
    /// Instances left to follow (a bound on runaway instantiation).
    budget: u32,
}

impl Walk<'_> {
    fn run(&mut self) {
        use cufront_hir::Entity;
        use cufront_hir::templates::InstId;
        let db = self.db;
        // (order, point, instance): the first reference to each instance,
        // ordered where EDG resolves it (the end of the call: arguments
        // first), and where each class template specialization is first
        // instantiated (a variable, data member or base of its type, an
        // expression of its type).
        let templates = user_template_names(db, self.tu);
        let mut refs: Vec<(u32, u32, cufront_hir::instances::FnInstanceId)> = Vec::new();
        let mut classes: rustc_hash::FxHashMap<InstId, u32> = Default::default();
        let mut class_at = |t: cufront_hir::ty::TyId, at: u32| {
            if let Some(i) = class_instance(db, t) {
                let e = classes.entry(i).or_insert(at);
                *e = (*e).min(at);
            }
        };
        for (item, start) in calls::user_items(db, self.tu) {
            for &(at, t) in crate::instantiation::item_instantiations(db, item).iter() {
                class_at(t, start + at);
            }
            for f in calls::defined_functions(db, item) {
                let body = infer::decl_body(db, FnDecl::Fn(f));
                if !crate::interest::worth_inferring(&templates, &body) {
                    continue;
                }
                let r = infer::infer(db, InferOwner::Fn(f));
                if r.skipped.is_some() {
                    continue;
                }
                for (i, t) in r.expr_tys.iter().enumerate() {
                    if let (Some(t), Some(range)) = (t, body.expr_ranges.get(i)) {
                        class_at(*t, start + u32::from(range.end()));
                    }
                }
                for (i, t) in r.local_tys.iter().enumerate() {
                    if let (Some(t), Some(Some(name))) = (t, body.local_names.get(i)) {
                        class_at(*t, start + u32::from(name.end()));
                    }
                }
                for (site, callee) in &r.calls {
                    if let Callee::Entity(Entity::FnInst(i)) = callee
                        && let Some(range) = calls::site_range(&body, *site)
                    {
                        refs.push((start + u32::from(range.end()), start + u32::from(range.start()), *i));
                    }
                }
            }
        }
        // An explicit instantiation refers to its specialization where it
        // is written.
        for &(item, at, i) in infer::explicit_instances(db, self.tu).iter() {
            if let Some(&start) = self.user_starts.get(&item) {
                refs.push((start + at, start + at, i));
            }
        }
        refs.sort_by_key(|&(order, _, _)| order);
        let mut roots = Vec::new();
        for (order, point, i) in refs {
            if self.seen.insert(i) {
                // A member of a class template specialization is pending
                // from its class's instantiation on (checked: `Out<int> o;
                // k<<<…>>>(…); o.g();` instantiates `Out<int>::g` first).
                let order = i.outer(db).and_then(|o| classes.get(&o)).map_or(order, |&c| c.min(order));
                roots.push((order, point, i));
            }
        }
        roots.sort_by_key(|&(order, _, _)| order);
        for (_, point, i) in roots {
            self.instantiate(i, point, &[]);
        }
    }

    fn instantiate(&mut self, inst: cufront_hir::instances::FnInstanceId, point: u32, outer: &[Step]) {
        use cufront_hir::Entity;
        let db = self.db;
        if self.budget == 0 || outer.len() >= 200 {
            return;
        }
        self.budget -= 1;
        self.order.push(inst);
        let decl = inst.decl(db);
        let start = self.user_starts.get(&decl.item(db)).copied();
        // The instances of system and toolkit headers are not walked: what
        // they instantiate is the library's (inferring them all costs
        // several times the rest of the check on a Thrust or CUB program).
        // A user template first referred to from one is then not seen
        // there (missed, or placed at its next reference).
        let Some(start) = start else { return };
        let space = exec_space::fn_exec_space(db, decl);
        let device = matches!(space, ExecSpace::Global | ExecSpace::Device | ExecSpace::HostDevice);
        let body = infer::decl_body(db, decl);
        let mut steps = outer.to_vec();
        steps.push((inst, point));
        let r = infer::infer(db, InferOwner::Inst(inst));
        if r.skipped.is_some() {
            return;
        }
        let lambdas = lambdas_of(&body);
        let names = template_param_names(db, inst);
        // The body in the order EDG substitutes it: each call and member
        // access where it ends.
        enum Event {
            Call(CallSite, Entity),
            NotClass(cufront_hir::body::ExprId),
            NoOperator(crate::operators::NoOperator),
        }
        let end = |e: cufront_hir::body::ExprId| body.expr_ranges.get(e.0 as usize).map_or(0, |r| u32::from(r.end()));
        let mut events = Vec::new();
        for (site, callee) in &r.calls {
            if let Callee::Entity(callee) = callee {
                let at = calls::site_range(&body, *site).map_or(0, |r| u32::from(r.end()));
                events.push((at, Event::Call(*site, *callee)));
            }
        }
        if let Some(names) = &names {
            for e in dependent_non_class_members(db, inst, &body, &r, names) {
                events.push((end(e), Event::NotClass(e)));
            }
            // Operators with an operand declared of a dependent type: EDG
            // resolves them in the instance (the classes are complete by
            // then: it instantiates at the end of the unit).
            let wanted = |o: cufront_hir::body::ExprId| dependent_object(&body, &r, o, names);
            for n in crate::operators::body_findings(db, decl, &body, &r, &wanted, &|_, _| true) {
                events.push((n.end, Event::NoOperator(n)));
            }
        }
        events.sort_by_key(|&(at, _)| at);
        // The template's non-dependent calls are checked when it is first
        // instantiated, before its body is substituted (checked: `cf(2)`
        // after `cf(t)` is reported first, and not at all without an
        // instantiation).
        if device
            && !self.opts.relaxed_constexpr
            && let Some(names) = &names
        {
            for (_, event) in &events {
                if let Event::Call(site, callee) = event {
                    let args = (inst, &*body, &*r, &lambdas[..], &names[..]);
                    self.constexpr_call(args, start, *site, *callee, &steps, true);
                }
            }
        }
        for (_, event) in events {
            let (site, callee) = match event {
                Event::Call(site, callee) => (site, callee),
                Event::NoOperator(mut n) => {
                    n.types = nv_bool(&n.types);
                    if let Some(context) = self.context(&steps)
                        && let Some(found) = n.to_found(self.tu.text(db), start)
                    {
                        // The context is printed after the notes.
                        for (i, mut f) in found.into_iter().enumerate() {
                            f.order = u32::MAX - 1;
                            if i == 0 {
                                f.context = context.clone();
                            }
                            self.out.push(f);
                        }
                    }
                    continue;
                }
                Event::NotClass(e) => {
                    if let Some(context) = self.context(&steps) {
                        let base = match body.expr(e) {
                            cufront_hir::body::Expr::Member { base, .. } => *base,
                            _ => continue,
                        };
                        let Some(arg) = r.ty(base).and_then(|t| crate::spell::type_arg(db, t)) else { continue };
                        let arg = match arg {
                            Arg::Type { spelling, aka } => {
                                Arg::Type { spelling: nv_bool(&spelling), aka: aka.map(|a| nv_bool(&a)) }
                            }
                            other => other,
                        };
                        let at = start + body.expr_ranges.get(e.0 as usize).map_or(0, |r| u32::from(r.start()));
                        let mut found = Found::new(at, NOT_CLASS, Severity::Error, vec![arg]);
                        found.order = u32::MAX - 1;
                        found.context = context;
                        self.out.push(found);
                    }
                    continue;
                }
            };
            if device
                && !self.opts.relaxed_constexpr
                && let Some(names) = &names
            {
                let args = (inst, &*body, &*r, &lambdas[..], &names[..]);
                self.constexpr_call(args, start, site, callee, &steps, false);
            }
            if let Entity::FnInst(j) = callee
                && self.seen.insert(j)
            {
                let at = calls::site_range(&body, site).map_or(start, |r| start + u32::from(r.start()));
                self.instantiate(j, at, &steps);
            }
        }
    }

    /// A `constexpr` host function called at `site` of `inst`, a device
    /// instance (3470 from a `__host__ __device__` one, a warning; 3474
    /// and 3476 errors): the calls that do not depend on the template's
    /// parameters when `non_dependent`, else the others.
    fn constexpr_call(
        &mut self,
        (inst, body, r, lambdas, names): InstanceBody<'_>,
        start: u32,
        site: CallSite,
        callee: cufront_hir::Entity,
        steps: &[Step],
        non_dependent: bool,
    ) {
        let db = self.db;
        let CallSite::Expr(e) = site else { return };
        let Some(range) = calls::site_range(body, site) else { return };
        if innermost_lambda(lambdas, range).is_some() {
            return; // a lambda's calls are not modelled here
        }
        let callee_name = match callee {
            cufront_hir::Entity::Closure(f) if constexpr_host_closure(db, f) => "operator()".to_string(),
            cufront_hir::Entity::Fn(_) | cufront_hir::Entity::FnInst(_) => {
                if !matches!(exec_space::exec_space(db, callee), Some(ExecSpace::Host | ExecSpace::ImplicitHost))
                    || !names::is_constexpr(db, callee)
                {
                    return;
                }
                let callee_decl = match callee {
                    cufront_hir::Entity::Fn(f) => FnDecl::Fn(f),
                    cufront_hir::Entity::FnInst(i) => i.decl(db),
                    _ => return,
                };
                let Some(n) = names::plain_name(db, callee_decl) else { return };
                n
            }
            _ => return,
        };
        let decl = inst.decl(db);
        let Some(caller) = names::plain_name(db, decl) else { return };
        let Some(dep) = dependence(body, r, e, names) else { return };
        if non_dependent != matches!(dep, Dependence::None) {
            return;
        }
        let (context_steps, times) = match dep {
            Dependence::None => {
                if !self.reported.insert((decl, e)) {
                    return;
                }
                (&steps[..steps.len() - 1], 1)
            }
            Dependence::Name => (steps, 1),
            Dependence::Object => (steps, 2),
        };
        let Some(context) = self.context(context_steps) else { return };
        let (id, severity) = match exec_space::fn_exec_space(db, decl) {
            ExecSpace::HostDevice => (H_HD_ILLEGAL_CALL_CONSTEXPR, Severity::Warning),
            ExecSpace::Device => (H_D_ILLEGAL_CALL_CONSTEXPR, Severity::Error),
            ExecSpace::Global => (H_G_ILLEGAL_CALL_CONSTEXPR, Severity::Error),
            _ => return,
        };
        let (at, skip_blanks) = match (callee, body.expr(e)) {
            // A closure object called: at the `(`, as a class object's
            // `operator()` (checked).
            (cufront_hir::Entity::Closure(_), cufront_hir::body::Expr::Call { callee: c, .. }) => {
                (u32::from(body.expr_ranges[c.0 as usize].end()), true)
            }
            _ => {
                let (at, skip_blanks, _) = calls::caret(db, body, site, callee);
                (at, skip_blanks)
            }
        };
        let at = calls::place(self.tu.text(db), start + at, skip_blanks);
        for _ in 0..times {
            let mut found = Found::new(at, id, severity, vec![Arg::Str(callee_name.clone()), Arg::Str(caller.clone())]);
            // After everything the parse reports (EDG instantiates at the
            // end of the unit), before the late phase.
            found.order = u32::MAX - 1;
            found.context = context.clone();
            self.out.push(found);
        }
    }

    /// EDG's `detected during` entries for `steps`, innermost first.
    fn context(&self, steps: &[Step]) -> Option<Vec<cufront_diagnostics::ContextEntry>> {
        use cufront_diagnostics::{ContextEntry, ContextKind, Entity};
        let mut out = Vec::new();
        for &(inst, point) in steps.iter().rev() {
            let with = nv_bool(&names::instance_context_name(self.db, inst)?);
            out.push(ContextEntry {
                kind: ContextKind::Instantiation,
                entity: Entity { kind: None, name: with.clone(), with_template_args: Some(with), ..Entity::default() },
                at: crate::redefinition::position(self.db, self.tu, point),
            });
        }
        Some(out)
    }
}

/// The names of the function and class templates the user's code
/// defines (headers outside the system and the toolkit's included): a
/// body that names none of them (and launches no kernel) refers to no
/// instance the walk follows, and is not inferred for it (inferring a
/// host body that calls into a template library costs much).
#[salsa::tracked(returns(clone))]
pub fn user_template_names(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<rustc_hash::FxHashSet<String>> {
    let mut out = rustc_hash::FxHashSet::default();
    for (item, _) in calls::user_items(db, tu) {
        let tree = cufront_hir::item_tree_of(db, item);
        for t in &tree.fn_templates {
            if let FnName::Ident(n) = &t.f.name {
                out.insert(n.clone());
            }
        }
        for c in tree.classes.iter().filter(|c| c.tparams.is_some()) {
            out.extend(c.name.clone());
        }
    }
    Arc::new(out)
}

/// The instantiation walk of the unit (`Walk`): the findings on
/// `constexpr` host callees of device instances, and the instances in
/// the order instantiated.
fn instantiate_unit(
    db: &dyn SourceDatabase,
    tu: TranslationUnit,
    opts: Options,
) -> (Vec<Found>, Vec<cufront_hir::instances::FnInstanceId>) {
    let mut walk = Walk {
        db,
        tu,
        opts,
        user_starts: calls::user_items(db, tu).into_iter().collect(),
        seen: Default::default(),
        reported: Default::default(),
        order: Vec::new(),
        out: Vec::new(),
        budget: 20_000,
    };
    walk.run();
    (walk.out, walk.order)
}

/// What cicc's front end reports for the unit (its device preprocessing),
/// in report order.
pub fn device_pass(db: &dyn SourceDatabase, tu: TranslationUnit, opts: Options) -> Vec<Found> {
    let text = tu.text(db);
    let mut early = Vec::new();
    let mut late_decls = Vec::new();
    let mut late_fns = Vec::new();
    let mut late_kernels = Vec::new();
    let mut late_members = Vec::new();
    for (item, start) in calls::user_items(db, tu) {
        for f in calls::defined_functions(db, item) {
            let kernel = exec_space::fn_exec_space(db, FnDecl::Fn(f)) == ExecSpace::Global;
            for r in crate::device_code::fn_extern_shared_findings(db, f, opts.extended_lambda).iter() {
                let at = start + r.at;
                let (id, severity, args) = (r.id, r.severity, r.args.clone());
                late_decls.push(Found { late: true, ..Found::new(at, id, severity, args) });
            }
            let mut order = 0;
            let vars = crate::vars::fn_device_var_findings(db, f);
            for d in vars.iter().chain(fn_device_call_findings(db, f, opts.relaxed_constexpr).iter()) {
                let at = calls::place(text, start + d.at, d.skip_blanks);
                order = u32::max(order, at);
                let found = Found { order, late: d.late, ..Found::new(at, d.id, d.severity, d.args.clone()) };
                match (d.late, kernel) {
                    (false, _) => early.push(found),
                    (true, false) => late_fns.push(found),
                    (true, true) => late_kernels.push(found),
                }
            }
        }
    }
    // Function template specializations in device code: their host calls,
    // with the unit's other late findings (the template's item places them).
    let starts = calls::item_starts(db, tu);
    let (instance_findings, instances) = instantiate_unit(db, tu, opts);
    let device_side = |i: cufront_hir::instances::FnInstanceId| {
        !i.args(db).is_empty()
            && matches!(
                exec_space::fn_exec_space(db, i.decl(db)),
                ExecSpace::Global | ExecSpace::Device | ExecSpace::HostDevice
            )
    };
    for inst in instances.into_iter().filter(|i| device_side(*i)) {
        let findings = inst_device_call_findings(db, inst);
        if findings.is_empty() {
            continue;
        }
        let item = inst.decl(db).item(db);
        let Some(&(_, start)) = starts.iter().find(|(i, _)| *i == item) else { continue };
        let kernel = exec_space::fn_exec_space(db, inst.decl(db)) == ExecSpace::Global;
        // cicc reports the instances of member templates after the
        // kernels (checked with one; the order among scopes is not known
        // in general).
        let member = names::scope_names(db, inst.decl(db)).and_then(|s| s.last().map(|(class, _)| *class));
        for d in findings.iter() {
            let at = calls::place(text, start + d.at, d.skip_blanks);
            let found = Found { order: at, late: true, ..Found::new(at, d.id, d.severity, d.args.clone()) };
            match (member, kernel) {
                (Some(true), _) => late_members.push(found),
                (_, true) => late_kernels.push(found),
                (_, false) => late_fns.push(found),
            }
        }
    }
    // Unmodifiable operands where they are; missing returns and
    // unreferenced variables when each function's body ends.
    for (item, start) in calls::user_items(db, tu) {
        // The declaration warnings cudafe++ gives are given again (spec 61:
        // 20050, 20012), and a `constexpr` kernel is an error here.
        for r in crate::item_decl_findings(db, item).iter().filter(|r| r.severity == Severity::Warning) {
            let at = start + r.at;
            let (id, severity, args) = (r.id, r.severity, r.args.clone());
            early.push(Found::new(at, id, severity, args));
        }
        for r in crate::device_decls::item_device_decl_findings(db, item).iter() {
            let at = start + r.at;
            let (id, severity, args) = (r.id, r.severity, r.args.clone());
            early.push(Found::new(at, id, severity, args));
        }
        let tree = cufront_hir::item_tree_of(db, item);
        let offsets = cufront_hir::item_offsets(db, item);
        for (f, &at) in tree.fns.iter().zip(offsets.fns.iter()) {
            if f.linkage.cuda.global && f.linkage.is_constexpr {
                let at = start + at;
                let (id, severity) = (GLOBAL_CONSTEXPR, Severity::Error);
                early.push(Found::new(at, id, severity, vec![]));
            }
        }
        for v in calls::defined_variables(db, item) {
            let dynamic = crate::var_dynamic_init_findings(db, v);
            let (constants, conversions) = (crate::var_constant_findings(db, v), crate::var_conversion_findings(db, v));
            for r in constants.iter().chain(conversions.iter()).chain(dynamic.iter()) {
                let at = start + r.at;
                let (id, severity, args) = (r.id, r.severity, r.args.clone());
                early.push(Found::new(at, id, severity, args));
            }
        }
        for f in calls::defined_functions(db, item) {
            crate::deprecated::findings(db, tu, f, start, &mut early);
            crate::device_vla::findings(db, tu, f, start, &mut early);
            let code = crate::device_code::fn_device_code_findings(db, f, opts.extended_lambda, opts.whole_program);
            for r in code.iter() {
                let at = start + r.at;
                let (id, severity, args) = (r.id, r.severity, r.args.clone());
                early.push(Found::new(at, id, severity, args));
            }
            let (unmodifiable, operands) = (crate::fn_unmodifiable(db, f), crate::fn_operand_findings(db, f));
            let (conversions, constants) = (crate::fn_conversion_findings(db, f), crate::fn_constant_findings(db, f));
            for r in unmodifiable.iter().chain(operands.iter()).chain(conversions.iter()).chain(constants.iter()) {
                let at = start + r.at;
                let (id, severity, args) = (r.id, r.severity, r.args.clone());
                early.push(Found::new(at, id, severity, args));
            }
            for n in crate::operators::fn_no_operator_findings(db, f).iter() {
                let n = crate::operators::NoOperator { types: nv_bool(&n.types), ..n.clone() };
                early.extend(n.to_found(text, start).unwrap_or_default());
            }
            let unused = crate::unused::fn_unused_locals(db, f);
            // EDG reports them when the body ends: at its closing brace
            // (after a syntax error the body's last expression may be
            // earlier).
            let end = crate::flow::closing_brace(db, f).unwrap_or(unused.1).max(unused.1);
            let mut raws = crate::set_unused::end_of_scope_warnings(db, f, &unused.0);
            let vlas = crate::fn_device_vlas(db, f);
            raws.retain(|r| !vlas.iter().any(|v| v.array == r.at));
            // A missing return first, then the unreferenced variables.
            let missing = crate::flow::fn_missing_return(db, f);
            for r in missing.iter().chain(raws.iter()) {
                early.push(Found { order: start + end, ..Found::new(start + r.at, r.id, r.severity, r.args.clone()) });
            }
        }
    }
    early.extend(closure_launches(db, tu, opts));
    early.extend(undefined_names(db, tu));
    early.sort_by_key(|f| f.order);
    early.extend(instance_findings);
    // The late phase runs only on a unit without errors.
    if !early.iter().any(|f| f.severity >= Severity::Error) {
        early.extend(late_decls);
        early.extend(late_fns);
        early.extend(late_kernels);
        early.extend(late_members);
    }
    early
}

/// `identifier "x" is undefined` on the device preprocessing: names the
/// host preprocessing does not see (code under `#ifdef __CUDA_ARCH__`),
/// by the rules of the host pass (`undefined`).
fn undefined_names(db: &dyn SourceDatabase, tu: TranslationUnit) -> Vec<Found> {
    use crate::undefined::{self, Owner};
    let mut unknown = Vec::new();
    for (item, start) in calls::user_items(db, tu) {
        let types = crate::item_unknown_type_names(db, item);
        unknown.extend(types.iter().map(|(at, n)| (Owner::Type, start + at, n.clone())));
        for v in calls::defined_variables(db, item) {
            let names = crate::var_unknown_names(db, v);
            unknown.extend(names.iter().map(|(at, n)| (Owner::Namespace, start + at, n.clone())));
        }
        for f in calls::defined_functions(db, item) {
            let names = crate::fn_unknown_names(db, f);
            unknown.extend(names.iter().map(|(at, n)| (Owner::Fn(f), start + at, n.clone())));
        }
    }
    undefined::findings(tu.text(db), &unknown)
}

/// Message 3582: a closure type among a kernel instance's template arguments.
const GLOBAL_LAMBDA_TEMPLATE_ARG: DiagId = DiagId(3582);

/// Kernel template instances whose arguments hold a closure type that may
/// not be there (`closure_args`), each at its first launch in the unit.
fn closure_launches(db: &dyn SourceDatabase, tu: TranslationUnit, opts: Options) -> Vec<Found> {
    use cufront_diagnostics::{ContextEntry, ContextKind, Entity};
    let mut seen = rustc_hash::FxHashSet::default();
    let mut out = Vec::new();
    let starts = calls::item_starts(db, tu);
    for (item, start) in calls::user_items(db, tu) {
        for f in calls::defined_functions(db, item) {
            for l in crate::closure_args::fn_closure_launches(db, f, opts.extended_lambda).iter() {
                if !seen.insert(l.inst) {
                    continue;
                }
                let at = start + l.at;
                let Some(found) = (|| {
                    let spelling = crate::closure_args::closure(db, l.closure)?;
                    let lambda_item = match l.closure.owner(db) {
                        cufront_hir::infer::InferOwner::Fn(g) => g.item(db),
                        _ => return None,
                    };
                    let lambda_start = starts.iter().find(|(i, _)| *i == lambda_item)?.1;
                    let body = cufront_hir::infer::owner_body(db, l.closure.owner(db));
                    let lambda_at =
                        lambda_start + u32::from(body.expr_ranges.get(l.closure.expr(db).0 as usize)?.start());
                    let cufront_diagnostics::Pos::At { file, line } = crate::redefinition::position(db, tu, lambda_at)
                    else {
                        return None;
                    };
                    let args = l.inst.args(db);
                    let list: Vec<String> =
                        args.iter().map(|a| crate::closure_args::template_arg(db, a)).collect::<Option<_>>()?;
                    let name = crate::names::callee_name(db, cufront_hir::Entity::FnInst(l.inst))?.bare;
                    let entity = Entity {
                        kind: None,
                        name,
                        based_on: Some((args.len(), format!("<{}>", list.join(", ")))),
                        ..Entity::default()
                    };
                    let context = ContextEntry {
                        kind: ContextKind::InstantiationBasedOn,
                        entity,
                        at: crate::redefinition::position(db, tu, at),
                    };
                    let args = vec![Arg::Type { spelling, aka: None }, Arg::Str(format!(", defined at {file}:{line}"))];
                    let mut found = Found::new(at, GLOBAL_LAMBDA_TEMPLATE_ARG, Severity::Error, args);
                    found.context.push(context);
                    Some(found)
                })() else {
                    continue;
                };
                out.push(found);
            }
        }
    }
    out
}
