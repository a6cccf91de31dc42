//! Declaration rules only cicc's front end applies (the device pass of
//! `check`; spec 61), checked against the real nvcc:
//!
//! - `thread_local` on a `__device__` or `__constant__` variable (3570,
//!   `cannot use thread_local specifier for a %s variable`), at the start
//!   of the declaration;
//! - a kernel with an rvalue-reference parameter (3520), once, at its name;
//! - a `__grid_constant__` parameter of a kernel whose type is not
//!   `const` (3696), once per parameter and declaration, at its name;
//! - a function redeclared with other execution-space annotations, a
//!   warning at the later declaration's name: a `__device__` function
//!   redeclared with `__host__` (3492), with `__host__ __device__` (3493)
//!   or without annotations (3494); a host function (annotated or not)
//!   redeclared with `__device__` (3496) or `__host__ __device__` (3497).
//!   Combinations with `__global__` are the host pass's errors (3481).
//!
//! Certainty: parameter types are judged as written (a `const` through a
//! typedef is not seen: such parameters are left alone); templates'
//! parameters are not judged (kernel templates are instantiated).

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::exec_space;
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::{FnData, FnName, TypeRef};
use cufront_hir::{FnId, FnTemplateId, ItemId};
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextSize};

use crate::Raw;

const THREAD_LOCAL_DEVICE_VAR: DiagId = DiagId(3570);
const GLOBAL_RVALUE_REFERENCE: DiagId = DiagId(3520);
const GRID_CONSTANT_NOT_CONST: DiagId = DiagId(3696);
const DEVICE_REDECLARED_HOST: DiagId = DiagId(3492);
const DEVICE_REDECLARED_HOST_DEVICE: DiagId = DiagId(3493);
const DEVICE_REDECLARED_UNANNOTATED: DiagId = DiagId(3494);
const HOST_REDECLARED_DEVICE: DiagId = DiagId(3496);
const HOST_REDECLARED_HOST_DEVICE: DiagId = DiagId(3497);

