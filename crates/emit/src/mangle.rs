//! Itanium C++ ABI mangling as EDG does it for host entities (spec 50 §8):
//! nested names, substitutions (`S_`, `S0_`, ...), `St`, cv- and
//! ref-qualified member functions, constructors and destructors, operators,
//! function, array and member-pointer types.
//!
//! Scope (the "core"): non-template functions and variables, whose
//! parameter types may name class template specializations with literal or
//! type arguments. Anything it cannot spell (a dependent or unresolved type)
//! is an error, never a guess.

use crate::items::{FnTy, PathSeg, SegKind, TArg, Ty};

/// The name of a function, as the declarator spells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FnName {
    Ident(String),
    /// `C1`: the complete-object constructor (what EDG names the entity by).
    Ctor,
    /// `D1`: the complete-object destructor.
    Dtor,
    /// `operator@`, by its spelling without `operator` (`+`, `()`, `new[]`).
    Operator(String),
    Conversion(Ty),
    /// `operator"" _x`.
    Literal(String),
}

struct Mangler {
    out: String,
    subs: Vec<String>,
}

/// The mangled name of a function `name` declared in scope `path`
/// (namespaces and classes, outermost first) with type `f`.
pub fn function(path: &[PathSeg], name: &FnName, f: &FnTy) -> Result<String, String> {
    if let Some(u) = f.params.iter().find_map(|p| p.unknown()) {
        return Err(format!("cannot mangle parameter type `{u}`"));
    }
    if let FnName::Conversion(t) = name
        && let Some(u) = t.unknown()
    {
        return Err(format!("cannot mangle conversion type `{u}`"));
    }
    let mut m = Mangler {
        out: String::from("_Z"),
        subs: Vec::new(),
    };
    let member = path.last().is_some_and(|s| s.kind == SegKind::Class);
    let unqualified = unqualified_name(name, f, member)?;
    let (r, v, c) = f.cv;
    let needs_nested = !path.is_empty()
        && !(path.len() == 1 && path[0].name == "std" && path[0].kind == SegKind::Namespace);
    if needs_nested {
        m.out.push('N');
        m.cv(r, v, c);
        match f.ref_qual {
            1 => m.out.push('R'),
            2 => m.out.push('O'),
            _ => {}
        }
        m.prefix(path)?;
        m.unqualified(&unqualified, name)?;
        m.out.push('E');
    } else {
        if !path.is_empty() {
            m.out.push_str("St");
        }
        m.unqualified(&unqualified, name)?;
    }
    m.bare_function_type(f)?;
    Ok(m.out)
}

/// The mangled name of a variable at namespace or class scope: global
/// variables (and `extern "C"` ones, which the caller handles) are not mangled.
pub fn variable(path: &[PathSeg], name: &str) -> Result<String, String> {
    if path.is_empty() {
        return Ok(name.to_string());
    }
    let mut m = Mangler {
        out: String::from("_Z"),
        subs: Vec::new(),
    };
    if path.len() == 1 && path[0].name == "std" && path[0].args.is_none() {
        m.out.push_str("St");
        m.source_name(name);
        return Ok(m.out);
    }
    m.out.push('N');
    m.prefix(path)?;
    m.source_name(name);
    m.out.push('E');
    Ok(m.out)
}

enum Unq {
    Source(String),
    Code(String),
}

fn unqualified_name(name: &FnName, f: &FnTy, member: bool) -> Result<Unq, String> {
    Ok(match name {
        FnName::Ident(s) => Unq::Source(s.clone()),
        FnName::Ctor => Unq::Code("C1".into()),
        FnName::Dtor => Unq::Code("D1".into()),
        FnName::Operator(op) => {
            let arity = f.params.len() + usize::from(member);
            Unq::Code(
                operator_code(op, arity)
                    .ok_or_else(|| format!("unknown operator `{op}`"))?
                    .to_string(),
            )
        }
        FnName::Conversion(_) => Unq::Code("cv".into()),
        FnName::Literal(s) => Unq::Code(format!("li{}{s}", s.len())),
    })
}

