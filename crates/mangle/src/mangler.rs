//! The Itanium grammar over the tree, with the substitution dictionary.
//!
//! Candidates are recorded in the order the ABI defines (each prefix of a
//! nested name, each template prefix, each non-builtin type, each
//! template-parameter type) and looked up structurally: a candidate is a
//! name prefix (its root and components) or a type.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::ops::Op;
use crate::tree::*;

/// Types and expressions nested deeper than this are not mangled (an
/// `Err`): the grammar recurses over them, and candidates are compared and
/// cloned whole, so depth multiplies the work. No template instantiation
/// reaches it (the instantiation depth is bounded far below); a chain of
/// aliases (`using T1 = T0*; using T2 = T1*; …`) would.
const MAX_DEPTH: u32 = 1024;

/// `_Z <encoding>`: the mangled name of `e`.
pub fn mangle(e: &Encoding) -> Result<String, String> {
    mangle_in(e, false)
}

/// [`mangle`] as EDG writes names (cicc's device names): a namespace-
/// qualified callee in an expression keeps its qualifiers (`Expr::NsId`).
pub fn mangle_edg(e: &Encoding) -> Result<String, String> {
    mangle_in(e, true)
}

fn mangle_in(e: &Encoding, edg: bool) -> Result<String, String> {
    if crate::depth::exceeds(e, MAX_DEPTH) {
        return Err(too_deep());
    }
    let mut m = Mangler { edg, ..Mangler::default() };
    m.out.push_str("_Z");
    m.encoding(e)?;
    Ok(m.out)
}

/// The linkage name: like [`mangle`], except that a variable of the global
/// namespace keeps its plain name (spec 50 §8.1). C linkage is the
/// caller's business (it has no tree to mangle).
pub fn symbol(e: &Encoding) -> Result<String, String> {
    if let Encoding::Data(n) = e
        && n.root == Root::Global
        && let [c] = n.comps.as_slice()
        && c.args.is_none()
        && c.abi_tags.is_empty()
        && let Unqualified::Source(s) = &c.name
    {
        return Ok(s.clone());
    }
    mangle(e)
}

fn too_deep() -> String {
    format!("types nested deeper than {MAX_DEPTH} levels")
}

/// A substitution candidate.
#[derive(Debug)]
enum Key {
    /// A name prefix: the root and the components up to this one.
    Name(Root, Vec<Component>),
    /// Any other type; for EDG, whether it names template parameters of
    /// a pack expansion it is written in (`OT_` in `DpOT_` is not the `OT_`
    /// of a parameter outside one).
    Type(Type, bool),
    /// A template parameter inside a pack expansion (`T_` of `DpT_`): g++
    /// compares parameters with their pack-ness, so it is not the same
    /// candidate as a `T_` outside one (a generic lambda's `auto...` in
    /// the closure's name vs the enclosing template's `F`:
    /// `_Z1aIZ1hvEUlDpT_E_EvT_`, but `_Z1aIZ1hvEUlT_E_EvS0_`).
    PackParam(TParam),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    /// A function or variable: the last component is not a candidate; a
    /// member function's qualifiers go into the nested name.
    Entity(Quals, RefQual),
    /// A type, or a template's name (a template template argument).
    Type,
}

#[derive(Default)]
struct Mangler {
    out: String,
    subs: Vec<Key>,
    /// The candidates by hash ([`key_hash`]): a lookup compares only the
    /// candidates of its hash, not every candidate (a signature with
    /// thousands of types would be quadratic).
    by_hash: HashMap<u64, Vec<usize>>,
    /// Nesting of `Dp` (pack expansions) being written.
    pack_depth: u32,
    /// Nesting of types and expressions being written (`MAX_DEPTH`).
    depth: u32,
    /// EDG's spellings where they differ from g++'s (`mangle_edg`).
    edg: bool,
    /// Closure types' parameter lists being written (`fresh_params`).
    lambda_level: u32,
    /// The signature of a member of a closure type is being written (`find`).
    closure_member: bool,
}

fn is_std(c: &Component) -> bool {
    c.args.is_none() && c.abi_tags.is_empty() && c.name == Unqualified::Source("std".into())
}

fn comp_eq(a: &Component, b: &Component, strip_args: bool) -> bool {
    if strip_args { a.args.is_none() && a.name == b.name && a.abi_tags == b.abi_tags } else { a == b }
}

/// Does `k` name the prefix `comps` of `root` (with the last component's
/// template arguments removed when `strip`: a template prefix)?
fn key_is(k: &Key, root: &Root, comps: &[Component], strip: bool) -> bool {
    let Key::Name(r, c) = k else { return false };
    if r != root || c.len() != comps.len() {
        return false;
    }
    let n = comps.len();
    c[..n - 1] == comps[..n - 1] && comp_eq(&c[n - 1], &comps[n - 1], strip)
}

/// The components that identify a prefix as a substitution candidate: a
/// device name's leading `_INTERNAL<mid>` is a candidate of its own, but
/// the namespaces after it are the unit's namespaces, which EDG matches by
/// entity: `_ZN…_INTERNAL…4cuda3std3__419__cuda_atomic_fenceENS2_25__thread_scope_device_tagE`
/// names `cuda::std::__4::__thread_scope_device_tag` by `S2_`.
fn entity_comps(comps: &[Component]) -> &[Component] {
    match comps {
        [first, rest @ ..] if !rest.is_empty() && matches!(first.name, Unqualified::Internal(_)) => rest,
        _ => comps,
    }
}

