//! Differential test against g++: one table gives each declaration's C++
//! text and its tree side by side; the generated file is compiled with
//! `g++ -c` and the symbols `nm` lists must be exactly the mangler's output
//! (spec 50 §8.7: EDG is identical to g++ 12 outside §8.2's list, which
//! this file avoids). g++ must be on PATH.

use std::collections::BTreeSet;
use std::process::Command;

use cufront_mangle::Builtin::*;
use cufront_mangle::build::*;
use cufront_mangle::*;

/// A type: its C++ spelling (through the prelude's alias templates, so
/// composition needs no declarator syntax) and its tree.
#[derive(Clone)]
struct T {
    cpp: String,
    tree: Type,
}

fn t(cpp: &str, tree: impl Into<Type>) -> T {
    T { cpp: cpp.into(), tree: tree.into() }
}

impl T {
    fn ptr(&self) -> T {
        t(&format!("P<{}>", self.cpp), self.tree.clone().ptr())
    }
    fn lref(&self) -> T {
        t(&format!("R<{}>", self.cpp), self.tree.clone().lref())
    }
    fn rref(&self) -> T {
        t(&format!("RR<{}>", self.cpp), self.tree.clone().rref())
    }
    fn konst(&self) -> T {
        t(&format!("C<{}>", self.cpp), self.tree.clone().konst())
    }
    fn volatile(&self) -> T {
        t(&format!("V<{}>", self.cpp), self.tree.clone().volatile())
    }
    fn array(&self, n: u128) -> T {
        t(&format!("A<{}, {n}>", self.cpp), self.tree.clone().array(n))
    }
    fn member_of(&self, class: &T) -> T {
        t(&format!("MP<{}, {}>", class.cpp, self.cpp), self.tree.clone().member_of(class.tree.clone()))
    }
}

/// `R(params)` as a function type (`F`, `FN` noexcept, `FC` const, `FV` variadic).
fn func(alias: &str, ret: &T, params: &[T]) -> T {
    let mut cpp = format!("{alias}<{}", ret.cpp);
    for p in params {
        cpp.push_str(", ");
        cpp.push_str(&p.cpp);
    }
    cpp.push('>');
    let mut f = fn_type(ret.tree.clone(), params.iter().map(|p| p.tree.clone()).collect());
    match alias {
        "FN" => f = f.noexcept(),
        "FC" => f = f.konst(),
        "FV" => f = f.variadic(),
        _ => {}
    }
    t(&cpp, f.ty())
}

const PRELUDE: &str = r#"
template<class T> using P = T*;
template<class T> using R = T&;
template<class T> using RR = T&&;
template<class T> using C = const T;
template<class T> using V = volatile T;
template<class T, unsigned long N> using A = T[N];
template<class Ret, class... Ps> using F = Ret(Ps...);
template<class Ret, class... Ps> using FN = Ret(Ps...) noexcept;
template<class Ret, class... Ps> using FC = Ret(Ps...) const;
template<class Ret, class... Ps> using FV = Ret(Ps..., ...);
template<class Cl, class M> using MP = M Cl::*;
struct S { int a; int f(int) const; };
enum E1 { e1a };
enum class E2 : short { x };
namespace ns {
  struct D {};
  namespace inner { struct B {}; enum En { en0 }; }
  template<class X, class Y> struct Pair {};
  inline namespace v1 { struct InI {}; }
}
namespace std {
  template<class X> struct allocator {};
  template<class X> struct char_traits {};
  template<class X, class Tr, class Al> struct basic_string {};
  template<class X, class Tr> struct basic_ostream {};
  template<class X, class Y> struct pair {};
  template<class X, X v> struct integral_constant {};
  struct plain {};
  namespace chrono { struct dur {}; }
}
template<class X> struct Box { struct In {}; template<class Y> struct TIn {}; };
template<class... Xs> struct Tup {};
template<int N> struct Ai {};
struct Outer { struct Inner {}; };
namespace { struct Anon {}; }
"#;

