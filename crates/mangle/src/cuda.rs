//! CUDA's spellings around Itanium names (spec 50 §8.4–§8.6).
//!
//! `<mid>` is the module id with its leading `_` (`_b443c712_5_ns_cu_a37889cc`).

use crate::tree::{Component, Name, Root, Unqualified};

/// `__nv_static_<len(mid)>_<mid>_` + `symbol`: the `-rdc` device name of an
/// internal-linkage kernel or variable (`__nv_static_26_<mid>__Z2k4i`,
/// `__nv_static_26_<mid>_sdv`).
pub fn nv_static(mid: &str, symbol: &str) -> String {
    format!("__nv_static_{}_{mid}_{symbol}", mid.len())
}

/// The kernel stub's name: `__device_stub_` + the kernel's mangled name
/// (an `extern "C"` kernel's stub is still C++-mangled).
pub fn device_stub(mangled: &str) -> String {
    format!("__device_stub_{mangled}")
}

/// The anonymous namespace as the device side names it: `_GLOBAL__N_<mid>`
/// (the host side, g++, uses `_GLOBAL__N_1`: `AnonNamespace(None)`).
pub fn anon_namespace(mid: &str) -> Component {
    comp(Unqualified::AnonNamespace(Some(mid.to_string())))
}

/// cicc's name for an internal-linkage device entity other than a kernel
/// or a global-scope variable: `_INTERNAL<mid>` becomes the first nested
/// component (`_ZN33_INTERNAL<mid>3gsfEi`, `_ZN33_INTERNAL<mid>1X2sfEi`).
/// A local entity keeps its place: the enclosing function is the one
/// renamed (`_ZZN33_INTERNAL<mid>3gsfEiE3loc`), so give this the function.
pub fn internal(name: &Name, mid: &str) -> Result<Name, String> {
    if name.root != Root::Global {
        return Err("`_INTERNAL` goes on a name rooted at the global namespace".into());
    }
    let mut comps = vec![comp(Unqualified::Internal(mid.to_string()))];
    comps.extend(name.comps.iter().cloned());
    Ok(Name { root: Root::Global, comps })
}

fn comp(name: Unqualified) -> Component {
    Component { name, abi_tags: Vec::new(), args: None }
}
