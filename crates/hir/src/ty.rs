//! Types: interned `TyId`s over `TyKind` (spec 50 §1), lowering from the
//! syntactic `TypeRef` of the item tree in a scope, the typedef chase
//! (`canonical`), and the per-entity type queries (`typedef_ty`,
//! `class_bases`, `enum_info`).

use std::sync::Arc;

use cufront_base_db::SourceDatabase;

use crate::consteval::{self, ConstError, EvalCx};
use crate::item_tree::{Access, Builtin, Cv, TypeRef};
use crate::scopes::{self, DeclKey, Def, DefMap, Ns, ScopeIdx, def_map};
use crate::{ClassId, EnumId, ItemId, TypedefId, item_tree_of};

#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct TyId {
    #[returns(ref)]
    pub kind: TyKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TyKind {
    /// Error recovery: the reason.
    Error(crate::SemaError),
    Builtin(Builtin),
    Ptr(TyId),
    LRef(TyId),
    RRef(TyId),
    MemPtr {
        class: TyId,
        pointee: TyId,
    },
    /// `None`: unknown bound.
    Array(TyId, Option<u64>),
    /// An array whose bound is a value template parameter still to be
    /// deduced (`T[N]` in a partial specialization's pattern, `T (&)[N]`
    /// in a function template's parameter): matching an array deduces the
    /// parameter from its bound ([temp.deduct.type]/8, the `type[i]`
    /// form); once the parameter is known the type is lowered again as an
    /// `Array`.
    ParamArray {
        elem: TyId,
        depth: u32,
        index: u32,
    },
    Func(FnSig),
    Class(ClassId),
    Enum(EnumId),
    /// Sugar: a typedef name (`canonical` strips it).
    Typedef(TypedefId),
    /// Sugar: an alias template specialization as written
    /// (`meta::scalar_of_t<float4>`), `ty` the type it denotes. Only
    /// [`crate::instances::declared_params`] makes it (EDG keeps it in a
    /// kernel instance's parameter types, and cicc's stub names it);
    /// `canonical` strips it.
    AliasSpec {
        alias: TypedefId,
        args: Vec<crate::templates::TemplateArg>,
        ty: TyId,
    },
    Qualified(TyId, Cv),
    Complex(TyId),
    /// A GNU vector (`vector_size(bytes)`).
    Vector(TyId, u64),
    TemplateParam {
        depth: u32,
        index: u32,
    },
    /// A template template parameter applied to arguments (`Ptr<T, Tail...>`
    /// in a pattern): deduced like a template-id, substituted into one.
    ParamApp {
        depth: u32,
        index: u32,
        args: Vec<crate::templates::TemplateArg>,
    },
    /// `decltype`, `typeof`, `auto`, `typename …`: opaque until templates are modelled.
    Dependent(String),
    /// A template-id that cannot be formed (kept for display).
    Specialization(String),
    /// A class template specialization (`std::pair<int, double>`).
    App(crate::templates::AppId),
    /// A class of an instantiation that is not itself a template-id: a
    /// class nested in a class template specialization (`A<int>::B`).
    Inst(crate::templates::InstId),
    /// The closure type of a lambda expression (`infer/closure.rs`).
    Closure(crate::infer::ClosureId),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnSig {
    pub ret: TyId,
    pub params: Vec<TyId>,
    pub variadic: bool,
    pub noexcept: bool,
    pub cv: Cv,
    pub ref_qual: u8,
}

pub fn mk(db: &dyn SourceDatabase, k: TyKind) -> TyId {
    TyId::new(db, k)
}

/// Where a type is written: the item (for its local classes) and the scope.
#[derive(Clone, Copy)]
pub struct LowerCx<'a> {
    pub db: &'a dyn SourceDatabase,
    pub map: &'a DefMap,
    pub item: ItemId,
    pub scope: ScopeIdx,
    /// Template arguments in effect (inside an instance), if any.
    pub env: Option<&'a crate::templates::Env>,
}

