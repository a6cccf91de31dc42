//! Linkage names of functions and variables (spec 50 §8): the entity's
//! scope chain and adjusted signature as `cufront-mangle`'s tree, then the
//! mangler (substitutions, `St`, … are its business).
//!
//! The spelling is the host side's (what g++ writes in the host object
//! for the code cudafe++ emits): internal-linkage entities declared
//! `static` (or `const` at namespace scope) carry Itanium's `L` marker
//! (`_ZL2sfi`, `_ZN1NL2svE`), `__device__`/`__constant__`/`__managed__`
//! variables too (cudafe++ makes their host shadows `static` in
//! whole-program mode), and anonymous namespaces are g++'s `_GLOBAL__N_1`.
//! cudafe++'s host output names anonymous namespaces `_GLOBAL__N_<mid>`
//! (`_NV_ANON_NAMESPACE`), which needs the module id: [`with_module_id`]
//! rewrites a name once it is known. The device side's `_INTERNAL<mid>` /
//! `__nv_static_` forms (spec 50 §8.4) also need the execution space:
//! `cufront_mangle::cuda` spells them, nothing here uses it yet.
//!
//! Never a guess: a type the model cannot spell (a dependent type, a member
//! class of a specialization, `_Complex`, a GNU vector, an unnamed class
//! without a typedef name) makes the name an `Err`.

use cufront_base_db::SourceDatabase;
use cufront_mangle::{self as m, Component, Unqualified};

use crate::item_tree::{Builtin, Cv, FnName, Linkage, Path, TemplateKind};
use crate::scopes::{self, DeclKey, Def, DefMap, Ns, ScopeIdx, ScopeKind, def_map};
use crate::templates::{TemplateArg, TemplateRef};
use crate::ty::{self, TyId, TyKind, canonical};
use crate::{ClassId, Entity, EnumId, item_tree_of};

mod abi_tags;
mod decltype_ret;
mod dependent;
mod device;
mod inline_home;
mod packs;

pub use device::{device_base_ctor_name, device_kernel_name, device_linkage_name, device_type_name, stub_kernel_name};

/// What `inspect symbols` prints about an entity besides its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntityInfo {
    pub is_fn: bool,
    pub linkage: Linkage,
}

pub fn entity_info(db: &dyn SourceDatabase, e: Entity) -> Option<EntityInfo> {
    match e {
        Entity::Fn(f) => {
            let tree = item_tree_of(db, f.item(db));
            tree.fns.get(f.idx(db) as usize).map(|d| EntityInfo { is_fn: true, linkage: d.linkage })
        }
        Entity::Var(v) => {
            let tree = item_tree_of(db, v.item(db));
            tree.vars.get(v.idx(db) as usize).map(|d| EntityInfo { is_fn: false, linkage: d.linkage })
        }
        Entity::FnInst(i) => i.decl(db).data(db).map(|d| {
            // Defined when the unit defines the template (or member) it instantiates.
            let mut linkage = d.linkage;
            linkage.is_definition = crate::instances::fn_definition(db, i.decl(db)).is_some();
            EntityInfo { is_fn: true, linkage }
        }),
        Entity::VarInst(i) => i.decl(db).data(db).map(|d| EntityInfo { is_fn: false, linkage: d.linkage }),
        Entity::Special(_) | Entity::Closure(_) => Some(EntityInfo {
            is_fn: true,
            linkage: Linkage { is_inline: true, is_definition: true, ..Linkage::default() },
        }),
        Entity::LocalStatic(_) => Some(EntityInfo {
            is_fn: false,
            linkage: Linkage { is_static: true, is_definition: true, ..Linkage::default() },
        }),
        Entity::Stub(_) => Some(EntityInfo {
            is_fn: true,
            linkage: Linkage { is_static: true, is_inline: true, is_definition: true, ..Linkage::default() },
        }),
        Entity::Inherited(_) => Some(EntityInfo {
            is_fn: true,
            linkage: Linkage { is_inline: true, is_definition: true, ..Linkage::default() },
        }),
        Entity::Intrinsic(_) => Some(EntityInfo { is_fn: true, linkage: Linkage::default() }),
    }
}

/// The linkage name of a function or variable, as the host object spells it.
#[salsa::tracked(returns(clone))]
pub fn mangled_name(db: &dyn SourceDatabase, e: Entity) -> Result<String, crate::SemaError> {
    // Naming instantiates nothing: what the queries it asks evaluate is
    // theirs, not a caller's (`consteval::var_template`).
    crate::consteval::var_template::isolated(|| mangled_name_of(db, e))
}

fn mangled_name_of(db: &dyn SourceDatabase, e: Entity) -> Result<String, crate::SemaError> {
    match e {
        Entity::Fn(f) => fn_encoding(db, f)?.mangle(),
        // An `extern "C"` variable is named as written, unless it is a member.
        Entity::Var(v) => match extern_c_var_name(db, v) {
            Some(name) => Ok(name),
            None => m::symbol(&m::Encoding::Data(var_name_tree(db, v)?)).map_err(crate::SemaError::from),
        },
        Entity::FnInst(i) => fn_instance_name(db, i),
        Entity::VarInst(i) => var_instance_name(db, i),
        Entity::Special(sp) => special_name(db, sp),
        Entity::Closure(f) => crate::instances::closure_fn_name(db, f),
        Entity::LocalStatic(v) => crate::instances::local_static_name(db, v),
        Entity::Stub(s) => crate::instances::stub::stub_entity_name(db, s),
        Entity::Inherited(i) => crate::instances::inherited::inherited_ctor_name(db, i),
        // C names, as cicc declares them.
        Entity::Intrinsic(i) => Ok(i.name(db).clone()),
    }
}

/// A function's linkage name as the mangler's tree, or its plain name
/// (`extern "C"` functions, `main`): what a local entity's name starts
/// with (`Z <encoding> E`; a plain name is an unscoped `<source-name>`,
/// `_ZZ4mainE…`).
#[derive(Clone, Debug)]
pub(crate) enum FnEncoding {
    Plain(String),
    Tree(m::Encoding),
}

impl FnEncoding {
    pub(crate) fn mangle(self) -> Result<String, crate::SemaError> {
        match self {
            FnEncoding::Plain(s) => Ok(s),
            FnEncoding::Tree(e) => m::mangle(&e).map_err(crate::SemaError::from),
        }
    }
    /// The encoding a local name nests in.
    pub(crate) fn into_encoding(self) -> m::Encoding {
        match self {
            FnEncoding::Plain(s) => {
                m::Encoding::Data(m::Name { root: m::Root::Global, comps: vec![m::build::comp(&s)] })
            }
            FnEncoding::Tree(e) => e,
        }
    }
}

/// The encoding of a function that is not a template (`mangled_name`'s).
pub(crate) fn fn_encoding(db: &dyn SourceDatabase, f: crate::FnId) -> Result<FnEncoding, crate::SemaError> {
    fn_encoding_as(db, f, false)
}

/// A function's C++ linkage name even when it has C linkage: what cicc's
/// kernel stubs are named after (`__device_stub__ZN7kernels4fillEPi` for an
/// `extern "C"` kernel `fill`, spec 30 §3.2).
pub fn cxx_fn_name(db: &dyn SourceDatabase, f: crate::FnId) -> Result<String, crate::SemaError> {
    crate::consteval::var_template::isolated(|| fn_encoding_as(db, f, true)?.mangle())
}

