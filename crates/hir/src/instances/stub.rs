//! The functions the host object holds because a kernel is launched from
//! it: what cudafe++'s host file and cicc's stub file (`x.cudafe1.stub.c`,
//! spec 30 §3.4) define for each kernel, and g++ then names.
//!
//! - A kernel template's host body calls `__wrapper__device_stub_<k><args>`,
//!   a `static` function template cudafe++ declares beside the kernel (same
//!   scope, same template head) taking each parameter as an lvalue
//!   reference to its declared type (`const T x` → `const T &`; an array
//!   parameter stays an array, i.e. a pointer); the stub file defines one
//!   explicit specialization per kernel instance.
//! - The stub passes each argument of class type (`struct`/`class`, not
//!   `union`: those go by `__cudaSetupArgSimple`, as scalars do) with
//!   `__cudaSetupArg`, i.e. `__cudaAddressOf<T>(T &)`, `T` the
//!   parameter's type with its cv (`const Image` → `__cudaAddressOf<const
//!   Image>`), from `crt/host_runtime.h`:
//!   `template <typename T> static inline T *__cudaAddressOf(T &val)`.
//!   That header is included by the stub only, so the template is not in
//!   the unit: its specializations are named from that declaration here.
//!
//! Both are names from the general mangler (`symbols`' function template
//! mangling for the wrappers, a tree for `__cudaAddressOf`); the stubs
//! themselves (`__device_stub__Z…`) and registration are runtime plumbing
//! no one calls by name.
//!
//! Invariants: errors are values; nothing here walks more than one
//! kernel's parameter list.

use cufront_base_db::SourceDatabase;
use cufront_mangle as m;

use crate::item_tree::{ClassKey, FnData, FnName, TypeRef};
use crate::scopes::def_map;
use crate::templates::ClassRefT;
use crate::ty::{self, LowerCx, TyId, TyKind, canonical};
use crate::{Entity, item_tree_of};

use super::{FnDecl, FnInstanceId};

/// What a stub adds for a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StubKind {
    /// `__wrapper__device_stub_<k><args>` of a kernel template instance.
    Wrapper(FnInstanceId),
    /// `__cudaAddressOf<T>`: `T` a class type, cv included.
    AddressOf(TyId),
}

/// A function the kernel stubs bring into the host object.
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct StubEntityId {
    #[returns(copy)]
    pub kind: StubKind,
}

/// The kernel's declaration, when `e` is a kernel (`__global__`) defined
/// in the unit or an instance of a kernel template the unit defines: what
/// gets a stub.
pub fn kernel_decl(db: &dyn SourceDatabase, e: Entity) -> Option<FnData> {
    let (decl, outer) = match e {
        Entity::Fn(f) => (FnDecl::Fn(f), None),
        Entity::FnInst(i) => (i.decl(db), i.outer(db)),
        _ => return None,
    };
    let data = decl.data(db)?;
    if !data.linkage.kernel() || outer.is_some() {
        return None;
    }
    super::fn_definition(db, decl)?;
    Some(FnData::clone(&data))
}

/// What the stubs of kernel `e` require (nothing when `e` is no kernel):
/// the wrapper of a template instance, then `__cudaAddressOf<T>` for each
/// class-typed parameter, in parameter order.
pub fn kernel_stub_entities(db: &dyn SourceDatabase, e: Entity) -> Vec<Entity> {
    let Some(data) = kernel_decl(db, e) else { return Vec::new() };
    let mut out = Vec::new();
    let params: Vec<TyId> = match e {
        Entity::FnInst(i) => {
            if !i.args(db).is_empty() {
                out.push(Entity::Stub(StubEntityId::new(db, StubKind::Wrapper(i))));
            }
            match super::signature(db, i) {
                Ok(sig) => sig.params,
                Err(_) => Vec::new(),
            }
        }
        Entity::Fn(f) => {
            let map = def_map(db, f.item(db).tu(db));
            let Some(scope) = super::fn_scope(db, FnDecl::Fn(f)) else { return out };
            let cx = LowerCx { db, map: &map, item: f.item(db), scope, env: None };
            data.ty.params.iter().map(|p| ty::lower(cx, p)).collect()
        }
        _ => Vec::new(),
    };
    for p in params {
        if let Some(t) = setup_arg_type(db, p) {
            let x = Entity::Stub(StubEntityId::new(db, StubKind::AddressOf(t)));
            if !out.contains(&x) {
                out.push(x);
            }
        }
    }
    out
}

