//! What the stub file registers (spec 30 §3): the kernels the device
//! side keeps — non-template kernels defined in the unit, in source order,
//! then the kernel template instances the unit's code reaches, in first-use
//! order (EDG instantiates at the end of the unit) — and the namespace-scope
//! device variables, in declaration order. Each with what the printer needs:
//! the device name, the parameter types, where the definition is written.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_hir::instances::{self, FnInstanceId, stub};
use cufront_hir::templates::TemplateArg;
use cufront_hir::{Entity, TyId, def_map, item_tree_of, symbols};

/// One kernel (or kernel template instance) the stub defines a stub for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub entity: Entity,
    /// The linkage name as the host object spells it (`_ZL…` for `static`).
    pub host_name: Result<String, String>,
    /// The identifier (`vector_add`).
    pub name: String,
    /// `static` or in an anonymous namespace.
    pub internal: bool,
    pub extern_c: bool,
    /// The instance's own template arguments (empty: no template).
    pub args: Vec<TemplateArg>,
    pub template: bool,
    /// The parameter types, substituted.
    pub params: Result<Vec<TyId>, String>,
    /// Offset of the declarator's name in the unit (non-template kernels).
    pub name_at: Option<u32>,
}

/// A namespace-scope `__device__`/`__constant__`/`__managed__` variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceVar {
    pub entity: Entity,
    pub name: String,
    /// Its linkage name as the source declares it (`_ZN6detail7d_ticksE`).
    pub linkage_name: Result<String, String>,
    /// `::ns::name`.
    pub qualified: String,
    pub ty: TyId,
    pub constant: bool,
    pub managed: bool,
    pub is_extern: bool,
    pub is_static: bool,
}

/// The kernels of the unit in cicc's definition order.
#[salsa::tracked(returns(clone))]
pub fn kernels(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<Vec<Kernel>> {
    let required = instances::required_entities(db, tu);
    let offsets = symbols::entity_offsets(db, tu);
    let mut plain = Vec::new();
    let mut insts = Vec::new();
    let mut seen_defs = rustc_hash::FxHashSet::default();
    for &e in required.iter() {
        let Some(data) = stub::kernel_decl(db, e) else { continue };
        let cufront_hir::item_tree::FnName::Ident(name) = &data.name else { continue };
        match e {
            Entity::Fn(f) => {
                // One stub per kernel: its definition, where it is written.
                let Some(instances::FnDecl::Fn(def)) = instances::fn_definition(db, instances::FnDecl::Fn(f)) else {
                    continue;
                };
                if !seen_defs.insert(def) {
                    continue;
                }
                let def_data = item_tree_of(db, def.item(db)).fns.get(def.idx(db) as usize).cloned();
                let internal = def_data.as_ref().is_some_and(|d| d.linkage.is_static) || data.linkage.is_static;
                plain.push(Kernel {
                    entity: Entity::Fn(def),
                    host_name: symbols::mangled_name(db, Entity::Fn(def)),
                    name: name.clone(),
                    internal,
                    extern_c: data.linkage.extern_c,
                    args: Vec::new(),
                    template: false,
                    params: fn_params(db, def),
                    name_at: offsets.get(&Entity::Fn(def)).copied(),
                });
            }
            Entity::FnInst(i) => insts.push(instance(db, i, name, &data)),
            _ => {}
        }
    }
    plain.sort_by_key(|k| k.name_at.unwrap_or(u32::MAX));
    plain.extend(insts);
    Arc::new(plain)
}

fn instance(db: &dyn SourceDatabase, i: FnInstanceId, name: &str, data: &cufront_hir::item_tree::FnData) -> Kernel {
    Kernel {
        entity: Entity::FnInst(i),
        host_name: symbols::mangled_name(db, Entity::FnInst(i)),
        name: name.to_string(),
        internal: data.linkage.is_static,
        extern_c: data.linkage.extern_c,
        args: i.args(db).clone(),
        template: !i.args(db).is_empty(),
        params: instances::signature(db, i).map(|s| s.params),
        name_at: None,
    }
}

fn fn_params(db: &dyn SourceDatabase, f: cufront_hir::FnId) -> Result<Vec<TyId>, String> {
    let map = def_map(db, f.item(db).tu(db));
    let scope = instances::fn_scope(db, instances::FnDecl::Fn(f)).ok_or("the kernel has no scope")?;
    let tree = item_tree_of(db, f.item(db));
    let data = tree.fns.get(f.idx(db) as usize).ok_or("no such function")?;
    let cx = cufront_hir::ty::LowerCx { db, map: &map, item: f.item(db), scope, env: None };
    Ok(data.ty.params.iter().map(|p| cufront_hir::ty::lower(cx, p)).collect())
}

/// The namespace-scope device variables, in declaration order (each
/// variable once: the first declaration, `extern` only when no
/// declaration defines it).
#[salsa::tracked(returns(clone))]
pub fn device_vars(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<Vec<DeviceVar>> {
    let map = def_map(db, tu);
    let mut out: Vec<DeviceVar> = Vec::new();
    for &e in map.entities.iter() {
        let Entity::Var(v) = e else { continue };
        let tree = item_tree_of(db, v.item(db));
        let Some(data) = tree.vars.get(v.idx(db) as usize) else { continue };
        if !data.linkage.device_var || data.qualifier.is_some() {
            continue;
        }
        let parent = map.parent.get(&cufront_hir::scopes::DeclKey::Var(v)).copied().unwrap_or(cufront_hir::scopes::ROOT);
        if cufront_hir::instances::is_class_scope(&map, parent) {
            continue;
        }
        let linkage_name = symbols::source_linkage_name(db, e);
        let qualified = match &linkage_name {
            Ok(n) => qualified_name(n).unwrap_or_else(|| format!("::{}", data.name)),
            Err(_) => format!("::{}", data.name),
        };
        let cx = cufront_hir::ty::LowerCx { db, map: &map, item: v.item(db), scope: parent, env: None };
        let ty = cufront_hir::ty::lower(cx, &data.ty);
        let is_extern = data.linkage.is_extern && !data.linkage.is_definition;
        if let Some(prev) = out.iter_mut().find(|x| x.linkage_name == linkage_name && x.qualified == qualified) {
            prev.is_extern &= is_extern;
            continue;
        }
        out.push(DeviceVar {
            entity: e,
            name: data.name.clone(),
            linkage_name,
            qualified,
            ty,
            constant: data.linkage.constant,
            managed: data.linkage.managed,
            is_extern,
            is_static: data.linkage.is_static,
        });
    }
    Arc::new(out)
}

/// `::a::b::x` from a nested linkage name `_ZN1a1b1xE` (a global one,
/// `x`, has no components to read: `None`).
pub fn qualified_name(mangled: &str) -> Option<String> {
    let mut rest = mangled.strip_prefix("_ZN")?;
    let mut out = String::new();
    loop {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            break;
        }
        let n: usize = rest[..digits].parse().ok()?;
        let id = rest.get(digits..digits + n)?;
        out.push_str("::");
        out.push_str(id);
        rest = &rest[digits + n..];
    }
    (rest.starts_with('E') && !out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn qualified_names() {
        assert_eq!(super::qualified_name("_ZN6detail7d_ticksE").as_deref(), Some("::detail::d_ticks"));
        assert_eq!(super::qualified_name("d_int"), None);
        assert_eq!(super::qualified_name("_ZN2ns1kIiEEvv"), None);
    }
}
