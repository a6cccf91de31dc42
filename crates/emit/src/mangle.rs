//! Linkage names of the entities the item index describes: a conversion
//! from [`crate::items`]' types and paths to `cufront-mangle`'s tree, and a
//! call into it (spec 50 §8). Anything the index could not resolve
//! ([`Ty::Unknown`]) is an error, never a guess.

use cufront_mangle::{self as m, Builtin};

use crate::items::{FnTy, PathSeg, SegKind, TArg, Ty};

/// The name of a function, as the declarator spells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FnName {
    Ident(String),
    /// `C1`: the complete-object constructor (what EDG names the entity by).
    Ctor,
    /// `D1`: the complete-object destructor.
    Dtor,
    /// `operator@`, by its spelling without `operator` (`+`, `()`, `new[]`).
    Operator(String),
    Conversion(Ty),
    /// `operator"" _x`.
    Literal(String),
}

/// The mangled name of a function `name` declared in scope `path`
/// (namespaces and classes, outermost first) with type `f`.
pub fn function(path: &[PathSeg], name: &FnName, f: &FnTy) -> Result<String, String> {
    let member = path.last().is_some_and(|s| s.kind == SegKind::Class);
    let last = match name {
        FnName::Ident(s) => m::Unqualified::Source(s.clone()),
        FnName::Ctor => m::Unqualified::Ctor(m::CtorKind::Complete),
        FnName::Dtor => m::Unqualified::Dtor(m::DtorKind::Complete),
        FnName::Operator(op) => {
            let arity = f.params.len() + usize::from(member);
            m::Unqualified::Operator(
                m::Op::from_spelling(op, arity)
                    .ok_or_else(|| format!("unknown operator `{op}`"))?,
            )
        }
        FnName::Conversion(t) => m::Unqualified::Conversion(Box::new(ty(t)?)),
        FnName::Literal(s) => m::Unqualified::Literal(s.clone()),
    };
    let mut n = tree_name(path)?;
    n.comps.push(m::build::comp_of(last));
    m::mangle(&m::Encoding::Function(Box::new(n), Box::new(fn_type(f)?)))
}

/// The linkage name of a variable at namespace or class scope: global
/// variables (and `extern "C"` ones, which the caller handles) are not mangled.
pub fn variable(path: &[PathSeg], name: &str) -> Result<String, String> {
    let mut n = tree_name(path)?;
    n.comps.push(m::build::comp(name));
    m::symbol(&m::Encoding::Data(n))
}

/// A scope path as a name rooted at the global namespace (possibly with no
/// components yet: the caller appends the entity).
pub fn tree_name(path: &[PathSeg]) -> Result<m::Name, String> {
    let mut comps = Vec::with_capacity(path.len());
    for s in path {
        let name = match s.kind {
            // g++'s spelling on the host side (cicc uses the module id instead).
            SegKind::AnonNamespace => m::Unqualified::AnonNamespace(None),
            _ => m::Unqualified::Source(s.name.clone()),
        };
        let args = match &s.args {
            Some(a) => Some(a.iter().map(targ).collect::<Result<Vec<_>, _>>()?),
            None => None,
        };
        comps.push(m::Component {
            name,
            abi_tags: Vec::new(),
            args,
        });
    }
    Ok(m::Name {
        root: m::Root::Global,
        comps,
    })
}

fn targ(a: &TArg) -> Result<m::TArg, String> {
    Ok(match a {
        TArg::Type(t) => m::TArg::Type(ty(t)?),
        TArg::Int(t, v) => {
            let (negative, digits) = match v.strip_prefix('n') {
                Some(d) => (true, d),
                None => (false, v.as_str()),
            };
            let magnitude = digits
                .parse::<u128>()
                .map_err(|_| format!("bad literal `{v}`"))?;
            m::TArg::Literal(m::Literal {
                ty: ty(t)?,
                negative,
                magnitude,
            })
        }
        TArg::Pack(v) => m::TArg::Pack(v.iter().map(targ).collect::<Result<_, _>>()?),
    })
}

/// The builtin type with Itanium code `code`.
pub fn builtin(code: &str) -> Option<Builtin> {
    use Builtin::*;
    Some(match code {
        "v" => Void,
        "w" => WChar,
        "b" => Bool,
        "c" => Char,
        "a" => SChar,
        "h" => UChar,
        "s" => Short,
        "t" => UShort,
        "i" => Int,
        "j" => UInt,
        "l" => Long,
        "m" => ULong,
        "x" => LongLong,
        "y" => ULongLong,
        "n" => Int128,
        "o" => UInt128,
        "f" => Float,
        "d" => Double,
        "e" => LongDouble,
        "g" => Float128,
        "DF16_" => Float16,
        "DF16b" => BFloat16,
        "DF32_" => Float32,
        "DF64_" => Float64,
        "DF128_" => FloatN128,
        "DF32x" => Float32x,
        "DF64x" => Float64x,
        "Du" => Char8,
        "Ds" => Char16,
        "Di" => Char32,
        "Dn" => NullPtr,
        _ => return None,
    })
}

fn fn_type(f: &FnTy) -> Result<m::FnType, String> {
    let (r, v, c) = f.cv;
    Ok(m::FnType {
        ret: ty(&f.ret)?,
        params: f.params.iter().map(ty).collect::<Result<_, _>>()?,
        variadic: f.variadic,
        quals: m::Quals {
            restrict: r,
            volatile: v,
            konst: c,
        },
        ref_qual: match f.ref_qual {
            1 => m::RefQual::LValue,
            2 => m::RefQual::RValue,
            _ => m::RefQual::None,
        },
        exception: if f.noexcept {
            m::ExceptionSpec::Noexcept
        } else {
            m::ExceptionSpec::None
        },
    })
}

/// The tree of a type the index resolved.
pub fn ty(t: &Ty) -> Result<m::Type, String> {
    Ok(match t {
        Ty::Builtin(code) => {
            m::Type::Builtin(builtin(code).ok_or_else(|| format!("no builtin type `{code}`"))?)
        }
        Ty::Named(path) => m::Type::Named(tree_name(path)?),
        Ty::Ptr(i) => m::Type::Ptr(Box::new(ty(i)?)),
        Ty::LRef(i) => m::Type::LRef(Box::new(ty(i)?)),
        Ty::RRef(i) => m::Type::RRef(Box::new(ty(i)?)),
        Ty::Cv { r, v, c, inner } => {
            let q = m::Quals {
                restrict: *r,
                volatile: *v,
                konst: *c,
            };
            match &**inner {
                // A cv-qualified function type (of a member pointer).
                Ty::Func(f) => {
                    let mut f = fn_type(f)?;
                    f.quals = q;
                    m::Type::Func(Box::new(f))
                }
                i => ty(i)?.qual(q),
            }
        }
        Ty::Array(n, e) => {
            let bound = match n {
                Some(n) => {
                    m::ArrayBound::Known(n.parse().map_err(|_| format!("bad array bound `{n}`"))?)
                }
                None => m::ArrayBound::Unknown,
            };
            m::Type::Array(bound, Box::new(ty(e)?))
        }
        Ty::Func(f) => m::Type::Func(Box::new(fn_type(f)?)),
        Ty::MemPtr(c, i) => m::Type::MemPtr(Box::new(ty(c)?), Box::new(ty(i)?)),
        Ty::Unknown(u) => return Err(format!("cannot mangle type `{u}`")),
    })
}
