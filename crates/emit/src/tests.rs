use cufront_syntax::ParseOptions;
use cufront_syntax::source_map::SourceMap;

use crate::key::{Sema, module_key};

/// The key of `src` (a unit without line markers) in whole-program or
/// `--device-c` mode, named by the semantic model of the same text.
fn key_in(src: &str, device_c: bool) -> Option<Result<String, cufront_hir::SemaError>> {
    let parse = cufront_syntax::parse(src, ParseOptions::default());
    assert!(parse.errors().is_empty(), "{src}: {:?}", parse.errors());
    let map = SourceMap::new(src, "t.cu");
    let db = cufront_base_db::RootDatabase::new();
    let lang = cufront_base_db::LangOptions { standard: cufront_base_db::LangStandard::Cxx17, ..Default::default() };
    let opts = cufront_base_db::new_options(&db, lang);
    let tu = cufront_base_db::new_translation_unit(&db, "t.cu".into(), std::sync::Arc::from(src), opts);
    module_key(&parse.syntax_node(), &map, device_c, Sema::new(&db, tu))
}

fn key(src: &str) -> Option<Result<String, cufront_hir::SemaError>> {
    key_in(src, false)
}

fn mangled(src: &str) -> String {
    match key(src) {
        Some(Ok(k)) => k,
        other => panic!("{src}: {other:?}"),
    }
}

/// spec 50 §8.7 vectors inside the core (non-template functions).
#[test]
fn test_vectors() {
    let cases: &[(&str, &str)] = &[
        ("struct S {}; void k(int, S, float *) {}", "_Z1ki1SPf"),
        ("namespace ns { struct D {}; struct B {}; void k1(D, const B *) {} }", "_ZN2ns2k1ENS_1DEPKNS_1BE"),
        ("namespace ns { namespace inner { void k1b(int) {} } }", "_ZN2ns5inner3k1bEi"),
        ("struct S {}; void k2(int (*)(float, double), int S::*, void (S::*)(int)) {}", "_Z2k2PFifdEM1SiMS1_FviE"),
        (
            "enum E1 {}; enum class E2 {}; void k8(E1, E2, bool, char, signed char, unsigned char, wchar_t, char16_t, \
             char32_t, short, unsigned short, long, unsigned long, long long, unsigned long long, __int128, \
             unsigned __int128, float, double, decltype(nullptr)) {}",
            "_Z2k82E12E2bcahwDsDistlmxynofdDn",
        ),
        ("void k12(const int &, volatile int *, const volatile char *, int *__restrict__) {}", "_Z3k12RKiPViPVKcPi"),
        ("void k13(int[5], int (*)[3], int (&)[4]) {}", "_Z3k13PiPA3_iRA4_i"),
        (
            "namespace std { template <class A, class B> struct pair {}; template <class T, T v> struct integral_constant {}; \
             typedef unsigned long size_t; } void kstd(std::pair<int, int>, std::size_t, std::integral_constant<int, 3>) {}",
            "_Z4kstdSt4pairIiiEmSt17integral_constantIiLi3EE",
        ),
        (
            "struct S2 { int a; }; void kmpc(void (S2::*)(int) const, void (S2::*)() &&, int S2::*) {}",
            "_Z4kmpcM2S2KFviEMS_FvvOEMS_i",
        ),
        (
            "namespace outer { inline namespace v1 { struct InI {}; } } void kinl(outer::InI) {}",
            "_Z4kinlN5outer2v13InIE",
        ),
        ("void kconst(const int, const int *const) {}", "_Z6kconstiPKi"),
        ("void knx(void (*)() noexcept, void (*)(int)) {}", "_Z3knxPDoFvvEPFviE"),
        ("typedef struct { int a; } TS; void kts(TS) {}", "_Z3kts2TS"),
        (
            "struct Op { Op operator+(const Op &) const; }; Op Op::operator+(const Op &o) const { return o; }",
            "_ZNK2OpplERKS_",
        ),
        ("struct Op { operator int() const; }; Op::operator int() const { return 0; }", "_ZNK2OpcviEv"),
        ("struct Op { int operator()(int); }; int Op::operator()(int) { return 0; }", "_ZN2OpclEi"),
        ("struct A { A(); }; A::A() {}", "_ZN1AC1Ev"),
        ("struct A { int m(); }; int A::m() { return 1; }", "_ZN1A1mEv"),
        ("namespace N { int nv = 1; }", "_ZN1N2nvE"),
        ("int x = 1;", "x"),
        ("struct A { static int s; }; int A::s = 1;", "_ZN1A1sE"),
        ("extern \"C\" void cf() {}", "cf"),
        ("int main(int argc, char **argv) { return 0; }", "main"),
        ("namespace n { int main() { return 0; } }", "_ZN1n4mainEv"),
        ("extern \"C\" { int cv = 2; }", "cv"),
        ("typedef int I; typedef I *IP; void td(IP, I) {}", "_Z2tdPii"),
        ("namespace a { struct T {}; } using namespace a; void u(T, T *) {}", "_Z1uN1a1TEPS0_"),
        ("__attribute__((global)) void kern(int *p, float f) {}", "_Z4kernPif"),
    ];
    for (src, want) in cases {
        assert_eq!(mangled(src), *want, "{src}");
    }
}

