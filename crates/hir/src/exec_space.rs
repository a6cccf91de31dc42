//! Execution spaces of the unit's functions (spec 20 §3): the CUDA
//! attributes of every declaration of a function, merged (an attribute on
//! any declaration applies to the function: `__device__ void f(); void f()
//! {}` stays device-only), and the space they give.
//!
//! The attributes are read once per declaration by `cufront_cuda::attrs`
//! (the item tree's `Linkage::cuda`); redeclarations are the declarations
//! of the same scope and name with the same parameter types, matched as
//! `instances::fn_definition` matches a definition to its declaration.
//! A friend declaration without a body (`friend __device__ int f(S);`)
//! declares a function of the enclosing namespace: its attributes and
//! `constexpr` count too (`friend_decls`), though it is no declaration the
//! model lowers on its own; a friend a class body defines merges with the
//! declarations of that namespace. Names that no declaration marks with
//! an attribute (or `constexpr`) skip the matching (`marked_names`), and
//! what matching compares of a declaration is computed once
//! (`redecl_shape`): the printer asks about every function of the unit.
//!
//! Invariants: no offsets are read (an edit inside a body re-runs nothing
//! here); an entity the model cannot place (an implicit special member, a
//! closure member) has no space (`None`): checks stay silent for it.

use cufront_base_db::{SourceDatabase, TranslationUnit};
pub use cufront_cuda::{CudaAttrs, ExecSpace};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::instances::{self, FnDecl};
use crate::item_tree::FnData;
use crate::scopes::{self, ScopeIdx, ScopeKind, def_map};
use crate::{ClassId, Entity};

/// The CUDA attributes of `decl` merged over its redeclarations in the
/// unit. A function whose name no declaration marks (`marked_names`) has
/// its own (none), without a query of its own.
pub fn fn_attrs(db: &dyn SourceDatabase, decl: FnDecl) -> CudaAttrs {
    let Some(data) = decl.data(db) else { return CudaAttrs::default() };
    let mut attrs = if !marked_names(db, decl.tu(db)).cuda.contains(&scopes::fn_name_key(&data.name)) {
        data.linkage.cuda
    } else {
        *merged_attrs(db, decl)
    };
    // A `consteval` function runs only at compile time: EDG lets either
    // side call it (checked against the real nvcc: a kernel calling one is
    // accepted by both passes).
    if data.linkage.is_consteval && !attrs.host && !attrs.device && !attrs.global {
        attrs.host = true;
        attrs.device = true;
    }
    attrs
}

#[salsa::tracked]
fn merged_attrs(db: &dyn SourceDatabase, decl: FnDecl) -> CudaAttrs {
    let Some(data) = decl.data(db) else { return CudaAttrs::default() };
    let mut attrs = data.linkage.cuda;
    for other in redeclarations(db, decl) {
        if let Some(d) = other.data(db) {
            attrs = attrs.merge(d.linkage.cuda);
        }
    }
    friend_redeclarations(db, decl, &mut |f| attrs = attrs.merge(f.linkage.cuda));
    attrs
}

/// Where `decl` runs.
pub fn fn_exec_space(db: &dyn SourceDatabase, decl: FnDecl) -> ExecSpace {
    ExecSpace::from_attrs(&fn_attrs(db, decl))
}

/// Whether `decl` is a kernel (`fn_exec_space` is `Global`), without
/// merging the attributes of a function no declaration of whose name is
/// `__global__`.
pub fn fn_is_kernel(db: &dyn SourceDatabase, decl: FnDecl) -> bool {
    let Some(data) = decl.data(db) else { return false };
    marked_names(db, decl.tu(db)).global.contains(&scopes::fn_name_key(&data.name))
        && fn_exec_space(db, decl) == ExecSpace::Global
}

/// Where a function entity runs; `None` for entities whose space follows
/// from what they call (implicit special members, inherited constructors)
/// or that are no declarations of the unit (closure members, stubs).
pub fn exec_space(db: &dyn SourceDatabase, e: Entity) -> Option<ExecSpace> {
    let decl = match e {
        Entity::Fn(f) => FnDecl::Fn(f),
        Entity::FnInst(i) => i.decl(db),
        Entity::Intrinsic(_) => return Some(ExecSpace::Device),
        _ => return None,
    };
    // A function defaulted without an annotation gets its space as an
    // implicit special member does, from what it calls (`__half2() =
    // default;` is callable from device code).
    let attrs = fn_attrs(db, decl);
    if decl.data(db).is_some_and(|d| d.defaulted) && !attrs.host && !attrs.device && !attrs.global {
        return None;
    }
    Some(ExecSpace::from_attrs(&attrs))
}