/// Lowers a syntactic type in a scope.
/// The value template parameter (depth, index) an array bound is, when
/// it is one's name and the parameter is still a placeholder.
fn value_param_bound(cx: LowerCx<'_>, b: &crate::item_tree::ConstExpr) -> Option<(u32, u32)> {
    let crate::item_tree::ConstExpr::Path(p) = b else { return None };
    let ([seg], false) = (p.segments.as_slice(), p.global) else { return None };
    if seg.args.is_some() {
        return None;
    }
    match cx.env?.get(&seg.name)? {
        crate::templates::TemplateArg::ValueParam { depth, index } => Some((*depth, *index)),
        _ => None,
    }
}

pub fn lower(cx: LowerCx<'_>, t: &TypeRef) -> TyId {
    let db = cx.db;
    let k = match t {
        TypeRef::Builtin(b) => TyKind::Builtin(*b),
        TypeRef::LocalClass(i) => {
            let c = ClassId::new(db, cx.item, *i);
            if cx.env.is_some() {
                return crate::templates::def_to_ty(cx, Def::Class(c), cx.env, cx.scope, None);
            }
            TyKind::Class(cx.map.class_definition(c))
        }
        TypeRef::LocalEnum(i) => TyKind::Enum(EnumId::new(db, cx.item, *i)),
        TypeRef::Path(p) => {
            if cx.env.is_some() || p.segments.iter().any(|s| s.args.is_some()) {
                return crate::templates::lower_path(cx, p);
            }
            match scopes::resolve_path(db, cx.map, cx.scope, p, Ns::Type) {
                Some(Def::Class(c)) => {
                    let c = cx.map.class_definition(c);
                    if cx.map.parent.get(&DeclKey::Class(c)).is_some_and(|s| cx.map.templated.contains(s)) {
                        TyKind::Dependent(p.to_string())
                    } else {
                        TyKind::Class(c)
                    }
                }
                Some(Def::Enum(e)) => TyKind::Enum(e),
                Some(Def::Typedef(td)) => {
                    if cx.map.parent.get(&DeclKey::Typedef(td)).is_some_and(|s| cx.map.templated.contains(s)) {
                        TyKind::Dependent(p.to_string())
                    } else {
                        TyKind::Typedef(td)
                    }
                }
                Some(Def::ClassTemplate(_) | Def::AliasTemplate(_) | Def::Template) => {
                    TyKind::Specialization(p.to_string())
                }
                // `P::type` where P is a typedef of a specialization, …
                _ if p.segments.len() > 1 => return crate::templates::lower_path(cx, p),
                _ => TyKind::Error(crate::SemaError::not_found(format!("unresolved type `{p}`"))),
            }
        }
        TypeRef::Ptr(t) => TyKind::Ptr(lower(cx, t)),
        TypeRef::LRef(t) => TyKind::LRef(lower(cx, t)),
        TypeRef::RRef(t) => TyKind::RRef(lower(cx, t)),
        TypeRef::MemPtr(c, t) => {
            let class = lower(cx, &TypeRef::Path(c.clone()));
            TyKind::MemPtr { class, pointee: lower(cx, t) }
        }
        TypeRef::Array(e, bound) => {
            let elem = lower(cx, e);
            match bound {
                None => TyKind::Array(elem, None),
                Some(b) if let Some((depth, index)) = value_param_bound(cx, b) => {
                    TyKind::ParamArray { elem, depth, index }
                }
                Some(b) => match consteval::eval(&EvalCx::new(cx), b) {
                    Ok(v) if v.v >= 0 => TyKind::Array(elem, Some(v.v as u64)),
                    Ok(v) => TyKind::Error(crate::error::gap!("negative array bound {}", v.v)),
                    Err(ConstError::Unresolved(e)) if e.is_substitution_failure() => {
                        TyKind::Error(e.within("array bound"))
                    }
                    Err(e) => TyKind::Error(crate::error::gap!("array bound: {e}")),
                },
            }
        }
        TypeRef::Func(f) => TyKind::Func(FnSig {
            ret: lower(cx, &f.ret),
            params: crate::instances::lower_fn_type_params(cx, f),
            variadic: f.variadic,
            noexcept: f.noexcept,
            cv: f.cv,
            ref_qual: f.ref_qual,
        }),
        TypeRef::Cv(t, cv) => TyKind::Qualified(lower(cx, t), *cv),
        TypeRef::Complex(t) => TyKind::Complex(lower(cx, t)),
        // `__underlying_type(E)` of an enum known here (consteval::traits).
        TypeRef::Opaque(s) if s.starts_with("__underlying_type") => {
            match crate::consteval::traits::underlying_type_text(cx, s) {
                Some(t) => return t,
                None => TyKind::Dependent(s.clone()),
            }
        }
        // `decltype(x)` of a local of the body being inferred (bound by `infer`).
        TypeRef::Opaque(s)
            if s.starts_with("decltype(")
                && matches!(cx.env.and_then(|e| e.get(s)), Some(crate::templates::TemplateArg::Type(_))) =>
        {
            match cx.env.and_then(|e| e.get(s)) {
                Some(crate::templates::TemplateArg::Type(t)) => return *t,
                _ => TyKind::Dependent(s.clone()),
            }
        }
        TypeRef::Opaque(s) if s.starts_with("decltype(") => match crate::infer::decltype_text(cx, s) {
            Some(t) => return t,
            None => TyKind::Dependent(s.clone()),
        },
        TypeRef::Opaque(s) => TyKind::Dependent(s.clone()),
    };
    mk(db, k)
}

