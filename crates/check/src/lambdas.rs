//! The host pass's rules on extended lambdas (spec 30 §5.3; cudafe++
//! reports them, spec 61): a `__device__` or `__host__ __device__` lambda
//! in host code (a host or `__host__ __device__` function, not inside a
//! `__device__` lambda) is *extended*, and cudafe++ restricts it.
//!
//! - Without `--extended-lambda`, any lambda annotated `__host__` or
//!   `__device__` is an error (20155), and nothing else is checked.
//! - With it, per extended lambda, in EDG's order (which is not caret
//!   order: found by running cudafe++ on combinations):
//!   1. at its parameter list: defined inside an extended `__host__
//!      __device__` lambda (20162), else inside a generic lambda (20161);
//!      either one skips 2 and 3;
//!   2. at its parameter list, the enclosing function: a member of a local
//!      class (20135) or of an unnamed class (20144), a constructor or
//!      destructor (20143), a deduced return type (20156), private or
//!      protected (20151), in a private or protected nested class (20152);
//!   3. the capture list: a capture by reference (20136, at its name), an
//!      init-capture of a `__host__ __device__` lambda (20158), then a `&`
//!      default (20136, at the parameter list);
//!   4. `constexpr`/`consteval` (20163, at the body);
//!   5. with a `&` default, each enclosing automatic variable the body
//!      odr-uses, at its first use (20136);
//!   6. a generic `__host__ __device__` lambda (20157, at its `[`).
//!
//! Lambdas in templated functions are checked where they are written, as
//! EDG does (instantiation reports nothing more). Facts come from hir:
//! the body's lambda expressions and their marks, local uses
//! (`hir::local_uses`), the enclosing function's item tree data and
//! class scope; attributes through `cufront_cuda::attrs` (hir's lowering).

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Severity};
use cufront_hir::body::{Body, Capture, Expr, ExprId, LambdaMarks};
use cufront_hir::exec_space::{self, ExecSpace};
use cufront_hir::infer;
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::item_tree::{Access, FnName, TypeRef};
use cufront_hir::local_uses::local_uses;
use cufront_hir::scopes::{self, ScopeKind, def_map};

use crate::Raw;

/// `An extended %s lambda cannot capture variables by reference`
const REFERENCE_CAPTURE: DiagId = DiagId(3593);
/// `The enclosing parent function (%sq2) for an extended %s1 lambda must not be defined inside another function`
const PARENT_IN_LOCAL_CLASS: DiagId = DiagId(3592);
/// `The enclosing parent function (%sq2) for an extended %s1 lambda must allow its address to be taken`
const NO_ADDRESS: DiagId = DiagId(3600);
/// `The enclosing parent function (%sq2) for an extended %s1 lambda cannot be a member function of a class that is unnamed`
const PARENT_IN_UNNAMED_CLASS: DiagId = DiagId(3601);
/// `The enclosing parent function (%sq2) for an extended %s1 lambda cannot have private or protected access within its class`
const PRIVATE_PARENT: DiagId = DiagId(3608);
/// `An extended %s1 lambda cannot be defined inside a class (%sq2) with private or protected access within another class`
const IN_PRIVATE_CLASS: DiagId = DiagId(3609);
/// `The enclosing parent function (%sq2) for an extended %s1 lambda must not have deduced return type`
const DEDUCED_PARENT: DiagId = DiagId(3613);
/// `__host__ __device__ extended lambdas cannot be generic lambdas`
const GENERIC_HD: DiagId = DiagId(3614);
/// `init-captures are not allowed for extended __host__ __device__ lambdas`
const HD_INIT_CAPTURE: DiagId = DiagId(3615);
/// `An extended %s1 lambda cannot be defined inside a generic lambda expression(%sq2).`
const IN_GENERIC_LAMBDA: DiagId = DiagId(3618);
/// `An extended %s1 lambda cannot be defined inside an extended __host__ __device__  lambda expression(%sq2).`
const IN_HD_LAMBDA: DiagId = DiagId(3619);
/// `The %s1 specifier is not allowed for an extended %s2 lambda`
const CONSTEXPR_LAMBDA: DiagId = DiagId(3620);
/// `__host__ or __device__ annotation on lambda requires --extended-lambda nvcc flag`
const NEEDS_FLAG: DiagId = DiagId(3612);

/// One lambda expression of a body, as the rules read it.
struct Lambda<'b> {
    expr: ExprId,
    marks: &'b LambdaMarks,
    captures: &'b [Capture],
    host: bool,
    device: bool,
    generic: bool,
    constexpr: bool,
    consteval: bool,
    range: cufront_syntax::TextRange,
}

