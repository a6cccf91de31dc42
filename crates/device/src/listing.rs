//! cufront's device listing (`--gen_device_file_name`; format in
//! `docs/device.md`): the kept entities the device side defines, one per
//! line, `KIND NAME` with the device's linkage name, kernels in definition
//! order then variables in declaration order. cicc writes C there
//! (`x.cudafe1.gpu`); cufront writes names, which is what the differential
//! test compares.

use cufront_base_db::{SourceDatabase, TranslationUnit};

use crate::keep::{KeepOptions, KeepReason, kept};

/// The listing's text.
pub fn listing(db: &dyn SourceDatabase, tu: TranslationUnit, opts: &KeepOptions) -> String {
    let mid = opts.module_id.as_str();
    let mut out = String::from("# cufront device listing v1: KIND NAME (why kept)\n");
    for k in kept(db, tu, opts).iter() {
        let why = match &k.reason {
            KeepReason::Kernel => "a kernel".to_string(),
            KeepReason::KernelInstance => "a kernel template instance the unit reaches".to_string(),
            KeepReason::DeviceVariable => "a namespace-scope device variable".to_string(),
            KeepReason::Vtable(ctor) => match cufront_hir::symbols::device_linkage_name(db, *ctor, mid) {
                Ok(n) => format!("a virtual table of the class {n} constructs"),
                Err(_) => "a virtual table of a class needed code constructs".to_string(),
            },
            KeepReason::Reached(None) => "defined in the unit, external, not inline".to_string(),
            KeepReason::Reached(Some(from)) => match cufront_hir::symbols::device_linkage_name(db, *from, mid) {
                Ok(n) => format!("referenced by {n}"),
                Err(_) => "referenced by needed code".to_string(),
            },
        };
        out.push_str(&format!("{} {} ({why})\n", k.kind, k.name));
    }
    out
}
