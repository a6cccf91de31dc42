//! `variable "x" was declared but never referenced` (EDG 177, a warning),
//! which nvcc prints from cicc's front end only (spec 61), for host and
//! device functions alike, when the function's body ends.
//!
//! Certainty: only block-scope variables of scalar, pointer or array type
//! (a class type's constructor or destructor may be why it exists), not
//! static, not structured bindings; "referenced" is any id-expression,
//! capture or unlowered text in the body that spells the name, so a
//! shadowing name only ever silences the warning.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::FnId;
use cufront_hir::body::Expr;
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::TypeRef;
use rustc_hash::FxHashSet;

use crate::Raw;
use crate::undefined::word_offsets;

const DECLARED_NOT_REFERENCED: DiagId = DiagId(177);

/// The unreferenced variables of one body, and where the body ends
/// (relative to the item: what the warnings sort by).
#[salsa::tracked(returns(clone))]
pub fn fn_unused_locals(db: &dyn SourceDatabase, f: FnId) -> Arc<(Vec<Raw>, u32)> {
    let body = cufront_hir::infer::decl_body(db, FnDecl::Fn(f));
    let mut names: FxHashSet<&str> = FxHashSet::default();
    let mut missing = String::new();
    for e in &body.exprs {
        match e {
            Expr::Path(p) if p.segments.len() == 1 && !p.global => {
                names.insert(p.segments[0].name.as_str());
            }
            Expr::Lambda { captures, .. } => {
                for c in captures {
                    if let cufront_hir::body::Capture::Var { name, .. } = c {
                        names.insert(name.as_str());
                    }
                }
            }
            Expr::Missing(text) => {
                missing.push_str(text);
                missing.push(' ');
            }
            _ => {}
        }
    }
    // Names in written types (array bounds, `decltype`, template arguments).
    let mut type_text = String::new();
    for l in &body.locals {
        type_text.push_str(&format!("{:?} ", l.ty));
    }
    for (_, t) in &body.local_types {
        type_text.push_str(&format!("{t:?} "));
    }
    for (_, d) in &body.local_decls {
        type_text.push_str(&format!("{d:?} "));
    }
    let end =
        body.expr_ranges.iter().chain(body.local_names.iter().flatten()).map(|r| u32::from(r.end())).max().unwrap_or(0);
    // The body's own text: a name written twice in it (a `static_assert`,
    // a local class, an `asm` operand) counts as referenced.
    let start = body.expr_ranges.iter().chain(body.local_names.iter().flatten()).map(|r| u32::from(r.start())).min();
    let text = match (start, cufront_hir::item_source(db, f.item(db))) {
        (Some(start), Some(src)) => {
            let all = cufront_syntax::SyntaxNode::new_root(src.green.clone()).text().to_string();
            all.get(start as usize..(end as usize).min(all.len())).unwrap_or_default().to_string()
        }
        _ => String::new(),
    };
    let mut out = Vec::new();
    for (i, l) in body.locals.iter().enumerate() {
        let (Some(name), Some(Some(at))) = (&l.name, body.local_names.get(i)) else { continue };
        if l.is_static || l.binding_of.is_some() || l.pack || l.cuda.has_memory_space() || !scalar(&l.ty) {
            continue;
        }
        let written = word_offsets(&text, name).count();
        if names.contains(name.as_str()) || mentions(&missing, name) || mentions(&type_text, name) || written != 1 {
            continue;
        }
        let entity = DiagEntity { kind: Some(EntityKind::Variable), name: name.clone(), ..DiagEntity::default() };
        out.push(Raw {
            at: u32::from(at.start()),
            id: DECLARED_NOT_REFERENCED,
            severity: Severity::Warning,
            args: vec![Arg::Entity(entity)],
        });
    }
    Arc::new((out, end))
}

/// A type with no constructor or destructor to run: builtins, pointers
/// and arrays of them.
fn scalar(t: &TypeRef) -> bool {
    match t {
        TypeRef::Builtin(_) | TypeRef::Ptr(_) => true,
        TypeRef::Cv(x, _) | TypeRef::Array(x, _) => scalar(x),
        _ => false,
    }
}

fn mentions(text: &str, name: &str) -> bool {
    word_offsets(text, name).next().is_some()
}
