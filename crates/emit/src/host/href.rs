//! The host-reference arrays of `--device-c` mode (spec 30 §2.10, spec 50
//! §8.5): which kernels and device variables host code references, as name
//! patterns (`*` = any text) in six weak arrays after the trailer. The
//! device linker keeps what they name.

use super::refs::{Entity, Kind, Refs};

/// The patterns found so far, per array (KI, KE, DI, DE, CI, CE).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct HostRefs {
    arrays: [Vec<String>; 6],
}

const NAMES: [(&str, &str); 6] = [
    ("KI", "hostRefKernelArrayInternalLinkage"),
    ("KE", "hostRefKernelArrayExternalLinkage"),
    ("DI", "hostRefDeviceArrayInternalLinkage"),
    ("DE", "hostRefDeviceArrayExternalLinkage"),
    ("CI", "hostRefConstantArrayInternalLinkage"),
    ("CE", "hostRefConstantArrayExternalLinkage"),
];

fn seg(s: &str) -> String {
    format!("{}{s}", s.len())
}

impl HostRefs {
    /// Records a reference from host code to `e`.
    pub fn add(&mut self, e: &Entity, module_id: &str) {
        let id = module_id.trim_end_matches('\n');
        let base = match e.kind {
            Kind::Kernel => 0,
            Kind::Device | Kind::Managed => 2,
            Kind::Constant => 4,
        };
        let variable = e.kind != Kind::Kernel;
        let scopes: String = e
            .path
            .iter()
            .map(|s| match s {
                Some(n) => seg(n),
                None => seg(&format!("_GLOBAL__N_{id}")),
            })
            .collect();
        let internal = || {
            let prefix = format!("__nv_static_{}_{id}_*", id.len());
            if variable && e.path.is_empty() {
                format!("{prefix}{}", e.name)
            } else {
                format!("{prefix}{scopes}{}*", seg(&e.name))
            }
        };
        let external = || {
            if e.extern_c || (variable && e.path.is_empty()) {
                e.name.clone()
            } else if e.path.is_empty() {
                format!("_Z{}*", seg(&e.name))
            } else {
                format!("_ZN{scopes}{}*", seg(&e.name))
            }
        };
        // A template kernel's instantiations are named by one internal
        // pattern, plus the external one unless the template itself has
        // internal linkage.
        if Refs::internal_entry(e) {
            self.arrays[base].push(internal());
        }
        if !e.internal {
            self.arrays[base + 1].push(external());
        }
    }

    /// Adds the patterns `other` found (the arrays are sets).
    pub fn extend(&mut self, other: &HostRefs) {
        for (mine, theirs) in self.arrays.iter_mut().zip(&other.arrays) {
            mine.extend(theirs.iter().cloned());
        }
    }

    /// The six blocks, each set sorted bytewise without duplicates.
    pub fn print(mut self) -> String {
        let mut out = String::new();
        for (i, (section, name)) in NAMES.iter().enumerate() {
            let set = &mut self.arrays[i];
            set.sort();
            set.dedup();
            out.push_str(&format!(
                "\nextern \"C\" {{\nextern __attribute__ ((section (\".nvHR{section}\"))) __attribute__((weak)) const unsigned char {name}[] = {{\n"
            ));
            if set.is_empty() {
                out.push_str("0x0};\n}\n");
                continue;
            }
            for p in set.iter() {
                out.push_str(&format!("/* {p} */\n"));
                for b in p.bytes() {
                    out.push_str(&format!("0x{b:x},"));
                }
                out.push_str("0x0,\n");
            }
            out.push_str("};\n}\n");
        }
        out
    }
}
