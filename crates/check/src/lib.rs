//! cufront-check: semantic diagnostics as queries over the semantic model
//! (`cufront-hir`), for every consumer (the cudafe++ mode, `check`, the
//! IDE): cudafe++'s host-pass rules (spec 20), cicc's device-pass rules
//! (spec 61), and ordinary C++ diagnostics of both.
//!
//! - [`host_pass`]: what the host pass reports for a unit, in report order.
//! - `calls`: the per-function query (`fn_call_findings`) and its rules.
//! - `names`: how EDG names a callee in these messages (its declaration,
//!   or after the unit's first error a pseudo-mangled form).
//! - `flow`: whether control reaches a body's end (940); `modifiable`:
//!   operands that are not modifiable lvalues (137); `constants`: the
//!   warnings of integer constant folding (68, 69, 61, 63, 39, 179, 186).
//! - `deleted`: calls that overload resolution resolved to a deleted
//!   function (1776); `operators`: operator expressions only built-in
//!   candidates could take, and none does (349 with 3328 notes; in
//!   plain bodies and, in the device pass, in template instances).
//! - `instantiation`: class template instances the user's variables
//!   need, and the asserts that fail in them (with `detected during`).
//! - `lambdas`: the restrictions on extended lambdas (spec 30 §5.3).
//! - `redefinition`: functions, variables, classes and enums defined twice;
//!   `overrides`: virtual overrides (execution spaces, `override`,
//!   `final`); `objects`: the types of declared objects (incomplete,
//!   abstract, arrays of references, `auto` without initializer);
//!   `literals`: user-defined literals without a literal operator;
//!   `designators`: designated initializers out of order, duplicated or
//!   mixed with plain ones; `immediate`: calls of `consteval` functions
//!   that are no constant expressions.
//! - [`device_pass`] (`device`): what cicc's front end reports;
//!   `device_decls`: its declaration rules; `device_code`: constructs
//!   device code cannot contain (exceptions, `typeid`, `thread_local`,
//!   automatic memory-space locals, kernel launches without `-rdc`) and
//!   `extern __shared__` locals; `dynamic_init`: dynamically initialized
//!   device variables; `deprecated`: deprecated callees of device code;
//!   `device_vla`: variable-length arrays in device code; `set_unused`:
//!   variables set but never used (550) and EDG's end-of-scope order.
//!
//! Invariants:
//! - Certainty: a finding is made only from what the model resolved (a
//!   call `infer` resolved to an entity whose space is known, in a body
//!   `infer` typed). Templated bodies, generic lambdas, unresolved calls
//!   and entities without a known space give nothing: silence beats a
//!   false positive.
//! - Findings are plain data with byte offsets into the unit's text; the
//!   caller places and renders them (`cufront-diagnostics`).
//! - Only functions outside system headers and the toolkit's own headers
//!   are checked: their bodies are what the user wrote.
//! - No I/O, no global state; everything per function is a salsa query, so
//!   an edit in one body re-checks that body only.

mod access;
mod arity;
mod asserts;
mod calls;
mod closure_args;
mod constants;
mod constructors;
mod conversions;
mod decls;
mod deleted;
mod deprecated;
mod designators;
mod device;
mod device_code;
mod device_decls;
mod device_vla;
mod dynamic_init;
mod flow;
mod immediate;
mod instantiation;
mod interest;
mod jumps;
mod lambdas;
mod literals;
mod modifiable;
mod names;
mod nonconstant;
mod objects;
mod operands;
mod operators;
mod overrides;
mod redefinition;
mod set_unused;
mod spell;
mod switches;
mod template_args;
mod uncertain;
mod undefined;
mod uninitialized;
mod unused;
mod vars;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, ContextEntry, DiagId, Severity};

pub use access::{Inaccessible, fn_inaccessible, var_inaccessible};
pub use arity::fn_arity_findings;
pub use asserts::item_assert_findings;
pub use calls::fn_call_findings;
pub use constants::{fn_constant_findings, var_constant_findings};
pub use conversions::{
    Candidate, Mismatch, NoMatch, SetKind, fn_conversion_findings, fn_no_match_calls, var_conversion_findings,
    var_no_match_calls,
};
pub use decls::{fn_local_findings, item_decl_findings, item_inline_var_findings};
pub use deleted::{DeletedCall, fn_deleted_calls};
pub use deprecated::{deprecation, fn_deprecated_calls};
pub use designators::{fn_designation_findings, var_designation_findings};
pub use device::{device_pass, fn_device_call_findings};
pub use device_code::fn_device_code_findings;
pub use device_decls::item_device_decl_findings;
pub use device_vla::fn_device_vlas;
pub use dynamic_init::var_dynamic_init_findings;
pub use flow::fn_missing_return;
pub use immediate::{NonConstantCall, fn_nonconstant_immediate_calls};
pub use instantiation::{fn_instantiations, item_instantiations};
pub use interest::device_names;
pub use jumps::fn_bypassed_initializations;
pub use lambdas::{fn_lambda_findings, item_field_lambda_findings, var_lambda_findings};
pub use literals::{fn_literal_findings, item_literal_operator_findings, var_literal_findings};
pub use modifiable::fn_unmodifiable;
pub use objects::{fn_member_access_findings, fn_object_findings, item_object_findings};
pub use operands::fn_operand_findings;
pub use operators::{NoOperator, fn_no_operator_findings};
pub use overrides::item_override_findings;
pub use set_unused::fn_set_but_unused;
pub use switches::fn_duplicate_cases;
pub use template_args::item_template_arg_findings;
pub use uncertain::{Reason, Uncertain, fn_uncertain, uncertain};
pub use undefined::{declared_names, fn_unknown_names, item_unknown_type_names, var_unknown_names};
pub use uninitialized::fn_uninitialized;
pub use unused::fn_unused_locals;
pub use vars::{fn_device_var_findings, fn_var_findings};

