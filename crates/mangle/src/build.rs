//! Small constructors for trees, and EDG's closure numbering.

use crate::ops::Op;
use crate::tree::*;

impl From<Builtin> for Type {
    fn from(b: Builtin) -> Type {
        Type::Builtin(b)
    }
}

impl From<Type> for TArg {
    fn from(t: Type) -> TArg {
        TArg::Type(t)
    }
}

impl From<Builtin> for TArg {
    fn from(b: Builtin) -> TArg {
        TArg::Type(Type::Builtin(b))
    }
}

/// A component with an identifier.
pub fn comp(s: &str) -> Component {
    Component { name: Unqualified::Source(s.into()), abi_tags: Vec::new(), args: None }
}

/// A component with any unqualified name.
pub fn comp_of(name: Unqualified) -> Component {
    Component { name, abi_tags: Vec::new(), args: None }
}

/// `a::b::c` from the global namespace.
pub fn name(path: &[&str]) -> Name {
    Name { root: Root::Global, comps: path.iter().map(|s| comp(s)).collect() }
}

/// The class or enum type `a::b::c`.
pub fn named(path: &[&str]) -> Type {
    Type::Named(name(path))
}

impl Name {
    /// Gives the last component template arguments.
    pub fn args(mut self, args: Vec<TArg>) -> Name {
        self.comps.last_mut().expect("a name has a component").args = Some(args);
        self
    }
    /// Appends a component.
    pub fn push(mut self, c: Component) -> Name {
        self.comps.push(c);
        self
    }
    /// Appends an identifier.
    pub fn child(self, s: &str) -> Name {
        self.push(comp(s))
    }
    /// Tags the last component.
    pub fn tag(mut self, t: &str) -> Name {
        self.comps.last_mut().expect("a name has a component").abi_tags.push(t.into());
        self
    }
    pub fn ty(self) -> Type {
        Type::Named(self)
    }
    /// A name local to the function `func`; `disc` numbers same-named local
    /// entities from 0.
    pub fn local(func: Encoding, disc: u32, comps: Vec<Component>) -> Name {
        Name { root: Root::Local { func: Box::new(func), disc }, comps }
    }
}

impl Type {
    pub fn ptr(self) -> Type {
        Type::Ptr(Box::new(self))
    }
    pub fn lref(self) -> Type {
        Type::LRef(Box::new(self))
    }
    pub fn rref(self) -> Type {
        Type::RRef(Box::new(self))
    }
    /// Adds qualifiers (merging with existing ones; on an array they go to
    /// the elements, as in C++).
    pub fn qual(self, q: Quals) -> Type {
        if q.is_empty() {
            return self;
        }
        match self {
            Type::Qualified(q0, inner) => Type::Qualified(
                Quals {
                    restrict: q.restrict || q0.restrict,
                    volatile: q.volatile || q0.volatile,
                    konst: q.konst || q0.konst,
                },
                inner,
            ),
            Type::Array(n, e) => Type::Array(n, Box::new(e.qual(q))),
            t => Type::Qualified(q, Box::new(t)),
        }
    }
    pub fn konst(self) -> Type {
        self.qual(Quals::CONST)
    }
    pub fn volatile(self) -> Type {
        self.qual(Quals { volatile: true, ..Quals::NONE })
    }
    pub fn restrict(self) -> Type {
        self.qual(Quals { restrict: true, ..Quals::NONE })
    }
    pub fn array(self, n: u128) -> Type {
        Type::Array(ArrayBound::Known(n), Box::new(self))
    }
    /// `self C::*`.
    pub fn member_of(self, class: Type) -> Type {
        Type::MemPtr(Box::new(class), Box::new(self))
    }
    pub fn pack_expansion(self) -> Type {
        Type::PackExpansion(Box::new(self))
    }
}

pub fn tparam(i: u32) -> Type {
    Type::Param(TParam(i))
}

/// A plain function type.
pub fn fn_type(ret: impl Into<Type>, params: Vec<Type>) -> FnType {
    FnType {
        ret: ret.into(),
        params,
        variadic: false,
        quals: Quals::NONE,
        ref_qual: RefQual::None,
        exception: ExceptionSpec::None,
    }
}

impl FnType {
    pub fn ty(self) -> Type {
        Type::Func(Box::new(self))
    }
    pub fn konst(mut self) -> FnType {
        self.quals.konst = true;
        self
    }
    pub fn noexcept(mut self) -> FnType {
        self.exception = ExceptionSpec::Noexcept;
        self
    }
    pub fn variadic(mut self) -> FnType {
        self.variadic = true;
        self
    }
    pub fn ref_qual(mut self, r: RefQual) -> FnType {
        self.ref_qual = r;
        self
    }
}

/// The function `name` of type `f`.
pub fn function(name: Name, f: FnType) -> Encoding {
    Encoding::Function(Box::new(name), Box::new(f))
}

/// A variable.
pub fn data(name: Name) -> Encoding {
    Encoding::Data(name)
}

/// An integral literal of builtin type `b`.
pub fn lit(b: Builtin, v: i128) -> Literal {
    Literal { ty: Type::Builtin(b), negative: v < 0, magnitude: v.unsigned_abs() }
}

/// An integral template argument.
pub fn int_arg(b: Builtin, v: i128) -> TArg {
    TArg::Literal(lit(b, v))
}

/// A reference to a function parameter of the signature being mangled
/// (`fL0p_`: level 1, spec 50 §8.2).
pub fn fparam(index: u32) -> Expr {
    Expr::FnParam { level: 1, index, quals: Quals::NONE }
}

pub fn unary(op: Op, e: Expr) -> Expr {
    Expr::Unary(op, Box::new(e))
}

pub fn binary(op: Op, a: Expr, b: Expr) -> Expr {
    Expr::Binary(op, Box::new(a), Box::new(b))
}

pub fn member(object: Expr, name: &str) -> Expr {
    Expr::Member { arrow: false, object: Box::new(object), name: name.into(), args: None }
}

pub fn decltype(e: Expr) -> Type {
    Type::Decltype(Box::new(e))
}

/// The closure number of each lambda of one context, in order, as EDG
/// counts them: per signature (spec 50 §8.2: `(int)`, `(int)`, generic,
/// `(int)` → indices 0, 1, 0, 2, i.e. `UliE_`, `UliE0_`, `UlT_E_`,
/// `UliE1_`). g++ counts all lambdas of the context together instead.
pub fn lambda_indices(sigs: &[(Vec<Type>, bool)]) -> Vec<u32> {
    sigs.iter().enumerate().map(|(i, s)| sigs[..i].iter().filter(|p| *p == s).count() as u32).collect()
}

/// A closure type's component.
pub fn lambda(params: Vec<Type>, index: u32) -> Component {
    comp_of(Unqualified::Lambda { params, variadic: false, index })
}
