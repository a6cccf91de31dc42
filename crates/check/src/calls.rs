//! The host pass's rules on calls (spec 20 §6.1):
//!
//! - in a body whose effective side is host (a host function, the host
//!   view of a `__host__ __device__` one, a lambda in either that takes the
//!   enclosing function's space), calling a device-only function is an
//!   error: 3464/3465 from a host caller, 3462/3463 from an HD one (the
//!   `constexpr` twins disappear with `--expt-relaxed-constexpr`);
//! - in any body, a `__global__` function called without `<<<…>>>` must be
//!   configured, and a host or device function cannot be (3508).
//!
//! Where EDG puts the caret: at the callee's name (a member call: the
//! member's name), at the operator of an operator call, at the `(` of a
//! call of a class object (reported twice: EDG checks that call twice),
//! at the declared name for the construction and destruction of a local
//! (destructor first), at the start of a temporary's construction.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Severity};
use cufront_hir::body::{Body, Expr, ExprId};
use cufront_hir::exec_space::{self, ExecSpace};
use cufront_hir::infer::{self, CallSite, Callee, InferOwner};
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::FnName;
use cufront_hir::{Entity, FnId};
use cufront_syntax::{TextRange, TextSize};

use crate::{Found, Options, names};

const D_HD_ILLEGAL_CALL: DiagId = DiagId(3462);
const D_H_ILLEGAL_CALL: DiagId = DiagId(3464);
const CONFIGURATION_ERROR: DiagId = DiagId(3508);

/// One finding of a function body, at an offset relative to its top-level item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Relative to the function's top-level item.
    pub at: u32,
    /// The caret goes to the first non-blank byte from `at` (an operator
    /// after its left operand).
    pub skip_blanks: bool,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A device-only function called from host code.
    DeviceCall { callee: names::CalleeName, caller: String, from_hd: bool, constexpr: bool },
    /// A `__global__` function called without a launch configuration.
    MustConfigure,
    /// A launch configuration on a host (`device: false`) or device/HD function.
    CannotConfigure { device: bool },
}

/// Where a caret at `at` goes: with `skip_blanks`, the first non-blank
/// byte from there (an operator after its left operand).
pub(crate) fn place(text: &str, at: u32, skip_blanks: bool) -> u32 {
    if !skip_blanks {
        return at;
    }
    let rest = text.as_bytes().get(at as usize..).unwrap_or_default();
    at + rest.iter().take_while(|b| b.is_ascii_whitespace()).count() as u32
}

impl Finding {
    pub(crate) fn to_found(&self, opts: Options, item_start: u32, text: &str) -> Option<Found> {
        let at = place(text, item_start + self.at, self.skip_blanks);
        let (id, args, once) = match &self.kind {
            Kind::DeviceCall { callee, caller, from_hd, constexpr } => {
                if *constexpr && opts.relaxed_constexpr {
                    return None;
                }
                let base = if *from_hd { D_HD_ILLEGAL_CALL } else { D_H_ILLEGAL_CALL };
                let id = DiagId(base.0 + u16::from(*constexpr));
                let caller = Arg::Str(caller.clone());
                let args = vec![Arg::Str(callee.display.clone()), caller.clone()];
                let once = callee.once_erred.clone().map(|p| vec![Arg::Str(p), caller]);
                (id, args, once)
            }
            Kind::MustConfigure => {
                (CONFIGURATION_ERROR, vec![Arg::Str("__global__".into()), Arg::Str("must".into())], None)
            }
            Kind::CannotConfigure { device } => {
                let who = if *device { "__device__" } else { "host" };
                (CONFIGURATION_ERROR, vec![Arg::Str(who.into()), Arg::Str("cannot".into())], None)
            }
        };
        Some(Found { args_once_erred: once, ..Found::new(at, id, Severity::Error, args) })
    }
}

/// The unit's top-level items outside system and toolkit headers, in
/// source order, with their offsets.
pub(crate) fn user_items(db: &dyn SourceDatabase, tu: TranslationUnit) -> Vec<(cufront_hir::ItemId, u32)> {
    let map = cufront_base_db::source_map(db, tu);
    let toolkit = map.toolkit_files();
    item_starts(db, tu).into_iter().filter(|&(_, start)| map.is_user_code(start, &toolkit)).collect()
}

/// Every top-level item of the unit and where it starts in the unit's text.
pub(crate) fn item_starts(db: &dyn SourceDatabase, tu: TranslationUnit) -> Vec<(cufront_hir::ItemId, u32)> {
    // From the memoized ranges: no walk over the tree (this is asked by
    // many checks, on every rebuild).
    let items = &cufront_hir::top_level_items(db, tu).items;
    cufront_hir::locate::item_ranges(db, tu)
        .iter()
        .zip(items.iter())
        .map(|(&(start, _), &item)| (item, start))
        .collect()
}