/// The `T` of `__cudaAddressOf<T>` for a kernel parameter of type `p`
/// (as declared, after substitution), when the stub passes it with
/// `__cudaSetupArg`: a `struct` or `class` type, cv kept (typedefs
/// resolved: `T` is a template argument).
pub fn setup_arg_type(db: &dyn SourceDatabase, p: TyId) -> Option<TyId> {
    let t = canonical(db, p);
    let bare = match t.kind(db) {
        TyKind::Qualified(x, _) => canonical(db, *x),
        _ => t,
    };
    // A closure type is a class (the device view's extended lambdas: the
    // host has their wrapper classes).
    if matches!(bare.kind(db), TyKind::Closure(_)) {
        return Some(t);
    }
    if !matches!(bare.kind(db), TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_)) {
        return None;
    }
    let class = super::class_of_object(db, bare)?;
    let k = match class {
        ClassRefT::Class(k) => k,
        ClassRefT::Inst(i) => i.class(db),
    };
    let tree = item_tree_of(db, k.item(db));
    let key = tree.classes.get(k.idx(db) as usize)?.key;
    (key != ClassKey::Union).then_some(t)
}

/// The declaration cudafe++ gives a kernel template's wrapper: the
/// kernel's, renamed, `static`, returning `void`, each parameter an lvalue
/// reference to its declared type (arrays kept: they decay).
pub fn wrapper_data(kernel: &FnData) -> Result<FnData, crate::SemaError> {
    let FnName::Ident(name) = &kernel.name else { return Err("a kernel is named by an identifier".into()) };
    let mut w = kernel.clone();
    w.name = FnName::Ident(format!("__wrapper__device_stub_{name}"));
    w.linkage.is_static = true;
    w.linkage.cuda.global = false;
    w.ty.ret = TypeRef::Builtin(crate::item_tree::Builtin::Void);
    for p in &mut w.ty.params {
        if !matches!(p, TypeRef::Array(..)) {
            *p = TypeRef::LRef(Box::new(p.clone()));
        }
    }
    Ok(w)
}

/// The linkage name of a stub entity, as g++ spells it.
pub fn stub_entity_name(db: &dyn SourceDatabase, id: StubEntityId) -> Result<String, crate::SemaError> {
    match id.kind(db) {
        StubKind::Wrapper(i) => {
            let data = i.decl(db).data(db).ok_or("no such function")?;
            crate::symbols::fn_instance_encoding_as(db, i, &wrapper_data(&data)?)?.mangle()
        }
        StubKind::AddressOf(t) => {
            let map = def_map(db, address_of_unit(db, t)?);
            let targ = crate::symbols::mangle_ty(db, &map, t)?;
            let param = m::Type::Param(m::TParam(0));
            let name = m::Name {
                root: m::Root::Global,
                comps: vec![m::Component {
                    name: m::Unqualified::Source("__cudaAddressOf".into()),
                    abi_tags: Vec::new(),
                    args: Some(vec![m::TArg::Type(targ)]),
                }],
            };
            let f = m::FnType {
                ret: param.clone().ptr(),
                params: vec![param.lref()],
                variadic: false,
                quals: m::Quals::NONE,
                ref_qual: m::RefQual::None,
                exception: m::ExceptionSpec::None,
            };
            m::mangle(&m::Encoding::Function(Box::new(name), Box::new(f))).map_err(crate::SemaError::from)
        }
    }
}

/// The unit a class type belongs to (for its scope graph).
fn address_of_unit(db: &dyn SourceDatabase, t: TyId) -> Result<cufront_base_db::TranslationUnit, crate::SemaError> {
    let bare = match canonical(db, t).kind(db) {
        TyKind::Qualified(x, _) => canonical(db, *x),
        _ => canonical(db, t),
    };
    match super::class_of_object(db, bare).ok_or("not a class type")? {
        ClassRefT::Class(k) => Ok(k.tu(db)),
        ClassRefT::Inst(i) => Ok(i.class(db).tu(db)),
    }
}
