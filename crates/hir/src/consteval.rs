//! Integral constant evaluation, as much as layout needs (spec 50 §6): array
//! bounds, bit-field widths, `alignas`/`aligned`, enumerators. Literals,
//! arithmetic, bitwise, shift, comparison and conditional operators, casts to
//! integral types, `sizeof`/`alignof` of types, enumerators and `const`/
//! `constexpr` integral variables. Values are `i128` with their type; errors
//! are values (EDG's notes where it has one: out of range, division by zero).
//! What the item tree keeps only as text (a call in a default template
//! argument, …) is found again in syntax and evaluated by the interpreter
//! (`text`).

pub mod interp;
pub mod text;
pub mod traits;
pub(crate) mod var_template;

use std::sync::Arc;

use cufront_base_db::SourceDatabase;

use crate::item_tree::{BinOp, Builtin, ConstExpr, UnOp};
use crate::scopes::{self, DeclKey, Def, Ns, def_map};
use crate::ty::{self, LowerCx, TyKind};
use crate::{EnumId, VarId, item_tree_of};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    pub v: i128,
    pub ty: Builtin,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstError {
    /// "integer operation result is out of range" (EDG note 61) / 2707.
    OutOfRange,
    DivByZero,
    Unresolved(crate::SemaError),
    NotConstant(String),
    Unsupported(String),
    Layout(String),
    Cycle,
    /// A limit of spec 50 §6.2 (call depth, cost): EDG's note 2431.
    Limit(String),
}

impl ConstError {
    /// A semantic error met while evaluating, as the reason evaluation
    /// stops short (only its text is kept: no substitution decision is made
    /// from an unsupported evaluation).
    pub(crate) fn unsupported(why: impl std::fmt::Display) -> ConstError {
        ConstError::Unsupported(why.to_string())
    }

    /// An implementation limit met while evaluating.
    pub(crate) fn limit(why: impl std::fmt::Display) -> ConstError {
        ConstError::Limit(why.to_string())
    }
}

impl std::fmt::Display for ConstError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConstError::OutOfRange => f.write_str("integer operation result is out of range"),
            ConstError::DivByZero => f.write_str("division by zero"),
            ConstError::Unresolved(n) => write!(f, "identifier \"{n}\" is undefined"),
            ConstError::NotConstant(n) => write!(f, "\"{n}\" is not a constant"),
            ConstError::Unsupported(s) => write!(f, "not evaluated: {s}"),
            ConstError::Layout(s) => write!(f, "layout: {s}"),
            ConstError::Cycle => f.write_str("constant refers to itself"),
            ConstError::Limit(s) => f.write_str(s),
        }
    }
}

/// Where an expression is evaluated.
pub struct EvalCx<'a> {
    pub lower: LowerCx<'a>,
    /// While an enum's own enumerators are evaluated: its values so far.
    pub enum_override: Option<(EnumId, &'a [i128])>,
}

impl<'a> EvalCx<'a> {
    pub fn new(lower: LowerCx<'a>) -> EvalCx<'a> {
        EvalCx { lower, enum_override: None }
    }
}

pub fn is_unsigned(b: Builtin) -> bool {
    use Builtin::*;
    matches!(b, Bool | UChar | UShort | UInt | ULong | ULongLong | UInt128 | Char8 | Char16 | Char32)
}

pub fn bits(b: Builtin) -> u32 {
    use Builtin::*;
    match b {
        Bool | Char | SChar | UChar | Char8 => 8,
        Short | UShort | Char16 => 16,
        Int | UInt | WChar | Char32 => 32,
        Long | ULong | LongLong | ULongLong => 64,
        _ => 128,
    }
}

pub fn max_value(b: Builtin) -> u128 {
    if b == Builtin::Bool {
        return 1;
    }
    let n = bits(b);
    if is_unsigned(b) { if n == 128 { u128::MAX } else { (1u128 << n) - 1 } } else { (1u128 << (n - 1)) - 1 }
}

pub fn min_value(b: Builtin) -> i128 {
    if is_unsigned(b) {
        0
    } else if bits(b) == 128 {
        i128::MIN
    } else {
        -(1i128 << (bits(b) - 1))
    }
}

pub fn is_integral(b: Builtin) -> bool {
    !is_floating(b) && !matches!(b, Builtin::Void | Builtin::NullPtr)
}

/// The floating-point builtins (incl. the `_FloatN` and bfloat16 types).
pub(crate) fn is_floating(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::Float
            | Builtin::Double
            | Builtin::LongDouble
            | Builtin::Float128
            | Builtin::Float16
            | Builtin::BF16
            | Builtin::Float32
            | Builtin::Float64
            | Builtin::Float32x
            | Builtin::Float64x
    )
}

