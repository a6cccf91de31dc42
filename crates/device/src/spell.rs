//! EDG's spellings of types and template arguments in the stub file (spec
//! 30 §3), as cicc's C generator prints them. Classes are read from the
//! mangler's tree of the type (`hir::symbols::mangle_ty`), which holds
//! their qualified names and normalised template arguments. Styles:
//!
//! - [`Style::C`]: the stub functions' parameters and the casts of
//!   `__cudaLaunch`/`__cudaRegisterEntry`: `const float *__restrict__`,
//!   `struct Clamp` (a non-template class of the global namespace),
//!   ` _Z3SumIfE` (any other class: its mangled name, declared by a
//!   `typedef Sum<float>  _Z3SumIfE;` line the printer collects), `size_t`
//!   (a typedef of the global namespace, unless `__device_builtin__`),
//!   `_ZN4meta6elem_tIiEE` (an alias template specialization as written in
//!   a kernel template's parameter: its mangled name without the blank,
//!   declared by `typedef long _ZN4meta6elem_tIiEE;` when it denotes a
//!   builtin type, else by `typedef meta::ptr_t<int>  _ZN4meta5ptr_tIiEE;`);
//! - [`Style::Cxx`]: the kernel redefinitions and the template wrappers
//!   (`struct ::S`, `::size_t`);
//! - template arguments ([`Speller::template_args`]): in casts
//!   `<    ::Pair<int, float> , (int)4> ` (EDG's C++ printer: global
//!   classes after four blanks, namespaced ones after one, a space after
//!   every `>`, values as casts), in wrapper names `< ::Clamp,float>` and
//!   `<32U>`.
//!
//! A type it cannot spell is an `Err` with the reason: the stub is then not
//! written rather than written wrong.

use cufront_base_db::SourceDatabase;
use cufront_hir::item_tree::{Builtin, ClassKey};
use cufront_hir::templates::TemplateArg;
use cufront_hir::{DefMap, TyId, TyKind};
use cufront_mangle as m;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    C,
    Cxx,
}

/// `ty` declaring `name`: `float *` + `x` is `float *x`, `int` + `x` is
/// `int x` (EDG puts no space after `*` or `&`).
pub fn declare(ty: &str, name: &str) -> String {
    if ty.ends_with('*') || ty.ends_with('&') { format!("{ty}{name}") } else { format!("{ty} {name}") }
}

/// A kernel parameter's type as the stub passes it: arrays decay.
pub fn param(db: &dyn SourceDatabase, t: TyId) -> TyId {
    match t.kind(db) {
        TyKind::Array(e, _) => TyId::new(db, TyKind::Ptr(*e)),
        _ => t,
    }
}

/// C's spelling of a builtin type (`unsigned`), or, `long_form`, EDG's
/// C++ printer's (`unsigned int`).
pub fn builtin(b: Builtin, long_form: bool) -> Result<&'static str, String> {
    Ok(match b {
        Builtin::Void => "void",
        Builtin::Bool => "bool",
        Builtin::Char => "char",
        Builtin::SChar => "signed char",
        Builtin::UChar => "unsigned char",
        Builtin::WChar => "wchar_t",
        Builtin::Char16 => "char16_t",
        Builtin::Char32 => "char32_t",
        Builtin::Short => "short",
        Builtin::UShort => "unsigned short",
        Builtin::Int => "int",
        Builtin::UInt if long_form => "unsigned int",
        Builtin::UInt => "unsigned",
        Builtin::Long => "long",
        Builtin::ULong => "unsigned long",
        Builtin::LongLong => "long long",
        Builtin::ULongLong => "unsigned long long",
        Builtin::Float => "float",
        Builtin::Double => "double",
        Builtin::LongDouble => "long double",
        other => return Err(format!("no stub spelling for {other:?}")),
    })
}

fn m_builtin(b: m::Builtin, long_form: bool) -> Result<&'static str, String> {
    use m::Builtin as B;
    Ok(match b {
        B::Void => "void",
        B::Bool => "bool",
        B::Char => "char",
        B::SChar => "signed char",
        B::UChar => "unsigned char",
        B::WChar => "wchar_t",
        B::Short => "short",
        B::UShort => "unsigned short",
        B::Int => "int",
        B::UInt if long_form => "unsigned int",
        B::UInt => "unsigned",
        B::Long => "long",
        B::ULong => "unsigned long",
        B::LongLong => "long long",
        B::ULongLong => "unsigned long long",
        B::Float => "float",
        B::Double => "double",
        B::LongDouble => "long double",
        B::Char16 => "char16_t",
        B::Char32 => "char32_t",
        other => return Err(format!("no stub spelling for {other:?}")),
    })
}

