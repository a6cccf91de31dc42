//! What the stub file registers (spec 30 §3): the kernels the device
//! side keeps — non-template kernels defined in the unit, in source order,
//! then the kernel template instances the unit's code reaches, in first-use
//! order (EDG instantiates at the end of the unit) — and the namespace-scope
//! device variables, in declaration order. Each with what the printer needs:
//! the device name, the parameter types, where the definition is written.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_hir::infer::{self, CallSite, Callee, InferOwner};
use cufront_hir::instances::{self, FnInstanceId, stub};
use cufront_hir::templates::TemplateArg;
use cufront_hir::{Entity, TyId, TyKind, def_map, item_tree_of, symbols};
use rustc_hash::{FxHashMap, FxHashSet};

/// One kernel (or kernel template instance) the stub defines a stub for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub entity: Entity,
    /// The linkage name as the host object spells it (`_ZL…` for `static`).
    pub host_name: Result<String, cufront_hir::SemaError>,
    /// The C++ device name (no `L`), even under C linkage: what the stub
    /// is named after.
    pub cxx_name: Result<String, cufront_hir::SemaError>,
    /// What the stub function is named after: `cxx_name`, with extended
    /// lambdas' closure types in cicc's vendor form (`Unvdl…`).
    pub stub_cxx_name: Result<String, cufront_hir::SemaError>,
    /// The identifier (`vector_add`).
    pub name: String,
    /// `static` or in an anonymous namespace.
    pub internal: bool,
    pub extern_c: bool,
    /// The instance's own template arguments (empty: no template).
    pub args: Vec<TemplateArg>,
    pub template: bool,
    /// The parameter types, substituted.
    pub params: Result<Vec<TyId>, cufront_hir::SemaError>,
    /// Where the declarator's name stands (non-template kernels).
    pub name_at: Option<Pos>,
}

/// Where a declaration's name stands: (index of its top-level item, offset
/// in that item). Ordered as the unit's offsets are, and equal after an
/// edit that moves declarations without reordering them (an edit inside a
/// body), so that the registry's queries cut off there; the printer finds
/// the unit offset again ([`unit_offset`]).
pub type Pos = (u32, u32);

/// Every located function and variable of the unit (as
/// `hir::symbols::entity_offsets` locates them) by [`Pos`]. Re-runs on
/// every edit (it reads the tree's offsets) and cuts off when no
/// declaration moved relative to its item: the firewall between the text
/// and the registry.
#[salsa::tracked(returns(ref))]
pub fn positions(db: &dyn SourceDatabase, tu: TranslationUnit) -> FxHashMap<Entity, Pos> {
    let ranges = cufront_hir::locate::item_ranges(db, tu);
    symbols::entity_offsets(db, tu)
        .into_iter()
        .filter_map(|(e, at)| {
            let i = ranges.partition_point(|&(start, _)| start <= at).checked_sub(1)?;
            Some((e, (i as u32, at - ranges[i].0)))
        })
        .collect()
}

/// The unit offset of `pos`.
pub fn unit_offset(db: &dyn SourceDatabase, tu: TranslationUnit, pos: Pos) -> Option<u32> {
    let ranges = cufront_hir::locate::item_ranges(db, tu);
    ranges.get(pos.0 as usize).map(|&(start, _)| start + pos.1)
}

/// What a body requires (`hir::infer`'s `required`), and what it references
/// on the device (`live`): what it requires and the `std::initializer_list`
/// constructors EDG calls for its braced lists, less the functions whose
/// every call there EDG folds to its value (`hir::infer::folded_calls`) and
/// that it does not otherwise name. A query per body: an edit inside a body re-infers
/// it, and when what it requires is unchanged this cuts off every
/// unit-wide query of the device view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodyRefs {
    pub required: Vec<Entity>,
    pub live: Vec<Entity>,
}

