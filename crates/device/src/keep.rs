//! The keep set (spec 40 §4), as far as it is modelled: the roots the stub
//! registers — kernels defined in the unit, kernel template instances the
//! unit's code reaches (`hir::instances::required_entities`), and
//! namespace-scope device variables (kept whatever their linkage, even
//! unreferenced) — then the `__device__` and `__host__ __device__`
//! functions and instances the unit's needed code reaches ([`closure`]).
//! Not yet: types, vtables, block-scope `__shared__` variables, implicit
//! special members, closures' `operator()`.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_hir::Entity;

use crate::closure::device_closure;
use crate::{registry, space};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeepReason {
    Kernel,
    KernelInstance,
    DeviceVariable,
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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    let mut names: rustc_hash::FxHashSet<String> = out.iter().map(|k: &Kept| k.name.clone()).collect();
    for &(e, from) in device_closure(db, tu).iter() {
        if std::env::var_os("CUFRONT_DEVICE_DEBUG").is_some() {
            let sp = cufront_hir::exec_space::exec_space(db, e);
            let n = cufront_hir::symbols::device_linkage_name(db, e, mid);
            eprintln!("CLOSURE {:?} {:?} {:?}", n, sp, e);
        }
        if !space::is_device_fn(db, e, opts.relaxed_constexpr) {
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
    Arc::new(out)
}
