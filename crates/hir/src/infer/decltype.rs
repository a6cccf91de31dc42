//! `decltype(expr)` in a type, read from its text (the item tree keeps it
//! opaque) for the shapes template metaprogramming uses to detect
//! well-formedness: calls of (template-)functions — `f<A>(declval<T>())`,
//! `g(T{})`, `h(T())`, `f(0)` — whose type is the selected overload's
//! return type. A call whose overload resolution fails with concrete
//! arguments is a substitution failure (an error type: a partial
//! specialization whose pattern needs it is not chosen); a call that still
//! names a pattern's parameters stays dependent.

use super::*;

/// The type `text` (`decltype(…)`) denotes in `cx`: `None` when the
/// expression is not of a modelled shape or still dependent.
pub fn decltype_text(cx: LowerCx<'_>, text: &str) -> Option<TyId> {
    let db = cx.db;
    let inner = text.trim().strip_prefix("decltype")?.trim();
    let inner = inner.strip_prefix('(')?.strip_suffix(')')?;
    // A value template parameter whose argument is known: the argument's
    // type, whatever the environment still deduces (libcu++'s
    // `__type_case<_Label, _Value>` is `__type_case_<integral_constant<
    // decltype(_Label), _Label>, _Value>`, `_Label` given explicitly and
    // `_Value` deduced from a base class).
    if let Some(TemplateArg::Value(_, t)) = cx.env.and_then(|e| e.get(inner.trim())) {
        return Some(*t);
    }
    if cx
        .env
        .is_some_and(|e| e.names.iter().any(|(_, a)| has_placeholder(db, a) || matches!(a, TemplateArg::Dependent(_))))
    {
        return None;
    }
    let toks = crate::type_tokens(inner);
    let mut pos = 0;
    let body = Body::default();
    let mut inf = Infer::type_level(cx, &body);
    // An unparenthesized name of a variable (a variable template's
    // specialization included): its declared type, no reference added
    // ([dcl.type.decltype]/1.3; libcu++'s `__apply_cvref_fn<_Tp> =
    // decltype(__apply_cvref<_Tp>)`, a class by value).
    if let Some(path) = crate::read_path(&toks, &mut pos)
        && pos == toks.len()
        && let Value::Var(_, vt) = inf.resolve_value(&path)
    {
        let vt = canonical(db, vt);
        return match vt.kind(db) {
            TyKind::Dependent(_) | TyKind::TemplateParam { .. } => None,
            _ => Some(vt),
        };
    }
    pos = 0;
    let r = templates::nested(|| Ok(read_expr(&mut inf, &toks, &mut pos, 0)));
    // Shapes the reader does not model: the operand inferred as a body.
    let r = match r.ok().flatten() {
        Some(r) if pos == toks.len() => r,
        _ => return super::decltype_body::decltype_full(cx, text),
    };
    Some(match r {
        Ok(a) => match a.cat {
            Category::LValue => mk(db, TyKind::LRef(a.ty)),
            Category::XValue => mk(db, TyKind::RRef(a.ty)),
            Category::PRValue => a.ty,
        },
        Err(e) => mk(db, TyKind::Error(crate::error::subst_failure!("substitution failure in decltype: {e}"))),
    })
}

/// `sizeof(expr)` written in a constant expression, for the same shapes
/// (the detection idiom `sizeof(check(f(tag)))`: which overload the call
/// selects decides the size): `None` when not modelled or not resolved.
pub(crate) fn sizeof_text(cx: LowerCx<'_>, text: &str) -> Option<u64> {
    let db = cx.db;
    let inner = text.trim().strip_prefix("sizeof")?.trim();
    let inner = inner.strip_prefix('(')?.strip_suffix(')')?;
    if cx
        .env
        .is_some_and(|e| e.names.iter().any(|(_, a)| has_placeholder(db, a) || matches!(a, TemplateArg::Dependent(_))))
    {
        return None;
    }
    let toks = crate::type_tokens(inner);
    let mut pos = 0;
    let body = Body::default();
    let mut inf = Infer::type_level(cx, &body);
    let a = templates::nested(|| Ok(read_expr(&mut inf, &toks, &mut pos, 0))).ok()??.ok()?;
    if pos != toks.len() {
        return None;
    }
    crate::layout::size_align(db, canonical(db, a.ty)).ok().map(|(size, _)| size)
}

