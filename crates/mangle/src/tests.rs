//! Every vector of spec 50 §8.7 and every example of §8.2–§8.6, built as trees.

use crate::Builtin::*;
use crate::build::*;
use crate::*;

fn t(b: Builtin) -> Type {
    Type::Builtin(b)
}

#[track_caller]
fn check(e: &Encoding, want: &str) {
    assert_eq!(mangle(e).as_deref(), Ok(want), "{e:#?}");
}

/// `void name(params)`.
fn vf(n: &[&str], params: Vec<Type>) -> Encoding {
    function(name(n), fn_type(Void, params))
}

/// `template<…> void name<args>(params)`.
fn tf(n: &str, args: Vec<TArg>, params: Vec<Type>) -> Encoding {
    function(name(&[n]).args(args), fn_type(Void, params))
}

fn e(x: Expr) -> TArg {
    TArg::Expr(x)
}

fn b(x: Expr) -> Box<Expr> {
    Box::new(x)
}

fn bt(x: Type) -> Box<Type> {
    Box::new(x)
}

fn op(o: Op) -> Component {
    comp_of(Unqualified::Operator(o))
}

#[test]
fn vectors_plain_functions() {
    check(&vf(&["k"], vec![t(Int), named(&["S"]), t(Float).ptr()]), "_Z1ki1SPf");
    check(&vf(&["ns", "k1"], vec![named(&["ns", "D"]), named(&["ns", "B"]).konst().ptr()]), "_ZN2ns2k1ENS_1DEPKNS_1BE");
    check(&vf(&["ns", "inner", "k1b"], vec![t(Int)]), "_ZN2ns5inner3k1bEi");
    check(
        &vf(
            &["k2"],
            vec![
                fn_type(Int, vec![t(Float), t(Double)]).ty().ptr(),
                t(Int).member_of(named(&["S"])),
                fn_type(Void, vec![t(Int)]).ty().member_of(named(&["S"])),
            ],
        ),
        "_Z2k2PFifdEM1SiMS1_FviE",
    );
    let scalars = [
        Bool, Char, SChar, UChar, WChar, Char16, Char32, Short, UShort, Long, ULong, LongLong, ULongLong, Int128,
        UInt128, Float, Double, NullPtr,
    ];
    let mut params = vec![named(&["E1"]), named(&["E2"])];
    params.extend(scalars.iter().map(|s| t(*s)));
    check(&vf(&["k8"], params), "_Z2k82E12E2bcahwDsDistlmxynofdDn");
    // `int *__restrict__`: top-level qualifiers are not part of the signature.
    check(
        &vf(
            &["k12"],
            vec![t(Int).konst().lref(), t(Int).volatile().ptr(), t(Char).konst().volatile().ptr(), t(Int).ptr()],
        ),
        "_Z3k12RKiPViPVKcPi",
    );
    check(&vf(&["k13"], vec![t(Int).ptr(), t(Int).array(3).ptr(), t(Int).array(4).lref()]), "_Z3k13PiPA3_iRA4_i");
    check(&vf(&["kt"], vec![name(&["TagT"]).tag("tg").ty()]), "_Z2kt4TagTB2tg");
    check(&vf(&["kts"], vec![named(&["TS"])]), "_Z3kts2TS");
    check(
        &vf(&["knx"], vec![fn_type(Void, vec![]).noexcept().ty().ptr(), fn_type(Void, vec![t(Int)]).ty().ptr()]),
        "_Z3knxPDoFvvEPFviE",
    );
    let size_t = t(ULong);
    check(
        &vf(
            &["kstd"],
            vec![
                name(&["std", "pair"]).args(vec![Int.into(), Int.into()]).ty(),
                size_t,
                name(&["std", "integral_constant"]).args(vec![Int.into(), int_arg(Int, 3)]).ty(),
            ],
        ),
        "_Z4kstdSt4pairIiiEmSt17integral_constantIiLi3EE",
    );
    let s2 = named(&["S2"]);
    check(
        &vf(
            &["kmpc"],
            vec![
                fn_type(Void, vec![t(Int)]).konst().ty().member_of(s2.clone()),
                fn_type(Void, vec![]).ref_qual(RefQual::RValue).ty().member_of(s2.clone()),
                t(Int).member_of(s2),
            ],
        ),
        "_Z4kmpcM2S2KFviEMS_FvvOEMS_i",
    );
    check(&vf(&["kinl"], vec![named(&["outer", "v1", "InI"])]), "_Z4kinlN5outer2v13InIE");
    check(&vf(&["kconst"], vec![t(Int), t(Int).konst().ptr()]), "_Z6kconstiPKi");
    check(&vf(&["k8"], vec![t(Char8)]), "_Z2k8Du");
    // §8.2: a `static` function inside `extern "C" {}` is mangled by EDG.
    check(&vf(&["kcs"], vec![t(Int)]), "_Z3kcsi");
    // §8.3 examples.
    check(&vf(&["f"], vec![]), "_Z1fv");
    check(&vf(&["g"], vec![]), "_Z1gv");
    check(&vf(&["S", "m"], vec![]), "_ZN1S1mEv");
    check(&vf(&["A", "m"], vec![]), "_ZN1A1mEv");
    check(&vf(&["kern"], vec![t(Int).ptr(), t(Float)]), "_Z4kernPif");
}

