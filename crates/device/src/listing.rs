//! cufront's device listing (`--gen_device_file_name`; format in
//! `docs/device.md`): the kept entities the device side defines, one per
//! line, `KIND NAME` with the device's linkage name, kernels in definition
//! order then variables in declaration order. cicc writes C there
//! (`x.cudafe1.gpu`); cufront writes names, which is what the differential
//! test compares.

use cufront_base_db::{SourceDatabase, TranslationUnit};

use crate::keep::{KeepReason, kept};

/// The listing's text.
pub fn listing(db: &dyn SourceDatabase, tu: TranslationUnit, mid: &str, device_c: bool) -> String {
    let mut out = String::from("# cufront device listing v1: KIND NAME (why kept)\n");
    for k in kept(db, tu, mid, device_c).iter() {
        let why = match &k.reason {
            KeepReason::Kernel => "a kernel",
            KeepReason::KernelInstance => "a kernel template instance the unit reaches",
            KeepReason::DeviceVariable => "a namespace-scope device variable",
        };
        out.push_str(&format!("{} {} ({why})\n", k.kind, k.name));
    }
    out
}