/// The operator codes of the Itanium ABI; `arity` counts `this`.
pub fn operator_code(op: &str, arity: usize) -> Option<&'static str> {
    let unary = arity == 1;
    Some(match op {
        "new" => "nw",
        "new[]" => "na",
        "delete" => "dl",
        "delete[]" => "da",
        "+" if unary => "ps",
        "+" => "pl",
        "-" if unary => "ng",
        "-" => "mi",
        "*" if unary => "de",
        "*" => "ml",
        "&" if unary => "ad",
        "&" => "an",
        "~" => "co",
        "/" => "dv",
        "%" => "rm",
        "|" => "or",
        "^" => "eo",
        "=" => "aS",
        "+=" => "pL",
        "-=" => "mI",
        "*=" => "mL",
        "/=" => "dV",
        "%=" => "rM",
        "&=" => "aN",
        "|=" => "oR",
        "^=" => "eO",
        "<<" => "ls",
        ">>" => "rs",
        "<<=" => "lS",
        ">>=" => "rS",
        "==" => "eq",
        "!=" => "ne",
        "<" => "lt",
        ">" => "gt",
        "<=" => "le",
        ">=" => "ge",
        "<=>" => "ss",
        "!" => "nt",
        "&&" => "aa",
        "||" => "oo",
        "++" => "pp",
        "--" => "mm",
        "," => "cm",
        "->*" => "pm",
        "->" => "pt",
        "()" => "cl",
        "[]" => "ix",
        "co_await" => "aw",
        _ => return None,
    })
}

impl Mangler {
    fn source_name(&mut self, s: &str) {
        self.out.push_str(&s.len().to_string());
        self.out.push_str(s);
    }

    fn seg_name(s: &PathSeg) -> String {
        match s.kind {
            // g++'s spelling on the host side (cicc uses the module id instead).
            SegKind::AnonNamespace => "_GLOBAL__N_1".to_string(),
            _ => s.name.clone(),
        }
    }

    fn cv(&mut self, r: bool, v: bool, c: bool) {
        if r {
            self.out.push('r');
        }
        if v {
            self.out.push('V');
        }
        if c {
            self.out.push('K');
        }
    }

    /// Emits `S_`/`S<n>_` for `key` if it is a known substitution.
    fn try_sub(&mut self, key: &str) -> bool {
        match self.subs.iter().position(|k| k == key) {
            Some(i) => {
                self.out.push('S');
                if i > 0 {
                    self.out.push_str(&base36(i - 1));
                }
                self.out.push('_');
                true
            }
            None => false,
        }
    }

    fn add_sub(&mut self, key: String) {
        if !self.subs.contains(&key) {
            self.subs.push(key);
        }
    }

    /// The prefix `path` (inside `N...E`): the longest known prefix as a
    /// substitution, then the remaining components, each becoming a candidate.
    fn prefix(&mut self, path: &[PathSeg]) -> Result<(), String> {
        let mut start = 0;
        for end in (1..=path.len()).rev() {
            if self.try_sub(&path_key(&path[..end])) {
                start = end;
                break;
            }
        }
        for i in start..path.len() {
            let seg = &path[i];
            if i == 0 && seg.name == "std" && seg.kind == SegKind::Namespace && seg.args.is_none() {
                self.out.push_str("St");
                continue;
            }
            self.source_name(&Self::seg_name(seg));
            if let Some(args) = &seg.args {
                let mut bare = path[..=i].to_vec();
                bare[i].args = None;
                self.add_sub(path_key(&bare));
                self.template_args(args)?;
            }
            self.add_sub(path_key(&path[..=i]));
        }
        Ok(())
    }

    fn unqualified(&mut self, u: &Unq, name: &FnName) -> Result<(), String> {
        match u {
            Unq::Source(s) => self.source_name(s),
            Unq::Code(c) => {
                self.out.push_str(c);
                if let FnName::Conversion(t) = name {
                    self.ty(t)?;
                }
            }
        }
        Ok(())
    }