#[test]
fn vectors_templates() {
    let d = named(&["ns", "D"]);
    check(&tf("k3", vec![d.clone().into(), int_arg(Int, 3)], vec![tparam(0)]), "_Z2k3IN2ns1DELi3EEvT_");
    check(&tf("k3", vec![t(Int).ptr().into(), int_arg(Int, -1)], vec![tparam(0)]), "_Z2k3IPiLin1EEvT_");
    let pair = |a: Type, b: Type| name(&["ns", "Pair"]).args(vec![a.into(), b.into()]).ty();
    check(
        &tf("k3", vec![pair(t(Int), pair(t(Char), t(Int))).into(), int_arg(Int, 0)], vec![tparam(0)]),
        "_Z2k3IN2ns4PairIiNS1_IciEEEELi0EEvT_",
    );
    let ts = tparam(0).pack_expansion();
    check(
        &tf("k6", vec![TArg::Pack(vec![Int.into(), Char.into(), Double.into()])], vec![ts.clone()]),
        "_Z2k6IJicdEEvDpT_",
    );
    check(&tf("k6", vec![TArg::Pack(vec![])], vec![ts.clone()]), "_Z2k6IJEEvDpT_");
    check(
        &tf(
            "k9",
            vec![TArg::Template(name(&["ns", "Pair"]))],
            vec![Type::ParamApp(TParam(0), vec![Int.into(), Char.into()])],
        ),
        "_Z2k9IN2ns4PairEEvT_IicE",
    );
    let dvarr = Expr::Entity(Box::new(data(name(&["dvarr"]))));
    check(&tf("k10", vec![e(unary(Op::AddrOf, dvarr))], vec![]), "_Z3k10IXadL_Z5dvarrEEEvv");
    check(&tf("k11", vec![int_arg(Char, 97), int_arg(Bool, 1), int_arg(ULong, 5)], vec![]), "_Z3k11ILc97ELb1ELm5EEvv");
    check(&data(name(&["vt"]).args(vec![Int.into()])), "_Z2vtIiE");
    check(&data(name(&["vt"]).args(vec![d.into()])), "_Z2vtIN2ns1DEE");
    check(
        &tf("kis", vec![TArg::Pack(vec![int_arg(Int, 1), int_arg(Int, 2), int_arg(Int, 3)])], vec![]),
        "_Z3kisIJLi1ELi2ELi3EEEvv",
    );
    let s2 = named(&["S2"]);
    check(
        &tf(
            "kd",
            vec![s2.clone().into()],
            vec![
                tparam(0),
                decltype(member(fparam(0), "a")),
                decltype(unary(Op::Neg, member(fparam(0), "a"))),
                decltype(Expr::SizeofType(bt(tparam(0)))),
            ],
        ),
        "_Z2kdI2S2EvT_DtdtfL0p_1aEDTngdtfL0p_1aEDTstS1_E",
    );
    let a_of = |x: Expr| name(&["A"]).args(vec![e(x)]).ty();
    check(&tf("ks", vec![Int.into()], vec![a_of(Expr::SizeofType(bt(tparam(0))))]), "_Z2ksIiEv1AIXstT_EE");
    check(
        &tf(
            "ka",
            vec![int_arg(Int, 7)],
            vec![Type::Array(ArrayBound::Expr(b(Expr::TParam(TParam(0)))), bt(t(Int))).ptr()],
        ),
        "_Z2kaILi7EEvPAT__i",
    );
    let s2a = Expr::Entity(Box::new(data(name(&["S2", "a"]))));
    check(&tf("kpm", vec![e(unary(Op::AddrOf, s2a))], vec![]), "_Z3kpmIXadL_ZN2S21aEEEEvv");
    check(
        &tf("kpack", vec![TArg::Pack(vec![Int.into(), Char.into()])], vec![a_of(Expr::SizeofPack(TParam(0))), ts]),
        "_Z5kpackIJicEEv1AIXsZT_EEDpT_",
    );
    check(
        &tf(
            "knest",
            vec![Int.into()],
            vec![name(&["Box"]).args(vec![tparam(0).into()]).child("In").args(vec![tparam(0).into()]).ty()],
        ),
        "_Z5knestIiEvN3BoxIT_E2InIS1_EE",
    );
    check(&tf("kdef", vec![Int.into(), Int.into()], vec![tparam(0), tparam(1)]), "_Z4kdefIiiEvT_T0_");
    check(&tf("kb", vec![int_arg(Bool, 0)], vec![]), "_Z2kbILb0EEvv");
    check(&tf("kl2", vec![int_arg(Long, -5_000_000_000)], vec![]), "_Z3kl2ILln5000000000EEvv");
    check(&tf("kuc", vec![int_arg(UChar, 200)], vec![]), "_Z3kucILh200EEvv");
    check(
        &tf("kt2", vec![s2.into()], vec![tparam(0).ptr(), tparam(0).konst().ptr(), tparam(0).volatile().lref()]),
        "_Z3kt2I2S2EvPT_PKS1_RVS1_",
    );
    check(&tf("kab", vec![Int.into()], vec![tparam(0)]), "_Z3kabIiEvT_");
    check(&tf("kauto", vec![int_arg(UInt, 5)], vec![]), "_Z5kautoILj5EEvv");
    check(&tf("kauto", vec![int_arg(Char, 99)], vec![]), "_Z5kautoILc99EEvv");
    check(
        &tf("kal", vec![Double.into()], vec![tparam(0), a_of(Expr::AlignofType(bt(tparam(0))))]),
        "_Z3kalIdEvT_1AIXatS0_EE",
    );
    // Constraints are not mangled.
    check(&tf("kr", vec![Int.into()], vec![tparam(0)]), "_Z2krIiEvT_");
    check(&tf("kc", vec![Double.into()], vec![tparam(0)]), "_Z2kcIdEvT_");
}