/// Integral promotion.
pub fn promote(b: Builtin) -> Builtin {
    if bits(b) < 32 {
        Builtin::Int
    } else if b == Builtin::WChar || b == Builtin::Char32 {
        Builtin::UInt
    } else {
        b
    }
}

fn rank(b: Builtin) -> u8 {
    match b {
        Builtin::Int | Builtin::UInt => 1,
        Builtin::Long | Builtin::ULong => 2,
        Builtin::LongLong | Builtin::ULongLong => 3,
        _ => 4,
    }
}

/// The usual arithmetic conversions on integral types.
pub fn common(a: Builtin, b: Builtin) -> Builtin {
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    let (ua, ub) = (is_unsigned(a), is_unsigned(b));
    if ua == ub {
        return if rank(a) >= rank(b) { a } else { b };
    }
    let (u, s) = if ua { (a, b) } else { (b, a) };
    if rank(u) >= rank(s) {
        u
    } else if bits(s) > bits(u) {
        s
    } else {
        to_unsigned(s)
    }
}

fn to_unsigned(b: Builtin) -> Builtin {
    match b {
        Builtin::Int => Builtin::UInt,
        Builtin::Long => Builtin::ULong,
        Builtin::LongLong => Builtin::ULongLong,
        Builtin::Int128 => Builtin::UInt128,
        b => b,
    }
}

/// Converts `v` to type `b` (wrapping, as GCC and EDG do for integers).
pub fn convert(v: i128, b: Builtin) -> i128 {
    if b == Builtin::Bool {
        return (v != 0) as i128;
    }
    let n = bits(b);
    if n >= 128 {
        return v;
    }
    let m = v & ((1i128 << n) - 1);
    if !is_unsigned(b) && m >= (1i128 << (n - 1)) { m - (1i128 << n) } else { m }
}

fn checked(v: i128, b: Builtin) -> Result<Value, ConstError> {
    if is_unsigned(b) {
        Ok(Value { v: convert(v, b), ty: b })
    } else if v < min_value(b) || v > max_value(b) as i128 {
        Err(ConstError::OutOfRange)
    } else {
        Ok(Value { v, ty: b })
    }
}

/// The value a path names, resolved through types (`templates::resolve`):
/// members of specializations, of typedefs of them, of `decltype(…)`.
fn path_through_types(cx: &EvalCx<'_>, p: &crate::item_tree::Path, depth: u32) -> Result<Value, ConstError> {
    use crate::templates::{Resolved, TemplateArg, member_value, resolve};
    if let Some(v) = var_template::eval_path(cx, p, depth) {
        return v;
    }
    match resolve(cx.lower, p, Ns::Value) {
        Ok(Resolved::Value(TemplateArg::Value(v, t))) => {
            Ok(Value { v, ty: crate::templates::value_builtin(cx.lower.db, t) })
        }
        Ok(Resolved::Value(_)) => Err(ConstError::NotConstant(format!("{p} (dependent)"))),
        Ok(Resolved::Def(Def::Enumerator(en, k), None, _)) => enumerator_value(cx, en, k),
        Ok(Resolved::Def(d, env, _)) => member_value(cx.lower, &d, env.as_ref().or(cx.lower.env)),
        Ok(Resolved::Ty(_)) => Err(ConstError::NotConstant(p.to_string())),
        Err(TyKind::Error(e)) => Err(ConstError::Unresolved(e)),
        Err(k) => Err(ConstError::Unsupported(format!("{k:?}"))),
    }
}

pub fn eval(cx: &EvalCx<'_>, e: &ConstExpr) -> Result<Value, ConstError> {
    eval_depth(cx, e, 0)
}

