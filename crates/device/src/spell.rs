//! EDG's spellings of types and template arguments in the stub file (spec
//! 30 §3), as cicc's C generator prints them. Two styles:
//!
//! - [`Style::C`]: the stub functions' parameters and the casts of
//!   `__cudaLaunch`/`__cudaRegisterEntry` (`const float *__restrict__`,
//!   `struct Clamp`, `size_t`); classes and typedefs outside the global
//!   namespace (or instantiated) by their mangled names (`_ZSaIiE`);
//! - [`Style::Cxx`]: the kernel redefinitions and the template wrappers
//!   (`struct ::S`, `::size_t`).
//!
//! A type it cannot spell is an `Err` with the reason: the stub is then not
//! written rather than written wrong.

use cufront_base_db::SourceDatabase;
use cufront_hir::item_tree::{Builtin, ClassKey, Cv};
use cufront_hir::templates::TemplateArg;
use cufront_hir::{DefMap, TyId, TyKind};
use cufront_mangle as m;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    C,
    Cxx,
}

/// `ty` declaring `name`: `float *` + `x` is `float *x`, `int` + `x` is
/// `int x` (EDG puts no space after `*` or `&`).
pub fn declare(ty: &str, name: &str) -> String {
    if ty.ends_with('*') || ty.ends_with('&') { format!("{ty}{name}") } else { format!("{ty} {name}") }
}

/// A kernel parameter's type as the stub passes it: arrays decay, top-level
/// `const` stays (cicc keeps the declared type).
pub fn param(db: &dyn SourceDatabase, t: TyId) -> TyId {
    match t.kind(db) {
        TyKind::Array(e, _) => TyId::new(db, TyKind::Ptr(*e)),
        _ => t,
    }
}

pub fn builtin(b: Builtin) -> Result<&'static str, String> {
    Ok(match b {
        Builtin::Void => "void",
        Builtin::Bool => "bool",
        Builtin::Char => "char",
        Builtin::SChar => "signed char",
        Builtin::UChar => "unsigned char",
        Builtin::WChar => "wchar_t",
        Builtin::Char16 => "char16_t",
        Builtin::Char32 => "char32_t",
        Builtin::Short => "short",
        Builtin::UShort => "unsigned short",
        Builtin::Int => "int",
        Builtin::UInt => "unsigned",
        Builtin::Long => "long",
        Builtin::ULong => "unsigned long",
        Builtin::LongLong => "long long",
        Builtin::ULongLong => "unsigned long long",
        Builtin::Float => "float",
        Builtin::Double => "double",
        Builtin::LongDouble => "long double",
        other => return Err(format!("no stub spelling for {other:?}")),
    })
}

fn cv_prefix(cv: Cv) -> String {
    let mut s = String::new();
    if cv.c {
        s.push_str("const ");
    }
    if cv.v {
        s.push_str("volatile ");
    }
    s
}

/// The mangled name of a class, enum or typedef type as cicc prints it:
/// the plain identifier for a non-template entity of the global
/// namespace, else `_Z` + its nested name.
fn named(db: &dyn SourceDatabase, map: &DefMap, t: TyId) -> Result<(String, bool), String> {
    let m::Type::Named(name) = cufront_hir::symbols::mangle_ty(db, map, t)? else {
        return Err("not a named type".into());
    };
    let sym = m::symbol(&m::Encoding::Data(name))?;
    let rest = sym.strip_prefix("_Z").unwrap_or(&sym);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let plain = rest[..digits].parse::<usize>().ok().filter(|&n| n > 0 && rest.len() == digits + n);
    Ok(match plain {
        Some(_) => (rest[digits..].to_string(), true),
        None => (sym, false),
    })
}

fn class_keyword(db: &dyn SourceDatabase, t: TyId) -> &'static str {
    let class = match t.kind(db) {
        TyKind::Class(c) => Some(*c),
        _ => None,
    };
    let Some(c) = class else { return "struct" };
    let tree = cufront_hir::item_tree_of(db, c.item(db));
    match tree.classes.get(c.idx(db) as usize).map(|k| k.key) {
        Some(ClassKey::Union) => "union",
        _ => "struct",
    }
}

