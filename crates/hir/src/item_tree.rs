//! The item tree: what one top-level item of a translation unit declares, as
//! plain data (names, syntactic types, constant expressions), lowered from its
//! green tree alone.
//!
//! It is the invalidation barrier of the semantic model: it never reads a
//! function body (bodies are skipped, lazy or not), and it holds no offsets,
//! so editing a body, or anything before the item, leaves it equal and salsa
//! cuts off everything that reads it.

use cufront_syntax::green::{self, Visit};
use cufront_syntax::{SyntaxKind as K, SyntaxNode, SyntaxToken, TextSize};

use crate::syntax_util::{self as su, Pack};

/// The declarations of one top-level item. Entities live in arenas and are
/// referred to by index (`Item`), so ids outside can be `(item, index)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ItemTree {
    /// What the item declares at the scope it appears in.
    pub top: Vec<Item>,
    pub namespaces: Vec<NamespaceData>,
    pub classes: Vec<ClassData>,
    pub enums: Vec<EnumData>,
    pub typedefs: Vec<TypedefData>,
    pub vars: Vec<VarData>,
    pub usings: Vec<UsingData>,
    /// Functions declared or defined (not function templates).
    pub fns: Vec<FnData>,
    /// Function templates and member function templates.
    pub fn_templates: Vec<FnTemplateData>,
    /// Variable templates (and static data member templates).
    pub var_templates: Vec<VarTemplateData>,
    /// Deduction guides (`infer/ctad.rs`).
    pub guides: Vec<GuideData>,
    /// Explicit instantiations of function and class template
    /// specializations (`infer/explicit_inst.rs` resolves them).
    pub explicit_insts: Vec<ExplicitInst>,
}

/// `template void f<int>(int *);` or `template struct S<int>;` (or `extern
/// template …`, which only declares that the specialization is
/// instantiated elsewhere).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplicitInst {
    /// A function's declarator-id as written (`f<int>`, `ns::f`): its last
    /// segment names the template, with the explicit template arguments if
    /// any. A class's name (`S<int>`, `S<int>::Inner`).
    pub name: Path,
    /// A function's declared type (deduction and the match read it);
    /// `None` for a class.
    pub fn_ty: Option<FnRef>,
    pub extern_: bool,
    /// Offset of the declarator-id in the item.
    pub at: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    Namespace(u32),
    Class(u32),
    Enum(u32),
    Typedef(u32),
    Var(u32),
    Using(u32),
    Fn(u32),
    FnTemplate(u32),
    VarTemplate(u32),
    /// A deduction guide: no name of its own; `DefMap::guides` lists it
    /// under the template it names.
    Guide(u32),
    /// An explicit instantiation: declares nothing; `DefMap::explicit_insts`
    /// lists it with its scope.
    ExplicitInst(u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamespaceData {
    /// `None` for an anonymous namespace. `namespace a::b {}` is lowered as
    /// two nested namespaces.
    pub name: Option<String>,
    pub inline: bool,
    /// `__attribute__((__abi_tag__("cxx11")))` on this declaration: the
    /// tags every entity declared in the namespace carries implicitly.
    pub abi_tags: Vec<String>,
    pub items: Vec<Item>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassKey {
    Struct,
    Class,
    Union,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Access {
    Public,
    Protected,
    Private,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TemplateKind {
    None,
    /// A primary class template (dependent: never laid out).
    Primary,
    /// An explicit or partial specialization (instantiation is out of scope).
    Specialization,
}

/// Layout attributes written on a class, a member or a typedef.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attrs {
    pub packed: bool,
    /// `__attribute__((aligned(e)))`; `None` = `aligned` without argument (16).
    pub aligned: Vec<Option<ConstExpr>>,
    pub alignas: Vec<AlignasArg>,
    /// `__attribute__((vector_size(n)))`.
    pub vector_size: Option<ConstExpr>,
    pub no_unique_address: bool,
    /// `__device_builtin__` (`__attribute__((device_builtin))`): cicc's
    /// stub spells such a typedef by what it stands for.
    pub device_builtin: bool,
}

impl Attrs {
    fn merge(&mut self, other: Attrs) {
        self.packed |= other.packed;
        self.device_builtin |= other.device_builtin;
        self.aligned.extend(other.aligned);
        self.alignas.extend(other.alignas);
        if other.vector_size.is_some() {
            self.vector_size = other.vector_size;
        }
        self.no_unique_address |= other.no_unique_address;
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AlignasArg {
    Expr(ConstExpr),
    Type(TypeRef),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassData {
    pub name: Option<String>,
    /// The first typedef name of an unnamed class (`typedef struct {…} S;`).
    pub typedef_name: Option<String>,
    pub key: ClassKey,
    /// `struct A::B {…}`: the scope the class belongs to.
    pub qualifier: Option<Path>,
    pub template: TemplateKind,
    /// The template parameters of a primary template or a partial
    /// specialization (empty for an explicit specialization).
    pub tparams: Option<Vec<TemplateParam>>,
    /// The arguments of a (partial or explicit) specialization: `A<T*, 2>`.
    pub spec_args: Option<Vec<TemplateArgRef>>,
    /// Declared `final`.
    pub is_final: bool,
    /// Has a body (`{…}`), not just `struct S;`.
    pub is_definition: bool,
    /// Declared as an anonymous member (`struct { int q; };` inside a class).
    pub anonymous_member: bool,
    /// Access of a nested class in its parent.
    pub access: Access,
    pub bases: Vec<BaseRef>,
    pub fields: Vec<Field>,
    /// Nested declarations (types, typedefs, usings, static data members).
    pub items: Vec<Item>,
    pub attrs: Attrs,
    /// `#pragma pack` in effect at the class head.
    pub pack: Option<u32>,
    pub has_virtual_fn: bool,
    /// The body declares a friend (or a nested class's body does): access
    /// to its non-public members is not decided by membership alone.
    pub has_friends: bool,
    /// Facts that make the class a non-POD for layout (spec 50 §7.2).
    pub user_ctor: bool,
    pub user_copy_assign: bool,
    pub user_dtor: bool,
    /// Named first by an elaborated-type-specifier inside another
    /// declaration (`typedef struct X *P;`, `void f(struct X*);`): it
    /// declares `X` in the nearest enclosing namespace unless lookup finds
    /// one ([basic.scope.pdecl]/7; `scopes` decides).
    pub elaborated: bool,
    /// The constraints of a partial specialization (its template head's
    /// type-constraints and requires-clause): `templates::select` skips it
    /// when they are false and prefers the more constrained of equals.
    /// A primary template's too (`infer/constraint_vars.rs` checks them
    /// as naming a specialization does).
    pub constraints: Vec<ConstExpr>,
    /// The functions that friend declarations without a body name
    /// (`friend __device__ int f(S);`, unqualified, not templates): each
    /// declares a function of the innermost enclosing namespace, yet no
    /// scope gets the name (ordinary lookup does not find it) and it is no
    /// declaration of its own here; `exec_space` merges its CUDA attributes
    /// and `constexpr` into the function's, as EDG does.
    pub friend_decls: Vec<FnData>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseRef {
    /// A class name, or `decltype(…)` (`TypeRef::Opaque`, lowered as any
    /// `decltype` type: `is_tuple<T> : decltype(has_tuple_size((T*)0))`).
    pub ty: TypeRef,
    /// `Bases...`: a pack expansion.
    pub pack: bool,
    pub is_virtual: bool,
    pub access: Access,
}

/// A non-static data member (or an anonymous struct/union member).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: Option<String>,
    pub ty: TypeRef,
    pub bit_width: Option<ConstExpr>,
    pub access: Access,
    pub attrs: Attrs,
    /// A default member initializer.
    pub has_init: bool,
    /// An anonymous struct/union member: the class index.
    pub anonymous: Option<u32>,
    /// Declared `mutable`: modifiable through a `const` object.
    pub mutable: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumData {
    pub name: Option<String>,
    pub scoped: bool,
    pub base: Option<TypeRef>,
    pub enumerators: Vec<(String, Option<ConstExpr>)>,
    pub is_definition: bool,
    pub packed: bool,
    pub access: Access,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedefData {
    pub name: String,
    pub ty: TypeRef,
    pub attrs: Attrs,
    /// An alias template (`template<…> using X = …`): dependent.
    pub templated: bool,
    /// The parameters of an alias template.
    pub tparams: Option<Vec<TemplateParam>>,
}

/// A variable (namespace scope, or a static data member).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarData {
    pub name: String,
    pub ty: TypeRef,
    pub is_const: bool,
    pub init: Option<ConstExpr>,
    pub linkage: Linkage,
    /// `int S::x = 1;`: the scope the variable belongs to.
    pub qualifier: Option<Path>,
    /// The template heads of an out-of-line definition of a static data
    /// member of a class template (`template<class T> int S<T>::x = 1;`),
    /// outermost first: a templated declaration, not an entity.
    pub outer_tparams: Vec<Vec<TemplateParam>>,
}

/// A variable template (`template<class T> constexpr T pi = T(3);`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarTemplateData {
    pub tparams: Vec<TemplateParam>,
    pub var: VarData,
    /// A partial specialization's arguments (`is_same_v<T, T>`).
    pub spec_args: Option<Vec<TemplateArgRef>>,
    /// A concept (`template<class T> concept C = e;`), lowered as a `bool`
    /// variable template: a concept-id is its value; never an entity.
    pub concept: bool,
}

/// What a declaration says about its linkage and definition (the
/// specifiers, the enclosing `extern "C"`, whether it has a body or an
/// initializer). Anonymous namespaces are the scope graph's business.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Linkage {
    pub is_static: bool,
    pub is_extern: bool,
    pub is_inline: bool,
    pub is_constexpr: bool,
    /// `consteval`: a call outside an immediate function context must be a
    /// constant expression (`is_constexpr` stays false).
    pub is_consteval: bool,
    /// Inside `extern "C"` (braced or not).
    pub extern_c: bool,
    /// A function with a body (`= default`/`= delete` included) or a
    /// variable that is not `extern` without initializer.
    pub is_definition: bool,
    /// The CUDA attributes of this declaration (read by `cufront_cuda::attrs`,
    /// the one attribute reader; `exec_space` merges them over redeclarations).
    pub cuda: cufront_cuda::CudaAttrs,
    /// Declared not to return (`[[noreturn]]`, `__attribute__((noreturn))`,
    /// `_Noreturn`; `cufront_cuda::attrs::is_noreturn`).
    pub noreturn: bool,
}

impl Linkage {
    /// `__global__` (its stub is what the host side defines).
    pub fn kernel(&self) -> bool {
        self.cuda.global
    }
    /// `__device__`, `__constant__` or `__managed__` (on a variable: a
    /// host shadow, which cudafe++ makes `static` in whole-program mode).
    pub fn device_var(&self) -> bool {
        self.cuda.device || self.cuda.constant || self.cuda.managed
    }
}

/// How a function's declarator names it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FnName {
    Ident(String),
    Ctor,
    Dtor,
    /// `operator@` by its spelling without `operator` (`+`, `()`, `new[]`).
    Operator(String),
    Conversion(TypeRef),
    /// `operator"" _x`.
    Literal(String),
}

/// A function (not a template): its name as declared, the scope a
/// qualified declarator names, and its declared type (parameters not yet
/// adjusted: `mangle.rs` decays arrays and functions and drops top-level cv).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnData {
    pub name: FnName,
    pub qualifier: Option<Path>,
    pub ty: FnRef,
    pub linkage: Linkage,
    /// Declared in a class body (a member; static members say so in `linkage`).
    pub in_class: bool,
    /// Its access in the class body that declares it (`Public` outside classes).
    pub access: Access,
    /// The template heads of an out-of-line member definition of a class
    /// template (`template<class T> void S<T>::f(T) {}`), outermost first:
    /// a templated declaration, not an entity.
    pub outer_tparams: Vec<Vec<TemplateParam>>,
    /// Indices of the parameters that are pack expansions (`Ts... xs`).
    pub pack_params: Vec<u32>,
    /// Declared `virtual`, `override` or `final` (an overrider declared
    /// without them is found through the bases: `instances::is_virtual`).
    pub is_virtual: bool,
    /// The virt-specifiers and pure-specifier written on this declaration.
    pub virt: VirtSpecs,
    /// Its constraints, conjoined: the template head's requires-clause
    /// and type-constraints (`template<C T>` as `C<T>`), then the trailing
    /// requires-clause (`infer/constraints.rs` evaluates them).
    pub constraints: Vec<ConstExpr>,
    /// A friend defined in a class body (a hidden friend): a member of the
    /// enclosing namespace found only by argument-dependent lookup through
    /// its class; its scope (for names in it) is the class's.
    pub friend: bool,
    /// Defined as deleted (`= delete`): a candidate of overload resolution
    /// whose selection makes the call ill-formed (a substitution failure in
    /// SFINAE contexts, `false` for `__is_constructible`).
    pub deleted: bool,
    /// Explicitly defaulted (`= default`) where it is declared: not
    /// user-provided, so it may be trivial (`templates/trivial.rs`).
    pub defaulted: bool,
    /// Declared with a plain `explicit` (a conditional `explicit(e)` is
    /// not: its operand is not evaluated here).
    pub explicit: bool,
    /// The operand of a `noexcept(expr)` specifier (a plain `noexcept` is
    /// `ty.noexcept`): instantiated when a call selects the function
    /// (`infer/constraint_vars.rs`). Boxed: `FnData` is cloned into the
    /// interpreter's frames, whose depth the stack bounds.
    pub noexcept_expr: Option<Box<ConstExpr>>,
}

/// `override`, `final` and `= 0` on a member function declaration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct VirtSpecs {
    pub override_: bool,
    pub final_: bool,
    pub pure: bool,
}

/// A function template (member or not): its own template parameters and
/// the function as declared (`f.outer_tparams`: the heads of the classes of
/// an out-of-line member template definition).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnTemplateData {
    pub tparams: Vec<TemplateParam>,
    pub f: FnData,
}

/// A deduction guide (`template<class R> ref_view(R&) -> ref_view<R>;`):
/// not an entity; class template argument deduction (`infer/ctad.rs`)
/// tries it for the template it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuideData {
    /// The class template's name, as written.
    pub template: String,
    pub tparams: Vec<TemplateParam>,
    /// Its parameters; `ret` is the type it deduces.
    pub f: FnRef,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsingData {
    Directive(Path),
    /// `using a::b;`: brings the last name in.
    Decl(Path),
    NamespaceAlias(String, Path),
    /// A class template or alias template: found by lookup, never laid out.
    Template(String),
    /// A function or a name the tree does not model: found by lookup as a value.
    Value(String),
}

/// A possibly qualified name, as written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Path {
    pub global: bool,
    pub segments: Vec<PathSegment>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PathSegment {
    pub name: String,
    /// Template arguments, as written.
    pub args: Option<Vec<TemplateArgRef>>,
}

/// A template argument as written. Whether a lone name is a type or a value
/// is settled against the parameter it binds (`ty::normalize_args`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TemplateArgRef {
    Type(TypeRef),
    Expr(ConstExpr),
    /// `X...`: a pack expansion.
    Expansion(Box<TemplateArgRef>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TemplateParamKind {
    Type,
    /// A non-type parameter of this type.
    Value(TypeRef),
    /// A template template parameter.
    Template,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TemplateParam {
    pub name: Option<String>,
    pub kind: TemplateParamKind,
    pub pack: bool,
    pub default: Option<TemplateArgRef>,
}

impl TypeRef {
    /// A function parameter's written type as the function's type holds it
    /// ([dcl.fct]/5): `T x[N]` is `T *x` (its bound is no part of the
    /// type, and need not be known to lower it).
    pub fn decayed_param(&self) -> std::borrow::Cow<'_, TypeRef> {
        match self {
            TypeRef::Array(elem, _) => std::borrow::Cow::Owned(TypeRef::Ptr(elem.clone())),
            _ => std::borrow::Cow::Borrowed(self),
        }
    }
}

impl Path {
    pub fn single(name: &str) -> Path {
        Path { global: false, segments: vec![PathSegment { name: name.to_string(), args: None }] }
    }
    pub fn last(&self) -> Option<&str> {
        self.segments.last().map(|s| s.name.as_str())
    }
}

impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.global {
            f.write_str("::")?;
        }
        for (i, s) in self.segments.iter().enumerate() {
            if i > 0 {
                f.write_str("::")?;
            }
            f.write_str(&s.name)?;
            if let Some(a) = &s.args {
                f.write_str("<")?;
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(">")?;
            }
        }
        Ok(())
    }
}