/// A literal's suffix in EDG's C++ printer.
fn suffix(b: m::Builtin) -> &'static str {
    use m::Builtin as B;
    match b {
        B::UInt | B::UShort | B::UChar => "u",
        B::Long => "l",
        B::ULong => "ul",
        B::LongLong => "ll",
        B::ULongLong => "ull",
        _ => "",
    }
}

/// The spellings of one stub, with the `typedef` lines its C spellings
/// need (mangled names of classes the host code does not declare).
pub struct Speller<'a> {
    pub db: &'a dyn SourceDatabase,
    pub map: &'a DefMap,
    /// `typedef <C++ spelling> <mangled>;` lines, first use first.
    pub typedefs: Vec<(String, String)>,
    /// The closure types among them, by mangled name.
    pub closures: Vec<(String, cufront_hir::infer::ClosureId)>,
    /// The module id (device names of what is local to internal functions).
    pub mid: String,
}

/// How a class or enum is named.
enum Named {
    /// A non-template entity of the global namespace: its identifier.
    Plain(String),
    /// Anything else: its name tree and mangled name.
    Mangled(m::Name, String),
}

impl Speller<'_> {
    fn named(&self, t: TyId) -> Result<Named, String> {
        let m::Type::Named(name) = cufront_hir::symbols::mangle_ty(self.db, self.map, t)? else {
            return Err("not a named type".into());
        };
        if name.root == m::Root::Global
            && let [c] = name.comps.as_slice()
            && c.args.is_none()
            && let m::Unqualified::Source(s) = &c.name
        {
            return Ok(Named::Plain(s.clone()));
        }
        let mangled = m::mangle(&m::Encoding::Data(name.clone()))?;
        Ok(Named::Mangled(name, mangled))
    }

    fn class_keyword(&self, t: TyId) -> &'static str {
        let TyKind::Class(c) = t.kind(self.db) else { return "struct" };
        let tree = cufront_hir::item_tree_of(self.db, c.item(self.db));
        match tree.classes.get(c.idx(self.db) as usize).map(|k| k.key) {
            Some(ClassKey::Union) => "union",
            _ => "struct",
        }
    }

    /// A non-plain class or enum by its mangled name, its typedef line noted.
    fn mangled(&mut self, name: &m::Name, mangled: String) -> Result<String, String> {
        if !self.typedefs.iter().any(|(m, _)| *m == mangled) {
            let cxx = cxx_name(name, Ctx::Top)?;
            self.typedefs.push((mangled.clone(), format!("typedef {cxx} {mangled};")));
        }
        Ok(format!(" {mangled}"))
    }

    /// The abstract spelling of `t` (a type with no declarator name).
    pub fn spell(&mut self, t: TyId, style: Style) -> Result<String, String> {
        let db = self.db;
        Ok(match t.kind(db) {
            TyKind::Builtin(b) => builtin(*b, false)?.to_string(),
            TyKind::Qualified(inner, cv) => match inner.kind(db) {
                TyKind::Ptr(_) | TyKind::LRef(_) | TyKind::RRef(_) => {
                    let mut s = self.spell(*inner, style)?;
                    if cv.c {
                        s.push_str("const");
                    }
                    if cv.v {
                        s.push_str(if cv.c { " volatile" } else { "volatile" });
                    }
                    if cv.r {
                        s.push_str("__restrict__");
                    }
                    s
                }
                _ => {
                    let mut s = String::new();
                    if cv.c {
                        s.push_str("const ");
                    }
                    if cv.v {
                        s.push_str("volatile ");
                    }
                    let inner = self.spell(*inner, style)?;
                    // ` _Z3SumIfE` already starts with its blank.
                    format!("{}{inner}", if inner.starts_with(' ') { s.trim_end() } else { &s })
                }
            },
            TyKind::Ptr(p) => match p.kind(db) {
                TyKind::Func(sig) => {
                    let params =
                        sig.params.iter().map(|x| self.spell(param(db, *x), style)).collect::<Result<Vec<_>, _>>()?;
                    let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
                    format!("{} ( *)({params})", self.spell(sig.ret, style)?)
                }
                _ => format!("{} *", self.spell(*p, style)?),
            },
            TyKind::LRef(p) => {
                let inner = self.spell(*p, style)?;
                match style {
                    Style::C => format!("{inner}&"),
                    Style::Cxx if inner.ends_with('*') => format!("{inner}&"),
                    Style::Cxx => format!("{inner} &"),
                }
            }
            TyKind::RRef(p) => format!("{} &&", self.spell(*p, style)?),
            TyKind::Closure(c) => {
                let (mangled, _) = self.closure(*c)?;
                format!(" {mangled}")
            }
            TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_) => match self.named(t)? {
                Named::Plain(name) => {
                    let kw = self.class_keyword(t);
                    match style {
                        Style::C => format!("{kw} {name}"),
                        Style::Cxx => format!("{kw} ::{name}"),
                    }
                }
                Named::Mangled(name, mangled) => self.mangled(&name, mangled)?,
            },
            TyKind::Enum(_) => match self.named(t)? {
                Named::Plain(name) => match style {
                    Style::C => format!("enum {name}"),
                    Style::Cxx => format!("enum ::{name}"),
                },
                Named::Mangled(name, mangled) => self.mangled(&name, mangled)?,
            },
            // An alias template specialization EDG keeps: by its name as
            // data (`_ZN4meta11scalar_of_tI6float4EE`, no leading blank),
            // declared by a typedef of the builtin type it denotes (`typedef
            // float _ZN4meta…;`) or else of itself in C++ (`typedef
            // meta::ptr_t<int>  _ZN4meta5ptr_tIiEE;`).
            TyKind::AliasSpec { alias, args, ty } => {
                let name = cufront_hir::symbols::alias_spec_name(db, self.map, *alias, args)?;
                let mangled = m::mangle(&m::Encoding::Data(name.clone()))?;
                if !self.typedefs.iter().any(|(m, _)| *m == mangled) {
                    let denoted = match cufront_hir::ty::canonical(db, *ty).kind(db) {
                        TyKind::Builtin(b) => builtin(*b, false)?.to_string(),
                        _ => cxx_name(&name, Ctx::Top)?,
                    };
                    self.typedefs.push((mangled.clone(), format!("typedef {denoted} {mangled};")));
                }
                mangled
            }
            TyKind::Typedef(_) => match typedef_name(db, t) {
                Some(name) => match style {
                    Style::C => name,
                    Style::Cxx => format!("::{name}"),
                },
                None => self.spell(cufront_hir::ty::canonical(db, t), style)?,
            },
            other => return Err(format!("no stub spelling for {other:?}")),
        })
    }

    /// A kernel instance's template arguments: as the casts print them
    /// (`<    ::Clamp, float> `) or, `wrapper`, as the wrapper's explicit
    /// specialization names them (`< ::Clamp,float>`).
    pub fn template_args(&mut self, args: &[TemplateArg], wrapper: bool) -> Result<String, String> {
        let mut parts = Vec::new();
        let mut pack_last = false;
        for a in args {
            pack_last = matches!(a, TemplateArg::Pack(_));
            self.flatten(a, wrapper, &mut parts)?;
        }
        Ok(if wrapper {
            format!("<{}>", parts.join(","))
        } else {
            format!("<{}{}> ", parts.join(", "), if pack_last { " " } else { "" })
        })
    }

    fn flatten(&mut self, a: &TemplateArg, wrapper: bool, out: &mut Vec<String>) -> Result<(), String> {
        let db = self.db;
        match a {
            TemplateArg::Type(t) if let TyKind::Closure(c) = cufront_hir::ty::canonical(db, *t).kind(db) => {
                let (mangled, wrapper_ty) = self.closure(*c)?;
                out.push(if wrapper { mangled } else { format!(" ::{wrapper_ty}") });
            }
            TemplateArg::Type(t) => {
                let mt = cufront_hir::symbols::mangle_ty(db, self.map, *t)?;
                let s = match (&mt, wrapper) {
                    (m::Type::Named(name), true) => format!(" ::{}", cxx_name(name, Ctx::Top)?),
                    (_, true) => self.spell(*t, Style::C)?,
                    (_, false) => cxx_type(&mt)?,
                };
                out.push(s);
            }
            TemplateArg::Value(v, t) => {
                let mt = cufront_hir::symbols::mangle_ty(db, self.map, *t)?;
                if wrapper && let TyKind::Enum(e) = cufront_hir::ty::canonical(db, *t).kind(db) {
                    out.push(self.enumerator(*e, &mt, *v)?);
                    return Ok(());
                }
                out.push(match (&mt, wrapper) {
                    (m::Type::Builtin(m::Builtin::Bool), true) => (if *v != 0 { "true" } else { "false" }).to_string(),
                    (m::Type::Builtin(b), true) => format!("{v}{}", suffix(*b).to_ascii_uppercase()),
                    (_, true) => format!("{v}"),
                    (_, false) => literal(&mt, *v < 0, v.unsigned_abs())?,
                });
            }
            TemplateArg::Pack(xs) => {
                for x in xs {
                    self.flatten(x, wrapper, out)?;
                }
            }
            other => return Err(format!("no stub spelling for the template argument {other:?}")),
        }
        Ok(())
    }
}