#[salsa::tracked(returns(ref))]
pub fn body_refs(db: &dyn SourceDatabase, owner: InferOwner) -> BodyRefs {
    let r = infer::infer(db, owner);
    let folded = infer::folded_calls(db, owner);
    let required: Vec<Entity> = r.required.clone();
    if folded.is_empty() {
        let live = r.required.iter().chain(&r.init_list_ctors).copied().collect();
        return BodyRefs { required, live };
    }
    let folded: FxHashSet<(CallSite, Entity)> = folded.iter().copied().collect();
    let mut called: FxHashSet<Entity> = FxHashSet::default();
    let mut live: FxHashSet<Entity> = FxHashSet::default();
    for (site, callee) in &r.calls {
        if let Callee::Entity(x) = callee {
            called.insert(*x);
            if !folded.contains(&(*site, *x)) {
                live.insert(*x);
            }
        }
    }
    let named: FxHashSet<Entity> = r
        .resolutions
        .values()
        .filter_map(|res| match res {
            infer::Resolution::Entity(x) => Some(*x),
            _ => None,
        })
        .collect();
    let live = r
        .required
        .iter()
        .copied()
        .filter(|x| !called.contains(x) || live.contains(x) || named.contains(x))
        .chain(r.init_list_ctors.iter().copied())
        .collect();
    BodyRefs { required, live }
}

