//! `transfer of control bypasses initialization of:` (EDG 546, an error)
//! with the variables bypassed as continuation lines (`variable "x"
//! (declared at line 2)`, 547): a `goto` that jumps forward over a
//! declaration with an initializer into its scope. Checked against the
//! real front end.
//!
//! Certainty: only the plain shape: the label and the declaration are
//! statements of one block, in that order after the `goto`, which is in an
//! earlier statement of the same block; the declaration is of a variable
//! with an initializer, not `static`. The caret is at the `goto`, found in
//! the text as the n-th `goto label` of the item when the item spells that
//! jump as often as the body holds it.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Entity, EntityKind, Severity};
use cufront_hir::FnId;
use cufront_hir::body::{Body, Init, Stmt, StmtId};
use cufront_hir::instances::FnDecl;

use crate::undefined::word_offsets;
use crate::{Found, Raw};

const BYPASSES_INITIALIZATION: DiagId = DiagId(546);
const BYPASSED: DiagId = DiagId(547);

/// The jumps of one body that bypass initializations: the error at each
/// `goto`, followed by a note per variable bypassed (positions relative to
/// the item; a note's `at` is where the variable is declared).
#[salsa::tracked(returns(clone))]
pub fn fn_bypassed_initializations(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let body = cufront_hir::infer::decl_body(db, FnDecl::Fn(f));
    if !body.stmts.iter().any(|s| matches!(s, Stmt::Goto(Some(_)))) {
        return Arc::default();
    }
    let Some(src) = cufront_hir::item_source(db, f.item(db)) else { return Arc::default() };
    let text = cufront_syntax::SyntaxNode::new_root(src.green.clone()).text().to_string();
    let mut out = Vec::new();
    for s in &body.stmts {
        let Stmt::Compound(children) = s else { continue };
        for (j, &c) in children.iter().enumerate() {
            let Stmt::Label { name, .. } = body.stmt(c) else { continue };
            // The declarations with initializers before the label, each with
            // the statements before it that jump to the label.
            for (d, &decl) in children[..j].iter().enumerate() {
                let Stmt::Decl(locals) = body.stmt(decl) else { continue };
                let bypassed: Vec<_> = locals
                    .iter()
                    .filter(|l| {
                        let l = body.local(**l);
                        !l.is_static && !matches!(l.init, Init::None)
                    })
                    .collect();
                if bypassed.is_empty() {
                    continue;
                }
                for &before in &children[..d] {
                    for g in gotos(&body, before, name) {
                        let Some(at) = goto_at(&body, &text, g, name) else { continue };
                        out.push(Raw { at, id: BYPASSES_INITIALIZATION, severity: Severity::Error, args: vec![] });
                        for &&l in &bypassed {
                            let (Some(n), Some(Some(r))) = (&body.local(l).name, body.local_names.get(l.0 as usize))
                            else {
                                continue;
                            };
                            let entity =
                                Entity { kind: Some(EntityKind::Variable), name: n.clone(), ..Entity::default() };
                            let at = u32::from(r.start());
                            out.push(Raw {
                                at,
                                id: BYPASSED,
                                severity: Severity::Note,
                                args: vec![Arg::Entity(entity)],
                            });
                        }
                    }
                }
            }
        }
    }
    Arc::new(out)
}

/// The unit's findings for the body of `f` (its item at `start`): each
/// note names its variable with where it is declared.
pub(crate) fn findings(db: &dyn SourceDatabase, tu: TranslationUnit, f: FnId, start: u32) -> Vec<Found> {
    let mut out = Vec::new();
    let mut order = 0;
    for r in fn_bypassed_initializations(db, f).iter() {
        let at = start + r.at;
        let mut args = r.args.clone();
        if r.severity == Severity::Note {
            for a in &mut args {
                if let Arg::Entity(e) = a {
                    e.declared_at = Some(crate::redefinition::position(db, tu, at));
                }
            }
        } else {
            order = at;
        }
        out.push(Found { order, ..Found::new(at, r.id, r.severity, args) });
    }
    out
}

/// The `goto name` statements in `s` (lambda bodies are not statements of
/// `s`: they are not reached from it).
fn gotos(body: &Body, s: StmtId, name: &str) -> Vec<StmtId> {
    let mut out = Vec::new();
    let mut stack = vec![s];
    while let Some(s) = stack.pop() {
        match body.stmt(s) {
            Stmt::Goto(Some(l)) if l == name => out.push(s),
            Stmt::Compound(v) => stack.extend(v.iter().rev()),
            Stmt::If { init, then, els, .. } => stack.extend(init.iter().chain([then]).chain(els.iter())),
            Stmt::Switch { init, body: b, .. } => stack.extend(init.iter().chain([b])),
            Stmt::While { body: b, .. } | Stmt::Do { body: b, .. } => stack.push(*b),
            Stmt::For { init, body: b, .. } | Stmt::RangeFor { init, body: b, .. } => {
                stack.extend(init.iter().chain([b]))
            }
            Stmt::Label { stmt, .. } | Stmt::Case { stmt, .. } | Stmt::Default(stmt) => stack.push(*stmt),
            Stmt::Try { body: b, handlers } => stack.extend([b].into_iter().chain(handlers.iter().map(|h| &h.body))),
            _ => {}
        }
    }
    out
}

/// Where `goto name` statement `g` is in the item's text: the n-th
/// `goto name` of the body is the n-th of the text when both counts agree.
fn goto_at(body: &Body, text: &str, g: StmtId, name: &str) -> Option<u32> {
    let in_body: Vec<StmtId> = (0..body.stmts.len() as u32)
        .map(StmtId)
        .filter(|s| matches!(body.stmt(*s), Stmt::Goto(Some(l)) if l == name))
        .collect();
    let in_text: Vec<u32> = word_offsets(text, "goto")
        .filter(|&o| {
            let rest = text[o as usize + 4..].trim_start();
            rest.strip_prefix(name).is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
        })
        .collect();
    if in_body.len() != in_text.len() {
        return None;
    }
    in_body.iter().position(|s| *s == g).map(|i| in_text[i])
}
