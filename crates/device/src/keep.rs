//! The keep set (spec 40 §4), as far as it is modelled: its roots that the
//! stub registers — kernels defined in the unit, kernel template instances
//! the unit's code reaches (`hir::instances::required_entities`), and
//! namespace-scope device variables (kept whatever their linkage, even
//! unreferenced). The closure over what device code references (device
//! functions, types, local `__shared__` variables) is not computed yet.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_hir::Entity;

use crate::registry;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeepReason {
    Kernel,
    KernelInstance,
    DeviceVariable,
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

/// The kept entities with their device names (`mid`: the module id, for
/// anonymous namespaces and `-rdc`'s `__nv_static_` prefixes).
pub fn kept(db: &dyn SourceDatabase, tu: TranslationUnit, mid: &str, device_c: bool) -> Arc<Vec<Kept>> {
    let mut out = Vec::new();
    for k in registry::kernels(db, tu).iter() {
        let Ok(name) = k.host_name.clone() else { continue };
        // C linkage: the plain name.
        let name = if name.starts_with("_Z") { cufront_hir::symbols::with_module_id(&name, mid) } else { name };
        let name = match name.strip_prefix("_ZL") {
            Some(rest) => format!("_Z{rest}"),
            None => name,
        };
        let name = if k.internal && device_c { cufront_mangle::cuda::nv_static(mid, &name) } else { name };
        let reason = if k.template { KeepReason::KernelInstance } else { KeepReason::Kernel };
        out.push(Kept { entity: k.entity, kind: "kernel", name, reason });
    }
    for v in registry::device_vars(db, tu).iter() {
        let Ok(name) = v.linkage_name.clone() else { continue };
        let name = registry::device_var_name(&cufront_hir::symbols::with_module_id(&name, mid), mid, device_c);
        out.push(Kept { entity: v.entity, kind: "variable", name, reason: KeepReason::DeviceVariable });
    }
    Arc::new(out)
}