impl Speller<'_> {
    /// An extended lambda's closure type: its mangled name (what the stub's
    /// C code calls it, through a `typedef` of the wrapper type it notes)
    /// and cudafe++'s wrapper type for it, as the casts' template arguments
    /// spell it. Any other closure type cannot be a kernel's argument.
    fn closure(&mut self, c: cufront_hir::infer::ClosureId) -> Result<(String, String), String> {
        let db = self.db;
        let x = cufront_hir::infer::extended_lambda_of(db, c).ok_or("a closure type that is no extended lambda")?;
        let name = cufront_hir::instances::closure_type_name(db, c)?;
        let mangled = cufront_hir::symbols::device_type_name(&name, &self.mid)?;
        let m::Root::Local { func, .. } = &name.root else {
            return Err("an extended lambda outside a function".into());
        };
        let wrapper_ty = self.wrapper_type(&x, func)?;
        if !self.typedefs.iter().any(|(m, _)| *m == mangled) {
            self.typedefs.push((mangled.clone(), format!("typedef {wrapper_ty} {mangled};")));
            self.closures.push((mangled.clone(), c));
        }
        Ok((mangled, wrapper_ty))
    }

    /// cudafe++'s wrapper type of an extended lambda as cicc prints it
    /// (checked with the real nvcc):
    /// `__nv_dl_wrapper_t<__nv_dl_tag<void (*)(int *, float),(& :: ns::run), 1> ,int *, ::ns::Pt,float>`,
    /// `__nv_hdl_wrapper_t<true,false,false,<tag> ,void (int),int *>`.
    fn wrapper_type(&self, x: &cufront_hir::infer::ExtLambda, func: &m::Encoding) -> Result<String, String> {
        use cufront_hir::infer::ExtLambdaKind;
        let db = self.db;
        let ty = |t: TyId| -> Result<String, String> { cxx_type(&cufront_hir::symbols::mangle_ty(db, self.map, t)?) };
        let fname = match func {
            m::Encoding::Function(name, _) => &**name,
            // `main` and C functions: the encoding is the plain name.
            m::Encoding::Data(name) => name,
            m::Encoding::Special(_) => return Err("an extended lambda outside a function".into()),
        };
        let fn_ptr = ty(x.parent_ptr)?;
        let addr = address_of(fname)?;
        let tag = match &x.kind {
            ExtLambdaKind::Trailing(r) => {
                format!("__nv_dl_trailing_return_tag<{fn_ptr},{addr}, {}, {}>", ty(*r)?, x.index)
            }
            _ => format!("__nv_dl_tag<{fn_ptr},{addr}, {}>", x.index),
        };
        let mut caps = String::new();
        for (i, t) in x.captures.iter().enumerate() {
            caps.push(',');
            if x.this_copy == Some(i as u32) {
                caps.push_str(&this_copy(&cufront_hir::symbols::mangle_ty(db, self.map, *t)?)?);
            } else {
                caps.push_str(&ty(*t)?);
            }
        }
        Ok(match &x.kind {
            ExtLambdaKind::HostDevice { mutable, fptr_conv, noexcept, sig } => {
                format!("__nv_hdl_wrapper_t<{mutable},{fptr_conv},{noexcept},{tag} ,{}{caps}>", ty(*sig)?)
            }
            _ => format!("__nv_dl_wrapper_t<{tag} {caps}>"),
        })
    }

    /// An enumeration value as the wrapper names it: `( ::Fractal::Julia)`
    /// (scoped), `( ::ns::Red)` (unscoped: the enumerator is a member of
    /// the enclosing scope).
    fn enumerator(&self, e: cufront_hir::EnumId, mt: &m::Type, v: i128) -> Result<String, String> {
        let db = self.db;
        let info = cufront_hir::ty::enum_info(db, e);
        let i =
            info.values.iter().position(|x| x.as_ref().is_ok_and(|x| *x == v)).ok_or("no enumerator has the value")?;
        let tree = cufront_hir::item_tree_of(db, e.item(db));
        let data = tree.enums.get(e.idx(db) as usize).ok_or("no such enumeration")?;
        let (enumerator, _) = data.enumerators.get(i).ok_or("no such enumerator")?;
        let m::Type::Named(name) = mt else { return Err("an enumeration without a name".into()) };
        let mut scope = name.clone();
        if !data.scoped {
            scope.comps.pop();
        }
        let prefix = if scope.comps.is_empty() { String::new() } else { format!("{}::", cxx_name(&scope, Ctx::Top)?) };
        Ok(format!("( ::{prefix}{enumerator})"))
    }
}