#[test]
fn vectors_expressions() {
    let p = fparam(0);
    let dt = decltype;
    check(
        &tf(
            "kidx",
            vec![t(Int).ptr().into()],
            vec![tparam(0), dt(binary(Op::Index, p.clone(), Expr::Literal(lit(Int, 0))))],
        ),
        "_Z4kidxIPiEvT_DTixfL0p_Li0EE",
    );
    let s = named(&["S"]);
    check(
        &tf(
            "kmem",
            vec![s.clone().into()],
            vec![
                tparam(0).ptr(),
                dt(Expr::Member { arrow: true, object: b(p.clone()), name: "m".into(), args: None }),
                dt(unary(Op::AddrOf, Expr::Scoped { ty: bt(tparam(0)), name: "m".into(), args: None })),
            ],
        ),
        "_Z4kmemI1SEvPT_DtptfL0p_1mEDTadsrS1_1mE",
    );
    check(
        &tf(
            "kneg",
            vec![Int.into()],
            vec![
                tparam(0),
                dt(unary(Op::Neg, p.clone())),
                dt(unary(Op::Not, p.clone())),
                dt(unary(Op::Compl, p.clone())),
                dt(unary(Op::Inc, p.clone())),
                dt(unary(Op::PreInc, p.clone())),
            ],
        ),
        "_Z4knegIiEvT_DTngfL0p_EDTntfL0p_EDTcofL0p_EDTppfL0p_EDTpp_fL0p_E",
    );
    let new_t = Expr::New { global: false, array: false, placement: vec![], ty: bt(tparam(0)), init: None };
    check(&tf("knew", vec![Int.into()], vec![tparam(0), dt(new_t)]), "_Z4knewIiEvT_DTnw_S0_EE");
    let one = Expr::Literal(lit(Int, 1));
    check(
        &tf(
            "kcall",
            vec![s.into()],
            vec![
                tparam(0),
                dt(Expr::Call(b(member(p.clone(), "g")), vec![one.clone()])),
                dt(binary(Op::Plus, member(p.clone(), "m"), one.clone())),
            ],
        ),
        "_Z5kcallI1SEvT_DTcldtfL0p_1gLi1EEEDTpldtfL0p_1mLi1EE",
    );
    let cast = |k| dt(Expr::Cast(k, bt(t(Long)), vec![p.clone()]));
    check(
        &tf(
            "kcast",
            vec![Int.into()],
            vec![tparam(0), cast(CastKind::Static), cast(CastKind::Functional), cast(CastKind::Functional)],
        ),
        "_Z5kcastIiEvT_DTsclfL0p_EDTcvlfL0p_ES2_",
    );
    check(
        &tf(
            "kcond",
            vec![Bool.into()],
            vec![tparam(0), dt(Expr::Cond(b(p.clone()), b(one), b(Expr::Literal(lit(Long, 2)))))],
        ),
        "_Z5kcondIbEvT_DTqufL0p_Li1ELl2EE",
    );
    let fold = Expr::Fold {
        right: true,
        op: Op::Plus,
        pack: b(Expr::SizeofType(bt(tparam(0)))),
        init: Some(b(Expr::Literal(lit(Int, 0)))),
    };
    check(
        &tf("kfold", vec![TArg::Pack(vec![Int.into(), Char.into()])], vec![name(&["A"]).args(vec![e(fold)]).ty()]),
        "_Z5kfoldIJicEEv1AIXfRplstT_Li0EEE",
    );
}