crate::consteval::var_template::recorded_query! {
    /// The type a typedef names (one layer: the result may be another typedef).
    pub fn typedef_ty(t: TypedefId) -> TyId = typedef_ty_of;
    tracked typedef_ty_uses;
    cycle typedef_ty_uses_cycle => typedef_cycle;
}

fn typedef_ty_of(db: &dyn SourceDatabase, t: TypedefId) -> TyId {
    let item = t.item(db);
    let map = def_map(db, item.tu(db));
    let tree = item_tree_of(db, item);
    let Some(data) = tree.typedefs.get(t.idx(db) as usize) else {
        return mk(db, TyKind::Error("no such typedef".into()));
    };
    let scope = map.parent.get(&DeclKey::Typedef(t)).copied().unwrap_or(scopes::ROOT);
    let cx = LowerCx { db, map: &map, item, scope, env: None };
    let ty = lower(cx, &data.ty);
    match &data.attrs.vector_size {
        Some(e) => match consteval::eval(&EvalCx::new(cx), e) {
            Ok(v) if v.v > 0 => mk(db, TyKind::Vector(ty, v.v as u64)),
            _ => mk(db, TyKind::Error("bad vector_size".into())),
        },
        None => ty,
    }
}

fn typedef_cycle(db: &dyn SourceDatabase, _id: salsa::Id, _t: TypedefId) -> TyId {
    mk(db, TyKind::Error("typedef refers to itself".into()))
}

crate::consteval::var_template::recorded_query! {
    /// The type with typedefs stripped, cv merged, cv on arrays moved to the elements.
    pub fn canonical(t: TyId) -> TyId = canonical_of;
    tracked canonical_uses;
    cycle canonical_uses_cycle => canonical_cycle;
}

