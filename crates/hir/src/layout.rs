//! Class layout (spec 50 §7): the Itanium C++ ABI algorithm for an x86-64
//! Linux host, as EDG implements it — primary bases and the vptr, empty base
//! optimisation with same-type conflicts, virtual bases in inheritance-graph
//! order, tail-padding reuse decided by "POD for the purpose of layout",
//! SysV bit-fields, `packed`/`aligned`/`alignas`/`#pragma pack` — with EDG's
//! two deviations from GCC 12 (§7.6), which `Layout::deviations` names.

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use rustc_hash::FxHashSet;

use crate::consteval::{self, EvalCx};
use crate::item_tree::{Access, AlignasArg, Attrs, Builtin, ClassKey, TemplateKind};
use crate::scopes::def_map;
use crate::scopes::{DeclKey, ScopeKind};
use crate::ty::{self, LowerCx, TyId, TyKind};
use crate::{ClassId, item_tree_of};

/// `__BIGGEST_ALIGNMENT__` on x86-64: `aligned` without an argument.
const BIGGEST_ALIGNMENT: u64 = 16;

/// A class to lay out: an ordinary class (explicit specializations
/// included) or a class of an instantiation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassRef {
    Class(ClassId),
    Inst(crate::templates::InstId),
}

impl ClassRef {
    /// The class whose item tree entry describes it (the pattern for an instance).
    pub fn pattern(self, db: &dyn SourceDatabase) -> ClassId {
        match self {
            ClassRef::Class(c) => c,
            ClassRef::Inst(i) => i.class(db),
        }
    }
}

/// The layout of a class or instance.
pub fn layout_ref(db: &dyn SourceDatabase, c: ClassRef) -> Result<Arc<Layout>, LayoutError> {
    match c {
        ClassRef::Class(c) => layout(db, c),
        ClassRef::Inst(i) => inst_layout(db, i),
    }
}

crate::consteval::var_template::recorded_query! {
    /// The layout of a class of an instantiation.
    pub fn inst_layout(i: crate::templates::InstId) -> Result<Arc<Layout>, LayoutError> = inst_layout_of;
    tracked inst_layout_uses;
    cycle inst_layout_uses_cycle => inst_layout_cycle;
}

fn inst_layout_of(db: &dyn SourceDatabase, i: crate::templates::InstId) -> Result<Arc<Layout>, LayoutError> {
    let r = crate::templates::nested(|| Ok(compute(db, ClassRef::Inst(i))));
    match r {
        Ok(r) => r.map(Arc::new),
        Err(e) => Err(LayoutError::Template(e.to_string())),
    }
}

fn inst_layout_cycle(
    _db: &dyn SourceDatabase,
    _id: salsa::Id,
    _i: crate::templates::InstId,
) -> Result<Arc<Layout>, LayoutError> {
    Err(LayoutError::Cycle)
}

/// The layout of a type that is a class (a specialization included).
pub fn ty_layout(db: &dyn SourceDatabase, t: TyId) -> Result<Arc<Layout>, LayoutError> {
    let t = ty::canonical(db, t);
    match crate::templates::class_of(db, t) {
        Ok(c) => layout_ref(db, c),
        Err(e) => Err(match t.kind(db) {
            TyKind::App(_) => LayoutError::Template(e.to_string()),
            _ => LayoutError::Invalid(format!("{} is not a class", ty::display(db, t))),
        }),
    }
}