fn eval_depth(cx: &EvalCx<'_>, e: &ConstExpr, depth: u32) -> Result<Value, ConstError> {
    if depth > 256 {
        return Err(ConstError::Unsupported("expression too deep".into()));
    }
    let rec = |x: &ConstExpr| eval_depth(cx, x, depth + 1);
    match e {
        ConstExpr::Int(v, b) => Ok(Value { v: *v as i128, ty: *b }),
        ConstExpr::Path(p) if cx.lower.env.is_some() || p.segments.iter().any(|s| s.args.is_some()) => {
            path_through_types(cx, p, depth)
        }
        ConstExpr::Path(p) => {
            let db = cx.lower.db;
            match scopes::resolve_path(db, cx.lower.map, cx.lower.scope, p, Ns::Value) {
                Some(Def::Enumerator(en, k)) => enumerator_value(cx, en, k),
                Some(Def::Var(v)) => var_value(db, v),
                Some(_) => Err(ConstError::NotConstant(p.to_string())),
                // A qualifier that is a typedef of a specialization or a
                // `decltype` (`T3::value`, `decltype(f(0))::value`): the
                // scope graph does not see through types.
                None if p.segments.len() > 1 => path_through_types(cx, p, depth),
                None => Err(ConstError::Unresolved(crate::SemaError::gap(p.to_string()))),
            }
        }
        ConstExpr::Unary(op, x) => unary(*op, rec(x)?),
        ConstExpr::Binary(op, l, r) => {
            match op {
                // An operand the model does not evaluate decides nothing
                // when the other one decides the result: the program is
                // well-formed, so it has a value ([expr.log.and], [expr.log.or]).
                BinOp::And | BinOp::Or => {
                    let or = *op == BinOp::Or;
                    let a = match rec(l) {
                        Ok(a) => a,
                        Err(e) => {
                            return match rec(r) {
                                Ok(b) if (b.v != 0) == or => Ok(Value { v: or as i128, ty: Builtin::Bool }),
                                _ => Err(e),
                            };
                        }
                    };
                    if (a.v != 0) == or {
                        unevaluated_operand(cx, r, depth)?;
                        return Ok(Value { v: or as i128, ty: Builtin::Bool });
                    }
                    return Ok(Value { v: (rec(r)?.v != 0) as i128, ty: Builtin::Bool });
                }
                _ => {}
            }
            let (a, b) = (rec(l)?, rec(r)?);
            binary(*op, a, b)
        }
        ConstExpr::Cond(c, t, f) => {
            if rec(c)?.v != 0 {
                unevaluated_operand(cx, f, depth)?;
                rec(t)
            } else {
                unevaluated_operand(cx, t, depth)?;
                rec(f)
            }
        }
        ConstExpr::Cast(t, x) => {
            let v = rec(x)?;
            let db = cx.lower.db;
            let ty = ty::canonical(db, ty::lower(cx.lower, t));
            let target = match ty.kind(db) {
                TyKind::Builtin(b) if is_integral(*b) => *b,
                TyKind::Qualified(i, _) => match i.kind(db) {
                    TyKind::Builtin(b) if is_integral(*b) => *b,
                    _ => return Err(ConstError::Unsupported("cast to a non-integral type".into())),
                },
                TyKind::Enum(en) => ty::enum_info(db, *en).underlying,
                _ => return Err(ConstError::Unsupported("cast to a non-integral type".into())),
            };
            Ok(Value { v: convert(v.v, target), ty: target })
        }
        ConstExpr::SizeofType(t) | ConstExpr::AlignofType(t) => {
            let db = cx.lower.db;
            let mut ty = ty::canonical(db, ty::lower(cx.lower, t));
            // A name that is no type is an expression operand (the token
            // reader of attribute arguments cannot tell them apart):
            // `__aligned__(__alignof__(_Tp2::_M_t))` names a data member.
            if let (TyKind::Error(_), crate::item_tree::TypeRef::Path(p)) = (ty.kind(db), t)
                && let Some(x) = path_operand_type(cx.lower, p)
            {
                ty = x;
            }
            // `sizeof(typename T::x)` with no such member: a substitution failure.
            if let TyKind::Error(e) = ty.kind(db)
                && e.is_substitution_failure()
            {
                return Err(ConstError::Unresolved(e.clone()));
            }
            // sizeof(T&) is sizeof(T).
            if let TyKind::LRef(x) | TyKind::RRef(x) = ty.kind(db) {
                ty = *x;
            }
            let (size, align) = crate::layout::size_align(db, ty).map_err(|e| ConstError::Layout(e.to_string()))?;
            let v = if matches!(e, ConstExpr::SizeofType(_)) { size } else { align };
            Ok(Value { v: v as i128, ty: Builtin::ULong })
        }
        // `sizeof(f<T>(0))` (the detection idiom): overload resolution decides (`infer`).
        ConstExpr::Unsupported(s) if s.trim_start().starts_with("sizeof") => {
            match crate::infer::sizeof_call(cx.lower, s) {
                Some(v) => Ok(Value { v: v as i128, ty: Builtin::ULong }),
                None => text::eval_text(cx.lower, s),
            }
        }
        // Calls and the rest: found again in the item's syntax and
        // evaluated by the interpreter.
        ConstExpr::Unsupported(s) if !s.is_empty() && cx.enum_override.is_none() => text::eval_text(cx.lower, s),
        ConstExpr::Unsupported(s) => Err(ConstError::Unsupported(s.clone())),
        ConstExpr::SizeofPack(n) => match crate::templates::sizeof_pack(cx.lower.env, n) {
            Some(k) => Ok(Value { v: k as i128, ty: Builtin::ULong }),
            None => Err(ConstError::Unsupported(format!("sizeof...({n})"))),
        },
        ConstExpr::Trait(name, tys) => {
            let tys = traits::lower_trait_args(cx.lower, tys);
            // Layout's traits, and of `traits` those decided exactly (the
            // construct/assign family on scalars and trivial classes, class
            // relations); its approximations stay with the interpreter
            // (through class template arguments they reach specializations
            // that other approximations then misjudge).
            let r = match crate::templates::type_trait(cx.lower.db, name, &tys) {
                Err(crate::templates::TraitError::NotEvaluated(_)) if traits::exact(name) => {
                    traits::eval_trait(cx.lower, name, &tys)
                }
                r => r,
            };
            match r {
                Ok(b) => Ok(Value { v: b as i128, ty: Builtin::Bool }),
                Err(e) => Err(ConstError::Unsupported(e.to_string())),
            }
        }
    }
}