/// §8.2: the constructs where EDG and g++ may differ.
#[test]
fn vectors_divergent() {
    let null_ptr = Literal { ty: t(Int).ptr(), negative: false, magnitude: 0 };
    check(&tf("knp", vec![TArg::Literal(null_ptr)], vec![]), "_Z3knpILPi0EEvv");
    let null_mp = Literal { ty: t(Int).member_of(named(&["S2"])), negative: false, magnitude: 0 };
    check(&tf("kpm", vec![TArg::Literal(null_mp)], vec![]), "_Z3kpmILM2S2i0EEvv");
    check(
        &tf("k7", vec![Int.into()], vec![tparam(0), decltype(binary(Op::Plus, fparam(0), Expr::Literal(lit(Int, 1))))]),
        "_Z2k7IiEvT_DTplfL0p_Li1EE",
    );
    check(
        &tf(
            "kal2",
            vec![Double.into()],
            vec![tparam(0), name(&["A"]).args(vec![e(Expr::AlignofExpr(b(fparam(0))))]).ty()],
        ),
        "_Z4kal2IdEvT_1AIXazfL0p_EE",
    );
    let nx = Expr::Noexcept(b(Expr::Call(b(member(fparam(0), "f")), vec![])));
    check(
        &tf("knx", vec![named(&["S"]).into()], vec![tparam(0), name(&["A"]).args(vec![e(nx)]).ty()]),
        "_Z3knxI1SEvT_1AIXnxcldtfL0p_1fEEE",
    );
    let nt = Expr::Braced(bt(named(&["NT"])), vec![Expr::Literal(lit(Int, 3))]);
    check(&tf("knt", vec![e(nt)], vec![]), "_Z3kntIXtl2NTLi3EEEEvv");
    // EDG's construction vtable spelling.
    check(
        &Encoding::Special(Box::new(Special::ConstructionVtable { complete: named(&["T"]), base: named(&["S"]) })),
        "_ZTV1S__1T",
    );
    // `extern "C"` kernel: the entity is `kc`, the stub is C++-mangled.
    let kc = vf(&["kc"], vec![t(Int)]);
    assert_eq!(cuda::device_stub(&mangle(&kc).unwrap()), "__device_stub__Z2kci");
    // Closure numbering per signature.
    let sigs = [(vec![t(Int)], false), (vec![t(Int)], false), (vec![tparam(0)], false), (vec![t(Int)], false)];
    assert_eq!(lambda_indices(&sigs), [0, 1, 0, 2]);
}