/// A namespace-scope `__device__`/`__constant__`/`__managed__` variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceVar {
    /// Where it is first declared (the registration follows source order,
    /// not the scope graph's grouping of reopened namespaces).
    pub at: Pos,
    /// The namespace it is declared in.
    pub scope: cufront_hir::ScopeIdx,
    pub entity: Entity,
    pub name: String,
    /// Its linkage name as the source declares it (`_ZN6detail7d_ticksE`).
    pub linkage_name: Result<String, cufront_hir::SemaError>,
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
    let offsets = positions(db, tu);
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
                let cxx = kernel_cxx_name(db, Entity::Fn(def));
                plain.push(Kernel {
                    entity: Entity::Fn(def),
                    host_name: symbols::mangled_name(db, Entity::Fn(def)),
                    cxx_name: cxx.clone(),
                    stub_cxx_name: cxx,
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
    plain.sort_by_key(|k| k.name_at.unwrap_or((u32::MAX, u32::MAX)));
    // Instances in the order EDG first refers to them; the sort is stable
    // (instances the walk does not reach keep the closure's order, last).
    let first = reference_order(db, tu);
    insts.sort_by_key(|k| first.get(&k.entity).copied().unwrap_or(u32::MAX));
    plain.extend(insts);
    Arc::new(plain)
}

/// The order in which EDG first refers to each entity: the unit's
/// non-template functions are processed in source order (each referring
/// to what its body requires, first use first; an explicit instantiation
/// refers to its instance where it stands), then the template instances
/// they need, in order of first reference, each referring in turn to what
/// its own body requires (EDG instantiates pending templates at the end of
/// the unit, first needed first). Checked with the real nvcc: `kt<float>`
/// explicitly instantiated at line 3, `kt<int>` launched at line 4,
/// `kt<char>` explicit at line 5 are stubbed in that order; a kernel
/// launched from a function template instance comes after those launched
/// directly, in the order the instances were first needed.
pub fn reference_order(db: &dyn SourceDatabase, tu: TranslationUnit) -> rustc_hash::FxHashMap<Entity, u32> {
    let required = instances::required_entities(db, tu);
    let offsets = positions(db, tu);
    enum Event {
        Body(Entity),
        Explicit(Entity),
    }
    let mut events: Vec<(Pos, Event)> = Vec::new();
    let explicit = cufront_hir::infer::explicit_instances(db, tu);
    if !explicit.is_empty() {
        let index: FxHashMap<cufront_hir::ItemId, u32> =
            cufront_hir::item_ids(db, tu).iter().enumerate().map(|(n, &i)| (i, n as u32)).collect();
        for &(item, at, i) in explicit.iter() {
            if let Some(&n) = index.get(&item) {
                events.push(((n, at), Event::Explicit(Entity::FnInst(i))));
            }
        }
    }
    for &e in required.iter() {
        if let (Entity::Fn(_), Some(&at)) = (e, offsets.get(&e)) {
            events.push((at, Event::Body(e)));
        }
    }
    events.sort_by_key(|(at, _)| *at);
    // Only what the closure holds is walked: it bounds runaway recursion
    // (EDG's pending-instantiation limit) where bodies alone would not.
    let walked: rustc_hash::FxHashSet<Entity> = required.iter().copied().collect();
    let mut rank: rustc_hash::FxHashMap<Entity, u32> = Default::default();
    let mut pending = std::collections::VecDeque::new();
    let note =
        |e: Entity, rank: &mut rustc_hash::FxHashMap<Entity, u32>, pending: &mut std::collections::VecDeque<Entity>| {
            let next = rank.len() as u32;
            if rank.insert(e, next).is_none() && matches!(e, Entity::FnInst(_)) && walked.contains(&e) {
                pending.push_back(e);
            }
        };
    let walk =
        |e: Entity, rank: &mut rustc_hash::FxHashMap<Entity, u32>, pending: &mut std::collections::VecDeque<Entity>| {
            if let Some(owner) = instances::body_owner(db, e) {
                for &x in body_refs(db, owner).required.iter() {
                    if !rank.contains_key(&x) {
                        note(x, rank, pending);
                    }
                }
            }
        };
    for (_, ev) in events {
        match ev {
            Event::Body(e) => walk(e, &mut rank, &mut pending),
            Event::Explicit(e) if !rank.contains_key(&e) => note(e, &mut rank, &mut pending),
            Event::Explicit(_) => {}
        }
    }
    while let Some(e) = pending.pop_front() {
        walk(e, &mut rank, &mut pending);
    }
    rank
}

fn instance(db: &dyn SourceDatabase, i: FnInstanceId, name: &str, data: &cufront_hir::item_tree::FnData) -> Kernel {
    Kernel {
        entity: Entity::FnInst(i),
        host_name: symbols::mangled_name(db, Entity::FnInst(i)),
        cxx_name: kernel_cxx_name(db, Entity::FnInst(i)),
        stub_cxx_name: symbols::stub_kernel_name(db, Entity::FnInst(i), ""),
        name: name.to_string(),
        internal: data.linkage.is_static,
        extern_c: data.linkage.extern_c,
        args: i.args(db).clone(),
        template: !i.args(db).is_empty(),
        params: instances::declared_params(db, i),
        name_at: None,
    }
}

/// A kernel's C++ device name with the anonymous namespace still g++'s
/// (`_GLOBAL__N_1`, renamed with the module id by the printer): the C++
/// name under C linkage too (what its stub is named after).
fn kernel_cxx_name(db: &dyn SourceDatabase, e: Entity) -> Result<String, cufront_hir::SemaError> {
    match (e, symbols::mangled_name(db, e)) {
        (Entity::Fn(f), Ok(host)) if !host.starts_with("_Z") => symbols::cxx_fn_name(db, f),
        _ => symbols::device_kernel_name(db, e, ""),
    }
}

fn fn_params(db: &dyn SourceDatabase, f: cufront_hir::FnId) -> Result<Vec<TyId>, cufront_hir::SemaError> {
    declared_signature(db, f).map(|(_, params)| params)
}

/// A function's return and parameter types as declared, lowered where it
/// is declared (parameters not adjusted: arrays stay arrays).
pub fn declared_signature(
    db: &dyn SourceDatabase,
    f: cufront_hir::FnId,
) -> Result<(TyId, Vec<TyId>), cufront_hir::SemaError> {
    let map = def_map(db, f.item(db).tu(db));
    let scope = instances::fn_scope(db, instances::FnDecl::Fn(f)).ok_or("the function has no scope")?;
    let tree = item_tree_of(db, f.item(db));
    let data = tree.fns.get(f.idx(db) as usize).ok_or("no such function")?;
    let cx = cufront_hir::ty::LowerCx { db, map: &map, item: f.item(db), scope, env: None };
    Ok((
        cufront_hir::ty::lower(cx, &data.ty.ret),
        data.ty.params.iter().map(|p| cufront_hir::ty::lower(cx, p)).collect(),
    ))
}

/// The namespace-scope device variables, in declaration order (each
/// variable once: the first declaration, `extern` only when no
/// declaration defines it).
#[salsa::tracked(returns(clone))]
pub fn device_vars(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<Vec<DeviceVar>> {
    let map = def_map(db, tu);
    let offsets = positions(db, tu);
    let mut out: Vec<DeviceVar> = Vec::new();
    for &e in map.entities.iter() {
        let Entity::Var(v) = e else { continue };
        let tree = item_tree_of(db, v.item(db));
        let Some(data) = tree.vars.get(v.idx(db) as usize) else { continue };
        if !data.linkage.device_var() || data.qualifier.is_some() {
            continue;
        }
        let parent =
            map.parent.get(&cufront_hir::scopes::DeclKey::Var(v)).copied().unwrap_or(cufront_hir::scopes::ROOT);
        if cufront_hir::instances::is_class_scope(&map, parent) {
            continue;
        }
        let linkage_name = symbols::source_linkage_name(db, e);
        let qualified = match &linkage_name {
            Ok(n) => qualified_name(n).unwrap_or_else(|| format!("::{}", data.name)),
            Err(_) => format!("::{}", data.name),
        };
        // The host names an anonymous namespace by cudafe++'s macro.
        let qualified = qualified
            .split("::")
            .map(|c| if c.starts_with("_GLOBAL__N_") { "_NV_ANON_NAMESPACE" } else { c })
            .collect::<Vec<_>>()
            .join("::");
        let cx = cufront_hir::ty::LowerCx { db, map: &map, item: v.item(db), scope: parent, env: None };
        let mut ty = instances::var_decl_type(db, cx, data);
        // `T x[] = {…}`: the bound comes from the initializer.
        if let TyKind::Array(elem, None) = ty.kind(db)
            && let Some(n) = offsets
                .get(&e)
                .and_then(|&(_, at)| {
                    // The initializer is in the variable's own item.
                    let source = cufront_hir::item_source(db, v.item(db)).as_ref()?;
                    initializer(&source.green.to_string(), at as usize)
                })
                .and_then(|init| completed_bound(db, *elem, init))
        {
            ty = TyId::new(db, TyKind::Array(*elem, Some(n)));
        }
        let is_extern = data.linkage.is_extern && !data.linkage.is_definition;
        if let Some(prev) = out.iter_mut().find(|x| x.linkage_name == linkage_name && x.qualified == qualified) {
            prev.is_extern &= is_extern;
            continue;
        }
        out.push(DeviceVar {
            scope: parent,
            at: offsets.get(&e).copied().unwrap_or((u32::MAX, u32::MAX)),
            entity: e,
            name: data.name.clone(),
            linkage_name,
            qualified,
            ty,
            constant: data.linkage.cuda.constant,
            managed: data.linkage.cuda.managed,
            is_extern,
            is_static: data.linkage.is_static,
        });
    }
    // cicc registers the file scope's variables first, then each namespace
    // after its nested namespaces (a post-order walk, namespaces in the
    // order they were first opened), each scope's in declaration order.
    let rank = namespace_rank(&map);
    out.sort_by_key(|v| (rank.get(&v.scope).copied().unwrap_or(usize::MAX), v.at));
    Arc::new(out)
}

/// Each namespace's place in cicc's registration order: the file scope
/// first, then a post-order walk (nested namespaces before their parent),
/// siblings in the order they were first opened (scope index order).
fn namespace_rank(map: &cufront_hir::DefMap) -> rustc_hash::FxHashMap<cufront_hir::ScopeIdx, usize> {
    use cufront_hir::scopes::{ROOT, ScopeKind};
    let mut children: rustc_hash::FxHashMap<cufront_hir::ScopeIdx, Vec<cufront_hir::ScopeIdx>> =
        rustc_hash::FxHashMap::default();
    for (i, sc) in map.scopes.iter().enumerate() {
        if let (ScopeKind::Namespace { .. }, Some(p)) = (&sc.kind, sc.parent) {
            children.entry(p).or_default().push(cufront_hir::ScopeIdx(i as u32));
        }
    }
    let mut rank = rustc_hash::FxHashMap::default();
    rank.insert(ROOT, 0);
    // Iterative post-order: (scope, children visited).
    let mut stack: Vec<(cufront_hir::ScopeIdx, bool)> =
        children.get(&ROOT).into_iter().flatten().rev().map(|&c| (c, false)).collect();
    while let Some((s, done)) = stack.pop() {
        if done {
            let n = rank.len();
            rank.insert(s, n);
            continue;
        }
        stack.push((s, true));
        stack.extend(children.get(&s).into_iter().flatten().rev().map(|&c| (c, false)));
    }
    rank
}

/// What the initializer of an array declared at `at` (its name) gives its
/// unknown bound: [`Init::Elems`], the top-level elements of a braced list
/// (`braced`: all of them braced themselves; brace elision otherwise), or
/// [`Init::Chars`], a string literal's characters with its terminator
/// (adjacent literals concatenated). Read from the text: the item tree
/// keeps no braced initializers (a gap of `hir`'s variable types, which
/// should complete the bound themselves).
#[derive(Debug, PartialEq, Eq)]
enum Init {
    Elems { n: u64, braced: bool },
    Chars(u64),
}

fn initializer(text: &str, at: usize) -> Option<Init> {
    let b = text.as_bytes();
    let mut i = at;
    while i < b.len() && b[i] != b'=' && b[i] != b';' && b[i] != b'{' {
        i += 1;
    }
    if i < b.len() && b[i] == b'=' {
        i += 1;
    }
    let skip_ws = |mut j: usize| {
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        j
    };
    i = skip_ws(i);
    match b.get(i)? {
        b'"' => {
            let mut n = 0u64;
            while b.get(i) == Some(&b'"') {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                    n += 1;
                }
                i = skip_ws(j + 1);
            }
            Some(Init::Chars(n + 1))
        }
        b'{' => {
            let (mut depth, mut elems, mut pending, mut braced) = (0i32, 0u64, false, true);
            let mut this_braced = false;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    c @ (b'{' | b'(' | b'[') => {
                        if depth == 1 {
                            if !pending {
                                this_braced = c == b'{';
                            }
                            pending = true;
                        }
                        depth += 1;
                    }
                    b'}' | b')' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            if pending {
                                elems += 1;
                                braced &= this_braced;
                            }
                            return Some(Init::Elems { n: elems, braced: braced && elems > 0 });
                        }
                    }
                    b',' if depth == 1 => {
                        if pending {
                            elems += 1;
                            braced &= this_braced;
                        }
                        pending = false;
                        this_braced = false;
                    }
                    b'"' | b'\'' => {
                        let q = b[j];
                        j += 1;
                        while j < b.len() && b[j] != q {
                            j += if b[j] == b'\\' { 2 } else { 1 };
                        }
                        pending = true;
                    }
                    c if depth == 1 && !c.is_ascii_whitespace() => pending = true,
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => None,
    }
}