impl Lambda<'_> {
    fn word(&self) -> &'static str {
        if self.host { "__host__ __device__" } else { "__device__" }
    }
}

/// The lambdas of a body in source order (outer before inner).
fn lambdas(body: &Body) -> Vec<Lambda<'_>> {
    let mut all: Vec<Lambda<'_>> = body
        .lambda_marks
        .iter()
        .filter_map(|m| {
            let Expr::Lambda { captures, params, host, device, constexpr, consteval, tparams, .. } =
                body.exprs.get(m.expr.0 as usize)?
            else {
                return None;
            };
            let generic = *tparams || params.iter().any(|p| contains_auto(&body.local(*p).ty));
            Some(Lambda {
                expr: m.expr,
                marks: m,
                captures,
                host: *host,
                device: *device,
                generic,
                constexpr: *constexpr,
                consteval: *consteval,
                range: *body.expr_ranges.get(m.expr.0 as usize)?,
            })
        })
        .collect();
    all.sort_by_key(|l| l.marks.start);
    all
}

fn error(out: &mut Vec<Raw>, at: cufront_syntax::TextSize, id: DiagId, args: Vec<&str>) {
    let args = args.into_iter().map(|a| Arg::Str(a.to_string())).collect();
    out.push(Raw { at: at.into(), id, severity: Severity::Error, args });
}

/// Without `--extended-lambda`: every annotated lambda of a body (20155).
fn needs_flag(body: &Body) -> Vec<Raw> {
    let mut out = Vec::new();
    for l in lambdas(body).iter().filter(|l| l.host || l.device) {
        error(&mut out, l.marks.head, NEEDS_FLAG, vec![]);
    }
    out
}

/// What the host pass finds on the lambdas of the default member
/// initializers of an item's classes (never extended either).
#[salsa::tracked(returns(clone))]
pub fn item_field_lambda_findings(
    db: &dyn SourceDatabase,
    item: cufront_hir::ItemId,
    extended_lambda: bool,
) -> Arc<Vec<Raw>> {
    if extended_lambda {
        return Arc::default();
    }
    let tree = cufront_hir::item_tree_of(db, item);
    let mut out = Vec::new();
    for i in 0..tree.classes.len() {
        let c = cufront_hir::ClassId::new(db, item, i as u32);
        for (_, body) in infer::field_init_bodies(db, c).iter() {
            out.extend(needs_flag(body));
        }
    }
    out.sort_by_key(|r| r.at);
    Arc::new(out)
}

/// What the host pass finds on the lambdas of a namespace-scope variable's
/// initializer: such a lambda is never extended, but its annotations still
/// need the flag.
#[salsa::tracked(returns(clone))]
pub fn var_lambda_findings(db: &dyn SourceDatabase, v: cufront_hir::VarId, extended_lambda: bool) -> Arc<Vec<Raw>> {
    if extended_lambda {
        return Arc::default();
    }
    let body = infer::var_init::var_init_body(db, instances::VarDecl::Var(v));
    if body.lambda_marks.is_empty() {
        return Arc::default();
    }
    Arc::new(needs_flag(&body))
}

fn contains_auto(t: &TypeRef) -> bool {
    match t {
        TypeRef::Opaque(s) => s == "auto" || s == "decltype(auto)",
        TypeRef::Ptr(x) | TypeRef::LRef(x) | TypeRef::RRef(x) | TypeRef::Cv(x, _) => contains_auto(x),
        _ => false,
    }
}

/// What the rules need of the enclosing ("parent") function.
#[derive(Default)]
struct Parent {
    /// Its name as EDG prints it in these messages (`f`, `S`, `~S`); `None`:
    /// not known, and the rules that name it stay silent.
    name: Option<String>,
    local_class: bool,
    unnamed_class: bool,
    ctor_dtor: bool,
    deduced: bool,
    private: bool,
    /// The innermost enclosing class with private or protected access in its own class.
    private_class: Option<String>,
}