fn builtins() -> Vec<T> {
    vec![
        t("bool", Bool),
        t("char", Char),
        t("signed char", SChar),
        t("unsigned char", UChar),
        t("wchar_t", WChar),
        t("char8_t", Char8),
        t("char16_t", Char16),
        t("char32_t", Char32),
        t("short", Short),
        t("unsigned short", UShort),
        t("int", Int),
        t("unsigned", UInt),
        t("long", Long),
        t("unsigned long", ULong),
        t("long long", LongLong),
        t("unsigned long long", ULongLong),
        t("__int128", Int128),
        t("unsigned __int128", UInt128),
        t("float", Float),
        t("double", Double),
        t("long double", LongDouble),
        t("__float128", Float128),
        t("_Float16", Float16),
        t("decltype(nullptr)", NullPtr),
    ]
}

fn std_(n: &str) -> Name {
    name(&["std", n])
}

fn classes() -> Vec<T> {
    let ch = || TArg::from(Char);
    let traits = std_("char_traits").args(vec![ch()]).ty();
    let alloc = std_("allocator").args(vec![ch()]).ty();
    let mut anon = name(&["Anon"]);
    anon.comps.insert(0, comp_of(Unqualified::AnonNamespace(None)));
    vec![
        t("S", named(&["S"])),
        t("E1", named(&["E1"])),
        t("E2", named(&["E2"])),
        t("ns::D", named(&["ns", "D"])),
        t("ns::inner::B", named(&["ns", "inner", "B"])),
        t("ns::inner::En", named(&["ns", "inner", "En"])),
        t("ns::InI", named(&["ns", "v1", "InI"])),
        t("ns::Pair<int, char>", name(&["ns", "Pair"]).args(vec![Int.into(), Char.into()]).ty()),
        t(
            "ns::Pair<ns::D, ns::Pair<int, ns::D>>",
            name(&["ns", "Pair"])
                .args(vec![
                    named(&["ns", "D"]).into(),
                    name(&["ns", "Pair"]).args(vec![Int.into(), named(&["ns", "D"]).into()]).ty().into(),
                ])
                .ty(),
        ),
        t("std::allocator<char>", alloc.clone()),
        t("std::allocator<int>", std_("allocator").args(vec![Int.into()]).ty()),
        t(
            "std::basic_string<char, std::char_traits<char>, std::allocator<char>>",
            std_("basic_string").args(vec![ch(), traits.clone().into(), alloc.into()]).ty(),
        ),
        t(
            "std::basic_ostream<char, std::char_traits<char>>",
            std_("basic_ostream").args(vec![ch(), traits.into()]).ty(),
        ),
        t("std::pair<int, long>", std_("pair").args(vec![Int.into(), Long.into()]).ty()),
        t("std::integral_constant<int, -3>", std_("integral_constant").args(vec![Int.into(), int_arg(Int, -3)]).ty()),
        t("std::plain", named(&["std", "plain"])),
        t("std::chrono::dur", named(&["std", "chrono", "dur"])),
        t("Box<int>::In", name(&["Box"]).args(vec![Int.into()]).child("In").ty()),
        t(
            "Box<S>::TIn<ns::D>",
            name(&["Box"]).args(vec![named(&["S"]).into()]).child("TIn").args(vec![named(&["ns", "D"]).into()]).ty(),
        ),
        t(
            "Tup<int, S, int>",
            name(&["Tup"]).args(vec![TArg::Pack(vec![Int.into(), named(&["S"]).into(), Int.into()])]).ty(),
        ),
        t("Tup<>", name(&["Tup"]).args(vec![TArg::Pack(vec![])]).ty()),
        t("Ai<7>", name(&["Ai"]).args(vec![int_arg(Int, 7)]).ty()),
        t("Outer::Inner", named(&["Outer", "Inner"])),
        t("Anon", anon.ty()),
    ]
}

/// A deterministic pseudo-random sequence (no dependency for a test).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Derived types over the base pool: each row a type and the constructors
/// applied to it.
fn derive(base: &[T], rng: &mut Lcg) -> T {
    let b = &base[rng.next(base.len())];
    let s = t("S", named(&["S"]));
    match rng.next(14) {
        0 | 1 => b.clone(),
        2 => b.ptr(),
        3 => b.konst().ptr(),
        4 => b.konst().lref(),
        5 => b.rref(),
        6 => b.volatile().konst().ptr(),
        7 => b.array(4).ptr(),
        8 => b.array(2).lref(),
        9 => b.member_of(&s),
        10 => func("F", b, &[base[rng.next(base.len())].clone(), b.clone()]).ptr(),
        11 => func("FN", &t("void", Void), std::slice::from_ref(b)).ptr(),
        12 => func("FC", b, std::slice::from_ref(b)).member_of(&s),
        _ => b.ptr().ptr().konst().ptr(),
    }
}