/// The name of a typedef declared in the global namespace, unless it is
/// `__device_builtin__` (cicc spells those by what they stand for).
fn typedef_name(db: &dyn SourceDatabase, t: TyId) -> Option<String> {
    let TyKind::Typedef(td) = t.kind(db) else { return None };
    let map = cufront_hir::def_map(db, td.item(db).tu(db));
    let parent = map.parent.get(&cufront_hir::scopes::DeclKey::Typedef(*td)).copied()?;
    if parent != cufront_hir::scopes::ROOT {
        return None;
    }
    let tree = cufront_hir::item_tree_of(db, td.item(db));
    let data = tree.typedefs.get(td.idx(db) as usize)?;
    (!data.attrs.device_builtin).then(|| data.name.clone())
}

/// Where EDG's C++ printer prints a name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// At the top of a `typedef` line or a wrapper argument: no `::`.
    Top,
    /// Inside a template argument list: `    ::Global`, ` ::ns::Name`.
    Arg,
}

/// A class or enum name as EDG's C++ printer writes it:
/// `cub::X<int, (bool)0> ::Inner` at the top, `    ::Pair<int, float> `
/// (global) or ` ::ns::X` (namespaced) inside template arguments.
fn cxx_name(name: &m::Name, ctx: Ctx) -> Result<String, String> {
    if name.root != m::Root::Global {
        return Err("a local or dependent class in a stub".into());
    }
    let mut s = match ctx {
        Ctx::Top => String::new(),
        Ctx::Arg if name.comps.len() == 1 => "    ::".to_string(),
        Ctx::Arg => " ::".to_string(),
    };
    for (i, c) in name.comps.iter().enumerate() {
        if i > 0 {
            s.push_str("::");
        }
        match &c.name {
            m::Unqualified::Source(id) => s.push_str(id),
            other => return Err(format!("no stub spelling for the name component {other:?}")),
        }
        if let Some(args) = &c.args {
            s.push('<');
            let mut parts = Vec::new();
            let mut pack_last = false;
            for a in args {
                pack_last = matches!(a, m::TArg::Pack(_));
                flatten_marg(a, &mut parts)?;
            }
            s.push_str(&parts.join(", "));
            if pack_last {
                s.push(' ');
            }
            s.push_str("> ");
        }
    }
    Ok(s)
}