fn canonical_of(db: &dyn SourceDatabase, t: TyId) -> TyId {
    let k = match t.kind(db).clone() {
        TyKind::Typedef(td) => return canonical(db, typedef_ty(db, td)),
        TyKind::AliasSpec { ty, .. } => return canonical(db, ty),
        TyKind::Qualified(inner, cv) => {
            let inner = canonical(db, inner);
            return match inner.kind(db).clone() {
                TyKind::Qualified(i, cv0) => mk(db, TyKind::Qualified(i, cv0.union(cv))),
                TyKind::Array(e, n) => {
                    let e = canonical(db, mk(db, TyKind::Qualified(e, cv)));
                    mk(db, TyKind::Array(e, n))
                }
                TyKind::ParamArray { elem, depth, index } => {
                    let elem = canonical(db, mk(db, TyKind::Qualified(elem, cv)));
                    mk(db, TyKind::ParamArray { elem, depth, index })
                }
                _ if cv.is_empty() => inner,
                // cv applied to a reference through a typedef or a
                // template argument is ignored ([dcl.ref]/1).
                TyKind::LRef(_) | TyKind::RRef(_) => inner,
                _ => mk(db, TyKind::Qualified(inner, cv)),
            };
        }
        TyKind::Ptr(x) => TyKind::Ptr(canonical(db, x)),
        // Reference collapsing ([dcl.ref]/6): a reference to a reference,
        // formed through a typedef or a template argument (`T&&` with
        // `T = int&`), is `int&` unless both are rvalue references.
        TyKind::LRef(x) => {
            let x = canonical(db, x);
            match x.kind(db) {
                TyKind::LRef(y) | TyKind::RRef(y) => TyKind::LRef(*y),
                _ => TyKind::LRef(x),
            }
        }
        TyKind::RRef(x) => {
            let x = canonical(db, x);
            match x.kind(db) {
                TyKind::LRef(_) | TyKind::RRef(_) => return x,
                _ => TyKind::RRef(x),
            }
        }
        TyKind::MemPtr { class, pointee } => {
            TyKind::MemPtr { class: canonical(db, class), pointee: canonical(db, pointee) }
        }
        TyKind::Array(e, n) => TyKind::Array(canonical(db, e), n),
        TyKind::ParamArray { elem, depth, index } => TyKind::ParamArray { elem: canonical(db, elem), depth, index },
        TyKind::Complex(e) => TyKind::Complex(canonical(db, e)),
        TyKind::Vector(e, n) => TyKind::Vector(canonical(db, e), n),
        TyKind::Func(f) => TyKind::Func(FnSig {
            ret: canonical(db, f.ret),
            params: f.params.iter().map(|p| canonical(db, *p)).collect(),
            ..f
        }),
        k => k,
    };
    mk(db, k)
}

fn canonical_cycle(db: &dyn SourceDatabase, _id: salsa::Id, _t: TyId) -> TyId {
    mk(db, TyKind::Error("type refers to itself".into()))
}

/// One base class as resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseInfo {
    /// The definition of the base (None: unresolved, …).
    pub class: Option<crate::layout::ClassRef>,
    /// The base's type.
    pub ty: Option<TyId>,
    pub is_virtual: bool,
    pub access: Access,
    /// Why `class` is None.
    pub error: Option<BaseError>,
}

/// Why a base specifier names no class the model can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BaseError {
    /// A template base the model could not instantiate (or a dependent one).
    Template(String),
    /// No class: a name that is not one, or the class itself.
    Invalid(String),
}

impl std::fmt::Display for BaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BaseError::Template(s) | BaseError::Invalid(s) => f.write_str(s),
        }
    }
}

crate::consteval::var_template::recorded_query! {
    /// The bases of a class, resolved in its enclosing scope.
    pub fn class_bases(c: ClassId) -> Arc<Vec<BaseInfo>> = class_bases_of;
    tracked class_bases_uses;
    cycle class_bases_uses_cycle => bases_cycle;
}

fn class_bases_of(db: &dyn SourceDatabase, c: ClassId) -> Arc<Vec<BaseInfo>> {
    let item = c.item(db);
    let map = def_map(db, item.tu(db));
    let tree = item_tree_of(db, item);
    let Some(data) = tree.classes.get(c.idx(db) as usize) else { return Arc::new(Vec::new()) };
    let scope = map.parent.get(&DeclKey::Class(c)).copied().unwrap_or(scopes::ROOT);
    let cx = LowerCx { db, map: &map, item, scope, env: None };
    let bases = data
        .bases
        .iter()
        .map(|b| {
            let cx = LowerCx { scope: base_scope(&map, c, &b.ty, scope), ..cx };
            let ty = canonical(db, lower(cx, &b.ty));
            base_info(db, ty, crate::layout::ClassRef::Class(c), b.is_virtual, b.access)
        })
        .collect();
    Arc::new(bases)
}