struct Row {
    cpp: String,
    trees: Vec<Encoding>,
}

fn row(cpp: &str, trees: Vec<Encoding>) -> Row {
    Row { cpp: cpp.into(), trees }
}

fn vfn(n: &[&str], params: Vec<Type>) -> Encoding {
    function(name(n), fn_type(Void, params))
}

fn tfn(n: &str, args: Vec<TArg>, ret: Type, params: Vec<Type>) -> Encoding {
    function(name(&[n]).args(args), fn_type(ret, params))
}

fn op(o: Op) -> Component {
    comp_of(Unqualified::Operator(o))
}

/// Declarations written by hand: templates, expressions, operators,
/// special members, local names.
fn hand_rows() -> Vec<Row> {
    let s = || named(&["S"]);
    let d = || named(&["ns", "D"]);
    let ti = || tparam(0);
    let lit_e = |v| Expr::Literal(lit(Int, v));
    // In a trailing return type g++ refers to a parameter as `fp_` (level 0),
    // in the parameter list as `fL0p_` (level 1).
    let rparam = || Expr::FnParam { level: 0, index: 0, quals: Quals::NONE };
    let mut rows = vec![
        row(
            "template<class X> void h1(X, X*, const X&) {} template void h1<ns::D>(ns::D, ns::D*, const ns::D&);",
            vec![tfn("h1", vec![d().into()], Void.into(), vec![ti(), ti().ptr(), ti().konst().lref()])],
        ),
        row(
            "template<class X, class Y> X h2(Y, ns::Pair<X, Y>) { return X(); } template int h2<int, S>(S, ns::Pair<int, S>);",
            vec![tfn(
                "h2",
                vec![Int.into(), s().into()],
                tparam(0),
                vec![tparam(1), name(&["ns", "Pair"]).args(vec![tparam(0).into(), tparam(1).into()]).ty()],
            )],
        ),
        row(
            "template<int N> void h3(Ai<N>, int(*)[N]) {} template void h3<5>(Ai<5>, int(*)[5]);",
            vec![tfn(
                "h3",
                vec![int_arg(Int, 5)],
                Void.into(),
                vec![
                    name(&["Ai"]).args(vec![TArg::Expr(Expr::TParam(TParam(0)))]).ty(),
                    Type::Array(ArrayBound::Expr(Box::new(Expr::TParam(TParam(0)))), Box::new(Int.into())).ptr(),
                ],
            )],
        ),
        row(
            "template<class... Xs> void h4(Xs...) {} template void h4<int, char, int>(int, char, int); template void h4<>();",
            vec![
                tfn(
                    "h4",
                    vec![TArg::Pack(vec![Int.into(), Char.into(), Int.into()])],
                    Void.into(),
                    vec![ti().pack_expansion()],
                ),
                tfn("h4", vec![TArg::Pack(vec![])], Void.into(), vec![ti().pack_expansion()]),
            ],
        ),
        row(
            "template<class X> auto h5(X x) -> decltype(x.a + 1) { return 0; } template int h5<S>(S);",
            vec![tfn("h5", vec![s().into()], decltype(binary(Op::Plus, member(rparam(), "a"), lit_e(1))), vec![ti()])],
        ),
        row(
            "template<class X> void h6(X x, decltype(x.a), decltype(sizeof(X))) {} template void h6<S>(S, int, unsigned long);",
            vec![tfn(
                "h6",
                vec![s().into()],
                Void.into(),
                vec![ti(), decltype(member(fparam(0), "a")), decltype(Expr::SizeofType(Box::new(ti())))],
            )],
        ),
        row(
            "template<class X> void h7(typename X::In, typename Box<X>::In) {} template void h7<Box<int>>(Box<int>::In, Box<Box<int>>::In);",
            vec![tfn(
                "h7",
                vec![name(&["Box"]).args(vec![Int.into()]).ty().into()],
                Void.into(),
                vec![
                    Name { root: Root::Param(TParam(0)), comps: vec![comp("In")] }.ty(),
                    name(&["Box"]).args(vec![ti().into()]).child("In").ty(),
                ],
            )],
        ),
        row(
            "template<template<class, class> class TT> void h8(TT<int, char>, TT<int, int>) {} template void h8<ns::Pair>(ns::Pair<int, char>, ns::Pair<int, int>);",
            vec![tfn(
                "h8",
                vec![TArg::Template(name(&["ns", "Pair"]))],
                Void.into(),
                vec![
                    Type::ParamApp(TParam(0), vec![Int.into(), Char.into()]),
                    Type::ParamApp(TParam(0), vec![Int.into(), Int.into()]),
                ],
            )],
        ),
        row(
            "int gvar; template<int* p> void h9() {} template void h9<&gvar>(); template void h9<nullptr>();",
            vec![
                tfn(
                    "h9",
                    vec![TArg::Expr(unary(Op::AddrOf, Expr::Entity(Box::new(data(name(&["gvar"]))))))],
                    Void.into(),
                    vec![],
                ),
                tfn(
                    "h9",
                    vec![TArg::Literal(Literal { ty: Type::from(Int).ptr(), negative: false, magnitude: 0 })],
                    Void.into(),
                    vec![],
                ),
            ],
        ),
        row(
            "template<int S::* m> void h10() {} template void h10<&S::a>();",
            vec![tfn(
                "h10",
                vec![TArg::Expr(unary(Op::AddrOf, Expr::Entity(Box::new(data(name(&["S", "a"]))))))],
                Void.into(),
                vec![],
            )],
        ),
        row(
            "template<bool B, char Ch, unsigned long long U, __int128 I> void h11() {} template void h11<true, 'z', 18446744073709551615ull, -5>();",
            vec![tfn(
                "h11",
                vec![
                    int_arg(Bool, 1),
                    int_arg(Char, 122),
                    int_arg(ULongLong, 18446744073709551615),
                    int_arg(Int128, -5),
                ],
                Void.into(),
                vec![],
            )],
        ),
        row(
            "template<class X> void h12(X t, decltype(+t), decltype(t[0])) {} template void h12<int*>(int*, int*, int&);\n\
             template<class X> void h12b(X, decltype(&X::a)) {} template void h12b<S>(S, int S::*);",
            vec![],
        ),
        row(
            "template<class... Xs> void h13(Ai<sizeof...(Xs)>, Xs...) {} template void h13<int, S>(Ai<2>, int, S);",
            vec![tfn(
                "h13",
                vec![TArg::Pack(vec![Int.into(), s().into()])],
                Void.into(),
                vec![name(&["Ai"]).args(vec![TArg::Expr(Expr::SizeofPack(TParam(0)))]).ty(), ti().pack_expansion()],
            )],
        ),
        row(
            "template<class X> void h14(X, Ai<sizeof(X) + 1>, Ai<alignof(X)>) {} template void h14<double>(double, Ai<9>, Ai<8>);",
            vec![tfn(
                "h14",
                vec![Double.into()],
                Void.into(),
                vec![
                    ti(),
                    name(&["Ai"])
                        .args(vec![TArg::Expr(binary(
                            Op::Plus,
                            Expr::SizeofType(Box::new(ti())),
                            Expr::Literal(lit(Int, 1)),
                        ))])
                        .ty(),
                    name(&["Ai"]).args(vec![TArg::Expr(Expr::AlignofType(Box::new(ti())))]).ty(),
                ],
            )],
        ),
        row(
            "template<class X> auto h15(X t) -> decltype(new X, static_cast<long>(t)) { return 0; } template long h15<int>(int);",
            vec![tfn(
                "h15",
                vec![Int.into()],
                decltype(binary(
                    Op::Comma,
                    Expr::New { global: false, array: false, placement: vec![], ty: Box::new(ti()), init: None },
                    Expr::Cast(CastKind::Static, Box::new(Long.into()), vec![rparam()]),
                )),
                vec![ti()],
            )],
        ),
        row(
            "template<class X> auto h16(X t) -> decltype(t ? 1 : 2L) { return 0; } template long h16<bool>(bool);",
            vec![tfn(
                "h16",
                vec![Bool.into()],
                decltype(Expr::Cond(Box::new(rparam()), Box::new(lit_e(1)), Box::new(Expr::Literal(lit(Long, 2))))),
                vec![ti()],
            )],
        ),
        row(
            "template<class X> auto h17(X t) -> decltype(t.f(1)) { return 0; } template int h17<S>(S);",
            vec![tfn(
                "h17",
                vec![s().into()],
                decltype(Expr::Call(Box::new(member(rparam(), "f")), vec![lit_e(1)])),
                vec![ti()],
            )],
        ),
        row(
            "template<class X> struct TT { template<class Y> int m(Y); }; template<class X> template<class Y> int TT<X>::m(Y) { return 0; } template int TT<char>::m<short>(short);",
            vec![function(
                name(&["TT"]).args(vec![Char.into()]).child("m").args(vec![Short.into()]),
                fn_type(Int, vec![ti()]),
            )],
        ),
        row(
            "template<class X> X vtmp = X(); template int vtmp<int>; template ns::D vtmp<ns::D>;",
            vec![data(name(&["vtmp"]).args(vec![Int.into()])), data(name(&["vtmp"]).args(vec![d().into()]))],
        ),
        row(
            "struct Op { Op operator+(const Op&) const; Op operator-() const; bool operator<(const Op&) const; operator int() const; int operator()(int); int operator[](long); Op& operator=(const Op&); Op& operator++(); Op operator++(int); void* operator new(unsigned long); void operator delete(void*); bool operator!() const; };\n\
             Op Op::operator+(const Op&) const { return *this; } Op Op::operator-() const { return *this; } bool Op::operator<(const Op&) const { return false; } Op::operator int() const { return 0; } int Op::operator()(int) { return 0; } int Op::operator[](long) { return 0; } Op& Op::operator=(const Op&) { return *this; } Op& Op::operator++() { return *this; } Op Op::operator++(int) { return *this; } void* Op::operator new(unsigned long) { static char b[8]; return b; } void Op::operator delete(void*) {} bool Op::operator!() const { return true; }",
            {
                let o = || named(&["Op"]);
                let m = |c: Component, f: FnType| function(name(&["Op"]).push(c), f);
                vec![
                    m(op(Op::Plus), fn_type(o(), vec![o().konst().lref()]).konst()),
                    m(op(Op::Neg), fn_type(o(), vec![]).konst()),
                    m(op(Op::Lt), fn_type(Bool, vec![o().konst().lref()]).konst()),
                    m(comp_of(Unqualified::Conversion(Box::new(Int.into()))), fn_type(Int, vec![]).konst()),
                    m(op(Op::Call), fn_type(Int, vec![Int.into()])),
                    m(op(Op::Index), fn_type(Int, vec![Long.into()])),
                    m(op(Op::Assign), fn_type(o().lref(), vec![o().konst().lref()])),
                    m(op(Op::Inc), fn_type(o().lref(), vec![])),
                    m(op(Op::Inc), fn_type(o(), vec![Int.into()])),
                    m(op(Op::New), fn_type(Type::from(Void).ptr(), vec![ULong.into()])),
                    data(Name::local(
                        m(op(Op::New), fn_type(Type::from(Void).ptr(), vec![ULong.into()])),
                        0,
                        vec![comp("b")],
                    )),
                    m(op(Op::Delete), fn_type(Void, vec![Type::from(Void).ptr()])),
                    m(op(Op::Not), fn_type(Bool, vec![]).konst()),
                ]
            },
        ),
        row(
            "struct Lit {}; Lit operator\"\"_w(unsigned long long) { return {}; } bool operator==(const Lit&, const Lit&) { return true; }",
            vec![
                function(
                    name(&["x"]).clone_last(comp_of(Unqualified::Literal("_w".into()))),
                    fn_type(named(&["Lit"]), vec![ULongLong.into()]),
                ),
                function(
                    Name { root: Root::Global, comps: vec![op(Op::Eq)] },
                    fn_type(Bool, vec![named(&["Lit"]).konst().lref(), named(&["Lit"]).konst().lref()]),
                ),
            ],
        ),
        row("struct Ct { Ct(int); ~Ct(); }; Ct::Ct(int) {} Ct::~Ct() {}", {
            let m = |u| function(name(&["Ct"]).push(comp_of(u)), fn_type(Void, vec![]));
            let c = |k| function(name(&["Ct"]).push(comp_of(Unqualified::Ctor(k))), fn_type(Void, vec![Int.into()]));
            vec![
                c(CtorKind::Complete),
                c(CtorKind::Base),
                m(Unqualified::Dtor(DtorKind::Complete)),
                m(Unqualified::Dtor(DtorKind::Base)),
            ]
        }),
        row(
            "struct Mq { void f() &; void f() &&; void g() const volatile; }; void Mq::f() & {} void Mq::f() && {} void Mq::g() const volatile {}",
            vec![
                function(name(&["Mq", "f"]), fn_type(Void, vec![]).ref_qual(RefQual::LValue)),
                function(name(&["Mq", "f"]), fn_type(Void, vec![]).ref_qual(RefQual::RValue)),
                function(
                    name(&["Mq", "g"]),
                    FnType { quals: Quals { restrict: false, volatile: true, konst: true }, ..fn_type(Void, vec![]) },
                ),
            ],
        ),
        row(
            "int lfun(int) { static int v = 0; struct L { static int get() { return 1; } }; return ++v + L::get(); }",
            {
                let lfun = vfn(&["lfun"], vec![Int.into()]);
                let lfun = match lfun {
                    Encoding::Function(n, f) => Encoding::Function(n, Box::new(FnType { ret: Int.into(), ..*f })),
                    e => e,
                };
                vec![
                    function(name(&["lfun"]), fn_type(Int, vec![Int.into()])),
                    data(Name::local(lfun.clone(), 0, vec![comp("v")])),
                    function(Name::local(lfun, 0, vec![comp("L"), comp("get")]), fn_type(Int, vec![])),
                ]
            },
        ),
        row("void twolocals() { { static int w = 1; (void)w; } { static int w = 2; (void)w; } }", {
            let f = vfn(&["twolocals"], vec![]);
            vec![f.clone(), data(Name::local(f.clone(), 0, vec![comp("w")])), data(Name::local(f, 1, vec![comp("w")]))]
        }),
        row(
            "struct [[gnu::abi_tag(\"tg\")]] Tagged {}; void tagged(Tagged, Tagged*) {}",
            vec![vfn(&["tagged"], vec![name(&["Tagged"]).tag("tg").ty(), name(&["Tagged"]).tag("tg").ty().ptr()])],
        ),
        row(
            "static void sfun(int) {} namespace ns { static int svar = 1; int* keep() { sfun(1); return &svar; } }",
            vec![
                function(
                    Name { root: Root::Global, comps: vec![comp_of(Unqualified::StaticSource("sfun".into()))] },
                    fn_type(Void, vec![Int.into()]),
                ),
                data(Name {
                    root: Root::Global,
                    comps: vec![comp("ns"), comp_of(Unqualified::StaticSource("svar".into()))],
                }),
                function(name(&["ns", "keep"]), fn_type(Type::from(Int).ptr(), vec![])),
            ],
        ),
        row(
            "namespace std { void sf(int) {} namespace chrono { void cf(std::plain) {} } }",
            vec![vfn(&["std", "sf"], vec![Int.into()]), vfn(&["std", "chrono", "cf"], vec![named(&["std", "plain"])])],
        ),
        row("struct Vb { virtual ~Vb(); }; Vb::~Vb() {}", {
            let vb = || named(&["Vb"]);
            let dt = |k| function(name(&["Vb"]).push(comp_of(Unqualified::Dtor(k))), fn_type(Void, vec![]));
            vec![
                dt(DtorKind::Deleting),
                dt(DtorKind::Complete),
                dt(DtorKind::Base),
                Encoding::Special(Box::new(Special::Vtable(vb()))),
                Encoding::Special(Box::new(Special::TypeInfo(vb()))),
                Encoding::Special(Box::new(Special::TypeInfoName(vb()))),
            ]
        }),
        row(
            "void variadic(int, ...) {} void fnref(void(&)(int), int(S::*)(int) const) {}",
            vec![
                function(name(&["variadic"]), fn_type(Void, vec![Int.into()]).variadic()),
                vfn(
                    &["fnref"],
                    vec![
                        fn_type(Void, vec![Int.into()]).ty().lref(),
                        fn_type(Int, vec![Int.into()]).konst().ty().member_of(s()),
                    ],
                ),
            ],
        ),
    ];
    // h12 is built here: its expressions need the pointer template argument.
    rows[11].trees.push(tfn(
        "h12",
        vec![Type::from(Int).ptr().into()],
        Void.into(),
        vec![ti(), decltype(unary(Op::Pos, fparam(0))), decltype(binary(Op::Index, fparam(0), lit_e(0)))],
    ));
    rows[11].trees.push(tfn(
        "h12b",
        vec![s().into()],
        Void.into(),
        vec![ti(), decltype(unary(Op::AddrOf, Expr::Scoped { ty: Box::new(ti()), name: "a".into(), args: None }))],
    ));
    rows
}