/// The name of a class or instance for people.
pub fn ref_name(db: &dyn SourceDatabase, c: ClassRef) -> String {
    match c {
        ClassRef::Class(c) => class_name(db, c),
        ClassRef::Inst(i) => crate::templates::inst_name(db, i),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub size: u64,
    pub align: u64,
    /// Size without virtual bases (and without tail padding unless POD).
    pub nvsize: u64,
    pub nvalign: u64,
    pub fields: Vec<FieldLayout>,
    pub bases: Vec<BaseLayout>,
    /// Whether the class has its own vptr at offset 0 (no primary base).
    pub vptr: bool,
    pub dynamic: bool,
    pub empty: bool,
    pub pod_for_layout: bool,
    /// Standard-layout ([class.prop]/3): what `__is_standard_layout` and
    /// `__is_pod` ask, and where `offsetof` is valid.
    pub standard_layout: bool,
    pub primary_base: Option<ClassRef>,
    /// Empty-class subobjects of the non-virtual part: (class, offset).
    pub empties: Vec<(ClassRef, u64)>,
    /// EDG rules that made this layout differ from GCC 12's (spec 50 §7.6).
    pub deviations: Vec<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldLayout {
    /// The member name; members of anonymous structs/unions are listed after
    /// the anonymous member, with `via_anonymous` set.
    pub name: Option<String>,
    pub offset_bits: u64,
    pub bit_width: Option<u64>,
    pub size: u64,
    pub ty: TyId,
    pub access: Access,
    pub via_anonymous: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseLayout {
    pub class: ClassRef,
    /// The base's type as written (for `inspect` and the parity test).
    pub ty: Option<TyId>,
    pub offset: u64,
    pub is_virtual: bool,
    pub is_primary: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    Incomplete(String),
    /// A class template or a type that needs instantiation.
    Template(String),
    Dependent(String),
    Invalid(String),
    Cycle,
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayoutError::Incomplete(s) => write!(f, "incomplete type {s}"),
            LayoutError::Template(s) => write!(f, "needs template instantiation: {s}"),
            LayoutError::Dependent(s) => write!(f, "dependent type {s}"),
            LayoutError::Invalid(s) => f.write_str(s),
            LayoutError::Cycle => f.write_str("class contains itself"),
        }
    }
}

fn align_up(v: u64, a: u64) -> u64 {
    if a <= 1 { v } else { v.div_ceil(a) * a }
}

/// Size and alignment of a builtin on x86-64 Linux.
pub fn builtin_size_align(b: Builtin) -> Option<(u64, u64)> {
    use Builtin::*;
    Some(match b {
        Void => return None,
        Bool | Char | SChar | UChar | Char8 => (1, 1),
        Short | UShort | Char16 | Float16 | BF16 => (2, 2),
        Int | UInt | WChar | Char32 | Float | Float32 => (4, 4),
        Long | ULong | LongLong | ULongLong | Double | Float64 | Float32x | NullPtr => (8, 8),
        Int128 | UInt128 | LongDouble | Float128 | Float64x => (16, 16),
    })
}

/// `sizeof` and `alignof` of a type (members: references take a pointer).
pub fn size_align(db: &dyn SourceDatabase, t: TyId) -> Result<(u64, u64), LayoutError> {
    size_align_depth(db, t, 0)
}

fn size_align_depth(db: &dyn SourceDatabase, t: TyId, depth: u32) -> Result<(u64, u64), LayoutError> {
    if depth > 64 {
        return Err(LayoutError::Invalid("type nesting too deep".into()));
    }
    match t.kind(db) {
        TyKind::Error(e) => Err(LayoutError::Invalid(e.to_string())),
        TyKind::Builtin(b) => builtin_size_align(*b).ok_or_else(|| LayoutError::Incomplete("void".into())),
        TyKind::Ptr(_) | TyKind::LRef(_) | TyKind::RRef(_) => Ok((8, 8)),
        TyKind::MemPtr { pointee, .. } => match ty::canonical(db, *pointee).kind(db) {
            TyKind::Func(_) => Ok((16, 8)),
            _ => Ok((8, 8)),
        },
        TyKind::Array(e, n) => {
            let (s, a) = size_align_depth(db, *e, depth + 1)?;
            Ok((s * n.unwrap_or(0), a))
        }
        TyKind::Func(_) => Err(LayoutError::Invalid("function type".into())),
        TyKind::Class(c) => {
            let l = layout(db, *c)?;
            Ok((l.size, l.align))
        }
        TyKind::App(_) | TyKind::Inst(_) => {
            let l = ty_layout(db, t)?;
            Ok((l.size, l.align))
        }
        TyKind::Enum(e) => {
            let tree = item_tree_of(db, e.item(db));
            let data = tree.enums.get(e.idx(db) as usize);
            if data.is_some_and(|d| !d.is_definition && d.base.is_none() && !d.scoped) {
                return Err(LayoutError::Incomplete(ty::display(db, t)));
            }
            let u = ty::enum_info(db, *e).underlying;
            Ok(builtin_size_align(u).unwrap_or((4, 4)))
        }
        TyKind::AliasSpec { ty, .. } => size_align_depth(db, *ty, depth + 1),
        TyKind::Typedef(td) => {
            let (s, a) = size_align_depth(db, ty::typedef_ty(db, *td), depth + 1)?;
            // `typedef T X __attribute__((aligned(n)))` sets the alignment.
            match typedef_align(db, *td) {
                Some(n) => Ok((s, n)),
                None => Ok((s, a)),
            }
        }
        TyKind::Qualified(x, _) => size_align_depth(db, *x, depth + 1),
        TyKind::Complex(x) => {
            let (s, a) = size_align_depth(db, *x, depth + 1)?;
            Ok((2 * s, a))
        }
        TyKind::Vector(_, n) => Ok((*n, *n)),
        TyKind::TemplateParam { .. } | TyKind::ParamApp { .. } | TyKind::ParamArray { .. } | TyKind::Dependent(_) => {
            Err(LayoutError::Dependent(ty::display(db, t)))
        }
        TyKind::Specialization(s) => Err(LayoutError::Template(s.clone())),
        // A lambda without captures is an empty class ([expr.prim.lambda.closure]).
        TyKind::Closure(c) => {
            let body = crate::infer::owner_body(db, c.owner(db));
            match body.exprs.get(c.expr(db).0 as usize) {
                Some(crate::body::Expr::Lambda { captures, .. }) if captures.is_empty() => Ok((1, 1)),
                _ => Err(LayoutError::Invalid("closure type (captures not laid out)".into())),
            }
        }
    }
}

fn typedef_align(db: &dyn SourceDatabase, td: crate::TypedefId) -> Option<u64> {
    let item = td.item(db);
    let tree = item_tree_of(db, item);
    let data = tree.typedefs.get(td.idx(db) as usize)?;
    if data.attrs.aligned.is_empty() && data.attrs.alignas.is_empty() {
        return None;
    }
    let map = def_map(db, item.tu(db));
    let scope = map.parent.get(&DeclKey::Typedef(td)).copied().unwrap_or(crate::scopes::ROOT);
    attr_align(LowerCx { db, map: &map, item, scope, env: None }, &data.attrs).ok().flatten()
}

/// The largest alignment that `aligned`/`alignas` attributes ask for.
fn attr_align(cx: LowerCx<'_>, attrs: &Attrs) -> Result<Option<u64>, LayoutError> {
    let mut best: Option<u64> = None;
    let mut raise = |a: u64| best = Some(best.map_or(a, |b| b.max(a)));
    for a in &attrs.aligned {
        match a {
            None => raise(BIGGEST_ALIGNMENT),
            Some(e) => match consteval::eval(&EvalCx::new(cx), e) {
                Ok(v) if v.v > 0 && (v.v as u64).is_power_of_two() => raise(v.v as u64),
                Ok(v) => return Err(LayoutError::Invalid(format!("bad alignment {}", v.v))),
                Err(e) => return Err(LayoutError::Invalid(format!("alignment: {e}"))),
            },
        }
    }
    for a in &attrs.alignas {
        match a {
            AlignasArg::Type(t) => raise(size_align(cx.db, ty::lower(cx, t))?.1),
            AlignasArg::Expr(e) => match consteval::eval(&EvalCx::new(cx), e) {
                // alignas(0) is ignored.
                Ok(v) if v.v == 0 => {}
                Ok(v) if v.v > 0 && (v.v as u64).is_power_of_two() => raise(v.v as u64),
                Ok(v) => return Err(LayoutError::Invalid(format!("bad alignment {}", v.v))),
                Err(e) => return Err(LayoutError::Invalid(format!("alignment: {e}"))),
            },
        }
    }
    Ok(best)
}

crate::consteval::var_template::recorded_query! {
    /// The layout of a class (its definition, when `c` is a declaration).
    pub fn layout(c: ClassId) -> Result<Arc<Layout>, LayoutError> = layout_of;
    tracked layout_uses;
    cycle layout_uses_cycle => layout_cycle;
}

fn layout_of(db: &dyn SourceDatabase, c: ClassId) -> Result<Arc<Layout>, LayoutError> {
    compute(db, ClassRef::Class(c)).map(Arc::new)
}

fn layout_cycle(_db: &dyn SourceDatabase, _id: salsa::Id, _c: ClassId) -> Result<Arc<Layout>, LayoutError> {
    Err(LayoutError::Cycle)
}

/// The qualified name of a class for people (`a::b::S`, `(anonymous)` parts).
pub fn class_name(db: &dyn SourceDatabase, c: ClassId) -> String {
    let map = def_map(db, c.tu(db));
    let tree = item_tree_of(db, c.item(db));
    let Some(data) = tree.classes.get(c.idx(db) as usize) else { return "?".into() };
    let own = data.name.clone().or_else(|| data.typedef_name.clone()).unwrap_or_else(|| "(anonymous)".into());
    let mut parts = vec![own];
    let mut s = map.parent.get(&DeclKey::Class(c)).copied();
    while let Some(cur) = s {
        let scope = map.scope(cur);
        match &scope.kind {
            ScopeKind::Root => break,
            ScopeKind::Namespace { name, .. } => {
                parts.push(name.clone().unwrap_or_else(|| "(anonymous namespace)".into()))
            }
            ScopeKind::Class(k) => {
                let t = item_tree_of(db, k.item(db));
                let d = &t.classes[k.idx(db) as usize];
                parts.push(d.name.clone().or_else(|| d.typedef_name.clone()).unwrap_or_else(|| "(anonymous)".into()));
            }
            ScopeKind::Enum(_) => {}
            // A local class: `f()::S` as g++ prints it.
            ScopeKind::Block(f) => parts
                .push(format!("{}()", f.data(db).map_or_else(|| "?".into(), |d| crate::scopes::fn_name_key(&d.name)))),
        }
        s = scope.parent;
    }
    parts.reverse();
    parts.join("::")
}

struct Placer {
    size: u64,
    /// Data end in bits (bit-fields end mid-byte).
    dbits: u64,
    align: u64,
    empties: Vec<(ClassRef, u64)>,
    deviations: Vec<&'static str>,
}

impl Placer {
    fn dsize(&self) -> u64 {
        self.dbits.div_ceil(8)
    }

    fn conflicts(&self, comp: &[(ClassRef, u64)], off: u64) -> bool {
        comp.iter().any(|(c, o)| self.empties.iter().any(|(c2, o2)| c == c2 && *o2 == off + o))
    }

    /// Places a component of class type: an empty one at 0 first, then at
    /// dsize, dsize+align, …; a non-empty one at the aligned dsize, bumped
    /// while a same-type empty subobject would share an address.
    fn place_class(&mut self, l: &Layout, align: u64, as_base_or_nua: bool) -> u64 {
        let comp = &l.empties;
        let mut off;
        if l.empty && as_base_or_nua {
            off = 0;
            if self.conflicts(comp, off) {
                off = self.dsize();
                while self.conflicts(comp, off) {
                    off += align.max(1);
                }
            }
        } else {
            off = align_up(self.dsize(), align);
            while self.conflicts(comp, off) {
                off += align.max(1);
            }
        }
        for (c, o) in comp {
            self.empties.push((*c, off + o));
        }
        off
    }
}

/// Empty subobjects of a member of type `t` (classes and arrays of them).
fn member_empties(db: &dyn SourceDatabase, t: TyId) -> Vec<(ClassRef, u64)> {
    match ty::canonical(db, t).kind(db) {
        TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_) => {
            ty_layout(db, t).map(|l| l.empties.clone()).unwrap_or_default()
        }
        TyKind::Qualified(x, _) => member_empties(db, *x),
        TyKind::Array(e, Some(n)) => {
            let inner = member_empties(db, *e);
            if inner.is_empty() {
                return inner;
            }
            let size = size_align(db, *e).map(|s| s.0).unwrap_or(1);
            let mut out = Vec::new();
            for i in 0..(*n).min(16) {
                out.extend(inner.iter().map(|(c, o)| (*c, o + i * size)));
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The class a member type is (through cv and arrays), for POD checks.
fn member_class(db: &dyn SourceDatabase, t: TyId) -> Option<ClassRef> {
    let t = ty::canonical(db, t);
    match t.kind(db) {
        TyKind::Class(c) => Some(ClassRef::Class(def_map(db, c.tu(db)).class_definition(*c))),
        TyKind::App(_) | TyKind::Inst(_) => crate::templates::class_of(db, t).ok(),
        TyKind::Qualified(x, _) | TyKind::Array(x, _) => member_class(db, *x),
        _ => None,
    }
}

/// Whether a class of layout `l` or one of its bases declares a
/// non-static data member.
fn declares_data(db: &dyn SourceDatabase, l: &Layout, depth: u32) -> bool {
    !l.fields.is_empty()
        || (depth < 32
            && l.bases.iter().any(|b| layout_ref(db, b.class).is_ok_and(|bl| declares_data(db, &bl, depth + 1))))
}

/// Whether `c` is a base of a class of layout `l`, at any depth.
fn derives_from(db: &dyn SourceDatabase, l: &Layout, c: ClassRef, depth: u32) -> bool {
    depth < 32
        && l.bases
            .iter()
            .any(|b| b.class == c || layout_ref(db, b.class).is_ok_and(|bl| derives_from(db, &bl, c, depth + 1)))
}

struct FieldIn {
    name: Option<String>,
    ty: TyId,
    width: Option<u64>,
    access: Access,
    align_attr: Option<u64>,
    packed: bool,
    nua: bool,
    has_init: bool,
    anonymous: Option<ClassRef>,
}

fn compute(db: &dyn SourceDatabase, cref: ClassRef) -> Result<Layout, LayoutError> {
    let c = cref.pattern(db);
    let tu = c.tu(db);
    let map = def_map(db, tu);
    let c = map.class_definition(c);
    let cref = match cref {
        ClassRef::Class(_) => ClassRef::Class(c),
        i => i,
    };
    let item = c.item(db);
    let tree = item_tree_of(db, item);
    let data = tree.classes.get(c.idx(db) as usize).ok_or(LayoutError::Invalid("no such class".into()))?;
    let name = || ref_name(db, cref);
    let env = match cref {
        ClassRef::Class(_) => {
            if crate::templates::is_templated(db, &map, c) {
                return Err(LayoutError::Template(name()));
            }
            None
        }
        ClassRef::Inst(i) => Some(crate::templates::inst_env(db, i).map_err(|e| LayoutError::Template(e.to_string()))?),
    };
    if !data.is_definition {
        return Err(LayoutError::Incomplete(name()));
    }
    let _ = TemplateKind::None;
    let scope = *map.class_scope.get(&c).ok_or_else(|| LayoutError::Incomplete(name()))?;
    let cx = LowerCx { db, map: &map, item, scope, env: env.as_ref() };

    // Bases.
    let bases = crate::templates::class_bases_of(db, cref);
    let mut base_layouts = Vec::new();
    let mut base_tys = Vec::new();
    for b in bases.iter() {
        let Some(bc) = b.class else {
            return Err(match b.error.clone() {
                Some(crate::ty::BaseError::Template(e)) => LayoutError::Template(e),
                Some(crate::ty::BaseError::Invalid(e)) => LayoutError::Invalid(e),
                None => LayoutError::Invalid(String::new()),
            });
        };
        base_layouts.push((bc, b.is_virtual, layout_ref(db, bc)?));
        base_tys.push((bc, b.ty));
    }
    let base_ty = |bc: ClassRef| base_tys.iter().find(|(c, _)| *c == bc).and_then(|(_, t)| *t);

    // Members.
    let mut fields = Vec::new();
    for f in &data.fields {
        let ty = ty::lower(cx, &f.ty);
        let width = match &f.bit_width {
            None => None,
            Some(w) => match consteval::eval(&EvalCx::new(cx), w) {
                Ok(v) if v.v >= 0 => Some(v.v as u64),
                Ok(_) => return Err(LayoutError::Invalid("negative bit-field width".into())),
                Err(e) => return Err(LayoutError::Invalid(format!("bit-field width: {e}"))),
            },
        };
        let anonymous = f.anonymous.map(|i| {
            let k = crate::ClassId::new(db, item, i);
            match cref {
                ClassRef::Inst(inst) => ClassRef::Inst(crate::templates::InstId::new(db, k, inst.args(db).clone())),
                ClassRef::Class(_) => ClassRef::Class(k),
            }
        });
        fields.push(FieldIn {
            name: f.name.clone(),
            ty,
            width,
            access: f.access,
            align_attr: attr_align(cx, &f.attrs)?,
            packed: f.attrs.packed,
            nua: f.attrs.no_unique_address,
            has_init: f.has_init,
            anonymous,
        });
    }

    let is_union = data.key == ClassKey::Union;
    let packed = data.attrs.packed;
    let pack = data.pack.map(u64::from);
    let class_align_attr = attr_align(cx, &data.attrs)?;

    // Facts.
    let dynamic = data.has_virtual_fn || base_layouts.iter().any(|(_, v, l)| *v || l.dynamic);
    let mut pod = !data.user_ctor && !data.user_copy_assign && !data.user_dtor && !dynamic && base_layouts.is_empty();
    let mut access_seen: Option<Access> = None;
    let mut same_access = true;
    // [class.prop]/3: standard-layout bases, the data members declared in
    // one class of the hierarchy at most, and no base of the first
    // member's class (an empty base beside a member of its type would have
    // to be at another address). Equal base subobjects are not checked.
    let mut standard_layout = !dynamic && base_layouts.iter().all(|(_, _, l)| l.standard_layout);
    let data_classes =
        usize::from(!fields.is_empty()) + base_layouts.iter().filter(|(_, _, l)| declares_data(db, l, 0)).count();
    if data_classes > 1 {
        standard_layout = false;
    }
    if let Some(first) = fields.first().and_then(|f| member_class(db, f.ty))
        && base_layouts.iter().any(|(bc, _, l)| *bc == first || derives_from(db, l, first, 0))
    {
        standard_layout = false;
    }
    for f in &fields {
        if f.has_init || matches!(ty::canonical(db, f.ty).kind(db), TyKind::LRef(_) | TyKind::RRef(_)) {
            pod = false;
        }
        if f.access != Access::Public {
            pod = false;
        }
        match access_seen {
            Some(a) if a != f.access => same_access = false,
            _ => access_seen = Some(f.access),
        }
        if let Some(mc) = member_class(db, f.ty) {
            let ml = layout_ref(db, mc)?;
            if !ml.pod_for_layout {
                pod = false;
            }
            if !ml.standard_layout {
                standard_layout = false;
            }
        }
    }
    standard_layout &= same_access;
    let empty = !dynamic
        && fields.iter().all(|f| f.name.is_none() && f.width == Some(0) && f.anonymous.is_none())
        && base_layouts.iter().all(|(_, v, l)| !v && l.empty);

    let mut p = Placer { size: 0, dbits: 0, align: 1, empties: Vec::new(), deviations: Vec::new() };
    let mut out_bases = Vec::new();
    let mut out_fields = Vec::new();

    // Primary base: the first non-virtual dynamic base; else the first
    // nearly-empty virtual base that is not an indirect primary base.
    let vbases = virtual_bases_in_order(db, cref);
    // Only with virtual bases: the walk covers the whole hierarchy.
    let indirect_primaries =
        if vbases.is_empty() { FxHashSet::default() } else { indirect_primary_bases(db, &base_layouts) };
    let mut primary: Option<(ClassRef, bool)> = None;
    if dynamic {
        primary = base_layouts.iter().find(|(_, v, l)| !v && l.dynamic).map(|(bc, _, _)| (*bc, false));
        if primary.is_none() {
            for vb in &vbases {
                if indirect_primaries.contains(vb) {
                    continue;
                }
                if let Ok(l) = layout_ref(db, *vb)
                    && l.dynamic
                    && l.nvsize <= 8
                {
                    primary = Some((*vb, true));
                    break;
                }
            }
        }
    }
    let mut vptr = false;
    match primary {
        Some((pc, is_virtual)) => {
            let l = layout_ref(db, pc)?;
            p.empties.extend(l.empties.iter().copied());
            p.dbits = l.nvsize * 8;
            p.size = l.nvsize;
            p.align = l.nvalign;
            out_bases.push(BaseLayout { class: pc, ty: base_ty(pc), offset: 0, is_virtual, is_primary: true });
        }
        None if dynamic => {
            vptr = true;
            p.dbits = 64;
            p.size = 8;
            p.align = 8;
        }
        None => {}
    }

    // Non-virtual bases in declaration order.
    for (bc, is_virtual, l) in &base_layouts {
        if *is_virtual || primary == Some((*bc, false)) {
            continue;
        }
        let off = p.place_class(l, l.nvalign, true);
        if !l.empty {
            p.dbits = (off + l.nvsize) * 8;
        }
        p.size = p.size.max(off + l.nvsize.max(if l.empty { 1 } else { 0 }));
        p.align = p.align.max(l.nvalign);
        out_bases.push(BaseLayout { class: *bc, ty: base_ty(*bc), offset: off, is_virtual: false, is_primary: false });
    }

    // Data members.
    for f in &fields {
        let (fsize, falign) = size_align(db, f.ty)?;
        let is_packed = packed || f.packed;
        let mut natural = if is_packed { 1 } else { falign };
        if let Some(n) = pack {
            natural = natural.min(n);
        }
        let eff_align = match f.align_attr {
            Some(a) => {
                if pack.is_some_and(|n| a > n) {
                    // EDG: #pragma pack does not cap an explicit aligned attribute (GCC caps it).
                    p.deviations.push("pack-does-not-cap-aligned");
                }
                natural.max(a)
            }
            None => natural,
        };
        if let Some(w) = f.width {
            let (unit_bits, type_bits) = (natural.max(1) * 8, fsize * 8);
            if is_union {
                if f.name.is_some() {
                    p.align = p.align.max(eff_align);
                }
                p.size = p.size.max(w.div_ceil(8));
                out_fields.push(field_out(f, 0, fsize));
                continue;
            }
            if w == 0 {
                if f.name.is_none() {
                    p.dbits = align_up(p.dbits, unit_bits.min(if is_packed { 8 } else { u64::MAX }).max(8));
                }
                continue;
            }
            // GCC's excess_unit_span: a bit-field may not span more units of
            // its type's (pack-capped) alignment than the type itself has.
            let mut off = p.dbits;
            if !is_packed {
                let a = (natural * 8).max(8);
                if (off % a + w).div_ceil(a) > type_bits / a {
                    off = align_up(off, a);
                }
            }
            p.dbits = off + w;
            if f.name.is_some() {
                p.align = p.align.max(eff_align);
            }
            p.size = p.size.max(p.dsize());
            out_fields.push(field_out(f, off, fsize));
            continue;
        }
        let class_l = member_class(db, f.ty).filter(|_| !matches!(ty::canonical(db, f.ty).kind(db), TyKind::Array(..)));
        let off;
        if is_union {
            off = 0;
            p.size = p.size.max(fsize);
        } else if let (Some(mc), true) = (class_l, f.nua) {
            let l = layout_ref(db, mc)?;
            off = p.place_class(&l, eff_align, true);
            if l.empty {
                if off > p.dsize() {
                    // EDG: a [[no_unique_address]] empty member placed at a
                    // non-zero offset raises dsize to that offset (GCC does not).
                    p.deviations.push("no-unique-address-raises-dsize");
                    p.dbits = off * 8;
                }
            } else {
                p.dbits = (off + l.nvsize) * 8;
            }
            p.size = p.size.max(off + fsize);
        } else {
            let comp = member_empties(db, f.ty);
            let mut o = align_up(p.dsize(), eff_align);
            while p.conflicts(&comp, o) {
                o += eff_align.max(1);
            }
            for (k, ko) in &comp {
                p.empties.push((*k, o + ko));
            }
            off = o;
            p.dbits = (off + fsize) * 8;
            p.size = p.size.max(off + fsize);
        }
        p.align = p.align.max(eff_align);
        out_fields.push(field_out(f, off * 8, fsize));
        if let Some(ac) = f.anonymous
            && let Ok(inner) = layout_ref(db, ac)
        {
            for inf in &inner.fields {
                let mut x = inf.clone();
                x.offset_bits += off * 8;
                x.via_anonymous = true;
                x.access = f.access;
                out_fields.push(x);
            }
        }
    }

    let nvalign = p.align;
    let mut nvsize = p.dsize();

    // Virtual bases (the primary one is placed already).
    for vb in &vbases {
        if primary == Some((*vb, true)) || indirect_primaries.contains(vb) {
            continue;
        }
        let l = layout_ref(db, *vb)?;
        let off = p.place_class(&l, l.nvalign, true);
        if !l.empty {
            p.dbits = (off + l.nvsize) * 8;
        }
        p.size = p.size.max(off + l.nvsize.max(if l.empty { 1 } else { 0 }));
        p.align = p.align.max(l.nvalign);
        out_bases.push(BaseLayout { class: *vb, ty: None, offset: off, is_virtual: true, is_primary: false });
    }

    let mut align = p.align;
    if let Some(a) = class_align_attr {
        align = align.max(a);
    }
    let size = align_up(p.size.max(p.dsize()).max(1), align);
    if pod {
        nvsize = size;
    }
    let mut empties = p.empties;
    if empty {
        empties.insert(0, (cref, 0));
    }
    // The empties of virtual bases are not part of the non-virtual subobject.
    let nv_empties: Vec<(ClassRef, u64)> = empties.into_iter().filter(|(_, o)| *o < nvsize.max(1)).collect();
    let mut deviations = p.deviations;
    deviations.dedup();
    Ok(Layout {
        size,
        align,
        nvsize,
        nvalign: nvalign.max(class_align_attr.unwrap_or(1)),
        fields: out_fields,
        bases: out_bases,
        vptr,
        dynamic,
        empty,
        pod_for_layout: pod,
        standard_layout,
        primary_base: primary.map(|(p, _)| p),
        empties: nv_empties,
        deviations,
    })
}

fn field_out(f: &FieldIn, offset_bits: u64, size: u64) -> FieldLayout {
    FieldLayout {
        name: f.name.clone(),
        offset_bits,
        bit_width: f.width,
        size,
        ty: f.ty,
        access: f.access,
        via_anonymous: false,
    }
}

/// All virtual bases of `c`, in inheritance-graph (depth-first, left to
/// right, pre-order) order, looked for down to 64 levels of bases. An
/// explicit stack, and each class expanded once (a second visit of a class
/// adds nothing: its virtual bases are listed already), so repeated
/// diamonds cost linear time, not exponential.
fn virtual_bases_in_order(db: &dyn SourceDatabase, c: ClassRef) -> Vec<ClassRef> {
    const MAX_DEPTH: u32 = 64;
    let mut out = Vec::new();
    let mut listed = FxHashSet::default();
    let mut expanded = FxHashSet::default();
    let mut stack = vec![(c, false, 0)];
    while let Some((c, is_virtual, depth)) = stack.pop() {
        if is_virtual {
            if !listed.insert(c) {
                continue;
            }
            out.push(c);
        }
        if depth > MAX_DEPTH || !expanded.insert(c) {
            continue;
        }
        let bases = crate::templates::class_bases_of(db, c);
        stack.extend(bases.iter().rev().filter_map(|b| Some((b.class?, b.is_virtual, depth + 1))));
    }
    out
}

/// Classes that are the primary base of some base in the hierarchy (each
/// base class looked at once).
fn indirect_primary_bases(db: &dyn SourceDatabase, bases: &[(ClassRef, bool, Arc<Layout>)]) -> FxHashSet<ClassRef> {
    let mut out = FxHashSet::default();
    let mut seen = FxHashSet::default();
    let mut todo: Vec<Arc<Layout>> = bases.iter().map(|(_, _, l)| l.clone()).collect();
    while let Some(l) = todo.pop() {
        if let Some(p) = l.primary_base {
            out.insert(p);
        }
        for b in &l.bases {
            if seen.insert(b.class)
                && let Ok(bl) = layout_ref(db, b.class)
            {
                todo.push(bl);
            }
        }
    }
    out
}

/// The layout as text (`cufront inspect layout`, tests): one header line,
/// then one line per base and member. Offsets are in bytes; a bit-field is
/// `byte.bit:width`.
pub fn render(db: &dyn SourceDatabase, c: ClassId) -> String {
    render_ref(db, ClassRef::Class(c))
}

/// `render` for a type (a specialization).
pub fn render_ty(db: &dyn SourceDatabase, t: TyId) -> String {
    let t = ty::canonical(db, t);
    match crate::templates::class_of(db, t) {
        Ok(c) => render_ref(db, c).replacen(&ref_name(db, c), &ty::display(db, t), 1),
        Err(e) => format!("{}: not laid out: {e}\n", ty::display(db, t)),
    }
}

pub fn render_ref(db: &dyn SourceDatabase, c: ClassRef) -> String {
    let name = ref_name(db, c);
    let l = match layout_ref(db, c) {
        Ok(l) => l,
        Err(e) => return format!("{name}: not laid out: {e}\n"),
    };
    let mut out = format!("{name}: size {} align {}", l.size, l.align);
    let mut flags = Vec::new();
    if l.dynamic {
        flags.push("dynamic");
    }
    if l.empty {
        flags.push("empty");
    }
    if !l.pod_for_layout {
        flags.push("non-pod");
    }
    if !flags.is_empty() {
        out.push_str(&format!(" [{}]", flags.join(", ")));
    }
    for d in &l.deviations {
        out.push_str(&format!(" (edg: {d})"));
    }
    out.push('\n');
    if l.vptr {
        out.push_str("  0: vptr\n");
    }
    for b in &l.bases {
        let mut kind = String::new();
        if b.is_virtual {
            kind.push_str(" virtual");
        }
        if b.is_primary {
            kind.push_str(" primary");
        }
        let bname = match b.ty {
            Some(t) => ty::display(db, t),
            None => ref_name(db, b.class),
        };
        out.push_str(&format!("  {}: base {bname}{kind}\n", b.offset));
    }
    for f in &l.fields {
        let indent = if f.via_anonymous { "    " } else { "  " };
        let name = f.name.as_deref().unwrap_or("(anonymous)");
        let ty = ty::display(db, f.ty);
        match f.bit_width {
            Some(w) => out.push_str(&format!("{indent}{}.{}:{w}: {name} {ty}\n", f.offset_bits / 8, f.offset_bits % 8)),
            None => out.push_str(&format!("{indent}{}: {name} {ty}\n", f.offset_bits / 8)),
        }
    }
    out
}

/// How C++ code after the unit can name the class (`struct ::a::S`,
/// `::T` for a typedef-named unnamed class), or None when it cannot:
/// anonymous namespaces, unnamed classes, non-public nested classes.
pub fn cxx_spelling(db: &dyn SourceDatabase, c: ClassId) -> Option<String> {
    let map = def_map(db, c.tu(db));
    let tree = item_tree_of(db, c.item(db));
    let data = tree.classes.get(c.idx(db) as usize)?;
    // Out-of-line definitions (`struct A::B {…}`) keep the access of their
    // in-class declaration, which the item tree does not join yet: skipped.
    if data.anonymous_member || data.access != Access::Public || data.qualifier.is_some() {
        return None;
    }
    if !map.parent.contains_key(&DeclKey::Class(c)) {
        return None;
    }
    let (own, elaborate) = match (&data.name, &data.typedef_name) {
        (Some(n), _) => (n.clone(), true),
        // A typedef with its own alignment attribute is another type for alignof.
        (None, Some(t))
            if tree
                .typedefs
                .iter()
                .any(|d| d.name == *t && (!d.attrs.aligned.is_empty() || !d.attrs.alignas.is_empty())) =>
        {
            return None;
        }
        (None, Some(t)) => (t.clone(), false),
        (None, None) => return None,
    };
    let mut parts = vec![own];
    let mut s = map.parent.get(&DeclKey::Class(c)).copied();
    while let Some(cur) = s {
        let scope = map.scope(cur);
        match &scope.kind {
            ScopeKind::Root => break,
            ScopeKind::Namespace { name: Some(n), .. } => parts.push(n.clone()),
            ScopeKind::Namespace { name: None, .. } | ScopeKind::Enum(_) | ScopeKind::Block(_) => return None,
            ScopeKind::Class(k) => {
                let t = item_tree_of(db, k.item(db));
                let d = &t.classes[k.idx(db) as usize];
                if d.access != Access::Public || d.anonymous_member {
                    return None;
                }
                parts.push(d.name.clone()?);
            }
        }
        s = scope.parent;
    }
    parts.reverse();
    let key = match data.key {
        ClassKey::Union => "union",
        _ => "struct",
    };
    let path = format!("::{}", parts.join("::"));
    Some(if elaborate { format!("{key} {path}") } else { path })
}