fn prefix_key(root: &Root, comps: &[Component], strip: bool) -> Key {
    let mut c = entity_comps(comps).to_vec();
    if strip && let Some(last) = c.last_mut() {
        last.args = None;
    }
    Key::Name(root.clone(), c)
}

fn std_name(n: &str, args: Option<Vec<TArg>>) -> Type {
    Type::Named(Name {
        root: Root::Global,
        comps: vec![
            Component { name: Unqualified::Source("std".into()), abi_tags: Vec::new(), args: None },
            Component { name: Unqualified::Source(n.into()), abi_tags: Vec::new(), args },
        ],
    })
}

/// `St`-family abbreviations: `Sa`, `Sb` (template names) and `Ss`, `Si`,
/// `So`, `Sd` (the `char` specializations).
fn abbreviation(root: &Root, comps: &[Component], strip: bool) -> Option<&'static str> {
    if *root != Root::Global || comps.len() != 2 || !is_std(&comps[0]) {
        return None;
    }
    let c = &comps[1];
    if !c.abi_tags.is_empty() {
        return None;
    }
    let Unqualified::Source(name) = &c.name else {
        return None;
    };
    let args = if strip { None } else { c.args.as_ref() };
    let char_ = || TArg::Type(Type::Builtin(Builtin::Char));
    let traits = || TArg::Type(std_name("char_traits", Some(vec![char_()])));
    match (name.as_str(), args) {
        ("allocator", None) => Some("Sa"),
        ("basic_string", None) => Some("Sb"),
        ("basic_string", Some(a))
            if *a == [char_(), traits(), TArg::Type(std_name("allocator", Some(vec![char_()])))] =>
        {
            Some("Ss")
        }
        ("basic_istream", Some(a)) if *a == [char_(), traits()] => Some("Si"),
        ("basic_ostream", Some(a)) if *a == [char_(), traits()] => Some("So"),
        ("basic_iostream", Some(a)) if *a == [char_(), traits()] => Some("Sd"),
        _ => None,
    }
}