/// What the device pass finds on the declarations of one item (offsets
/// relative to the item).
#[salsa::tracked(returns(clone))]
pub fn item_device_decl_findings(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<Raw>> {
    let Some(src) = cufront_hir::item_source(db, item) else { return Arc::default() };
    let root = SyntaxNode::new_root(src.green.clone());
    let tree = cufront_hir::item_tree_of(db, item);
    let offsets = cufront_hir::item_offsets(db, item);
    let mut out = Vec::new();
    for (v, &at) in tree.vars.iter().zip(offsets.vars.iter()) {
        let a = v.linkage.cuda;
        let space = match (a.device, a.constant, a.managed || a.shared) {
            (_, true, false) => "__constant__",
            (true, false, false) => "__device__",
            _ => continue,
        };
        if let Some(start) = thread_local_declaration(&root, at) {
            let args = vec![Arg::Str(space.into())];
            out.push(Raw { at: start, id: THREAD_LOCAL_DEVICE_VAR, severity: Severity::Error, args });
        }
    }
    let fns =
        tree.fns.iter().enumerate().map(|(i, f)| (FnDecl::Fn(FnId::new(db, item, i as u32)), f, offsets.fns.get(i)));
    let templates = tree
        .fn_templates
        .iter()
        .enumerate()
        .map(|(i, t)| (FnDecl::Template(FnTemplateId::new(db, item, i as u32)), &t.f, offsets.fn_templates.get(i)));
    for (decl, f, at) in fns.chain(templates) {
        let Some(&at) = at else { continue };
        let Some(caret) = name_caret(&root, at) else { continue };
        if f.linkage.cuda.global && matches!(decl, FnDecl::Fn(_)) {
            if f.ty.params.iter().any(|p| matches!(p, TypeRef::RRef(_))) {
                out.push(Raw { at: caret, id: GLOBAL_RVALUE_REFERENCE, severity: Severity::Error, args: vec![] });
            }
            for i in grid_constant_params(&root, at) {
                let not_const = match f.ty.params.get(i) {
                    Some(TypeRef::Cv(_, cv)) => !cv.c,
                    Some(TypeRef::Builtin(_) | TypeRef::Ptr(_)) => true,
                    _ => false,
                };
                if not_const {
                    out.push(Raw { at: caret, id: GRID_CONSTANT_NOT_CONST, severity: Severity::Error, args: vec![] });
                }
            }
        }
        if let Some(id) = redeclaration(db, decl, f, at)
            && let Some(name) = qualified_name(db, decl, f)
        {
            let entity = DiagEntity { kind: Some(EntityKind::Function), name, ..DiagEntity::default() };
            out.push(Raw { at: caret, id, severity: Severity::Warning, args: vec![Arg::Entity(entity)] });
        }
    }
    out.sort_by_key(|r| r.at);
    Arc::new(out)
}

/// Explicit execution-space annotations: (host, device, global).
fn annotations(f: &FnData) -> (bool, bool, bool) {
    (f.linkage.cuda.host, f.linkage.cuda.device, f.linkage.cuda.global)
}

/// The warning for a declaration whose earlier declarations (in text
/// order) annotate it otherwise.
fn redeclaration(db: &dyn SourceDatabase, decl: FnDecl, f: &FnData, at: u32) -> Option<DiagId> {
    let item = decl.item(db);
    let items = &cufront_hir::top_level_items(db, item.tu(db)).items;
    let index = |i: ItemId| items.iter().position(|&x| x == i);
    let here = index(item)?;
    // What the earlier declarations applied; an unannotated one is host.
    let (mut host, mut device, mut global, mut any) = (false, false, false, false);
    for d in exec_space::redeclarations(db, decl) {
        let offset = match d {
            FnDecl::Fn(g) => cufront_hir::item_offsets(db, g.item(db)).fns.get(g.idx(db) as usize).copied(),
            FnDecl::Template(t) => {
                cufront_hir::item_offsets(db, t.item(db)).fn_templates.get(t.idx(db) as usize).copied()
            }
        };
        let earlier = if d.item(db) == item { offset.is_some_and(|o| o < at) } else { index(d.item(db))? < here };
        if !earlier {
            continue;
        }
        let (h, dv, g) = annotations(&*d.data(db)?);
        any = true;
        host |= h || !(dv || g);
        device |= dv;
        global |= g;
    }
    let (h, dv, g) = annotations(f);
    if !any || global || g {
        return None;
    }
    match ((host, device), (h, dv)) {
        ((false, true), (true, false)) => Some(DEVICE_REDECLARED_HOST),
        ((false, true), (true, true)) => Some(DEVICE_REDECLARED_HOST_DEVICE),
        ((false, true), (false, false)) => Some(DEVICE_REDECLARED_UNANNOTATED),
        ((true, false), (false, true)) => Some(HOST_REDECLARED_DEVICE),
        ((true, false), (true, true)) => Some(HOST_REDECLARED_HOST_DEVICE),
        _ => None,
    }
}

/// `f`, `N::g`, `S::m`: the function's name in its scope.
fn qualified_name(db: &dyn SourceDatabase, decl: FnDecl, f: &FnData) -> Option<String> {
    let FnName::Ident(simple) = &f.name else { return None };
    let qual: String = crate::names::scope_names(db, decl)?.into_iter().map(|(_, n)| format!("{n}::")).collect();
    Some(format!("{qual}{simple}"))
}

/// Where the unqualified name of the declarator at `at` is (`m` in `S::m`).
pub(crate) fn name_caret(root: &SyntaxNode, at: u32) -> Option<u32> {
    let tok = cufront_syntax::green::token_at(root, TextSize::from(at))?;
    let name = tok.parent_ancestors().find(|n| matches!(n.kind(), K::NAME | K::QUALIFIED_NAME))?;
    let name = match name.parent() {
        Some(p) if p.kind() == K::QUALIFIED_NAME => p,
        _ => name,
    };
    let last = name.descendants_with_tokens().filter_map(|e| e.into_token()).filter(|t| t.kind() == K::IDENT).last()?;
    Some(u32::from(last.text_range().start()))
}

/// The start of the declaration of the variable named at `at` when its
/// specifiers say `thread_local` and it starts with a keyword.
fn thread_local_declaration(root: &SyntaxNode, at: u32) -> Option<u32> {
    let tok = cufront_syntax::green::token_at(root, TextSize::from(at))?;
    let decl = tok.parent_ancestors().find(|n| n.kind() == K::SIMPLE_DECL)?;
    let specs = decl.children().find(|n| n.kind() == K::DECL_SPECIFIERS)?;
    if !specs.children_with_tokens().any(|t| t.kind() == K::THREAD_LOCAL_KW) {
        return None;
    }
    let first = decl.descendants_with_tokens().filter_map(|e| e.into_token()).find(|t| !t.kind().is_trivia())?;
    (first.kind().is_keyword() && first.kind() != K::ATTRIBUTE_KW).then(|| u32::from(first.text_range().start()))
}

/// The indices of the parameters annotated `__grid_constant__` in their
/// specifiers, of the function declarator named at `at`.
fn grid_constant_params(root: &SyntaxNode, at: u32) -> Vec<usize> {
    let Some(tok) = cufront_syntax::green::token_at(root, TextSize::from(at)) else { return Vec::new() };
    let Some(declarator) = tok.parent_ancestors().find(|n| n.kind() == K::DECLARATOR) else { return Vec::new() };
    let Some(params) = declarator
        .children()
        .find(|n| n.kind() == K::FUNCTION_DECLARATOR)
        .and_then(|d| d.children().find(|n| n.kind() == K::PARAM_LIST))
    else {
        return Vec::new();
    };
    params
        .children()
        .filter(|n| n.kind() == K::PARAM)
        .enumerate()
        .filter(|(_, p)| crate::decls::has_grid_constant(p))
        .map(|(i, _)| i)
        .collect()
}
