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
pub fn device_linkage_name(db: &dyn SourceDatabase, e: Entity, mid: &str) -> Result<String, crate::SemaError> {
    device_name(db, e, mid, true)
}

/// A kernel's device name: internal linkage loses g++'s `L` and takes no
/// `_INTERNAL<mid>` (`_ZN3cub6detail11EmptyKernelIvEEvv` for a `static`
/// kernel template; `-rdc`'s `__nv_static_` prefix is the caller's).
pub fn device_kernel_name(db: &dyn SourceDatabase, e: Entity, mid: &str) -> Result<String, crate::SemaError> {
    device_name(db, e, mid, false)
}

/// The base-object constructor's device name (`C2`) of a constructor
/// `e`, which cicc emits beside the complete-object one (`C1`) for every
/// kept constructor; `None` when `e` is no constructor.
pub fn device_base_ctor_name(db: &dyn SourceDatabase, e: Entity, mid: &str) -> Option<String> {
    let enc = match e {
        Entity::Fn(f) => super::fn_encoding(db, f).ok()?,
        Entity::FnInst(i) => super::fn_instance_encoding(db, i).ok()?,
        _ => return None,
    };
    let FnEncoding::Tree(m::Encoding::Function(mut name, ty)) = enc else { return None };
    let last = name.comps.last_mut()?;
    if last.name != m::Unqualified::Ctor(m::CtorKind::Complete) {
        return None;
    }
    last.name = m::Unqualified::Ctor(m::CtorKind::Base);
    m::mangle_edg(&to_device(m::Encoding::Function(name, ty), mid, false, true).ok()?)
        .ok()
        .map(|s| edg_value_expansions(&s))
}

/// A kernel's name as cicc's stub file names the kernel's stub function
/// (`__device_stub_` + this): [`device_kernel_name`], except that the
/// closure type of an extended lambda among a kernel instance's template
/// arguments is written in cicc's vendor form (`Unvdl…`, from the parts of
/// cudafe++'s wrapper type for it), where the device name has `Ul…E_`.
pub fn stub_kernel_name(db: &dyn SourceDatabase, e: Entity, mid: &str) -> Result<String, crate::SemaError> {
    let Entity::FnInst(i) = e else { return device_kernel_name(db, e, mid) };
    let mut closures = Vec::new();
    for a in i.args(db) {
        closures_in_arg(db, a, &mut closures);
    }
    let mut vendor: Vec<(m::Name, m::Unqualified)> = Vec::new();
    for c in closures {
        let Some(x) = crate::infer::extended_lambda_of(db, c) else { continue };
        // As the kernel's name holds it: with the device names of the
        // functions it is local to.
        let mut enc = m::Encoding::Data(crate::instances::closure_type_name(db, c)?);
        locals_to_device(&mut enc, mid);
        let m::Encoding::Data(name) = enc else { continue };
        let v = vendor_lambda(db, c, &x, &name)?;
        vendor.push((name, m::Unqualified::VendorLambda(Box::new(v))));
    }
    if vendor.is_empty() {
        return device_kernel_name(db, e, mid);
    }
    let mut rewrite = |enc: &mut m::Encoding| {
        m::walk::names_mut(enc, &mut |n: &mut m::Name| {
            if let Some((_, v)) = vendor.iter().find(|(k, _)| k == n)
                && let Some(last) = n.comps.last_mut()
            {
                last.name = v.clone();
            }
        })
    };
    device_name_with(db, e, mid, false, &mut rewrite)
}

/// The closure types among a template argument's types, outermost first.
fn closures_in_arg(db: &dyn SourceDatabase, a: &crate::templates::TemplateArg, out: &mut Vec<crate::infer::ClosureId>) {
    use crate::templates::TemplateArg;
    match a {
        TemplateArg::Type(t) => closures_in_ty(db, *t, out, 0),
        TemplateArg::Pack(xs) => xs.iter().for_each(|x| closures_in_arg(db, x, out)),
        _ => {}
    }
}