fn fn_encoding_as(
    db: &dyn SourceDatabase,
    f: crate::FnId,
    ignore_c_linkage: bool,
) -> Result<FnEncoding, crate::SemaError> {
    let item = f.item(db);
    let tree = item_tree_of(db, item);
    let data = tree.fns.get(f.idx(db) as usize).ok_or("no such function")?;
    let map = def_map(db, item.tu(db));
    let parent = map.parent.get(&DeclKey::Fn(f)).copied().unwrap_or(scopes::ROOT);
    let mut scope = entity_scope(db, &map, item, parent, data.qualifier.as_ref())?;
    if data.qualifier.is_some() && matches!(map.scope(scope).kind, ScopeKind::Namespace { .. }) {
        scope = inline_home::inline_home(&map, scope, &scopes::fn_name_key(&data.name));
    }
    let member = matches!(map.scope(scope).kind, ScopeKind::Class(_)) && !data.friend;
    let last = match &data.name {
        FnName::Ident(s) if data.linkage.extern_c && !member && !ignore_c_linkage => {
            return Ok(FnEncoding::Plain(s.clone()));
        }
        FnName::Ident(s)
            if !member && !ignore_c_linkage && c_linkage_by_redeclaration(db, &map, item, scope, f, data) =>
        {
            return Ok(FnEncoding::Plain(s.clone()));
        }
        FnName::Ident(s) if s == "main" && scope == scopes::ROOT => return Ok(FnEncoding::Plain(s.clone())),
        FnName::Ident(s) if data.linkage.is_static && !member => Unqualified::StaticSource(s.clone()),
        FnName::Ident(s) => Unqualified::Source(s.clone()),
        FnName::Ctor => Unqualified::Ctor(m::CtorKind::Complete),
        FnName::Dtor => Unqualified::Dtor(m::DtorKind::Complete),
        FnName::Operator(op) => {
            let arity = data.ty.params.len() + usize::from(member && !data.linkage.is_static);
            Unqualified::Operator(m::Op::from_spelling(op, arity).ok_or_else(|| format!("unknown operator `{op}`"))?)
        }
        FnName::Conversion(t) => {
            let cx = ty::LowerCx { db, map: &map, item, scope, env: None };
            Unqualified::Conversion(Box::new(mangle_ty(db, &map, ty::lower(cx, t))?))
        }
        FnName::Literal(s) => Unqualified::Literal(s.clone()),
    };
    let cx = ty::LowerCx { db, map: &map, item, scope, env: None };
    let param_tys: Vec<TyId> = data.ty.params.iter().map(|p| ty::adjust_param(db, ty::lower(cx, p))).collect();
    let params = param_tys.iter().map(|p| mangle_ty(db, &map, *p)).collect::<Result<Vec<_>, _>>()?;
    // A hidden friend is named in the class's namespace.
    let name_scope = if data.friend { crate::instances::enclosing_namespace(&map, scope) } else { scope };
    let mut name = scope_name(db, &map, name_scope, &mut Budget::default())?;
    let tagged = matches!(data.name, FnName::Ident(_) | FnName::Operator(_) | FnName::Literal(_));
    let mut comp = m::build::comp_of(last);
    if tagged {
        comp.abi_tags = abi_tags::missing_tags(db, &map, name_scope, &param_tys, ty::lower(cx, &data.ty.ret));
    }
    name.comps.push(comp);
    let f = m::FnType {
        // Not part of the name of a function that is not a template.
        ret: m::Type::Builtin(m::Builtin::Void),
        params,
        variadic: data.ty.variadic,
        quals: quals(data.ty.cv),
        ref_qual: match data.ty.ref_qual {
            1 => m::RefQual::LValue,
            2 => m::RefQual::RValue,
            _ => m::RefQual::None,
        },
        exception: m::ExceptionSpec::None,
    };
    Ok(FnEncoding::Tree(m::Encoding::Function(Box::new(name), Box::new(f))))
}

/// Whether a function declared without a linkage specification redeclares
/// one declared `extern "C"` in the same scope ([dcl.link]/6: the later
/// declaration keeps the earlier one's language linkage). Redeclaration is
/// decided on the lowered parameter types, so `void f(size_t)` matches an
/// `extern "C" void f(unsigned long)`; another overload stays C++.
fn c_linkage_by_redeclaration(
    db: &dyn SourceDatabase,
    map: &DefMap,
    item: crate::ItemId,
    scope: scopes::ScopeIdx,
    f: crate::FnId,
    data: &crate::item_tree::FnData,
) -> bool {
    let params = |cx: ty::LowerCx<'_>, d: &crate::item_tree::FnData| -> Vec<TyId> {
        d.ty.params.iter().map(|p| canonical(db, ty::adjust_param(db, ty::lower(cx, p)))).collect()
    };
    // Lowered only when an `extern "C"` declaration of the name exists.
    let mut own: Option<Vec<TyId>> = None;
    // Only an earlier declaration gives its linkage ([dcl.link]/5): the
    // device view's `static __device__ cudaMalloc(void**, size_t)` keeps
    // C++ (internal) linkage before the runtime's `extern "C"` one, as EDG
    // names it (`_ZN…_INTERNAL…10cudaMallocEPPvm`).
    // Ranked only when an `extern "C"` redeclaration exists.
    scopes::own_fns(db, map, scope, &scopes::fn_name_key(&data.name)).into_iter().any(|g| {
        let crate::instances::FnDecl::Fn(g) = g else { return false };
        if g == f {
            return false;
        }
        let tree = item_tree_of(db, g.item(db));
        let Some(gd) = tree.fns.get(g.idx(db) as usize) else { return false };
        if !gd.linkage.extern_c || gd.ty.params.len() != data.ty.params.len() || gd.ty.variadic != data.ty.variadic {
            return false;
        }
        if crate::locate::fn_order(db, g) > crate::locate::fn_order(db, f) {
            return false;
        }
        let gscope = map.parent.get(&DeclKey::Fn(g)).copied().unwrap_or(scopes::ROOT);
        let gcx = ty::LowerCx { db, map, item: g.item(db), scope: gscope, env: None };
        let own = own.get_or_insert_with(|| params(ty::LowerCx { db, map, item, scope, env: None }, data));
        params(gcx, gd) == *own
    })
}

