//! The stub file cicc writes (`--stub_file_name`, spec 30 §3): device stubs
//! and registration, included by the host file g++ compiles.
//!
//! Layout and spellings are cicc's C generator's. Two of its habits matter:
//! - after the first non-template kernel's redefinition (printed under a
//!   `# <line> "<source>"` marker and followed by `# 1 "<stub>"`), the
//!   generator prints "spaced" (`( int __par0) {  a; b; }`), before it
//!   "compact" (`(int __par0){a;b;}`);
//! - restrict-qualified pointer parameters are copied to temporaries
//!   (`__T<n>`), as is the callback's parameter. cicc numbers them with one
//!   counter shared with the device listing's bodies, which cufront does
//!   not lower yet: here the counter counts the stub's own temporaries
//!   only, so those numbers differ from cicc's where the listing has
//!   temporaries (the differential test reports both comparisons).

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_hir::{TyId, TyKind, def_map};
use cufront_mangle as m;

use crate::registry::{self, DeviceVar, Kernel};
use crate::spell::{self, Speller, Style, declare};

/// What the stub needs from the command line.
#[derive(Clone, Debug, Default)]
pub struct StubOptions {
    /// The `--stub_file_name` argument, byte for byte (the `# 1 "…"` lines).
    pub stub_path: String,
    /// `--include_file_name`.
    pub include_file: Option<String>,
    /// The module id as the module id file holds it.
    pub module_id: Option<String>,
    /// `--device-c`.
    pub device_c: bool,
}

struct Printer<'a> {
    db: &'a dyn SourceDatabase,
    sp: Speller<'a>,
    out: String,
    spaced: bool,
    temps: u32,
}

/// The stub file's text, or why it cannot be written.
pub fn stub_file(db: &dyn SourceDatabase, tu: TranslationUnit, opts: &StubOptions) -> Result<String, String> {
    let map = def_map(db, tu);
    let kernels = registry::kernels(db, tu);
    let vars = registry::device_vars(db, tu);
    let sp = Speller {
        db,
        map: &map,
        typedefs: Vec::new(),
        closures: Vec::new(),
        mid: opts.module_id.as_deref().map(str::trim_end).unwrap_or("").to_string(),
    };
    let mut p = Printer { db, sp, out: String::new(), spaced: false, temps: 0 };
    p.out.push_str(
        "#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Wunused-function\"\n#pragma GCC diagnostic ignored \"-Wcast-qual\"\n",
    );
    if opts.device_c
        && let Some(id) = &opts.module_id
    {
        p.out.push_str(&format!("#define __NV_MODULE_ID {id}\n"));
    }
    p.out.push_str(&format!(
        "#define __NV_CUBIN_HANDLE_STORAGE__ {}\n",
        if opts.device_c { "extern" } else { "static" }
    ));
    p.out.push_str("#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)\n#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__\n#endif\n#include \"crt/host_runtime.h\"\n");
    if let Some(inc) = &opts.include_file {
        p.out.push_str(&format!("#include \"{inc}\"\n"));
    }
    let mid = opts.module_id.as_deref().map(str::trim_end).unwrap_or("");
    let mut prepared = Vec::new();
    for k in kernels.iter() {
        let name = k.host_name.clone().unwrap_or_else(|_| k.name.clone());
        prepared.push(Prepared::new(&mut p, k, mid, opts.device_c).map_err(|e| format!("kernel `{name}`: {e}"))?);
    }
    closure_typedefs_first(db, tu, &mut p.sp);
    for (_, line) in &p.sp.typedefs {
        p.out.push_str(line);
        p.out.push('\n');
    }
    for k in &prepared {
        let params = k.c_params.join(", ");
        let params = if params.is_empty() { "void".to_string() } else { params };
        let head = if k.static_stub { "static void" } else { "extern __attribute__((visibility(\"hidden\"))) void" };
        p.out.push_str(&format!("{head} {}({params});\n", k.stub_name));
    }
    p.out.push_str("static void __nv_cudaEntityRegisterCallback(void **);\n");
    p.out.push_str("static void __sti____cudaRegisterAll(void) __attribute__((__constructor__));\n");
    for (k, src) in prepared.iter().zip(kernels.iter()) {
        p.stub_definition(k);
        if k.template {
            p.wrapper(k)?;
        } else {
            p.redefinition(tu, k, src, &opts.stub_path)?;
        }
    }
    p.callback(&prepared, &vars, mid, opts.device_c)?;
    let (open, close) = if p.spaced { (" {  ", ";  }") } else { ("{", ";}") };
    let register = if opts.device_c { "____cudaRegisterLinkedBinary" } else { "__cudaRegisterBinary" };
    p.out.push_str(&format!(
        "static void __sti____cudaRegisterAll(void){open}{register}(__nv_cudaEntityRegisterCallback){close}\n"
    ));
    p.out.push_str("\n#pragma GCC diagnostic pop\n");
    Ok(p.out)
}