fn kk() -> Encoding {
    vf(&["kk"], vec![])
}

#[test]
fn vectors_local_names() {
    let call = |closure: Type| function(name(&["call"]).args(vec![closure.into()]), fn_type(Int, vec![tparam(0)]));
    let closure = |params: Vec<Type>, index| Name::local(kk(), 0, vec![lambda(params, index)]).ty();
    check(&call(closure(vec![t(Int)], 0)), "_Z4callIZ2kkvEUliE_EiT_");
    check(&call(closure(vec![t(Int)], 1)), "_Z4callIZ2kkvEUliE0_EiT_");
    // §8.7 gives only `…UlT_E_…`; g++ 12 (checked) substitutes the
    // closure's `T_` for `call`'s, as the ABI compares template parameters
    // by position.
    check(&call(closure(vec![tparam(0)], 0)), "_Z4callIZ2kkvEUlT_E_EiS0_");
    check(&call(closure(vec![t(Int)], 2)), "_Z4callIZ2kkvEUliE1_EiT_");
    check(&call(Name::local(kk(), 0, vec![comp("Loc")]).ty()), "_Z4callIZ2kkvE3LocEiT_");
    check(&call(Name::local(kk(), 1, vec![comp("Loc")]).ty()), "_Z4callIZ2kkvE3Loc_0EiT_");
    check(
        &function(
            Name::local(kk(), 0, vec![lambda(vec![t(Int)], 0), op(Op::Call)]),
            fn_type(Int, vec![t(Int)]).konst(),
        ),
        "_ZZ2kkvENKUliE_clEi",
    );
    let mut call_op = op(Op::Call);
    call_op.args = Some(vec![Int.into()]);
    check(
        &function(
            Name::local(kk(), 0, vec![lambda(vec![tparam(0)], 0), call_op]),
            fn_type(Auto, vec![tparam(0)]).konst(),
        ),
        "_ZZ2kkvENKUlT_E_clIiEEDaS_",
    );
    check(
        &function(Name::local(kk(), 1, vec![comp("Loc"), op(Op::Call)]), fn_type(Void, vec![t(Int)]).konst()),
        "_ZZ2kkvENK3LocclE_0i",
    );
    let twostatic = vf(&["twostatic"], vec![t(Int)]);
    check(&data(Name::local(twostatic.clone(), 0, vec![comp("v")])), "_ZZ9twostaticiE1v");
    check(&data(Name::local(twostatic, 1, vec![comp("v")])), "_ZZ9twostaticiE1v_0");
    check(&data(Name::local(vf(&["N", "counter"], vec![]), 0, vec![comp("cnt")])), "_ZZN1N7counterEvE3cnt");
    // A discriminator of 10 or more takes two underscores.
    check(&data(Name::local(kk(), 11, vec![comp("v")])), "_ZZ2kkvE1v__10_");
    // §8.6: closures of extended lambdas as the device side mangles them.
    let host1 = vf(&["nsl", "host1"], vec![]);
    let kl = |c: Type, p: Type| function(name(&["kl"]).args(vec![c.into()]), fn_type(Void, vec![p]));
    check(&kl(Name::local(host1, 0, vec![lambda(vec![t(Int)], 0)]).ty(), tparam(0)), "_Z2klIZN3nsl5host1EvEUliE_EvT_");
    let host2 = tf("host2", vec![Float.into()], vec![tparam(0)]);
    check(&kl(Name::local(host2, 0, vec![lambda(vec![t(Int)], 0)]).ty(), tparam(0)), "_Z2klIZ5host2IfEvT_EUliE_EvS1_");
}