fn flatten_marg(a: &m::TArg, out: &mut Vec<String>) -> Result<(), String> {
    match a {
        m::TArg::Type(t) => out.push(cxx_type(t)?),
        m::TArg::Literal(l) => out.push(literal(&l.ty, l.negative, l.magnitude)?),
        m::TArg::Pack(xs) => {
            for x in xs {
                flatten_marg(x, out)?;
            }
        }
        other => return Err(format!("no stub spelling for the template argument {other:?}")),
    }
    Ok(())
}

/// A type inside a template argument list, in EDG's C++ printer.
fn cxx_type(t: &m::Type) -> Result<String, String> {
    Ok(match t {
        m::Type::Builtin(b) => m_builtin(*b, true)?.to_string(),
        m::Type::Named(n) => cxx_name(n, Ctx::Arg)?,
        m::Type::Ptr(f) if let m::Type::Func(f) = &**f => format!("{} (*)({})", cxx_type(&f.ret)?, cxx_params(f)?),
        m::Type::MemPtr(c, f) if let (m::Type::Named(c), m::Type::Func(f)) = (&**c, &**f) => {
            let mut cv = String::new();
            if f.quals.konst {
                cv.push_str(" const");
            }
            if f.quals.volatile {
                cv.push_str(" volatile");
            }
            format!("{} ( :: {}::*)({}){cv}", cxx_type(&f.ret)?, cxx_name(c, Ctx::Top)?, cxx_params(f)?)
        }
        m::Type::Func(f) => format!("{} ({})", cxx_type(&f.ret)?, cxx_params(f)?),
        m::Type::Array(m::ArrayBound::Known(n), x) => format!("{} [{n}]", cxx_type(x)?),
        m::Type::LRef(a) if let m::Type::Array(m::ArrayBound::Known(n), x) = &**a => {
            format!("{} (&)[{n}]", cxx_type(x)?)
        }
        m::Type::Ptr(x) => format!("{} *", cxx_type(x)?),
        m::Type::LRef(x) => format!("{} &", cxx_type(x)?),
        m::Type::RRef(x) => format!("{} &&", cxx_type(x)?),
        m::Type::Qualified(q, x) => match **x {
            m::Type::Ptr(_) => {
                let mut s = cxx_type(x)?;
                if q.konst {
                    s.push_str("const");
                }
                s
            }
            _ => {
                let mut s = String::new();
                if q.konst {
                    s.push_str("const ");
                }
                if q.volatile {
                    s.push_str("volatile ");
                }
                s.push_str(&cxx_type(x)?);
                s
            }
        },
        other => return Err(format!("no stub spelling for {other:?}")),
    })
}