/// A kernel with its spellings worked out.
struct Prepared {
    stub_name: String,
    device_name: String,
    /// The name the casts use: `k`, `ns::k`, `k<    ::S, float> `.
    cast_name: String,
    /// `elementwise< ::Clamp,float>`.
    wrapper_name: String,
    template: bool,
    static_stub: bool,
    internal: bool,
    params: Vec<TyId>,
    c_params: Vec<String>,
    cxx_params: Vec<String>,
    /// `cxx_params` without a top-level `__restrict__`.
    cxx_plain: Vec<String>,
    offsets: Vec<u64>,
    /// Set up by `__cudaSetupArg` (else `__cudaSetupArgSimple`).
    by_ref: Vec<bool>,
    /// Taken by the stub function by reference (`stub_by_reference`).
    stub_by_ref: Vec<bool>,
    /// The namespaces a kernel template is declared in, outermost first,
    /// each with whether it is `inline`: cicc defines the wrapper's
    /// specialization inside them (`None`: an unnamed one among them).
    namespaces: Option<Vec<(String, bool)>>,
}

/// The namespaces enclosing a function template's declaration.
fn template_namespaces(
    db: &dyn SourceDatabase,
    map: &cufront_hir::DefMap,
    e: cufront_hir::Entity,
) -> Option<Vec<(String, bool)>> {
    use cufront_hir::scopes::{DeclKey, ScopeKind};
    let cufront_hir::Entity::FnInst(i) = e else { return Some(Vec::new()) };
    let key = match i.decl(db) {
        cufront_hir::instances::FnDecl::Template(t) => DeclKey::FnTemplate(t),
        cufront_hir::instances::FnDecl::Fn(f) => DeclKey::Fn(f),
    };
    let mut scope = map.parent.get(&key).copied();
    let mut out = Vec::new();
    while let Some(s) = scope {
        let sc = map.scope(s);
        match &sc.kind {
            ScopeKind::Namespace { name: Some(n), inline } => out.push((n.clone(), *inline)),
            ScopeKind::Namespace { name: None, .. } => return None,
            _ => {}
        }
        scope = sc.parent;
    }
    out.reverse();
    Some(out)
}