#[test]
fn vectors_special_members() {
    let opt = named(&["Op"]);
    check(
        &function(name(&["Op"]).push(op(Op::Plus)), fn_type(opt.clone(), vec![opt.clone().konst().lref()]).konst()),
        "_ZNK2OpplERKS_",
    );
    check(
        &function(name(&["Op"]).push(comp_of(Unqualified::Conversion(bt(t(Int))))), fn_type(Int, vec![]).konst()),
        "_ZNK2OpcviEv",
    );
    check(&function(name(&["Op"]).push(op(Op::Call)), fn_type(Int, vec![t(Int)])), "_ZN2OpclEi");
    check(&function(name(&["Op"]).push(op(Op::Le)), fn_type(Bool, vec![opt.konst().lref()]).konst()), "_ZNK2OpleERKS_");
    check(
        &function(
            name(&["TT"]).args(vec![Char.into()]).child("m").args(vec![Short.into()]),
            fn_type(Int, vec![tparam(0)]),
        ),
        "_ZN2TTIcE1mIsEEiT_",
    );
    let s = |u| vf(&[], vec![]).clone_with(name(&["S"]).push(comp_of(u)));
    check(&s(Unqualified::Ctor(CtorKind::Complete)), "_ZN1SC1Ev");
    check(&s(Unqualified::Ctor(CtorKind::Base)), "_ZN1SC2Ev");
    check(&s(Unqualified::Dtor(DtorKind::Deleting)), "_ZN1SD0Ev");
    check(&s(Unqualified::Dtor(DtorKind::Complete)), "_ZN1SD1Ev");
    check(&s(Unqualified::Dtor(DtorKind::Base)), "_ZN1SD2Ev");
    check(&s(Unqualified::Ctor(CtorKind::Complete)).clone(), "_ZN1SC1Ev");
    check(
        &function(name(&["A"]).push(comp_of(Unqualified::Ctor(CtorKind::Complete))), fn_type(Void, vec![])),
        "_ZN1AC1Ev",
    );
    let sp = |x: Special| Encoding::Special(Box::new(x));
    check(&sp(Special::Vtable(named(&["S"]))), "_ZTV1S");
    check(&sp(Special::Vtt(named(&["S"]))), "_ZTT1S");
    // Variables: namespace members are mangled, global ones are not.
    check(&data(name(&["N", "nv"])), "_ZN1N2nvE");
    check(&data(name(&["A", "s"])), "_ZN1A1sE");
    assert_eq!(symbol(&data(name(&["x"]))).as_deref(), Ok("x"));
    assert_eq!(symbol(&data(name(&["N", "nv"]))).as_deref(), Ok("_ZN1N2nvE"));
}

trait CloneWith {
    fn clone_with(&self, n: Name) -> Encoding;
}

impl CloneWith for Encoding {
    fn clone_with(&self, n: Name) -> Encoding {
        match self {
            Encoding::Function(_, f) => Encoding::Function(Box::new(n), f.clone()),
            other => other.clone(),
        }
    }
}