/// `case label value has already appeared in this switch %p`.
const DUPLICATE_CASE: DiagId = DiagId(1578);

/// The command-line options the checks read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// `--expt-relaxed-constexpr` (cudafe++'s `--relaxed_constexpr`):
    /// `constexpr` functions may be called across spaces.
    pub relaxed_constexpr: bool,
    /// `--extended-lambda`: a lambda's `__host__`/`__device__` annotations count.
    pub extended_lambda: bool,
    /// Whole-program compilation (`-rdc=false`, cudafe++ without
    /// `--device-c`): inline device variables need internal linkage. Off by
    /// default (the rule is then not checked).
    pub whole_program: bool,
}

impl Options {
    /// The options of a front end's command line as nvcc writes it for
    /// cudafe++ and cicc (`--relaxed_constexpr`, `--extended-lambda`,
    /// `--device-c`: nvcc has already read its own spellings of them).
    pub fn from_front_end_args(args: &[String]) -> Options {
        let has = |name: &str| args.iter().any(|a| a == name);
        Options {
            relaxed_constexpr: has("--relaxed_constexpr"),
            extended_lambda: has("--extended-lambda"),
            whole_program: !has("--device-c"),
        }
    }
}

/// One diagnostic of the host pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Where the caret goes (byte offset in the unit's text).
    pub at: u32,
    /// Where it sorts among the unit's other diagnostics (never before the
    /// previous finding of the same function: EDG reports in the order it
    /// checks, which is not always caret order).
    pub order: u32,
    pub id: DiagId,
    pub severity: Severity,
    pub args: Vec<Arg>,
    /// The arguments once an error has been reported in the unit, when they
    /// differ (EDG then names callees with parameters by a pseudo-mangled
    /// form, spec 20 §6.1).
    pub args_once_erred: Option<Vec<Arg>>,
    /// Reported after the unit is parsed, without a source line (cicc's
    /// checks of device code that run on the finished unit).
    pub late: bool,
    /// The instantiations that led to it, innermost first (`detected
    /// during …`).
    pub context: Vec<ContextEntry>,
    /// Lines printed under the message (`argument types are: (double)`).
    pub continuation: Vec<cufront_diagnostics::Message>,
}

impl Found {
    /// A finding that sorts at its caret, with nothing else to it.
    pub fn new(at: u32, id: DiagId, severity: Severity, args: Vec<Arg>) -> Found {
        Found {
            at,
            order: at,
            id,
            severity,
            args,
            args_once_erred: None,
            late: false,
            context: Vec::new(),
            continuation: Vec::new(),
        }
    }
}

/// A finding at an offset relative to its top-level item (what the
/// per-item and per-function queries return: an edit elsewhere leaves
/// them equal).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raw {
    pub at: u32,
    pub id: DiagId,
    pub severity: Severity,
    pub args: Vec<Arg>,
}

