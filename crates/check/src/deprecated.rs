//! Calls of deprecated functions in device code, as cicc's front end
//! reports them (the host pass leaves them to the host compiler; spec 61):
//! `%n was declared deprecated` (1215, a warning), or with the attribute's
//! message `%n was declared deprecated (%sq)` (1444), at the call, each
//! followed by the note `because of a "deprecated" attribute` (3287) at
//! the attribute's name. Checked against the real nvcc.
//!
//! Certainty: calls `infer` resolved, in the bodies of `__device__` and
//! `__global__` functions outside lambdas; the callee a plain function (no
//! template instance) named by an identifier, deprecated by `[[deprecated]]`
//! or `__attribute__((deprecated))` on a declaration before the call; a
//! message only when it is one string literal without escapes.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::exec_space::{self, ExecSpace};
use cufront_hir::infer::{self, CallSite, Callee, InferOwner};
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::FnName;
use cufront_hir::{Entity, FnId, ItemId};
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextSize};

use crate::Found;
use crate::calls::{self, innermost_lambda, lambdas_of};

const DEPRECATED: DiagId = DiagId(1215);
const DEPRECATED_WITH_MESSAGE: DiagId = DiagId(1444);
const BECAUSE_OF_ATTRIBUTE: DiagId = DiagId(3287);

/// The calls of deprecated functions in one device body: the caret
/// (relative to the item) and the callee.
#[salsa::tracked(returns(clone))]
pub fn fn_deprecated_calls(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<(u32, FnId)>> {
    let decl = FnDecl::Fn(f);
    if !matches!(exec_space::fn_exec_space(db, decl), ExecSpace::Device | ExecSpace::Global) {
        return Arc::default();
    }
    let r = infer::infer(db, InferOwner::Fn(f));
    if r.skipped.is_some() {
        return Arc::default();
    }
    let body = infer::decl_body(db, decl);
    let lambdas = lambdas_of(&body);
    let mut out = Vec::new();
    for (site, callee) in &r.calls {
        let (CallSite::Expr(e), Callee::Entity(Entity::Fn(g))) = (site, callee) else { continue };
        let Some(range) = body.expr_ranges.get(e.0 as usize) else { continue };
        if innermost_lambda(&lambdas, *range).is_some() || deprecation(db, *g).is_none() {
            continue;
        }
        let (at, skip_blanks, twice) = calls::caret(db, &body, *site, Entity::Fn(*g));
        if skip_blanks || twice {
            continue;
        }
        out.push((at, *g));
    }
    Arc::new(out)
}

/// Where a function's first declaration that says `deprecated` names it
/// (item, offset of the attribute's name in the item), and the message.
#[salsa::tracked(returns(clone))]
pub fn deprecation(db: &dyn SourceDatabase, g: FnId) -> Option<(ItemId, u32, Option<String>)> {
    let decl = FnDecl::Fn(g);
    let mut decls = vec![decl];
    decls.extend(exec_space::redeclarations(db, decl));
    let items = &cufront_hir::top_level_items(db, g.item(db).tu(db)).items;
    let mut found: Option<(usize, ItemId, u32, Option<String>)> = None;
    for d in decls {
        let FnDecl::Fn(h) = d else { continue };
        let item = h.item(db);
        let Some(index) = items.iter().position(|&i| i == item) else { continue };
        let Some(src) = cufront_hir::item_source(db, item).as_ref() else { continue };
        let root = SyntaxNode::new_root(src.green.clone());
        let Some(&at) = cufront_hir::item_offsets(db, item).fns.get(h.idx(db) as usize) else { continue };
        let Some((attr, message)) = deprecated_attribute(&root, at) else { continue };
        if found.as_ref().is_none_or(|(i, _, a, _)| (index, attr) < (*i, *a)) {
            found = Some((index, item, attr, message));
        }
    }
    found.map(|(_, item, at, message)| (item, at, message))
}

/// The `deprecated` attribute of the declaration whose declarator is at
/// `at`: where its name is, and its message (`Some("")` stands for a
/// message the model does not read: the finding is then dropped).
fn deprecated_attribute(root: &SyntaxNode, at: u32) -> Option<(u32, Option<String>)> {
    let tok = cufront_syntax::green::token_at(root, TextSize::from(at))?;
    let decl =
        tok.parent_ancestors().find(|n| matches!(n.kind(), K::SIMPLE_DECL | K::FUNCTION_DEF | K::MEMBER_DECL))?;
    for attr in decl.descendants().filter(|n| matches!(n.kind(), K::ATTRIBUTE | K::GNU_ATTRIBUTE)) {
        if attr.ancestors().any(|a| matches!(a.kind(), K::FUNCTION_BODY | K::LAZY_BODY | K::PARAM_LIST)) {
            continue;
        }
        let Some(name) = attr
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| matches!(t.text(), "deprecated" | "__deprecated__"))
        else {
            continue;
        };
        let message = match attr.children().find(|n| n.kind() == K::ATTRIBUTE_ARGS) {
            None => None,
            Some(args) => {
                let toks: Vec<_> = args
                    .descendants_with_tokens()
                    .filter_map(|e| e.into_token())
                    .filter(|t| !t.kind().is_trivia() && !matches!(t.kind(), K::L_PAREN | K::R_PAREN))
                    .collect();
                match toks.as_slice() {
                    [] => None,
                    [s] if s.text().len() >= 2
                        && s.text().starts_with('"')
                        && s.text().ends_with('"')
                        && !s.text().contains('\\') =>
                    {
                        Some(s.text()[1..s.text().len() - 1].to_string())
                    }
                    _ => Some(String::new()),
                }
            }
        };
        return Some((u32::from(name.text_range().start()), message));
    }
    None
}

/// The findings of one device body (the warning and its note, absolute
/// offsets), for the device pass.
pub(crate) fn findings(db: &dyn SourceDatabase, tu: TranslationUnit, f: FnId, start: u32, out: &mut Vec<Found>) {
    let calls = fn_deprecated_calls(db, f);
    if calls.is_empty() {
        return;
    }
    let starts: rustc_hash::FxHashMap<ItemId, u32> = calls::item_starts(db, tu).into_iter().collect();
    for &(at, g) in calls.iter() {
        let at = start + at;
        let Some((item, attr, message)) = deprecation(db, g) else { continue };
        let Some(&item_start) = starts.get(&item) else { continue };
        let attr = item_start + attr;
        if attr > at || message.as_deref() == Some("") {
            continue;
        }
        let Some(name) = qualified_name(db, g) else { continue };
        let entity = DiagEntity { kind: Some(EntityKind::Function), name, ..DiagEntity::default() };
        let (id, args) = match message {
            None => (DEPRECATED, vec![Arg::Entity(entity)]),
            Some(m) => (DEPRECATED_WITH_MESSAGE, vec![Arg::Entity(entity), Arg::Str(m)]),
        };
        out.push(Found::new(at, id, Severity::Warning, args));
        let (id, severity) = (BECAUSE_OF_ATTRIBUTE, Severity::Note);
        out.push(Found { order: at, ..Found::new(attr, id, severity, vec![]) });
    }
}

/// `f`, `N::f`, `S::m`.
fn qualified_name(db: &dyn SourceDatabase, g: FnId) -> Option<String> {
    let decl = FnDecl::Fn(g);
    let data = decl.data(db)?;
    let FnName::Ident(simple) = &data.name else { return None };
    let qual: String = crate::names::scope_names(db, decl)?.into_iter().map(|(_, n)| format!("{n}::")).collect();
    Some(format!("{qual}{simple}"))
}
