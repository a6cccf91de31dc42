//! The expressions the item-tree evaluator (`consteval::eval`) keeps only
//! as text (`ConstExpr::Unsupported`: calls, `noexcept(…)`, member access,
//! requires-expressions…) found again in their item's syntax and handed to
//! the interpreter. This is how a default template argument that calls a
//! constexpr function (`template <class T, K = kind<T>()>`), an array
//! bound or an enumerator written as a call are evaluated.
//!
//! The item tree keeps the node's text, not its position; two expression
//! nodes of one item with the same text are the same expression (looked up
//! in the scope and environment of the evaluation), so the first one is
//! used.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextRange, TextSize};

use super::interp::{self, CValue, Site};
use super::{ConstError, Value};
use crate::ItemId;
use crate::body;
use crate::syntax_util as su;
use crate::ty::LowerCx;

/// The expression nodes of an item (outside function bodies) that the
/// item-tree lowering leaves as text, by text, with their ranges.
#[salsa::tracked(returns(clone))]
pub fn opaque_exprs(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<(String, u32, u32)>> {
    let Some(src) = crate::item_source(db, item).as_ref() else { return Arc::new(Vec::new()) };
    let root = SyntaxNode::new_root(src.green.clone());
    let mut out: Vec<(String, u32, u32)> = Vec::new();
    let mut walk = root.preorder();
    while let Some(ev) = walk.next() {
        let rowan::WalkEvent::Enter(n) = ev else { continue };
        match n.kind() {
            K::FUNCTION_BODY | K::LAZY_BODY | K::FUNCTION_TRY_BLOCK => walk.skip_subtree(),
            K::CALL_EXPR | K::NOEXCEPT_EXPR | K::REQUIRES_EXPR | K::FUNCTIONAL_CAST_EXPR | K::MEMBER_EXPR | K::FOLD_EXPR | K::ID_EXPR
            | K::CAST_EXPR | K::CXX_CAST_EXPR | K::INDEX_EXPR | K::CONDITIONAL_EXPR | K::BIN_EXPR | K::PREFIX_EXPR | K::PAREN_EXPR
            // `((void) _Pred, true)` lowers to its comma expression's text.
            | K::COMMA_EXPR
            // `sizeof(e)`/`alignof(e)` of an expression operand.
            | K::SIZEOF_EXPR | K::ALIGNOF_EXPR => {
                let r = n.text_range();
                out.push((n.text().to_string(), u32::from(r.start()), u32::from(r.end())));
            }
            _ => {}
        }
    }
    // First occurrence of each text.
    out.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    out.dedup_by(|a, b| a.0 == b.0);
    Arc::new(out)
}

/// The expression `opaque_exprs(item)[k]` lowered (a default argument or
/// a trait's condition is evaluated for every specialization that needs
/// it; it is lowered once).
#[salsa::tracked(returns(clone))]
fn opaque_body(db: &dyn SourceDatabase, item: ItemId, k: u32) -> Option<Arc<body::Body>> {
    let node = node_at(db, item, k as usize)?;
    Some(Arc::new(body::lower_expr_owner(&node)))
}

/// The node of `item` whose text is `text`, lowered: one outside function
/// bodies, else the first one inside a body (`body_expr`).
pub(crate) fn find(db: &dyn SourceDatabase, item: ItemId, text: &str) -> Option<Arc<body::Body>> {
    let idx = opaque_exprs(db, item);
    match idx.binary_search_by(|(t, _, _)| t.as_str().cmp(text)) {
        Ok(k) => opaque_body(db, item, k as u32),
        Err(_) => find_in_bodies(db, item, text),
    }
}

/// An expression written in a function body (a call in a template argument
/// of a type the body names: `return C<signum(t)>{};`): found by its text
/// in the item's text, then as the expression node at that place, parsing
/// the lazy body that holds it. Searched only when no expression outside
/// bodies has the text, so bodies are parsed only for what needs them.
fn find_in_bodies(db: &dyn SourceDatabase, item: ItemId, text: &str) -> Option<Arc<body::Body>> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let item_text = interp::item_text(db, item);
    item_text.match_indices(text).find_map(|(s, _)| body_expr(db, item, s as u32, (s + text.len()) as u32))
}

/// The expression node of a function body of `item` that spans exactly
/// `start..end` (offsets in the item), lowered with item offsets.
#[salsa::tracked(returns(clone))]
fn body_expr(db: &dyn SourceDatabase, item: ItemId, start: u32, end: u32) -> Option<Arc<body::Body>> {
    let src = crate::item_source(db, item).as_ref()?.clone();
    let root = SyntaxNode::new_root(src.green.clone());
    let range = TextRange::new(TextSize::from(start), TextSize::from(end));
    let tok = cufront_syntax::green::token_at(&root, TextSize::from(start))?;
    let holder = tok.parent_ancestors().find(|n| matches!(n.kind(), K::FUNCTION_BODY | K::LAZY_BODY))?;
    let (tree, base) = match holder.kind() {
        K::LAZY_BODY => body::parse_lazy(db, item, &holder)?,
        _ => (root, TextSize::from(0)),
    };
    let local = range.checked_sub(base)?;
    if !tree.text_range().contains_range(local) {
        return None;
    }
    let mut n = match tree.covering_element(local) {
        rowan::NodeOrToken::Node(n) => n,
        rowan::NodeOrToken::Token(t) => t.parent()?,
    };
    loop {
        if n.text_range() == local && su::is_expr(n.kind()) {
            return Some(Arc::new(body::lower_expr_at(&n, base)));
        }
        if n.text_range().len() > local.len() {
            return None;
        }
        n = n.parent()?;
    }
}

/// The node of `opaque_exprs(item)[k]`.
fn node_at(db: &dyn SourceDatabase, item: ItemId, k: usize) -> Option<SyntaxNode> {
    let (_, s, e) = *opaque_exprs(db, item).get(k)?;
    let src = crate::item_source(db, item).as_ref()?;
    let root = SyntaxNode::new_root(src.green.clone());
    let range = TextRange::new(TextSize::from(s), TextSize::from(e));
    let mut n = match root.covering_element(range) {
        rowan::NodeOrToken::Node(n) => n,
        rowan::NodeOrToken::Token(t) => t.parent()?,
    };
    loop {
        if n.text_range() == range && su::is_expr(n.kind()) {
            return Some(n);
        }
        n = n.parent()?;
    }
}

/// Evaluates an expression the item tree kept as `text`, written in
/// `cx.item`, in `cx`'s scope and environment, with the interpreter.
pub fn eval_text(cx: LowerCx<'_>, text: &str) -> Result<Value, ConstError> {
    let not = || ConstError::Unsupported(text.trim().to_string());
    let cond = find(cx.db, cx.item, text).ok_or_else(not)?;
    let site = Site {
        item: cx.item,
        scope: cx.scope,
        env: cx.env,
        text: interp::item_text(cx.db, cx.item),
        func: None,
        before: 0,
    };
    // One instantiation level deeper: a default argument whose function
    // needs the same default again ends at the nesting limit.
    let v = crate::templates::nested(|| Ok(interp::eval_value(cx.db, cx.map, &site, &cond)))
        .map_err(ConstError::limit)??;
    match v {
        CValue::Int(v) => Ok(v),
        _ => Err(not()),
    }
}