/// The scope a base-specifier of class `c` is lowered in, `written` being
/// the scope its names are otherwise looked up from. A `decltype` base's
/// operand is inferred from the enclosing scope: the class has no members
/// yet at its base clause ([class.derived]), and searching the class as
/// the operand's enclosing class would ask for the very bases being
/// computed (a query cycle, whose fallback leaves the class without
/// bases). Its template parameters and injected-class-name are still found
/// through the environment.
pub(crate) fn base_scope(map: &DefMap, c: ClassId, ty: &TypeRef, written: ScopeIdx) -> ScopeIdx {
    match ty {
        TypeRef::Opaque(s) if s.starts_with("decltype(") => {
            map.parent.get(&DeclKey::Class(c)).copied().unwrap_or(scopes::ROOT)
        }
        _ => written,
    }
}

/// A base of `of` with type `ty`.
pub fn base_info(
    db: &dyn SourceDatabase,
    ty: TyId,
    of: crate::layout::ClassRef,
    is_virtual: bool,
    access: Access,
) -> BaseInfo {
    use crate::layout::ClassRef;
    let itself = || Some(BaseError::Invalid("class derives from itself".to_string()));
    let (class, error) = match ty.kind(db) {
        TyKind::Class(k) => {
            let map = def_map(db, k.tu(db));
            let k = map.class_definition(*k);
            if ClassRef::Class(k) == of { (None, itself()) } else { (Some(ClassRef::Class(k)), None) }
        }
        TyKind::App(_) | TyKind::Inst(_) => match crate::templates::class_of(db, ty) {
            Ok(r) if r == of => (None, itself()),
            Ok(r) => (Some(r), None),
            Err(e) => (None, Some(BaseError::Template(format!("template base: {e}")))),
        },
        TyKind::Specialization(s) => {
            (None, Some(BaseError::Template(format!("template base `{s}` (not instantiated)"))))
        }
        TyKind::Dependent(s) => (None, Some(BaseError::Template(format!("template base: dependent `{s}`")))),
        TyKind::Error(e) => (None, Some(BaseError::Invalid(e.to_string()))),
        k => (None, Some(BaseError::Invalid(format!("base is not a class: {k:?}")))),
    };
    BaseInfo { class, ty: Some(ty), is_virtual, access, error }
}

fn bases_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _c: ClassId) -> Arc<Vec<BaseInfo>> {
    Arc::new(Vec::new())
}

/// An enumeration's underlying type and enumerator values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumInfo {
    pub underlying: Builtin,
    /// The type an operand of the enumeration's type is promoted to
    /// ([conv.prom]): for an unscoped enumeration without a fixed type, the
    /// first of `int`, `unsigned int`, `long`, … that holds all its values
    /// (`enum { A = 3, B = 7 }` has underlying type `unsigned int` in the
    /// Itanium ABI but promotes to `int`); with a fixed type, that type
    /// promoted (`enum : char` promotes to `int`).
    pub promoted: Builtin,
    /// Was the underlying type written (`enum E : short`)? Then conversion
    /// to it is a promotion too.
    pub fixed: bool,
    pub values: Vec<Result<i128, ConstError>>,
}

crate::consteval::var_template::recorded_query! {
    pub fn enum_info(e: EnumId) -> Arc<EnumInfo> = enum_info_of;
    tracked enum_info_uses;
    cycle enum_info_uses_cycle => enum_cycle;
}