/// The functions an item defines (bodies the checks read).
pub(crate) fn defined_functions(db: &dyn SourceDatabase, item: cufront_hir::ItemId) -> Vec<FnId> {
    let tree = cufront_hir::item_tree_of(db, item);
    (0..tree.fns.len())
        .filter(|&i| {
            let f = &tree.fns[i];
            f.linkage.is_definition && !f.deleted && !f.defaulted
        })
        .map(|i| FnId::new(db, item, i as u32))
        .collect()
}

/// The variables an item defines with an initializer of their own
/// (namespace-scope definitions).
pub(crate) fn defined_variables(db: &dyn SourceDatabase, item: cufront_hir::ItemId) -> Vec<cufront_hir::VarId> {
    cufront_hir::item_offsets(db, item).var_inits.iter().map(|&(i, _)| cufront_hir::VarId::new(db, item, i)).collect()
}

/// What the host pass finds on the calls of one function body (`[]` for a
/// templated body: instances are not checked yet).
#[salsa::tracked(returns(clone))]
pub fn fn_call_findings(db: &dyn SourceDatabase, f: FnId, extended_lambda: bool) -> Arc<Vec<Finding>> {
    let decl = FnDecl::Fn(f);
    let Some(data) = decl.data(db) else { return Arc::default() };
    let space = exec_space::fn_exec_space(db, decl);
    let body = infer::decl_body(db, decl);
    if !crate::interest::worth_inferring(&crate::interest::device_names(db, decl.tu(db)), &body) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let caller_name = match &data.name {
        FnName::Ident(n) => Some(n.clone()),
        FnName::Operator(op) => Some(format!("operator{op}")),
        _ => None,
    };
    let lambdas = lambdas_of(&body);

    // Calls grouped by site in first-met order; destructors first within a
    // site (EDG checks a declaration's destructor before its constructor).
    let mut sites: Vec<(CallSite, Vec<Entity>)> = Vec::new();
    for (site, callee) in &r.calls {
        let Callee::Entity(e) = callee else { continue };
        match sites.iter_mut().find(|(s, _)| s == site) {
            Some((_, v)) => v.push(*e),
            None => sites.push((*site, vec![*e])),
        }
    }
    let mut out = Vec::new();
    for (site, mut callees) in sites {
        let first = callees.first().copied();
        callees.sort_by_key(|e| !names::is_destructor(db, *e));
        // A `__shared__` (or other memory-space) local is not constructed by the body.
        if let CallSite::Local(l) = site
            && body.locals.get(l.0 as usize).is_some_and(|l| l.cuda.has_memory_space())
        {
            continue;
        }
        let Some(range) = site_range(&body, site) else { continue };
        // The space the site's code runs in: the function's, or that of the
        // innermost lambda around it.
        let (space, caller) = match innermost_lambda(&lambdas, range) {
            None => (space, caller_name.clone()),
            Some(l) => match lambda_space(l, space, extended_lambda) {
                Some(s) => (s, Some("operator()".to_string())),
                None => continue,
            },
        };
        // The function a call or launch names (other calls at the site
        // convert its arguments): what infer resolved the callee
        // expression to, else the first function resolved at the site.
        let named = match site {
            CallSite::Expr(e) => match body.expr(e) {
                Expr::Call { callee: c, .. } | Expr::KernelLaunch { callee: c, .. } => match r.resolutions.get(c) {
                    Some(infer::Resolution::Entity(x)) => Some(*x),
                    _ => first,
                },
                _ => None,
            },
            _ => None,
        };
        for callee in callees {
            let Some(callee_space) = exec_space::exec_space(db, callee) else { continue };
            let is_named = named == Some(callee);
            let launch =
                is_named && matches!(site, CallSite::Expr(e) if matches!(body.expr(e), Expr::KernelLaunch { .. }));
            let plain_call = is_named && matches!(site, CallSite::Expr(e) if matches!(body.expr(e), Expr::Call { .. }));
            // A launch of a `__device__` function is a call from the
            // caller's space first, then a configuration error.
            let device_call = || {
                let from_hd = match space {
                    ExecSpace::Host | ExecSpace::ImplicitHost => false,
                    ExecSpace::HostDevice => true,
                    _ => return None,
                };
                let (caller, callee_name) = (caller.clone()?, names::callee_name(db, callee)?);
                let constexpr = names::is_constexpr(db, callee);
                Some(Kind::DeviceCall { callee: callee_name, caller, from_hd, constexpr })
            };
            let kinds: Vec<Kind> = match (launch, callee_space) {
                (true, ExecSpace::Global) => continue,
                (true, ExecSpace::Host | ExecSpace::ImplicitHost) => vec![Kind::CannotConfigure { device: false }],
                (true, ExecSpace::Device) => {
                    device_call().into_iter().chain([Kind::CannotConfigure { device: true }]).collect()
                }
                (true, _) => vec![Kind::CannotConfigure { device: true }],
                (false, ExecSpace::Global) if plain_call => vec![Kind::MustConfigure],
                (false, ExecSpace::Device) => match device_call() {
                    Some(k) => vec![k],
                    None => continue,
                },
                _ => continue,
            };
            let (at, skip_blanks, twice) = caret(db, &body, site, callee);
            for kind in kinds {
                for _ in 0..if twice { 2 } else { 1 } {
                    out.push(Finding { at, skip_blanks, kind: kind.clone() });
                }
            }
        }
    }
    Arc::new(out)
}

