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

/// The operands of `decltype` and of `sizeof` applied to an expression in
/// one top-level item (outside function bodies), by the text of the whole
/// operator with whitespace removed (`operand_key`), as bodies: each
/// different body once, in order. One text can have several (a namespace
/// is one item: cooperative groups' `-> decltype(op(val, val))` trails
/// functions whose parameter lists differ); `operand_body` gives the first,
/// `operand_body_for` the one of a given parameter list.
#[salsa::tracked(returns(clone))]
pub fn decltype_bodies(db: &dyn SourceDatabase, item: ItemId) -> Arc<FxHashMap<String, Vec<Arc<Body>>>> {
    let Some(src) = crate::item_source(db, item).as_ref().cloned() else { return Arc::default() };
    let root = SyntaxNode::new_root(src.green.clone());
    let mut out: FxHashMap<String, Vec<Arc<Body>>> = FxHashMap::default();
    use cufront_syntax::SyntaxKind as K;
    // Not those in function bodies: they name the body's locals, which only
    // the body's own inference knows.
    let in_body = |n: &SyntaxNode| {
        n.ancestors()
            .any(|a| matches!(a.kind(), K::FUNCTION_BODY | K::LAZY_BODY | K::COMPOUND_STMT | K::CTOR_INITIALIZER))
    };
    for n in root.descendants().filter(|n| matches!(n.kind(), K::DECLTYPE_SPECIFIER | K::SIZEOF_EXPR) && !in_body(n)) {
        let text = operand_key(&su::tokens(&n).map(|t| t.text().to_string()).collect::<String>());
        let b = if n.kind() == K::DECLTYPE_SPECIFIER {
            body::lower_decltype(&n)
        } else {
            // `sizeof(expr)`, not `sizeof(type)` (read by layout).
            use cufront_syntax::ast::{self, AstNode};
            match ast::SizeofExpr::cast(n.clone()) {
                Some(s) if s.type_id().is_none() => s.expr().and_then(|e| body::lower_operand(&n, e.syntax())),
                _ => None,
            }
        };
        if let Some(b) = b {
            let bodies = out.entry(text).or_default();
            if !bodies.iter().any(|x| **x == b) {
                bodies.push(Arc::new(b));
            }
        }
    }
    Arc::new(out)
}

