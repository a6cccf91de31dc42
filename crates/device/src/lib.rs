//! cufront-device: the device view of a unit, what cicc's front end
//! computes from the device preprocessing (`x.cpp1.ii`) before its back
//! end runs (spec 40, spec 30 §3):
//!
//! - [`cmdline`]: cicc's command line as nvcc writes it;
//! - [`registry`]: the kernels and device variables the stub registers, in
//!   cicc's order (salsa queries over `hir`);
//! - [`closure`]: what the unit's needed code references, transitively;
//! - [`keep`]: the kept entities and why each is kept;
//! - [`space`]: which functions cicc emits on the device;
//! - [`spell`]: EDG's C spellings of types and template arguments;
//! - [`stub`]: the stub file (`--stub_file_name`);
//! - [`vtables`]: the virtual tables kept with the classes needed code constructs;
//! - [`listing`]: cufront's device listing (`--gen_device_file_name`);
//! - [`il`]: the device IL (data and text form), [`il_lower`]: the kept
//!   entities lowered to it, [`il_binary`]: its binary form.
//!
//! Invariants: no I/O (the `cufront device` command reads and writes the
//! files); a stub that cannot be spelled exactly is an error value, never a
//! guess written out; output depends only on the unit and the options.

pub mod closure;
pub mod cmdline;
pub mod il;
pub mod il_binary;
pub mod il_lower;
pub mod keep;
pub mod listing;
pub mod registry;
pub mod space;
pub mod spell;
pub mod stub;
pub mod vtables;