fn enum_info_of(db: &dyn SourceDatabase, e: EnumId) -> Arc<EnumInfo> {
    let item = e.item(db);
    let map = def_map(db, item.tu(db));
    let tree = item_tree_of(db, item);
    let Some(data) = tree.enums.get(e.idx(db) as usize) else {
        return Arc::new(EnumInfo {
            underlying: Builtin::Int,
            promoted: Builtin::Int,
            fixed: false,
            values: Vec::new(),
        });
    };
    let scope = map.enum_scope.get(&e).copied().unwrap_or(scopes::ROOT);
    let cx = LowerCx { db, map: &map, item, scope, env: None };
    let fixed = data.base.as_ref().map(|b| {
        let t = canonical(db, lower(cx, b));
        match t.kind(db) {
            TyKind::Builtin(b) => *b,
            TyKind::Qualified(i, _) => match i.kind(db) {
                TyKind::Builtin(b) => *b,
                _ => Builtin::Int,
            },
            TyKind::Enum(e2) if *e2 != e => enum_info(db, *e2).underlying,
            _ => Builtin::Int,
        }
    });
    let mut values: Vec<Result<i128, ConstError>> = Vec::new();
    let mut next: Result<i128, ConstError> = Ok(0);
    for (_, init) in &data.enumerators {
        let v = match init {
            Some(x) => {
                let known: Vec<i128> = values.iter().map(|v| v.clone().unwrap_or(0)).collect();
                let mut ecx = EvalCx::new(cx);
                ecx.enum_override = Some((e, &known));
                consteval::eval(&ecx, x).map(|v| v.v)
            }
            None => next.clone(),
        };
        next = v.clone().map(|v| v + 1);
        values.push(v);
    }
    // The range of the enumerator values, and which types hold it.
    let ok: Vec<i128> = values.iter().filter_map(|v| v.clone().ok()).collect();
    let (min, max) = (ok.iter().copied().min().unwrap_or(0), ok.iter().copied().max().unwrap_or(0));
    let fits = |b: Builtin| min >= consteval::min_value(b) && (max < 0 || (max as u128) <= consteval::max_value(b));
    let underlying = fixed.unwrap_or_else(|| {
        if data.scoped {
            return Builtin::Int;
        }
        let order: &[Builtin] = if data.packed {
            if min < 0 {
                &[Builtin::SChar, Builtin::Short, Builtin::Int, Builtin::Long]
            } else {
                &[Builtin::UChar, Builtin::UShort, Builtin::UInt, Builtin::ULong]
            }
        } else if min < 0 {
            &[Builtin::Int, Builtin::Long, Builtin::Int128]
        } else {
            &[Builtin::UInt, Builtin::ULong, Builtin::UInt128]
        };
        order.iter().copied().find(|b| fits(*b)).unwrap_or(Builtin::Long)
    });
    let promoted = match fixed {
        Some(b) => promoted_builtin(b),
        None if data.scoped => Builtin::Int,
        None => [Builtin::Int, Builtin::UInt, Builtin::Long, Builtin::ULong, Builtin::LongLong, Builtin::ULongLong]
            .into_iter()
            .find(|b| fits(*b))
            .unwrap_or(underlying),
    };
    Arc::new(EnumInfo { underlying, promoted, fixed: fixed.is_some(), values })
}

/// The integral promotion of a builtin type ([conv.prom]/1–2): the types
/// ranked below `int` (`bool`, the character types but `char32_t`, `short`)
/// become `int`, which holds all their values; the rest are unchanged.
pub fn promoted_builtin(b: Builtin) -> Builtin {
    use Builtin::*;
    match b {
        Bool | Char | SChar | UChar | Char8 | Short | UShort | Char16 | WChar => Int,
        _ => b,
    }
}

fn enum_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _e: EnumId) -> Arc<EnumInfo> {
    Arc::new(EnumInfo { underlying: Builtin::Int, promoted: Builtin::Int, fixed: false, values: Vec::new() })
}

