//! The demangled tree: what an entity is, in the terms the Itanium grammar
//! needs. Everything is plain data; equal subtrees mean the same entity or
//! type (substitutions rely on it).

use crate::ops::Op;

/// The builtin types, with their Itanium codes ([`Builtin::code`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Void,
    WChar,
    Bool,
    Char,
    SChar,
    UChar,
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
    /// GNU `__float128`.
    Float128,
    /// `_Float16`.
    Float16,
    /// `__bf16` / `std::bfloat16_t`.
    BFloat16,
    /// `_Float32`, `_Float64`, `_Float128` (ISO/IEC TS 18661), and the `x` forms.
    Float32,
    Float64,
    FloatN128,
    Float32x,
    Float64x,
    Char8,
    Char16,
    Char32,
    NullPtr,
    /// `auto` (a deduced return type in a template's signature).
    Auto,
    /// `decltype(auto)`.
    DecltypeAuto,
}

impl Builtin {
    pub fn code(self) -> &'static str {
        use Builtin::*;
        match self {
            Void => "v",
            WChar => "w",
            Bool => "b",
            Char => "c",
            SChar => "a",
            UChar => "h",
            Short => "s",
            UShort => "t",
            Int => "i",
            UInt => "j",
            Long => "l",
            ULong => "m",
            LongLong => "x",
            ULongLong => "y",
            Int128 => "n",
            UInt128 => "o",
            Float => "f",
            Double => "d",
            LongDouble => "e",
            Float128 => "g",
            Float16 => "DF16_",
            BFloat16 => "DF16b",
            Float32 => "DF32_",
            Float64 => "DF64_",
            FloatN128 => "DF128_",
            Float32x => "DF32x",
            Float64x => "DF64x",
            Char8 => "Du",
            Char16 => "Ds",
            Char32 => "Di",
            NullPtr => "Dn",
            Auto => "Da",
            DecltypeAuto => "Dc",
        }
    }
}

/// cv-qualifiers (and `restrict`), in Itanium order `r V K`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Quals {
    pub restrict: bool,
    pub volatile: bool,
    pub konst: bool,
}