impl Prepared {
    fn new(p: &mut Printer<'_>, k: &Kernel, mid: &str, device_c: bool) -> Result<Prepared, String> {
        let db = p.db;
        let host = k.host_name.clone()?;
        // C linkage (`extern "C"`, directly or by redeclaration): registered
        // by its plain name, its stub still named after the C++ name.
        let c_linkage = !host.starts_with("_Z");
        // The device spells a static kernel without g++'s `L`.
        let device_cxx = |name: &Result<String, cufront_hir::SemaError>| -> Result<String, String> {
            let cxx = cufront_hir::symbols::with_module_id(&name.clone()?, mid);
            Ok(match cxx.strip_prefix("_ZL") {
                Some(rest) => format!("_Z{rest}"),
                None => cxx,
            })
        };
        let cxx = device_cxx(&k.cxx_name)?;
        let stub_cxx = device_cxx(&k.stub_cxx_name)?;
        let device_name = if c_linkage {
            host
        } else if k.internal && device_c {
            m::cuda::nv_static(mid, &cxx)
        } else {
            cxx.clone()
        };
        let params: Vec<TyId> = k.params.clone()?.into_iter().map(|t| spell::param(db, t)).collect();
        let c_params = params.iter().map(|t| stub_param(&mut p.sp, *t)).collect::<Result<Vec<_>, _>>()?;
        let cxx_params = params.iter().map(|t| p.sp.spell(*t, Style::Cxx)).collect::<Result<Vec<_>, _>>()?;
        let cxx_plain = params
            .iter()
            .map(|t| p.sp.spell(unrestricted(db, *t).unwrap_or(*t), Style::Cxx))
            .collect::<Result<Vec<_>, _>>()?;
        let mut offsets = Vec::new();
        let mut end = 0u64;
        for t in &params {
            let (size, align) = host_size_align(db, *t)?;
            let at = end.div_ceil(align.max(1)) * align.max(1);
            offsets.push(at);
            end = at + size;
        }
        let by_ref = params.iter().map(|t| cufront_hir::instances::stub::setup_arg_type(db, *t).is_some()).collect();
        let stub_by_ref = params.iter().map(|t| stub_by_reference(db, *t)).collect();
        let scope = registry::qualified_name(&cxx).map(|q| q.trim_start_matches("::").to_string());
        let base = match scope {
            Some(q) if !k.template => q,
            _ => k.name.clone(),
        };
        let (cast_name, wrapper_name) = if k.template {
            let base = match registry::template_qualified_name(&cxx) {
                Some(q) => {
                    q.trim_start_matches("::").rsplit_once("::").map_or(String::new(), |(s, _)| format!("{s}::"))
                }
                None => String::new(),
            };
            (
                format!("{base}{}{}", k.name, p.sp.template_args(&k.args, false)?),
                format!("{}{}", k.name, p.sp.template_args(&k.args, true)?),
            )
        } else {
            (base.clone(), base)
        };
        Ok(Prepared {
            stub_name: m::cuda::device_stub(&stub_cxx),
            device_name,
            cast_name,
            wrapper_name,
            template: k.template,
            static_stub: k.template || k.internal,
            internal: k.internal,
            params,
            c_params,
            cxx_params,
            cxx_plain,
            offsets,
            by_ref,
            stub_by_ref,
            namespaces: if k.template { template_namespaces(db, p.sp.map, k.entity) } else { Some(Vec::new()) },
        })
    }

    fn fn_ptr_cast(&self) -> String {
        let params = if self.c_params.is_empty() { "void".to_string() } else { self.c_params_by_value().join(", ") };
        format!("((void ( *)({params})){})", self.cast_name)
    }

    /// The parameter types as the kernel declares them (classes by value).
    fn c_params_by_value(&self) -> Vec<String> {
        self.c_params
            .iter()
            .zip(&self.stub_by_ref)
            .map(|(s, r)| if *r { s.trim_end_matches('&').to_string() } else { s.clone() })
            .collect()
    }
}

/// Puts the `typedef`s of extended lambdas' closure types first, in the
/// order cicc's IL lists their enclosing functions: the unit's
/// namespace-scope functions in source order, then the template instances
/// in the order they were first needed ([`registry::reference_order`]),
/// then member functions defined in their class; within a function, in
/// source order. Checked with the real nvcc on units with lambdas in
/// `main`, in namespace functions, function template instances and member
/// functions (`__cudafe1.stub.c` of `tests/corpus/lambdas.cu`,
/// `cxx20_device.cu`). The other `typedef`s keep their first-use order.
fn closure_typedefs_first(db: &dyn SourceDatabase, tu: TranslationUnit, sp: &mut Speller<'_>) {
    if sp.closures.is_empty() {
        return;
    }
    let order = registry::reference_order(db, tu);
    let offsets = registry::positions(db, tu);
    let key = |c: cufront_hir::infer::ClosureId| -> (u8, registry::Pos, u32) {
        let Some(x) = cufront_hir::infer::extended_lambda_of(db, c) else { return (4, (0, 0), 0) };
        let at = |e: cufront_hir::Entity| offsets.get(&e).copied().unwrap_or((u32::MAX, u32::MAX));
        let (decl, rank) = match x.parent {
            cufront_hir::Entity::FnInst(i) => (i.decl(db), (order.get(&x.parent).copied().unwrap_or(u32::MAX), 0)),
            cufront_hir::Entity::Fn(f) => (cufront_hir::instances::FnDecl::Fn(f), at(x.parent)),
            _ => return (4, (0, 0), x.index),
        };
        let instance = matches!(x.parent, cufront_hir::Entity::FnInst(_));
        // A function defined in its class comes after the others, by where
        // it stands, then the instances of templates defined in a class.
        if decl.data(db).is_some_and(|d| d.in_class) {
            return (if instance { 3 } else { 2 }, rank, x.index);
        }
        (if instance { 1 } else { 0 }, rank, x.index)
    };
    let mut closures: Vec<(String, (u8, registry::Pos, u32))> =
        sp.closures.iter().map(|(m, c)| (m.clone(), key(*c))).collect();
    closures.sort_by_key(|(_, k)| *k);
    let mut lines: Vec<(String, String)> = Vec::with_capacity(sp.typedefs.len());
    for (m, _) in &closures {
        if let Some(l) = sp.typedefs.iter().find(|(n, _)| n == m) {
            lines.push(l.clone());
        }
    }
    lines.extend(sp.typedefs.iter().filter(|(n, _)| !closures.iter().any(|(m, _)| m == n)).cloned());
    sp.typedefs = lines;
}