/// A function type's parameters in EDG's C++ printer: `int *, float`
/// (`()` for none).
fn cxx_params(f: &m::FnType) -> Result<String, String> {
    let mut ps = f.params.iter().map(cxx_type).collect::<Result<Vec<_>, _>>()?;
    if f.variadic {
        ps.push("...".into());
    }
    Ok(ps.join(", "))
}

/// `(&f)` as cicc prints the enclosing function in an extended lambda's
/// tag: `(&     ::main)` in the global namespace, `(&    ::outer::_NV_ANON_NAMESPACE::f2)`
/// inside an anonymous namespace, `(& :: ns::W<float, (int)3> ::f3<int> )`
/// otherwise (every form checked with the real nvcc).
fn address_of(name: &m::Name) -> Result<String, String> {
    if name.root != m::Root::Global {
        return Err("an extended lambda in a local function".into());
    }
    let mut path = String::new();
    let mut anon = false;
    for (i, c) in name.comps.iter().enumerate() {
        if i > 0 {
            path.push_str("::");
        }
        match &c.name {
            m::Unqualified::Source(id) | m::Unqualified::StaticSource(id) => path.push_str(id),
            m::Unqualified::AnonNamespace(_) => {
                anon = true;
                path.push_str("_NV_ANON_NAMESPACE");
            }
            other => return Err(format!("no stub spelling for the name component {other:?}")),
        }
        if let Some(args) = &c.args {
            let mut parts = Vec::new();
            for a in args {
                flatten_marg(a, &mut parts)?;
            }
            path.push_str(&format!("<{}> ", parts.join(", ")));
        }
    }
    Ok(if anon {
        format!("(&    ::{path})")
    } else if name.comps.len() == 1 {
        format!("(&     ::{path})")
    } else {
        format!("(& :: {path})")
    })
}

/// A `*this` capture's type as the wrapper's arguments print it: the class
/// without the global qualifier (`const Gl`, `const ns::Runner`).
fn this_copy(t: &m::Type) -> Result<String, String> {
    match t {
        m::Type::Qualified(q, x) if let m::Type::Named(n) = &**x => {
            Ok(format!("{}{}", if q.konst { "const " } else { "" }, cxx_name(n, Ctx::Top)?.trim_end()))
        }
        m::Type::Named(n) => Ok(cxx_name(n, Ctx::Top)?.trim_end().to_string()),
        other => Err(format!("no stub spelling for a `*this` capture of type {other:?}")),
    }
}

/// A template argument value: `(int)4`, `(unsigned int)32u`, `(bool)0`,
/// `( ::ns::E)1`.
fn literal(ty: &m::Type, negative: bool, magnitude: u128) -> Result<String, String> {
    let sign = if negative { "-" } else { "" };
    Ok(match ty {
        m::Type::Builtin(b) => format!("({}){sign}{magnitude}{}", m_builtin(*b, true)?, suffix(*b)),
        m::Type::Named(n) => format!("({}){sign}{magnitude}", cxx_name(n, Ctx::Arg)?),
        other => return Err(format!("no stub spelling for a value of type {other:?}")),
    })
}
