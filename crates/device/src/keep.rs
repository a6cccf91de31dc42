//! The keep set (spec 40 §4), as far as it is modelled: the roots the stub
//! registers — kernels defined in the unit, kernel template instances the
//! unit's code reaches (`hir::instances::required_entities`), and
//! namespace-scope device variables (kept whatever their linkage, even
//! unreferenced; `__shared__` ones as cicc keeps them: definitions with
//! external linkage always, `extern` and internal ones when referenced) — then the `__device__` and `__host__ __device__`
//! functions and instances the unit's needed code reaches ([`closure`]).
//! Not yet: types, vtables, block-scope `__shared__` variables, implicit
//! special members, closures' `operator()`.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_hir::Entity;
use cufront_hir::body::LocalId;
use cufront_hir::instances::LocalStaticId;
use rustc_hash::FxHashSet;

use crate::closure::device_closure;
use crate::{registry, space, vtables};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeepReason {
    Kernel,
    KernelInstance,
    DeviceVariable,
    /// A virtual table (or VTT, or a type-information class's vtable) of
    /// a class this constructor constructs.
    Vtable(Entity),
    /// Reached from the needed code: the entity whose body references it
    /// (`None`: defined in the unit, external and not inline).
    Reached(Option<Entity>),
}

/// One kept entity: what it is, its device name, why it is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    pub entity: Entity,
    /// `kernel`, `function` or `variable`.
    pub kind: &'static str,
    pub name: String,
    pub reason: KeepReason,
}

/// What the kept set and its names depend on besides the unit: cicc's
/// options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KeepOptions {
    /// The module id, for anonymous namespaces, internal names and
    /// `-rdc`'s `__nv_static_` prefixes.
    pub module_id: String,
    /// `--device-c` (`-rdc=true`).
    pub device_c: bool,
    /// `--relaxed_constexpr` (nvcc's `--expt-relaxed-constexpr`):
    /// unannotated `constexpr` functions are `__host__ __device__`.
    pub relaxed_constexpr: bool,
}

/// The kept entities with their device names.
pub fn kept(db: &dyn SourceDatabase, tu: TranslationUnit, opts: &KeepOptions) -> Arc<Vec<Kept>> {
    kept_with(db, tu, opts.clone())
}

/// [`kept`] as a query (the device IL's per-function queries read it).
#[salsa::tracked(returns(clone))]
fn kept_with(db: &dyn SourceDatabase, tu: TranslationUnit, opts: KeepOptions) -> Arc<Vec<Kept>> {
    let (mid, device_c) = (opts.module_id.as_str(), opts.device_c);
    let mut out = Vec::new();
    for k in registry::kernels(db, tu).iter() {
        let (Ok(host), Ok(cxx)) = (k.host_name.clone(), k.cxx_name.clone()) else { continue };
        // C linkage: the plain name.
        let name = if host.starts_with("_Z") { cufront_hir::symbols::with_module_id(&cxx, mid) } else { host };
        let name = if k.internal && device_c { cufront_mangle::cuda::nv_static(mid, &name) } else { name };
        let reason = if k.template { KeepReason::KernelInstance } else { KeepReason::Kernel };
        out.push(Kept { entity: k.entity, kind: "kernel", name, reason });
    }
    for v in registry::device_vars(db, tu).iter() {
        let Ok(name) = v.linkage_name.clone() else { continue };
        let name = registry::device_var_name(&cufront_hir::symbols::with_module_id(&name, mid), mid, device_c);
        out.push(Kept { entity: v.entity, kind: "variable", name, reason: KeepReason::DeviceVariable });
    }
    let mut names: FxHashSet<String> = out.iter().map(|k: &Kept| k.name.clone()).collect();
    let closure = device_closure(db, tu);
    for (e, name) in namespace_shared_vars(db, tu, &closure) {
        let name = registry::device_var_name(&cufront_hir::symbols::with_module_id(&name, mid), mid, device_c);
        if names.insert(name.clone()) {
            out.push(Kept { entity: e, kind: "variable", name, reason: KeepReason::DeviceVariable });
        }
    }
    for &(e, from) in closure.iter() {
        let is_kernel = cufront_hir::exec_space::exec_space(db, e) == Some(cufront_hir::exec_space::ExecSpace::Global);
        if is_kernel || space::is_device_fn(db, e, opts.relaxed_constexpr) {
            for (v, name) in block_scope_device_vars(db, e, mid, is_kernel) {
                let name = registry::device_var_name(&name, mid, device_c);
                if names.insert(name.clone()) {
                    out.push(Kept { entity: v, kind: "variable", name, reason: KeepReason::Reached(Some(e)) });
                }
            }
        }
        if is_kernel || !space::is_device_fn(db, e, opts.relaxed_constexpr) {
            continue;
        }
        let Ok(name) = cufront_hir::symbols::device_linkage_name(db, e, mid) else { continue };
        if names.insert(name.clone()) {
            out.push(Kept { entity: e, kind: "function", name, reason: KeepReason::Reached(from) });
        }
        // A constructor is emitted as its complete- and base-object variants.
        if let Some(base) = cufront_hir::symbols::device_base_ctor_name(db, e, mid)
            && names.insert(base.clone())
        {
            out.push(Kept { entity: e, kind: "function", name: base, reason: KeepReason::Reached(from) });
        }
    }
    // The vtables of the polymorphic classes needed code constructs.
    for &(e, _) in closure.iter() {
        let Some(c) = vtables::constructed_class(db, e) else { continue };
        for name in vtables::class_tables(db, c) {
            let name = cufront_hir::symbols::with_module_id(&name, mid);
            if names.insert(name.clone()) {
                out.push(Kept { entity: e, kind: "variable", name, reason: KeepReason::Vtable(e) });
            }
        }
    }
    Arc::new(out)
}

