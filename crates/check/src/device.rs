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
        let (space, caller) = match innermost_lambda(&lambdas, range) {
            None => (space, caller_name.clone()),
            Some(l) => match lambda_space(l, space, true) {
                Some(s) => (s, "operator()".to_string()),
                None => continue,
            },
        };
        if !matches!(exec_space::exec_space(db, *callee), Some(ExecSpace::Host | ExecSpace::ImplicitHost)) {
            continue;
        }
        let Some(name) = names::callee_name(db, *callee) else { continue };
        let constexpr = names::is_constexpr(db, *callee);
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
                push(false, id, Severity::Error, vec![Arg::Str(name.bare.clone()), caller]);
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

/// The function template specializations in device code that the unit
/// reaches, in the order met: kernel instances the unit's own functions
/// launch or call, then what their bodies call, transitively (device and
/// host-device instances, kernels). Bounded like EDG's instantiation depth.
fn reached_instances(db: &dyn SourceDatabase, tu: TranslationUnit) -> Vec<cufront_hir::instances::FnInstanceId> {
    use cufront_hir::Entity;
    let device_side = |i: cufront_hir::instances::FnInstanceId| {
        !i.args(db).is_empty()
            && matches!(
                exec_space::fn_exec_space(db, i.decl(db)),
                ExecSpace::Global | ExecSpace::Device | ExecSpace::HostDevice
            )
    };
    let mut seen = rustc_hash::FxHashSet::default();
    let mut out = Vec::new();
    let mut queue = std::collections::VecDeque::new();
    // Roots: what the unit's non-template functions call, where the
    // callee is a kernel instance (device bodies reach device instances
    // through the kernels, or are checked as templates).
    for (item, _) in calls::user_items(db, tu) {
        for f in calls::defined_functions(db, item) {
            let r = infer::infer(db, InferOwner::Fn(f));
            for (_, callee) in &r.calls {
                if let Callee::Entity(Entity::FnInst(i)) = callee
                    && exec_space::fn_exec_space(db, i.decl(db)) == ExecSpace::Global
                    && device_side(*i)
                    && seen.insert(*i)
                {
                    queue.push_back((*i, 0u32));
                }
            }
        }
    }
    while let Some((i, depth)) = queue.pop_front() {
        out.push(i);
        if depth >= 200 {
            continue;
        }
        let r = infer::infer(db, InferOwner::Inst(i));
        for (_, callee) in &r.calls {
            if let Callee::Entity(Entity::FnInst(j)) = callee
                && device_side(*j)
                && seen.insert(*j)
            {
                queue.push_back((*j, depth + 1));
            }
        }
    }
    out
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
    for inst in reached_instances(db, tu) {
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