/// The key is the first definition that qualifies (spec 30 §4.2).
#[test]
fn key_eligibility() {
    let skipped = "int a; static int b = 1; const int c = 2; constexpr int d = 3; inline int e = 4; auto f = 5;\n\
                   static void g() {} inline void h() {} constexpr int i() { return 1; } \n\
                   template <class T> void t(T) {} template void t<int>(int);\n\
                   namespace { void anon() {} int av = 1; }\n\
                   struct C { void inl() {} static int s; };\n\
                   void del() = delete; auto ded() { return 1; } extern int decl;\n";
    assert_eq!(key(skipped), None);
    assert_eq!(mangled(&format!("{skipped}int y = 2; void z() {{}}")), "y");
    assert_eq!(mangled(&format!("{skipped}extern const int ec = 1;")), "ec");
    assert_eq!(mangled(&format!("{skipped}auto tr() -> int {{ return 1; }}")), "_Z2trv");
    assert_eq!(mangled("const int *p = 0;"), "p");
}

#[test]
fn system_headers_do_not_count() {
    let src = "# 1 \"/usr/include/x.h\" 1 3\nint sys = 1;\n# 2 \"t.cu\" 2\nint user = 2;\n";
    assert_eq!(mangled(src), "user");
    // Placed at the declarator-id's last component (checked against
    // cudafe++ 13.0 in `crates/cufront/tests/module_id_vs_cudafe.rs`): the
    // attributes on a user line do not make the definition a user one, a
    // name on a user line does.
    let attrs = "# 1 \"s.h\" 1 3\n# 5 \"s.h\"\n__attribute__((host))\n# 5 \"s.h\" 3\nint f() { return 0; }\n# 2 \"t.cu\" 2\nint user = 2;\n";
    assert_eq!(mangled(attrs), "user");
    let name = "# 1 \"s.h\" 1 3\nnamespace N { int f(); } int N::\n# 5 \"s.h\"\nf() { return 0; }\n# 2 \"t.cu\" 2\nint user = 2;\n";
    assert_eq!(mangled(name), "_ZN1N1fEv");
}

#[test]
fn unresolved_types_are_errors_not_guesses() {
    assert!(matches!(key("void f(Unknown) {}"), Some(Err(_))));
}

/// `--device-c`: a host reference that needs the id (`__nv_static_<id>_`)
/// before any eligible definition gives the fallback (spec 30 §4.2; each
/// case checked against cudafe++ 13.0).
#[test]
fn device_c_key_is_fixed_at_the_first_internal_host_reference() {
    let rdc = |src: &str| key_in(src, true).map(|r| r.unwrap());
    let g = "__attribute__((global))";
    let d = "__attribute__((device))";
    let cases: Vec<(String, Option<&str>)> = vec![
        // A template kernel launched from a host template: always internal.
        (
            format!(
                "template<class T> {g} void k(T){{}} template<class T> void f(T t){{ k<<<1,1>>>(t); }} int x = 1; int main(){{}}"
            ),
            None,
        ),
        (
            format!("int x = 1; template<class T> {g} void k(T){{}} template<class T> void f(T t){{ k<<<1,1>>>(t); }}"),
            Some("x"),
        ),
        // Launched from main itself: main is already the key.
        (format!("template<class T> {g} void k(T){{}} int main(){{ k<<<1,1>>>(1); }}"), Some("main")),
        (format!("static {g} void k(int){{}} static void h(){{ k<<<1,1>>>(1); }} int x = 1;"), None),
        (format!("static {d} int v; static int *h(){{ return &v; }} int x = 1;"), None),
        // External entities and device code do not count.
        (format!("{d} int v; static int *h(){{ return &v; }} int x = 1;"), Some("x")),
        (format!("static {d} int v; static {g} void k(){{ v = 1; }} int x = 1;"), Some("x")),
    ];
    for (src, want) in cases {
        assert_eq!(rdc(&src).as_deref(), want, "{src}");
        let whole = key(&src).map(|r| r.unwrap());
        assert!(whole.is_some(), "{src}: whole-program mode keeps a key");
    }
}