/// The key of an operand in `decltype_bodies`: its text without
/// whitespace, so the item tree's token text (`TypeRef::Opaque`) and a
/// constant expression's source text (`ConstExpr::Unsupported`) agree.
fn operand_key(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The body of the `decltype`/`sizeof` operand written as `text` in `item`.
pub(crate) fn operand_body(db: &dyn SourceDatabase, item: ItemId, text: &str) -> Option<Arc<Body>> {
    decltype_bodies(db, item).get(&operand_key(text)).and_then(|v| v.first().cloned())
}

/// The body of the operand written as `text` in the signature of a
/// function whose parameters are of the written types `params`, for
/// writing it (`symbols/decltype_ret.rs`, which reads only where each
/// parameter is): the first when every body of that text names the same
/// parameters in the same places, else the only one whose parameters are
/// those types, else the first of those with as many parameters when they
/// agree on the names; None when that does not tell them apart.
pub(crate) fn operand_body_for(
    db: &dyn SourceDatabase,
    item: ItemId,
    text: &str,
    params: &[crate::item_tree::TypeRef],
) -> Option<Arc<Body>> {
    let bodies = decltype_bodies(db, item);
    let all = bodies.get(&operand_key(text))?;
    let names = |b: &Body| b.params.iter().map(|l| b.locals[l.0 as usize].name.clone()).collect::<Vec<_>>();
    let same_names = |bs: &[&Arc<Body>]| bs.windows(2).all(|w| names(w[0]) == names(w[1]));
    let every: Vec<&Arc<Body>> = all.iter().collect();
    if same_names(&every) {
        return all.first().cloned();
    }
    let fits = |b: &Body| {
        b.params.len() == params.len()
            && b.params
                .iter()
                .zip(params)
                .all(|(l, t)| *b.locals[l.0 as usize].ty.decayed_param() == *t.decayed_param())
    };
    let mut fit = all.iter().filter(|b| fits(b));
    if let (Some(b), None) = (fit.next(), fit.next()) {
        return Some(b.clone());
    }
    let counted: Vec<&Arc<Body>> = all.iter().filter(|b| b.params.len() == params.len()).collect();
    match counted.first() {
        Some(b) if same_names(&counted) => Some((*b).clone()),
        _ => None,
    }
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
    let body = operand_body(db, cx.item, text)?;
    let (t, cat, declared) = operand_type(cx, &body)?;
    // `decltype(x)` of a name (a parameter) is its declared type.
    if let Some(d) = declared {
        return Some(d);
    }
    Some(match cat {
        Category::LValue => mk(db, TyKind::LRef(t)),
        Category::XValue => mk(db, TyKind::RRef(t)),
        Category::PRValue => t,
    })
}

/// The value of `sizeof(expr)` (`text`, as the constant expression keeps
/// it) in `cx`, the operand inferred as a body: the detection idiom
/// `sizeof(f(static_cast<tag<T>*>(nullptr), nullptr))`, whose overload
/// decides the size. None when not modelled, dependent, or invalid.
pub(super) fn sizeof_full(cx: LowerCx<'_>, text: &str) -> Option<u64> {
    let db = cx.db;
    // In a pattern the size is not known yet.
    if cx
        .env
        .is_some_and(|e| e.names.iter().any(|(_, a)| has_placeholder(db, a) || matches!(a, TemplateArg::Dependent(_))))
    {
        return None;
    }
    let body = operand_body(db, cx.item, text)?;
    let (t, _, _) = operand_type(cx, &body)?;
    if matches!(t.kind(db), TyKind::Error(_)) {
        return None;
    }
    crate::layout::size_align(db, t).ok().map(|(size, _)| size)
}

/// The type (references stripped) of the unevaluated operand `e` of a
/// body being evaluated (`sizeof(e)`, `alignof(e)`) in `cx`: what the
/// interpreter asks of an operand it cannot evaluate, such as a
/// non-static data member named by a qualified name (libstdc++'s
/// `alignas(__alignof__(_Tp2::_M_t))`: the member's type). None when
/// dependent, invalid or not modelled.
pub(crate) fn unevaluated_operand_type(cx: LowerCx<'_>, body: &Body, e: ExprId) -> Option<TyId> {
    let db = cx.db;
    let (t, _) = typed_operand(cx, body, e)?;
    let t = canonical(db, t);
    Some(match t.kind(db) {
        TyKind::LRef(x) | TyKind::RRef(x) => canonical(db, *x),
        _ => t,
    })
}

/// `decltype(e)` for the operand `e` of a block-scope alias of `body`
/// (`using _Prom = decltype(_Tp{} / _Up{});` in libcu++'s `ceil_div`),
/// in `cx`: what the interpreter binds the alias to when it runs the body.
/// An operand that names a local other than a parameter is left alone
/// (the body's own inference types it; here its name could find an
/// entity the local hides). None when dependent, invalid or not modelled.
pub(crate) fn alias_operand_decltype(cx: LowerCx<'_>, body: &Body, text: &str) -> Option<TyId> {
    let db = cx.db;
    let &(_, e) = body.alias_decltypes.iter().find(|(s, _)| s == text.trim())?;
    let names: rustc_hash::FxHashSet<String> = crate::type_tokens(text).into_iter().collect();
    let names_local = body.locals.iter().enumerate().any(|(i, l)| {
        !body.params.iter().any(|p| p.0 as usize == i) && l.name.as_ref().is_some_and(|n| names.contains(n))
    });
    if names_local {
        return None;
    }
    let (t, cat) = typed_operand(cx, body, e)?;
    Some(match cat {
        Category::LValue => mk(db, TyKind::LRef(t)),
        Category::XValue => mk(db, TyKind::RRef(t)),
        Category::PRValue => t,
    })
}

/// The type and category of the unevaluated operand `e` of `body` in
/// `cx`, inferred at type level with the body's parameters of their
/// declared types. None when dependent, invalid or not modelled.
fn typed_operand(cx: LowerCx<'_>, body: &Body, e: ExprId) -> Option<(TyId, Category)> {
    let db = cx.db;
    let mut inf = type_level_with_params(cx, body)?;
    let (t, cat) = templates::nested(|| Ok(inf.expr_cat(e))).ok()?;
    let c = canonical(db, t);
    if ty_has_error(db, c, 0) || ty_has_placeholder(db, c, 0) || matches!(c.kind(db), TyKind::Dependent(_)) {
        return None;
    }
    Some((t, cat))
}

/// A type-level inference of `body` in `cx` with its parameters bound to
/// their declared types; None in a pattern (the environment still holds
/// placeholders or dependent arguments).
fn type_level_with_params<'a>(cx: LowerCx<'a>, body: &'a Body) -> Option<Infer<'a>> {
    let db = cx.db;
    if cx
        .env
        .is_some_and(|e| e.names.iter().any(|(_, a)| has_placeholder(db, a) || matches!(a, TemplateArg::Dependent(_))))
    {
        return None;
    }
    let mut inf = Infer::type_level(cx, body);
    inf.res.expr_tys = vec![None; body.exprs.len()];
    inf.res.categories = vec![Category::PRValue; body.exprs.len()];
    inf.res.local_tys = vec![None; body.locals.len()];
    for &p in &body.params {
        let t = inf.local_declared_ty(p, None);
        inf.res.local_tys[p.0 as usize] = Some(t);
        inf.bind_local(p);
    }
    Some(inf)
}

/// The function a call expression `call` of `body` (a constexpr function's,
/// evaluated by the interpreter in `cx`) resolves to by the full overload
/// rules (value categories, reference binding, partial ordering,
/// SFINAE): what the interpreter asks when its own ranking by argument
/// kinds ties (`get(tuple<T...> const&)` / `&` / `&&`, a variadic
/// `min(T0 const&, Ts const&...)` against `min(T const&, U const&)`).
/// The body's parameters have their declared types; None when the call
/// does not resolve to a function here.
pub(crate) fn call_target(cx: LowerCx<'_>, body: &Body, call: ExprId) -> Option<crate::instances::FnDecl> {
    let db = cx.db;
    let mut inf = type_level_with_params(cx, body)?;
    templates::nested(|| Ok(inf.expr(call))).ok()?;
    inf.res.calls.iter().find_map(|(site, callee)| match (site, callee) {
        (CallSite::Expr(e), Callee::Entity(Entity::Fn(f))) if *e == call => Some(crate::instances::FnDecl::Fn(*f)),
        (CallSite::Expr(e), Callee::Entity(Entity::FnInst(i))) if *e == call => Some(i.decl(db)),
        _ => None,
    })
}

/// The type (references stripped) and category of an operand's body in
/// `cx` (an error type only for a substitution failure), and the declared
/// type of a parameter named alone.
fn operand_type(cx: LowerCx<'_>, body: &Body) -> Option<(TyId, Category, Option<TyId>)> {
    let db = cx.db;
    let root = body.root_expr?;
    let mut inf = Infer::type_level(cx, body);
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
    // Any invalid operand makes the whole operand invalid, whatever type the
    // expression would have: `decltype(void(), requires_<false>, false)` (a
    // comma's left operand; libcu++'s concept emulation) is a substitution
    // failure, not `bool`.
    if let Some(why) = subexpression_failure(db, body, &inf.res) {
        return Some((
            mk(db, TyKind::Error(crate::error::subst_failure!("substitution failure in decltype: {why}"))),
            cat,
            None,
        ));
    }
    if ty_has_error(db, t, 0) {
        // A failure is a substitution failure only when every part of the
        // operand is modelled; otherwise the answer is unknown.
        if body
            .exprs
            .iter()
            .any(|e| matches!(e, Expr::Missing(_) | Expr::Requires { .. } | Expr::StmtExpr(_) | Expr::Lambda { .. }))
        {
            return None;
        }
        let why = match t.kind(db) {
            TyKind::Error(e) => e.clone(),
            _ => crate::SemaError::gap(""),
        };
        if !counts_as_failure(&why) {
            return None;
        }
        return Some((
            mk(db, TyKind::Error(crate::error::subst_failure!("substitution failure in decltype: {why}"))),
            cat,
            None,
        ));
    }
    let mut declared = None;
    if let Expr::Path(p) = body.expr(root)
        && let ([seg], false) = (p.segments.as_slice(), p.global)
        && let Some(l) = body.params.iter().find(|l| body.local(**l).name.as_deref() == Some(seg.name.as_str()))
    {
        declared = inf.res.local_tys[l.0 as usize];
    }
    Some((t, cat, declared))
}

/// Whether an error in an operand whose every part is modelled is a
/// substitution failure: a name not found is a gap of the model more often
/// than SFINAE.
fn counts_as_failure(why: &crate::SemaError) -> bool {
    why.kind() != crate::ErrorKind::NotFound
}

/// The first failure among the operand's subexpressions (by the rule of
/// `counts_as_failure`), in operands whose every part is modelled and in
/// the immediate context (a lambda's body or a requires-expression's
/// requirements are not).
fn subexpression_failure(db: &dyn SourceDatabase, body: &Body, res: &InferenceResult) -> Option<crate::SemaError> {
    if body
        .exprs
        .iter()
        .any(|e| matches!(e, Expr::Missing(_) | Expr::Requires { .. } | Expr::StmtExpr(_) | Expr::Lambda { .. }))
    {
        return None;
    }
    res.expr_tys.iter().flatten().find_map(|t| match t.kind(db) {
        TyKind::Error(e) if counts_as_failure(e) => Some(e.clone()),
        _ => None,
    })
}
