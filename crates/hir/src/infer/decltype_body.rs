//! `decltype(expr)` of any expression shape, inferred like a body: the
//! operand is lowered from the item's tree (`decltype_bodies`, once per
//! item, keyed by the operand's token text, which is what the item tree
//! keeps as `TypeRef::Opaque`) and typed by `Infer` in the scope and
//! environment of the type being lowered. This is what libcu++'s
//! invocability traits need: `__invokable_r<…>::_Result` is
//! `decltype(__try_call<_Fp, _Args...>(0))`, whose candidate returns
//! `decltype(__invoke(declval<_XFp>(), declval<_XArgs>()...))`, which
//! returns `decltype(declval<_Fp>()(declval<_Args>()...))`, and
//! `plus<void>::operator()` returns `decltype(forward<_T1>(__t) + …)`
//! (its parameters are in scope there). The textual reader
//! (`decltype.rs`) answers first; this is the fallback.

use super::*;
use crate::syntax_util as su;
use cufront_syntax::SyntaxNode;

/// The `decltype` operands of one top-level item, by the token text of the
/// whole specifier (`decltype(t+u)`), as bodies (first occurrence wins).
#[salsa::tracked(returns(clone))]
pub fn decltype_bodies(db: &dyn SourceDatabase, item: ItemId) -> Arc<FxHashMap<String, Arc<Body>>> {
    let Some(src) = crate::item_source(db, item).as_ref().cloned() else { return Arc::default() };
    let root = SyntaxNode::new_root(src.green.clone());
    let mut out: FxHashMap<String, Arc<Body>> = FxHashMap::default();
    use cufront_syntax::SyntaxKind as K;
    // Not those in function bodies: they name the body's locals, which only
    // the body's own inference knows.
    let in_body = |n: &SyntaxNode| n.ancestors().any(|a| matches!(a.kind(), K::FUNCTION_BODY | K::LAZY_BODY | K::COMPOUND_STMT | K::CTOR_INITIALIZER));
    for n in root.descendants().filter(|n| n.kind() == K::DECLTYPE_SPECIFIER && !in_body(n)) {
        let text: String = su::tokens(&n).map(|t| t.text().to_string()).collect();
        if out.contains_key(&text) {
            continue;
        }
        if let Some(b) = body::lower_decltype(&n) {
            out.insert(text, Arc::new(b));
        }
    }
    Arc::new(out)
}

/// The type `decltype(…)` (`text`, as the item tree keeps it) denotes in
/// `cx`, inferred from the operand's body: None when `cx`'s item has no such
/// operand, or the operand is still dependent or not modelled.
pub(super) fn decltype_full(cx: LowerCx<'_>, text: &str) -> Option<TyId> {
    let db = cx.db;
    // A closure's call operator is inferred through `closure::lambda_site`
    // (its owner's inference up to the lambda), never the owner's whole
    // inference, so `decltype(declval<F&>()(…))` with `F` a closure is
    // answered (`std::function<float(float)> f = lambda;`'s constraint).
    let bodies = decltype_bodies(db, cx.item);
    let body = bodies.get(text.trim())?.clone();
    let root = body.root_expr?;
    let mut inf = Infer::type_level(cx, &body);
    inf.res.expr_tys = vec![None; body.exprs.len()];
    inf.res.categories = vec![Category::PRValue; body.exprs.len()];
    inf.res.local_tys = vec![None; body.locals.len()];
    for &p in &body.params {
        let t = inf.local_declared_ty(p, None);
        inf.res.local_tys[p.0 as usize] = Some(t);
        inf.bind_local(p);
    }
    let (t, cat) = templates::nested(|| Ok(inf.expr_cat(root))).ok()?;
    let t = canonical(db, t);
    if ty_has_placeholder(db, t, 0) || matches!(t.kind(db), TyKind::Dependent(_)) {
        return None;
    }
    if ty_has_error(db, t, 0) {
        // A failure is a substitution failure only when every part of the
        // operand is modelled; otherwise the answer is unknown.
        if body.exprs.iter().any(|e| matches!(e, Expr::Missing(_) | Expr::Requires { .. } | Expr::StmtExpr(_) | Expr::Lambda { .. })) {
            return None;
        }
        let why = match t.kind(db) {
            TyKind::Error(e) => e.clone(),
            _ => String::new(),
        };
        // A name not found is a gap of the model more often than SFINAE.
        if why.contains("unresolved name") || why.contains("unresolved type") {
            return None;
        }
        return Some(mk(db, TyKind::Error(format!("substitution failure in decltype: {why}"))));
    }
    // `decltype(x)` of a name (a parameter) is its declared type.
    if let Expr::Path(p) = body.expr(root) {
        if let ([seg], false) = (p.segments.as_slice(), p.global) {
            if let Some(l) = body.params.iter().find(|l| body.local(**l).name.as_deref() == Some(seg.name.as_str())) {
                return inf.res.local_tys[l.0 as usize];
            }
        }
    }
    Some(match cat {
        Category::LValue => mk(db, TyKind::LRef(t)),
        Category::XValue => mk(db, TyKind::RRef(t)),
        Category::PRValue => t,
    })
}