pub(crate) fn unary(op: UnOp, a: Value) -> Result<Value, ConstError> {
    let t = promote(a.ty);
    match op {
        UnOp::Plus => Ok(Value { v: a.v, ty: t }),
        UnOp::Neg => checked(-a.v, t),
        UnOp::BitNot => Ok(Value { v: convert(!a.v, t), ty: t }),
        UnOp::Not => Ok(Value { v: (a.v == 0) as i128, ty: Builtin::Bool }),
    }
}

pub(crate) fn binary(op: BinOp, a: Value, b: Value) -> Result<Value, ConstError> {
    let t = common(a.ty, b.ty);
    let (x, y) = (convert(a.v, t), convert(b.v, t));
    let cmp = |c: bool| Ok(Value { v: c as i128, ty: Builtin::Bool });
    match op {
        BinOp::Add => checked(x + y, t),
        BinOp::Sub => checked(x - y, t),
        BinOp::Mul => x.checked_mul(y).map_or(Err(ConstError::OutOfRange), |v| checked(v, t)),
        BinOp::Div | BinOp::Rem => {
            if y == 0 {
                return Err(ConstError::DivByZero);
            }
            checked(if op == BinOp::Div { x / y } else { x % y }, t)
        }
        BinOp::Shl | BinOp::Shr => {
            // The result has the promoted type of the left operand.
            let lt = promote(a.ty);
            let x = convert(a.v, lt);
            if b.v < 0 || b.v >= bits(lt) as i128 {
                return Err(ConstError::OutOfRange);
            }
            if op == BinOp::Shl {
                if is_unsigned(lt) {
                    Ok(Value { v: convert(x << b.v, lt), ty: lt })
                } else if x < 0 {
                    Err(ConstError::OutOfRange)
                } else if bits(lt) < 128 && (x << b.v) >> bits(lt) == 0 {
                    // C++14/17 (CWG 1457): a value representable in the
                    // unsigned counterpart is converted (`1 << 31` is
                    // `INT_MIN`: libcu++'s `__int_min`); C++20 wraps.
                    Ok(Value { v: convert(x << b.v, lt), ty: lt })
                } else {
                    // Beyond the unsigned counterpart: rejected (EDG too).
                    checked(x << b.v, lt)
                }
            } else {
                Ok(Value { v: x >> b.v, ty: lt })
            }
        }
        BinOp::BitAnd => Ok(Value { v: convert(x & y, t), ty: t }),
        BinOp::BitOr => Ok(Value { v: convert(x | y, t), ty: t }),
        BinOp::BitXor => Ok(Value { v: convert(x ^ y, t), ty: t }),
        BinOp::Eq => cmp(x == y),
        BinOp::Ne => cmp(x != y),
        BinOp::Lt => cmp(x < y),
        BinOp::Le => cmp(x <= y),
        BinOp::Gt => cmp(x > y),
        BinOp::Ge => cmp(x >= y),
        BinOp::And | BinOp::Or => unreachable!("handled before both sides are evaluated"),
    }
}