/// A readable spelling of a type (for `inspect` and test output).
pub fn display(db: &dyn SourceDatabase, t: TyId) -> String {
    match t.kind(db) {
        TyKind::Error(e) => format!("<error: {e}>"),
        TyKind::Builtin(b) => builtin_name(*b).to_string(),
        TyKind::Ptr(x) => format!("{}*", display(db, *x)),
        TyKind::LRef(x) => format!("{}&", display(db, *x)),
        TyKind::RRef(x) => format!("{}&&", display(db, *x)),
        TyKind::MemPtr { class, pointee } => format!("{} {}::*", display(db, *pointee), display(db, *class)),
        TyKind::Array(e, Some(n)) => format!("{}[{n}]", display(db, *e)),
        TyKind::Array(e, None) => format!("{}[]", display(db, *e)),
        TyKind::ParamArray { elem, depth, index } => {
            format!("{}[<value parameter {depth}.{index}>]", display(db, *elem))
        }
        TyKind::Func(f) => {
            let mut ps: Vec<String> = f.params.iter().map(|p| display(db, *p)).collect();
            if f.variadic {
                ps.push("...".into());
            }
            format!("{}({}){}", display(db, f.ret), ps.join(", "), if f.noexcept { " noexcept" } else { "" })
        }
        TyKind::Class(c) => crate::layout::class_name(db, *c),
        TyKind::Enum(e) => {
            let tree = item_tree_of(db, e.item(db));
            tree.enums.get(e.idx(db) as usize).and_then(|d| d.name.clone()).unwrap_or_else(|| "(anonymous enum)".into())
        }
        TyKind::Typedef(td) => {
            let tree = item_tree_of(db, td.item(db));
            tree.typedefs.get(td.idx(db) as usize).map(|d| d.name.clone()).unwrap_or_default()
        }
        TyKind::AliasSpec { alias, args, .. } => {
            let tree = item_tree_of(db, alias.item(db));
            let name = tree.typedefs.get(alias.idx(db) as usize).map(|d| d.name.clone()).unwrap_or_default();
            format!("{name}<{}>", crate::templates::display_args(db, args))
        }
        TyKind::Qualified(x, cv) => {
            let mut s = String::new();
            if cv.c {
                s.push_str("const ");
            }
            if cv.v {
                s.push_str("volatile ");
            }
            s.push_str(&display(db, *x));
            if cv.r {
                s.push_str(" __restrict");
            }
            s
        }
        TyKind::Complex(x) => format!("_Complex {}", display(db, *x)),
        TyKind::Vector(x, n) => format!("{} __attribute__((vector_size({n})))", display(db, *x)),
        TyKind::TemplateParam { depth, index } => format!("T{depth}_{index}"),
        TyKind::ParamApp { depth, index, args } => {
            format!("P{depth}_{index}<{}>", crate::templates::display_args(db, args))
        }
        TyKind::Dependent(s) | TyKind::Specialization(s) => s.clone(),
        TyKind::App(a) => {
            let args = crate::templates::display_args(db, a.args(db));
            let sep = if args.ends_with('>') { " " } else { "" };
            format!("{}<{args}{sep}>", crate::layout::class_name(db, a.template(db)))
        }
        TyKind::Inst(i) => crate::templates::inst_name(db, *i),
        TyKind::Closure(c) => format!("{{lambda #{}}}", c.expr(db).0),
    }
}

pub fn builtin_name(b: Builtin) -> &'static str {
    use Builtin::*;
    match b {
        Void => "void",
        Bool => "bool",
        Char => "char",
        SChar => "signed char",
        UChar => "unsigned char",
        WChar => "wchar_t",
        Char8 => "char8_t",
        Char16 => "char16_t",
        Char32 => "char32_t",
        Short => "short",
        UShort => "unsigned short",
        Int => "int",
        UInt => "unsigned int",
        Long => "long",
        ULong => "unsigned long",
        LongLong => "long long",
        ULongLong => "unsigned long long",
        Int128 => "__int128",
        UInt128 => "unsigned __int128",
        Float => "float",
        Double => "double",
        LongDouble => "long double",
        Float128 => "__float128",
        Float16 => "_Float16",
        BF16 => "__bf16",
        Float32 => "_Float32",
        Float64 => "_Float64",
        Float32x => "_Float32x",
        Float64x => "_Float64x",
        NullPtr => "decltype(nullptr)",
    }
}

/// A parameter's type as the function type holds it ([dcl.fct]/5): top-level
/// cv dropped, arrays and functions decayed to pointers. Also what a
/// function template's parameter is before deduction ([temp.deduct.call]/1).
pub fn adjust_param(db: &dyn SourceDatabase, t: TyId) -> TyId {
    let mut t = canonical(db, t);
    if let TyKind::Qualified(inner, _) = t.kind(db) {
        t = *inner;
    }
    match t.kind(db).clone() {
        TyKind::Array(e, _) => mk(db, TyKind::Ptr(e)),
        TyKind::Func(_) => mk(db, TyKind::Ptr(t)),
        _ => t,
    }
}