/// What cudafe++'s host pass reports on the unit, in report order.
pub fn host_pass(db: &dyn SourceDatabase, tu: TranslationUnit, opts: Options) -> Vec<Found> {
    let text = tu.text(db);
    let mut out = Vec::new();
    // A query's findings are in EDG's order: each sorts at its caret or
    // after the one before, whichever is later.
    let raw = |rs: &[Raw], start: u32, out: &mut Vec<Found>| {
        let mut order = 0;
        for r in rs {
            order = u32::max(order, start + r.at);
            let (id, severity, args) = (r.id, r.severity, r.args.clone());
            out.push(Found { order, ..Found::new(start + r.at, id, severity, args) });
        }
    };
    let mut unknown = Vec::new();
    let mut inaccessible = Vec::new();
    let mut deleted = Vec::new();
    let mut no_match = Vec::new();
    let mut points = Vec::new();
    for (item, start) in calls::user_items(db, tu) {
        raw(&item_decl_findings(db, item), start, &mut out);
        if opts.whole_program {
            raw(&item_inline_var_findings(db, item), start, &mut out);
        }
        raw(&item_override_findings(db, item), start, &mut out);
        raw(&item_object_findings(db, item), start, &mut out);
        raw(&item_literal_operator_findings(db, item), start, &mut out);
        raw(&item_assert_findings(db, item), start, &mut out);
        raw(&item_template_arg_findings(db, item), start, &mut out);
        points.extend(item_instantiations(db, item).iter().map(|&(at, t)| (start + at, t)));
        let types = item_unknown_type_names(db, item);
        unknown.extend(types.iter().map(|(at, n)| (undefined::Owner::Type, start + at, n.clone())));
        // Every variable the item defines, with an initializer or without.
        for i in 0..cufront_hir::item_tree_of(db, item).vars.len() as u32 {
            let v = cufront_hir::VarId::new(db, item, i);
            inaccessible.extend(var_inaccessible(db, v).iter().map(|u| (u.clone(), start)));
        }
        raw(&item_field_lambda_findings(db, item, opts.extended_lambda), start, &mut out);
        for v in calls::defined_variables(db, item) {
            raw(&var_lambda_findings(db, v, opts.extended_lambda), start, &mut out);
            raw(&var_literal_findings(db, v), start, &mut out);
            raw(&var_designation_findings(db, v), start, &mut out);
            no_match.extend(var_no_match_calls(db, v).iter().map(|c| (c.clone(), start)));
            raw(&var_constant_findings(db, v), start, &mut out);
            raw(&var_conversion_findings(db, v), start, &mut out);
            let names = var_unknown_names(db, v);
            unknown.extend(names.iter().map(|(at, n)| (undefined::Owner::Namespace, start + at, n.clone())));
        }
        for f in calls::defined_functions(db, item) {
            let names = fn_unknown_names(db, f);
            unknown.extend(names.iter().map(|(at, n)| (undefined::Owner::Fn(f), start + at, n.clone())));
            raw(&fn_local_findings(db, f), start, &mut out);
            raw(&fn_object_findings(db, f), start, &mut out);
            raw(&fn_member_access_findings(db, f), start, &mut out);
            raw(&fn_literal_findings(db, f), start, &mut out);
            raw(&fn_designation_findings(db, f), start, &mut out);
            immediate::findings(db, tu, f, start, &mut out);
            raw(&fn_unmodifiable(db, f), start, &mut out);
            raw(&fn_operand_findings(db, f), start, &mut out);
            for n in operators::fn_no_operator_findings(db, f).iter() {
                out.extend(n.to_found(text, start).unwrap_or_default());
            }
            raw(&fn_conversion_findings(db, f), start, &mut out);
            inaccessible.extend(fn_inaccessible(db, f).iter().map(|u| (u.clone(), start)));
            deleted.extend(fn_deleted_calls(db, f).iter().map(|c| (c.clone(), start)));
            no_match.extend(fn_no_match_calls(db, f).iter().map(|c| (c.clone(), start)));
            points.extend(fn_instantiations(db, f).iter().map(|&(at, t)| (start + at, t)));
            raw(&fn_arity_findings(db, f), start, &mut out);
            raw(&fn_uninitialized(db, f), start, &mut out);
            raw(&fn_constant_findings(db, f), start, &mut out);
            for &(at, first) in fn_duplicate_cases(db, f).iter() {
                let (at, first) = (start + at, start + first);
                let args = vec![Arg::Pos(redefinition::position(db, tu, first))];
                let (id, severity) = (DUPLICATE_CASE, Severity::Error);
                out.push(Found::new(at, id, severity, args));
            }
            raw(&fn_var_findings(db, f, opts.extended_lambda), start, &mut out);
            let mut order = 0u32;
            for finding in fn_call_findings(db, f, opts.extended_lambda).iter() {
                if let Some(found) = finding.to_found(opts, start, text) {
                    order = order.max(found.at);
                    out.push(Found { order, ..found });
                }
            }
            if flow::host_compiled(db, f) {
                raw(fn_missing_return(db, f).as_slice(), start, &mut out);
            }
            out.extend(jumps::findings(db, tu, f, start));
        }
        for (decl, at) in lambdas::lambda_owners(db, item) {
            raw(&fn_lambda_findings(db, decl, opts.extended_lambda), start + at, &mut out);
        }
    }
    out.extend(undefined::findings(text, &unknown));
    if !inaccessible.is_empty() || !deleted.is_empty() || !no_match.is_empty() {
        // Where members and functions are declared (any item, system headers included).
        let starts = calls::item_starts(db, tu).into_iter().collect();
        out.extend(inaccessible.iter().filter_map(|(u, start)| access::finding(db, tu, &starts, u, *start)));
        out.extend(deleted.iter().filter_map(|(c, start)| deleted::finding(db, tu, &starts, c, *start)));
        for (c, start) in &no_match {
            out.extend(conversions::no_match_findings(db, &starts, c, *start).unwrap_or_default());
        }
    }
    points.sort_by_key(|&(at, _)| at);
    out.extend(instantiation::findings(db, tu, &points));
    out.extend(redefinition::findings(db, tu));
    out.extend(nonconstant::findings(db, tu));
    out.extend(uninitialized::findings(db, tu));
    out.sort_by_key(|f| f.order);
    out
}

#[cfg(test)]
mod tests;
