//! g++'s `__integer_pack(N)...` (the builtin behind libstdc++'s
//! `std::make_integer_sequence`): in a template argument list, the pack
//! expansion `__integer_pack(N)...` is the values `0, 1, …, N-1` of `N`'s
//! type. The item tree keeps the call as unsupported text; its one
//! argument (a name or an integer) is read back and evaluated here.

use crate::consteval::{self, EvalCx};
use crate::item_tree::{ConstExpr, Path, TemplateArgRef};
use crate::ty::{LowerCx, TyKind, mk};

use super::TemplateArg;

/// More elements than this is an error (no instantiation could use them).
const MAX_ELEMS: i128 = 1 << 16;

/// The elements of `x...` when `x` is `__integer_pack(N)`; None otherwise.
pub(super) fn expand(cx: LowerCx<'_>, x: &TemplateArgRef) -> Option<Result<Vec<TemplateArg>, crate::SemaError>> {
    let TemplateArgRef::Expr(ConstExpr::Unsupported(text)) = x else { return None };
    let inner = text.trim().strip_prefix("__integer_pack")?.trim().strip_prefix('(')?.strip_suffix(')')?.trim();
    let e = if inner.chars().next()?.is_ascii_digit() {
        crate::syntax_util::int_literal(inner)?
    } else if inner.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':') {
        let mut p = Path::default();
        for seg in inner.split("::").filter(|s| !s.is_empty()) {
            p.segments.push(Path::single(seg).segments.remove(0));
        }
        p.global = inner.starts_with("::");
        ConstExpr::Path(p)
    } else {
        // Any other operand (libcu++'s `__integer_pack(_Ep - _Sp)`) is an
        // expression of the item's syntax, evaluated by the interpreter.
        return Some(match consteval::text::eval_text(cx, inner) {
            Ok(n) => elements(cx, n),
            Err(_) => Ok(vec![TemplateArg::Dependent(format!("{x}..."))]),
        });
    };
    // A value parameter keeps its own type (`size_t N`: `0ul, 1ul, …`).
    if let ConstExpr::Path(p) = &e
        && let (false, [seg]) = (p.global, p.segments.as_slice())
        && let Some(TemplateArg::Value(n, ty)) = cx.env.and_then(|env| env.get(&seg.name))
    {
        let (n, ty) = (*n, *ty);
        if !(0..=MAX_ELEMS).contains(&n) {
            return Some(Err(crate::error::gap!("__integer_pack({n})")));
        }
        return Some(Ok((0..n).map(|i| TemplateArg::Value(i, ty)).collect()));
    }
    Some(match consteval::eval(&EvalCx::new(cx), &e) {
        Ok(n) => elements(cx, n),
        // `N` not known yet (a pattern being matched or mangled): dependent, as any unexpanded `x...`.
        Err(_) => Ok(vec![TemplateArg::Dependent(format!("{x}..."))]),
    })
}

/// `0, 1, …, n-1` of `n`'s type.
fn elements(cx: LowerCx<'_>, n: consteval::Value) -> Result<Vec<TemplateArg>, crate::SemaError> {
    if !(0..=MAX_ELEMS).contains(&n.v) {
        return Err(crate::error::gap!("__integer_pack({})", n.v));
    }
    let ty = mk(cx.db, TyKind::Builtin(n.ty));
    Ok((0..n.v).map(|i| TemplateArg::Value(i, ty)).collect())
}
