//! Inlay hints: the template arguments deduced for a kernel launch written
//! without them (`k<<<g, b>>>(x)` shows `k<float>`), from `hir`'s inference
//! of the enclosing function (the instance its call selects).

use cufront_hir::Entity;
use cufront_hir::body::fn_body;
use cufront_hir::infer::{self, CallSite, Callee, InferOwner};
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextSize};

use crate::resolve;
use crate::symbols;
use crate::{Ctx, LineCol};

/// A hint shown at a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    pub pos: LineCol,
    pub label: String,
}

pub(crate) fn inlay_hints(cx: &Ctx<'_>) -> Vec<InlayHint> {
    let root = cx.parse().syntax_node();
    let starts = symbols::item_starts(cx.db, cx.unit.tu);
    let mut out = Vec::new();
    // Items are the root's children, in order.
    for (&(item, start), node) in starts.list.iter().zip(root.children()) {
        if cx.is_system(start) {
            continue;
        }
        for launch in node.descendants().filter(|n| n.kind() == K::KERNEL_LAUNCH) {
            if !cx.in_file(launch.text_range().start().into()) {
                continue;
            }
            if let Some(h) = launch_hint(cx, item, start, &launch) {
                out.push(h);
            }
        }
    }
    out
}

fn launch_hint(cx: &Ctx<'_>, item: cufront_hir::ItemId, start: u32, launch: &SyntaxNode) -> Option<InlayHint> {
    let callee = launch.children().next()?;
    // Arguments written: nothing to show.
    if callee.descendants().any(|n| n.kind() == K::TEMPLATE_ID) {
        return None;
    }
    let name =
        callee.descendants_with_tokens().filter_map(|e| e.into_token()).filter(|t| t.kind() == K::IDENT).last()?;
    let function = launch.ancestors().filter(|a| a.kind() == K::FUNCTION_DEF).last()?;
    let f = resolve::function_id(cx.db, item, start, &function)?;
    let body = fn_body(cx.db, f);
    let result = infer::infer(cx.db, InferOwner::Fn(f));
    let rel = launch.text_range() - TextSize::from(start);
    for (site, callee) in &result.calls {
        let (CallSite::Expr(e), Callee::Entity(Entity::FnInst(i))) = (site, callee) else {
            continue;
        };
        if i.args(cx.db).is_empty() {
            continue;
        }
        if body.expr_ranges.get(e.0 as usize) != Some(&rel) {
            continue;
        }
        let (_, pos, _) = cx.position(name.text_range().end().into());
        let args = cufront_hir::templates::display_args(cx.db, i.args(cx.db));
        return Some(InlayHint { pos, label: format!("<{args}>") });
    }
    None
}