fn parent(db: &dyn SourceDatabase, decl: FnDecl) -> Option<Parent> {
    let data = decl.data(db)?;
    let mut p = Parent {
        deduced: contains_auto(&data.ty.ret),
        ctor_dtor: matches!(data.name, FnName::Ctor | FnName::Dtor),
        ..Parent::default()
    };
    let map = def_map(db, decl.tu(db));
    let scope = instances::fn_scope(db, decl)?;
    let class = match map.scope(scope).kind {
        ScopeKind::Class(c) => Some(c),
        _ => None,
    };
    let class_name = |c: cufront_hir::ClassId| c.data(db).classes.get(c.idx(db) as usize).and_then(|d| d.name.clone());
    p.name = match &data.name {
        FnName::Ident(s) => Some(s.clone()),
        FnName::Operator(op) => Some(format!("operator{op}")),
        FnName::Ctor => class.and_then(class_name),
        FnName::Dtor => class.and_then(class_name).map(|n| format!("~{n}")),
        FnName::Conversion(_) | FnName::Literal(_) => None,
    };
    let Some(class) = class else { return Some(p) };
    let tree = class.data(db);
    let cd = tree.classes.get(class.idx(db) as usize)?;
    // A typedef name for linkage purposes does not name it (`typedef struct {…} T;`).
    p.unnamed_class = cd.name.is_none();
    let mut s = Some(scope);
    while let Some(i) = s {
        if matches!(map.scope(i).kind, ScopeKind::Block(_)) {
            p.local_class = true;
        }
        s = map.scope(i).parent;
    }
    // The access of the declaration in the class body (an out-of-line
    // definition: the in-class declarations of its name, if they agree).
    p.private = if data.in_class || data.qualifier.is_none() {
        data.access != Access::Public
    } else {
        let key = scopes::fn_name_key(&data.name);
        let decls: Vec<Access> = map
            .scope(scope)
            .names
            .get(&key)
            .into_iter()
            .flatten()
            .filter_map(instances::def_fn)
            .filter_map(|d| d.data(db))
            .filter(|d| d.in_class)
            .map(|d| d.access)
            .collect();
        match decls.split_first() {
            Some((a, rest)) if rest.iter().all(|b| b == a) => *a != Access::Public,
            _ => false,
        }
    };
    // Up the nested classes: the first one that is not public in its parent.
    let mut c = (scope, class);
    while let Some(up) = map.scope(c.0).parent {
        let ScopeKind::Class(outer) = map.scope(up).kind else { break };
        let Some(d) = c.1.data(db).classes.get(c.1.idx(db) as usize).cloned() else { break };
        if d.access != Access::Public {
            p.private_class = d.name.clone();
            break;
        }
        c = (up, outer);
    }
    Some(p)
}

/// What the host pass finds on the lambdas of one function body (offsets
/// relative to the item that holds the body).
#[salsa::tracked(returns(clone))]
pub fn fn_lambda_findings(db: &dyn SourceDatabase, decl: FnDecl, extended_lambda: bool) -> Arc<Vec<Raw>> {
    let body = infer::decl_body(db, decl);
    if body.lambda_marks.is_empty() {
        return Arc::default();
    }
    if !extended_lambda {
        return Arc::new(needs_flag(&body));
    }
    let all = lambdas(&body);
    let mut out = Vec::new();
    let err = error;
    let space = exec_space::fn_exec_space(db, decl);
    if !matches!(space, ExecSpace::Host | ExecSpace::ImplicitHost | ExecSpace::HostDevice) {
        return Arc::new(out);
    }
    let enclosing = |l: &Lambda| -> Vec<&Lambda> {
        all.iter().filter(|o| o.expr != l.expr && o.range.contains_range(l.range) && o.range != l.range).collect()
    };
    let parent = parent(db, decl);
    let mut uses = None;
    for l in all.iter().filter(|l| l.device) {
        let outer = enclosing(l);
        // Inside a `__device__` lambda: device code, not extended.
        if outer.iter().any(|o| o.device && !o.host) {
            continue;
        }
        let word = l.word();
        let head = l.marks.head;
        let nested = if outer.iter().any(|o| o.device && o.host) {
            Some(IN_HD_LAMBDA)
        } else if outer.iter().any(|o| o.generic) {
            Some(IN_GENERIC_LAMBDA)
        } else {
            None
        };
        if let Some(id) = nested {
            err(&mut out, head, id, vec![word, "operator()"]);
        } else {
            if let Some(p) = &parent
                && let Some(name) = &p.name
            {
                let checks = [
                    (p.local_class, PARENT_IN_LOCAL_CLASS),
                    (p.unnamed_class, PARENT_IN_UNNAMED_CLASS),
                    (p.ctor_dtor, NO_ADDRESS),
                    (p.deduced, DEDUCED_PARENT),
                    (p.private, PRIVATE_PARENT),
                ];
                for (_, id) in checks.into_iter().filter(|(c, _)| *c) {
                    err(&mut out, head, id, vec![word, name]);
                }
                if let Some(c) = &p.private_class {
                    err(&mut out, head, IN_PRIVATE_CLASS, vec![word, c]);
                }
            }
            for (c, &at) in l.captures.iter().zip(&l.marks.captures) {
                let Capture::Var { by_ref, init, .. } = c else { continue };
                if init.is_some() && l.host {
                    err(&mut out, at, HD_INIT_CAPTURE, vec![]);
                }
                if *by_ref {
                    err(&mut out, at, REFERENCE_CAPTURE, vec![word]);
                }
            }
            if l.captures.iter().any(|c| matches!(c, Capture::Default { by_ref: true })) {
                err(&mut out, head, REFERENCE_CAPTURE, vec![word]);
            }
        }
        if let Some(at) = l.marks.body
            && (l.constexpr || l.consteval)
        {
            let which = if l.constexpr { "constexpr" } else { "consteval" };
            err(&mut out, at, CONSTEXPR_LAMBDA, vec![which, word]);
        }
        if l.captures.iter().any(|c| matches!(c, Capture::Default { by_ref: true })) {
            let uses = uses.get_or_insert_with(|| local_uses(&body));
            for at in implicit_by_ref(&body, uses, l, &all) {
                err(&mut out, at, REFERENCE_CAPTURE, vec![word]);
            }
        }
        if l.host && l.generic {
            err(&mut out, l.marks.start, GENERIC_HD, vec![]);
        }
    }
    Arc::new(out)
}