impl Quals {
    pub const NONE: Quals = Quals { restrict: false, volatile: false, konst: false };
    pub const CONST: Quals = Quals { restrict: false, volatile: false, konst: true };
    pub fn is_empty(self) -> bool {
        !(self.restrict || self.volatile || self.konst)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RefQual {
    #[default]
    None,
    /// `&`
    LValue,
    /// `&&`
    RValue,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExceptionSpec {
    #[default]
    None,
    /// `noexcept` / `noexcept(true)`: `Do`.
    Noexcept,
    /// `noexcept(expr)` with a dependent expression: `DO <expr> E`.
    Computed(Box<Expr>),
}

/// A function type. `quals`/`ref_qual` are those of a member function
/// (`void f() const &`); in an entity's encoding they go into the nested
/// name (`NK…E`), in a type they go in front of `F` / before `E`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnType {
    pub ret: Type,
    /// Adjusted parameter types (arrays and functions decayed, top-level cv gone).
    pub params: Vec<Type>,
    pub variadic: bool,
    pub quals: Quals,
    pub ref_qual: RefQual,
    pub exception: ExceptionSpec,
}

/// A reference to a template parameter, by its index in its (innermost)
/// template parameter list: `T_` (0), `T0_` (1), …
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TParam(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArrayBound {
    /// `[]`
    Unknown,
    Known(u128),
    /// A dependent bound (`T_`, an expression).
    Expr(Box<Expr>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Builtin(Builtin),
    /// A vendor extended type: `u <source-name>`.
    Vendor(String),
    /// A class, enum or dependent type, by name.
    Named(Name),
    Qualified(Quals, Box<Type>),
    Ptr(Box<Type>),
    LRef(Box<Type>),
    RRef(Box<Type>),
    Array(ArrayBound, Box<Type>),
    Func(Box<FnType>),
    /// Pointer to member: class, member type.
    MemPtr(Box<Type>, Box<Type>),
    Param(TParam),
    /// A template template parameter applied to arguments: `T_IicE`.
    ParamApp(TParam, Vec<TArg>),
    /// `T...` in a function parameter list or template argument list: `Dp`.
    PackExpansion(Box<Type>),
    /// `decltype(expr)`: `Dt` for an id-expression or member access, else `DT`.
    Decltype(Box<Expr>),
}

/// Where a name starts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Root {
    /// The global namespace (`std` as the first component becomes `St`).
    #[default]
    Global,
    /// Inside a function: `Z <encoding> E <entity> [<discriminator>]`.
    /// `disc` is the index of the entity among same-named local entities
    /// of the function (0 = the first, no discriminator).
    Local { func: Box<Encoding>, disc: u32 },
    /// A dependent name `T::x`.
    Param(TParam),
    /// `decltype(e)::x`.
    Decltype(Box<Expr>),
}

/// An unqualified name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unqualified {
    /// An identifier: namespace, class, function, variable.
    Source(String),
    /// An anonymous namespace: g++'s `_GLOBAL__N_1` (`None`) or EDG's
    /// device-side `_GLOBAL__N_<mid>` (spec 50 §8.4).
    AnonNamespace(Option<String>),
    /// `L <source-name>`: g++'s marker for an internal-linkage entity on the
    /// host side (`_ZL2sfi`, `_ZN1NL2svE`); EDG's device side uses
    /// [`Unqualified::Internal`] instead (spec 50 §8.4).
    StaticSource(String),
    /// `[L] <source-name> M`: the Itanium `<data-member-prefix>`, the
    /// variable whose initializer a closure type is defined in
    /// (`_ZNK4lam3MUliE_clEi`); `true`: internal (`L`, a `static` variable).
    DataMember(String, bool),
    /// cicc's `_INTERNAL<mid>` component for internal-linkage device
    /// entities (spec 50 §8.4).
    Internal(String),
    Ctor(CtorKind),
    /// An inheriting constructor (`using B::B;`): `CI1 <base type>`, the
    /// base class it inherits from.
    InheritingCtor(CtorKind, Box<Type>),
    Dtor(DtorKind),
    Operator(Op),
    /// `operator T`: `cv <type>`.
    Conversion(Box<Type>),
    /// `operator"" _x`: `li <source-name>`.
    Literal(String),
    /// A vendor operator: `v <arity> <source-name>`.
    VendorOp(u8, String),
    /// A closure type: `Ul <params> E [<n>] _`. `index` counts closures
    /// with the same signature in the same context from 0 (EDG's rule,
    /// spec 50 §8.2; see [`crate::build::lambda_indices`]).
    Lambda {
        params: Vec<Type>,
        variadic: bool,
        index: u32,
    },
    /// An unnamed class or enum without a typedef name: `Ut [<n>] _`.
    Unnamed(u32),
    /// An extended lambda's closure type as cicc names it in the stub
    /// file's function names (`Unvdl…`, `Unvdtl…`, `Unvhdl…`): the parts of
    /// cudafe++'s wrapper type for it (spec 30 §5.2), not its signature.
    VendorLambda(Box<VendorLambda>),
}

/// The parts of [`Unqualified::VendorLambda`]. Written as
/// `Unvdl <captures>_ <fn_ptr> <func's name> <index>_ <captures…>` (no end marker);
/// `Unvdtl` puts the return type before the index; `Unvhdl` starts with
/// its three flags (`0_`/`1_`) and puts `<ret> <params…> E` after the index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VendorLambda {
    pub kind: VendorLambdaKind,
    /// The type of `&func` (`PFvPifE`, `MS0_KFvS1_E`).
    pub fn_ptr: Type,
    /// The enclosing function (only its name is written).
    pub func: Encoding,
    /// 1-based, among the function's extended lambdas.
    pub index: u32,
    pub captures: Vec<Type>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum VendorLambdaKind {
    /// A `__device__` lambda.
    Device,
    /// A `__device__` lambda with a trailing return type.
    Trailing(Type),
    /// A `__host__ __device__` lambda: `IsMutable`, `HasFuncPtrConv`,
    /// `NeverThrows` and the call operator's signature.
    HostDevice { mutable: bool, fptr_conv: bool, noexcept: bool, ret: Type, params: Vec<Type> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CtorKind {
    /// `C1`: complete object (what EDG names the entity by).
    Complete,
    /// `C2`
    Base,
    /// `C3`
    Allocating,
    /// `C4`: the unified constructor g++ names the entities local to a
    /// constructor by (`_ZZN1SC4EiE1k`, `ZN1SC4EiEUlvE_`).
    Unified,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DtorKind {
    /// `D0`
    Deleting,
    /// `D1`: complete object (what EDG names the entity by).
    Complete,
    /// `D2`
    Base,
    /// `D4`: the unified destructor (entities local to a destructor).
    Unified,
}

/// One component of a qualified name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Component {
    pub name: Unqualified,
    /// `[[gnu::abi_tag(...)]]` tags, in order: `B <source-name>` each.
    pub abi_tags: Vec<String>,
    /// Template arguments of a specialization (defaults filled in).
    pub args: Option<Vec<TArg>>,
}

/// A (possibly qualified) name: a root and at least one component.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Name {
    pub root: Root,
    pub comps: Vec<Component>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TArg {
    Type(Type),
    /// A literal value of integral, enumeration, pointer or member-pointer
    /// type (`Li3E`, `Lb1E`, `LPi0E`, `LDnE`).
    Literal(Literal),
    /// Any other expression (`X <expr> E`), e.g. `&x` (`XadL_Z1xEE`).
    Expr(Expr),
    /// A pack: `J <args> E`.
    Pack(Vec<TArg>),
    /// A template template argument: the template's name (no arguments).
    Template(Name),
}

/// A literal: its type and value (`n` for negative values). A null pointer
/// or member pointer is the value 0; `nullptr_t` values have no digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Literal {
    pub ty: Type,
    pub negative: bool,
    pub magnitude: u128,
}

/// The expressions that appear in signatures (`decltype`, dependent array
/// bounds and template arguments).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    Literal(Literal),
    /// The address or name of an entity: `L_Z <encoding> E`.
    Entity(Box<Encoding>),
    /// A function parameter: `fp_`, `fp0_`, `fL0p_`… `level` counts the
    /// function-prototype scopes between the reference and the parameter
    /// (0 = `fp`, n = `fL<n-1>p`). For a signature's own parameters EDG
    /// and g++ use level 1 inside the parameter list (spec 50 §8.2); g++
    /// uses level 0 in a trailing return type (checked by `tests/gxx.rs`).
    FnParam {
        level: u32,
        index: u32,
        quals: Quals,
    },
    /// A template parameter used as a value: `T_` (not a substitution candidate).
    TParam(TParam),
    Unary(Op, Box<Expr>),
    Binary(Op, Box<Expr>, Box<Expr>),
    /// `a ? b : c`: `qu`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `f(args)`: `cl <expr> <args> E`.
    Call(Box<Expr>, Vec<Expr>),
    /// `obj.name` (`dt`) or `obj->name` (`pt`).
    Member {
        arrow: bool,
        object: Box<Expr>,
        name: String,
        args: Option<Vec<TArg>>,
    },
    /// An unresolved unqualified name (a call's callee): `<source-name> [<template-args>]`.
    Id(String, Option<Vec<TArg>>),
    /// A callee named through namespaces (`::cuda::std::__4::forward<_T1>`):
    /// g++ writes only its name, as `Id`; EDG (cicc's device names,
    /// [`crate::mangle_edg`]) the qualifiers too, `[gs] sr <source-name>+ E
    /// <name>` (`gssr4cuda3std3__4E7forwardIT_E`), none a substitution
    /// candidate.
    NsId {
        global: bool,
        quals: Vec<String>,
        name: String,
        args: Option<Vec<TArg>>,
    },
    /// A variable template specialization named in a dependent expression
    /// (`is_convertible_v<T, U>`): g++ writes its unqualified name with the
    /// arguments (`16is_convertible_vIT_T0_E`); EDG (cicc's device names,
    /// [`crate::mangle_edg`]) the template itself as an entity, qualified
    /// and without arguments (`L_ZNS1_16is_convertible_vEE`).
    VarTemplateId {
        template: Name,
        args: Vec<TArg>,
    },
    /// `T::name` with a dependent `T`: `sr <type> <name>`.
    Scoped {
        ty: Box<Type>,
        name: String,
        args: Option<Vec<TArg>>,
    },
    SizeofType(Box<Type>),
    SizeofExpr(Box<Expr>),
    AlignofType(Box<Type>),
    AlignofExpr(Box<Expr>),
    /// `sizeof...(T)`: `sZ <template-param>`.
    SizeofPack(TParam),
    /// `e...` (a value pack expanded in a template argument list): `sp <expr>`.
    PackExpansion(Box<Expr>),
    /// `noexcept(e)`: `nx`.
    Noexcept(Box<Expr>),
    Cast(CastKind, Box<Type>, Vec<Expr>),
    /// `new T(args)`: `[gs] nw <placement> _ <type> [pi <args> E] E`.
    New {
        global: bool,
        array: bool,
        placement: Vec<Expr>,
        ty: Box<Type>,
        init: Option<Vec<Expr>>,
    },
    /// `T{args}` (also a class NTTP value): `tl <type> <args> E`.
    Braced(Box<Type>, Vec<Expr>),
    /// A fold expression: `fl`/`fr` (unary), `fL`/`fR` (binary, with `init`).
    Fold {
        right: bool,
        op: Op,
        pack: Box<Expr>,
        init: Option<Box<Expr>>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastKind {
    /// `(T)e` and `T(e)`: `cv`.
    Functional,
    Static,
    Dynamic,
    Reinterpret,
    Const,
}

/// What a mangled name names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// A function: its name and type. The return type is part of the
    /// mangling only for template specializations (not for constructors,
    /// destructors or conversion functions).
    Function(Box<Name>, Box<FnType>),
    /// A variable (or a static data member, a variable template specialization).
    Data(Name),
    Special(Box<Special>),
}

/// Special names (`_ZTV…`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    Vtable(Type),
    Vtt(Type),
    TypeInfo(Type),
    TypeInfoName(Type),
    /// Guard variable of a static local or template variable: `GV`.
    Guard(Name),
    /// Thread-local init / wrapper functions: `TH` / `TW`.
    TlsInit(Name),
    TlsWrapper(Name),
    /// The construction vtable of `base` in `complete`: EDG spells it
    /// `TV <base> __ <complete>` (g++ `TC…`, spec 50 §8.2).
    ConstructionVtable {
        complete: Type,
        base: Type,
    },
}
