//! cufront's device IL (DESIGN decision 6, `docs/device-il.md`): the kept
//! entities of a unit's device view as plain data — classes with their
//! layouts, variables with their memory space and initializer, functions
//! with their bodies as typed trees (calls resolved to the entities they
//! name, implicit conversions explicit, template instances substituted)
//! and kernels with their launch attributes.
//!
//! Invariants: plain data, no salsa ids (it is written to a file and read
//! back: `il_binary`); every expression carries its type and value
//! category; what the model could not lower is an `Unsupported` node or an
//! `Unknown` type saying why, never a guess. The text form below is for
//! people and snapshots; the binary form is the interchange format.

use std::fmt::{self, Write};

/// The IL's version: both forms carry it; a reader refuses another one.
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Module {
    /// The classes the other parts name (`Type::Class`), each once, in
    /// first-use order.
    pub classes: Vec<Class>,
    pub vars: Vec<Var>,
    pub funcs: Vec<Func>,
}

/// A class or union: its mangled type name (`6float4`), its C++ name, and
/// its layout when the model computed one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    pub mangled: String,
    pub name: String,
    pub layout: Option<ClassLayout>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassLayout {
    pub size: u64,
    pub align: u64,
    pub bases: Vec<Base>,
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Base {
    pub class: String,
    pub offset: u64,
    pub is_virtual: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// `None`: an anonymous member.
    pub name: Option<String>,
    pub ty: Type,
    pub offset_bits: u64,
    pub bit_width: Option<u64>,
}

/// The builtin types, LP64 (`long` is 64 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
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
    Half,
    BF16,
    Float,
    Double,
    LongDouble,
    Float128,
    NullPtr,
}

pub const PRIMS: [Prim; 26] = [
    Prim::Void,
    Prim::Bool,
    Prim::Char,
    Prim::SChar,
    Prim::UChar,
    Prim::WChar,
    Prim::Char8,
    Prim::Char16,
    Prim::Char32,
    Prim::Short,
    Prim::UShort,
    Prim::Int,
    Prim::UInt,
    Prim::Long,
    Prim::ULong,
    Prim::LongLong,
    Prim::ULongLong,
    Prim::Int128,
    Prim::UInt128,
    Prim::Half,
    Prim::BF16,
    Prim::Float,
    Prim::Double,
    Prim::LongDouble,
    Prim::Float128,
    Prim::NullPtr,
];