fn closures_in_ty(db: &dyn SourceDatabase, t: crate::TyId, out: &mut Vec<crate::infer::ClosureId>, depth: u32) {
    use crate::ty::TyKind;
    // Template arguments nest as deep as instantiation allows; a closure
    // deeper than this is not looked for (its stub is then named as the
    // device names it).
    if depth > 64 {
        return;
    }
    match crate::ty::canonical(db, t).kind(db) {
        TyKind::Closure(c) if !out.contains(c) => out.push(*c),
        TyKind::Ptr(x) | TyKind::LRef(x) | TyKind::RRef(x) | TyKind::Qualified(x, _) | TyKind::Array(x, _) => {
            closures_in_ty(db, *x, out, depth + 1)
        }
        TyKind::App(app) => {
            for a in app.args(db) {
                if let crate::templates::TemplateArg::Type(x) = a {
                    closures_in_ty(db, *x, out, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// The vendor form's parts of closure `c` named `name` (`Z <func> E Ul…`).
fn vendor_lambda(
    db: &dyn SourceDatabase,
    c: crate::infer::ClosureId,
    x: &crate::infer::ExtLambda,
    name: &m::Name,
) -> Result<m::VendorLambda, crate::SemaError> {
    use crate::infer::ExtLambdaKind;
    let m::Root::Local { func, .. } = &name.root else {
        return Err("an extended lambda outside a function".into());
    };
    let map = crate::def_map(db, crate::infer::owner_tu(db, c.owner(db)));
    let ty = |t: crate::TyId| super::mangle_ty(db, &map, t);
    let kind = match &x.kind {
        ExtLambdaKind::Device => m::VendorLambdaKind::Device,
        ExtLambdaKind::Trailing(r) => m::VendorLambdaKind::Trailing(ty(*r)?),
        ExtLambdaKind::HostDevice { mutable, fptr_conv, noexcept, sig } => {
            let crate::ty::TyKind::Func(f) = sig.kind(db) else { return Err("a lambda signature".into()) };
            m::VendorLambdaKind::HostDevice {
                mutable: *mutable,
                fptr_conv: *fptr_conv,
                noexcept: *noexcept,
                ret: ty(f.ret)?,
                params: f.params.iter().map(|p| ty(*p)).collect::<Result<_, _>>()?,
            }
        }
    };
    Ok(m::VendorLambda {
        kind,
        fn_ptr: ty(x.parent_ptr)?,
        func: (**func).clone(),
        index: x.index,
        captures: x.captures.iter().map(|t| ty(*t)).collect::<Result<_, _>>()?,
    })
}

fn device_name(
    db: &dyn SourceDatabase,
    e: Entity,
    mid: &str,
    internal_prefix: bool,
) -> Result<String, crate::SemaError> {
    device_name_with(db, e, mid, internal_prefix, &mut |_| {})
}

fn device_name_with(
    db: &dyn SourceDatabase,
    e: Entity,
    mid: &str,
    internal_prefix: bool,
    rewrite: &mut dyn FnMut(&mut m::Encoding),
) -> Result<String, crate::SemaError> {
    // A `static` function is a C++ function of its own on the device even
    // when an `extern "C"` declaration of the name comes first (the
    // runtime's `static __device__` builtins: `cudaMalloc`), and internal.
    let (enc, is_static) = match e {
        Entity::Fn(f) => {
            let tree = crate::item_tree_of(db, f.item(db));
            // `static` on a member function is no linkage.
            let data = tree.fns.get(f.idx(db) as usize);
            let is_static = data.is_some_and(|d| d.linkage.is_static && !d.in_class);
            // A function first declared `static` keeps internal linkage
            // through later `extern` declarations ([dcl.stc]), and cicc
            // names it by that first declaration: the runtime declares
            // `static __device__ cudaMalloc(void **, size_t)` for the device
            // before `extern "C" __host__ cudaMalloc(…)` (and
            // `cudaEventRecord`, `cudaFree`…), and a call that resolves to
            // the host declaration names `_ZN<_INTERNAL…>10cudaMallocEPPvm`.
            if !is_static
                && data.is_some_and(|d| !d.in_class && d.qualifier.is_none())
                && let Some(g) = crate::exec_space::redeclarations(db, crate::instances::FnDecl::Fn(f))
                    .into_iter()
                    .find_map(|r| match r {
                        crate::instances::FnDecl::Fn(g)
                            if r.data(db).is_some_and(|d| d.linkage.is_static && !d.in_class) =>
                        {
                            Some(g)
                        }
                        _ => None,
                    })
            {
                return device_name_with(db, Entity::Fn(g), mid, internal_prefix, rewrite);
            }
            (super::fn_encoding_as(db, f, is_static)?, is_static)
        }
        Entity::FnInst(i) => {
            let is_static = i.decl(db).data(db).is_some_and(|d| d.linkage.is_static && !d.in_class);
            (super::fn_instance_encoding(db, i)?, is_static)
        }
        Entity::Closure(f) => {
            let mut enc = crate::instances::local::closure_fn_encoding(db, f)?;
            locals_to_device(&mut enc, mid);
            rewrite(&mut enc);
            return m::mangle_edg(&enc).map(|s| edg_value_expansions(&s)).map_err(crate::SemaError::from);
        }
        _ => return super::mangled_name(db, e),
    };
    let enc = match enc {
        FnEncoding::Plain(s) => return Ok(s),
        FnEncoding::Tree(t) => t,
    };
    let mut enc = to_device(enc, mid, is_static && internal_prefix, internal_prefix)?;
    locals_to_device(&mut enc, mid);
    rewrite(&mut enc);
    m::mangle_edg(&enc).map(|s| edg_value_expansions(&s)).map_err(crate::SemaError::from)
}

/// A value parameter pack expanded as a template argument
/// (`integer_sequence<size_t, Is...>`) as cicc spells it: `JXT0_EE`, where
/// g++ writes `JXspT0_EE` (every such name in cicc's listings of the
/// corpus, none with `sp`). Only the expansion of the bare parameter is
/// rewritten; `sp` is no substitution candidate, so the rest of the name
/// is unchanged.
fn edg_value_expansions(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("XspT") {
        let after = &rest[i + 4..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let bare_param = after[digits..].starts_with("_E");
        out.push_str(&rest[..i]);
        out.push_str(if bare_param { "XT" } else { "XspT" });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The device name of a type named `name` (a closure type in a stub's
/// `typedef`): the functions its local names are in take their device
/// names.
pub fn device_type_name(name: &m::Name, mid: &str) -> Result<String, crate::SemaError> {
    let mut enc = m::Encoding::Data(name.clone());
    locals_to_device(&mut enc, mid);
    m::mangle_edg(&enc).map_err(crate::SemaError::from)
}

/// Gives every function a local name is rooted in its device name: an
/// internal one (`static`, in an anonymous namespace) takes
/// `_INTERNAL<mid>` and `_GLOBAL__N_<mid>` as cicc writes it
/// (`_ZZN34_INTERNAL_…36_GLOBAL__N__…4anonEPiENKUliE_clEi`, checked with
/// the real nvcc). An empty `mid` leaves `_INTERNAL` and `_GLOBAL__N_1`
/// for [`super::with_module_id`] to complete.
fn locals_to_device(enc: &mut m::Encoding, mid: &str) {
    m::walk::names_mut(enc, &mut |n: &mut m::Name| {
        if let m::Root::Local { func, .. } = &mut n.root
            && let Ok(dev) = to_device((**func).clone(), mid, false, true)
        {
            **func = dev;
        }
    });
}

fn to_device(enc: m::Encoding, mid: &str, is_static: bool, prefix: bool) -> Result<m::Encoding, crate::SemaError> {
    let mut enc = enc;
    // An internal-linkage function or variable named by a template argument
    // (`app<&helper>` with `static int helper(int)`) is spelled with its
    // device name there too: `XadL_ZN…_INTERNAL…6helperEiEE`, not g++'s
    // `XadL_ZL6helperiEE`.
    let mut failed = None;
    m::walk::targ_entities_mut(&mut enc, &mut |e: &mut m::Encoding| {
        let renamed = match e.clone() {
            m::Encoding::Function(name, ty) => {
                name_to_device(*name, mid, false, true).map(|n| m::Encoding::Function(Box::new(n), ty))
            }
            m::Encoding::Data(name) => name_to_device(name, mid, false, true).map(m::Encoding::Data),
            other => Ok(other),
        };
        match renamed {
            Ok(x) => *e = x,
            Err(err) => failed = Some(err),
        }
    });
    if let Some(err) = failed {
        return Err(err);
    }
    Ok(match enc {
        m::Encoding::Function(name, ty) => {
            m::Encoding::Function(Box::new(name_to_device(*name, mid, is_static, prefix)?), ty)
        }
        m::Encoding::Data(name) => m::Encoding::Data(name_to_device(name, mid, is_static, prefix)?),
        other => other,
    })
}

fn name_to_device(mut name: m::Name, mid: &str, is_static: bool, prefix: bool) -> Result<m::Name, crate::SemaError> {
    let mut internal = is_static;
    for c in &mut name.comps {
        match &c.name {
            m::Unqualified::StaticSource(s) => {
                c.name = m::Unqualified::Source(s.clone());
                internal = true;
            }
            m::Unqualified::AnonNamespace(_) => {
                // An empty id keeps g++'s spelling (for callers that rename later).
                if !mid.is_empty() {
                    c.name = m::Unqualified::AnonNamespace(Some(mid.to_string()));
                }
                internal = true;
            }
            _ => {}
        }
    }
    if internal && prefix && name.root == m::Root::Global {
        m::cuda::internal(&name, mid).map_err(crate::SemaError::from)
    } else {
        Ok(name)
    }
}
