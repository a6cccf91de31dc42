//! Types as EDG spells them in messages (`%t`): `"const char *"`,
//! `"ns::S *"`, `"int *const *"`, typedefs by their qualified names with
//! the type without them after it (`"size_t" (aka "unsigned long")`,
//! `"sz *" (aka "unsigned long *")`; not for a cv-qualified typedef:
//! `"const ns::T"`). Checked against the real front end.
//!
//! Only the shapes checked are spelled: builtins, pointers, references,
//! cv-qualifiers, enumerations, typedefs and classes that are not
//! templates, named from the global scope through named namespaces and
//! classes. Anything else is `None`, and the finding that needed it is not
//! made (a message with a wrongly spelled type is a wrong message).

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::Arg;
use cufront_hir::item_tree::Builtin;
use cufront_hir::scopes::{DeclKey, ScopeKind, def_map};
use cufront_hir::templates::{InstId, TemplateArg};
use cufront_hir::ty::{TyId, TyKind, canonical};
use cufront_hir::{ClassId, item_tree_of};

/// `%t` for `t`: its spelling, and the canonical type's when a typedef
/// names it.
pub(crate) fn type_arg(db: &dyn SourceDatabase, t: TyId) -> Option<Arg> {
    let spelling = spell(db, t)?;
    // Not after a cv-qualified typedef (`"const ns::T"`): checked.
    let aka = match t.kind(db) {
        TyKind::Qualified(..) => None,
        _ => Some(spell(db, canonical(db, t))?).filter(|c| *c != spelling),
    };
    Some(Arg::Type { spelling, aka })
}

/// The spelling of `t` (typedefs by name), or None when it is not a shape
/// checked against EDG.
pub(crate) fn spell(db: &dyn SourceDatabase, t: TyId) -> Option<String> {
    match t.kind(db) {
        TyKind::Builtin(b) => builtin(*b).map(str::to_string),
        TyKind::Qualified(inner, cv) => {
            let words = [(cv.c, "const"), (cv.v, "volatile")].iter().filter(|(on, _)| *on).map(|(_, w)| *w).collect();
            let words: Vec<&str> = words;
            if cv.r || words.is_empty() {
                return None;
            }
            let inner_s = spell(db, *inner)?;
            // A qualified pointer puts its qualifiers after the `*`.
            if matches!(inner.kind(db), TyKind::Ptr(_)) {
                Some(format!("{inner_s}{}", words.join(" ")))
            } else {
                Some(format!("{} {inner_s}", words.join(" ")))
            }
        }
        TyKind::Ptr(x) => declarator(db, *x, '*'),
        TyKind::LRef(x) => declarator(db, *x, '&'),
        TyKind::Class(c) => class(db, *c),
        TyKind::Enum(e) => {
            let tree = item_tree_of(db, e.item(db));
            let name = tree.enums.get(e.idx(db) as usize)?.name.clone()?;
            qualified(db, e.item(db).tu(db), DeclKey::Enum(*e), name)
        }
        TyKind::Typedef(td) => {
            let tree = item_tree_of(db, td.item(db));
            let name = tree.typedefs.get(td.idx(db) as usize)?.name.clone();
            qualified(db, td.item(db).tu(db), DeclKey::Typedef(*td), name)
        }
        _ => None,
    }
}

/// `T *` / `T &`: a star after a star without a space (`int **`,
/// `int *const *`).
fn declarator(db: &dyn SourceDatabase, pointee: TyId, sigil: char) -> Option<String> {
    // Pointers to functions, arrays and members put the name inside.
    if matches!(canonical(db, pointee).kind(db), TyKind::Func(_) | TyKind::Array(..) | TyKind::MemPtr { .. }) {
        return None;
    }
    let s = spell(db, pointee)?;
    Some(if s.ends_with('*') { format!("{s}{sigil}") } else { format!("{s} {sigil}") })
}

fn class(db: &dyn SourceDatabase, c: ClassId) -> Option<String> {
    let tree = item_tree_of(db, c.item(db));
    let data = tree.classes.get(c.idx(db) as usize)?;
    if data.tparams.is_some() || data.spec_args.is_some() {
        return None;
    }
    let name = data.name.clone()?;
    qualified(db, c.tu(db), DeclKey::Class(c), name)
}

/// How EDG names a class template instance with its arguments:
/// `"n::Pair<A, B> [with A=int, B=char *]"`; `None` for a pack, a template
/// argument or an argument this module cannot spell.
pub(crate) fn instance_with_args(db: &dyn SourceDatabase, inst: InstId) -> Option<String> {
    let (name, args) = instance_parts(db, inst)?;
    let names: Vec<&str> = args.iter().map(|(n, _)| n.as_str()).collect();
    let with: Vec<String> = args.iter().map(|(n, v)| format!("{n}={v}")).collect();
    Some(format!("{name}<{}> [with {}]", names.join(", "), with.join(", ")))
}