/// The size and alignment of a kernel parameter's type as the host object
/// lays it out. An extended lambda's closure type is cudafe++'s wrapper
/// there (spec 30 §5): its captures as fields in order (an array as
/// `__nv_lambda_array_wrapper`, the same layout), then, for a
/// `__host__ __device__` lambda without the conversion to a pointer to
/// function, `void *data` (the preamble's definitions). An empty wrapper
/// has size 1.
fn host_size_align(db: &dyn SourceDatabase, t: TyId) -> Result<(u64, u64), String> {
    let layout = |t: TyId| cufront_hir::layout::size_align(db, t).map_err(|e| format!("{e:?}"));
    let TyKind::Closure(c) = cufront_hir::ty::canonical(db, t).kind(db) else { return layout(t) };
    let Some(x) = cufront_hir::infer::extended_lambda_of(db, *c) else { return layout(t) };
    let mut fields = Vec::new();
    for &cap in &x.captures {
        fields.push(layout(cap)?);
    }
    if let cufront_hir::infer::ExtLambdaKind::HostDevice { fptr_conv: false, .. } = x.kind {
        fields.push((8, 8));
    }
    let (mut end, mut align) = (0u64, 1u64);
    for (size, a) in fields {
        let a = a.max(1);
        end = end.div_ceil(a) * a + size;
        align = align.max(a);
    }
    Ok(((end.div_ceil(align) * align).max(1), align))
}

/// A stub function's parameter: an object of class type (a union
/// included, which `__cudaSetupArgSimple` still sets up) is passed by
/// reference.
fn stub_param(sp: &mut Speller<'_>, t: TyId) -> Result<String, String> {
    let s = sp.spell(t, Style::C)?;
    Ok(if stub_by_reference(sp.db, t) { format!("{s}&") } else { s })
}

/// Whether the stub function takes a parameter of type `t` by reference:
/// an object of class type, a union included.
fn stub_by_reference(db: &dyn SourceDatabase, t: TyId) -> bool {
    let bare = match cufront_hir::ty::canonical(db, t).kind(db) {
        TyKind::Qualified(x, _) => cufront_hir::ty::canonical(db, *x),
        _ => cufront_hir::ty::canonical(db, t),
    };
    matches!(bare.kind(db), TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_) | TyKind::Closure(_))
        || cufront_hir::instances::stub::setup_arg_type(db, t).is_some()
}

/// `t` without a top-level `__restrict__`.
fn unrestricted(db: &dyn SourceDatabase, t: TyId) -> Option<TyId> {
    match t.kind(db) {
        TyKind::Qualified(inner, cv) if cv.r => {
            let mut cv = *cv;
            cv.r = false;
            Some(if cv.is_empty() { *inner } else { TyId::new(db, TyKind::Qualified(*inner, cv)) })
        }
        _ => None,
    }
}