/// The bound an initializer gives an array of `elem`: with brace elision,
/// the scalars fill whole elements of `elem` (an array of known size).
fn completed_bound(db: &dyn SourceDatabase, elem: TyId, init: Init) -> Option<u64> {
    match init {
        Init::Chars(n) => Some(n),
        Init::Elems { n, braced: true } => Some(n),
        Init::Elems { n, braced: false } => {
            let mut per = 1u64;
            let mut t = elem;
            while let TyKind::Array(inner, bound) = cufront_hir::ty::canonical(db, t).kind(db) {
                per *= (*bound)?;
                t = *inner;
            }
            Some(n.div_ceil(per))
        }
    }
}

/// The device name of a namespace-scope variable from its linkage name as
/// the host spells internal linkage (spec 50 §8.4): g++'s `_ZL3sdv` is
/// plain `sdv` on the device, `_ZN1XL2svE` becomes
/// `_ZN<n>_INTERNAL<mid>1X2svE`; with `-rdc` an internal variable (an
/// anonymous namespace's too) takes the `__nv_static_<len>_<mid>_` prefix.
pub fn device_var_name(host: &str, mid: &str, device_c: bool) -> String {
    let (name, internal) = if let Some(rest) = host.strip_prefix("_ZL") {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        match rest[..digits].parse::<usize>() {
            Ok(n) if rest.len() == digits + n => (rest[digits..].to_string(), true),
            _ => (host.to_string(), false),
        }
    } else if let (Some(comps), true) = (nested_components(host), host.starts_with("_ZN")) {
        if comps.iter().any(|(l, _)| *l) {
            let inner: String = comps.iter().map(|(_, id)| format!("{}{id}", id.len())).collect();
            let tag = format!("_INTERNAL{mid}");
            (format!("_ZN{}{tag}{inner}E", tag.len()), true)
        } else {
            (host.to_string(), false)
        }
    } else {
        (host.to_string(), false)
    };
    let internal = internal || name.contains("_GLOBAL__N_");
    if internal && device_c { cufront_mangle::cuda::nv_static(mid, &name) } else { name }
}