/// A host name with the anonymous namespace as cudafe++'s output names it,
/// `_GLOBAL__N_<mid>` (`mid` with its leading `_`), instead of g++'s
/// `_GLOBAL__N_1`. The component count is unchanged, so substitutions are
/// too: only the source name and its length differ. The anonymous
/// namespace of cudafe++'s extended-lambda preamble (`__nv_hdl_helper`,
/// `lambda_wrappers`) is text it inserts, not one it prints from the
/// source: g++ names that one.
pub fn with_module_id(name: &str, mid: &str) -> String {
    if mid.is_empty() || !name.starts_with("_Z") {
        return name.to_string();
    }
    let anon = format!("_GLOBAL__N_{mid}");
    let renamed = format!("{}{anon}", anon.len());
    // cicc's `_INTERNAL<mid>` of a name mangled without the module id
    // (`9_INTERNAL`: device names of functions local entities are in).
    let internal = format!("_INTERNAL{mid}");
    let mut patched = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(at) = rest.find("9_INTERNAL") {
        let digit_before = rest[..at].ends_with(|c: char| c.is_ascii_digit());
        patched.push_str(&rest[..at]);
        if digit_before {
            patched.push_str("9_INTERNAL");
        } else {
            patched.push_str(&format!("{}{internal}", internal.len()));
        }
        rest = &rest[at + "9_INTERNAL".len()..];
    }
    patched.push_str(rest);
    let name = patched.as_str();
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(at) = rest.find("12_GLOBAL__N_1") {
        let after = &rest[at + "12_GLOBAL__N_1".len()..];
        out.push_str(&rest[..at]);
        out.push_str(if after.starts_with("15__nv_hdl_helper") { "12_GLOBAL__N_1" } else { &renamed });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Every function and variable outside templates (in source order;
/// redeclarations repeat the name), then the instances and inline
/// functions the unit's bodies require (`instances::required_entities`),
/// each with its linkage name.
pub fn entities(
    db: &dyn SourceDatabase,
    tu: cufront_base_db::TranslationUnit,
) -> Vec<(Entity, Result<String, crate::SemaError>)> {
    crate::instances::required_entities(db, tu).iter().map(|&e| (e, mangled_name(db, e))).collect()
}

fn is_const_object(db: &dyn SourceDatabase, t: TyId) -> bool {
    match canonical(db, t).kind(db) {
        TyKind::Qualified(_, cv) => cv.c && !cv.v,
        TyKind::Array(e, _) => is_const_object(db, *e),
        _ => false,
    }
}

/// The scope a (possibly qualified) declaration belongs to.
fn entity_scope(
    db: &dyn SourceDatabase,
    map: &DefMap,
    item: crate::ItemId,
    parent: ScopeIdx,
    qualifier: Option<&Path>,
) -> Result<ScopeIdx, crate::SemaError> {
    let s = match qualifier {
        None => parent,
        Some(q) if q.segments.is_empty() => scopes::ROOT,
        Some(q) => match scopes::resolve_path(db, map, parent, q, Ns::Scope) {
            Some(Def::Namespace(s)) => s,
            Some(Def::Class(c)) => {
                map.class_scope.get(&map.class_definition(c)).copied().ok_or_else(|| format!("`{q}` is not defined"))?
            }
            // `S<int>::f`: a member of an explicit specialization.
            _ if q.segments.last().is_some_and(|s| s.args.is_some()) => {
                let cx = ty::LowerCx { db, map, item, scope: parent, env: None };
                let t = canonical(db, ty::lower(cx, &crate::item_tree::TypeRef::Path(q.clone())));
                match t.kind(db) {
                    TyKind::App(a) => match crate::templates::select(db, *a) {
                        Ok(crate::templates::Selected::Class(c)) => map
                            .class_scope
                            .get(&map.class_definition(c))
                            .copied()
                            .ok_or_else(|| format!("`{q}` is not defined"))?,
                        _ => return Err(crate::error::gap!("`{q}` is not an explicit specialization")),
                    },
                    _ => return Err(crate::error::gap!("unresolved scope `{q}`")),
                }
            }
            _ => return Err(crate::error::gap!("unresolved scope `{q}`")),
        },
    };
    if map.templated.contains(&s) {
        return Err("member of a template".into());
    }
    Ok(s)
}

/// The name of a scope (namespaces and classes), rooted at the global namespace.
fn scope_name(db: &dyn SourceDatabase, map: &DefMap, s: ScopeIdx, b: &mut Budget) -> Result<m::Name, crate::SemaError> {
    let mut comps: Vec<Component> = Vec::new();
    let mut root = m::Root::Global;
    let mut cur = Some(s);
    while let Some(c) = cur {
        let scope = map.scope(c);
        match &scope.kind {
            ScopeKind::Root => break,
            ScopeKind::Namespace { name: Some(n), .. } => comps.push(m::build::comp(n)),
            ScopeKind::Namespace { name: None, .. } => comps.push(m::build::comp_of(Unqualified::AnonNamespace(None))),
            ScopeKind::Class(k) => {
                let mut n = class_name(db, map, *k, b)?;
                comps.push(n.comps.pop().expect("a class name has a component"));
                comps.extend(n.comps.into_iter().rev());
                // A local class's: `Z <function> E`.
                root = n.root;
                break;
            }
            ScopeKind::Enum(_) => return Err("enum scope".into()),
            ScopeKind::Block(_) => return Err("block scope".into()),
        }
        cur = scope.parent;
    }
    comps.reverse();
    Ok(m::Name { root, comps })
}

/// The name of a class that is not a template.
fn class_name(db: &dyn SourceDatabase, map: &DefMap, c: ClassId, b: &mut Budget) -> Result<m::Name, crate::SemaError> {
    let tree = item_tree_of(db, c.item(db));
    let data = tree.classes.get(c.idx(db) as usize).ok_or("no such class")?;
    let own = data.name.clone().or_else(|| data.typedef_name.clone()).ok_or("unnamed class")?;
    let parent = map.parent.get(&DeclKey::Class(c)).copied().unwrap_or(scopes::ROOT);
    let args = match data.template {
        TemplateKind::None => None,
        TemplateKind::Primary => return Err("a class template".into()),
        // `template<> struct S<int> {…}`: named by the primary template and its arguments.
        TemplateKind::Specialization if data.tparams.as_ref().is_some_and(Vec::is_empty) => {
            let pattern = crate::templates::spec_pattern(db, c);
            let (_, args) = pattern.as_ref().as_ref().map_err(Clone::clone)?;
            Some(args.iter().map(|a| targ(db, map, a, b)).collect::<Result<Vec<_>, _>>()?)
        }
        TemplateKind::Specialization => return Err("a partial specialization".into()),
    };
    let mut n = match map.scope(parent).kind {
        ScopeKind::Block(_) => crate::local_classes::local_root(db, map, parent, c, &[])?,
        _ => scope_name(db, map, parent, b)?,
    };
    n.comps.push(Component { name: Unqualified::Source(own), abi_tags: Vec::new(), args });
    Ok(n)
}

fn enum_name(db: &dyn SourceDatabase, map: &DefMap, e: EnumId, b: &mut Budget) -> Result<m::Name, crate::SemaError> {
    let tree = item_tree_of(db, e.item(db));
    let own = tree.enums.get(e.idx(db) as usize).and_then(|d| d.name.clone()).ok_or("unnamed enum")?;
    let parent = map.parent.get(&DeclKey::Enum(e)).copied().unwrap_or(scopes::ROOT);
    let mut n = scope_name(db, map, parent, b)?;
    n.comps.push(m::build::comp(&own));
    Ok(n)
}

fn quals(cv: Cv) -> m::Quals {
    m::Quals { restrict: cv.r, volatile: cv.v, konst: cv.c }
}

/// Bounds of the tree of one type ([`mangle_ty`]): deeper than the mangler
/// accepts, or larger than any real signature. Types are shared, trees are
/// not: a chain of aliases that each name the previous one twice
/// (`using T2 = P<T1, T1>;`) doubles the tree at each line, 2^40 nodes from
/// 40 lines; a chain of 100,000 pointer aliases nests as deep.
const MAX_TY_DEPTH: u32 = 1024;
const MAX_TY_NODES: u32 = 1 << 20;

/// How far the tree of one type has grown ([`MAX_TY_DEPTH`],
/// [`MAX_TY_NODES`]). Each tree has its own: a type's mangling never
/// depends on who asked, or on what was being built when it was asked.
#[derive(Default)]
pub(crate) struct Budget {
    depth: u32,
    nodes: u32,
}

/// A type as the mangler's tree (typedefs resolved).
pub fn mangle_ty(db: &dyn SourceDatabase, map: &DefMap, t: TyId) -> Result<m::Type, crate::SemaError> {
    ty_tree(db, map, t, &mut Budget::default())
}

/// The name EDG gives an alias template specialization it keeps as sugar
/// (`ty::TyKind::AliasSpec`): the alias's namespace, its name and its
/// arguments, as a class template specialization's would be
/// (`meta::scalar_of_t<float4>`; as data `_ZN4meta11scalar_of_tI6float4EE`,
/// the name cicc's stub gives it). Aliases of a namespace only.
pub fn alias_spec_name(
    db: &dyn SourceDatabase,
    map: &DefMap,
    alias: crate::TypedefId,
    args: &[TemplateArg],
) -> Result<m::Name, crate::SemaError> {
    let tree = item_tree_of(db, alias.item(db));
    let data = tree.typedefs.get(alias.idx(db) as usize).ok_or("no such alias")?;
    let parent = map.parent.get(&DeclKey::Typedef(alias)).copied().unwrap_or(scopes::ROOT);
    if !matches!(map.scope(parent).kind, ScopeKind::Root | ScopeKind::Namespace { .. }) {
        return Err("an alias template that is a member".into());
    }
    let b = &mut Budget::default();
    let mut n = scope_name(db, map, parent, b)?;
    let args = args.iter().map(|x| targ(db, map, x, b)).collect::<Result<Vec<_>, _>>()?;
    n.comps.push(Component { name: Unqualified::Source(data.name.clone()), abi_tags: Vec::new(), args: Some(args) });
    Ok(n)
}

/// [`mangle_ty`], a part of a tree under construction.
fn ty_tree(db: &dyn SourceDatabase, map: &DefMap, t: TyId, b: &mut Budget) -> Result<m::Type, crate::SemaError> {
    if b.depth >= MAX_TY_DEPTH {
        return Err(crate::error::gap!("types nested deeper than {MAX_TY_DEPTH} levels"));
    }
    if b.nodes >= MAX_TY_NODES {
        return Err(crate::error::gap!("a type of more than {MAX_TY_NODES} parts"));
    }
    b.depth += 1;
    b.nodes += 1;
    let r = ty_node(db, map, t, b);
    b.depth -= 1;
    r
}

fn ty_node(db: &dyn SourceDatabase, map: &DefMap, t: TyId, b: &mut Budget) -> Result<m::Type, crate::SemaError> {
    let t = canonical(db, t);
    Ok(match t.kind(db) {
        TyKind::Builtin(b) => m::Type::Builtin(builtin(*b)),
        TyKind::Ptr(x) => ty_tree(db, map, *x, b)?.ptr(),
        TyKind::LRef(x) => ty_tree(db, map, *x, b)?.lref(),
        TyKind::RRef(x) => ty_tree(db, map, *x, b)?.rref(),
        TyKind::MemPtr { class, pointee } => {
            let p = match pointee.kind(db) {
                // A member function's type: params adjusted, quals kept.
                TyKind::Func(_) => ty_tree(db, map, *pointee, b)?,
                _ => ty_tree(db, map, *pointee, b)?,
            };
            p.member_of(ty_tree(db, map, *class, b)?)
        }
        TyKind::Array(e, n) => m::Type::Array(
            match n {
                Some(n) => m::ArrayBound::Known(u128::from(*n)),
                None => m::ArrayBound::Unknown,
            },
            Box::new(ty_tree(db, map, *e, b)?),
        ),
        // `T (&)[N]` in a function template's declared signature.
        TyKind::ParamArray { elem, depth: 0, index } => m::Type::Array(
            m::ArrayBound::Expr(Box::new(m::Expr::TParam(m::TParam(*index)))),
            Box::new(ty_tree(db, map, *elem, b)?),
        ),
        TyKind::ParamArray { .. } => return Err("an array whose bound is a template parameter".into()),
        TyKind::Func(f) => m::FnType {
            ret: ty_tree(db, map, f.ret, b)?,
            params: f.params.iter().map(|p| ty_tree(db, map, ty::adjust_param(db, *p), b)).collect::<Result<_, _>>()?,
            variadic: f.variadic,
            quals: quals(f.cv),
            ref_qual: match f.ref_qual {
                1 => m::RefQual::LValue,
                2 => m::RefQual::RValue,
                _ => m::RefQual::None,
            },
            exception: if f.noexcept { m::ExceptionSpec::Noexcept } else { m::ExceptionSpec::None },
        }
        .ty(),
        TyKind::Class(c) => m::Type::Named(class_name(db, map, map.class_definition(*c), b)?),
        TyKind::Enum(e) => m::Type::Named(enum_name(db, map, *e, b)?),
        TyKind::Qualified(x, cv) => ty_tree(db, map, *x, b)?.qual(quals(*cv)),
        TyKind::App(a) => {
            let template = a.template(db);
            let parent = map.parent.get(&DeclKey::Class(template)).copied().unwrap_or(scopes::ROOT);
            let tree = item_tree_of(db, template.item(db));
            let data = tree.classes.get(template.idx(db) as usize).ok_or("no such class")?;
            let own = data.name.clone().ok_or("unnamed template")?;
            let all = a.args(db);
            let n_own = data.tparams.as_ref().map_or(0, Vec::len).min(all.len());
            let (outer, own_args) = all.split_at(all.len() - n_own);
            // A member template of a class template: nested in the outer specialization.
            let mut n = match map.scope(parent).kind {
                ScopeKind::Class(k) if map.templated.contains(&parent) => inst_name(db, map, k, outer, 0, b)?,
                _ if !outer.is_empty() => return Err("outer arguments of a template outside a class".into()),
                _ => scope_name(db, map, parent, b)?,
            };
            let args = own_args.iter().map(|x| targ(db, map, x, b)).collect::<Result<Vec<_>, _>>()?;
            n.comps.push(Component { name: Unqualified::Source(own), abi_tags: Vec::new(), args: Some(args) });
            m::Type::Named(n)
        }
        TyKind::Typedef(_) | TyKind::AliasSpec { .. } => unreachable!("canonical strips sugar"),
        TyKind::Inst(i) => m::Type::Named(inst_name(db, map, i.class(db), i.args(db), 0, b)?),
        TyKind::Closure(c) => m::Type::Named(crate::instances::closure_type_name(db, *c)?),
        TyKind::Complex(_) => return Err("_Complex".into()),
        TyKind::Vector(..) => return Err("GNU vector type".into()),
        // A function template's own parameter in its declared signature
        // (`instances`' mangling environment binds them at depth 0).
        TyKind::TemplateParam { depth: 0, index } => m::Type::Param(m::TParam(*index)),
        TyKind::ParamApp { depth: 0, index, args } => {
            m::Type::ParamApp(m::TParam(*index), args.iter().map(|x| targ(db, map, x, b)).collect::<Result<_, _>>()?)
        }
        TyKind::TemplateParam { .. } | TyKind::ParamApp { .. } | TyKind::Dependent(_) | TyKind::Specialization(_) => {
            return Err(crate::error::gap!("dependent type `{}`", ty::display(db, t)));
        }
        TyKind::Error(e) => return Err(e.clone()),
    })
}

/// A non-member `static` function of a device-view unit.
fn is_device_static(db: &dyn SourceDatabase, f: crate::FnId) -> bool {
    let tree = item_tree_of(db, f.item(db));
    tree.fns.get(f.idx(db) as usize).is_some_and(|d| d.linkage.is_static && !d.in_class)
        && f.item(db).tu(db).options(db).lang(db).device_view
}

fn targ(db: &dyn SourceDatabase, map: &DefMap, a: &TemplateArg, b: &mut Budget) -> Result<m::TArg, crate::SemaError> {
    Ok(match a {
        TemplateArg::Type(t) => m::TArg::Type(ty_tree(db, map, *t, b)?),
        TemplateArg::Value(v, t) => {
            m::TArg::Literal(m::Literal { ty: ty_tree(db, map, *t, b)?, negative: *v < 0, magnitude: v.unsigned_abs() })
        }
        TemplateArg::Pack(v) => m::TArg::Pack(v.iter().map(|x| targ(db, map, x, b)).collect::<Result<_, _>>()?),
        // `&f`: `XadL_Z <encoding> EE`, the encoding's substitutions shared with the name's.
        TemplateArg::Addr(e, _) => {
            let enc = match e {
                // In the device view a `static` function keeps its C++
                // encoding even with C language linkage (the runtime's
                // `extern "C" { static __device__ cudaMalloc(…) }`): EDG
                // names it `_INTERNAL…10cudaMallocEPPvm` there
                // (`symbols/device.rs`), where g++ writes `L_Z10cudaMallocE`.
                Entity::Fn(f) if is_device_static(db, *f) => fn_encoding_as(db, *f, true)?.into_encoding(),
                Entity::Fn(f) => fn_encoding(db, *f)?.into_encoding(),
                Entity::FnInst(i) => fn_instance_encoding(db, *i)?.into_encoding(),
                other => return Err(crate::error::gap!("the address of {other:?} as a template argument")),
            };
            m::TArg::Expr(m::Expr::Unary(m::Op::AddrOf, Box::new(m::Expr::Entity(Box::new(enc)))))
        }
        // A value parameter of the function template whose signature is mangled.
        TemplateArg::ValueParam { depth: 0, index } => m::TArg::Expr(m::Expr::TParam(m::TParam(*index))),
        TemplateArg::Template(TemplateRef::Class(c)) => {
            let parent = map.parent.get(&DeclKey::Class(*c)).copied().unwrap_or(scopes::ROOT);
            let tree = item_tree_of(db, c.item(db));
            let own = tree.classes.get(c.idx(db) as usize).and_then(|d| d.name.clone()).ok_or("unnamed template")?;
            let mut n = scope_name(db, map, parent, b)?;
            n.comps.push(m::build::comp(&own));
            m::TArg::Template(n)
        }
        // Named inside its specialization: `N <specialization> <name> E`.
        TemplateArg::Template(TemplateRef::MemberClass(i, c)) => {
            let tree = item_tree_of(db, c.item(db));
            let own = tree.classes.get(c.idx(db) as usize).and_then(|d| d.name.clone()).ok_or("unnamed template")?;
            let mut n = inst_name(db, map, i.class(db), i.args(db), 0, b)?;
            n.comps.push(m::build::comp(&own));
            m::TArg::Template(n)
        }
        other => return Err(crate::error::gap!("template argument {other:?}")),
    })
}

fn builtin(b: Builtin) -> m::Builtin {
    use m::Builtin as M;
    match b {
        Builtin::Void => M::Void,
        Builtin::Bool => M::Bool,
        Builtin::Char => M::Char,
        Builtin::SChar => M::SChar,
        Builtin::UChar => M::UChar,
        Builtin::WChar => M::WChar,
        Builtin::Char8 => M::Char8,
        Builtin::Char16 => M::Char16,
        Builtin::Char32 => M::Char32,
        Builtin::Short => M::Short,
        Builtin::UShort => M::UShort,
        Builtin::Int => M::Int,
        Builtin::UInt => M::UInt,
        Builtin::Long => M::Long,
        Builtin::ULong => M::ULong,
        Builtin::LongLong => M::LongLong,
        Builtin::ULongLong => M::ULongLong,
        Builtin::Int128 => M::Int128,
        Builtin::UInt128 => M::UInt128,
        Builtin::Float => M::Float,
        Builtin::Double => M::Double,
        Builtin::LongDouble => M::LongDouble,
        Builtin::Float128 => M::Float128,
        Builtin::Float16 => M::Float16,
        Builtin::BF16 => M::BFloat16,
        Builtin::Float32 => M::Float32,
        Builtin::Float64 => M::Float64,
        Builtin::Float32x => M::Float32x,
        Builtin::Float64x => M::Float64x,
        Builtin::NullPtr => M::NullPtr,
    }
}

/// Whether a variable's type is a non-volatile const type (arrays by
/// element, typedefs seen through): at namespace scope, such a variable not
/// declared `extern` has internal linkage ([basic.link]/3.2). `None` when
/// its type is not resolved.
pub fn var_is_const(db: &dyn SourceDatabase, v: crate::VarId) -> Option<bool> {
    let item = v.item(db);
    let tree = item_tree_of(db, item);
    let data = tree.vars.get(v.idx(db) as usize)?;
    let map = def_map(db, item.tu(db));
    let scope = map.parent.get(&DeclKey::Var(v)).copied().unwrap_or(scopes::ROOT);
    let cx = ty::LowerCx { db, map: &map, item, scope, env: None };
    let t = ty::lower(cx, &data.ty);
    if matches!(canonical(db, t).kind(db), TyKind::Error(_)) {
        return None;
    }
    Some(data.linkage.is_constexpr || is_const_object(db, t))
}

/// Where each function and variable of the unit is declared: the offset of
/// its declarator's name in the unit's text. Re-lowers every item that
/// declares one (offsets are kept out of the item tree so that edits before
/// an entity keep its tree): for `inspect`, not for incremental use.
pub fn entity_offsets(
    db: &dyn SourceDatabase,
    tu: cufront_base_db::TranslationUnit,
) -> rustc_hash::FxHashMap<Entity, u32> {
    let mut out = rustc_hash::FxHashMap::default();
    let mut templates: rustc_hash::FxHashMap<crate::FnTemplateId, u32> = rustc_hash::FxHashMap::default();
    let parse = cufront_base_db::parse(db, tu);
    let root = parse.syntax_node();
    let items = &crate::top_level_items(db, tu).items;
    for (node, &item) in root.children().zip(items.iter()) {
        let tree = item_tree_of(db, item);
        if tree.fns.is_empty() && tree.vars.is_empty() && tree.fn_templates.is_empty() {
            continue;
        }
        // The offsets are relative to the item; locations are in the unit.
        let base = u32::from(node.text_range().start());
        let offs = crate::item_offsets(db, item);
        for (i, at) in offs.fns.iter().enumerate() {
            out.insert(Entity::Fn(crate::FnId::new(db, item, i as u32)), base + at);
        }
        for (i, at) in offs.vars.iter().enumerate() {
            out.insert(Entity::Var(crate::VarId::new(db, item, i as u32)), base + at);
        }
        for (i, at) in offs.fn_templates.iter().enumerate() {
            templates.insert(crate::FnTemplateId::new(db, item, i as u32), base + at);
        }
    }
    // Instances are located at their declaration (function templates by
    // their own offsets, members of specializations by the member's).
    for &e in crate::instances::required_entities(db, tu).iter() {
        let at = match e {
            Entity::FnInst(i) => match i.decl(db) {
                crate::instances::FnDecl::Fn(f) => out.get(&Entity::Fn(f)).copied(),
                crate::instances::FnDecl::Template(t) => templates.get(&t).copied(),
            },
            Entity::VarInst(i) => match i.decl(db) {
                crate::instances::VarDecl::Var(v) => out.get(&Entity::Var(v)).copied(),
                crate::instances::VarDecl::Template(_) => None,
            },
            _ => None,
        };
        if let Some(at) = at {
            out.insert(e, at);
        }
    }
    out
}

/// The name of a class of an instantiation: a pattern (primary template
/// definition, partial specialization, or a class nested in one) with the
/// arguments of its template chain (outermost first). Each templated level
/// is named by its primary template and its arguments (a partial
/// specialization's pattern substituted).
fn inst_name(
    db: &dyn SourceDatabase,
    map: &DefMap,
    class: ClassId,
    args: &[TemplateArg],
    depth: u32,
    b: &mut Budget,
) -> Result<m::Name, crate::SemaError> {
    if depth > 64 {
        return Err("nesting too deep".into());
    }
    let tree = item_tree_of(db, class.item(db));
    let data = tree.classes.get(class.idx(db) as usize).ok_or("no such class")?;
    let own_name = data.name.clone().or_else(|| data.typedef_name.clone()).ok_or("unnamed class")?;
    let n_own = data.tparams.as_ref().map_or(0, Vec::len);
    if n_own > args.len() {
        return Err("too few arguments for an instance".into());
    }
    let (outer, own) = args.split_at(args.len() - n_own);
    let parent = map.parent.get(&DeclKey::Class(class)).copied().unwrap_or(scopes::ROOT);
    let mut n = match map.scope(parent).kind {
        ScopeKind::Class(k) if map.templated.contains(&parent) => inst_name(db, map, k, outer, depth + 1, b)?,
        ScopeKind::Block(_) => crate::local_classes::local_root(db, map, parent, class, outer)?,
        _ if !outer.is_empty() => return Err("outer arguments of a class outside a template".into()),
        _ => scope_name(db, map, parent, b)?,
    };
    let comp_args = match data.template {
        TemplateKind::Primary => Some(own.iter().map(|a| targ(db, map, a, b)).collect::<Result<Vec<_>, _>>()?),
        TemplateKind::Specialization if n_own > 0 => {
            let app = crate::templates::substituted_pattern(db, map, class, args)?;
            Some(app.iter().map(|a| targ(db, map, a, b)).collect::<Result<Vec<_>, _>>()?)
        }
        TemplateKind::Specialization => {
            let pattern = crate::templates::spec_pattern(db, class);
            let (_, a) = pattern.as_ref().as_ref().map_err(Clone::clone)?;
            Some(a.iter().map(|x| targ(db, map, x, b)).collect::<Result<Vec<_>, _>>()?)
        }
        TemplateKind::None => None,
    };
    n.comps.push(Component { name: Unqualified::Source(own_name), abi_tags: Vec::new(), args: comp_args });
    Ok(n)
}

/// The unqualified name of a function as its declaration names it.
fn fn_unqualified(
    db: &dyn SourceDatabase,
    map: &DefMap,
    data: &crate::item_tree::FnData,
    member: bool,
    cx: ty::LowerCx<'_>,
) -> Result<Unqualified, crate::SemaError> {
    Ok(match &data.name {
        FnName::Ident(s) if data.linkage.is_static && !member => Unqualified::StaticSource(s.clone()),
        FnName::Ident(s) => Unqualified::Source(s.clone()),
        FnName::Ctor => Unqualified::Ctor(m::CtorKind::Complete),
        FnName::Dtor => Unqualified::Dtor(m::DtorKind::Complete),
        FnName::Operator(op) => {
            let arity = data.ty.params.len() + usize::from(member && !data.linkage.is_static);
            Unqualified::Operator(m::Op::from_spelling(op, arity).ok_or_else(|| format!("unknown operator `{op}`"))?)
        }
        FnName::Conversion(t) => Unqualified::Conversion(Box::new(mangle_ty(db, map, ty::lower(cx, t))?)),
        FnName::Literal(s) => Unqualified::Literal(s.clone()),
    })
}

fn ref_qual(r: u8) -> m::RefQual {
    match r {
        1 => m::RefQual::LValue,
        2 => m::RefQual::RValue,
        _ => m::RefQual::None,
    }
}

/// The linkage name of a function instance (spec 50 §8): a member of a
/// class template specialization is nested in the specialization's name
/// and mangles its substituted parameter types; a function template
/// specialization carries its arguments (`I…E`) and mangles its *declared*
/// signature, return type first, its own parameters as `T_`, `T0_`, …
/// (pack expansions `Dp`).
fn fn_instance_name(db: &dyn SourceDatabase, i: crate::instances::FnInstanceId) -> Result<String, crate::SemaError> {
    fn_instance_encoding(db, i)?.mangle()
}

pub(crate) fn fn_instance_encoding(
    db: &dyn SourceDatabase,
    i: crate::instances::FnInstanceId,
) -> Result<FnEncoding, crate::SemaError> {
    let data = i.decl(db).data(db).ok_or("no such function")?;
    fn_instance_encoding_as(db, i, &data)
}

/// The encoding of the instance `i` were its declaration `data` (same
/// scope and template parameters, other name or signature): what the
/// functions cudafe++ derives from a function template are named by
/// (`instances::stub`'s wrappers).
pub(crate) fn fn_instance_encoding_as(
    db: &dyn SourceDatabase,
    i: crate::instances::FnInstanceId,
    data: &crate::item_tree::FnData,
) -> Result<FnEncoding, crate::SemaError> {
    use crate::instances::{self as inst, FnDecl};
    let decl = i.decl(db);
    let tu = decl.tu(db);
    let map = def_map(db, tu);
    let item = decl.item(db);
    let scope = inst::fn_scope(db, decl).ok_or("unresolved qualifier")?;
    let member = matches!(map.scope(scope).kind, ScopeKind::Class(_)) && !data.friend;
    let mut name = match i.outer(db) {
        // A hidden friend of a specialization is named in its namespace.
        Some(_) if data.friend => scope_name(db, &map, inst::enclosing_namespace(&map, scope), &mut Budget::default())?,
        Some(o) => inst_name(db, &map, o.class(db), o.args(db), 0, &mut Budget::default())?,
        None if data.friend => scope_name(db, &map, inst::enclosing_namespace(&map, scope), &mut Budget::default())?,
        None => {
            if map.templated.contains(&scope) {
                return Err("member of a template without its specialization".into());
            }
            scope_name(db, &map, scope, &mut Budget::default())?
        }
    };
    let outer_env = match i.outer(db) {
        Some(o) => crate::templates::inst_env(db, o)?,
        None => crate::templates::Env::default(),
    };
    let own_args = i.args(db);
    if let FnName::Ident(s) = &data.name
        && data.linkage.extern_c
        && !member
        && own_args.is_empty()
    {
        return Ok(FnEncoding::Plain(s.clone()));
    }
    let (tparams, is_template) = match decl {
        FnDecl::Template(_) => (decl.tparams(db), true),
        FnDecl::Fn(_) => (Vec::new(), false),
    };
    if !is_template {
        // A member of a specialization: its substituted type.
        let sig = inst::signature(db, i)?;
        let cx = ty::LowerCx { db, map: &map, item, scope, env: Some(&outer_env) };
        let last = fn_unqualified(db, &map, data, member, cx)?;
        name.comps.push(m::build::comp_of(last));
        let params =
            sig.params.iter().map(|p| mangle_ty(db, &map, ty::adjust_param(db, *p))).collect::<Result<Vec<_>, _>>()?;
        let f = m::FnType {
            ret: m::Type::Builtin(m::Builtin::Void),
            params,
            variadic: data.ty.variadic,
            quals: quals(data.ty.cv),
            ref_qual: ref_qual(data.ty.ref_qual),
            exception: m::ExceptionSpec::None,
        };
        return Ok(FnEncoding::Tree(m::Encoding::Function(Box::new(name), Box::new(f))));
    }
    // A function template specialization: the declared signature with the
    // template's own parameters as `T_`…
    if own_args.len() != tparams.len() {
        return Err("template arguments do not match the parameters".into());
    }
    let mut env = outer_env.clone();
    for (k, p) in tparams.iter().enumerate() {
        if p.pack {
            if let Some(n) = &p.name {
                env.names.push((n.clone(), TemplateArg::Pack(vec![packs::element(db, p, k as u32)])));
            }
            continue;
        }
        let a = match p.kind {
            crate::item_tree::TemplateParamKind::Type => {
                TemplateArg::Type(ty::mk(db, TyKind::TemplateParam { depth: 0, index: k as u32 }))
            }
            crate::item_tree::TemplateParamKind::Value(_) => TemplateArg::ValueParam { depth: 0, index: k as u32 },
            crate::item_tree::TemplateParamKind::Template => {
                TemplateArg::Template(TemplateRef::Param { depth: 0, index: k as u32 })
            }
        };
        if let Some(n) = &p.name {
            env.names.push((n.clone(), a));
        }
    }
    let cx = ty::LowerCx { db, map: &map, item, scope, env: Some(&env) };
    // A member of a specialization that depends on the template's own
    // parameters (`typename remove_reference<T>::type`, an alias template
    // applied to them) is mangled as a dependent name, which the model
    // does not keep after lowering: no name rather than a wrong one.
    let names: Vec<String> = tparams.iter().filter_map(|p| p.name.clone()).collect();
    // g++ spells a specialization of a `static` function template without
    // `L` at global scope (`_Z1fIiEvT_`), with it in a namespace
    // (`_ZN2nsL1gIiEEvT_`, `_ZN12_GLOBAL__N_1L1aIiEEvT_`).
    let mut plain = data.clone();
    // A kernel template's specializations are `static` in the host object
    // in whole-program mode (nvcc's default `-static-global-template-stub`;
    // `-rdc` keeps their linkage: not modelled yet), so the same rule names
    // them: `_Z2gkIiEvPT_`, `_ZN2nsL2nkIiEEvPT_` (nvcc 13's `nm`).
    plain.linkage.is_static |= data.linkage.kernel() && !member;
    plain.linkage.is_static &= scope != scopes::ROOT;
    let last = fn_unqualified(db, &map, &plain, member, cx)?;
    let targs = own_args.iter().map(|a| targ(db, &map, a, &mut Budget::default())).collect::<Result<Vec<_>, _>>()?;
    name.comps.push(Component { name: last, abi_tags: Vec::new(), args: Some(targs) });
    let ret = match &data.name {
        FnName::Ctor | FnName::Dtor | FnName::Conversion(_) => m::Type::Builtin(m::Builtin::Void),
        // A deduced return type is mangled as declared: `Da`, `Dc`.
        _ if packs::placeholder_ret(&data.ty.ret).is_some() => {
            packs::placeholder_ret(&data.ty.ret).unwrap_or(m::Type::Builtin(m::Builtin::Auto))
        }
        _ => {
            let old = if dependent_member(db, &map, scope, &data.ty.ret, &names) {
                mangle_written(db, &map, cx, &data.ty.ret, &names, 0)
            } else {
                mangle_ty(db, &map, ty::lower(cx, &data.ty.ret))
            };
            match (old, &data.ty.ret) {
                (Ok(t), _) => t,
                // `decltype(expr)` the lowering does not spell: the
                // expression as written (`symbols/decltype_ret.rs`); a pack
                // named in the operand is under its `sp`: its element, `T0_`.
                (Err(_), crate::item_tree::TypeRef::Opaque(t)) if t.starts_with("decltype(") => {
                    let elem_env = packs::element_env(db, &env, &tparams);
                    let own_packs: Vec<String> =
                        tparams.iter().filter(|p| p.pack).filter_map(|p| p.name.clone()).collect();
                    decltype_ret::decltype_ret(
                        db,
                        &map,
                        ty::LowerCx { env: Some(&elem_env), ..cx },
                        scope,
                        t,
                        &data.ty.params,
                        &names,
                        &own_packs,
                    )?
                }
                (Err(e), _) => return Err(e),
            }
        }
    };
    let elem_env = packs::element_env(db, &env, &tparams);
    let mut params = Vec::new();
    let own_packs: Vec<&String> = tparams.iter().filter(|p| p.pack).filter_map(|p| p.name.as_ref()).collect();
    for (k, p) in data.ty.params.iter().enumerate() {
        let is_pack = data.pack_params.contains(&(k as u32));
        if is_pack && i.outer(db).is_some() && {
            let mut v = Vec::new();
            crate::instances::typeref_names(p, &mut v);
            !v.iter().any(|n| own_packs.contains(&n))
        } {
            // A pack of the enclosing specialization (`Ts... in` in a member
            // template of `X<Ts...>`): its elements, substituted.
            for t in crate::instances::expand_param(cx, &env, p)? {
                params.push(mangle_ty(db, &map, ty::adjust_param(db, t))?);
            }
            continue;
        }
        let cx = if is_pack { ty::LowerCx { env: Some(&elem_env), ..cx } } else { cx };
        let p = &*p.decayed_param();
        let t = if dependent_member(db, &map, scope, p, &names) {
            // Top-level cv is not part of a parameter's type.
            match mangle_written(db, &map, cx, p, &names, 0)? {
                m::Type::Qualified(_, inner) => *inner,
                t => t,
            }
        } else {
            mangle_ty(db, &map, ty::adjust_param(db, ty::lower(cx, p)))?
        };
        params.push(if is_pack { m::Type::PackExpansion(Box::new(t)) } else { t });
    }
    let mut f = m::FnType {
        ret,
        params,
        variadic: data.ty.variadic,
        quals: quals(data.ty.cv),
        ref_qual: ref_qual(data.ty.ref_qual),
        exception: m::ExceptionSpec::None,
    };
    packs::mark_fn(&mut f, &packs::pack_indices(&tparams));
    Ok(FnEncoding::Tree(m::Encoding::Function(Box::new(name), Box::new(f))))
}

/// The name of a variable as a tree (its scope's components, then the
/// variable, `L` when internal): what its symbol and the closures of its
/// initializer (`instances::local`) are named from.
pub(crate) fn var_name_tree(db: &dyn SourceDatabase, v: crate::VarId) -> Result<m::Name, crate::SemaError> {
    var_name_tree_as(db, v, Spelling::HostObject)
}

/// Which name of an entity: the host object's (what g++ emits for the host
/// file cudafe++ writes) or the source's (EDG's linkage name of the entity
/// as declared, what the module id's key uses). They differ for device
/// variables, whose whole-program host shadows are `static`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Spelling {
    HostObject,
    Source,
}

/// The linkage name of a function or variable as declared in the source
/// (see [`Spelling`]); [`mangled_name`] for everything else.
pub fn source_linkage_name(db: &dyn SourceDatabase, e: Entity) -> Result<String, crate::SemaError> {
    match e {
        Entity::Var(v) if extern_c_var_name(db, v).is_none() => crate::consteval::var_template::isolated(|| {
            m::symbol(&m::Encoding::Data(var_name_tree_as(db, v, Spelling::Source)?)).map_err(crate::SemaError::from)
        }),
        _ => mangled_name(db, e),
    }
}

/// The name of an `extern "C"` variable outside classes: as written.
fn extern_c_var_name(db: &dyn SourceDatabase, v: crate::VarId) -> Option<String> {
    let item = v.item(db);
    let tree = item_tree_of(db, item);
    let data = tree.vars.get(v.idx(db) as usize)?;
    if !data.linkage.extern_c {
        return None;
    }
    let map = def_map(db, item.tu(db));
    let parent = map.parent.get(&DeclKey::Var(v)).copied().unwrap_or(scopes::ROOT);
    let scope = entity_scope(db, &map, item, parent, data.qualifier.as_ref()).ok()?;
    (!matches!(map.scope(scope).kind, ScopeKind::Class(_))).then(|| data.name.clone())
}

fn var_name_tree_as(db: &dyn SourceDatabase, v: crate::VarId, spelling: Spelling) -> Result<m::Name, crate::SemaError> {
    let item = v.item(db);
    let tree = item_tree_of(db, item);
    let data = tree.vars.get(v.idx(db) as usize).ok_or("no such variable")?;
    let map = def_map(db, item.tu(db));
    let parent = map.parent.get(&DeclKey::Var(v)).copied().unwrap_or(scopes::ROOT);
    let scope = entity_scope(db, &map, item, parent, data.qualifier.as_ref())?;
    let member = matches!(map.scope(scope).kind, ScopeKind::Class(_));
    // Namespace-scope `const` (and `constexpr`) objects have internal
    // linkage unless `extern` or `inline`; device variables' host
    // shadows are `static` in whole-program mode (cudafe++'s output;
    // `-rdc` keeps their linkage: not modelled yet).
    let internal = !member
        && (data.linkage.is_static
            || (data.linkage.device_var() && spelling == Spelling::HostObject)
            || (!data.linkage.is_extern && !data.linkage.is_inline && data.linkage.is_constexpr)
            || (!data.linkage.is_extern && !data.linkage.is_inline && {
                let cx = ty::LowerCx { db, map: &map, item, scope: parent, env: None };
                is_const_object(db, ty::lower(cx, &data.ty))
            }));
    let last =
        if internal { Unqualified::StaticSource(data.name.clone()) } else { Unqualified::Source(data.name.clone()) };
    let mut comp = m::build::comp_of(last);
    // A variable with linkage gets the ABI tags of its type that its scope
    // lacks, as a function gets its return type's (`std::string name;` is
    // `_Z4nameB5cxx11`); an internal one needs none.
    if !internal {
        let cx = ty::LowerCx { db, map: &map, item, scope: parent, env: None };
        comp.abi_tags = abi_tags::missing_tags(db, &map, scope, &[], ty::lower(cx, &data.ty));
    }
    let mut name = scope_name(db, &map, scope, &mut Budget::default())?;
    name.comps.push(comp);
    Ok(name)
}

/// The linkage name of a variable instance: a static data member of a
/// class template specialization, or a variable template specialization.
fn var_instance_name(db: &dyn SourceDatabase, i: crate::instances::VarInstanceId) -> Result<String, crate::SemaError> {
    m::symbol(&m::Encoding::Data(var_instance_name_tree(db, i)?)).map_err(crate::SemaError::from)
}

/// The name of a variable template specialization or a static data member
/// of a class template specialization, as a tree.
pub(crate) fn var_instance_name_tree(
    db: &dyn SourceDatabase,
    i: crate::instances::VarInstanceId,
) -> Result<m::Name, crate::SemaError> {
    let decl = i.decl(db);
    let data = decl.data(db).ok_or("no such variable")?;
    let item = decl.item(db);
    let map = def_map(db, item.tu(db));
    let mut name = match i.outer(db) {
        Some(o) => inst_name(db, &map, o.class(db), o.args(db), 0, &mut Budget::default())?,
        None => {
            let parent = match decl {
                crate::instances::VarDecl::Var(v) => map.parent.get(&DeclKey::Var(v)),
                crate::instances::VarDecl::Template(t) => map.parent.get(&DeclKey::VarTemplate(t)),
            }
            .copied()
            .unwrap_or(scopes::ROOT);
            let scope = crate::instances::decl_scope(db, &map, item, parent, data.qualifier.as_ref())
                .ok_or("unresolved qualifier")?;
            if map.templated.contains(&scope) {
                return Err("member of a template without its specialization".into());
            }
            scope_name(db, &map, scope, &mut Budget::default())?
        }
    };
    let args = i.args(db);
    let comp_args = if args.is_empty() {
        None
    } else {
        Some(args.iter().map(|a| targ(db, &map, a, &mut Budget::default())).collect::<Result<Vec<_>, _>>()?)
    };
    let member = i.outer(db).is_some() || data.qualifier.is_some();
    // A specialization of a variable template is named without `L` even
    // when the template has internal linkage (g++ 12 `nm`: `r _Z1vIiE` for
    // `template <class T> static constexpr bool v`); other instances of
    // namespace-scope const variables keep it.
    let internal = !matches!(decl, crate::instances::VarDecl::Template(_))
        && !member
        && !data.linkage.is_extern
        && !data.linkage.is_inline
        && (data.linkage.is_static || data.linkage.is_constexpr || data.is_const);
    let last =
        if internal { Unqualified::StaticSource(data.name.clone()) } else { Unqualified::Source(data.name.clone()) };
    name.comps.push(Component { name: last, abi_tags: Vec::new(), args: comp_args });
    Ok(name)
}

/// The linkage name of an implicit special member: the class's name, the
/// complete-object constructor or destructor, and its parameter
/// (`const C&`, `C&&`) for copy and move constructors.
/// The name of a class or of a class template specialization.
pub(crate) fn class_ref_name(
    db: &dyn SourceDatabase,
    map: &DefMap,
    c: crate::layout::ClassRef,
) -> Result<m::Name, crate::SemaError> {
    match c {
        crate::layout::ClassRef::Class(k) => class_name(db, map, map.class_definition(k), &mut Budget::default()),
        crate::layout::ClassRef::Inst(i) => inst_name(db, map, i.class(db), i.args(db), 0, &mut Budget::default()),
    }
}

fn special_name(db: &dyn SourceDatabase, sp: crate::instances::SpecialMemberId) -> Result<String, crate::SemaError> {
    use crate::instances::SpecialKind as S;
    let c = sp.class(db);
    let k = c.pattern(db);
    let map = def_map(db, k.tu(db));
    let mut name = match c {
        crate::layout::ClassRef::Class(k) => class_name(db, &map, map.class_definition(k), &mut Budget::default())?,
        crate::layout::ClassRef::Inst(i) => inst_name(db, &map, i.class(db), i.args(db), 0, &mut Budget::default())?,
    };
    let class_ty = m::Type::Named(name.clone());
    let (last, params) = match sp.kind(db) {
        S::DefaultCtor => (Unqualified::Ctor(m::CtorKind::Complete), Vec::new()),
        S::CopyCtor => (Unqualified::Ctor(m::CtorKind::Complete), vec![class_ty.konst().lref()]),
        S::MoveCtor => (Unqualified::Ctor(m::CtorKind::Complete), vec![class_ty.rref()]),
        S::Dtor => (Unqualified::Dtor(m::DtorKind::Complete), Vec::new()),
        S::CopyAssign => (Unqualified::Operator(m::Op::Assign), vec![class_ty.konst().lref()]),
        S::MoveAssign => (Unqualified::Operator(m::Op::Assign), vec![class_ty.rref()]),
    };
    name.comps.push(m::build::comp_of(last));
    let f = m::FnType {
        ret: m::Type::Builtin(m::Builtin::Void),
        params,
        variadic: false,
        quals: m::Quals::default(),
        ref_qual: m::RefQual::None,
        exception: m::ExceptionSpec::None,
    };
    m::mangle(&m::Encoding::Function(Box::new(name), Box::new(f))).map_err(crate::SemaError::from)
}

/// Whether a written type names a member of something that depends on
/// `names` (`T::x`, `A<T>::x`) or applies an alias template to them.
pub(crate) fn dependent_member(
    db: &dyn SourceDatabase,
    map: &DefMap,
    scope: ScopeIdx,
    t: &crate::item_tree::TypeRef,
    names: &[String],
) -> bool {
    use crate::item_tree::{TemplateArgRef, TypeRef};
    let mentions = |t: &TypeRef| -> bool {
        let mut v = Vec::new();
        crate::instances::typeref_names(t, &mut v);
        v.iter().any(|n| names.contains(n))
    };
    let arg_mentions = |a: &TemplateArgRef| -> bool {
        match a {
            TemplateArgRef::Type(t) => mentions(t),
            TemplateArgRef::Expansion(x) => {
                matches!(&**x, TemplateArgRef::Type(t) if mentions(t)) || matches!(&**x, TemplateArgRef::Expr(_))
            }
            // A value argument that depends on them is an expression: not modelled.
            TemplateArgRef::Expr(e) => expr_mentions(e, names),
        }
    };
    match t {
        TypeRef::Path(p) => {
            let n = p.segments.len();
            for (i, seg) in p.segments.iter().enumerate() {
                let dep =
                    (i == 0 && !p.global && names.contains(&seg.name)) || seg.args.iter().flatten().any(arg_mentions);
                if dep && i + 1 < n {
                    return true;
                }
                if dep
                    && i + 1 == n
                    && dependent::has_dependent_value_arg(seg.args.as_deref().unwrap_or(&[]), names, &[])
                {
                    // `X<is_x<T>::value>`: spelled as written (`symbols::dependent`).
                    return true;
                }
                if dep && i + 1 == n && seg.args.is_some() {
                    let mut q = p.clone();
                    for s in &mut q.segments {
                        s.args = None;
                    }
                    if matches!(scopes::resolve_path(db, map, scope, &q, Ns::Type), Some(Def::AliasTemplate(_)) | None)
                    {
                        return true;
                    }
                }
                for a in seg.args.iter().flatten() {
                    // An expansion's pattern too (`tuple<typename X<Ts>::type...>`).
                    let a = match a {
                        TemplateArgRef::Expansion(x) => &**x,
                        a => a,
                    };
                    if let TemplateArgRef::Type(t) = a
                        && dependent_member(db, map, scope, t, names)
                    {
                        return true;
                    }
                }
            }
            false
        }
        TypeRef::Ptr(x) | TypeRef::LRef(x) | TypeRef::RRef(x) | TypeRef::Cv(x, _) | TypeRef::Complex(x) => {
            dependent_member(db, map, scope, x, names)
        }
        TypeRef::Array(x, b) => {
            dependent_member(db, map, scope, x, names) || b.as_ref().is_some_and(|b| expr_mentions(b, names))
        }
        TypeRef::MemPtr(p, x) => {
            dependent_member(db, map, scope, &TypeRef::Path(p.clone()), names)
                || dependent_member(db, map, scope, x, names)
        }
        TypeRef::Func(f) => {
            dependent_member(db, map, scope, &f.ret, names)
                || f.params.iter().any(|p| dependent_member(db, map, scope, p, names))
        }
        TypeRef::Opaque(_) => true,
        _ => false,
    }
}

/// Whether a constant expression mentions one of `names`.
fn expr_mentions(e: &crate::item_tree::ConstExpr, names: &[String]) -> bool {
    use crate::item_tree::ConstExpr as E;
    match e {
        E::Int(..) => false,
        E::Path(p) => p.segments.iter().any(|s| names.contains(&s.name) || s.args.is_some()),
        E::Unary(_, x) | E::Cast(_, x) => expr_mentions(x, names),
        E::Binary(_, a, b) => expr_mentions(a, names) || expr_mentions(b, names),
        E::Cond(a, b, c) => expr_mentions(a, names) || expr_mentions(b, names) || expr_mentions(c, names),
        _ => true,
    }
}

/// Mangles a type written in a function template's signature that names a
/// member of something depending on the template's own parameters
/// (`names`, bound in `cx.env` to placeholders): kept as a dependent name
/// (`typename T::x` → `NT_1xE`, `A<T>::x` → `N1AIT_E1xE`), alias
/// templates expanded (as g++ does); everything else lowered and mangled.
fn mangle_written(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: ty::LowerCx<'_>,
    t: &crate::item_tree::TypeRef,
    names: &[String],
    depth: u32,
) -> Result<m::Type, crate::SemaError> {
    mangle_written_in(db, map, cx, t, names, &[], depth)
}

/// [`mangle_written`] inside an alias template's expansion, `sp` spelling
/// the alias parameters whose arguments are dependent (`dependent::Spelled`).
fn mangle_written_in(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: ty::LowerCx<'_>,
    t: &crate::item_tree::TypeRef,
    names: &[String],
    sp: &dependent::Spelled,
    depth: u32,
) -> Result<m::Type, crate::SemaError> {
    use crate::item_tree::TypeRef;
    if depth > 32 {
        return Err("alias expansion too deep".into());
    }
    if let Some(spelled) = dependent::spelled_type(t, sp) {
        return Ok(spelled);
    }
    if !dependent_member(db, map, cx.scope, t, names) && !dependent::type_mentions_spelled(t, sp) {
        return mangle_ty(db, map, ty::lower(cx, t));
    }
    Ok(match t {
        TypeRef::Ptr(x) => mangle_written_in(db, map, cx, x, names, sp, depth)?.ptr(),
        TypeRef::LRef(x) => mangle_written_in(db, map, cx, x, names, sp, depth)?.lref(),
        TypeRef::RRef(x) => mangle_written_in(db, map, cx, x, names, sp, depth)?.rref(),
        TypeRef::Cv(x, cv) => mangle_written_in(db, map, cx, x, names, sp, depth)?.qual(quals(*cv)),
        TypeRef::Path(p) => return mangle_written_path(db, map, cx, p, names, sp, depth),
        // `T (&)[N]` with `N` a value parameter: `A` `T_` `_` (CUB's `AliasTemporaries`).
        TypeRef::Array(x, Some(b)) => {
            let bound = match &**b {
                crate::item_tree::ConstExpr::Path(p) if p.segments.len() == 1 && !p.global => {
                    cx.env.and_then(|e| e.get(&p.segments[0].name))
                }
                _ => None,
            };
            match bound {
                Some(crate::templates::TemplateArg::ValueParam { depth: 0, index }) => m::Type::Array(
                    m::ArrayBound::Expr(Box::new(m::Expr::TParam(m::TParam(*index)))),
                    Box::new(mangle_written_in(db, map, cx, x, names, sp, depth)?),
                ),
                _ => return Err("a dependent type the model does not spell".into()),
            }
        }
        // `decltype(V)` of a value parameter (CUB's `constant_t<V>`, that
        // is `integral_constant<decltype(V), V>`): `Dt` `T_` `E`.
        TypeRef::Opaque(s) => {
            let operand =
                s.strip_prefix("decltype").map(str::trim).and_then(|x| x.strip_prefix('(')?.strip_suffix(')'));
            match operand.and_then(|n| cx.env.and_then(|e| e.get(n.trim()))) {
                Some(crate::templates::TemplateArg::ValueParam { depth: 0, index }) => {
                    m::Type::Decltype(Box::new(m::Expr::TParam(m::TParam(*index))))
                }
                _ => return Err("a dependent type the model does not spell".into()),
            }
        }
        _ => return Err("a dependent type the model does not spell".into()),
    })
}

fn mangle_written_path(
    db: &dyn SourceDatabase,
    map: &DefMap,
    cx: ty::LowerCx<'_>,
    p: &Path,
    names: &[String],
    sp: &dependent::Spelled,
    depth: u32,
) -> Result<m::Type, crate::SemaError> {
    use crate::item_tree::{PathSegment, TypeRef};
    let segs = &p.segments;
    // Members named after the dependent part: `::x`, `::template y<A>`.
    let rest_comps = |from: usize| -> Result<Vec<Component>, crate::SemaError> {
        segs[from..].iter().map(|s| dependent::member_comp(db, map, cx, s, names, sp, depth)).collect()
    };
    // `T::x`: rooted at the parameter.
    if let (false, Some(first)) = (p.global, segs.first())
        && names.contains(&first.name)
        && first.args.is_none()
        && segs.len() > 1
    {
        let single = TypeRef::Path(Path::single(&first.name));
        let base = match dependent::spelled_type(&single, sp) {
            Some(t) => t,
            None => mangle_ty(db, map, ty::lower(cx, &single))?,
        };
        return match base {
            m::Type::Param(tp) => Ok(m::Type::Named(m::Name { root: m::Root::Param(tp), comps: rest_comps(1)? })),
            // `typename F::difference_type` with `F` an alias parameter
            // standing for `iterator_facade<T…>`: a member of that.
            m::Type::Named(mut n) => {
                n.comps.extend(rest_comps(1)?);
                Ok(m::Type::Named(n))
            }
            _ => Err("a member of a dependent type".into()),
        };
    }
    // The first template-id whose arguments depend on the parameters.
    let mentions = |s: &PathSegment| {
        s.args.iter().flatten().any(|a| match a {
            crate::item_tree::TemplateArgRef::Type(t) => {
                let mut v = Vec::new();
                crate::instances::typeref_names(t, &mut v);
                v.iter().any(|n| names.contains(n))
            }
            _ => true,
        })
    };
    let Some(i) = segs.iter().position(mentions) else {
        return mangle_ty(db, map, ty::lower(cx, &TypeRef::Path(p.clone())));
    };
    let mut bare = Path { global: p.global, segments: segs[..=i].to_vec() };
    for s in &mut bare.segments {
        s.args = None;
    }
    match scopes::resolve_path(db, map, cx.scope, &bare, Ns::Type) {
        Some(Def::AliasTemplate(td)) => {
            // Expanded: its parameters bound to the written arguments
            // (lowered here), its type read where it is declared.
            let tree = item_tree_of(db, td.item(db));
            let alias = tree.typedefs.get(td.idx(db) as usize).ok_or("no such alias")?;
            let params = alias.tparams.clone().unwrap_or_default();
            let written = segs[i].args.clone().unwrap_or_default();
            let bound = crate::templates::alias::bind_args(cx, td, &written)?;
            // Arguments the lowering cannot keep (dependent types,
            // expressions of the parameters) are spelled here, where they are written.
            let inner_sp = dependent::spell_alias_args(db, map, cx, &params, &bound, &written, names, sp, depth)?;
            let mut env = cx.env.cloned().unwrap_or_default();
            let mut inner_names = Vec::new();
            for (prm, a) in params.iter().zip(bound) {
                if let Some(n) = &prm.name {
                    env.names.push((n.clone(), a));
                    inner_names.push(n.clone());
                }
            }
            let parent = map.parent.get(&DeclKey::Typedef(td)).copied().unwrap_or(scopes::ROOT);
            let acx = ty::LowerCx { db, map, item: td.item(db), scope: parent, env: Some(&env) };
            let expanded = mangle_written_in(db, map, acx, &alias.ty, &inner_names, &inner_sp, depth + 1)?;
            if i + 1 == segs.len() {
                return Ok(expanded);
            }
            match expanded {
                m::Type::Named(mut n) => {
                    n.comps.extend(rest_comps(i + 1)?);
                    Ok(m::Type::Named(n))
                }
                m::Type::Param(tp) => {
                    Ok(m::Type::Named(m::Name { root: m::Root::Param(tp), comps: rest_comps(i + 1)? }))
                }
                _ => Err("a member of a dependent type".into()),
            }
        }
        Some(Def::ClassTemplate(c)) => {
            // `A<T>::x`: the template-id (defaults filled in), then the member.
            let prefix = Path { global: p.global, segments: segs[..=i].to_vec() };
            let lowered = ty::canonical(db, ty::lower(cx, &TypeRef::Path(prefix)));
            // A value argument that is an expression of the parameters
            // (`enable_if<is_x<T>::value>`) lowers to a dependent type: spelled as written.
            let written = segs[i].args.as_deref().unwrap_or(&[]);
            // So is one whose pack takes a dependent member (`tuple<typename X<Ts>::type...>`).
            let dependent = matches!(lowered.kind(db), TyKind::Dependent(_))
                || matches!(lowered.kind(db), TyKind::App(a) if a.args(db).iter().any(|x| dependent::has_dependent_element(db, x)))
                || dependent::has_dependent_value_arg(written, names, sp)
                || written.iter().any(|w| dependent::written_member_arg(db, map, cx.scope, w, names))
                // An alias parameter spelled where the alias is used
                // (`rv_t<rc_t<T>>`: `rv`'s `_Tp` is `typename rc<T>::type`,
                // which the lowering would resolve through `rc`'s primary).
                || written.iter().any(|w| match w {
                    crate::item_tree::TemplateArgRef::Type(t) => dependent::type_mentions_spelled(t, sp),
                    _ => false,
                });
            let named = if dependent && segs[..i].iter().all(|s| s.args.is_none()) {
                m::Type::Named(dependent::template_id(db, map, cx, c, written, names, sp, depth)?)
            } else {
                mangle_ty(db, map, lowered)?
            };
            if i + 1 == segs.len() {
                return Ok(named);
            }
            match named {
                m::Type::Named(mut n) => {
                    n.comps.extend(rest_comps(i + 1)?);
                    Ok(m::Type::Named(n))
                }
                _ => Err("a member of a dependent type".into()),
            }
        }
        _ => mangle_ty(db, map, ty::lower(cx, &TypeRef::Path(p.clone()))),
    }
}