/// Where a `[&]` lambda first odr-uses each automatic variable it does not
/// declare and does not capture explicitly, in order.
fn implicit_by_ref(
    body: &Body,
    uses: &cufront_hir::local_uses::LocalUses,
    l: &Lambda,
    all: &[Lambda],
) -> Vec<cufront_syntax::TextSize> {
    let own = |owner: Option<ExprId>| {
        owner.is_some_and(|o| all.iter().find(|x| x.expr == o).is_some_and(|x| l.range.contains_range(x.range)))
    };
    let named: Vec<&str> = l
        .captures
        .iter()
        .filter_map(|c| match c {
            Capture::Var { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let mut seen = Vec::new();
    let mut out = Vec::new();
    let mut inside: Vec<_> = uses
        .uses
        .iter()
        .filter(|u| !u.unevaluated)
        .filter_map(|u| Some((*body.expr_ranges.get(u.expr.0 as usize)?, u.local)))
        .filter(|(r, _)| l.range.contains_range(*r))
        .collect();
    inside.sort_by_key(|(r, _)| r.start());
    for (r, local) in inside {
        let x = body.local(local);
        // Statics are not captured. EDG reports `const` and `constexpr`
        // locals too (no odr-use exemption), outside unevaluated operands.
        if x.is_static || x.is_thread_local || own(uses.owner[local.0 as usize]) {
            continue;
        }
        if x.name.as_deref().is_some_and(|n| named.contains(&n)) || seen.contains(&local) {
            continue;
        }
        seen.push(local);
        out.push(r.start());
    }
    out
}

/// The function definitions of an item whose bodies may hold lambdas the
/// host pass checks, with the offset their body offsets are relative to
/// (within the item): its functions, its function templates, and the
/// member functions of the local classes its bodies define.
pub(crate) fn lambda_owners(db: &dyn SourceDatabase, item: cufront_hir::ItemId) -> Vec<(FnDecl, u32)> {
    let mut out: Vec<(FnDecl, u32)> = Vec::new();
    let defined = |item: cufront_hir::ItemId, at: u32, out: &mut Vec<(FnDecl, u32)>| {
        let tree = cufront_hir::item_tree_of(db, item);
        for (i, f) in tree.fns.iter().enumerate() {
            if f.linkage.is_definition && !f.deleted && !f.defaulted {
                out.push((FnDecl::Fn(cufront_hir::FnId::new(db, item, i as u32)), at));
            }
        }
        for (i, t) in tree.fn_templates.iter().enumerate() {
            if t.f.linkage.is_definition && !t.f.deleted && !t.f.defaulted {
                out.push((FnDecl::Template(cufront_hir::FnTemplateId::new(db, item, i as u32)), at));
            }
        }
    };
    defined(item, 0, &mut out);
    for c in cufront_hir::local_classes::item_local_classes(db, item).iter() {
        defined(c.id, c.at, &mut out);
    }
    out
}