/// The components of a nested linkage name `_ZN1aL1xE` with their `L`
/// markers: `[(false, "a"), (true, "x")]`; `None` for any other form.
fn nested_components(mangled: &str) -> Option<Vec<(bool, String)>> {
    let mut rest = mangled.strip_prefix("_ZN")?;
    let mut out = Vec::new();
    loop {
        let l = rest.starts_with('L');
        if l {
            rest = &rest[1..];
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            break;
        }
        let n: usize = rest[..digits].parse().ok()?;
        out.push((l, rest.get(digits..digits + n)?.to_string()));
        rest = &rest[digits + n..];
    }
    (rest == "E" && !out.is_empty()).then_some(out)
}

/// `::a::b::x` from a nested linkage name `_ZN1a1b1xE` (a global one,
/// `x`, has no components to read: `None`).
pub fn qualified_name(mangled: &str) -> Option<String> {
    nested_name(mangled, false)
}

/// The qualified name of a function template specialization's template
/// (`_ZN3cub6detail11EmptyKernelIvEEvv` → `::cub::detail::EmptyKernel`):
/// its nested name up to the template arguments.
pub fn template_qualified_name(mangled: &str) -> Option<String> {
    nested_name(mangled, true)
}

fn nested_name(mangled: &str, template: bool) -> Option<String> {
    let mut rest = mangled.strip_prefix("_ZN")?;
    let mut out = String::new();
    loop {
        if let Some(r) = rest.strip_prefix('L') {
            rest = r;
        }
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
    let end = if template { 'I' } else { 'E' };
    (rest.starts_with(end) && !out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn qualified_names() {
        assert_eq!(super::qualified_name("_ZN6detail7d_ticksE").as_deref(), Some("::detail::d_ticks"));
        assert_eq!(super::qualified_name("d_int"), None);
        assert_eq!(super::qualified_name("_ZN2ns1kIiEEvv"), None);
        assert_eq!(super::qualified_name("_ZN6detailL1xE").as_deref(), Some("::detail::x"));
        assert_eq!(
            super::template_qualified_name("_ZN3cub6detail11EmptyKernelIvEEvv").as_deref(),
            Some("::cub::detail::EmptyKernel")
        );
        assert_eq!(super::template_qualified_name("_Z1kIiEvv"), None);
    }

    #[test]
    fn bounds_from_initializers() {
        use super::{Init, initializer as n};
        assert_eq!(n("w[] = {0.25f, 0.5f, 0.25f};", 0), Some(Init::Elems { n: 3, braced: false }));
        assert_eq!(n("g[][2] = {{1, 2}, {3, 4}, {5, 6},};", 0), Some(Init::Elems { n: 3, braced: true }));
        assert_eq!(n("f[][3] = {1, 2, 3, 4, 5, 6, 7};", 0), Some(Init::Elems { n: 7, braced: false }));
        assert_eq!(n("s[] = \"a\\\"b\";", 0), Some(Init::Chars(4)));
        assert_eq!(n("s[] = \"stencil\" \"-v2\";", 0), Some(Init::Chars(11)));
        assert_eq!(n("x[];", 0), None);
    }

    #[test]
    fn device_var_names() {
        use super::device_var_name as n;
        assert_eq!(n("_ZL8d_primes", "_m", false), "d_primes");
        assert_eq!(n("_ZL8d_primes", "_m", true), "__nv_static_2__m_d_primes");
        assert_eq!(n("_ZN6detailL1xE", "_ab", false), "_ZN12_INTERNAL_ab6detail1xE");
        assert_eq!(n("_ZN6detail7d_ticksE", "_ab", true), "_ZN6detail7d_ticksE");
        assert_eq!(n("d_int", "_ab", true), "d_int");
    }
}