/// The namespace-scope `__shared__` variables cicc keeps: a definition
/// with external linkage always (as the other memory spaces), an `extern`
/// declaration or an internal one only when the needed code references it
/// (checked against cicc: `extern __shared__ float a[];` unreferenced is
/// dropped, `__shared__ int b;` unreferenced is kept).
fn namespace_shared_vars(
    db: &dyn SourceDatabase,
    tu: TranslationUnit,
    closure: &[(Entity, Option<Entity>)],
) -> Vec<(Entity, String)> {
    let referenced: FxHashSet<Entity> = closure.iter().map(|&(e, _)| e).collect();
    let map = cufront_hir::def_map(db, tu);
    let mut out: Vec<(Entity, String)> = Vec::new();
    for &e in map.entities.iter() {
        let Entity::Var(v) = e else { continue };
        let tree = cufront_hir::item_tree_of(db, v.item(db));
        let Some(data) = tree.vars.get(v.idx(db) as usize) else { continue };
        if !data.linkage.cuda.shared || data.qualifier.is_some() {
            continue;
        }
        let parent =
            map.parent.get(&cufront_hir::scopes::DeclKey::Var(v)).copied().unwrap_or(cufront_hir::scopes::ROOT);
        if cufront_hir::instances::is_class_scope(&map, parent) {
            continue;
        }
        let Ok(name) = cufront_hir::symbols::source_linkage_name(db, e) else { continue };
        let declaration_only = data.linkage.is_extern && !data.linkage.is_definition;
        let internal = data.linkage.is_static || name.starts_with("_ZL") || name.contains("_GLOBAL__N_");
        if (declaration_only || internal) && !referenced.contains(&e) {
            continue;
        }
        // A variable declared again: once, under its first declaration.
        if out.iter().any(|(_, n)| *n == name) {
            continue;
        }
        out.push((e, name));
    }
    out
}

/// The block-scope variables of device function (or kernel) `e` that cicc
/// hoists to file scope (spec 40 §4.2): its `__shared__` variables and
/// its `static` ones with a device memory space, when the body refers to
/// them (an unreferenced `__shared__` is dropped), under their local
/// linkage names (`_ZZ1kPiE2sh`), nested in the function's device name
/// (a `static` kernel's without g++'s `L`). `extern __shared__` arrays
/// declare no local of the body and are not found here.
fn block_scope_device_vars(db: &dyn SourceDatabase, e: Entity, mid: &str, kernel: bool) -> Vec<(Entity, String)> {
    let Some(owner) = cufront_hir::instances::body_owner(db, e) else { return Vec::new() };
    let body = cufront_hir::infer::owner_body(db, owner);
    let spaced: Vec<LocalId> = (0..body.locals.len() as u32)
        .map(LocalId)
        .filter(|&l| {
            let c = &body.local(l).cuda;
            c.shared || c.device || c.constant || c.managed
        })
        .collect();
    if spaced.is_empty() {
        return Vec::new();
    }
    // The host encoding of the function, and the device's.
    let host = cufront_hir::symbols::mangled_name(db, e).ok();
    let device = if kernel {
        cufront_hir::symbols::device_kernel_name(db, e, mid)
    } else {
        cufront_hir::symbols::device_linkage_name(db, e, mid)
    };
    let encodings = host
        .zip(device.ok())
        .and_then(|(h, d)| Some((h.strip_prefix("_Z")?.to_string(), d.strip_prefix("_Z")?.to_string())));
    let r = cufront_hir::infer::infer(db, owner);
    let used: FxHashSet<LocalId> = r
        .resolutions
        .values()
        .filter_map(|res| match res {
            cufront_hir::infer::Resolution::Local(l) => Some(*l),
            _ => None,
        })
        .collect();
    spaced
        .into_iter()
        .filter(|l| used.contains(l))
        .filter_map(|l| {
            let v = LocalStaticId::new(db, owner, l);
            let name = cufront_hir::instances::local_static_name(db, v).ok()?;
            let name = match &encodings {
                Some((h, d)) if h != d => match name.strip_prefix("_ZZ").and_then(|r| r.strip_prefix(h.as_str())) {
                    Some(rest) => format!("_ZZ{d}{rest}"),
                    None => name,
                },
                _ => name,
            };
            Some((Entity::LocalStatic(v), name))
        })
        .collect()
}