    fn template_args(&mut self, args: &[TArg]) -> Result<(), String> {
        self.out.push('I');
        for a in args {
            match a {
                TArg::Type(t) => self.ty(t)?,
                TArg::Int(code, v) => {
                    self.out.push('L');
                    self.out.push_str(code);
                    self.out.push_str(v);
                    self.out.push('E');
                }
            }
        }
        self.out.push('E');
        Ok(())
    }

    fn bare_function_type(&mut self, f: &FnTy) -> Result<(), String> {
        if f.params.is_empty() && !f.variadic {
            self.out.push('v');
        }
        for p in &f.params {
            self.ty(p)?;
        }
        if f.variadic {
            self.out.push('z');
        }
        Ok(())
    }

    fn ty(&mut self, t: &Ty) -> Result<(), String> {
        if let Some(u) = t.unknown() {
            return Err(format!("cannot mangle type `{u}`"));
        }
        match t {
            Ty::Builtin(code) => {
                self.out.push_str(code);
                return Ok(());
            }
            Ty::Named(path) => return self.named(path),
            _ => {}
        }
        let key = format!("{t:?}");
        if self.try_sub(&key) {
            return Ok(());
        }
        match t {
            Ty::Ptr(i) => {
                self.out.push('P');
                self.ty(i)?
            }
            Ty::LRef(i) => {
                self.out.push('R');
                self.ty(i)?
            }
            Ty::RRef(i) => {
                self.out.push('O');
                self.ty(i)?
            }
            Ty::Cv { r, v, c, inner } => {
                if let Ty::Func(f) = &**inner {
                    // A cv-qualified function type (of a member pointer).
                    self.cv(*r, *v, *c);
                    self.function_type(f)?;
                } else {
                    self.cv(*r, *v, *c);
                    self.ty(inner)?;
                }
            }
            Ty::Array(n, e) => {
                self.out.push('A');
                if let Some(n) = n {
                    self.out.push_str(n);
                }
                self.out.push('_');
                self.ty(e)?;
            }
            Ty::Func(f) => {
                let (r, v, c) = f.cv;
                self.cv(r, v, c);
                self.function_type(f)?;
            }
            Ty::MemPtr(class, member) => {
                self.out.push('M');
                self.ty(class)?;
                self.ty(member)?;
            }
            Ty::Builtin(_) | Ty::Named(_) | Ty::Unknown(_) => unreachable!("handled above"),
        }
        self.add_sub(key);
        Ok(())
    }

    fn function_type(&mut self, f: &FnTy) -> Result<(), String> {
        if f.noexcept {
            self.out.push_str("Do");
        }
        self.out.push('F');
        self.ty(&f.ret)?;
        self.bare_function_type(f)?;
        match f.ref_qual {
            1 => self.out.push('R'),
            2 => self.out.push('O'),
            _ => {}
        }
        self.out.push('E');
        Ok(())
    }

    /// A class or enum type.
    fn named(&mut self, path: &[PathSeg]) -> Result<(), String> {
        let key = path_key(path);
        if self.try_sub(&key) {
            return Ok(());
        }
        let last = path.last().ok_or("empty type name")?;
        let unscoped =
            path.len() == 1 || (path.len() == 2 && path[0].name == "std" && path[0].args.is_none());
        if unscoped {
            if path.len() == 2 {
                self.out.push_str("St");
            }
            self.source_name(&Self::seg_name(last));
            if let Some(args) = &last.args {
                let mut bare = path.to_vec();
                bare.last_mut().expect("non-empty").args = None;
                self.add_sub(path_key(&bare));
                self.template_args(args)?;
            }
            self.add_sub(key);
            return Ok(());
        }
        self.out.push('N');
        self.prefix(path)?;
        self.out.push('E');
        Ok(())
    }
}

fn path_key(p: &[PathSeg]) -> String {
    format!("path{p:?}")
}

fn base36(mut n: usize) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut s = Vec::new();
    loop {
        s.push(DIGITS[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    s.reverse();
    String::from_utf8(s).expect("ascii")
}
