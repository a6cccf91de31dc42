//! Variable-length arrays in device code: `expression must have a
//! constant value` (28, an error) at the bound, followed by `the value of
//! parameter "n" (declared at line L) cannot be used as a constant` (note
//! 2689) at the same place, from cicc's front end (host code accepts them
//! as a GNU extension; spec 61). Checked against the real nvcc.
//!
//! Certainty: a local of a `__device__` or `__global__` function (not
//! templated, not in a lambda or a local class) whose array bound is a
//! name alone that names a parameter of the function of plain builtin type
//! (not `const`, not a reference), which no local of the body shadows.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::FnId;
use cufront_hir::exec_space::{self, ExecSpace};
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::TypeRef;
use cufront_hir::syntax_util as su;
use cufront_syntax::{SyntaxKind as K, SyntaxNode};

use crate::Found;
use crate::calls::{innermost_lambda, lambdas_of};

const NOT_CONSTANT: DiagId = DiagId(28);
const VARIABLE_NOT_CONSTANT: DiagId = DiagId(2689);

/// A variable-length array of a device body (offsets relative to the item).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vla {
    /// The bound (the caret).
    pub at: u32,
    /// The array's name (EDG does not report the erroneous declaration as
    /// unreferenced).
    pub array: u32,
    /// Where the parameter is declared, and its name.
    pub declared: u32,
    pub param: String,
}

/// The variable-length arrays of one device body.
#[salsa::tracked(returns(clone))]
pub fn fn_device_vlas(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Vla>> {
    let decl = FnDecl::Fn(f);
    if !matches!(exec_space::fn_exec_space(db, decl), ExecSpace::Device | ExecSpace::Global) {
        return Arc::default();
    }
    let body = cufront_hir::infer::decl_body(db, decl);
    if !body.locals.iter().any(|l| matches!(l.ty, TypeRef::Array(..))) || crate::device_code::templated(db, decl) {
        return Arc::default();
    }
    let Some((root, base)) = crate::device_code::body_syntax(db, f) else { return Arc::default() };
    let params = param_names(db, f);
    let lambdas = lambdas_of(&body);
    let mut out = Vec::new();
    for (i, l) in body.locals.iter().enumerate() {
        let (TypeRef::Array(..), Some(Some(name))) = (&l.ty, body.local_names.get(i)) else { continue };
        if body.params.iter().any(|p| p.0 as usize == i) || innermost_lambda(&lambdas, *name).is_some() {
            continue;
        }
        let Some(rel) = name.start().checked_sub(base) else { continue };
        let Some(tok) = cufront_syntax::green::token_at(&root, rel) else { continue };
        let Some(declarator) = tok.parent_ancestors().find(|n| n.kind() == K::DECLARATOR) else { continue };
        if declarator.ancestors().any(|n| n.kind() == K::CLASS_SPECIFIER) {
            continue;
        }
        for array in declarator.children().filter(|c| c.kind() == K::ARRAY_DECLARATOR) {
            let Some(id) = array.children().find(|c| c.kind() == K::ID_EXPR) else { continue };
            let words: Vec<_> =
                id.descendants_with_tokens().filter_map(|e| e.into_token()).filter(|t| !t.kind().is_trivia()).collect();
            let [word] = words.as_slice() else { continue };
            if word.kind() != K::IDENT {
                continue;
            }
            let n = word.text();
            let shadowed = body
                .locals
                .iter()
                .enumerate()
                .any(|(k, x)| x.name.as_deref() == Some(n) && !body.params.iter().any(|p| p.0 as usize == k));
            if shadowed {
                continue;
            }
            let Some((k, declared)) = params
                .iter()
                .enumerate()
                .find_map(|(k, p)| p.as_ref().filter(|(pn, _)| pn == n).map(|(_, at)| (k, *at)))
            else {
                continue;
            };
            let Some(&p) = body.params.get(k) else { continue };
            if !matches!(body.local(p).ty, TypeRef::Builtin(_)) {
                continue;
            }
            let at = u32::from(base + word.text_range().start());
            out.push(Vla { at, array: u32::from(name.start()), declared, param: n.to_string() });
        }
    }
    Arc::new(out)
}

/// The name of each parameter of the function and where it is (relative
/// to the item), in order; `None` for an unnamed parameter or one with
/// attributes (`[[maybe_unused]]`).
pub(crate) fn param_names(db: &dyn SourceDatabase, f: FnId) -> Vec<Option<(String, u32)>> {
    let item = f.item(db);
    let Some(src) = cufront_hir::item_source(db, item).as_ref() else { return Vec::new() };
    let root = SyntaxNode::new_root(src.green.clone());
    let Some(&at) = cufront_hir::body::item_fn_offsets(db, item).get(f.idx(db) as usize) else { return Vec::new() };
    let Some(def) = cufront_hir::body::function_def_at(&root, at) else { return Vec::new() };
    let Some(d) = su::child(&def, K::DECLARATOR) else { return Vec::new() };
    let inner = su::innermost(&d);
    let Some(fd) = su::child(&inner, K::FUNCTION_DECLARATOR) else { return Vec::new() };
    su::function_params_of(&fd)
        .iter()
        .map(|p| {
            if p.descendants().any(|n| matches!(n.kind(), K::ATTRIBUTE | K::GNU_ATTRIBUTE)) {
                return None;
            }
            let dn = p.descendants().find(|n| n.kind() == K::DECLARATOR)?;
            let name = su::declarator_name(&dn)?;
            let tok = dn
                .descendants_with_tokens()
                .filter_map(|e| e.into_token())
                .filter(|t| t.kind() == K::IDENT && t.text() == name)
                .last()?;
            Some((name, u32::from(tok.text_range().start())))
        })
        .collect()
}

/// The findings of one body (absolute offsets), for the device pass.
pub(crate) fn findings(db: &dyn SourceDatabase, tu: TranslationUnit, f: FnId, start: u32, out: &mut Vec<Found>) {
    for v in fn_device_vlas(db, f).iter() {
        let at = start + v.at;
        let declared_at = Some(crate::redefinition::position(db, tu, start + v.declared));
        let name = v.param.clone();
        let entity = DiagEntity { kind: Some(EntityKind::Parameter), name, declared_at, ..DiagEntity::default() };
        let found = |id, severity, args| Found::new(at, id, severity, args);
        out.push(found(NOT_CONSTANT, Severity::Error, vec![]));
        out.push(found(VARIABLE_NOT_CONSTANT, Severity::Note, vec![Arg::Entity(entity)]));
    }
}