/// Whether `decl` is declared `constexpr` on any of its declarations.
pub fn fn_is_constexpr(db: &dyn SourceDatabase, decl: FnDecl) -> bool {
    let Some(data) = decl.data(db) else { return false };
    if data.linkage.is_constexpr {
        return true;
    }
    if !marked_names(db, decl.tu(db)).constexpr.contains(&scopes::fn_name_key(&data.name)) {
        return false;
    }
    if redeclarations(db, decl).into_iter().any(|o| o.data(db).is_some_and(|d| d.linkage.is_constexpr)) {
        return true;
    }
    let mut friend = false;
    friend_redeclarations(db, decl, &mut |f| friend |= f.linkage.is_constexpr);
    friend
}

/// The name keys (`scopes::fn_name_key`) of the unit's functions that
/// some declaration gives a CUDA attribute, and of those that some
/// declaration makes `constexpr`: a function named otherwise has nothing
/// to merge, and its redeclarations are not matched (most functions of a
/// unit, nearly all of its system headers').
#[derive(Debug, Default, PartialEq, Eq)]
pub struct MarkedNames {
    pub cuda: FxHashSet<String>,
    /// Those that some declaration makes `__global__`: a kernel is one of
    /// them, and the printer asks of every function whether it is one.
    pub global: FxHashSet<String>,
    pub constexpr: FxHashSet<String>,
}

#[salsa::tracked(returns(ref))]
pub fn marked_names(db: &dyn SourceDatabase, tu: TranslationUnit) -> MarkedNames {
    let mut out = MarkedNames::default();
    let mut add = |f: &FnData| {
        if f.linkage.cuda != CudaAttrs::default() {
            out.cuda.insert(scopes::fn_name_key(&f.name));
        }
        if f.linkage.cuda.global {
            out.global.insert(scopes::fn_name_key(&f.name));
        }
        if f.linkage.is_constexpr {
            out.constexpr.insert(scopes::fn_name_key(&f.name));
        }
    };
    for &item in crate::item_ids(db, tu).iter() {
        let tree = crate::item_tree_of(db, item);
        tree.fns.iter().for_each(&mut add);
        tree.fn_templates.iter().for_each(|t| add(&t.f));
        tree.classes.iter().flat_map(|c| &c.friend_decls).for_each(&mut add);
    }
    out
}

/// Friend declarations without a body (`ClassData::friend_decls`) by the
/// namespace whose function they declare (the innermost one enclosing the
/// class) and the function's name key: (class, index into its list).
#[salsa::tracked(returns(ref))]
pub fn friend_decls(
    db: &dyn SourceDatabase,
    tu: TranslationUnit,
) -> FxHashMap<(ScopeIdx, String), Vec<(ClassId, u32)>> {
    let map = def_map(db, tu);
    let mut out: FxHashMap<(ScopeIdx, String), Vec<(ClassId, u32)>> = FxHashMap::default();
    for &item in crate::item_ids(db, tu).iter() {
        let tree = crate::item_tree_of(db, item);
        for (i, class) in tree.classes.iter().enumerate().filter(|(_, c)| !c.friend_decls.is_empty()) {
            let c = ClassId::new(db, item, i as u32);
            let Some(&cs) = map.class_scope.get(&c) else { continue };
            let ns = enclosing_namespace(&map, cs);
            for (j, f) in class.friend_decls.iter().enumerate() {
                out.entry((ns, scopes::fn_name_key(&f.name))).or_default().push((c, j as u32));
            }
        }
    }
    out
}

/// The innermost namespace (or the global scope) around `scope`.
fn enclosing_namespace(map: &scopes::DefMap, mut scope: ScopeIdx) -> ScopeIdx {
    while let ScopeKind::Class(_) | ScopeKind::Enum(_) | ScopeKind::Block(_) = map.scope(scope).kind {
        let Some(p) = map.scope(scope).parent else { break };
        scope = p;
    }
    scope
}