/// §8.4: internal linkage on the device side.
#[test]
fn vectors_cuda_internal() {
    let mid = "_53ba9deb_4_a_cu_1234567"; // 24 characters, as in §8.4's `33_INTERNAL`
    assert_eq!(mid.len(), 24);
    let k4 = mangle(&vf(&["k4"], vec![t(Int)])).unwrap();
    assert_eq!(k4, "_Z2k4i");
    assert_eq!(cuda::nv_static(mid, &k4), format!("__nv_static_24_{mid}__Z2k4i"));
    let anon = |rest: &[&str]| {
        let mut n = name(rest);
        n.comps.insert(0, cuda::anon_namespace(mid));
        n
    };
    check(&function(anon(&["k5"]), fn_type(Void, vec![t(Int)])), &format!("_ZN35_GLOBAL__N_{mid}2k5Ei"));
    let internal = |n: Name| cuda::internal(&n, mid).unwrap();
    check(&function(internal(name(&["gsf"])), fn_type(Void, vec![t(Int)])), &format!("_ZN33_INTERNAL{mid}3gsfEi"));
    check(&function(internal(name(&["X", "sf"])), fn_type(Void, vec![t(Int)])), &format!("_ZN33_INTERNAL{mid}1X2sfEi"));
    check(
        &function(internal(anon(&["af"])), fn_type(Void, vec![t(Int)])),
        &format!("_ZN33_INTERNAL{mid}35_GLOBAL__N_{mid}2afEi"),
    );
    let gsf = function(internal(name(&["gsf"])), fn_type(Void, vec![t(Int)]));
    check(&data(Name::local(gsf, 0, vec![comp("loc")])), &format!("_ZZN33_INTERNAL{mid}3gsfEiE3loc"));
    assert_eq!(symbol(&data(name(&["sdv"]))).unwrap(), "sdv");
    assert_eq!(cuda::nv_static(mid, "sdv"), format!("__nv_static_24_{mid}_sdv"));
    let sv = mangle(&data(internal(name(&["X", "sv"])))).unwrap();
    assert_eq!(sv, format!("_ZN33_INTERNAL{mid}1X2svE"));
    assert_eq!(cuda::nv_static(mid, &sv), format!("__nv_static_24_{mid}__ZN33_INTERNAL{mid}1X2svE"));
    check(&data(internal(anon(&["X", "av"]))), &format!("_ZN33_INTERNAL{mid}35_GLOBAL__N_{mid}1X2avE"));
    // The namespaces after `_INTERNAL` are candidates as the unit's own
    // (EDG matches them by entity): `ns::T` in the parameters is `S0_`
    // (cicc: `…4cuda3std3__419__cuda_atomic_fenceENS2_25__thread_scope_device_tagE`).
    check(
        &function(internal(name(&["ns", "f"])), fn_type(Void, vec![name(&["ns", "T"]).ty()])),
        &format!("_ZN33_INTERNAL{mid}2ns1fENS0_1TE"),
    );
    // §8.7 k5b: a 25-character id gives `36_GLOBAL__N_`.
    let mid25 = "_53ba9deb_4_a_cu_abcdefgh";
    let mut anon_t = name(&["Anon"]);
    anon_t.comps.insert(0, cuda::anon_namespace(mid25));
    check(&vf(&["k5b"], vec![anon_t.ty()]), &format!("_Z3k5bN36_GLOBAL__N_{mid25}4AnonE"));
    // The host side (g++) spells the anonymous namespace `_GLOBAL__N_1`.
    let mut host = name(&["Anon"]);
    host.comps.insert(0, comp_of(Unqualified::AnonNamespace(None)));
    check(&vf(&["k5b"], vec![host.ty()]), "_Z3k5bN12_GLOBAL__N_14AnonE");
}

/// §8.6: stubs.
#[test]
fn vectors_stubs() {
    let k1 = vf(&["ns", "k1"], vec![named(&["ns", "D"]), named(&["ns", "B"]).konst().ptr()]);
    assert_eq!(cuda::device_stub(&mangle(&k1).unwrap()), "__device_stub__ZN2ns2k1ENS_1DEPKNS_1BE");
}

/// 120 long class names in a pack: no truncation.
#[test]
fn long_names_are_not_truncated() {
    let classes: Vec<TArg> =
        (0..120).map(|i| named(&[&format!("AVeryLongClassNameForTestingPurposesNumber{i:03}")]).into()).collect();
    let f = tf("kp", vec![TArg::Pack(classes)], vec![tparam(0).pack_expansion()]);
    let m = mangle(&f).unwrap();
    assert!(m.len() > 5000, "{}", m.len());
    assert!(m.ends_with("119EEvDpT_"), "{m}");
}

#[test]
fn std_abbreviations() {
    let ch = || TArg::from(Char);
    let traits = name(&["std", "char_traits"]).args(vec![ch()]).ty();
    let alloc = name(&["std", "allocator"]).args(vec![ch()]).ty();
    let string = name(&["std", "basic_string"]).args(vec![ch(), traits.clone().into(), alloc.clone().into()]).ty();
    check(&vf(&["f"], vec![string.clone(), string.clone()]), "_Z1fSsSs");
    check(&vf(&["f"], vec![alloc.clone(), alloc]), "_Z1fSaIcES_");
    let os = name(&["std", "basic_ostream"]).args(vec![ch(), traits.clone().into()]).ty();
    check(&vf(&["f"], vec![os.lref()]), "_Z1fRSo");
    let is = name(&["std", "basic_istream"]).args(vec![ch(), traits.clone().into()]).ty();
    check(&vf(&["f"], vec![is.lref()]), "_Z1fRSi");
    let ios = name(&["std", "basic_iostream"]).args(vec![ch(), traits.into()]).ty();
    check(&vf(&["f"], vec![ios.ptr()]), "_Z1fPSd");
    check(
        &function(
            name(&["std", "basic_string"])
                .args(vec![
                    ch(),
                    name(&["std", "char_traits"]).args(vec![ch()]).ty().into(),
                    name(&["std", "allocator"]).args(vec![ch()]).ty().into(),
                ])
                .push(comp_of(Unqualified::Ctor(CtorKind::Complete))),
            fn_type(Void, vec![]),
        ),
        "_ZNSsC1Ev",
    );
    check(&vf(&["std", "f"], vec![]), "_ZSt1fv");
    check(&vf(&["std", "n", "f"], vec![]), "_ZNSt1n1fEv");
}

