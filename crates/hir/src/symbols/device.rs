//! Device linkage names (spec 50 §8.4): what cicc calls a function the
//! host object names with g++'s internal-linkage spellings. An entity with
//! internal linkage (a `static` function, an anonymous namespace's) gets
//! `_INTERNAL<mid>` as its first nested component and loses g++'s `L`;
//! anonymous namespaces are `_GLOBAL__N_<mid>`. Built on the mangler's
//! tree of the host name, so substitutions are recounted, never patched.

use cufront_base_db::SourceDatabase;
use cufront_mangle as m;

use super::FnEncoding;
use crate::Entity;

/// The device linkage name of a function or function instance with module
/// id `mid` (other entities: their host names). Kernels are not renamed
/// with `_INTERNAL` (cicc drops only the `L`): the caller names those.
pub fn device_linkage_name(db: &dyn SourceDatabase, e: Entity, mid: &str) -> Result<String, String> {
    // A `static` function is a C++ function of its own on the device even
    // when an `extern "C"` declaration of the name comes first (the
    // runtime's `static __device__` builtins: `cudaMalloc`), and internal.
    let (enc, is_static) = match e {
        Entity::Fn(f) => {
            let tree = crate::item_tree_of(db, f.item(db));
            let is_static = tree.fns.get(f.idx(db) as usize).is_some_and(|d| d.linkage.is_static);
            (super::fn_encoding_as(db, f, is_static)?, is_static)
        }
        Entity::FnInst(i) => {
            let is_static = i.decl(db).data(db).is_some_and(|d| d.linkage.is_static);
            (super::fn_instance_encoding(db, i)?, is_static)
        }
        _ => return super::mangled_name(db, e),
    };
    let enc = match enc {
        FnEncoding::Plain(s) => return Ok(s),
        FnEncoding::Tree(t) => t,
    };
    m::mangle(&to_device(enc, mid, is_static)?)
}

fn to_device(enc: m::Encoding, mid: &str, is_static: bool) -> Result<m::Encoding, String> {
    Ok(match enc {
        m::Encoding::Function(name, ty) => {
            m::Encoding::Function(Box::new(name_to_device(*name, mid, is_static)?), ty)
        }
        m::Encoding::Data(name) => m::Encoding::Data(name_to_device(name, mid, is_static)?),
        other => other,
    })
}

fn name_to_device(mut name: m::Name, mid: &str, is_static: bool) -> Result<m::Name, String> {
    let mut internal = is_static;
    for c in &mut name.comps {
        match &c.name {
            m::Unqualified::StaticSource(s) => {
                c.name = m::Unqualified::Source(s.clone());
                internal = true;
            }
            m::Unqualified::AnonNamespace(_) => {
                c.name = m::Unqualified::AnonNamespace(Some(mid.to_string()));
                internal = true;
            }
            _ => {}
        }
    }
    if internal && name.root == m::Root::Global { m::cuda::internal(&name, mid) } else { Ok(name) }
}