/// The operand that `&&`, `||` or `?:` does not evaluate. Substitution
/// ([temp.deduct.general]/7) still substitutes into it, so where the
/// expression has template arguments (`is_same<R, void>::value ||
/// is_convertible<R, decltype(declval<T>().destroy(…))>::value` in a partial
/// specialization's `enable_if_t`), an invalid type there is a substitution
/// failure of the whole expression. Only that failure counts: any other
/// error (a construct the model does not evaluate) leaves the short-circuit
/// value, since the operand's value is not needed.
fn unevaluated_operand(cx: &EvalCx<'_>, e: &ConstExpr, depth: u32) -> Result<(), ConstError> {
    if cx.lower.env.is_none() {
        return Ok(());
    }
    match eval_depth(cx, e, depth + 1) {
        Err(ConstError::Unresolved(m)) if m.is_substitution_failure() => Err(ConstError::Unresolved(m)),
        _ => Ok(()),
    }
}

fn enumerator_value(cx: &EvalCx<'_>, e: EnumId, k: u32) -> Result<Value, ConstError> {
    if let Some((oe, known)) = cx.enum_override
        && oe == e
    {
        return known.get(k as usize).map(|v| Value { v: *v, ty: Builtin::Int }).ok_or(ConstError::Cycle);
    }
    let info = ty::enum_info(cx.lower.db, e);
    match info.values.get(k as usize) {
        Some(Ok(v)) => Ok(Value { v: *v, ty: info.underlying }),
        Some(Err(e)) => Err(e.clone()),
        None => Err(ConstError::Cycle),
    }
}

crate::consteval::var_template::recorded_query! {
    /// The value of a `const`/`constexpr` integral variable.
    pub fn var_value(v: VarId) -> Result<Value, ConstError> = var_value_of;
    tracked var_value_uses;
    cycle var_value_uses_cycle => var_cycle;
}

fn var_value_of(db: &dyn SourceDatabase, v: VarId) -> Result<Value, ConstError> {
    let item = v.item(db);
    let map: Arc<_> = def_map(db, item.tu(db));
    let tree = item_tree_of(db, item);
    let Some(data) = tree.vars.get(v.idx(db) as usize) else { return Err(ConstError::Cycle) };
    let (true, Some(init)) = (data.is_const, &data.init) else {
        return Err(ConstError::NotConstant(data.name.clone()));
    };
    let scope = map.parent.get(&DeclKey::Var(v)).copied().unwrap_or(scopes::ROOT);
    let lower = LowerCx { db, map: &map, item, scope, env: None };
    let val = eval(&EvalCx::new(lower), init)?;
    let ty = ty::canonical(db, ty::lower(lower, &data.ty));
    let target = match ty.kind(db) {
        TyKind::Qualified(i, _) => i.kind(db).clone(),
        k => k.clone(),
    };
    match target {
        TyKind::Builtin(b) if is_integral(b) => Ok(Value { v: convert(val.v, b), ty: b }),
        TyKind::Enum(_) => Ok(val),
        // `constexpr auto n = 4;`
        TyKind::Dependent(_) => Ok(val),
        _ => Err(ConstError::NotConstant(data.name.clone())),
    }
}

fn var_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _v: VarId) -> Result<Value, ConstError> {
    Err(ConstError::Cycle)
}

/// The type of the expression `p` names (a variable or data member), as
/// an unevaluated operand in `cx`; None when it names nothing typed.
#[inline(never)]
fn path_operand_type(cx: LowerCx<'_>, p: &crate::item_tree::Path) -> Option<ty::TyId> {
    let mut body = crate::body::Body::default();
    body.exprs.push(crate::body::Expr::Path(p.clone()));
    body.expr_ranges.push(Default::default());
    body.root_expr = Some(crate::body::ExprId(0));
    crate::infer::unevaluated_operand_type(cx, &body, crate::body::ExprId(0))
}