trait CloneLast {
    fn clone_last(self, c: Component) -> Name;
}

impl CloneLast for Name {
    fn clone_last(mut self, c: Component) -> Name {
        *self.comps.last_mut().unwrap() = c;
        self
    }
}

fn build_rows() -> Vec<Row> {
    let mut base = builtins();
    base.extend(classes());
    let mut rng = Lcg(0x5eed);
    let mut rows = Vec::new();
    // Every base type once, then random signatures over derived types.
    for (i, b) in base.iter().enumerate() {
        let n = format!("b{i}");
        rows.push(row(&format!("void {n}({}) {{}}", b.cpp), vec![vfn(&[&n], vec![b.tree.clone()])]));
    }
    for i in 0..300 {
        let k = 1 + rng.next(4);
        let params: Vec<T> = (0..k).map(|_| derive(&base, &mut rng)).collect();
        let n = format!("g{i}");
        let cpp = format!("void {n}({}) {{}}", params.iter().map(|p| p.cpp.as_str()).collect::<Vec<_>>().join(", "));
        let tree = vfn(&[&n], params.into_iter().map(|p| p.tree).collect());
        rows.push(row(&cpp, vec![tree]));
    }
    // Member functions of namespaced classes, with repeated types.
    for i in 0..40 {
        let a = derive(&base, &mut rng);
        let b = derive(&base, &mut rng);
        let n = format!("m{i}");
        rows.push(row(
            &format!("namespace mem {{ struct K{i} {{ void {n}({a}, {b}, {a}) const; }}; void K{i}::{n}({a}, {b}, {a}) const {{}} }}", a = a.cpp, b = b.cpp),
            vec![function(
                name(&["mem", &format!("K{i}"), &n]),
                fn_type(Void, vec![a.tree.clone(), b.tree, a.tree]).konst(),
            )],
        ));
    }
    rows.extend(hand_rows());
    rows
}