/// The abstract spelling of `t` (a type with no declarator name).
pub fn spell(db: &dyn SourceDatabase, map: &DefMap, t: TyId, style: Style) -> Result<String, String> {
    Ok(match t.kind(db) {
        TyKind::Builtin(b) => builtin(*b)?.to_string(),
        TyKind::Qualified(inner, cv) => match inner.kind(db) {
            TyKind::Ptr(_) | TyKind::LRef(_) | TyKind::RRef(_) => {
                let mut s = spell(db, map, *inner, style)?;
                if cv.c {
                    s.push_str("const");
                }
                if cv.v {
                    s.push_str(if cv.c { " volatile" } else { "volatile" });
                }
                if cv.r {
                    s.push_str("__restrict__");
                }
                s
            }
            _ => format!("{}{}", cv_prefix(*cv), spell(db, map, *inner, style)?),
        },
        TyKind::Ptr(p) => match p.kind(db) {
            TyKind::Func(sig) => {
                let params =
                    sig.params.iter().map(|x| spell(db, map, param(db, *x), style)).collect::<Result<Vec<_>, _>>()?;
                let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
                format!("{} ( *)({params})", spell(db, map, sig.ret, style)?)
            }
            _ => format!("{} *", spell(db, map, *p, style)?),
        },
        TyKind::LRef(p) => match style {
            Style::C => format!("{}&", spell(db, map, *p, style)?),
            Style::Cxx => format!("{} &", spell(db, map, *p, style)?),
        },
        TyKind::RRef(p) => format!("{} &&", spell(db, map, *p, style)?),
        TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_) => {
            let (name, plain) = named(db, map, t)?;
            let kw = class_keyword(db, t);
            match (style, plain) {
                (Style::Cxx, true) => format!("{kw} ::{name}"),
                _ => format!("{kw} {name}"),
            }
        }
        TyKind::Enum(_) => {
            let (name, plain) = named(db, map, t)?;
            match (style, plain) {
                (Style::Cxx, true) => format!("enum ::{name}"),
                _ => format!("enum {name}"),
            }
        }
        TyKind::Typedef(_) => {
            // A typedef of the global namespace keeps its name (`size_t`);
            // others are named by what they stand for.
            match typedef_name(db, t) {
                Some(name) => match style {
                    Style::C => name,
                    Style::Cxx => format!("::{name}"),
                },
                None => spell(db, map, cufront_hir::ty::canonical(db, t), style)?,
            }
        }
        other => return Err(format!("no stub spelling for {other:?}")),
    })
}

/// The name of a typedef declared in the global namespace.
fn typedef_name(db: &dyn SourceDatabase, t: TyId) -> Option<String> {
    let TyKind::Typedef(td) = t.kind(db) else { return None };
    let map = cufront_hir::def_map(db, td.item(db).tu(db));
    let parent = map.parent.get(&cufront_hir::scopes::DeclKey::Typedef(*td)).copied()?;
    if parent != cufront_hir::scopes::ROOT {
        return None;
    }
    let tree = cufront_hir::item_tree_of(db, td.item(db));
    tree.typedefs.get(td.idx(db) as usize).map(|d| d.name.clone())
}

/// A template argument list as the registration casts print it
/// (`<    ::Clamp, float> `, `<(unsigned int)32u> `) or as the wrapper's
/// explicit specialization does (`< ::Clamp,float>`, `<32U>`).
pub fn template_args(
    db: &dyn SourceDatabase,
    map: &DefMap,
    args: &[TemplateArg],
    wrapper: bool,
) -> Result<String, String> {
    let mut parts = Vec::new();
    for a in args {
        flatten(db, map, a, wrapper, &mut parts)?;
    }
    Ok(if wrapper { format!("<{}>", parts.join(",")) } else { format!("<{}> ", parts.join(", ")) })
}

fn flatten(
    db: &dyn SourceDatabase,
    map: &DefMap,
    a: &TemplateArg,
    wrapper: bool,
    out: &mut Vec<String>,
) -> Result<(), String> {
    match a {
        TemplateArg::Type(t) => {
            let s = match t.kind(db) {
                TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_) | TyKind::Enum(_) => {
                    let (name, plain) = named(db, map, *t)?;
                    let name = if plain { format!("::{name}") } else { name };
                    if wrapper { format!(" {name}") } else { format!("    {name}") }
                }
                _ => spell(db, map, *t, Style::Cxx)?,
            };
            out.push(s);
        }
        TemplateArg::Value(v, t) => {
            let b = match cufront_hir::ty::canonical(db, *t).kind(db) {
                TyKind::Builtin(b) => *b,
                _ => return Err("a value argument of non-builtin type".into()),
            };
            let unsigned = matches!(b, Builtin::UInt | Builtin::ULong | Builtin::ULongLong | Builtin::UShort | Builtin::UChar);
            let s = match (wrapper, b) {
                (_, Builtin::Bool) => (if *v != 0 { "true" } else { "false" }).to_string(),
                (true, _) => format!("{v}{}", int_suffix(b).to_ascii_uppercase()),
                (false, Builtin::Int) => format!("{v}"),
                (false, _) => format!("({}){v}{}", if unsigned && b == Builtin::UInt { "unsigned int" } else { builtin(b)? }, int_suffix(b)),
            };
            out.push(s);
        }
        TemplateArg::Pack(xs) => {
            for x in xs {
                flatten(db, map, x, wrapper, out)?;
            }
        }
        other => return Err(format!("no stub spelling for the template argument {other:?}")),
    }
    Ok(())
}

fn int_suffix(b: Builtin) -> &'static str {
    match b {
        Builtin::UInt | Builtin::UShort | Builtin::UChar => "u",
        Builtin::Long => "l",
        Builtin::ULong => "ul",
        Builtin::LongLong => "ll",
        Builtin::ULongLong => "ull",
        _ => "",
    }
}