/// The lambda expressions of a body: range and annotations.
pub(crate) struct Lambda {
    range: TextRange,
    host: bool,
    device: bool,
}

pub(crate) fn lambdas_of(body: &Body) -> Vec<Lambda> {
    body.exprs
        .iter()
        .zip(&body.expr_ranges)
        .filter_map(|(e, r)| match e {
            Expr::Lambda { host, device, .. } => Some(Lambda { range: *r, host: *host, device: *device }),
            _ => None,
        })
        .collect()
}

pub(crate) fn innermost_lambda(lambdas: &[Lambda], at: TextRange) -> Option<&Lambda> {
    lambdas.iter().filter(|l| l.range.contains_range(at) && l.range != at).min_by_key(|l| l.range.len())
}

/// A lambda's space: its annotations with `--extended-lambda` (a device
/// one is not host code: `None`), else the enclosing function's (without
/// the flag cudafe++ reports the annotation and ignores it).
pub(crate) fn lambda_space(l: &Lambda, enclosing: ExecSpace, extended_lambda: bool) -> Option<ExecSpace> {
    if !(l.host || l.device) || !extended_lambda {
        return Some(enclosing);
    }
    match (l.host, l.device) {
        (true, true) => Some(ExecSpace::HostDevice),
        (true, false) => Some(ExecSpace::Host),
        _ => None,
    }
}

/// The source range a call site stands for.
pub(crate) fn site_range(body: &Body, site: CallSite) -> Option<TextRange> {
    match site {
        CallSite::Expr(e) => body.expr_ranges.get(e.0 as usize).copied(),
        CallSite::Local(l) => body.local_names.get(l.0 as usize).copied().flatten(),
        CallSite::MemInit(_) | CallSite::Owner => None,
    }
}

/// Where EDG's caret goes for a call of `callee` at `site`: the offset,
/// whether blanks are skipped from there, whether EDG reports it twice.
pub(crate) fn caret(db: &dyn SourceDatabase, body: &Body, site: CallSite, callee: Entity) -> (u32, bool, bool) {
    let start = |e: ExprId| u32::from(body.expr_ranges[e.0 as usize].start());
    let end = |e: ExprId| u32::from(body.expr_ranges[e.0 as usize].end());
    let e = match site {
        CallSite::Expr(e) => e,
        CallSite::Local(l) => {
            let at = body.local_names.get(l.0 as usize).copied().flatten().map_or(TextSize::from(0), |r| r.start());
            return (at.into(), false, false);
        }
        CallSite::MemInit(_) | CallSite::Owner => return (0, false, false),
    };
    match body.expr(e) {
        Expr::Call { callee: c, .. } => match body.expr(*c) {
            Expr::Member { name, .. } if !names::is_call_operator(db, callee) || name_is_call_operator(name) => {
                let len = name.segments.last().map_or(0, |s| s.name.len()) as u32;
                (end(*c) - len.min(end(*c) - start(*c)), false, false)
            }
            Expr::Path(p) if !names::is_call_operator(db, callee) || name_is_call_operator(p) => {
                (start(e), false, false)
            }
            // A class object called: its `operator()`, at the `(`.
            _ if names::is_call_operator(db, callee) => (end(*c), true, true),
            _ => (start(e), false, false),
        },
        Expr::Binary { lhs, .. } | Expr::Assign { lhs, .. } => (end(*lhs), true, false),
        _ => (start(e), false, false),
    }
}

/// Whether a name written as a callee names `operator()` itself (`x.operator()(1)`).
fn name_is_call_operator(p: &cufront_hir::item_tree::Path) -> bool {
    p.segments.last().is_some_and(|s| s.name.replace(' ', "") == "operator()")
}