impl std::fmt::Display for TemplateArgRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TemplateArgRef::Type(TypeRef::Path(p)) => write!(f, "{p}"),
            TemplateArgRef::Type(TypeRef::Builtin(b)) => f.write_str(crate::ty::builtin_name(*b)),
            TemplateArgRef::Type(t) => write!(f, "{t:?}"),
            TemplateArgRef::Expr(ConstExpr::Int(v, _)) => write!(f, "{v}"),
            TemplateArgRef::Expr(ConstExpr::Path(p)) => write!(f, "{p}"),
            TemplateArgRef::Expr(e) => write!(f, "{e:?}"),
            TemplateArgRef::Expansion(x) => write!(f, "{x}..."),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Builtin {
    Void,
    Bool,
    Char,
    SChar,
    UChar,
    WChar,
    Char8,
    Char16,
    Char32,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Int128,
    UInt128,
    Float,
    Double,
    LongDouble,
    Float128,
    Float16,
    BF16,
    Float32,
    Float64,
    Float32x,
    Float64x,
    NullPtr,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cv {
    pub c: bool,
    pub v: bool,
    pub r: bool,
}

impl Cv {
    pub fn is_empty(self) -> bool {
        !(self.c || self.v || self.r)
    }
    pub fn union(self, o: Cv) -> Cv {
        Cv { c: self.c || o.c, v: self.v || o.v, r: self.r || o.r }
    }
}

/// At most this many pointer, reference, array and function operators in
/// one declarator: types as written are recursive data, walked recursively.
/// (cudafe++ has no such limit; real code stays far below it.)
pub const MAX_DECLARATOR_OPS: usize = 1024;

/// A type as written: resolved to a `TyId` by `ty::lower` in a scope.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeRef {
    Builtin(Builtin),
    Path(Path),
    /// A class defined in this item tree (`struct {…} x;`).
    LocalClass(u32),
    LocalEnum(u32),
    Ptr(Box<TypeRef>),
    LRef(Box<TypeRef>),
    RRef(Box<TypeRef>),
    MemPtr(Path, Box<TypeRef>),
    /// `None` = unknown bound (`T[]`).
    Array(Box<TypeRef>, Option<Box<ConstExpr>>),
    Func(Box<FnRef>),
    Cv(Box<TypeRef>, Cv),
    Complex(Box<TypeRef>),
    /// `decltype`, `typeof`, `auto`, `typename X::y`, or something unreadable.
    Opaque(String),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnRef {
    pub ret: TypeRef,
    pub params: Vec<TypeRef>,
    pub variadic: bool,
    pub noexcept: bool,
    pub cv: Cv,
    /// 0 none, 1 `&`, 2 `&&`.
    pub ref_qual: u8,
    /// Parameters that are pack expansions (`void(*)(const C*, Args...)`).
    pub pack_params: Vec<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// An expression as far as integral constant evaluation needs it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ConstExpr {
    /// An integer, character or boolean literal with its type.
    Int(u128, Builtin),
    Path(Path),
    Unary(UnOp, Box<ConstExpr>),
    Binary(BinOp, Box<ConstExpr>, Box<ConstExpr>),
    Cond(Box<ConstExpr>, Box<ConstExpr>, Box<ConstExpr>),
    Cast(TypeRef, Box<ConstExpr>),
    SizeofType(TypeRef),
    AlignofType(TypeRef),
    /// `sizeof...(P)`.
    SizeofPack(String),
    /// A type trait builtin (`__is_empty(T)`), name without underscores.
    Trait(String, Vec<TypeRef>),
    /// Something not evaluated (the text says what).
    Unsupported(String),
}

/// What [`ConstExpr::for_each_part`] hands its visitor: the parts of an
/// expression that name something.
pub enum ConstPart<'a> {
    Path(&'a Path),
    /// The type of a cast, `sizeof`, `alignof` or a type trait.
    Type(&'a TypeRef),
    /// The pack of `sizeof...(P)`.
    Pack(&'a str),
}

impl ConstExpr {
    /// Calls `f` with each path, type and pack name of the expression, in
    /// source order, with the depth a walker of that part continues at (one
    /// more than its expression's). The expression itself is at `depth`;
    /// subexpressions deeper than `max_depth` are not visited. The one walk
    /// of the expression forms: each caller decides which parts it reads.
    pub fn for_each_part(&self, depth: u32, max_depth: u32, f: &mut dyn FnMut(ConstPart<'_>, u32)) {
        if depth > max_depth {
            return;
        }
        let d = depth + 1;
        match self {
            ConstExpr::Int(..) | ConstExpr::Unsupported(_) => {}
            ConstExpr::Path(p) => f(ConstPart::Path(p), d),
            ConstExpr::Unary(_, x) => x.for_each_part(d, max_depth, f),
            ConstExpr::Binary(_, x, y) => {
                x.for_each_part(d, max_depth, f);
                y.for_each_part(d, max_depth, f);
            }
            ConstExpr::Cond(c, x, y) => {
                c.for_each_part(d, max_depth, f);
                x.for_each_part(d, max_depth, f);
                y.for_each_part(d, max_depth, f);
            }
            ConstExpr::Cast(t, x) => {
                f(ConstPart::Type(t), d);
                x.for_each_part(d, max_depth, f);
            }
            ConstExpr::SizeofType(t) | ConstExpr::AlignofType(t) => f(ConstPart::Type(t), d),
            ConstExpr::SizeofPack(n) => f(ConstPart::Pack(n), d),
            ConstExpr::Trait(_, ts) => ts.iter().for_each(|t| f(ConstPart::Type(t), d)),
        }
    }
}

/// Lowers the green tree of one top-level item. `pack` is the `#pragma pack`
/// state before it.
pub fn lower(node: &SyntaxNode, pack: Pack) -> ItemTree {
    lower_with_offsets(node, pack).0
}

/// Offsets (in `node`'s tree) of the declarator of each function and
/// variable of an item tree, by index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offsets {
    pub fns: Vec<u32>,
    pub vars: Vec<u32>,
    /// Function templates, by index (`infer::fn_template_body` finds their bodies).
    pub fn_templates: Vec<u32>,
    /// Default member initializers: (class index, field index, offset of
    /// the init-declarator), what `infer::nsdmi` lowers (kept out of the
    /// tree: an edit inside an initializer leaves the tree equal).
    pub field_inits: Vec<(u32, u32, u32)>,
    /// Named fields: (class index, field index, offset of the name).
    pub fields: Vec<(u32, u32, u32)>,
    /// Base specifiers: (class index, base index, offset of the base's
    /// name: where a base's instantiation is needed).
    pub bases: Vec<(u32, u32, u32)>,
    /// Variables and variable templates with an initializer: (index, offset
    /// of the init-declarator), what `infer::var_init` lowers (kept out of
    /// the tree for the same reason).
    pub var_inits: Vec<(u32, u32)>,
    pub var_template_inits: Vec<(u32, u32)>,
    /// Classes and enums, by index: where the name of the class (its
    /// qualified name, if written so) or enum is, else the start of its
    /// specifier (what redefinition errors point at).
    pub classes: Vec<u32>,
    pub enums: Vec<u32>,
}

/// [`lower`], plus where each function and variable is declared: what
/// `inspect symbols` needs for locations, kept out of the tree so that
/// edits before a declaration do not change it.
pub fn lower_with_offsets(node: &SyntaxNode, pack: Pack) -> (ItemTree, Offsets) {
    let mut cx = Lower::new(pack);
    let mut top = Vec::new();
    cx.decl(node, &mut top, None);
    cx.tree.top = top;
    cx.tree.shrink_to_fit();
    let mut offs = Offsets {
        fns: cx.fn_at,
        vars: cx.var_at,
        fn_templates: cx.tmpl_at,
        field_inits: cx.field_init_at,
        fields: cx.field_at,
        bases: cx.base_at,
        var_inits: cx.var_init_at,
        var_template_inits: cx.var_template_init_at,
        classes: cx.class_at,
        enums: cx.enum_at,
    };
    offs.shrink_to_fit();
    (cx.tree, offs)
}

impl ItemTree {
    /// Gives back what the lowering's pushes reserved beyond the lengths:
    /// the trees of every item of a unit are kept (per view, per unit in
    /// the editor and the daemon), and a grown vector holds a quarter more
    /// than it needs on average.
    fn shrink_to_fit(&mut self) {
        let ItemTree {
            top,
            namespaces,
            classes,
            enums,
            typedefs,
            vars,
            usings,
            fns,
            fn_templates,
            var_templates,
            guides,
            explicit_insts,
        } = self;
        explicit_insts.shrink_to_fit();
        top.shrink_to_fit();
        namespaces.shrink_to_fit();
        for n in namespaces.iter_mut() {
            n.items.shrink_to_fit();
        }
        classes.shrink_to_fit();
        for c in classes.iter_mut() {
            c.bases.shrink_to_fit();
            c.fields.shrink_to_fit();
            c.items.shrink_to_fit();
            c.friend_decls.shrink_to_fit();
        }
        enums.shrink_to_fit();
        typedefs.shrink_to_fit();
        vars.shrink_to_fit();
        usings.shrink_to_fit();
        fns.shrink_to_fit();
        fn_templates.shrink_to_fit();
        var_templates.shrink_to_fit();
        guides.shrink_to_fit();
    }
}

impl Offsets {
    fn shrink_to_fit(&mut self) {
        let Offsets {
            fns,
            vars,
            fn_templates,
            field_inits,
            fields,
            bases,
            var_inits,
            var_template_inits,
            classes,
            enums,
        } = self;
        fns.shrink_to_fit();
        vars.shrink_to_fit();
        fn_templates.shrink_to_fit();
        field_inits.shrink_to_fit();
        fields.shrink_to_fit();
        bases.shrink_to_fit();
        var_inits.shrink_to_fit();
        var_template_inits.shrink_to_fit();
        classes.shrink_to_fit();
        enums.shrink_to_fit();
    }
}

struct Lower {
    tree: ItemTree,
    pack: Pack,
    /// Inside `extern "C"`.
    extern_c: bool,
    /// Offsets of the names of `tree.fns` and `tree.vars` (for locations;
    /// never part of the tree).
    fn_at: Vec<u32>,
    tmpl_at: Vec<u32>,
    var_at: Vec<u32>,
    /// `Offsets::field_inits`, `Offsets::fields`.
    field_init_at: Vec<(u32, u32, u32)>,
    field_at: Vec<(u32, u32, u32)>,
    base_at: Vec<(u32, u32, u32)>,
    /// `Offsets::var_inits`, `Offsets::var_template_inits`.
    var_init_at: Vec<(u32, u32)>,
    var_template_init_at: Vec<(u32, u32)>,
    /// The access of the class member being lowered (`Public` outside
    /// class bodies): what `FnData::access` records.
    member_access: Access,
    /// `Offsets::classes`, `Offsets::enums`.
    class_at: Vec<u32>,
    enum_at: Vec<u32>,
    /// The offsets of the `friend` keywords of the tree being lowered (its
    /// root with them), found once: a scan of each class body was
    /// quadratic in nested classes (100,000 took minutes).
    friend_kws: Option<(SyntaxNode, Vec<TextSize>)>,
}

/// What lowering a declaration inside a class body collects besides items.
struct ClassCx {
    fields: Vec<Field>,
    /// (field index, offset of its init-declarator) of each default member initializer.
    init_at: Vec<(u32, u32)>,
    /// (field index, offset of its declarator's name) of each named field.
    name_at: Vec<(u32, u32)>,
    access: Access,
    name: Option<String>,
    has_virtual_fn: bool,
    user_ctor: bool,
    user_copy_assign: bool,
    user_dtor: bool,
    /// `ClassData::friend_decls`.
    friend_decls: Vec<FnData>,
}

impl Lower {
    fn new(pack: Pack) -> Lower {
        Lower {
            tree: ItemTree::default(),
            pack,
            extern_c: false,
            fn_at: Vec::new(),
            var_at: Vec::new(),
            tmpl_at: Vec::new(),
            field_init_at: Vec::new(),
            field_at: Vec::new(),
            base_at: Vec::new(),
            var_init_at: Vec::new(),
            var_template_init_at: Vec::new(),
            member_access: Access::Public,
            class_at: Vec::new(),
            enum_at: Vec::new(),
            friend_kws: None,
        }
    }

    /// Does `node` hold a `friend` keyword (its own or a nested class's)?
    fn has_friend_kw(&mut self, node: &SyntaxNode) -> bool {
        let root = node.ancestors().last().unwrap_or_else(|| node.clone());
        if self.friend_kws.as_ref().is_none_or(|(r, _)| *r != root) {
            // On the green tree: a cursor walk allocates at every token.
            let mut at = Vec::new();
            let mut offset = root.text_range().start();
            cufront_syntax::green::tokens(root.green().as_ref(), &mut |_| false, &mut |t| {
                if cufront_syntax::green::token_kind(t) == K::FRIEND_KW {
                    at.push(offset);
                }
                offset += t.text_len();
                true
            });
            self.friend_kws = Some((root, at));
        }
        let at = self.friend_kws.as_ref().map_or(&[][..], |(_, at)| at);
        let range = node.text_range();
        let i = at.partition_point(|&o| o < range.start());
        at.get(i).is_some_and(|&o| o < range.end())
    }

    fn push_using(&mut self, out: &mut Vec<Item>, u: UsingData) {
        self.tree.usings.push(u);
        out.push(Item::Using(self.tree.usings.len() as u32 - 1));
    }

    /// Lowers a declaration at namespace scope (`class` = None) or in a class body.
    fn decl(&mut self, node: &SyntaxNode, out: &mut Vec<Item>, mut class: Option<&mut ClassCx>) {
        self.member_access = class.as_ref().map_or(Access::Public, |c| c.access);
        match node.kind() {
            K::PP_DIRECTIVE => {}
            K::NAMESPACE_DEF => self.namespace(node, out),
            K::LINKAGE_SPEC | K::EXPORT_DECL => {
                let saved = self.extern_c;
                if node.kind() == K::LINKAGE_SPEC {
                    self.extern_c =
                        su::tokens(node).find(|t| t.kind() == K::STRING).is_some_and(|t| t.text() == "\"C\"");
                }
                self.children_decls(node, out, None);
                self.extern_c = saved;
            }
            K::USING_DIRECTIVE => {
                if let Some(p) = su::path_in(node) {
                    self.push_using(out, UsingData::Directive(p));
                }
            }
            K::USING_DECL => {
                if let Some(p) = su::path_in(node) {
                    self.push_using(out, UsingData::Decl(p));
                }
            }
            K::NAMESPACE_ALIAS => {
                let name = node.children().find(|c| c.kind() == K::NAME).and_then(|n| su::name_text(&n));
                let target = node.children().find(|c| c.kind() == K::QUALIFIED_NAME || c.kind() == K::NAME_REF);
                if let (Some(n), Some(t)) = (name, target.and_then(|t| su::path_of(&t))) {
                    self.push_using(out, UsingData::NamespaceAlias(n, t));
                }
            }
            K::ALIAS_DECL => self.alias(node, out, None),
            K::TEMPLATE_DECL => self.template(node, out, class, Vec::new()),
            K::DEDUCTION_GUIDE => self.guide(node, out, Vec::new()),
            K::EXPLICIT_SPECIALIZATION => {
                // `template<> void S<A>::f() {}`: the member `f` of the
                // instance `S<A>`, defined apart from the template's (an
                // `Fn` with one empty outer head, `DefMap::member_specs`).
                // Function template specializations (`f<int>`) are not kept.
                if let Some(d) = node.children().find(|c| c.kind() == K::FUNCTION_DEF) {
                    let before = out.len();
                    self.templated_decl(&d, out, vec![Vec::new()], None);
                    let keep = match out[before..] {
                        [Item::Fn(i)] => self.tree.fns[i as usize]
                            .qualifier
                            .as_ref()
                            .is_some_and(|q| q.segments.iter().any(|s| s.args.is_some())),
                        _ => false,
                    };
                    if !keep {
                        for it in out.drain(before..) {
                            match it {
                                Item::Fn(_) => {
                                    self.tree.fns.pop();
                                    self.fn_at.pop();
                                }
                                Item::FnTemplate(_) => {
                                    self.tree.fn_templates.pop();
                                    self.tmpl_at.pop();
                                }
                                _ => {}
                            }
                        }
                    }
                }
                // Specializations declare nothing lookup finds by a new name.
                if let Some(d) = node.children().find(|c| c.kind() == K::SIMPLE_DECL)
                    && let Some(specs) = su::child(&d, K::DECL_SPECIFIERS)
                {
                    for c in specs.children().filter(|c| c.kind() == K::CLASS_SPECIFIER) {
                        let idx = self.class(&c, TemplateKind::Specialization, Access::Public);
                        self.tree.classes[idx as usize].tparams = Some(Vec::new());
                        out.push(Item::Class(idx));
                    }
                }
            }
            K::SIMPLE_DECL | K::FUNCTION_DEF => self.simple(node, out, class.as_deref_mut()),
            K::EXPLICIT_INSTANTIATION if class.is_none() => self.explicit_instantiation(node, out),
            K::ACCESS_SPECIFIER => {
                if let Some(cx) = class {
                    for t in su::tokens(node) {
                        match t.kind() {
                            K::PUBLIC_KW => cx.access = Access::Public,
                            K::PROTECTED_KW => cx.access = Access::Protected,
                            K::PRIVATE_KW => cx.access = Access::Private,
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn children_decls(&mut self, node: &SyntaxNode, out: &mut Vec<Item>, _class: Option<&mut ClassCx>) {
        for el in node.children_with_tokens() {
            match el {
                rowan::NodeOrToken::Node(c) => self.decl(&c, out, None),
                rowan::NodeOrToken::Token(t) => self.pragma(&t),
            }
        }
    }

    fn pragma(&mut self, t: &SyntaxToken) {
        if t.kind() == K::PP_DIRECTIVE {
            self.pack.apply(t.text());
        }
    }

    fn namespace(&mut self, node: &SyntaxNode, out: &mut Vec<Item>) {
        let inline = node.children_with_tokens().any(|t| t.kind() == K::INLINE_KW);
        // `namespace a::b {`: the parser gives one `NAME` per component.
        let names: Vec<String> = node
            .children()
            .filter(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME))
            .flat_map(|n| su::idents(&n))
            .collect();
        let mut items = Vec::new();
        self.children_decls(node, &mut items, None);
        let names: Vec<Option<String>> =
            if names.is_empty() { vec![None] } else { names.into_iter().map(Some).collect() };
        // `namespace a::b { … }`: innermost first; only the last may be inline.
        let n = names.len();
        let tags = abi_tags(node);
        for (i, name) in names.into_iter().enumerate().rev() {
            let abi_tags = if i + 1 == n { tags.clone() } else { Vec::new() };
            self.tree.namespaces.push(NamespaceData { name, inline: inline && i + 1 == n, abi_tags, items });
            items = vec![Item::Namespace(self.tree.namespaces.len() as u32 - 1)];
        }
        out.extend(items);
    }

    fn alias(&mut self, node: &SyntaxNode, out: &mut Vec<Item>, tparams: Option<Vec<TemplateParam>>) {
        let Some(name) = node.children().find(|c| c.kind() == K::NAME).and_then(|n| su::name_text(&n)) else {
            return;
        };
        // `using E = enum E { … };` defines the enum too (libcu++'s `memory_order`).
        let defined = su::child(node, K::TYPE_ID)
            .and_then(|t| su::child(&t, K::DECL_SPECIFIERS))
            .and_then(|s| su::child(&s, K::ENUM_SPECIFIER));
        let ty = match (su::child(node, K::TYPE_ID), defined) {
            (Some(t), Some(e)) if tparams.is_none() && su::child(&t, K::ABSTRACT_DECLARATOR).is_none() => {
                let idx = self.enumeration(&e, Access::Public);
                out.push(Item::Enum(idx));
                TypeRef::LocalEnum(idx)
            }
            (Some(t), _) => self.type_id(&t),
            (None, _) => TypeRef::Opaque(node.text().to_string()),
        };
        let templated = tparams.is_some();
        self.tree.typedefs.push(TypedefData { name, ty, attrs: Attrs::default(), templated, tparams });
        out.push(Item::Typedef(self.tree.typedefs.len() as u32 - 1));
    }

    fn template(
        &mut self,
        node: &SyntaxNode,
        out: &mut Vec<Item>,
        class: Option<&mut ClassCx>,
        mut heads: Vec<Vec<TemplateParam>>,
    ) {
        let Some(inner) = node
            .children()
            .find(|c| !matches!(c.kind(), K::TEMPLATE_PARAM_LIST | K::REQUIRES_CLAUSE) && c.kind() != K::ERROR)
        else {
            return;
        };
        let tparams = su::child(node, K::TEMPLATE_PARAM_LIST).map(|l| self.template_params(&l)).unwrap_or_default();
        match inner.kind() {
            K::ALIAS_DECL => self.alias(&inner, out, Some(tparams)),
            K::CONCEPT_DEF => self.concept(&inner, out, tparams),
            K::DEDUCTION_GUIDE => self.guide(&inner, out, tparams),
            K::TEMPLATE_DECL => {
                heads.push(tparams);
                self.template(&inner, out, class, heads)
            }
            K::SIMPLE_DECL | K::FUNCTION_DEF => {
                let specs = su::child(&inner, K::DECL_SPECIFIERS);
                let mut declared_class = false;
                if let Some(specs) = &specs {
                    for c in specs.children().filter(|c| c.kind() == K::CLASS_SPECIFIER) {
                        declared_class = true;
                        let partial = c.children().any(|n| n.kind() == K::TEMPLATE_ID);
                        let kind = if partial { TemplateKind::Specialization } else { TemplateKind::Primary };
                        let idx = self.class(&c, kind, Access::Public);
                        self.tree.classes[idx as usize].tparams = Some(tparams.clone());
                        self.tree.classes[idx as usize].constraints = head_constraints(node, self);
                        out.push(Item::Class(idx));
                    }
                    let friend = su::spec_keywords(specs).contains(&K::FRIEND_KW);
                    if !declared_class && !friend {
                        for c in specs.children().filter(|c| c.kind() == K::ELABORATED_TYPE_SPECIFIER) {
                            if let Some(p) = su::path_of(&c) {
                                let Some(n) = p.last().map(str::to_string) else { continue };
                                let key = su::class_key(&c);
                                let mut data = empty_class(Some(n), key, Access::Public, self.pack.current());
                                data.tparams = Some(tparams.clone());
                                if p.segments.last().is_some_and(|s| s.args.is_some()) {
                                    // `template<class T> struct A<T*>;`: a partial specialization declared.
                                    data.template = TemplateKind::Specialization;
                                    data.spec_args = p.segments.last().and_then(|s| s.args.clone());
                                    data.constraints = head_constraints(node, self);
                                } else {
                                    data.template = TemplateKind::Primary;
                                }
                                if p.segments.len() > 1 {
                                    continue;
                                }
                                let idx = self.push_class(data, c.text_range().start());
                                out.push(Item::Class(idx));
                            }
                        }
                    }
                }
                // Member templates: a constructor template makes the class non-POD.
                let class_name = class.as_ref().and_then(|c| c.name.clone());
                if let Some(cx) = class {
                    for d in su::declarators(&inner) {
                        if su::is_function_declarator(&d) && su::declarator_name(&d).as_deref() == cx.name.as_deref() {
                            cx.user_ctor = true;
                        }
                    }
                }
                if !declared_class {
                    let head = head_constraints(node, self);
                    heads.push(tparams);
                    let before = out.len();
                    self.templated_decl(&inner, out, heads, class_name.as_deref());
                    if let (true, Some(Item::FnTemplate(i))) = (out.len() > before, out.last()) {
                        let f = &mut self.tree.fn_templates[*i as usize].f;
                        f.constraints.splice(0..0, head);
                    }
                }
            }
            _ => {}
        }
    }

    /// A deduction guide: the template it names, its parameters and the
    /// type it deduces.
    fn guide(&mut self, node: &SyntaxNode, out: &mut Vec<Item>, tparams: Vec<TemplateParam>) {
        let Some(template) = su::child(node, K::NAME_REF).and_then(|n| su::name_text(&n)) else { return };
        let Some(target) = su::child(node, K::TYPE_ID) else { return };
        let ret = self.type_id(&target);
        let f = self.function(ret, node);
        self.tree.guides.push(GuideData { template, tparams, f });
        out.push(Item::Guide(self.tree.guides.len() as u32 - 1));
    }

    /// A friend function a class body defines (`friend bool operator==(…) {…}`):
    /// `FnData::friend`, inline. Friend declarations without a body name a
    /// function declared elsewhere: nothing here.
    fn friend_fn(&mut self, node: &SyntaxNode, specs: Option<&SyntaxNode>, kws: &[K], out: &mut Vec<Item>) {
        let base = match specs {
            Some(s) => self.specifier_type(s),
            None => TypeRef::Opaque(String::new()),
        };
        let Some(d) = su::init_declarators(node)
            .into_iter()
            .find_map(|i| if i.kind() == K::DECLARATOR { Some(i) } else { su::child(&i, K::DECLARATOR) })
        else {
            return;
        };
        if !su::is_function_declarator(&d) {
            return;
        }
        let Some((mut f, at)) = self.fn_data(node, &d, &base, kws, specs, None) else { return };
        if f.qualifier.is_some() {
            return;
        }
        f.friend = true;
        f.linkage.is_inline = true;
        self.tree.fns.push(f);
        self.fn_at.push(at);
        out.push(Item::Fn(self.tree.fns.len() as u32 - 1));
    }

    /// The functions a friend declaration without a body names
    /// (`ClassData::friend_decls`): unqualified ones only (a qualified name
    /// names a member of another scope, declared there).
    fn friend_decls(&mut self, node: &SyntaxNode, specs: Option<&SyntaxNode>, kws: &[K], cx: &mut ClassCx) {
        let base = match specs {
            Some(s) => self.specifier_type(s),
            None => TypeRef::Opaque(String::new()),
        };
        for init in su::init_declarators(node) {
            let Some(d) = (if init.kind() == K::DECLARATOR { Some(init) } else { su::child(&init, K::DECLARATOR) })
            else {
                continue;
            };
            if !su::is_function_declarator(&d) {
                continue;
            }
            let Some((mut f, _)) = self.fn_data(node, &d, &base, kws, specs, None) else { continue };
            if f.qualifier.is_none() {
                f.friend = true;
                cx.friend_decls.push(f);
            }
        }
    }

    /// `concept C = e;`: a `bool` variable template whose value is `e`.
    fn concept(&mut self, node: &SyntaxNode, out: &mut Vec<Item>, tparams: Vec<TemplateParam>) {
        let Some(name) = node.children().find(|c| c.kind() == K::NAME).and_then(|n| su::name_text(&n)) else { return };
        let init = node.children().find(|c| su::is_expr(c.kind())).map(|e| lower_expr(&e, self));
        let linkage = Linkage {
            is_inline: true,
            is_constexpr: true,
            is_definition: true,
            extern_c: self.extern_c,
            ..Linkage::default()
        };
        let var = VarData {
            name,
            ty: TypeRef::Builtin(Builtin::Bool),
            is_const: true,
            init,
            linkage,
            qualifier: None,
            outer_tparams: Vec::new(),
        };
        self.tree.var_templates.push(VarTemplateData { tparams, var, spec_args: None, concept: true });
        out.push(Item::VarTemplate(self.tree.var_templates.len() as u32 - 1));
    }

    /// The functions and variables a template declaration declares, given
    /// its template heads (outermost first). A qualifier naming `k`
    /// specializations (`S<T>::`) consumes `k` heads; with one head left the
    /// declaration is a function or variable template, with none it is an
    /// out-of-line member of a class template (templated, not an entity).
    fn templated_decl(
        &mut self,
        node: &SyntaxNode,
        out: &mut Vec<Item>,
        mut heads: Vec<Vec<TemplateParam>>,
        class_name: Option<&str>,
    ) {
        let specs = su::child(node, K::DECL_SPECIFIERS);
        let kws: Vec<K> = specs.as_ref().map(su::spec_keywords).unwrap_or_default();
        // Friends: only the templates a class body defines (hidden friends).
        let friend = kws.contains(&K::FRIEND_KW);
        if kws.contains(&K::TYPEDEF_KW) || (friend && (class_name.is_none() || node.kind() != K::FUNCTION_DEF)) {
            return;
        }
        let class_name = if friend { None } else { class_name };
        let base = match &specs {
            Some(s) => self.specifier_type(s),
            None => TypeRef::Opaque(String::new()),
        };
        for init in su::init_declarators(node) {
            let Some(decl) =
                (if init.kind() == K::DECLARATOR { Some(init.clone()) } else { su::child(&init, K::DECLARATOR) })
            else {
                continue;
            };
            if su::is_function_declarator(&decl) {
                let Some((mut f, at)) = self.fn_data(node, &decl, &base, &kws, specs.as_ref(), class_name) else {
                    continue;
                };
                if friend && f.qualifier.is_some() {
                    return;
                }
                f.friend = friend;
                let k = f.qualifier.as_ref().map_or(0, |q| q.segments.iter().filter(|s| s.args.is_some()).count());
                let own = if heads.len() == k + 1 { heads.last().map_or(0, Vec::len) } else { 0 };
                let invented =
                    if f.pack_params.is_empty() { invent_auto_params(&mut f.ty.params, own) } else { Vec::new() };
                if !invented.is_empty() && heads.len() == k {
                    heads.push(Vec::new());
                }
                if let (false, Some(h)) = (invented.is_empty(), heads.last_mut()) {
                    h.extend(invented);
                }
                if heads.len() > k + 1 || heads.is_empty() {
                    continue;
                }
                if heads.len() == k {
                    f.outer_tparams = std::mem::take(&mut heads);
                    self.tree.fns.push(f);
                    self.fn_at.push(at);
                    out.push(Item::Fn(self.tree.fns.len() as u32 - 1));
                } else {
                    let tparams = heads.pop().unwrap_or_default();
                    f.outer_tparams = std::mem::take(&mut heads);
                    self.tree.fn_templates.push(FnTemplateData { tparams, f });
                    self.tmpl_at.push(at);
                    out.push(Item::FnTemplate(self.tree.fn_templates.len() as u32 - 1));
                }
                return;
            }
            // `v<T, T>`: a variable template partial specialization is named by a template-id.
            let Some(name) = su::declarator_name(&decl).or_else(|| {
                declarator_template_id(&decl)
                    .and_then(|t| t.children().find(|c| matches!(c.kind(), K::NAME | K::NAME_REF)))
                    .map(|n| n.text().to_string().trim().to_string())
            }) else {
                continue;
            };
            let (qualifier, _) = declarator_qualifier(&decl);
            let ty = self.declarator_type(base.clone(), &decl);
            let is_const = kws.iter().any(|k| matches!(k, K::CONST_KW | K::CONST2_KW | K::CONST3_KW | K::CONSTEXPR_KW));
            let init_expr =
                su::child(&init, K::EQUAL_INITIALIZER).and_then(|e| e.children().find(|c| su::is_expr(c.kind())));
            let has_init =
                su::child(&init, K::EQUAL_INITIALIZER).is_some() || su::child(&init, K::INITIALIZER).is_some();
            let init_at = u32::from(init.text_range().start());
            let init = if is_const { init_expr.map(|e| lower_expr(&e, self)) } else { None };
            let mut linkage = self.linkage(&kws, specs.as_ref(), Some(&decl));
            linkage.is_definition = if class_name.is_some() {
                linkage.is_inline || linkage.is_constexpr
            } else {
                !linkage.is_extern || has_init
            };
            let k = qualifier.as_ref().map_or(0, |q| q.segments.iter().filter(|s| s.args.is_some()).count());
            let mut var = VarData { name, ty, is_const, init, linkage, qualifier, outer_tparams: Vec::new() };
            if heads.len() == k && k > 0 {
                var.outer_tparams = std::mem::take(&mut heads);
                self.tree.vars.push(var);
                self.var_at.push(u32::from(decl.text_range().start()));
                if has_init {
                    self.var_init_at.push((self.tree.vars.len() as u32 - 1, init_at));
                }
                out.push(Item::Var(self.tree.vars.len() as u32 - 1));
            } else if heads.len() == k + 1 {
                let tparams = heads.pop().unwrap_or_default();
                var.outer_tparams = std::mem::take(&mut heads);
                let spec_args = declarator_template_args(&decl);
                if has_init {
                    self.var_template_init_at.push((self.tree.var_templates.len() as u32, init_at));
                }
                self.tree.var_templates.push(VarTemplateData { tparams, var, spec_args, concept: false });
                out.push(Item::VarTemplate(self.tree.var_templates.len() as u32 - 1));
            }
            return;
        }
    }

    /// `struct X` (a class-key and a plain identifier) anywhere in a
    /// declaration with declarators, outside bodies and class definitions:
    /// a possible first declaration of `X` (`ClassData::elaborated`).
    fn elaborated_uses(&mut self, node: &SyntaxNode, out: &mut Vec<Item>) {
        // Most declarations have none: asked of the green tree first.
        let skipped = |k| {
            matches!(
                k,
                K::FUNCTION_BODY
                    | K::LAZY_BODY
                    | K::CTOR_INITIALIZER
                    | K::FUNCTION_TRY_BLOCK
                    | K::CLASS_SPECIFIER
                    | K::ENUM_SPECIFIER
            )
        };
        if !green::has_node(&node.green(), K::ELABORATED_TYPE_SPECIFIER, &skipped) {
            return;
        }
        let mut walk = node.preorder();
        let mut seen: Vec<String> = Vec::new();
        while let Some(ev) = walk.next() {
            let rowan::WalkEvent::Enter(n) = ev else { continue };
            match n.kind() {
                K::FUNCTION_BODY
                | K::LAZY_BODY
                | K::CTOR_INITIALIZER
                | K::FUNCTION_TRY_BLOCK
                | K::CLASS_SPECIFIER
                | K::ENUM_SPECIFIER => {
                    walk.skip_subtree();
                }
                K::ELABORATED_TYPE_SPECIFIER => {
                    walk.skip_subtree();
                    if n.children_with_tokens().any(|t| t.kind() == K::ENUM_KW)
                        || n.children().any(|c| c.kind() == K::QUALIFIED_NAME)
                    {
                        continue;
                    }
                    let Some(p) = su::path_of(&n) else { continue };
                    if p.global
                        || p.segments.len() != 1
                        || p.segments[0].args.is_some()
                        || seen.contains(&p.segments[0].name)
                    {
                        continue;
                    }
                    let name = p.segments[0].name.clone();
                    seen.push(name.clone());
                    let mut data = empty_class(Some(name), su::class_key(&n), Access::Public, self.pack.current());
                    data.elaborated = true;
                    let idx = self.push_class(data, n.text_range().start());
                    out.push(Item::Class(idx));
                }
                _ => {}
            }
        }
    }

    /// `[extern] template DECL;` of functions, and of classes
    /// (`template struct S<int>;`: a class key, a name and nothing else).
    fn explicit_instantiation(&mut self, node: &SyntaxNode, out: &mut Vec<Item>) {
        let extern_ = node.first_token().is_some_and(|t| t.kind() == K::EXTERN_KW);
        let Some(d) = node.children().find(|c| c.kind() == K::SIMPLE_DECL) else { return };
        let specs = su::child(&d, K::DECL_SPECIFIERS);
        if su::init_declarators(&d).is_empty()
            && let Some(e) = specs.as_ref().and_then(|s| su::child(s, K::ELABORATED_TYPE_SPECIFIER))
            && let Some(name) = su::path_of(&e)
        {
            let at = e.children().find(|c| matches!(c.kind(), K::NAME_REF | K::QUALIFIED_NAME | K::TEMPLATE_ID));
            let at = u32::from(at.map_or(e.text_range().start(), |n| n.text_range().start()));
            self.tree.explicit_insts.push(ExplicitInst { name, fn_ty: None, extern_, at });
            out.push(Item::ExplicitInst(self.tree.explicit_insts.len() as u32 - 1));
            return;
        }
        let base = match &specs {
            Some(s) => self.specifier_type(s),
            None => TypeRef::Opaque(String::new()),
        };
        for init in su::init_declarators(&d) {
            let decl = if init.kind() == K::DECLARATOR { Some(init.clone()) } else { su::child(&init, K::DECLARATOR) };
            let Some(decl) = decl.filter(su::is_function_declarator) else { continue };
            let TypeRef::Func(ty) = self.declarator_type(base.clone(), &decl) else { continue };
            let inner = su::innermost(&decl);
            let Some(n) = inner.children().find(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME | K::TEMPLATE_ID))
            else {
                continue;
            };
            let Some(name) = su::path_of(&n) else { continue };
            let at = u32::from(n.text_range().start());
            self.tree.explicit_insts.push(ExplicitInst { name, fn_ty: Some(*ty), extern_, at });
            out.push(Item::ExplicitInst(self.tree.explicit_insts.len() as u32 - 1));
        }
    }

    fn simple(&mut self, node: &SyntaxNode, out: &mut Vec<Item>, class: Option<&mut ClassCx>) {
        let specs = su::child(node, K::DECL_SPECIFIERS);
        let kws: Vec<K> = specs.as_ref().map(su::spec_keywords).unwrap_or_default();
        let is_typedef = kws.contains(&K::TYPEDEF_KW);
        let is_friend = kws.contains(&K::FRIEND_KW);
        let is_static = kws.contains(&K::STATIC_KW) || kws.contains(&K::EXTERN_KW);
        let is_const = kws.iter().any(|k| matches!(k, K::CONST_KW | K::CONST2_KW | K::CONST3_KW | K::CONSTEXPR_KW));
        let access = class.as_ref().map_or(Access::Public, |c| c.access);
        if is_friend {
            match class {
                Some(_) if node.kind() == K::FUNCTION_DEF => self.friend_fn(node, specs.as_ref(), &kws, out),
                Some(cx) => self.friend_decls(node, specs.as_ref(), &kws, cx),
                None => {}
            }
            return;
        }

        // Types the specifiers define or declare.
        let mut base_ty: Option<TypeRef> = None;
        let mut anon_class: Option<u32> = None;
        let mut spec_attrs = Attrs::default();
        if let Some(specs) = &specs {
            for c in specs.children() {
                match c.kind() {
                    K::CLASS_SPECIFIER => {
                        let idx = self.class(&c, TemplateKind::None, access);
                        // Unnamed classes are items too: they have a scope and a layout.
                        out.push(Item::Class(idx));
                        if self.tree.classes[idx as usize].name.is_none() {
                            anon_class = Some(idx);
                        }
                        base_ty = Some(TypeRef::LocalClass(idx));
                    }
                    K::ENUM_SPECIFIER => {
                        let idx = self.enumeration(&c, access);
                        out.push(Item::Enum(idx));
                        base_ty = Some(TypeRef::LocalEnum(idx));
                    }
                    K::ELABORATED_TYPE_SPECIFIER => {
                        // `struct S;` declares S; `struct S *p;` too when S is new (lookup decides).
                        let no_declarators = su::child(node, K::INIT_DECLARATOR_LIST).is_none();
                        if no_declarators
                            && !c.children().any(|n| n.kind() == K::QUALIFIED_NAME)
                            && let Some(name) = su::path_of(&c).and_then(|p| p.last().map(str::to_string))
                        {
                            if c.children_with_tokens().any(|t| t.kind() == K::ENUM_KW) {
                                let idx = self.push_enum(
                                    EnumData {
                                        name: Some(name),
                                        scoped: false,
                                        base: None,
                                        enumerators: Vec::new(),
                                        is_definition: false,
                                        packed: false,
                                        access,
                                    },
                                    c.text_range().start(),
                                );
                                out.push(Item::Enum(idx));
                            } else {
                                let key = su::class_key(&c);
                                let idx = self.push_class(
                                    empty_class(Some(name), key, access, self.pack.current()),
                                    c.text_range().start(),
                                );
                                out.push(Item::Class(idx));
                            }
                        }
                    }
                    K::GNU_ATTRIBUTE | K::ALIGNAS_SPECIFIER | K::ATTRIBUTE_LIST => {
                        spec_attrs.merge(self.attrs_of(&c));
                    }
                    _ => {}
                }
            }
        }
        let base_ty = base_ty.unwrap_or_else(|| match &specs {
            Some(s) => self.specifier_type(s),
            None => TypeRef::Opaque(String::new()),
        });

        let declarators: Vec<SyntaxNode> = su::init_declarators(node);
        if !declarators.is_empty() {
            self.elaborated_uses(node, out);
        }
        if declarators.is_empty() {
            // An anonymous struct/union member.
            if let (Some(cx), Some(idx)) = (class, anon_class) {
                self.tree.classes[idx as usize].anonymous_member = true;
                cx.fields.push(Field {
                    name: None,
                    ty: TypeRef::LocalClass(idx),
                    bit_width: None,
                    access,
                    attrs: spec_attrs,
                    has_init: false,
                    anonymous: Some(idx),
                    mutable: false,
                });
            }
            return;
        }
        let mut class = class;
        for init in declarators {
            let decl = if init.kind() == K::DECLARATOR { Some(init.clone()) } else { su::child(&init, K::DECLARATOR) };
            let bit_width = su::child(&init, K::BIT_FIELD_WIDTH)
                .and_then(|b| b.children().find(|c| su::is_expr(c.kind())))
                .map(|e| lower_expr(&e, self));
            let mut attrs = spec_attrs.clone();
            attrs.merge(self.declarator_attrs(&init));
            let name = decl.as_ref().and_then(su::declarator_name);
            let is_fn = decl.as_ref().is_some_and(su::is_function_declarator);
            if is_fn {
                let d = decl.as_ref().expect("is_fn");
                let class_name = class.as_ref().and_then(|c| c.name.clone());
                let in_class = class.is_some();
                if let Some(cx) = class.as_deref_mut() {
                    self.member_function(node, d, &kws, cx);
                }
                if let Some((mut f, at)) = self.fn_data(node, d, &base_ty, &kws, specs.as_ref(), class_name.as_deref())
                {
                    let invented = if in_class || !f.pack_params.is_empty() {
                        Vec::new()
                    } else {
                        invent_auto_params(&mut f.ty.params, 0)
                    };
                    if !invented.is_empty() {
                        // An abbreviated function template.
                        self.tree.fn_templates.push(FnTemplateData { tparams: invented, f });
                        self.tmpl_at.push(at);
                        out.push(Item::FnTemplate(self.tree.fn_templates.len() as u32 - 1));
                        continue;
                    }
                    self.tree.fns.push(f);
                    self.fn_at.push(at);
                    out.push(Item::Fn(self.tree.fns.len() as u32 - 1));
                } else if let (false, Some(n)) = (in_class, name) {
                    // Not modelled as a function (an explicit specialization, …): a value.
                    self.push_using(out, UsingData::Value(n));
                }
                continue;
            }
            let ty = match &decl {
                Some(d) => self.declarator_type(base_ty.clone(), d),
                None => base_ty.clone(),
            };
            if is_typedef {
                if let Some(n) = name {
                    if let Some(idx) = anon_class {
                        let c = &mut self.tree.classes[idx as usize];
                        if c.typedef_name.is_none() {
                            c.typedef_name = Some(n.clone());
                        }
                    }
                    self.tree.typedefs.push(TypedefData { name: n, ty, attrs, templated: false, tparams: None });
                    out.push(Item::Typedef(self.tree.typedefs.len() as u32 - 1));
                }
                continue;
            }
            let init_expr = su::child(&init, K::EQUAL_INITIALIZER)
                .and_then(|e| e.children().find(|c| su::is_expr(c.kind())))
                .or_else(|| {
                    su::child(&init, K::INITIALIZER)
                        .and_then(|i| i.children().find(|c| matches!(c.kind(), K::INIT_LIST | K::ARG_LIST)))
                        .and_then(|l| l.children().find(|c| su::is_expr(c.kind())))
                });
            let has_init =
                su::child(&init, K::EQUAL_INITIALIZER).is_some() || su::child(&init, K::INITIALIZER).is_some();
            match class.as_deref_mut() {
                Some(cx) if !is_static => {
                    if has_init {
                        cx.init_at.push((cx.fields.len() as u32, u32::from(init.text_range().start())));
                    }
                    let mutable = kws.contains(&K::MUTABLE_KW);
                    if let Some(d) = &decl {
                        cx.name_at.push((cx.fields.len() as u32, declarator_qualifier(d).1));
                    }
                    cx.fields.push(Field { name, ty, bit_width, access, attrs, has_init, anonymous: None, mutable });
                }
                _ => {
                    if let Some(n) = name {
                        let (qualifier, at) = match &decl {
                            Some(d) => declarator_qualifier(d),
                            None => (None, u32::from(init.text_range().start())),
                        };
                        let init_at = u32::from(init.text_range().start());
                        let init = if is_const { init_expr.map(|e| lower_expr(&e, self)) } else { None };
                        let mut linkage = self.linkage(&kws, specs.as_ref(), decl.as_ref());
                        linkage.is_definition = if class.is_some() {
                            // In-class: a definition only when `inline` (C++17) or constexpr.
                            linkage.is_inline || linkage.is_constexpr
                        } else {
                            !linkage.is_extern || has_init
                        };
                        if has_init {
                            self.var_init_at.push((self.tree.vars.len() as u32, init_at));
                        }
                        self.tree.vars.push(VarData {
                            name: n,
                            ty,
                            is_const,
                            init,
                            linkage,
                            qualifier,
                            outer_tparams: Vec::new(),
                        });
                        self.var_at.push(at);
                        out.push(Item::Var(self.tree.vars.len() as u32 - 1));
                    }
                }
            }
        }
    }

    /// The linkage facts the specifiers state.
    fn linkage(&self, kws: &[K], specs: Option<&SyntaxNode>, decl: Option<&SyntaxNode>) -> Linkage {
        Linkage {
            is_static: kws.contains(&K::STATIC_KW),
            is_extern: kws.contains(&K::EXTERN_KW)
                || (self.extern_c
                    && specs.is_some_and(|s| {
                        s.parent().is_some_and(|p| {
                            p.parent().is_some_and(|g| {
                                g.kind() == K::LINKAGE_SPEC
                                    && su::child(&g, K::L_CURLY).is_none()
                                    && !g.children_with_tokens().any(|t| t.kind() == K::L_CURLY)
                            })
                        })
                    })),
            is_inline: kws.iter().any(|k| matches!(k, K::INLINE_KW))
                || specs.is_some_and(|s| {
                    green::any_token(&s.green(), &mut |t| matches!(t.text(), "__inline__" | "__inline"))
                }),
            is_constexpr: kws.contains(&K::CONSTEXPR_KW),
            is_consteval: kws.contains(&K::CONSTEVAL_KW),
            extern_c: self.extern_c,
            is_definition: false,
            cuda: decl.map_or_else(
                || cufront_cuda::attrs::of_declaration(specs, None),
                |d| cufront_cuda::attrs::of_declarator(specs, d),
            ),
            noreturn: decl.is_some_and(|d| cufront_cuda::attrs::is_noreturn(specs, d)),
        }
    }

    /// A function declarator as a function entity: its name, the scope a
    /// qualified name names, its declared type, and where its name is.
    fn fn_data(
        &mut self,
        node: &SyntaxNode,
        d: &SyntaxNode,
        base: &TypeRef,
        kws: &[K],
        specs: Option<&SyntaxNode>,
        class_name: Option<&str>,
    ) -> Option<(FnData, u32)> {
        let TypeRef::Func(ty) = self.declarator_type(base.clone(), d) else { return None };
        let inner = su::innermost(d);
        let n = inner.children().find(|c| {
            matches!(
                c.kind(),
                K::NAME
                    | K::QUALIFIED_NAME
                    | K::OPERATOR_NAME
                    | K::DESTRUCTOR_NAME
                    | K::CONVERSION_NAME
                    | K::TEMPLATE_ID
            )
        })?;
        if n.kind() == K::TEMPLATE_ID {
            return None; // an explicit specialization of a function template
        }
        let at = u32::from(n.text_range().start());
        let (last, qualifier) = if n.kind() == K::QUALIFIED_NAME {
            let last = n.children().filter(|c| c.kind() != K::ERROR).last()?;
            let mut p = su::path_of(&n)?;
            p.segments.pop();
            if last.kind() == K::TEMPLATE_ID || p.segments.is_empty() && !p.global {
                return None;
            }
            (last, Some(p))
        } else {
            (n.clone(), None)
        };
        let name = match last.kind() {
            K::DESTRUCTOR_NAME => FnName::Dtor,
            K::CONVERSION_NAME => {
                let t = su::child(&last, K::TYPE_ID)?;
                FnName::Conversion(self.type_id(&t))
            }
            K::OPERATOR_NAME => {
                let toks: Vec<SyntaxToken> = su::tokens(&last).filter(|t| t.kind() != K::OPERATOR_KW).collect();
                match toks.first() {
                    Some(t) if t.kind() == K::STRING => FnName::Literal(toks.get(1)?.text().to_string()),
                    Some(t) if t.text().starts_with("\"\"") => FnName::Literal(t.text()[2..].trim().to_string()),
                    _ => FnName::Operator(toks.iter().map(|t| t.text()).collect()),
                }
            }
            _ => {
                let id = su::path_of(&last)?.segments.pop()?.name;
                let owner = match &qualifier {
                    Some(q) => q.last().map(str::to_string),
                    None => class_name.map(str::to_string),
                };
                if owner.as_deref() == Some(id.as_str()) { FnName::Ctor } else { FnName::Ident(id) }
            }
        };
        let mut linkage = self.linkage(kws, specs, Some(d));
        linkage.is_definition = node.kind() == K::FUNCTION_DEF || su::child(node, K::DEFAULTED_BODY).is_some();
        let deleted = su::child(node, K::DELETED_BODY).is_some();
        let defaulted = su::child(node, K::DEFAULTED_BODY).is_some();
        let explicit = specs.is_some_and(plain_explicit);
        let pack_params = su::function_params(d)
            .iter()
            .enumerate()
            .filter(|(_, p)| is_pack_param(p))
            .map(|(i, _)| i as u32)
            .collect();
        let mut is_virtual = kws.contains(&K::VIRTUAL_KW);
        let mut virt = VirtSpecs::default();
        // One walk of the green tree (bodies skipped) for `override`,
        // `final` and `= 0`.
        green::visit_nodes(&node.green(), &mut |n| match green::node_kind(n) {
            K::FUNCTION_BODY | K::LAZY_BODY | K::CTOR_INITIALIZER | K::FUNCTION_TRY_BLOCK | K::MEMBER_LIST => {
                Visit::Skip
            }
            K::VIRT_SPECIFIER => {
                is_virtual = true;
                match green::first_significant(n).map(|t| t.text()) {
                    Some("override") => virt.override_ = true,
                    Some(_) => virt.final_ = true,
                    None => {}
                }
                Visit::Enter
            }
            K::PURE_SPECIFIER => {
                virt.pure = true;
                Visit::Enter
            }
            _ => Visit::Enter,
        });
        let constraints = trailing_requires(d).map(|e| lower_expr(&e, self)).into_iter().collect();
        let noexcept_expr = noexcept_operand(d).map(|e| Box::new(lower_expr(&e, self)));
        Some((
            FnData {
                name,
                qualifier,
                ty: *ty,
                linkage,
                in_class: class_name.is_some(),
                access: self.member_access,
                outer_tparams: Vec::new(),
                pack_params,
                is_virtual,
                virt,
                constraints,
                friend: false,
                deleted,
                defaulted,
                explicit,
                noexcept_expr,
            },
            at,
        ))
    }

    fn member_function(&mut self, node: &SyntaxNode, d: &SyntaxNode, kws: &[K], cx: &mut ClassCx) {
        if kws.contains(&K::VIRTUAL_KW) || su::has_desc_kind(node, K::VIRT_SPECIFIER) {
            cx.has_virtual_fn = true;
        }
        let defaulted = su::child(node, K::DEFAULTED_BODY).is_some();
        if d.children().any(|c| c.kind() == K::DESTRUCTOR_NAME) {
            if !defaulted {
                cx.user_dtor = true;
            }
            return;
        }
        if let Some(op) = d.children().find(|c| c.kind() == K::OPERATOR_NAME) {
            if su::tokens(&op).any(|t| t.kind() == K::EQ) {
                // A copy (or move) assignment: its parameter names the class.
                let params = su::function_params(d);
                if params.len() == 1 && cx.name.is_some() && su::idents(&params[0]).last() == cx.name.as_ref() {
                    cx.user_copy_assign = true;
                }
            }
            return;
        }
        if cx.name.is_some() && su::declarator_name(d) == cx.name {
            cx.user_ctor = true;
        }
    }

    /// Adds a class whose name (or specifier) is at `at`.
    fn push_class(&mut self, c: ClassData, at: TextSize) -> u32 {
        self.tree.classes.push(c);
        self.class_at.push(at.into());
        self.tree.classes.len() as u32 - 1
    }

    fn push_enum(&mut self, e: EnumData, at: TextSize) -> u32 {
        self.tree.enums.push(e);
        self.enum_at.push(at.into());
        self.tree.enums.len() as u32 - 1
    }

    fn class(&mut self, node: &SyntaxNode, template: TemplateKind, access: Access) -> u32 {
        let key = su::class_key(node);
        let head = su::child(node, K::CLASS_HEAD).unwrap_or_else(|| node.clone());
        let name_node = head.children().find(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME | K::TEMPLATE_ID));
        let (name, qualifier) = match &name_node {
            Some(n) => match su::path_of(n) {
                Some(mut p) if p.segments.len() > 1 || p.global => {
                    let last = p.segments.pop().map(|s| s.name);
                    (last, Some(p))
                }
                Some(p) => (p.last().map(str::to_string), None),
                None => (None, None),
            },
            None => (None, None),
        };
        let at = name_node.as_ref().map_or(node.text_range().start(), |n| n.text_range().start());
        let mut data = empty_class(name.clone(), key, access, self.pack.current());
        data.template = template;
        data.qualifier = qualifier;
        data.is_final = head.children().any(|c| c.kind() == K::VIRT_SPECIFIER);
        if let Some(n) = name_node.as_ref() {
            let tid = if n.kind() == K::TEMPLATE_ID {
                Some(n.clone())
            } else {
                n.children().filter(|c| c.kind() == K::TEMPLATE_ID).last()
            };
            if let Some(list) = tid.and_then(|t| su::child(&t, K::TEMPLATE_ARG_LIST)) {
                data.spec_args = Some(template_args(&list));
            }
        }
        for c in head.children() {
            match c.kind() {
                K::GNU_ATTRIBUTE | K::ALIGNAS_SPECIFIER | K::ATTRIBUTE_LIST => data.attrs.merge(self.attrs_of(&c)),
                _ => {}
            }
        }
        if head != *node {
            for c in node.children().filter(|c| matches!(c.kind(), K::GNU_ATTRIBUTE | K::ALIGNAS_SPECIFIER)) {
                data.attrs.merge(self.attrs_of(&c));
            }
        }
        let mut base_at = Vec::new();
        if let Some(bc) = head.children().find(|c| c.kind() == K::BASE_CLAUSE) {
            for b in bc.children().filter(|c| c.kind() == K::BASE_SPECIFIER) {
                let is_virtual = b.children_with_tokens().any(|t| t.kind() == K::VIRTUAL_KW);
                let access = su::tokens(&b)
                    .find_map(|t| match t.kind() {
                        K::PUBLIC_KW => Some(Access::Public),
                        K::PROTECTED_KW => Some(Access::Protected),
                        K::PRIVATE_KW => Some(Access::Private),
                        _ => None,
                    })
                    .unwrap_or(if key == ClassKey::Class { Access::Private } else { Access::Public });
                let name = b.children().find(|c| {
                    matches!(c.kind(), K::NAME_REF | K::QUALIFIED_NAME | K::TEMPLATE_ID | K::DECLTYPE_SPECIFIER)
                });
                let at = name.as_ref().map_or(b.text_range().start(), |n| n.text_range().start());
                // A decltype base is a type, not a name: its operand's
                // identifiers are no path.
                let ty = match name {
                    Some(n) if n.kind() == K::DECLTYPE_SPECIFIER => decltype_ref(&n),
                    n => TypeRef::Path(n.and_then(|n| su::path_of(&n)).unwrap_or_default()),
                };
                let pack = b.children_with_tokens().any(|t| t.kind() == K::DOT3);
                base_at.push((data.bases.len() as u32, u32::from(at)));
                data.bases.push(BaseRef { ty, pack, is_virtual, access });
            }
        }
        // Attributes after the closing brace belong to the class too.
        if let Some(list) = su::child(node, K::MEMBER_LIST) {
            data.is_definition = true;
            let mut cx = ClassCx {
                fields: Vec::new(),
                init_at: Vec::new(),
                name_at: Vec::new(),
                access: if key == ClassKey::Class { Access::Private } else { Access::Public },
                name: name.clone(),
                has_virtual_fn: false,
                user_ctor: false,
                user_copy_assign: false,
                user_dtor: false,
                friend_decls: Vec::new(),
            };
            let mut items = Vec::new();
            let saved_pack = self.pack.clone();
            for el in list.children_with_tokens() {
                match el {
                    rowan::NodeOrToken::Node(c) => self.decl(&c, &mut items, Some(&mut cx)),
                    rowan::NodeOrToken::Token(t) => self.pragma(&t),
                }
            }
            // A `#pragma pack` inside a class body changes the state after it (as GCC).
            let _ = saved_pack;
            data.fields = cx.fields;
            data.items = items;
            data.has_virtual_fn = cx.has_virtual_fn;
            data.has_friends = self.has_friend_kw(&list);
            data.user_ctor = cx.user_ctor;
            data.user_copy_assign = cx.user_copy_assign;
            data.user_dtor = cx.user_dtor;
            data.friend_decls = cx.friend_decls;
            let idx = self.push_class(data, at);
            self.field_init_at.extend(cx.init_at.into_iter().map(|(f, at)| (idx, f, at)));
            self.field_at.extend(cx.name_at.into_iter().map(|(f, at)| (idx, f, at)));
            self.base_at.extend(base_at.into_iter().map(|(b, at)| (idx, b, at)));
            return idx;
        }
        let idx = self.push_class(data, at);
        self.base_at.extend(base_at.into_iter().map(|(b, at)| (idx, b, at)));
        idx
    }

    fn enumeration(&mut self, node: &SyntaxNode, access: Access) -> u32 {
        let scoped = node.children_with_tokens().any(|t| matches!(t.kind(), K::CLASS_KW | K::STRUCT_KW));
        let name_node = node.children().find(|c| c.kind() == K::NAME);
        let at = name_node.as_ref().map_or(node.text_range().start(), |n| n.text_range().start());
        let name = name_node.and_then(|n| su::name_text(&n));
        let base = su::child(node, K::ENUM_BASE).map(|b| match su::child(&b, K::TYPE_ID) {
            Some(t) => self.type_id(&t),
            None => match su::child(&b, K::DECL_SPECIFIERS) {
                Some(s) => self.specifier_type(&s),
                None => TypeRef::Opaque(b.text().to_string()),
            },
        });
        let list = su::child(node, K::ENUMERATOR_LIST);
        let enumerators = list.as_ref().map(|l| self.enumerators(l)).unwrap_or_default();
        let packed = node.children().filter(|c| c.kind() == K::GNU_ATTRIBUTE).any(|a| self.attrs_of(&a).packed);
        self.push_enum(EnumData { name, scoped, base, enumerators, is_definition: list.is_some(), packed, access }, at)
    }

    /// The enumerators of an `ENUMERATOR_LIST`, with their written values.
    fn enumerators(&mut self, list: &SyntaxNode) -> Vec<(String, Option<ConstExpr>)> {
        let mut out = Vec::new();
        for e in list.children().filter(|c| c.kind() == K::ENUMERATOR) {
            let Some(n) = e.children().find(|c| c.kind() == K::NAME).and_then(|n| su::name_text(&n)) else {
                continue;
            };
            let v = su::child(&e, K::EQUAL_INITIALIZER)
                .and_then(|i| i.children().find(|c| su::is_expr(c.kind())))
                .or_else(|| e.children().find(|c| su::is_expr(c.kind())))
                .map(|x| lower_expr(&x, self));
            out.push((n, v));
        }
        out
    }

    /// GNU attributes, `alignas` and `[[…]]` attributes of a node.
    fn attrs_of(&mut self, node: &SyntaxNode) -> Attrs {
        let mut a = Attrs::default();
        match node.kind() {
            K::ALIGNAS_SPECIFIER => {
                if let Some(t) = su::child(node, K::TYPE_ID) {
                    a.alignas.push(AlignasArg::Type(self.type_id(&t)));
                } else if let Some(e) = node.children().find(|c| su::is_expr(c.kind())) {
                    a.alignas.push(AlignasArg::Expr(lower_expr(&e, self)));
                }
            }
            K::GNU_ATTRIBUTE | K::ATTRIBUTE_LIST => {
                for at in node.children().filter(|c| c.kind() == K::ATTRIBUTE) {
                    let Some(name) = su::tokens(&at).find(|t| t.kind() == K::IDENT || t.kind().is_keyword()) else {
                        continue;
                    };
                    let name = name.text().trim_matches('_').to_string();
                    let args = su::child(&at, K::ATTRIBUTE_ARGS);
                    let arg = args.as_ref().map(|a| token_expr(a, self));
                    match name.as_str() {
                        "packed" => a.packed = true,
                        "aligned" => a.aligned.push(arg),
                        "vector_size" => a.vector_size = arg,
                        "no_unique_address" => a.no_unique_address = true,
                        "device_builtin" => a.device_builtin = true,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        a
    }

    /// Attributes inside a declarator (not inside its parameters or bounds).
    fn declarator_attrs(&mut self, init: &SyntaxNode) -> Attrs {
        let mut a = Attrs::default();
        let mut stack = vec![init.clone()];
        while let Some(n) = stack.pop() {
            for c in n.children() {
                match c.kind() {
                    K::GNU_ATTRIBUTE | K::ALIGNAS_SPECIFIER | K::ATTRIBUTE_LIST => a.merge(self.attrs_of(&c)),
                    K::DECLARATOR | K::PAREN_DECLARATOR | K::PTR_OPERATOR => stack.push(c),
                    _ => {}
                }
            }
        }
        a
    }

    fn type_id(&mut self, t: &SyntaxNode) -> TypeRef {
        let base = match su::child(t, K::DECL_SPECIFIERS) {
            Some(s) => self.specifier_type(&s),
            None => TypeRef::Opaque(t.text().to_string()),
        };
        match su::child(t, K::ABSTRACT_DECLARATOR) {
            Some(d) => self.declarator_type(base, &d),
            None => base,
        }
    }

    /// The type the decl-specifiers spell (classes and enums they define are
    /// handled by the caller).
    fn specifier_type(&mut self, specs: &SyntaxNode) -> TypeRef {
        let mut cv = Cv::default();
        let mut words: Vec<K> = Vec::new();
        let mut named: Option<TypeRef> = None;
        let mut complex = false;
        for e in specs.children_with_tokens() {
            match e {
                rowan::NodeOrToken::Token(t) => match t.kind() {
                    K::CONST_KW | K::CONST2_KW | K::CONST3_KW => cv.c = true,
                    K::VOLATILE_KW | K::VOLATILE2_KW | K::VOLATILE3_KW => cv.v = true,
                    K::COMPLEX_KW | K::COMPLEX2_KW => complex = true,
                    k if k.is_keyword() => words.push(k),
                    _ => {}
                },
                rowan::NodeOrToken::Node(n) => match n.kind() {
                    K::SIMPLE_TYPE_SPECIFIER => {
                        if let Some(d) = su::child(&n, K::DECLTYPE_SPECIFIER) {
                            named = Some(decltype_ref(&d));
                        } else if n.children().next().is_none() {
                            words.extend(su::tokens(&n).map(|t| t.kind()).filter(|k| k.is_keyword()));
                        } else {
                            named = Some(match su::path_of(&n) {
                                Some(p) => TypeRef::Path(p),
                                None => TypeRef::Opaque(n.text().to_string()),
                            });
                        }
                    }
                    K::DECLTYPE_SPECIFIER => named = Some(decltype_ref(&n)),
                    K::ELABORATED_TYPE_SPECIFIER => {
                        named = Some(match su::path_of(&n) {
                            Some(p) => TypeRef::Path(p),
                            None => TypeRef::Opaque(n.text().to_string()),
                        })
                    }
                    K::TYPENAME_SPECIFIER => {
                        named = Some(match su::path_in(&n) {
                            Some(p) => TypeRef::Path(p),
                            None => TypeRef::Opaque(n.text().to_string()),
                        })
                    }
                    K::TYPEOF_SPECIFIER | K::ATOMIC_SPECIFIER => named = Some(TypeRef::Opaque(n.text().to_string())),
                    // `struct G {…} g;` in a body: the class by its name
                    // (`local_classes` makes it an item of its own).
                    K::CLASS_SPECIFIER => {
                        let head = su::child(&n, K::CLASS_HEAD).unwrap_or_else(|| n.clone());
                        if let Some(p) = head.children().find(|c| c.kind() == K::NAME).and_then(|c| su::name_text(&c)) {
                            named = Some(TypeRef::Path(Path::single(&p)));
                        }
                    }
                    _ => {}
                },
            }
        }
        let mut ty = match named {
            Some(t) => t,
            None => match builtin(&words) {
                Some(b) => TypeRef::Builtin(b),
                None if complex => TypeRef::Builtin(Builtin::Double),
                None => TypeRef::Opaque(if words.contains(&K::AUTO_KW) { "auto".into() } else { "<no type>".into() }),
            },
        };
        // `Arithmetic auto`: a placeholder with a type-constraint (the
        // parser keeps `auto` inside the concept's type specifier).
        let constrained_auto = specs.children().any(|n| {
            n.kind() == K::SIMPLE_TYPE_SPECIFIER
                && n.children().next().is_some()
                && n.children_with_tokens().any(|t| t.kind() == K::AUTO_KW)
        });
        if matches!(ty, TypeRef::Path(_)) && constrained_auto {
            ty = TypeRef::Opaque("auto".into());
        }
        if complex {
            ty = TypeRef::Complex(Box::new(ty));
        }
        with_cv(ty, cv)
    }

    /// Applies a declarator (or abstract declarator) to `base`.
    fn declarator_type(&mut self, base: TypeRef, d: &SyntaxNode) -> TypeRef {
        self.declarator_type_within(base, d, 0)
    }

    /// `declarator_type` for a declarator inside others that applied `ops`
    /// operators already. A `TypeRef` is walked recursively (clone, drop,
    /// hash, lowering), so a declarator with more than `MAX_DECLARATOR_OPS`
    /// operators (`int` and 100,000 `*`) gives an unreadable type instead.
    fn declarator_type_within(&mut self, base: TypeRef, d: &SyntaxNode, mut ops: usize) -> TypeRef {
        let too_deep = || TypeRef::Opaque("declarator nested too deeply".into());
        let mut ty = base;
        let mut suffixes = Vec::new();
        let mut inner = None;
        for c in d.children() {
            match c.kind() {
                K::PTR_OPERATOR => {
                    ops += 1;
                    if ops > MAX_DECLARATOR_OPS {
                        return too_deep();
                    }
                    ty = self.ptr(ty, &c)
                }
                K::ARRAY_DECLARATOR | K::FUNCTION_DECLARATOR => suffixes.push(c),
                K::PAREN_DECLARATOR => {
                    inner = c.children().find(|x| matches!(x.kind(), K::DECLARATOR | K::ABSTRACT_DECLARATOR))
                }
                K::ABSTRACT_DECLARATOR | K::DECLARATOR => inner = Some(c),
                _ => {}
            }
        }
        ops += suffixes.len();
        if ops > MAX_DECLARATOR_OPS {
            return too_deep();
        }
        for s in suffixes.iter().rev() {
            ty = match s.kind() {
                K::ARRAY_DECLARATOR => {
                    let bound = s.children().find(|c| su::is_expr(c.kind())).map(|e| Box::new(lower_expr(&e, self)));
                    TypeRef::Array(Box::new(ty), bound)
                }
                _ => TypeRef::Func(Box::new(self.function(ty, s))),
            };
        }
        match inner {
            Some(i) => self.declarator_type_within(ty, &i, ops),
            None => ty,
        }
    }

    fn ptr(&mut self, ty: TypeRef, p: &SyntaxNode) -> TypeRef {
        let mut cv = Cv::default();
        let mut kind = K::STAR;
        let mut class: Option<Path> = None;
        for e in p.children_with_tokens() {
            match e.kind() {
                K::STAR | K::AMP | K::AMP2 => kind = e.kind(),
                K::CONST_KW | K::CONST2_KW | K::CONST3_KW => cv.c = true,
                K::VOLATILE_KW | K::VOLATILE2_KW | K::VOLATILE3_KW => cv.v = true,
                K::RESTRICT_KW | K::RESTRICT2_KW | K::RESTRICT3_KW => cv.r = true,
                K::QUALIFIED_NAME | K::NESTED_NAME_SPECIFIER | K::NAME_REF | K::TEMPLATE_ID => {
                    class = e.as_node().and_then(su::path_of)
                }
                K::IDENT => class = e.as_token().map(|t| Path::single(t.text())),
                _ => {}
            }
        }
        let t = match (kind, class) {
            (K::STAR, Some(c)) => TypeRef::MemPtr(c, Box::new(ty)),
            (K::STAR, None) => TypeRef::Ptr(Box::new(ty)),
            (K::AMP, _) => TypeRef::LRef(Box::new(ty)),
            _ => TypeRef::RRef(Box::new(ty)),
        };
        with_cv(t, cv)
    }

    fn function(&mut self, ret: TypeRef, f: &SyntaxNode) -> FnRef {
        let mut params = Vec::new();
        let mut pack_params = Vec::new();
        for p in su::function_params_of(f) {
            if is_pack_param(&p) {
                pack_params.push(params.len() as u32);
            }
            let base = match su::child(&p, K::DECL_SPECIFIERS) {
                Some(s) => self.specifier_type(&s),
                None => TypeRef::Opaque(p.text().to_string()),
            };
            let t = match p.children().find(|c| matches!(c.kind(), K::DECLARATOR | K::ABSTRACT_DECLARATOR)) {
                Some(d) => self.declarator_type(base, &d),
                None => base,
            };
            params.push(t);
        }
        if params.len() == 1 && params[0] == TypeRef::Builtin(Builtin::Void) {
            params.clear();
        }
        params.shrink_to_fit();
        let variadic =
            su::child(f, K::PARAM_LIST).is_some_and(|l| l.children_with_tokens().any(|t| t.kind() == K::DOT3));
        let mut r = FnRef { ret, params, variadic, noexcept: false, cv: Cv::default(), ref_qual: 0, pack_params };
        for e in f.children_with_tokens() {
            match e.kind() {
                K::CONST_KW => r.cv.c = true,
                K::VOLATILE_KW => r.cv.v = true,
                K::REF_QUALIFIER => {
                    r.ref_qual =
                        if e.as_node().is_some_and(|n| su::tokens(n).any(|t| t.kind() == K::AMP2)) { 2 } else { 1 }
                }
                K::NOEXCEPT_SPEC => {
                    let t: String =
                        e.as_node().map(|n| su::tokens(n).map(|t| t.text().to_string()).collect()).unwrap_or_default();
                    r.noexcept = t == "noexcept" || t == "noexcept(true)";
                }
                K::TRAILING_RETURN_TYPE => {
                    if let Some(t) = e.as_node().and_then(|n| su::child(n, K::TYPE_ID)) {
                        r.ret = self.type_id(&t);
                    }
                }
                _ => {}
            }
        }
        r
    }
}

fn empty_class(name: Option<String>, key: ClassKey, access: Access, pack: Option<u32>) -> ClassData {
    ClassData {
        name,
        typedef_name: None,
        key,
        qualifier: None,
        template: TemplateKind::None,
        is_definition: false,
        anonymous_member: false,
        access,
        bases: Vec::new(),
        fields: Vec::new(),
        items: Vec::new(),
        attrs: Attrs::default(),
        pack,
        has_virtual_fn: false,
        has_friends: false,
        user_ctor: false,
        user_copy_assign: false,
        user_dtor: false,
        tparams: None,
        spec_args: None,
        is_final: false,
        elaborated: false,
        constraints: Vec::new(),
        friend_decls: Vec::new(),
    }
}

/// The qualifier of a declarator's name (`S::x` → `S`) and the offset of the name.
fn declarator_qualifier(d: &SyntaxNode) -> (Option<Path>, u32) {
    let inner = su::innermost(d);
    match inner.children().find(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME)) {
        Some(n) => {
            let at = u32::from(n.text_range().start());
            if n.kind() == K::QUALIFIED_NAME {
                let mut p = su::path_of(&n).unwrap_or_default();
                p.segments.pop();
                (Some(p), at)
            } else {
                (None, at)
            }
        }
        None => (None, u32::from(d.text_range().start())),
    }
}

/// Whether a parameter declares a pack expansion (`Ts... xs`, `Ts&&...`).
fn is_pack_param(p: &SyntaxNode) -> bool {
    fn dot3_in(d: &rowan::GreenNodeData) -> bool {
        d.children().any(|e| match e {
            rowan::NodeOrToken::Token(t) => green::token_kind(t) == K::DOT3,
            rowan::NodeOrToken::Node(n) => {
                matches!(
                    green::node_kind(n),
                    K::DECLARATOR | K::ABSTRACT_DECLARATOR | K::PAREN_DECLARATOR | K::PTR_OPERATOR
                ) && dot3_in(n)
            }
        })
    }
    green::child_nodes(&p.green())
        .any(|c| matches!(green::node_kind(c), K::DECLARATOR | K::ABSTRACT_DECLARATOR) && dot3_in(c))
}

fn with_cv(t: TypeRef, cv: Cv) -> TypeRef {
    if cv.is_empty() {
        return t;
    }
    match t {
        TypeRef::Cv(inner, cv0) => TypeRef::Cv(inner, cv0.union(cv)),
        t => TypeRef::Cv(Box::new(t), cv),
    }
}

/// The strings of the `abi_tag` attributes (GNU or standard spelling)
/// written directly on a declaration.
fn abi_tags(node: &SyntaxNode) -> Vec<String> {
    let mut out = Vec::new();
    for attr in node.children().filter(|c| matches!(c.kind(), K::GNU_ATTRIBUTE | K::ATTRIBUTE_LIST)) {
        for a in attr.descendants().filter(|d| d.kind() == K::ATTRIBUTE) {
            let named = a.children_with_tokens().filter_map(|t| t.into_token()).filter(|t| t.kind() == K::IDENT).last();
            if !named.is_some_and(|t| matches!(t.text().trim_matches('_'), "abi_tag")) {
                continue;
            }
            for t in a.descendants_with_tokens().filter_map(|t| t.into_token()).filter(|t| t.kind() == K::STRING) {
                let v = t.text().trim_matches('"').to_string();
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

pub(crate) fn decltype_ref(n: &SyntaxNode) -> TypeRef {
    let text: String = su::tokens(n).map(|t| t.text().to_string()).collect();
    // `__decltype` is GNU's spelling of `decltype` (libstdc++'s C++98-clean
    // headers: `__decltype(__iter_comp_val(…)) __cmp(…)` in `__adjust_heap`).
    let text = match text.strip_prefix("__decltype") {
        Some(rest) => format!("decltype{rest}"),
        None => text,
    };
    if text == "decltype(nullptr)" { TypeRef::Builtin(Builtin::NullPtr) } else { TypeRef::Opaque(text) }
}

/// The builtin type a list of type keywords spells.
pub(crate) fn builtin(words: &[K]) -> Option<Builtin> {
    use Builtin::*;
    let has = |k: K| words.contains(&k);
    let unsigned = has(K::UNSIGNED_KW);
    let signed = has(K::SIGNED_KW) || has(K::SIGNED2_KW) || has(K::SIGNED3_KW);
    let longs = words.iter().filter(|w| **w == K::LONG_KW).count();
    Some(if has(K::VOID_KW) {
        Void
    } else if has(K::BOOL_KW) || has(K::BOOL_C_KW) {
        Bool
    } else if has(K::CHAR_KW) {
        if unsigned {
            UChar
        } else if signed {
            SChar
        } else {
            Char
        }
    } else if has(K::WCHAR_T_KW) {
        WChar
    } else if has(K::CHAR8_T_KW) {
        Char8
    } else if has(K::CHAR16_T_KW) {
        Char16
    } else if has(K::CHAR32_T_KW) {
        Char32
    } else if has(K::FLOAT_KW) {
        Float
    } else if has(K::DOUBLE_KW) {
        if longs > 0 { LongDouble } else { Double }
    } else if has(K::FLOAT128_GNU_KW) || has(K::FLOAT128_KW) {
        Float128
    } else if has(K::FLOAT80_KW) || has(K::FLOAT64X_KW) {
        Float64x
    } else if has(K::FLOAT16_KW) || has(K::FP16_KW) {
        Float16
    } else if has(K::BF16_KW) {
        BF16
    } else if has(K::FLOAT32_KW) {
        Float32
    } else if has(K::FLOAT64_KW) {
        Float64
    } else if has(K::FLOAT32X_KW) {
        Float32x
    } else if has(K::INT128_KW) {
        if unsigned { UInt128 } else { Int128 }
    } else if has(K::SHORT_KW) {
        if unsigned { UShort } else { Short }
    } else if longs >= 2 {
        if unsigned { ULongLong } else { LongLong }
    } else if longs == 1 {
        if unsigned { ULong } else { Long }
    } else if unsigned {
        UInt
    } else if signed || has(K::INT_KW) {
        Int
    } else {
        return None;
    })
}

/// Lowers an expression node to a constant expression.
fn lower_expr(e: &SyntaxNode, cx: &mut Lower) -> ConstExpr {
    crate::syntax_util::lower_const_expr(e, &mut |t| cx.type_id(t))
}

/// Lowers the raw tokens of attribute arguments (`(2*sizeof(long))`).
fn token_expr(args: &SyntaxNode, cx: &mut Lower) -> ConstExpr {
    let toks: Vec<SyntaxToken> = su::tokens(args).collect();
    // Drop the outer parentheses.
    let inner = if toks.len() >= 2 && toks[0].kind() == K::L_PAREN && toks[toks.len() - 1].kind() == K::R_PAREN {
        &toks[1..toks.len() - 1]
    } else {
        &toks[..]
    };
    let _ = cx;
    crate::syntax_util::token_const_expr(inner)
}

impl Lower {
    /// A template parameter list.
    fn template_params(&mut self, list: &SyntaxNode) -> Vec<TemplateParam> {
        let mut out = Vec::new();
        for p in list.children() {
            // `class... Ts`, `int... Ns`, and the unnamed `size_t...`
            // (libcu++'s `template <size_t...> struct __tuple_indices`),
            // whose `...` is an abstract declarator.
            let g = p.green();
            let has_dot3 = |n: &rowan::GreenNodeData| {
                n.children().any(|t| t.as_token().is_some_and(|t| green::token_kind(t) == K::DOT3))
            };
            let pack = has_dot3(&g)
                || green::child_nodes(&g)
                    .filter(|c| matches!(green::node_kind(c), K::DECLARATOR | K::ABSTRACT_DECLARATOR))
                    .any(has_dot3);
            let eq = su::child(&p, K::EQUAL_INITIALIZER);
            let name = p.children().find(|c| c.kind() == K::NAME).and_then(|n| su::name_text(&n));
            let param = match p.kind() {
                K::TYPE_TEMPLATE_PARAM => {
                    let default = eq.as_ref().and_then(|e| {
                        e.children().find(|c| c.kind() == K::TYPE_ID).map(|t| TemplateArgRef::Type(self.type_id(&t)))
                    });
                    TemplateParam { name, kind: TemplateParamKind::Type, pack, default }
                }
                K::TEMPLATE_TEMPLATE_PARAM => {
                    let default = eq.as_ref().and_then(|e| {
                        e.children()
                            .find(|c| matches!(c.kind(), K::NAME_REF | K::QUALIFIED_NAME | K::ID_EXPR | K::TYPE_ID))
                            .and_then(|n| su::path_of(&n))
                            .map(|p| TemplateArgRef::Type(TypeRef::Path(p)))
                    });
                    TemplateParam { name, kind: TemplateParamKind::Template, pack, default }
                }
                K::PARAM => {
                    let base = match su::child(&p, K::DECL_SPECIFIERS) {
                        Some(s) => self.specifier_type(&s),
                        None => TypeRef::Opaque(p.text().to_string()),
                    };
                    let d = su::child(&p, K::DECLARATOR).or_else(|| su::child(&p, K::ABSTRACT_DECLARATOR));
                    let ty = match &d {
                        Some(d) => self.declarator_type(base, d),
                        None => base,
                    };
                    let name = d.as_ref().and_then(su::declarator_name);
                    let default = eq
                        .as_ref()
                        .and_then(|e| e.children().find(|c| su::is_expr(c.kind())))
                        .map(|x| TemplateArgRef::Expr(lower_expr(&x, self)));
                    TemplateParam { name, kind: TemplateParamKind::Value(ty), pack, default }
                }
                _ => continue,
            };
            out.push(param);
        }
        out.shrink_to_fit();
        out
    }
}

/// The constraints a template head states: its type-constraints
/// (`template<C T>` is `C<T>`, `template<C<U> T>` is `C<T, U>`; packs are
/// left out) and its requires-clause, in that order.
fn head_constraints(template: &SyntaxNode, cx: &mut Lower) -> Vec<ConstExpr> {
    let mut out = Vec::new();
    if let Some(list) = su::child(template, K::TEMPLATE_PARAM_LIST) {
        for p in list.children().filter(|p| p.kind() == K::TYPE_TEMPLATE_PARAM) {
            let Some(first) = p.children_with_tokens().find(|t| !t.kind().is_trivia()) else { continue };
            let Some(c) =
                first.into_node().filter(|n| matches!(n.kind(), K::NAME_REF | K::QUALIFIED_NAME | K::TEMPLATE_ID))
            else {
                continue;
            };
            let pack = p.children_with_tokens().any(|t| t.kind() == K::DOT3);
            let name = p.children().find(|c| c.kind() == K::NAME).and_then(|n| su::name_text(&n));
            let (Some(mut path), Some(name), false) = (su::path_of(&c), name, pack) else { continue };
            let Some(last) = path.segments.last_mut() else { continue };
            let mut args = vec![TemplateArgRef::Type(TypeRef::Path(Path::single(&name)))];
            args.extend(last.args.take().unwrap_or_default());
            last.args = Some(args);
            out.push(ConstExpr::Path(path));
        }
    }
    if let Some(e) = su::child(template, K::REQUIRES_CLAUSE).and_then(|r| r.children().find(|c| su::is_expr(c.kind())))
    {
        out.push(lower_expr(&e, cx));
    }
    out
}

/// The expression of a function declarator's trailing requires-clause.
/// The operand of the function declarator's `noexcept(expr)`, unless it is
/// a literal (`noexcept(true)` is in the type already).
fn noexcept_operand(d: &SyntaxNode) -> Option<SyntaxNode> {
    let f = d.descendants().find(|n| n.kind() == K::FUNCTION_DECLARATOR)?;
    let spec = f.children().find(|c| c.kind() == K::NOEXCEPT_SPEC)?;
    spec.children().find(|c| su::is_expr(c.kind()) && !matches!(c.text().to_string().trim(), "true" | "false"))
}

fn trailing_requires(d: &SyntaxNode) -> Option<SyntaxNode> {
    let f = d.descendants().find(|n| n.kind() == K::FUNCTION_DECLARATOR)?;
    let r = f.children().find(|c| c.kind() == K::REQUIRES_CLAUSE)?;
    r.children().find(|c| su::is_expr(c.kind()))
}

/// The arguments of a `TEMPLATE_ARG_LIST`.
/// The template arguments of a declarator's name (`v<T, T>` of a variable
/// template partial specialization), none elsewhere in the declarator.
fn declarator_template_args(decl: &SyntaxNode) -> Option<Vec<TemplateArgRef>> {
    su::child(&declarator_template_id(decl)?, K::TEMPLATE_ARG_LIST).map(|l| template_args(&l))
}

fn declarator_template_id(decl: &SyntaxNode) -> Option<SyntaxNode> {
    decl.descendants().find(|n| {
        n.kind() == K::TEMPLATE_ID
            && n.ancestors().take_while(|a| a != decl).all(|a| {
                !matches!(a.kind(), K::TEMPLATE_ARG_LIST | K::PARAM_LIST | K::FUNCTION_DECLARATOR)
                    && !su::is_expr(a.kind())
            })
    })
}

pub(crate) fn template_args(list: &SyntaxNode) -> Vec<TemplateArgRef> {
    let mut cx = Lower::new(Pack::default());
    let mut out = Vec::new();
    for a in list.children().filter(|c| c.kind() == K::TEMPLATE_ARG) {
        let arg = if let Some(t) = su::child(&a, K::TYPE_ID) {
            TemplateArgRef::Type(cx.type_id(&t))
        } else if let Some(e) = a.children().find(|c| su::is_expr(c.kind())) {
            TemplateArgRef::Expr(lower_expr(&e, &mut cx))
        } else {
            TemplateArgRef::Expr(ConstExpr::Unsupported(a.text().to_string()))
        };
        // `Ts...`, and `Ts*...` where the `...` ends the type-id's declarator.
        let green = a.green();
        let expansion = green.children().any(|t| t.as_token().is_some_and(|t| green::token_kind(t) == K::DOT3))
            || green::last_significant(&green).is_some_and(|t| green::token_kind(t) == K::DOT3);
        out.push(if expansion { TemplateArgRef::Expansion(Box::new(arg)) } else { arg });
    }
    out.shrink_to_fit();
    out
}

/// The enumerators an unscoped enumeration defined in a function body
/// brings into its block (`enum { BLOCK_THREADS = Policy::BLOCK_THREADS, … };`
/// in CUB's kernels; `body.rs`), with their written values; empty for a
/// scoped one or a declaration without a list.
pub fn block_enumerators(specifier: &SyntaxNode) -> Vec<(String, Option<ConstExpr>)> {
    let scoped = specifier.children_with_tokens().any(|t| matches!(t.kind(), K::CLASS_KW | K::STRUCT_KW));
    match su::child(specifier, K::ENUMERATOR_LIST) {
        Some(list) if !scoped => Lower::new(Pack::default()).enumerators(&list),
        _ => Vec::new(),
    }
}

/// A `TYPE_ID` node as a `TypeRef` (types written in function bodies: casts,
/// `new`, `sizeof`; `body.rs`).
pub fn type_id_ref(t: &SyntaxNode) -> TypeRef {
    let mut cx = Lower::new(Pack::default());
    cx.type_id(t)
}

/// The type a declarator (or abstract declarator) declares with these
/// decl-specifiers (locals and parameters in bodies; `body.rs`).
pub fn declared_type(specs: Option<&SyntaxNode>, d: Option<&SyntaxNode>) -> TypeRef {
    let mut cx = Lower::new(Pack::default());
    let base = match specs {
        Some(s) => cx.specifier_type(s),
        None => TypeRef::Opaque(String::new()),
    };
    match d {
        Some(d) => cx.declarator_type(base, d),
        None => base,
    }
}

/// `auto twice(Arithmetic auto x)`: an abbreviated function template
/// ([dcl.fct]/22). Each placeholder of a parameter type (under pointers,
/// references, cv) invents a type parameter after the `first` declared ones,
/// named `auto:N` as g++ names them; the parameter then names it.
fn invent_auto_params(params: &mut [TypeRef], first: usize) -> Vec<TemplateParam> {
    fn invent(t: &mut TypeRef, out: &mut Vec<TemplateParam>, first: usize) {
        match t {
            TypeRef::Opaque(s) if s == "auto" => {
                let name = format!("auto:{}", first + out.len() + 1);
                *t = TypeRef::Path(Path::single(&name));
                out.push(TemplateParam { name: Some(name), kind: TemplateParamKind::Type, pack: false, default: None });
            }
            TypeRef::Ptr(x) | TypeRef::LRef(x) | TypeRef::RRef(x) | TypeRef::Cv(x, _) => invent(x, out, first),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for p in params {
        invent(p, &mut out, first);
    }
    out
}

/// Whether declaration specifiers hold `explicit` not followed by `(`.
fn plain_explicit(specs: &SyntaxNode) -> bool {
    let mut toks = specs.children_with_tokens().filter(|t| !t.kind().is_trivia());
    while let Some(t) = toks.next() {
        if t.kind() == K::EXPLICIT_KW {
            return toks.next().is_none_or(|n| n.kind() != K::L_PAREN);
        }
    }
    false
}