#[test]
fn mangled_names_match_gxx() {
    // g++ is the oracle (and nvcc's host compiler): without it this test
    // fails rather than passing silently.
    Command::new("g++").arg("--version").output().expect("g++ must be on PATH: it is the oracle of this test");
    let rows = build_rows();
    let mut cpp = String::from(PRELUDE);
    let mut ours = BTreeSet::new();
    let mut count = 0;
    for r in &rows {
        cpp.push_str(&r.cpp);
        cpp.push('\n');
        for t in &r.trees {
            ours.insert(mangle(t).unwrap_or_else(|e| panic!("{}: {e}", r.cpp)));
            count += 1;
        }
    }
    let dir = std::env::temp_dir().join(format!("cufront-mangle-gxx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("gen.cpp");
    let obj = dir.join("gen.o");
    std::fs::write(&src, &cpp).unwrap();
    let out = Command::new("g++").args(["-std=c++20", "-O0", "-c"]).arg(&src).arg("-o").arg(&obj).output().unwrap();
    assert!(out.status.success(), "g++ failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let nm = Command::new("nm").arg(&obj).output().unwrap();
    let theirs: BTreeSet<String> = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace().rev();
            let sym = f.next()?;
            let kind = f.next()?;
            (kind != "U" && sym.starts_with("_Z")).then(|| sym.to_string())
        })
        .collect();
    let missing: Vec<_> = ours.difference(&theirs).collect();
    let extra: Vec<_> = theirs.difference(&ours).collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{count} trees, {} symbols from g++\nours, not g++'s:\n  {}\ng++'s, not ours:\n  {}",
        theirs.len(),
        missing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n  "),
        extra.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n  "),
    );
    eprintln!("{count} trees match g++'s {} symbols", theirs.len());
}