fn seq_id(n: usize) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut n = n;
    let mut s = Vec::new();
    loop {
        s.push(DIGITS[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    s.reverse();
    String::from_utf8(s).expect("ascii digits")
}

/// `_` for 0, `<n-1>_` otherwise (closure and unnamed-type numbers, `T_`, `S_`).
fn number_(n: u32) -> String {
    if n == 0 { "_".into() } else { format!("{}_", n - 1) }
}

/// Is `e` an id-expression or a class member access (`Dt`, not `DT`)?
fn is_id_expression(e: &Expr) -> bool {
    matches!(
        e,
        Expr::FnParam { .. }
            | Expr::TParam(_)
            | Expr::Id(..)
            | Expr::NsId { .. }
            | Expr::VarTemplateId { .. }
            | Expr::Scoped { .. }
            | Expr::Member { .. }
            | Expr::Entity(_)
    )
}

/// The hash of a name prefix as [`key_is`] compares it: the last
/// component without its template arguments when `strip`.
fn name_hash(root: &Root, comps: &[Component], strip: bool) -> u64 {
    let mut h = DefaultHasher::new();
    0u8.hash(&mut h);
    root.hash(&mut h);
    if let Some((last, init)) = comps.split_last() {
        init.hash(&mut h);
        last.name.hash(&mut h);
        last.abi_tags.hash(&mut h);
        if strip { None } else { last.args.as_ref() }.hash(&mut h);
    }
    h.finish()
}

fn type_hash(t: &Type) -> u64 {
    let mut h = DefaultHasher::new();
    1u8.hash(&mut h);
    t.hash(&mut h);
    h.finish()
}

fn pack_param_hash(p: TParam) -> u64 {
    let mut h = DefaultHasher::new();
    2u8.hash(&mut h);
    p.hash(&mut h);
    h.finish()
}

fn key_hash(k: &Key) -> u64 {
    match k {
        Key::Name(r, c) => name_hash(r, c, false),
        Key::Type(t, p) => type_hash(t) ^ u64::from(*p),
        Key::PackParam(p) => pack_param_hash(*p),
    }
}

impl Mangler {
    fn add(&mut self, k: Key) {
        let h = key_hash(&k);
        let same = !self.fresh_params()
            && self.by_hash.get(&h).into_iter().flatten().any(|&i| match (&self.subs[i], &k) {
                (Key::Name(r, c), Key::Name(r2, c2)) => r == r2 && c == c2,
                (Key::Type(a, p), Key::Type(b, q)) => a == b && p == q,
                (Key::PackParam(a), Key::PackParam(b)) => a == b,
                _ => false,
            });
        if !same {
            self.by_hash.entry(h).or_default().push(self.subs.len());
            self.subs.push(k);
        }
    }

    /// The candidate of hash `h` that `is` accepts. Only EDG's generic
    /// lambdas duplicate candidates (`fresh_params`): a reference names the
    /// first, except in the signature of a member of the closure type,
    /// which names the lambda's own (the latest).
    fn find(&self, h: u64, is: impl Fn(&Key) -> bool) -> Option<usize> {
        let list = self.by_hash.get(&h)?;
        if self.closure_member {
            list.iter().rev().copied().find(|&i| is(&self.subs[i]))
        } else {
            list.iter().copied().find(|&i| is(&self.subs[i]))
        }
    }

    /// Whether a type that names template parameters is written in full
    /// and made a new candidate, equal ones before it notwithstanding: EDG
    /// inside a generic lambda's closure type, whose `auto` parameters are
    /// its own (cicc: `_ZZ3runI2opJfiEEvT_DpPT0_ENKUlT_DpT0_E_clIbJPfPiEEEDaS5_S7_`,
    /// g++: `…UlS1_DpS2_E_…DaS1_S5_`); a later reference names the latest
    /// (`_Z10map_kernelIfZ4mainEUlT_E_EvPKS0_PS0_iT0_` on both).
    /// EDG: a compound type naming template parameters of the pack
    /// expansion it is written in is not the same candidate as that type
    /// outside one (`OT_` of `DpOT_` vs a later `OT_`:
    /// `…EUlDpOT_E_…EEDcOSB_OT0_`); a bare parameter is (`DpT_`'s `T_` is
    /// `SB_` there). g++ tells bare parameters apart instead (`PackParam`).
    fn in_pack(&self, t: &Type) -> bool {
        self.edg && self.pack_depth > 0 && !matches!(t, Type::Param(_)) && names_param(t)
    }

    fn fresh_params(&self) -> bool {
        self.edg && self.lambda_level > 0
    }

    /// Runs `f` one type or expression deeper, failing past `MAX_DEPTH`.
    fn deeper(&mut self, f: impl FnOnce(&mut Self) -> Result<(), String>) -> Result<(), String> {
        if self.depth >= MAX_DEPTH {
            return Err(too_deep());
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn emit_sub(&mut self, i: usize) {
        self.out.push('S');
        if i > 0 {
            self.out.push_str(&seq_id(i - 1));
        }
        self.out.push('_');
    }

    /// Emits a substitution (or `St` abbreviation) for the name prefix, if any.
    fn try_name(&mut self, root: &Root, comps: &[Component], strip: bool) -> bool {
        if comps.is_empty() {
            return false;
        }
        if let Some(a) = abbreviation(root, comps, strip) {
            self.out.push_str(a);
            return true;
        }
        let comps = entity_comps(comps);
        match self.find(name_hash(root, comps, strip), |k| key_is(k, root, comps, strip)) {
            Some(i) => {
                self.emit_sub(i);
                true
            }
            None => false,
        }
    }

    fn try_type(&mut self, t: &Type) -> bool {
        if self.fresh_params() && names_param(t) {
            return false;
        }
        let pack_param = match t {
            Type::Param(p) if self.pack_depth > 0 && !self.edg => Some(*p),
            _ => None,
        };
        let in_pack = self.in_pack(t);
        let h = pack_param.map_or_else(|| type_hash(t) ^ u64::from(in_pack), pack_param_hash);
        match self.find(h, |k| match (k, pack_param) {
            (Key::PackParam(q), Some(p)) => *q == p,
            (Key::Type(x, p), None) => x == t && *p == in_pack,
            _ => false,
        }) {
            Some(i) => {
                self.emit_sub(i);
                true
            }
            None => false,
        }
    }

    fn source_name(&mut self, s: &str) -> Result<(), String> {
        if s.is_empty() {
            return Err("empty identifier".into());
        }
        self.out.push_str(&s.len().to_string());
        self.out.push_str(s);
        Ok(())
    }

    fn quals(&mut self, q: Quals) {
        if q.restrict {
            self.out.push('r');
        }
        if q.volatile {
            self.out.push('V');
        }
        if q.konst {
            self.out.push('K');
        }
    }

    fn ref_qual(&mut self, r: RefQual) {
        match r {
            RefQual::None => {}
            RefQual::LValue => self.out.push('R'),
            RefQual::RValue => self.out.push('O'),
        }
    }

    fn encoding(&mut self, e: &Encoding) -> Result<(), String> {
        match e {
            Encoding::Function(name, f) => {
                self.name(name, Use::Entity(f.quals, f.ref_qual))?;
                let last = name.comps.last().ok_or("empty name")?;
                let template = last.args.is_some()
                    && !matches!(
                        last.name,
                        Unqualified::Ctor(_)
                            | Unqualified::InheritingCtor(..)
                            | Unqualified::Dtor(_)
                            | Unqualified::Conversion(_)
                    );
                let saved = self.closure_member;
                self.closure_member =
                    self.edg && name.comps.iter().any(|c| matches!(c.name, Unqualified::Lambda { .. }));
                let r = (|| {
                    if template {
                        self.ty(&f.ret)?;
                    }
                    self.bare_function_type(&f.params, f.variadic)
                })();
                self.closure_member = saved;
                r
            }
            Encoding::Data(name) => self.name(name, Use::Entity(Quals::NONE, RefQual::None)),
            Encoding::Special(s) => match &**s {
                Special::Vtable(t) => self.special("TV", t),
                Special::Vtt(t) => self.special("TT", t),
                Special::TypeInfo(t) => self.special("TI", t),
                Special::TypeInfoName(t) => self.special("TS", t),
                Special::Guard(n) => self.special_name("GV", n),
                Special::TlsInit(n) => self.special_name("TH", n),
                Special::TlsWrapper(n) => self.special_name("TW", n),
                Special::ConstructionVtable { complete, base } => {
                    self.out.push_str("TV");
                    self.ty(base)?;
                    self.out.push_str("__");
                    self.ty(complete)
                }
            },
        }
    }

    fn special(&mut self, code: &str, t: &Type) -> Result<(), String> {
        self.out.push_str(code);
        self.ty(t)
    }

    fn special_name(&mut self, code: &str, n: &Name) -> Result<(), String> {
        self.out.push_str(code);
        self.name(n, Use::Entity(Quals::NONE, RefQual::None))
    }

    fn name(&mut self, n: &Name, usage: Use) -> Result<(), String> {
        let comps = n.comps.as_slice();
        if comps.is_empty() {
            return Err("empty name".into());
        }
        if usage == Use::Type && self.try_name(&n.root, comps, false) {
            return Ok(());
        }
        let (quals, rq) = match usage {
            Use::Entity(q, r) => (q, r),
            Use::Type => (Quals::NONE, RefQual::None),
        };
        let member_quals = !quals.is_empty() || rq != RefQual::None;
        match &n.root {
            Root::Local { func, disc } => {
                self.out.push('Z');
                self.encoding(func)?;
                self.out.push('E');
                if comps.len() == 1 && !member_quals {
                    self.last_component(&n.root, comps)?;
                } else {
                    self.nested(&n.root, comps, quals, rq)?;
                }
                if *disc > 0 {
                    let d = disc - 1;
                    if d < 10 {
                        self.out.push_str(&format!("_{d}"));
                    } else {
                        self.out.push_str(&format!("__{d}_"));
                    }
                }
            }
            Root::Global if !member_quals && (comps.len() == 1 || (comps.len() == 2 && is_std(&comps[0]))) => {
                if comps.len() == 2 {
                    // `St` belongs to the name, a substitution replaces both.
                    match &comps[1].args {
                        Some(args) if self.try_name(&n.root, comps, true) => self.template_args(args)?,
                        _ => {
                            self.out.push_str("St");
                            self.last_component(&n.root, comps)?
                        }
                    }
                } else {
                    self.last_component(&n.root, comps)?;
                }
            }
            _ => self.nested(&n.root, comps, quals, rq)?,
        }
        if usage == Use::Type {
            self.add(prefix_key(&n.root, comps, false));
        }
        Ok(())
    }

    /// The last component of `comps`: its unqualified name (or the
    /// substitution of its template prefix) and template arguments.
    fn last_component(&mut self, root: &Root, comps: &[Component]) -> Result<(), String> {
        let last = comps.last().expect("non-empty");
        match &last.args {
            Some(args) => {
                if !self.try_name(root, comps, true) {
                    self.unqualified(last)?;
                    self.add(prefix_key(root, comps, true));
                }
                self.template_args(args)
            }
            None => self.unqualified(last),
        }
    }

    fn nested(&mut self, root: &Root, comps: &[Component], quals: Quals, rq: RefQual) -> Result<(), String> {
        self.out.push('N');
        self.quals(quals);
        self.ref_qual(rq);
        self.prefix_and_last(root, comps)?;
        self.out.push('E');
        Ok(())
    }

    /// `<prefix> <last component>`: a substitution of the last component's
    /// template prefix stands for the whole prefix.
    fn prefix_and_last(&mut self, root: &Root, comps: &[Component]) -> Result<(), String> {
        if let Some(args) = &comps[comps.len() - 1].args
            && self.try_name(root, comps, true)
        {
            return self.template_args(args);
        }
        self.prefix(root, &comps[..comps.len() - 1])?;
        self.last_component(root, comps)
    }

    /// `<prefix>`: the longest prefix already seen as a substitution, then
    /// the remaining components, each a new candidate.
    fn prefix(&mut self, root: &Root, comps: &[Component]) -> Result<(), String> {
        let mut start = None;
        for i in (1..=comps.len()).rev() {
            if self.try_name(root, &comps[..i], false) {
                start = Some(i);
                break;
            }
            if let Some(args) = &comps[i - 1].args
                && self.try_name(root, &comps[..i], true)
            {
                self.template_args(args)?;
                self.add(prefix_key(root, &comps[..i], false));
                start = Some(i);
                break;
            }
        }
        let start = match start {
            Some(s) => s,
            None => match root {
                Root::Global if comps.first().is_some_and(is_std) => {
                    self.out.push_str("St");
                    1
                }
                Root::Global | Root::Local { .. } => 0,
                Root::Param(p) => {
                    self.ty(&Type::Param(*p))?;
                    0
                }
                Root::Decltype(e) => {
                    self.ty(&Type::Decltype(e.clone()))?;
                    0
                }
            },
        };
        for j in start..comps.len() {
            let c = &comps[j];
            self.unqualified(c)?;
            if let Some(args) = &c.args {
                self.add(prefix_key(root, &comps[..=j], true));
                self.template_args(args)?;
            }
            // g++ (12) makes no candidate of a `<data-member-prefix>`:
            // `g<cmp's closure>(T, T)` is `_Z1gIN3cmpMUliE_EEvT_S1_`
            // (`S0_` the closure).
            if !matches!(c.name, Unqualified::DataMember(..)) {
                self.add(prefix_key(root, &comps[..=j], false));
            }
        }
        Ok(())
    }

    fn unqualified(&mut self, c: &Component) -> Result<(), String> {
        match &c.name {
            Unqualified::Source(s) => self.source_name(s)?,
            Unqualified::AnonNamespace(None) => self.source_name("_GLOBAL__N_1")?,
            Unqualified::AnonNamespace(Some(mid)) => self.source_name(&format!("_GLOBAL__N_{mid}"))?,
            Unqualified::Internal(mid) => self.source_name(&format!("_INTERNAL{mid}"))?,
            Unqualified::DataMember(s, internal) => {
                if *internal {
                    self.out.push('L');
                }
                self.source_name(s)?;
                self.out.push('M');
            }
            Unqualified::StaticSource(s) => {
                self.out.push('L');
                self.source_name(s)?
            }
            Unqualified::Ctor(k) => self.out.push_str(match k {
                CtorKind::Complete => "C1",
                CtorKind::Base => "C2",
                CtorKind::Allocating => "C3",
                CtorKind::Unified => "C4",
            }),
            Unqualified::InheritingCtor(k, base) => {
                self.out.push_str(match k {
                    CtorKind::Complete => "CI1",
                    CtorKind::Base => "CI2",
                    CtorKind::Allocating => "CI3",
                    CtorKind::Unified => "CI4",
                });
                self.ty(base)?
            }
            Unqualified::Dtor(k) => self.out.push_str(match k {
                DtorKind::Deleting => "D0",
                DtorKind::Complete => "D1",
                DtorKind::Base => "D2",
                DtorKind::Unified => "D4",
            }),
            Unqualified::Operator(op) => {
                if matches!(op, Op::PreInc | Op::PreDec | Op::Question) {
                    return Err(format!("`{}` is not an operator function name", op.code()));
                }
                self.out.push_str(op.code())
            }
            Unqualified::Conversion(t) => {
                self.out.push_str("cv");
                self.ty(t)?
            }
            Unqualified::Literal(s) => {
                self.out.push_str("li");
                self.source_name(s)?
            }
            Unqualified::VendorOp(arity, s) => {
                if *arity > 9 {
                    return Err(format!("vendor operator arity {arity}"));
                }
                self.out.push_str(&format!("v{arity}"));
                self.source_name(s)?
            }
            Unqualified::Lambda { params, variadic, index } => {
                self.out.push_str("Ul");
                self.lambda_level += 1;
                let r = self.bare_function_type(params, *variadic);
                self.lambda_level -= 1;
                r?;
                self.out.push('E');
                self.out.push_str(&number_(*index));
            }
            Unqualified::Unnamed(i) => {
                self.out.push_str("Ut");
                self.out.push_str(&number_(*i));
            }
            Unqualified::VendorLambda(v) => self.vendor_lambda(v)?,
        }
        for t in &c.abi_tags {
            self.out.push('B');
            self.source_name(t)?;
        }
        Ok(())
    }

    /// cicc's form of an extended lambda's closure type (checked with the
    /// real nvcc: `Z4mainEUnvhdl0_1_0_0_PFivE4main2_ffEE`,
    /// `ZN2ns3runEPifEUnvdtl2_PFvS1_fENS0_3runEf3_S1_fE`).
    fn vendor_lambda(&mut self, v: &VendorLambda) -> Result<(), String> {
        let flag = |b: bool| if b { "1_" } else { "0_" };
        match &v.kind {
            VendorLambdaKind::Device => self.out.push_str("Unvdl"),
            VendorLambdaKind::Trailing(_) => self.out.push_str("Unvdtl"),
            VendorLambdaKind::HostDevice { mutable, fptr_conv, noexcept, .. } => {
                self.out.push_str("Unvhdl");
                for b in [*mutable, *fptr_conv, *noexcept] {
                    self.out.push_str(flag(b));
                }
            }
        }
        self.out.push_str(&format!("{}_", v.captures.len()));
        self.ty(&v.fn_ptr)?;
        self.enclosing_name(&v.func)?;
        if let VendorLambdaKind::Trailing(ret) = &v.kind {
            self.ty(ret)?;
        }
        self.out.push_str(&format!("{}_", v.index));
        if let VendorLambdaKind::HostDevice { ret, params, .. } = &v.kind {
            self.ty(ret)?;
            for t in params {
                self.ty(t)?;
            }
            self.out.push('E');
        }
        for t in &v.captures {
            self.ty(t)?;
        }
        Ok(())
    }

    /// The name of a function whose encoding was just written: a template
    /// instance whose template prefix is a substitution is that
    /// substitution and its arguments, without `N…E` (`S1_IiE`, as cicc
    /// writes it); anything else as the encoding wrote it (`NKS1_2goE`).
    fn enclosing_name(&mut self, e: &Encoding) -> Result<(), String> {
        let (name, f) = match e {
            Encoding::Function(name, f) => (&**name, &**f),
            // `main` and C functions: the encoding is the plain name.
            Encoding::Data(name) => return self.name(name, Use::Entity(Quals::NONE, RefQual::None)),
            Encoding::Special(_) => return Err("an extended lambda outside a function".into()),
        };
        let comps = name.comps.as_slice();
        if f.quals.is_empty()
            && f.ref_qual == RefQual::None
            && let Some(args) = comps.last().and_then(|c| c.args.as_ref())
            && self.try_name(&name.root, comps, true)
        {
            return self.template_args(args);
        }
        self.name(name, Use::Entity(f.quals, f.ref_qual))
    }

    fn template_args(&mut self, args: &[TArg]) -> Result<(), String> {
        self.out.push('I');
        for a in args {
            self.template_arg(a)?;
        }
        self.out.push('E');
        Ok(())
    }

    fn template_arg(&mut self, a: &TArg) -> Result<(), String> {
        match a {
            TArg::Type(t) => self.ty(t),
            TArg::Literal(l) => self.literal(l),
            TArg::Expr(Expr::Literal(l)) => self.literal(l),
            TArg::Expr(Expr::Entity(e)) => self.expr(&Expr::Entity(e.clone())),
            // EDG's `L_Z <template> E` is an expr-primary: no `X … E`.
            TArg::Expr(e @ Expr::VarTemplateId { .. }) if self.edg => self.expr(e),
            TArg::Expr(e) => {
                self.out.push('X');
                self.expr(e)?;
                self.out.push('E');
                Ok(())
            }
            TArg::Pack(v) => {
                self.out.push('J');
                for a in v {
                    self.template_arg(a)?;
                }
                self.out.push('E');
                Ok(())
            }
            TArg::Template(n) => {
                if n.comps.last().is_some_and(|c| c.args.is_some()) {
                    return Err("a template template argument has no arguments".into());
                }
                self.name(n, Use::Type)
            }
        }
    }

    fn literal(&mut self, l: &Literal) -> Result<(), String> {
        if let Type::Builtin(
            b @ (Builtin::Float
            | Builtin::Double
            | Builtin::LongDouble
            | Builtin::Float128
            | Builtin::Float16
            | Builtin::BFloat16
            | Builtin::Float32
            | Builtin::Float64
            | Builtin::FloatN128
            | Builtin::Float32x
            | Builtin::Float64x
            | Builtin::Void
            | Builtin::Auto
            | Builtin::DecltypeAuto),
        ) = l.ty
        {
            return Err(format!("no literal form for type `{}`", b.code()));
        }
        self.out.push('L');
        self.ty(&l.ty)?;
        if l.ty == Type::Builtin(Builtin::NullPtr) {
            if l.magnitude != 0 {
                return Err("a nullptr_t literal is null".into());
            }
        } else {
            if l.negative && l.magnitude != 0 {
                self.out.push('n');
            }
            self.out.push_str(&l.magnitude.to_string());
        }
        self.out.push('E');
        Ok(())
    }

    fn bare_function_type(&mut self, params: &[Type], variadic: bool) -> Result<(), String> {
        if params.is_empty() && !variadic {
            self.out.push('v');
        }
        for p in params {
            self.ty(p)?;
        }
        if variadic {
            self.out.push('z');
        }
        Ok(())
    }

    fn ty(&mut self, t: &Type) -> Result<(), String> {
        self.deeper(|m| m.ty_inner(t))
    }

    fn ty_inner(&mut self, t: &Type) -> Result<(), String> {
        match t {
            Type::Builtin(b) => {
                self.out.push_str(b.code());
                return Ok(());
            }
            Type::Named(n) => return self.name(n, Use::Type),
            Type::Qualified(q, inner) if q.is_empty() => return self.ty(inner),
            _ => {}
        }
        if self.try_type(t) {
            return Ok(());
        }
        match t {
            Type::Builtin(_) | Type::Named(_) => unreachable!("handled above"),
            Type::Vendor(s) => {
                self.out.push('u');
                self.source_name(s)?;
            }
            Type::Qualified(q, inner) => {
                self.quals(*q);
                match &**inner {
                    // A qualified function type (of a member pointer): only
                    // the qualified type is a candidate (as g++ and EDG do).
                    Type::Func(f) if f.quals.is_empty() => self.function_type(f)?,
                    Type::Func(_) => return Err("doubly qualified function type".into()),
                    Type::Qualified(..) => return Err("nested qualifiers: merge them".into()),
                    _ => self.ty(inner)?,
                }
            }
            Type::Ptr(i) => {
                self.out.push('P');
                self.ty(i)?;
            }
            Type::LRef(i) => {
                self.out.push('R');
                self.ty(i)?;
            }
            Type::RRef(i) => {
                self.out.push('O');
                self.ty(i)?;
            }
            Type::Array(b, e) => {
                self.out.push('A');
                match b {
                    ArrayBound::Unknown => {}
                    ArrayBound::Known(n) => self.out.push_str(&n.to_string()),
                    ArrayBound::Expr(x) => self.expr(x)?,
                }
                self.out.push('_');
                self.ty(e)?;
            }
            Type::Func(f) => {
                self.quals(f.quals);
                self.function_type(f)?;
            }
            Type::MemPtr(c, m) => {
                self.out.push('M');
                self.ty(c)?;
                self.ty(m)?;
            }
            Type::Param(p) => {
                self.out.push('T');
                self.out.push_str(&number_(p.0));
            }
            Type::ParamApp(p, args) => {
                self.ty(&Type::Param(*p))?;
                self.template_args(args)?;
            }
            Type::PackExpansion(i) => {
                self.out.push_str("Dp");
                self.pack_depth += 1;
                let r = self.ty(i);
                self.pack_depth -= 1;
                r?;
            }
            Type::Decltype(e) => {
                self.out.push_str(if is_id_expression(e) { "Dt" } else { "DT" });
                self.expr(e)?;
                self.out.push('E');
            }
        }
        match t {
            Type::Param(p) if self.pack_depth > 0 && !self.edg => self.add(Key::PackParam(*p)),
            _ => self.add(Key::Type(t.clone(), self.in_pack(t))),
        }
        Ok(())
    }

    /// `[exception-spec] F <return> <params> [ref-qualifier] E` (the
    /// cv-qualifiers, if any, are already written).
    fn function_type(&mut self, f: &FnType) -> Result<(), String> {
        match &f.exception {
            ExceptionSpec::None => {}
            ExceptionSpec::Noexcept => self.out.push_str("Do"),
            ExceptionSpec::Computed(e) => {
                self.out.push_str("DO");
                self.expr(e)?;
                self.out.push('E');
            }
        }
        self.out.push('F');
        self.ty(&f.ret)?;
        self.bare_function_type(&f.params, f.variadic)?;
        self.ref_qual(f.ref_qual);
        self.out.push('E');
        Ok(())
    }

    fn simple_id(&mut self, name: &str, args: &Option<Vec<TArg>>) -> Result<(), String> {
        self.source_name(name)?;
        if let Some(a) = args {
            self.template_args(a)?;
        }
        Ok(())
    }

    fn op_code(&mut self, op: Op, arity: usize) -> Result<(), String> {
        let ok = match op {
            Op::Pos | Op::Neg | Op::AddrOf | Op::Deref | Op::Compl | Op::Not => arity == 1,
            Op::Inc | Op::Dec | Op::PreInc | Op::PreDec => arity == 1,
            Op::New | Op::NewArray | Op::Delete | Op::DeleteArray | Op::Call | Op::Question => false,
            Op::CoAwait => arity == 1,
            _ => arity == 2,
        };
        if !ok {
            return Err(format!("operator `{}` with {arity} operands", op.code()));
        }
        self.out.push_str(op.code());
        Ok(())
    }

    fn expr(&mut self, e: &Expr) -> Result<(), String> {
        self.deeper(|m| m.expr_inner(e))
    }

    fn expr_inner(&mut self, e: &Expr) -> Result<(), String> {
        match e {
            Expr::Literal(l) => self.literal(l)?,
            Expr::Entity(enc) => {
                self.out.push_str("L_Z");
                self.encoding(enc)?;
                self.out.push('E');
            }
            Expr::FnParam { level, index, quals } => {
                if *level == 0 {
                    self.out.push_str("fp");
                } else {
                    self.out.push_str(&format!("fL{}p", level - 1));
                }
                self.quals(*quals);
                self.out.push_str(&number_(*index));
            }
            // A template parameter as a value is not a substitution candidate.
            Expr::TParam(p) => {
                self.out.push('T');
                self.out.push_str(&number_(p.0));
            }
            Expr::Unary(op, a) => {
                self.op_code(*op, 1)?;
                self.expr(a)?;
            }
            Expr::Binary(op, a, b) => {
                self.op_code(*op, 2)?;
                self.expr(a)?;
                self.expr(b)?;
            }
            Expr::Cond(a, b, c) => {
                self.out.push_str("qu");
                self.expr(a)?;
                self.expr(b)?;
                self.expr(c)?;
            }
            Expr::Call(f, args) => {
                self.out.push_str("cl");
                self.expr(f)?;
                for a in args {
                    self.expr(a)?;
                }
                self.out.push('E');
            }
            Expr::Member { arrow, object, name, args } => {
                self.out.push_str(if *arrow { "pt" } else { "dt" });
                self.expr(object)?;
                self.simple_id(name, args)?;
            }
            Expr::Id(name, args) => self.simple_id(name, args)?,
            Expr::VarTemplateId { template, args } => {
                if self.edg {
                    self.out.push_str("L_Z");
                    self.encoding(&Encoding::Data(template.clone()))?;
                    self.out.push('E');
                } else {
                    let last = template.comps.last().ok_or("a variable template without a name")?;
                    let Unqualified::Source(n) = &last.name else {
                        return Err("a variable template with an unusual name".into());
                    };
                    self.source_name(n)?;
                    self.template_args(args)?;
                }
            }
            Expr::NsId { global, quals, name, args } => {
                if self.edg && !quals.is_empty() {
                    if *global {
                        self.out.push_str("gs");
                    }
                    self.out.push_str("sr");
                    for q in quals {
                        self.source_name(q)?;
                    }
                    self.out.push('E');
                }
                self.simple_id(name, args)?;
            }
            Expr::Scoped { ty, name, args } => {
                // g++ writes a class (template-id) qualifier as a whole
                // type too: `srSt11__is_scalarIT_E7__value`,
                // `srNS_6detail5is_fooIT_EE5value`.
                if !matches!(**ty, Type::Param(_) | Type::ParamApp(..) | Type::Decltype(_) | Type::Named(_)) {
                    return Err("`sr` with a qualifier other than a template parameter, class or decltype".into());
                }
                self.out.push_str("sr");
                // EDG spells a qualified class qualifier level by level,
                // none of them a substitution candidate (their template
                // arguments are mangled as usual):
                // `sr4cuda3std3__417__detect_adl_swap17__can_define_swapIT_EE5value`
                // where g++ writes `srNS1_17__detect_adl_swap…IT_EE5value`.
                match &**ty {
                    Type::Named(n)
                        if self.edg
                            && n.root == Root::Global
                            && n.comps.len() > 1
                            && n.comps
                                .iter()
                                .all(|c| matches!(c.name, Unqualified::Source(_)) && c.abi_tags.is_empty()) =>
                    {
                        for c in &n.comps {
                            let Unqualified::Source(level) = &c.name else { unreachable!("checked above") };
                            self.simple_id(level, &c.args)?;
                        }
                        self.out.push('E');
                    }
                    _ => self.ty(ty)?,
                }
                self.simple_id(name, args)?;
            }
            Expr::SizeofType(t) => {
                self.out.push_str("st");
                self.ty(t)?;
            }
            Expr::SizeofExpr(a) => {
                self.out.push_str("sz");
                self.expr(a)?;
            }
            Expr::AlignofType(t) => {
                self.out.push_str("at");
                self.ty(t)?;
            }
            Expr::AlignofExpr(a) => {
                self.out.push_str("az");
                self.expr(a)?;
            }
            Expr::SizeofPack(p) => {
                self.out.push_str("sZ");
                self.expr(&Expr::TParam(*p))?;
            }
            Expr::PackExpansion(e) => {
                self.out.push_str("sp");
                // A pack named under `sp` is the same substitution as
                // under `Dp` (`…spcl7declvalIT0_EE…DpOS2_`, g++ `nm`).
                self.pack_depth += 1;
                let r = self.expr(e);
                self.pack_depth -= 1;
                r?;
            }
            Expr::Noexcept(a) => {
                self.out.push_str("nx");
                self.expr(a)?;
            }
            Expr::Cast(kind, t, args) => {
                let code = match kind {
                    CastKind::Functional => "cv",
                    CastKind::Static => "sc",
                    CastKind::Dynamic => "dc",
                    CastKind::Reinterpret => "rc",
                    CastKind::Const => "cc",
                };
                self.out.push_str(code);
                self.ty(t)?;
                match (kind, args.as_slice()) {
                    (_, [a]) => self.expr(a)?,
                    (CastKind::Functional, args) => {
                        self.out.push('_');
                        for a in args {
                            self.expr(a)?;
                        }
                        self.out.push('E');
                    }
                    _ => return Err(format!("`{code}` cast with {} operands", args.len())),
                }
            }
            Expr::New { global, array, placement, ty, init } => {
                if *global {
                    self.out.push_str("gs");
                }
                self.out.push_str(if *array { "na" } else { "nw" });
                for p in placement {
                    self.expr(p)?;
                }
                self.out.push('_');
                self.ty(ty)?;
                // `<initializer>` (`pi … E`) closes the expression itself
                // (`gsnwcvPvLi0E_T_pispcl7declvalIT0_EEEE`, g++ `nm`).
                match init {
                    Some(init) => {
                        self.out.push_str("pi");
                        for a in init {
                            self.expr(a)?;
                        }
                        self.out.push('E');
                    }
                    None => self.out.push('E'),
                }
            }
            Expr::Braced(t, args) => {
                self.out.push_str("tl");
                self.ty(t)?;
                for a in args {
                    self.expr(a)?;
                }
                self.out.push('E');
            }
            Expr::Fold { right, op, pack, init } => {
                let code = match (init.is_some(), right) {
                    (false, false) => "fl",
                    (false, true) => "fr",
                    (true, false) => "fL",
                    (true, true) => "fR",
                };
                self.out.push_str(code);
                self.op_code(*op, 2)?;
                match init {
                    None => self.expr(pack)?,
                    // Operands in source order: `(init op ... op pack)`, `(pack op ... op init)`.
                    Some(i) if !*right => {
                        self.expr(i)?;
                        self.expr(pack)?;
                    }
                    Some(i) => {
                        self.expr(pack)?;
                        self.expr(i)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Whether `t` names a template parameter (at any depth outside
/// expressions; a `decltype` counts).
fn names_param(t: &Type) -> bool {
    match t {
        Type::Builtin(_) | Type::Vendor(_) => false,
        Type::Param(_) | Type::ParamApp(..) | Type::Decltype(_) => true,
        Type::Named(n) => name_names_param(n),
        Type::Qualified(_, i) | Type::Ptr(i) | Type::LRef(i) | Type::RRef(i) | Type::Array(_, i) => names_param(i),
        Type::PackExpansion(i) => names_param(i),
        Type::Func(f) => names_param(&f.ret) || f.params.iter().any(names_param),
        Type::MemPtr(c, m) => names_param(c) || names_param(m),
    }
}

fn name_names_param(n: &Name) -> bool {
    matches!(n.root, Root::Param(_) | Root::Decltype(_))
        || n.comps.iter().flat_map(|c| c.args.iter().flatten()).any(targ_names_param)
}

fn targ_names_param(a: &TArg) -> bool {
    match a {
        TArg::Type(t) => names_param(t),
        TArg::Pack(p) => p.iter().any(targ_names_param),
        TArg::Expr(_) => true,
        TArg::Literal(_) | TArg::Template(_) => false,
    }
}
