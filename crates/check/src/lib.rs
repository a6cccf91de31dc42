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
//! - `redefinition`: functions, variables, classes and enums defined twice;
//!   `overrides`: virtual overrides (execution spaces, `override`,
//!   `final`); `objects`: the types of declared objects (incomplete,
//!   abstract, arrays of references, `auto` without initializer);
//!   `literals`: user-defined literals without a literal operator.
//! - [`device_pass`] (`device`): what cicc's front end reports.
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

mod arity;
mod asserts;
mod calls;
mod constants;
mod decls;
mod device;
mod device_decls;
mod flow;
mod interest;
mod literals;
mod modifiable;
mod names;
mod nonconstant;
mod objects;
mod overrides;
mod redefinition;
mod switches;
mod uncertain;
mod undefined;
mod uninitialized;
mod unused;
mod vars;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Severity};

pub use arity::fn_arity_findings;
pub use asserts::item_assert_findings;
pub use calls::fn_call_findings;
pub use constants::{fn_constant_findings, var_constant_findings};
pub use decls::{fn_local_findings, item_decl_findings, item_inline_var_findings};
pub use device::{device_pass, fn_device_call_findings};
pub use device_decls::item_device_decl_findings;
pub use flow::fn_missing_return;
pub use interest::device_names;
pub use literals::{fn_literal_findings, item_literal_operator_findings, var_literal_findings};
pub use modifiable::fn_unmodifiable;
pub use objects::{fn_member_access_findings, fn_object_findings, item_object_findings};
pub use overrides::item_override_findings;
pub use switches::fn_duplicate_cases;
pub use uncertain::{Reason, Uncertain, fn_uncertain, uncertain};
pub use undefined::{declared_names, fn_unknown_names};
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
            out.push(Found { at: start + r.at, order, id, severity, args, args_once_erred: None, late: false });
        }
    };
    let mut unknown = Vec::new();
    for (item, start) in calls::user_items(db, tu) {
        raw(&item_decl_findings(db, item), start, &mut out);
        if opts.whole_program {
            raw(&item_inline_var_findings(db, item), start, &mut out);
        }
        raw(&item_override_findings(db, item), start, &mut out);
        raw(&item_object_findings(db, item), start, &mut out);
        raw(&item_literal_operator_findings(db, item), start, &mut out);
        raw(&item_assert_findings(db, item), start, &mut out);
        for v in calls::defined_variables(db, item) {
            raw(&var_literal_findings(db, v), start, &mut out);
            raw(&var_constant_findings(db, v), start, &mut out);
        }
        for f in calls::defined_functions(db, item) {
            unknown.extend(fn_unknown_names(db, f).iter().map(|(at, n)| (f, start, *at, n.clone())));
            raw(&fn_local_findings(db, f), start, &mut out);
            raw(&fn_object_findings(db, f), start, &mut out);
            raw(&fn_member_access_findings(db, f), start, &mut out);
            raw(&fn_literal_findings(db, f), start, &mut out);
            raw(&fn_unmodifiable(db, f), start, &mut out);
            raw(&fn_arity_findings(db, f), start, &mut out);
            raw(&fn_uninitialized(db, f), start, &mut out);
            raw(&fn_constant_findings(db, f), start, &mut out);
            for &(at, first) in fn_duplicate_cases(db, f).iter() {
                let (at, first) = (start + at, start + first);
                let args = vec![Arg::Pos(redefinition::position(db, tu, first))];
                let (id, severity) = (DUPLICATE_CASE, Severity::Error);
                out.push(Found { at, order: at, id, severity, args, args_once_erred: None, late: false });
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
        }
    }
    out.extend(undefined::findings(text, &unknown));
    out.extend(redefinition::findings(db, tu));
    out.extend(nonconstant::findings(db, tu));
    out.extend(uninitialized::findings(db, tu));
    out.sort_by_key(|f| f.order);
    out
}

#[cfg(test)]
mod tests;