/// Reads one expression: `None` when its shape is not modelled,
/// `Some(Err)` when it is but does not resolve. A conditional `c ? a : b`
/// (common_type's `true ? declval<T>() : declval<U>()`) is typed by
/// `conditional_type`.
fn read_expr(inf: &mut Infer<'_>, t: &[String], pos: &mut usize, depth: u32) -> Option<Result<Arg, crate::SemaError>> {
    let first = read_primary(inf, t, pos, depth)?;
    if t.get(*pos).map(String::as_str) != Some("?") {
        return Some(first);
    }
    *pos += 1;
    let a = read_expr(inf, t, pos, depth + 1)?;
    if t.get(*pos).map(String::as_str) != Some(":") {
        return None;
    }
    *pos += 1;
    let b = read_expr(inf, t, pos, depth + 1)?;
    Some(match (first, a, b) {
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Err(e),
        (Ok(_), Ok(a), Ok(b)) => return conditional_type(inf.db, a, b).map(Ok),
    })
}

/// The type and category of `c ? a : b` ([expr.cond]) for operands of the
/// same type (glvalues of one category stay so; otherwise a prvalue of the
/// cv-unqualified type) or of arithmetic types (the usual arithmetic
/// conversions); `None` for what is not modelled (class conversions,
/// pointers).
fn conditional_type(db: &dyn SourceDatabase, a: Arg, b: Arg) -> Option<Arg> {
    let (ta, tb) = (canonical(db, a.ty), canonical(db, b.ty));
    let unknown =
        |t: TyId| matches!(t.kind(db), TyKind::Dependent(_) | TyKind::TemplateParam { .. } | TyKind::Error(_));
    if unknown(ta) || unknown(tb) {
        return None;
    }
    let prvalue = |ty: TyId| Arg { ty, cat: Category::PRValue, null: false, braced: false };
    if ta == tb {
        return Some(if a.cat == b.cat {
            Arg { ty: ta, cat: a.cat, null: false, braced: false }
        } else {
            prvalue(strip_cv(db, ta))
        });
    }
    let (sa, sb) = (strip_cv(db, ta), strip_cv(db, tb));
    let arithmetic = |t: TyId| {
        matches!(t.kind(db), TyKind::Builtin(b) if is_int(*b) || crate::consteval::is_floating(*b))
            || matches!(t.kind(db), TyKind::Enum(_))
    };
    if sa == sb && !arithmetic(sa) {
        return Some(prvalue(sa));
    }
    if arithmetic(sa) && arithmetic(sb) {
        return Some(prvalue(if sa == sb { sa } else { arith(db, sa, sb) }));
    }
    None
}