#[test]
fn unspellable_is_an_error() {
    assert!(mangle(&vf(&[], vec![])).is_err());
    assert!(mangle(&vf(&[""], vec![])).is_err());
    let float_lit = Literal { ty: t(Float), negative: false, magnitude: 1 };
    assert!(mangle(&tf("f", vec![TArg::Literal(float_lit)], vec![])).is_err());
    let sr = Expr::Scoped { ty: bt(Type::Vendor("v".into())), name: "m".into(), args: None };
    assert!(mangle(&tf("f", vec![e(sr)], vec![])).is_err());
    // A class qualifier is written as a type, as g++ does
    // (`srSt11__is_scalarIT_E7__value`).
    let sr = Expr::Scoped { ty: bt(named(&["A"])), name: "m".into(), args: None };
    assert_eq!(mangle(&tf("f", vec![e(sr)], vec![])).unwrap(), "_Z1fIXsr1A1mEEvv");
    assert!(mangle(&vf(&["A"], vec![]).clone_with(name(&["A"]).push(op(Op::PreInc)))).is_err());
}

/// Depth and breadth cost linear work (issue 22): a chain of 1000 pointers
/// (a candidate per level) and a signature of 10000 class types mangle
/// quickly; a type nested past `MAX_DEPTH` is an error, not a stack
/// overflow or cubic work. (On a thread with cufront's stack: the mangler
/// and the drop of a deep tree recurse.)
#[test]
fn deep_and_wide_signatures() {
    std::thread::Builder::new().stack_size(512 << 20).spawn(deep_and_wide).unwrap().join().unwrap();
}

fn deep_and_wide() {
    let chain = |n: usize| (0..n).fold(t(Int), |x, _| x.ptr());
    let want = format!("_Z1f{}i", "P".repeat(1000));
    check(&vf(&["f"], vec![chain(1000)]), &want);
    assert_eq!(mangle(&vf(&["f"], vec![chain(100_000)])), Err("types nested deeper than 1024 levels".into()));
    // Nested template arguments count as well.
    let nested = (0..2000).fold(t(Int), |x, _| Type::Named(name(&["W"]).args(vec![x.into()])));
    assert!(mangle(&vf(&["f"], vec![nested])).is_err());
    let wide: Vec<Type> = (0..5000).map(|i| named(&[&format!("C{i}")]).ptr()).collect();
    let out = mangle(&vf(&["f"], wide.iter().chain(&wide).cloned().collect())).unwrap();
    // The second half repeats the first: `S0_`, `S2_`… up to the
    // 10000th candidate, `S7PQ_` (base 36).
    assert!(out.contains("5C4999S0_S2_") && out.ends_with("S7PQ_"), "{}", &out[out.len() - 40..]);
}

#[test]
fn namespace_qualified_callee_g_plus_plus_and_edg() {
    // `decltype(::ns::f<T>(x))`: g++ writes the callee's name alone, EDG
    // (cicc) with its qualifiers, none of them a substitution candidate.
    let callee = Expr::NsId { global: true, quals: vec!["ns".into()], name: "f".into(), args: None };
    let ret = decltype(Expr::Call(Box::new(callee), vec![]));
    let e = function(name(&["g"]).args(vec![TArg::Type(Int.into())]), fn_type(ret, vec![Int.into()]));
    check(&e, "_Z1gIiEDTcl1fEEi");
    assert_eq!(mangle_edg(&e).as_deref(), Ok("_Z1gIiEDTclgssr2nsE1fEEi"));
}