/// Class template specializations spell every argument: defaults are filled
/// in (evaluated where they are constants) and packs are grouped (`J…E`).
#[test]
fn default_template_arguments() {
    let cases: &[(&str, &str)] = &[
        (
            "typedef unsigned long size_t; namespace cuda { namespace std { inline namespace __4 {\n\
             inline constexpr size_t dynamic_extent = static_cast<size_t>(-1);\n\
             template <typename _Tp, size_t _Extent = dynamic_extent> class span;\n\
             template <typename _Tp, size_t _Extent> class span {}; } } }\n\
             void min_max_count(cuda::std::span<const float> xs) {}",
            "_Z13min_max_countN4cuda3std3__44spanIKfLm18446744073709551615EEE",
        ),
        (
            "namespace std { template <class T> struct allocator {}; template <class T, class A = allocator<T>> struct vector {}; }\n\
             void v(std::vector<int>, std::vector<char>) {}",
            "_Z1vSt6vectorIiSaIiEES_IcSaIcEE",
        ),
        (
            "enum E { A = 3, B }; constexpr int k = B * 2 + (1 << 4); \n\
             template <int N = k, bool F = (k > 3), E e = B, char c = 'a', long l = -(long)k> struct S {};\n\
             void s(S<>, S<1>) {}",
            "_Z1s1SILi24ELb1EL1E4ELc97ELln24EES_ILi1ELb1ELS0_4ELc97ELln24EE",
        ),
        (
            "template <class T, T v> struct integral_constant {}; template <class T, int N = sizeof(T)> struct W {};\n\
             void ic(integral_constant<unsigned, 7>, W<short>) {}",
            "_Z2ic17integral_constantIjLj7EE1WIsLi2EE",
        ),
        (
            "template <class... Ts> struct tuple {}; template <class T, int... Is> struct seq {};\n\
             void t(tuple<float, float, int>, tuple<>, seq<char, 1, 2>) {}",
            "_Z1t5tupleIJffiEES_IJEE3seqIcJLi1ELi2EEE",
        ),
        (
            "namespace n { enum class Sc : short { X = 1, Y }; template <Sc s = Sc::Y> struct T {}; }\n\
             void sc(n::T<>) {}",
            "_Z2scN1n1TILNS_2ScE2EEE",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(mangled(src), *want, "{src}");
    }
    // What the evaluator cannot read stays an error.
    for src in [
        "int f(); template <int N = f()> struct S {}; void g(S<>) {}",
        "template <class T> struct S; void g(S<int>) {}",
        "template <class T, class U> struct P {}; void g(P<int>) {}",
    ] {
        let k = key(src);
        assert!(matches!(k, Some(Err(_))) || src.contains("struct S;"), "{src}: {k:?}");
    }
}

/// An unqualified operator function is a declarator whose name is the
/// `OPERATOR_NAME` itself: it is named like any other function (cudafe++
/// keys `__device__ Cplx operator*(Cplx, Cplx) {}` on `_Zml4CplxS_`).
#[test]
fn operator_functions_are_keys() {
    assert_eq!(
        mangled("struct C { float re; };\n__attribute__((device)) C operator*(C a, C b) { return a; }"),
        "_Zml1CS_"
    );
    assert_eq!(mangled("struct C {};\nbool operator==(const C&, const C&) { return true; }"), "_ZeqRK1CS1_");
    assert_eq!(mangled("struct C {};\nC operator-(C a) { return a; }"), "_Zng1C");
}

/// Keys whose eligibility or name needs the semantic model (each case
/// checked against cudafe++ 13.0): a class-type variable without an
/// initializer counts when its default initialization runs code; `const`
/// seen through typedefs (internal linkage) and through pointers (not);
/// C linkage kept by a redeclaration; a device variable keeps its source
/// name (its whole-program host shadow is `static`, not the entity).
#[test]
fn keys_that_need_types() {
    let d = "__attribute__((device))";
    let cases: Vec<(String, &str)> = vec![
        ("struct C { C(); }; C c; int main() {}".into(), "c"),
        ("struct C { C() = default; int x; }; C c; int main() {}".into(), "main"),
        ("struct C { int x = 1; }; C c; int main() {}".into(), "c"),
        ("struct K { ~K(); }; K k; int main() {}".into(), "k"),
        ("struct C { C(); }; extern C c; int main() {}".into(), "main"),
        ("struct C { C(); }; namespace N { C c; } int main() {}".into(), "_ZN1N1cE"),
        ("typedef const int CI; CI ci = 1; int main() {}".into(), "main"),
        ("const int *p = 0; int main() {}".into(), "p"),
        ("int *const p = 0; int main() {}".into(), "main"),
        ("const volatile int cvi = 1; int main() {}".into(), "cvi"),
        ("extern \"C\" void cf(); void cf() {}".into(), "cf"),
        (format!("{d} float m[] = {{1.f, 2.f}}; int main() {{}}"), "m"),
        (format!("namespace N {{ {d} int dv = 1; }} int main() {{}}"), "_ZN1N2dvE"),
        // ggml: the return type is a typedef of an alias template's function
        // pointer; it is not part of the name.
        (
            "typedef struct CUstream_st *cudaStream_t; typedef long int64_t; enum ggml_type { F32 };\n\
             template <class T> using to_t_cuda_t = void (*)(const void *, T *, int64_t, cudaStream_t);\n\
             typedef to_t_cuda_t<float> to_fp32_cuda_t; to_fp32_cuda_t get_to_fp32_cuda(ggml_type);\n\
             to_fp32_cuda_t get_to_fp32_cuda(ggml_type t) { return nullptr; }"
                .into(),
            "_Z16get_to_fp32_cuda9ggml_type",
        ),
        // CUTLASS example 48's `StrideA stride_A;`: the type reaches a class
        // with a non-trivial constructor through member typedefs of
        // specializations, one picked by a partial specialization whose
        // argument is CuTe's `is_tuple` (a `decltype` base). The real
        // cudafe++ keys on it (`_4629d79a_4_k_cu_stride_A` for k.cu).
        (
            "template <bool B> struct bool_constant { static constexpr bool value = B; };\n\
             using false_type = bool_constant<false>;\n\
             template <class T> struct tuple_size;\n\
             template <class... T> struct tuple { int v[sizeof...(T) + 1]; tuple() : v{} {} };\n\
             template <class... T> struct tuple_size<tuple<T...>> { static constexpr int value = sizeof...(T); };\n\
             namespace detail {\n\
             template <class T> auto has_tuple_size(T*) -> bool_constant<(0 <= tuple_size<T>::value)>;\n\
             auto has_tuple_size(...) -> false_type;\n\
             }\n\
             template <class T> struct is_tuple : decltype(detail::has_tuple_size((T*)0)) {};\n\
             template <class T, bool = is_tuple<T>::value> struct Pick { using Stride = int; };\n\
             template <class T> struct Pick<T, true> { using Stride = T; };\n\
             template <class L> struct Mainloop { using StrideA = typename Pick<L>::Stride; };\n\
             template <class M> struct Kernel { using StrideA = typename M::StrideA; };\n\
             template <class K> struct Adapter { using GemmKernel = K; };\n\
             using Gemm = Adapter<Kernel<Mainloop<tuple<long, int>>>>;\n\
             using StrideA = typename Gemm::GemmKernel::StrideA;\n\
             StrideA stride_A;\n\
             int main() { return stride_A.v[0]; }"
                .into(),
            "stride_A",
        ),
    ];
    // CUTLASS 48's schedule pick: `conditional<size<0>(TileShape{}) == 64, …>`
    // where CuTe's `get` returns an empty `C<N>` by `return {};`. The real
    // cudafe++ keys on `stride_A` when the condition is false (a class with
    // a user-provided constructor) and on `main` when true (`int`):
    // `_1880f6e2_4_k_cu_stride_A` / `_1880f6e2_4_k_cu_main` for k.cu.
    let pick = |n: u32| {
        format!(
            "template <int v> struct C {{ static constexpr int value = v; constexpr operator int() const {{ return v; }} }};\n\
             template <class... T> struct tuple {{ constexpr tuple() {{}} }};\n\
             template <int I, class... T> constexpr C<128> get(tuple<T...> const&) {{ return {{}}; }}\n\
             template <bool B, class T, class F> struct conditional {{ using type = T; }};\n\
             template <class T, class F> struct conditional<false, T, F> {{ using type = F; }};\n\
             struct Coop {{ using Stride = tuple<long, int>; }};\n\
             struct Ping {{ using Stride = int; }};\n\
             using Sched = typename conditional<get<0>(tuple<int>{{}}) == {n}, Ping, Coop>::type;\n\
             typename Sched::Stride stride_A;\n\
             int main() {{}}"
        )
    };
    let cases = cases.into_iter().chain([(pick(64), "stride_A"), (pick(128), "main")]);
    for (src, want) in cases {
        assert_eq!(key(&src), Some(Ok(want.to_string())), "{src}");
    }
}