impl Prim {
    pub fn name(self) -> &'static str {
        match self {
            Prim::Void => "void",
            Prim::Bool => "bool",
            Prim::Char => "char",
            Prim::SChar => "schar",
            Prim::UChar => "uchar",
            Prim::WChar => "wchar",
            Prim::Char8 => "char8",
            Prim::Char16 => "char16",
            Prim::Char32 => "char32",
            Prim::Short => "short",
            Prim::UShort => "ushort",
            Prim::Int => "int",
            Prim::UInt => "uint",
            Prim::Long => "long",
            Prim::ULong => "ulong",
            Prim::LongLong => "llong",
            Prim::ULongLong => "ullong",
            Prim::Int128 => "int128",
            Prim::UInt128 => "uint128",
            Prim::Half => "half",
            Prim::BF16 => "bf16",
            Prim::Float => "float",
            Prim::Double => "double",
            Prim::LongDouble => "ldouble",
            Prim::Float128 => "float128",
            Prim::NullPtr => "nullptr_t",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Prim(Prim),
    Ptr(Box<Type>),
    LRef(Box<Type>),
    RRef(Box<Type>),
    /// `None`: unknown bound.
    Array(Box<Type>, Option<u64>),
    Func(Box<FnType>),
    /// A class, by its mangled name (a [`Module::classes`] entry).
    Class(String),
    Enum {
        name: String,
        underlying: Prim,
    },
    Qual(Box<Type>, Quals),
    /// A GNU vector of that many bytes.
    Vector(Box<Type>, u64),
    MemPtr {
        class: Box<Type>,
        pointee: Box<Type>,
    },
    /// The closure type of a lambda (its mangled name).
    Closure(String),
    /// What the model could not lower, and why (for people).
    Unknown(String),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnType {
    pub ret: Type,
    pub params: Vec<Type>,
    pub variadic: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Quals {
    pub c: bool,
    pub v: bool,
    pub r: bool,
}

/// Where a variable lives on the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Device,
    Constant,
    Shared,
    Managed,
    /// A local's automatic storage (registers or the local space).
    Local,
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Device => "device",
            Space::Constant => "constant",
            Space::Shared => "shared",
            Space::Managed => "managed",
            Space::Local => "local",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    /// The device name (as the device listing names it).
    pub name: String,
    pub ty: Type,
    pub space: Space,
    /// Declared `extern` and not defined in the unit.
    pub external: bool,
    pub init: Option<Init>,
    /// The initializer's value, when it is a constant expression (as the
    /// constant interpreter evaluates it).
    pub value: Option<Const>,
}

/// A constant value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Const {
    Int(i128),
    /// A floating value, printed exactly (Rust's shortest round-trip form).
    Float(String),
    Null,
    /// An array's elements, in order.
    Array(Vec<Const>),
    /// A class object's members, by name, in order.
    Object(Vec<(String, Const)>),
}

impl fmt::Display for Const {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Const::Int(v) => write!(f, "{v}"),
            Const::Float(s) => f.write_str(s),
            Const::Null => f.write_str("null"),
            Const::Array(es) => {
                f.write_str("[")?;
                for (i, e) in es.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{e}")?;
                }
                f.write_str("]")
            }
            Const::Object(ms) => {
                f.write_str("{")?;
                for (i, (n, v)) in ms.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, ".{n} = {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncKind {
    Kernel,
    Device,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Func {
    pub name: String,
    pub kind: FuncKind,
    pub ret: Type,
    /// The parameters: indices into `locals`, in order.
    pub params: Vec<u32>,
    pub locals: Vec<Local>,
    pub attrs: KernelAttrs,
    /// The body, or why it is not lowered.
    pub body: Result<Stmt, String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    /// `None`: unnamed.
    pub name: Option<String>,
    pub ty: Type,
    pub space: Space,
    pub is_static: bool,
    /// A kernel parameter declared `__grid_constant__`.
    pub grid_constant: bool,
}

/// A kernel's launch attributes as written (their arguments evaluated
/// when they are integer literals; a list is empty when absent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelAttrs {
    /// `__launch_bounds__(max threads, min blocks, max cluster blocks)`.
    pub launch_bounds: Vec<u64>,
    /// `__cluster_dims__(x, y, z)`.
    pub cluster_dims: Vec<u64>,
    /// `__maxnreg__(n)`.
    pub maxnreg: Vec<u64>,
}

/// How a variable is initialized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Init {
    Expr(Expr),
    /// A constructor call (`T x(a, b)`, `T x{a}` for a class): the
    /// constructor's name, `None` when trivial or not resolved.
    Construct {
        ctor: Option<String>,
        args: Vec<Expr>,
    },
    List(Vec<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cat {
    LValue,
    XValue,
    PRValue,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub ty: Type,
    pub cat: Cat,
    pub kind: ExprKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

pub const UNOPS: [UnOp; 10] = [
    UnOp::Neg,
    UnOp::Plus,
    UnOp::Not,
    UnOp::BitNot,
    UnOp::Deref,
    UnOp::AddrOf,
    UnOp::PreInc,
    UnOp::PreDec,
    UnOp::PostInc,
    UnOp::PostDec,
];

impl UnOp {
    pub fn name(self) -> &'static str {
        match self {
            UnOp::Neg => "neg",
            UnOp::Plus => "plus",
            UnOp::Not => "not",
            UnOp::BitNot => "bitnot",
            UnOp::Deref => "deref",
            UnOp::AddrOf => "addr",
            UnOp::PreInc => "preinc",
            UnOp::PreDec => "predec",
            UnOp::PostInc => "postinc",
            UnOp::PostDec => "postdec",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    Cmp,
    PtrMem,
}

pub const BINOPS: [BinOp; 20] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Rem,
    BinOp::Shl,
    BinOp::Shr,
    BinOp::BitAnd,
    BinOp::BitOr,
    BinOp::BitXor,
    BinOp::And,
    BinOp::Or,
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
    BinOp::Cmp,
    BinOp::PtrMem,
];

impl BinOp {
    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Div => "div",
            BinOp::Rem => "rem",
            BinOp::Shl => "shl",
            BinOp::Shr => "shr",
            BinOp::BitAnd => "bitand",
            BinOp::BitOr => "bitor",
            BinOp::BitXor => "bitxor",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Eq => "eq",
            BinOp::Ne => "ne",
            BinOp::Lt => "lt",
            BinOp::Le => "le",
            BinOp::Gt => "gt",
            BinOp::Ge => "ge",
            BinOp::Cmp => "cmp",
            BinOp::PtrMem => "ptrmem",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastKind {
    CStyle,
    Static,
    Const,
    Reinterpret,
    Dynamic,
}

pub const CASTS: [CastKind; 5] =
    [CastKind::CStyle, CastKind::Static, CastKind::Const, CastKind::Reinterpret, CastKind::Dynamic];

impl CastKind {
    pub fn name(self) -> &'static str {
        match self {
            CastKind::CStyle => "c",
            CastKind::Static => "static",
            CastKind::Const => "const",
            CastKind::Reinterpret => "reinterpret",
            CastKind::Dynamic => "dynamic",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    pub name: String,
    pub by_ref: bool,
    pub value: Expr,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// A function, by its device name.
    Direct(String),
    /// Through a pointer, a reference or a closure object.
    Indirect(Box<Expr>),
    /// A builtin operator the call stands for.
    Builtin,
    /// The model did not resolve it (why, for people).
    Unresolved(String),
    /// A name nothing in the unit declares (a compiler builtin such as
    /// `__builtin_sinf`).
    Undeclared(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer, character, boolean or enumerator value (a literal
    /// above `i128::MAX`, of `unsigned __int128`, by its bits).
    Int(i128),
    /// A floating literal as written.
    Float(String),
    /// A string literal as written.
    Str(String),
    Nullptr,
    /// A local of the function (an index into [`Func::locals`]).
    Local(u32),
    /// A namespace-scope variable or a function, by its device name.
    Global(String),
    This,
    /// A non-static data member of `base` (after `->`, `base` is the pointer).
    Field {
        base: Box<Expr>,
        arrow: bool,
        name: String,
    },
    Call {
        callee: Callee,
        args: Vec<Expr>,
    },
    Launch {
        callee: Callee,
        config: Vec<Expr>,
        args: Vec<Expr>,
    },
    Unary {
        op: UnOp,
        expr: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Assign {
        op: Option<BinOp>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Cond {
        cond: Box<Expr>,
        then: Box<Expr>,
        els: Box<Expr>,
    },
    Comma {
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// An explicit cast to the expression's type.
    Cast {
        kind: CastKind,
        expr: Box<Expr>,
    },
    /// An implicit conversion to the expression's type.
    Conv(Box<Expr>),
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// A temporary or functional cast: `ctor` as [`Init::Construct`].
    Construct {
        ctor: Option<String>,
        args: Vec<Expr>,
    },
    InitList(Vec<Expr>),
    /// `sizeof`/`alignof` folded to its value.
    Size(u64),
    /// A lambda expression: its closure object (the expression's type),
    /// made of its captures in order, each by name, by reference or by copy.
    Closure(Vec<Capture>),
    Unsupported(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Block(Vec<Stmt>),
    Expr(Expr),
    /// Locals declared (indices into [`Func::locals`]) with their initializers.
    Decl(Vec<(u32, Option<Init>)>),
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    Switch {
        cond: Expr,
        body: Box<Stmt>,
    },
    Case {
        value: Expr,
        body: Box<Stmt>,
    },
    Default(Box<Stmt>),
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    /// `for (var : range) body`: `iteration` names the functions the
    /// loop calls to iterate (`begin`, `end`, the iterator's operators),
    /// empty for an array.
    RangeFor {
        init: Option<Box<Stmt>>,
        var: u32,
        range: Expr,
        iteration: Vec<String>,
        body: Box<Stmt>,
    },
    Return(Option<Expr>),
    Break,
    Continue,
    Label {
        name: String,
        body: Box<Stmt>,
    },
    Goto(String),
    Null,
    /// A constructor's initialization of a base or member (by name), in
    /// the order written, before its body.
    MemberInit {
        name: String,
        init: Init,
    },
    Unsupported(String),
}

// ---- The text form (docs/device-il.md) -------------------------------------

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = Printer { m: self };
        f.write_str(&p.module())
    }
}

struct Printer<'a> {
    m: &'a Module,
}

impl Printer<'_> {
    fn module(&self) -> String {
        let mut o = format!("; cufront device IL v{VERSION}\n");
        for c in &self.m.classes {
            let _ = write!(o, "class %{} ; {}", c.mangled, c.name);
            match &c.layout {
                None => o.push_str(" (no layout)\n"),
                Some(l) => {
                    let _ = writeln!(o, "\n  size {} align {}", l.size, l.align);
                    for b in &l.bases {
                        let v = if b.is_virtual { "virtual " } else { "" };
                        let _ = writeln!(o, "  base {v}%{} @{}", b.class, b.offset);
                    }
                    for fld in &l.fields {
                        let name = fld.name.as_deref().unwrap_or("<anonymous>");
                        let at = match fld.bit_width {
                            Some(w) => format!("@{}b:{w}", fld.offset_bits),
                            None if fld.offset_bits % 8 == 0 => format!("@{}", fld.offset_bits / 8),
                            None => format!("@{}b", fld.offset_bits),
                        };
                        let _ = writeln!(o, "  field {name}: {} {at}", self.ty(&fld.ty));
                    }
                }
            }
        }
        for v in &self.m.vars {
            let ext = if v.external { " extern" } else { "" };
            let _ = write!(o, "var {} {}{ext}: {}", v.space.name(), v.name, self.ty(&v.ty));
            if let Some(init) = &v.init {
                let _ = write!(o, " = {}", self.init(init, &[]));
            }
            if let Some(value) = &v.value {
                let _ = write!(o, " ; value {value}");
            }
            o.push('\n');
        }
        for func in &self.m.funcs {
            o.push_str(&self.func(func));
        }
        o
    }

    fn func(&self, func: &Func) -> String {
        let kind = match func.kind {
            FuncKind::Kernel => "kernel",
            FuncKind::Device => "func",
        };
        let params: Vec<String> = func
            .params
            .iter()
            .filter_map(|&i| func.locals.get(i as usize).map(|l| self.local_decl(i as usize, l)))
            .collect();
        let mut o = format!("{kind} {}({}) -> {}", func.name, params.join(", "), self.ty(&func.ret));
        let a = &func.attrs;
        for (name, args) in
            [("launch_bounds", &a.launch_bounds), ("cluster_dims", &a.cluster_dims), ("maxnreg", &a.maxnreg)]
        {
            if !args.is_empty() {
                let args: Vec<String> = args.iter().map(u64::to_string).collect();
                let _ = write!(o, " {name}({})", args.join(", "));
            }
        }
        match &func.body {
            Err(why) => {
                let _ = writeln!(o, " ; body not lowered: {why}");
            }
            Ok(body) => {
                o.push('\n');
                // `f(void)`'s parameter-shaped `void` is no local.
                let shown =
                    |(i, l): &(usize, &Local)| !func.params.contains(&(*i as u32)) && l.ty != Type::Prim(Prim::Void);
                for (i, l) in func.locals.iter().enumerate().filter(shown) {
                    let _ = writeln!(o, "  local {}", self.local_decl(i, l));
                }
                self.stmt(&mut o, body, 1, &func.locals);
            }
        }
        o
    }

    fn local_decl(&self, i: usize, l: &Local) -> String {
        let mut s = format!("${i}");
        if let Some(n) = &l.name {
            let _ = write!(s, " {n}");
        }
        let _ = write!(s, ": {}", self.ty(&l.ty));
        if l.space != Space::Local {
            let _ = write!(s, " {}", l.space.name());
        }
        if l.is_static {
            s.push_str(" static");
        }
        if l.grid_constant {
            s.push_str(" grid_constant");
        }
        s
    }

    fn ty(&self, t: &Type) -> String {
        match t {
            Type::Prim(p) => p.name().to_string(),
            Type::Ptr(x) => format!("{}*", self.ty(x)),
            Type::LRef(x) => format!("{}&", self.ty(x)),
            Type::RRef(x) => format!("{}&&", self.ty(x)),
            Type::Array(x, Some(n)) => format!("{}[{n}]", self.ty(x)),
            Type::Array(x, None) => format!("{}[]", self.ty(x)),
            Type::Func(f) => {
                let mut ps: Vec<String> = f.params.iter().map(|p| self.ty(p)).collect();
                if f.variadic {
                    ps.push("...".into());
                }
                format!("fn({}) -> {}", ps.join(", "), self.ty(&f.ret))
            }
            Type::Class(m) => format!("%{m}"),
            Type::Enum { name, underlying } => format!("enum {name}:{}", underlying.name()),
            Type::Qual(x, q) => {
                let mut s = String::new();
                if q.c {
                    s.push_str("const ");
                }
                if q.v {
                    s.push_str("volatile ");
                }
                if q.r {
                    s.push_str("restrict ");
                }
                s + &self.ty(x)
            }
            Type::Vector(x, n) => format!("vector({n}) {}", self.ty(x)),
            Type::MemPtr { class, pointee } => format!("{} {}::*", self.ty(pointee), self.ty(class)),
            Type::Closure(m) => format!("closure {m}"),
            Type::Unknown(why) => format!("?({why})"),
        }
    }

    fn init(&self, init: &Init, locals: &[Local]) -> String {
        match init {
            Init::Expr(e) => self.expr(e, locals),
            Init::Construct { ctor, args } => {
                format!("construct {} ({})", ctor.as_deref().unwrap_or("-"), self.exprs(args, locals))
            }
            Init::List(es) => format!("{{{}}}", self.exprs(es, locals)),
        }
    }

    fn exprs(&self, es: &[Expr], locals: &[Local]) -> String {
        es.iter().map(|e| self.expr(e, locals)).collect::<Vec<_>>().join(", ")
    }

    fn callee(&self, c: &Callee, locals: &[Local]) -> String {
        match c {
            Callee::Direct(n) => n.clone(),
            Callee::Indirect(e) => format!("*{}", self.expr(e, locals)),
            Callee::Builtin => "builtin".into(),
            Callee::Unresolved(why) => format!("?({why})"),
            Callee::Undeclared(name) => format!("undeclared {name}"),
        }
    }

    /// `(kind:type operands…)`; lvalues and xvalues are marked `&`/`&&`
    /// after the type.
    fn expr(&self, e: &Expr, locals: &[Local]) -> String {
        let cat = match e.cat {
            Cat::LValue => "&",
            Cat::XValue => "&&",
            Cat::PRValue => "",
        };
        let t = format!("{}{cat}", self.ty(&e.ty));
        let x = |e: &Expr| self.expr(e, locals);
        match &e.kind {
            ExprKind::Int(v) => format!("{v}:{t}"),
            ExprKind::Float(s) | ExprKind::Str(s) => format!("{s}:{t}"),
            ExprKind::Nullptr => format!("nullptr:{t}"),
            ExprKind::Local(i) => match locals.get(*i as usize).and_then(|l| l.name.as_deref()) {
                Some(n) => format!("${i}({n}):{t}"),
                None => format!("${i}:{t}"),
            },
            ExprKind::Global(n) => format!("@{n}:{t}"),
            ExprKind::This => format!("this:{t}"),
            ExprKind::Field { base, arrow, name } => {
                format!("(field:{t} {} {}{name})", x(base), if *arrow { "->" } else { "." })
            }
            ExprKind::Call { callee, args } => {
                format!("(call:{t} {} [{}])", self.callee(callee, locals), self.exprs(args, locals))
            }
            ExprKind::Launch { callee, config, args } => format!(
                "(launch:{t} {} <<<{}>>> [{}])",
                self.callee(callee, locals),
                self.exprs(config, locals),
                self.exprs(args, locals)
            ),
            ExprKind::Unary { op, expr } => format!("({}:{t} {})", op.name(), x(expr)),
            ExprKind::Binary { op, lhs, rhs } => format!("({}:{t} {} {})", op.name(), x(lhs), x(rhs)),
            ExprKind::Assign { op, lhs, rhs } => {
                let name = op.map_or("assign".to_string(), |o| format!("assign.{}", o.name()));
                format!("({name}:{t} {} {})", x(lhs), x(rhs))
            }
            ExprKind::Cond { cond, then, els } => format!("(select:{t} {} {} {})", x(cond), x(then), x(els)),
            ExprKind::Comma { lhs, rhs } => format!("(comma:{t} {} {})", x(lhs), x(rhs)),
            ExprKind::Cast { kind, expr } => format!("(cast.{}:{t} {})", kind.name(), x(expr)),
            ExprKind::Conv(expr) => format!("(conv:{t} {})", x(expr)),
            ExprKind::Index { base, index } => format!("(index:{t} {} {})", x(base), x(index)),
            ExprKind::Construct { ctor, args } => {
                format!("(construct:{t} {} [{}])", ctor.as_deref().unwrap_or("-"), self.exprs(args, locals))
            }
            ExprKind::InitList(es) => format!("(list:{t} [{}])", self.exprs(es, locals)),
            ExprKind::Size(n) => format!("{n}:{t}"),
            ExprKind::Closure(caps) => {
                let caps: Vec<String> = caps
                    .iter()
                    .map(|c| format!("{}{} = {}", if c.by_ref { "&" } else { "" }, c.name, x(&c.value)))
                    .collect();
                format!("(closure:{t} [{}])", caps.join(", "))
            }
            ExprKind::Unsupported(why) => format!("(unsupported:{t} \"{why}\")"),
        }
    }

    fn stmt(&self, o: &mut String, s: &Stmt, depth: usize, locals: &[Local]) {
        let pad = "  ".repeat(depth);
        let x = |e: &Expr| self.expr(e, locals);
        match s {
            Stmt::Block(ss) => {
                let _ = writeln!(o, "{pad}{{");
                for s in ss {
                    self.stmt(o, s, depth + 1, locals);
                }
                let _ = writeln!(o, "{pad}}}");
            }
            Stmt::Expr(e) => {
                let _ = writeln!(o, "{pad}{}", x(e));
            }
            Stmt::Decl(ds) => {
                for (i, init) in ds {
                    match init {
                        Some(init) => {
                            let _ = writeln!(o, "{pad}init ${i} = {}", self.init(init, locals));
                        }
                        None => {
                            let _ = writeln!(o, "{pad}init ${i}");
                        }
                    }
                }
            }
            Stmt::If { cond, then, els } => {
                let _ = writeln!(o, "{pad}if {}", x(cond));
                self.stmt(o, then, depth + 1, locals);
                if let Some(els) = els {
                    let _ = writeln!(o, "{pad}else");
                    self.stmt(o, els, depth + 1, locals);
                }
            }
            Stmt::Switch { cond, body } => {
                let _ = writeln!(o, "{pad}switch {}", x(cond));
                self.stmt(o, body, depth + 1, locals);
            }
            Stmt::Case { value, body } => {
                let _ = writeln!(o, "{pad}case {}", x(value));
                self.stmt(o, body, depth + 1, locals);
            }
            Stmt::Default(body) => {
                let _ = writeln!(o, "{pad}default");
                self.stmt(o, body, depth + 1, locals);
            }
            Stmt::While { cond, body } => {
                let _ = writeln!(o, "{pad}while {}", x(cond));
                self.stmt(o, body, depth + 1, locals);
            }
            Stmt::DoWhile { body, cond } => {
                let _ = writeln!(o, "{pad}do");
                self.stmt(o, body, depth + 1, locals);
                let _ = writeln!(o, "{pad}while {}", x(cond));
            }
            Stmt::For { init, cond, step, body } => {
                let _ = writeln!(o, "{pad}for");
                if let Some(init) = init {
                    self.stmt(o, init, depth + 2, locals);
                }
                if let Some(c) = cond {
                    let _ = writeln!(o, "{pad}  cond {}", x(c));
                }
                if let Some(s) = step {
                    let _ = writeln!(o, "{pad}  step {}", x(s));
                }
                self.stmt(o, body, depth + 1, locals);
            }
            Stmt::RangeFor { init, var, range, iteration, body } => {
                if let Some(init) = init {
                    self.stmt(o, init, depth, locals);
                }
                let _ = writeln!(o, "{pad}for ${var} in {} [{}]", x(range), iteration.join(", "));
                self.stmt(o, body, depth + 1, locals);
            }
            Stmt::Return(None) => {
                let _ = writeln!(o, "{pad}return");
            }
            Stmt::Return(Some(e)) => {
                let _ = writeln!(o, "{pad}return {}", x(e));
            }
            Stmt::Break => {
                let _ = writeln!(o, "{pad}break");
            }
            Stmt::Continue => {
                let _ = writeln!(o, "{pad}continue");
            }
            Stmt::Label { name, body } => {
                let _ = writeln!(o, "{pad}label {name}");
                self.stmt(o, body, depth + 1, locals);
            }
            Stmt::Goto(l) => {
                let _ = writeln!(o, "{pad}goto {l}");
            }
            Stmt::Null => {
                let _ = writeln!(o, "{pad}nop");
            }
            Stmt::MemberInit { name, init } => {
                let _ = writeln!(o, "{pad}meminit {name} = {}", self.init(init, locals));
            }
            Stmt::Unsupported(why) => {
                let _ = writeln!(o, "{pad}unsupported \"{why}\"");
            }
        }
    }
}