impl Printer<'_> {
    fn next_temp(&mut self) -> String {
        let t = format!("__T{}", self.temps);
        self.temps += 1;
        t
    }

    /// A block: `{a;b;}` compact, ` {  a; b; }` spaced; `temps` (declaration
    /// lines of temporaries) open it, and the statement after them starts
    /// its line.
    fn block(&self, temps: &[String], stmts: &[String]) -> String {
        let mut s = String::from(if self.spaced { " { " } else { "{" });
        for t in temps {
            s.push_str(&format!(" {t};\n"));
        }
        for (i, x) in stmts.iter().enumerate() {
            if self.spaced && (i != 0 || temps.is_empty()) {
                s.push(' ');
            }
            s.push_str(x);
            s.push(';');
        }
        s.push_str(if self.spaced { " }" } else { "}" });
        s
    }

    fn params_list(&self, decls: &[String]) -> String {
        if decls.is_empty() {
            return "(void)".into();
        }
        if self.spaced { format!("( {})", decls.join(",  ")) } else { format!("({})", decls.join(", ")) }
    }

    fn stub_definition(&mut self, k: &Prepared) {
        let decls: Vec<String> = k.c_params.iter().enumerate().map(|(i, t)| declare(t, &format!("__par{i}"))).collect();
        let mut temps = Vec::new();
        let mut stmts = vec![format!("__cudaLaunchPrologue({})", k.params.len().max(1))];
        for (i, t) in k.params.iter().enumerate() {
            let arg = if let (Some(plain), false) = (unrestricted(self.db, *t), k.by_ref[i]) {
                let tmp = self.next_temp();
                let ty = self.sp.spell(plain, Style::C).unwrap_or_default();
                temps.push(declare(&ty, &tmp));
                stmts.push(format!("{tmp} = __par{i}"));
                tmp
            } else {
                format!("__par{i}")
            };
            let setup = if k.by_ref[i] { "__cudaSetupArg" } else { "__cudaSetupArgSimple" };
            stmts.push(format!("{setup}({arg}, {}UL)", k.offsets[i]));
        }
        stmts.push(format!("__cudaLaunch(((char *){}), 0U)", k.fn_ptr_cast()));
        let head = if k.static_stub { "static void" } else { "__attribute__((visibility(\"hidden\"))) void" };
        let body = self.block(&temps, &stmts);
        self.out.push_str(&format!("{head} {}{}{body}\n", k.stub_name, self.params_list(&decls)));
    }

    fn wrapper(&mut self, k: &Prepared) -> Result<(), String> {
        let refs: Vec<String> = k.cxx_params.iter().map(|t| ref_of(t)).collect();
        let decls: Vec<String> = refs.iter().enumerate().map(|(i, t)| declare(t, &format!("__cuda_{i}"))).collect();
        // The call casts to the parameter types without `__restrict__`.
        let args: Vec<String> =
            k.cxx_plain.iter().enumerate().map(|(i, t)| format!("({})__cuda_{i}", ref_of(t))).collect();
        let params = if decls.is_empty() { "(void)".to_string() } else { format!("( {})", decls.join(",")) };
        let call = if args.is_empty() { "()".to_string() } else { format!("( {})", args.join(",")) };
        // Inside the kernel template's namespaces, opened right after the
        // stub's definition (on its line) and closed at the end of the
        // specialization's.
        let namespaces = k.namespaces.as_ref().ok_or("a kernel template in an unnamed namespace")?;
        if !namespaces.is_empty() {
            if self.out.ends_with('\n') {
                self.out.pop();
            }
            for (n, inline) in namespaces {
                self.out.push_str(&format!("{}namespace {n}{{\n", if *inline { "inline " } else { "" }));
            }
            self.out.push('\n');
        }
        self.out.push_str(&format!(
            "template<> __specialization_static void __wrapper__device_stub_{}{params}{{{}{call};}}{}\n",
            k.wrapper_name,
            k.stub_name,
            "}".repeat(namespaces.len())
        ));
        Ok(())
    }

    fn redefinition(&mut self, tu: TranslationUnit, k: &Prepared, src: &Kernel, stub_path: &str) -> Result<(), String> {
        let at = src
            .name_at
            .and_then(|pos| registry::unit_offset(self.db, tu, pos))
            .ok_or("the kernel's definition is not located")?;
        let text = tu.text(self.db);
        let smap = cufront_base_db::source_map(self.db, tu);
        let (open, close) = body_braces(text, at as usize).ok_or("the kernel's body is not found")?;
        let decl = smap.location(at);
        let file = smap.file_name(decl.file).to_string();
        let open_line = smap.location(open as u32).line;
        let close_line = smap.location(close as u32).line;
        let close_file = smap.file_name(smap.location(close as u32).file).to_string();
        let decls: Vec<String> =
            k.cxx_params.iter().enumerate().map(|(i, t)| declare(t, &format!("__cuda_{i}"))).collect();
        let params = if decls.is_empty() { "(void)".to_string() } else { format!("( {})", decls.join(",")) };
        let args: Vec<String> = (0..decls.len()).map(|i| format!("__cuda_{i}")).collect();
        let call = if args.is_empty() { "()".to_string() } else { format!("( {})", args.join(",")) };
        let storage = if k.internal { "static " } else { "" };
        self.out.push_str(&format!("# {} \"{file}\"\n{storage}void {}{params}\n", decl.line, k.cast_name));
        self.out.push_str(&format!("# {open_line} \"{file}\"\n{{{}{call};", k.stub_name));
        // EDG moves down by newlines up to five lines, else by a marker.
        if close_file == file && close_line == open_line {
            self.out.push(' ');
        } else if close_file == file && close_line >= open_line && close_line - open_line <= 5 {
            for _ in open_line..close_line {
                self.out.push('\n');
            }
        } else {
            self.out.push_str(&format!("\n# {close_line} \"{close_file}\"\n"));
        }
        self.out.push_str(&format!("}}\n# 1 \"{stub_path}\"\n"));
        self.spaced = true;
        Ok(())
    }

    fn callback(&mut self, kernels: &[Prepared], vars: &[DeviceVar], mid: &str, device_c: bool) -> Result<(), String> {
        let h = self.next_temp();
        let mut stmts =
            vec![format!("__nv_dummy_param_ref({h})"), format!("__nv_save_fatbinhandle_for_managed_rt({h})")];
        for k in kernels.iter().rev() {
            stmts.push(format!("__cudaRegisterEntry({h}, {}, {}, (-1))", k.fn_ptr_cast(), k.device_name));
        }
        for v in vars {
            let name = v.linkage_name.clone()?;
            let name = registry::device_var_name(&cufront_hir::symbols::with_module_id(&name, mid), mid, device_c);
            let (size, _) = cufront_hir::layout::size_align(self.db, v.ty).map_err(|e| format!("{e:?}"))?;
            let call = if v.managed { "__cudaRegisterManagedVariable" } else { "__cudaRegisterVariable" };
            stmts.push(format!(
                "{call}({h}, __shadow_var({name},{}), {}, {size}UL, {}, 0)",
                v.qualified,
                u8::from(v.is_extern),
                u8::from(v.constant)
            ));
        }
        let param = if self.spaced { format!("( void **{h})") } else { format!("(void **{h})") };
        let body = self.block(&[], &stmts);
        self.out.push_str(&format!("static void __nv_cudaEntityRegisterCallback{param}{body}\n"));
        Ok(())
    }
}

/// `T` as an lvalue reference in the C++ style: `float *&`, `int &`.
fn ref_of(t: &str) -> String {
    if t.ends_with('*') { format!("{t}&") } else { format!("{t} &") }
}

/// The offsets of a function body's `{` and `}` after the declarator name
/// at `from` (skipping the parameter list, string and character literals).
fn body_braces(text: &str, from: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let mut i = from;
    let mut paren = 0i32;
    let mut open = None;
    let mut depth = 0i32;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'(' => paren += 1,
            b')' => paren -= 1,
            b';' if open.is_none() && paren == 0 => return None,
            b'{' if paren == 0 || open.is_some() => {
                if open.is_none() {
                    open = Some(i);
                }
                depth += 1;
            }
            b'}' if open.is_some() => {
                depth -= 1;
                if depth == 0 {
                    return Some((open?, i));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn braces() {
        let t = "k(int a, char c = '{')\n{\n f(\"}\");\n { }\n}\n";
        assert_eq!(super::body_braces(t, 0), Some((23, t.len() - 2)));
        assert_eq!(super::body_braces("k(int);", 0), None);
    }
}