fn read_primary(
    inf: &mut Infer<'_>,
    t: &[String],
    pos: &mut usize,
    depth: u32,
) -> Option<Result<Arg, crate::SemaError>> {
    if depth > 16 {
        return None;
    }
    let db = inf.db;
    let w = t.get(*pos)?;
    if w == "true" || w == "false" {
        *pos += 1;
        return Some(Ok(Arg {
            ty: mk(db, TyKind::Builtin(Builtin::Bool)),
            cat: Category::PRValue,
            null: false,
            braced: false,
        }));
    }
    if w == "0" || w == "nullptr" {
        *pos += 1;
        let b = if w == "0" { Builtin::Int } else { Builtin::NullPtr };
        return Some(Ok(Arg { ty: mk(db, TyKind::Builtin(b)), cat: Category::PRValue, null: true, braced: false }));
    }
    if !(w == "::" || w.starts_with(|c: char| c.is_alphabetic() || c == '_')) {
        return None;
    }
    let path = crate::read_path(t, pos)?;
    let open = t.get(*pos).cloned().unwrap_or_default();
    let close = match open.as_str() {
        "(" => ")",
        "{" => "}",
        // A variable named alone (a static data member `static T& x;` of
        // the detection traits): an lvalue of its declared type.
        _ => {
            return match inf.resolve_value(&path) {
                Value::Var(_, vt) => {
                    let vt = canonical(db, vt);
                    let ty = match vt.kind(db) {
                        TyKind::LRef(x) | TyKind::RRef(x) => canonical(db, *x),
                        _ => vt,
                    };
                    match ty.kind(db) {
                        TyKind::Error(e) => Some(Err(e.clone())),
                        TyKind::Dependent(_) | TyKind::TemplateParam { .. } => None,
                        _ => Some(Ok(Arg { ty, cat: Category::LValue, null: false, braced: false })),
                    }
                }
                _ => None,
            };
        }
    };
    *pos += 1;
    let mut args = Vec::new();
    let mut failed = None;
    while t.get(*pos).map(String::as_str) != Some(close) {
        match read_expr(inf, t, pos, depth + 1)? {
            Ok(a) => args.push(a),
            Err(e) => failed = Some(e),
        }
        match t.get(*pos).map(String::as_str) {
            Some(",") => *pos += 1,
            Some(c) if c == close => {}
            _ => return None,
        }
    }
    *pos += 1;
    if let Some(e) = failed {
        return Some(Err(e));
    }
    match inf.resolve_value(&path) {
        Value::Fns(mut cands, targs) if open == "(" => {
            // Unqualified non-member calls also look in the arguments'
            // namespaces and classes, as a body's calls do (`infer::call`):
            // hidden friends, and functions beside a poison pill that
            // ordinary lookup finds (ranges' `iter_move(declval<_Tp>())`).
            if path.segments.len() == 1
                && !path.global
                && cands.iter().all(|c| c.1.is_none())
                && !cands.first().is_some_and(|c| inf.is_member(c.0))
            {
                let name = norm_name(&path.segments[0].name);
                for c in inf.adl(&name, &args) {
                    if !cands.contains(&c) {
                        cands.push(c);
                    }
                }
            }
            Some(match inf.resolve_overload(&cands, targs.as_deref(), &args, None) {
                Ok((cand, ta, sig)) => {
                    // A deduced return type (`auto`, `decltype(auto)`:
                    // CuTe's `get`, `front`): the callee's body says.
                    let ent = inf.entity_of(cand, ta);
                    let r = canonical(db, inf.deduced_return(ent, sig.ret));
                    if matches!(r.kind(db), TyKind::Dependent(_) | TyKind::TemplateParam { .. }) {
                        return None;
                    }
                    Ok(match r.kind(db) {
                        TyKind::LRef(x) => Arg { ty: *x, cat: Category::LValue, null: false, braced: false },
                        TyKind::RRef(x) => Arg { ty: *x, cat: Category::XValue, null: false, braced: false },
                        _ => Arg { ty: r, cat: Category::PRValue, null: false, braced: false },
                    })
                }
                Err(e) => Err(crate::SemaError::gap(e.to_string())),
            })
        }
        // A call through a variable of function pointer type (libcu++'s `declval<T>()`).
        Value::Var(_, vt) if open == "(" => {
            let vt = canonical(db, vt);
            let f = match vt.kind(db) {
                TyKind::Ptr(x) => canonical(db, *x),
                _ => vt,
            };
            match f.kind(db) {
                TyKind::Func(sig) if sig.params.len() == args.len() => {
                    let r = canonical(db, sig.ret);
                    Some(Ok(match r.kind(db) {
                        TyKind::LRef(x) => Arg { ty: *x, cat: Category::LValue, null: false, braced: false },
                        TyKind::RRef(x) => Arg { ty: *x, cat: Category::XValue, null: false, braced: false },
                        _ => Arg { ty: r, cat: Category::PRValue, null: false, braced: false },
                    }))
                }
                TyKind::Error(e) => Some(Err(e.clone())),
                _ => None,
            }
        }
        // `T{}` / `T()`: a prvalue of the type.
        Value::Type(ty) if args.is_empty() => {
            let ty = canonical(db, ty);
            match ty.kind(db) {
                TyKind::Error(e) => Some(Err(e.clone())),
                TyKind::Dependent(_) | TyKind::TemplateParam { .. } => None,
                _ => Some(Ok(Arg { ty, cat: Category::PRValue, null: false, braced: false })),
            }
        }
        _ => None,
    }
}