/// Calls `found` with each declaration of the (non-template) function
/// `decl` that involves a friend: the friend declarations without a body
/// that declare it, and for a friend a class body defines (a hidden
/// friend, a member of the enclosing namespace that no scope names) the
/// declarations of that namespace too.
fn friend_redeclarations(db: &dyn SourceDatabase, decl: FnDecl, found: &mut dyn FnMut(&FnData)) {
    let FnDecl::Fn(_) = decl else { return };
    let Some(data) = decl.data(db) else { return };
    let tu = decl.tu(db);
    let map = def_map(db, tu);
    let key = scopes::fn_name_key(&data.name);
    let scope = if data.friend {
        let ns = enclosing_namespace(&map, decl.parent(db, &map));
        let mut cands: Vec<FnDecl> = map.qualified_fns.get(&(ns, key.clone())).cloned().unwrap_or_default();
        cands.extend(map.scope(ns).names.get(&key).into_iter().flatten().filter_map(instances::def_fn));
        for c in cands.into_iter().filter(|c| matches!(c, FnDecl::Fn(_))) {
            if let Some(cd) = c.data(db).filter(|cd| same_signature(cd, &data)) {
                found(&cd);
            }
        }
        ns
    } else {
        let Some(s) = instances::decl_scope(db, &map, decl.item(db), decl.parent(db, &map), data.qualifier.as_ref())
        else {
            return;
        };
        s
    };
    let friends = friend_decls(db, tu);
    for &(c, j) in friends.get(&(scope, key)).into_iter().flatten() {
        let tree = crate::item_tree_of(db, c.item(db));
        let Some(f) = tree.classes.get(c.idx(db) as usize).and_then(|k| k.friend_decls.get(j as usize)) else {
            continue;
        };
        if same_signature(f, &data) {
            found(f);
        }
    }
}

/// Whether two non-template declarations declare the same function type:
/// parameters compared without their top-level qualifiers, which are not
/// part of it (glibc's `printf(const char *__restrict, ...)` and CUDA's
/// `__host__ __device__ printf(const char*, ...)` are one function).
fn same_signature(a: &FnData, b: &FnData) -> bool {
    a.ty.params.len() == b.ty.params.len()
        && a.ty.cv == b.ty.cv
        && a.ty.ref_qual == b.ty.ref_qual
        && a.ty.params.iter().zip(&b.ty.params).all(|(x, y)| unqualified(x) == unqualified(y))
}

/// A parameter's written type without its top-level cv and `__restrict`.
fn unqualified(t: &crate::item_tree::TypeRef) -> &crate::item_tree::TypeRef {
    match t {
        crate::item_tree::TypeRef::Cv(x, _) => unqualified(x),
        _ => t,
    }
}

/// The other declarations of the function `decl` declares: same scope
/// (out-of-line ones included), same name, same kind of template head and
/// the same written parameter types (template parameters by position).
pub fn redeclarations(db: &dyn SourceDatabase, decl: FnDecl) -> Vec<FnDecl> {
    let Some(data) = decl.data(db) else { return Vec::new() };
    let map = def_map(db, decl.tu(db));
    let Some(scope) = instances::decl_scope(db, &map, decl.item(db), decl.parent(db, &map), data.qualifier.as_ref())
    else {
        return Vec::new();
    };
    let key = scopes::fn_name_key(&data.name);
    let mut cands: Vec<FnDecl> = map.qualified_fns.get(&(scope, key.clone())).cloned().unwrap_or_default();
    cands.extend(map.scope(scope).names.get(&key).into_iter().flatten().filter_map(instances::def_fn));
    let shape = redecl_shape(db, decl);
    let mut out: Vec<FnDecl> = Vec::new();
    for c in cands {
        if c == decl || out.contains(&c) || matches!(c, FnDecl::Template(_)) != matches!(decl, FnDecl::Template(_)) {
            continue;
        }
        let Some(cd) = c.data(db) else { continue };
        if cd.ty.params.len() != data.ty.params.len() || cd.ty.cv != data.ty.cv || cd.ty.ref_qual != data.ty.ref_qual {
            continue;
        }
        let other = redecl_shape(db, c);
        if other.head != shape.head {
            continue;
        }
        let renamed = shape.positional.is_some() && other.positional == shape.positional;
        if same_signature(&cd, &data) || renamed {
            out.push(c);
        }
    }
    out
}

/// What matching redeclarations compares of one declaration besides its
/// signature, computed once per declaration (a name can have hundreds of
/// overloads, each compared with each): the kinds and pack-ness of its
/// template head (`instances::redecl::same_head_kinds`), and for a template its
/// parameters' written types with each template parameter replaced by its
/// position (`instances::redecl::same_params_renamed`).
#[derive(Debug, PartialEq, Eq)]
pub struct RedeclShape {
    head: Vec<(u8, bool)>,
    positional: Option<String>,
}

#[salsa::tracked(returns(ref))]
fn redecl_shape(db: &dyn SourceDatabase, decl: FnDecl) -> RedeclShape {
    use crate::item_tree::TemplateParamKind as K;
    let tparams = decl.tparams(db);
    let head = tparams
        .iter()
        .map(|p| {
            let kind = match p.kind {
                K::Type => 0,
                K::Value(_) => 1,
                K::Template => 2,
            };
            (kind, p.pack)
        })
        .collect();
    let positional = if tparams.is_empty() {
        None
    } else {
        decl.data(db).map(|d| instances::positional_text(format!("{:?}", d.ty.params), &tparams))
    };
    RedeclShape { head, positional }
}