/// How EDG names a class template instance by its arguments alone:
/// `"n::Pair<int, char *>"`, `"S<1800>"` (`None` as for
/// [`instance_with_args`]).
pub(crate) fn instance(db: &dyn SourceDatabase, inst: InstId) -> Option<String> {
    let (name, args) = instance_parts(db, inst)?;
    let values: Vec<&str> = args.iter().map(|(_, v)| v.as_str()).collect();
    let list = values.join(", ");
    // Whether EDG separates closing brackets (`A<B<int> >`) is not checked.
    if list.ends_with('>') {
        return None;
    }
    Some(format!("{name}<{list}>"))
}

/// The qualified name of an instance's pattern and (parameter name,
/// spelled argument) per parameter.
fn instance_parts(db: &dyn SourceDatabase, inst: InstId) -> Option<(String, Vec<(String, String)>)> {
    let pattern = inst.class(db);
    let tree = item_tree_of(db, pattern.item(db));
    let data = tree.classes.get(pattern.idx(db) as usize)?;
    let params = data.tparams.as_ref()?;
    let args = inst.args(db);
    if params.len() != args.len() || params.iter().any(|p| p.pack) {
        return None;
    }
    let name = qualified(db, pattern.tu(db), DeclKey::Class(pattern), data.name.clone()?)?;
    let mut out = Vec::new();
    for (p, a) in params.iter().zip(args) {
        let n = p.name.clone()?;
        let value = match a {
            TemplateArg::Type(t) => spell(db, *t)?,
            TemplateArg::Value(v, t) => value(db, *v, *t)?,
            _ => return None,
        };
        out.push((n, value));
    }
    Some((name, out))
}

/// A value template argument of type `bool` or `int` as EDG prints it.
pub(crate) fn value(db: &dyn SourceDatabase, v: i128, t: TyId) -> Option<String> {
    match canonical(db, t).kind(db) {
        TyKind::Builtin(Builtin::Bool) => Some((if v != 0 { "true" } else { "false" }).to_string()),
        TyKind::Builtin(Builtin::Int) => Some(v.to_string()),
        _ => None,
    }
}

/// The qualified name of a class template at namespace scope (`ns::W`)
/// and how many parameters it has; `None` when one is a pack.
pub(crate) fn template_name(db: &dyn SourceDatabase, c: ClassId) -> Option<(String, usize)> {
    let tree = item_tree_of(db, c.item(db));
    let data = tree.classes.get(c.idx(db) as usize)?;
    let params = data.tparams.as_ref()?;
    if params.iter().any(|p| p.pack) {
        return None;
    }
    Some((qualified(db, c.tu(db), DeclKey::Class(c), data.name.clone()?)?, params.len()))
}

/// `name` with the names of the namespaces and classes around it, when
/// each has one (no anonymous namespace, no local or unnamed class).
fn qualified(
    db: &dyn SourceDatabase,
    tu: cufront_base_db::TranslationUnit,
    key: DeclKey,
    name: String,
) -> Option<String> {
    let map = def_map(db, tu);
    let mut parts = vec![name];
    let mut s = map.parent.get(&key).copied();
    while let Some(cur) = s {
        let scope = map.scope(cur);
        match &scope.kind {
            ScopeKind::Root => break,
            ScopeKind::Namespace { name: Some(n), .. } => parts.push(n.clone()),
            ScopeKind::Class(k) => {
                let t = item_tree_of(db, k.item(db));
                let d = t.classes.get(k.idx(db) as usize)?;
                if d.tparams.is_some() || d.spec_args.is_some() {
                    return None;
                }
                parts.push(d.name.clone()?);
            }
            ScopeKind::Namespace { name: None, .. } | ScopeKind::Enum(_) | ScopeKind::Block(_) => return None,
        }
        s = scope.parent;
    }
    parts.reverse();
    Some(parts.join("::"))
}

/// EDG's names of the builtin types checked.
fn builtin(b: Builtin) -> Option<&'static str> {
    use Builtin::*;
    match b {
        Void | Bool | Char | SChar | UChar | WChar | Char8 | Char16 | Char32 | Short | UShort | Int | UInt | Long
        | ULong | LongLong | ULongLong | Int128 | Float | Double | LongDouble => Some(cufront_hir::ty::builtin_name(b)),
        _ => None,
    }
}
