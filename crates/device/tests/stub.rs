//! The stub file and the listing of a small unit, as snapshots (the corpus
//! comparison with the real cicc is `crates/cufront/tests/device_stub.rs`).

use std::sync::Arc;

use cufront_base_db::{LangOptions, RootDatabase, new_options, new_translation_unit};
use cufront_device::{keep, listing, stub};
use expect_test::expect;

const UNIT: &str = r#"# 1 "x.cu"
struct S { int a; double b; };
typedef unsigned long size_t;
__attribute__((global)) void k(int *__restrict__ p, S s, size_t n)
{
    p[0] = s.a;
}
template <class T, int N> __attribute__((global)) void t(T *p) { }
void host() { t<float, 3><<<1, 1>>>(0); }
__attribute__((device)) int dv;
__attribute__((constant)) float cv[] = {1, 2, 3};
namespace ns { static __attribute__((managed)) int m; }
"#;

fn outputs(device_c: bool) -> (String, String) {
    outputs_of(UNIT, "_0a1b2c3d_4_x_cu_k", device_c)
}

/// The stub file and the listing of `unit` (`x.ii`) with module id `mid`.
fn outputs_of(unit: &str, mid: &str, device_c: bool) -> (String, String) {
    let db = RootDatabase::new();
    let opts = new_options(&db, LangOptions { device_view: true, ..LangOptions::default() });
    let tu = new_translation_unit(&db, "x.ii".into(), Arc::from(unit), opts);
    let sopts = stub::StubOptions {
        stub_path: "k/x.cudafe1.stub.c".into(),
        include_file: Some("x.fatbin.c".into()),
        module_id: Some(mid.into()),
        device_c,
    };
    let text = stub::stub_file(&db, tu, &sopts).unwrap();
    let kopts = keep::KeepOptions { module_id: mid.into(), device_c, ..Default::default() };
    (text, listing::listing(&db, tu, &kopts))
}

#[test]
fn whole_program() {
    let (stub, listing) = outputs(false);
    expect![[r##"
        #pragma GCC diagnostic push
        #pragma GCC diagnostic ignored "-Wunused-function"
        #pragma GCC diagnostic ignored "-Wcast-qual"
        #define __NV_CUBIN_HANDLE_STORAGE__ static
        #if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
        #define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
        #endif
        #include "crt/host_runtime.h"
        #include "x.fatbin.c"
        extern __attribute__((visibility("hidden"))) void __device_stub__Z1kPi1Sm(int *__restrict__, struct S&, size_t);
        static void __device_stub__Z1tIfLi3EEvPT_(float *);
        static void __nv_cudaEntityRegisterCallback(void **);
        static void __sti____cudaRegisterAll(void) __attribute__((__constructor__));
        __attribute__((visibility("hidden"))) void __device_stub__Z1kPi1Sm(int *__restrict__ __par0, struct S&__par1, size_t __par2){ int *__T0;
        __cudaLaunchPrologue(3);__T0 = __par0;__cudaSetupArgSimple(__T0, 0UL);__cudaSetupArg(__par1, 8UL);__cudaSetupArgSimple(__par2, 24UL);__cudaLaunch(((char *)((void ( *)(int *__restrict__, struct S, size_t))k)), 0U);}
        # 3 "x.cu"
        void k( int *__restrict__ __cuda_0,struct ::S __cuda_1,::size_t __cuda_2)
        # 4 "x.cu"
        {__device_stub__Z1kPi1Sm( __cuda_0,__cuda_1,__cuda_2);

        }
        # 1 "k/x.cudafe1.stub.c"
        static void __device_stub__Z1tIfLi3EEvPT_( float *__par0) {  __cudaLaunchPrologue(1); __cudaSetupArgSimple(__par0, 0UL); __cudaLaunch(((char *)((void ( *)(float *))t<float, (int)3> )), 0U); }
        template<> __specialization_static void __wrapper__device_stub_t<float,3>( float *&__cuda_0){__device_stub__Z1tIfLi3EEvPT_( (float *&)__cuda_0);}
        static void __nv_cudaEntityRegisterCallback( void **__T1) {  __nv_dummy_param_ref(__T1); __nv_save_fatbinhandle_for_managed_rt(__T1); __cudaRegisterEntry(__T1, ((void ( *)(float *))t<float, (int)3> ), _Z1tIfLi3EEvPT_, (-1)); __cudaRegisterEntry(__T1, ((void ( *)(int *__restrict__, struct S, size_t))k), _Z1kPi1Sm, (-1)); __cudaRegisterVariable(__T1, __shadow_var(dv,::dv), 0, 4UL, 0, 0); __cudaRegisterVariable(__T1, __shadow_var(cv,::cv), 0, 12UL, 1, 0); __cudaRegisterManagedVariable(__T1, __shadow_var(_ZN27_INTERNAL_0a1b2c3d_4_x_cu_k2ns1mE,::ns::m), 0, 4UL, 0, 0); }
        static void __sti____cudaRegisterAll(void) {  __cudaRegisterBinary(__nv_cudaEntityRegisterCallback);  }

        #pragma GCC diagnostic pop
    "##]].assert_eq(&stub);
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kPi1Sm (a kernel)
        kernel _Z1tIfLi3EEvPT_ (a kernel template instance the unit reaches)
        variable dv (a namespace-scope device variable)
        variable cv (a namespace-scope device variable)
        variable _ZN27_INTERNAL_0a1b2c3d_4_x_cu_k2ns1mE (a namespace-scope device variable)
    "#]]
    .assert_eq(&listing);
}

#[test]
fn separate_compilation() {
    let (stub, listing) = outputs(true);
    expect![[r##"
        #pragma GCC diagnostic push
        #pragma GCC diagnostic ignored "-Wunused-function"
        #pragma GCC diagnostic ignored "-Wcast-qual"
        #define __NV_MODULE_ID _0a1b2c3d_4_x_cu_k
        #define __NV_CUBIN_HANDLE_STORAGE__ extern
        #if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
        #define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
        #endif
        #include "crt/host_runtime.h"
        #include "x.fatbin.c"
        extern __attribute__((visibility("hidden"))) void __device_stub__Z1kPi1Sm(int *__restrict__, struct S&, size_t);
        static void __device_stub__Z1tIfLi3EEvPT_(float *);
        static void __nv_cudaEntityRegisterCallback(void **);
        static void __sti____cudaRegisterAll(void) __attribute__((__constructor__));
        __attribute__((visibility("hidden"))) void __device_stub__Z1kPi1Sm(int *__restrict__ __par0, struct S&__par1, size_t __par2){ int *__T0;
        __cudaLaunchPrologue(3);__T0 = __par0;__cudaSetupArgSimple(__T0, 0UL);__cudaSetupArg(__par1, 8UL);__cudaSetupArgSimple(__par2, 24UL);__cudaLaunch(((char *)((void ( *)(int *__restrict__, struct S, size_t))k)), 0U);}
        # 3 "x.cu"
        void k( int *__restrict__ __cuda_0,struct ::S __cuda_1,::size_t __cuda_2)
        # 4 "x.cu"
        {__device_stub__Z1kPi1Sm( __cuda_0,__cuda_1,__cuda_2);

        }
        # 1 "k/x.cudafe1.stub.c"
        static void __device_stub__Z1tIfLi3EEvPT_( float *__par0) {  __cudaLaunchPrologue(1); __cudaSetupArgSimple(__par0, 0UL); __cudaLaunch(((char *)((void ( *)(float *))t<float, (int)3> )), 0U); }
        template<> __specialization_static void __wrapper__device_stub_t<float,3>( float *&__cuda_0){__device_stub__Z1tIfLi3EEvPT_( (float *&)__cuda_0);}
        static void __nv_cudaEntityRegisterCallback( void **__T1) {  __nv_dummy_param_ref(__T1); __nv_save_fatbinhandle_for_managed_rt(__T1); __cudaRegisterEntry(__T1, ((void ( *)(float *))t<float, (int)3> ), _Z1tIfLi3EEvPT_, (-1)); __cudaRegisterEntry(__T1, ((void ( *)(int *__restrict__, struct S, size_t))k), _Z1kPi1Sm, (-1)); __cudaRegisterVariable(__T1, __shadow_var(dv,::dv), 0, 4UL, 0, 0); __cudaRegisterVariable(__T1, __shadow_var(cv,::cv), 0, 12UL, 1, 0); __cudaRegisterManagedVariable(__T1, __shadow_var(__nv_static_18__0a1b2c3d_4_x_cu_k__ZN27_INTERNAL_0a1b2c3d_4_x_cu_k2ns1mE,::ns::m), 0, 4UL, 0, 0); }
        static void __sti____cudaRegisterAll(void) {  ____cudaRegisterLinkedBinary(__nv_cudaEntityRegisterCallback);  }

        #pragma GCC diagnostic pop
    "##]].assert_eq(&stub);
    expect![[r#"
        # cufront device listing v1: KIND NAME (why kept)
        kernel _Z1kPi1Sm (a kernel)
        kernel _Z1tIfLi3EEvPT_ (a kernel template instance the unit reaches)
        variable dv (a namespace-scope device variable)
        variable cv (a namespace-scope device variable)
        variable __nv_static_18__0a1b2c3d_4_x_cu_k__ZN27_INTERNAL_0a1b2c3d_4_x_cu_k2ns1mE (a namespace-scope device variable)
    "#]].assert_eq(&listing);
}

#[test]
fn explicit_instantiations_are_registered_and_kept() {
    // As cicc: the kernel instances are stubbed in the order of their first
    // reference (the one launched between two explicit instantiations is
    // stubbed between them) and registered in reverse; an explicitly
    // instantiated device function is listed.
    const EXPLICIT: &str = r#"# 1 "x.cu"
template <class T> __attribute__((global)) void kt(T) { }
template __attribute__((global)) void kt<float>(float);
void h() { kt<<<1, 1>>>(1); }
template __attribute__((global)) void kt(char);
template <class T> __attribute__((device)) T dv(T t) { return t; }
template __attribute__((device)) double dv(double);
extern template __attribute__((device)) int dv(int);
"#;
    let (text, listing) = outputs_of(EXPLICIT, "_0a1b2c3d_4_x_cu_kt", false);
    let mut got: Vec<&str> = text.lines().filter(|l| l.contains("__device_stub__Z") && l.ends_with(");")).collect();
    got.extend(text.lines().filter(|l| l.contains("__cudaRegisterEntry")));
    got.extend(listing.lines().filter(|l| l.contains("_Z2dv")));
    expect![[r#"
        [
            "static void __device_stub__Z2ktIfEvT_(float);",
            "static void __device_stub__Z2ktIiEvT_(int);",
            "static void __device_stub__Z2ktIcEvT_(char);",
            "static void __nv_cudaEntityRegisterCallback(void **__T0){__nv_dummy_param_ref(__T0);__nv_save_fatbinhandle_for_managed_rt(__T0);__cudaRegisterEntry(__T0, ((void ( *)(char))kt<char> ), _Z2ktIcEvT_, (-1));__cudaRegisterEntry(__T0, ((void ( *)(int))kt<int> ), _Z2ktIiEvT_, (-1));__cudaRegisterEntry(__T0, ((void ( *)(float))kt<float> ), _Z2ktIfEvT_, (-1));}",
            "function _Z2dvIdET_S0_ (defined in the unit, external, not inline)",
        ]
    "#]].assert_debug_eq(&got);
}

/// Extended lambdas handed to kernels: the device view keeps their closure
/// types (the listing names them as cicc does, `Z4mainEUliE_`), the stub
/// spells each by a `typedef` of cudafe++'s wrapper type for it and names
/// the stub functions with cicc's vendor form of the closure type
/// (`Unvdl…`, `Unvdtl…`, `Unvhdl…`). Every name and wrapper spelling below
/// was checked against the real nvcc's stub file for the same shapes.
#[test]
fn extended_lambdas() {
    let unit = r#"# 1 "x.cu"
struct __attribute__((device_builtin)) __nv_lambda_preheader_injection { };
template <class F> __attribute__((global)) void kern(int n, F f) { f(n); }
template <class T, class F> __attribute__((global)) void kern2(T *p, F f) { p[0] = f(p[0]); }
namespace ns {
struct Pt { int x, y; };
void run(int *out, float s) {
  Pt pt{1, 2};
  kern<<<1, 1>>>(3, [=] __attribute__((device)) (int i) { out[i] = pt.x + s; });
  kern<<<1, 1>>>(3, [=] __attribute__((host)) __attribute__((device)) (int i) mutable { out[i] = i; });
  kern<<<1, 1>>>(3, [=] __attribute__((device)) (int i) -> float { return out[i] * s; });
}
template <class T> void tmpl(T *p, T v) {
  kern2<<<1, 1>>>(p, [v] __attribute__((device)) (T a) { return a + v; });
  kern2<<<1, 1>>>(p, [=] __attribute__((host)) __attribute__((device)) (T a) noexcept { return a * v; });
}
struct Runner {
  int k;
  void go(int *p) const { kern<<<1,1>>>(k, [=, *this] __attribute__((device)) (int i) { p[i] = k; }); }
};
}
namespace { void anon(int *p) { kern<<<1,1>>>(1, [p] __attribute__((device)) (int i) { p[i] = 0; }); } }
int main() {
  int *d = nullptr;
  anon(d);
  ns::run(d, 2.0f);
  ns::tmpl(d, 3);
  ns::Runner r{4}; r.go(d);
  int arr[3] = {1,2,3};
  kern<<<1,1>>>(1, [=] __attribute__((device)) (int i) { d[i] = arr[i]; });
  kern<<<1,1>>>(1, [] __attribute__((host)) __attribute__((device)) (float x) { return x; });
  return 0;
}
"#;
    let (stub, listing) = outputs_of(unit, "_0a1b2c3d_4_x_cu_k", false);
    let lines: String =
        stub.lines().filter(|l| l.starts_with("typedef") || l.ends_with(");")).map(|l| format!("{l}\n")).collect();
    expect![[r#"
        typedef __nv_dl_wrapper_t<__nv_dl_tag<void (*)(int *, float),(& :: ns::run), 1> ,int *, ::ns::Pt,float> _ZZN2ns3runEPifEUliE_;
        typedef __nv_hdl_wrapper_t<true,false,false,__nv_dl_tag<void (*)(int *, float),(& :: ns::run), 2> ,void (int),int *> _ZZN2ns3runEPifEUliE0_;
        typedef __nv_dl_wrapper_t<__nv_dl_trailing_return_tag<void (*)(int *, float),(& :: ns::run), float, 3> ,int *,float> _ZZN2ns3runEPifEUliE1_;
        typedef __nv_dl_wrapper_t<__nv_dl_tag<void (*)(int *),(&    ::_NV_ANON_NAMESPACE::anon), 1> ,int *> _ZZN27_INTERNAL_0a1b2c3d_4_x_cu_k29_GLOBAL__N__0a1b2c3d_4_x_cu_k4anonEPiEUliE_;
        typedef __nv_dl_wrapper_t<__nv_dl_tag<int (*)(),(&     ::main), 1> ,int *,int [3]> _ZZ4mainEUliE_;
        typedef __nv_hdl_wrapper_t<false,true,false,__nv_dl_tag<int (*)(),(&     ::main), 2> ,float (float)> _ZZ4mainEUlfE_;
        typedef __nv_dl_wrapper_t<__nv_dl_tag<void (*)(int *, int),(& :: ns::tmpl<int> ), 1> ,int> _ZZN2ns4tmplIiEEvPT_S1_EUliE_;
        typedef __nv_hdl_wrapper_t<false,false,true,__nv_dl_tag<void (*)(int *, int),(& :: ns::tmpl<int> ), 2> ,int (int),int> _ZZN2ns4tmplIiEEvPT_S1_EUliE0_;
        typedef __nv_dl_wrapper_t<__nv_dl_tag<void ( :: ns::Runner::*)(int *) const,(& :: ns::Runner::go), 1> ,const ns::Runner,int *> _ZZNK2ns6Runner2goEPiEUliE_;
        static void __device_stub__Z4kernIZN2ns3runEPifEUnvdl3_PFvS1_fENS0_3runE1_S1_NS0_2PtEfEviT_(int,  _ZZN2ns3runEPifEUliE_&);
        static void __device_stub__Z4kernIZN2ns3runEPifEUnvhdl1_0_0_1_PFvS1_fENS0_3runE2_viES1_EviT_(int,  _ZZN2ns3runEPifEUliE0_&);
        static void __device_stub__Z4kernIZN2ns3runEPifEUnvdtl2_PFvS1_fENS0_3runEf3_S1_fEviT_(int,  _ZZN2ns3runEPifEUliE1_&);
        static void __device_stub__Z4kernIZNK2ns6Runner2goEPiEUnvdl2_MS1_KFvS2_ENKS1_2goE1_KS1_S2_EviT_(int,  _ZZNK2ns6Runner2goEPiEUliE_&);
        static void __device_stub__Z4kernIZN27_INTERNAL_0a1b2c3d_4_x_cu_k29_GLOBAL__N__0a1b2c3d_4_x_cu_k4anonEPiEUnvdl1_PFvS2_ENS1_4anonE1_S2_EviT_(int,  _ZZN27_INTERNAL_0a1b2c3d_4_x_cu_k29_GLOBAL__N__0a1b2c3d_4_x_cu_k4anonEPiEUliE_&);
        static void __device_stub__Z4kernIZ4mainEUnvdl2_PFivE4main1_PiA3_iEviT_(int,  _ZZ4mainEUliE_&);
        static void __device_stub__Z4kernIZ4mainEUnvhdl0_1_0_0_PFivE4main2_ffEEviT_(int,  _ZZ4mainEUlfE_&);
        static void __device_stub__Z5kern2IiZN2ns4tmplIiEEvPT_S2_EUnvdl1_PFvPiiES1_IiE1_iEvS3_T0_(int *,  _ZZN2ns4tmplIiEEvPT_S1_EUliE_&);
        static void __device_stub__Z5kern2IiZN2ns4tmplIiEEvPT_S2_EUnvhdl0_0_1_1_PFvPiiES1_IiE2_iiEiEvS3_T0_(int *,  _ZZN2ns4tmplIiEEvPT_S1_EUliE0_&);
        static void __nv_cudaEntityRegisterCallback(void **);
        static void __sti____cudaRegisterAll(void) __attribute__((__constructor__));
    "#]].assert_eq(&lines);
    let kernels: String = listing.lines().filter(|l| l.contains("kern")).map(|l| format!("{l}\n")).collect();
    expect![[r#"
        kernel _Z4kernIZN2ns3runEPifEUliE_EviT_ (a kernel template instance the unit reaches)
        kernel _Z4kernIZN2ns3runEPifEUliE0_EviT_ (a kernel template instance the unit reaches)
        kernel _Z4kernIZN2ns3runEPifEUliE1_EviT_ (a kernel template instance the unit reaches)
        kernel _Z4kernIZNK2ns6Runner2goEPiEUliE_EviT_ (a kernel template instance the unit reaches)
        kernel _Z4kernIZN27_INTERNAL_0a1b2c3d_4_x_cu_k29_GLOBAL__N__0a1b2c3d_4_x_cu_k4anonEPiEUliE_EviT_ (a kernel template instance the unit reaches)
        kernel _Z4kernIZ4mainEUliE_EviT_ (a kernel template instance the unit reaches)
        kernel _Z4kernIZ4mainEUlfE_EviT_ (a kernel template instance the unit reaches)
        kernel _Z5kern2IiZN2ns4tmplIiEEvPT_S2_EUliE_EvS3_T0_ (a kernel template instance the unit reaches)
        kernel _Z5kern2IiZN2ns4tmplIiEEvPT_S2_EUliE0_EvS3_T0_ (a kernel template instance the unit reaches)
        function _ZZN2ns4tmplIiEEvPT_S1_ENKUliE_clEi (referenced by _Z5kern2IiZN2ns4tmplIiEEvPT_S2_EUliE_EvS3_T0_)
        function _ZZN2ns4tmplIiEEvPT_S1_ENKUliE0_clEi (referenced by _Z5kern2IiZN2ns4tmplIiEEvPT_S2_EUliE0_EvS3_T0_)
        function _ZZNK2ns6Runner2goEPiENKUliE_clEi (referenced by _Z4kernIZNK2ns6Runner2goEPiEUliE_EviT_)
    "#]]
    .assert_eq(&kernels);
}

/// A kernel template in namespaces (an inline one among them): the casts
/// name it qualified, and the wrapper's specialization is defined inside
/// its namespaces, opened after the stub's definition and closed at the
/// end of its line (cicc's form, seen on CUB's kernels). A union parameter
/// is passed to the stub by reference, set up by `__cudaSetupArgSimple`.
#[test]
fn kernel_templates_in_namespaces_and_union_parameters() {
    let unit = r#"# 1 "x.cu"
union U { int i; float f; };
namespace lib { inline namespace v1 { namespace detail {
template <class T> __attribute__((global)) void empty(T x, U u) { }
} } }
void host() { lib::detail::empty<int><<<1, 1>>>(0, U{}); }
"#;
    let (stub, _) = outputs_of(unit, "_0a1b2c3d_4_x_cu_k", false);
    expect![[r##"
        #pragma GCC diagnostic push
        #pragma GCC diagnostic ignored "-Wunused-function"
        #pragma GCC diagnostic ignored "-Wcast-qual"
        #define __NV_CUBIN_HANDLE_STORAGE__ static
        #if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
        #define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
        #endif
        #include "crt/host_runtime.h"
        #include "x.fatbin.c"
        static void __device_stub__ZN3lib2v16detail5emptyIiEEvT_1U(int, union U&);
        static void __nv_cudaEntityRegisterCallback(void **);
        static void __sti____cudaRegisterAll(void) __attribute__((__constructor__));
        static void __device_stub__ZN3lib2v16detail5emptyIiEEvT_1U(int __par0, union U&__par1){__cudaLaunchPrologue(2);__cudaSetupArgSimple(__par0, 0UL);__cudaSetupArgSimple(__par1, 4UL);__cudaLaunch(((char *)((void ( *)(int, union U))lib::v1::detail::empty<int> )), 0U);}namespace lib{
        inline namespace v1{
        namespace detail{

        template<> __specialization_static void __wrapper__device_stub_empty<int>( int &__cuda_0,union ::U &__cuda_1){__device_stub__ZN3lib2v16detail5emptyIiEEvT_1U( (int &)__cuda_0,(union ::U &)__cuda_1);}}}}
        static void __nv_cudaEntityRegisterCallback(void **__T0){__nv_dummy_param_ref(__T0);__nv_save_fatbinhandle_for_managed_rt(__T0);__cudaRegisterEntry(__T0, ((void ( *)(int, union U))lib::v1::detail::empty<int> ), _ZN3lib2v16detail5emptyIiEEvT_1U, (-1));}
        static void __sti____cudaRegisterAll(void){__cudaRegisterBinary(__nv_cudaEntityRegisterCallback);}

        #pragma GCC diagnostic pop
    "##]]
    .assert_eq(&stub);
}

/// Alias template specializations written in a kernel template's
/// parameters stay as EDG's sugar: each named by its mangled name and
/// declared by a typedef of the builtin type it denotes, or else of itself
/// (checked against cicc: the stub cicc writes for this unit, as a `.cu`,
/// has the same lines).
#[test]
fn alias_template_specializations_in_kernel_parameters() {
    let unit = r#"# 1 "x.cu"
namespace meta {
template <class T> struct elem { typedef float type; };
template <> struct elem<int> { typedef long type; };
template <class T> using elem_t = typename elem<T>::type;
template <class T> using ptr_t = T *;
template <class T> struct box { T v; };
template <class T> using box_t = box<T>;
}
template <class T> __attribute__((global)) void k(meta::elem_t<T> *out, meta::elem_t<T> v, meta::ptr_t<T> in, meta::box_t<T> b) {}
void host() { k<int><<<1, 1>>>(0, 0, 0, {}); k<double><<<1, 1>>>(0, 0, 0, {}); }
"#;
    let (stub, _) = outputs_of(unit, "_0a1b2c3d_4_x_cu_k", false);
    let lines: String = stub
        .lines()
        .filter(|l| l.starts_with("typedef") || l.contains("__device_stub__Z1k"))
        .map(|l| format!("{l}\n"))
        .collect();
    expect![[r#"
        typedef long _ZN4meta6elem_tIiEE;
        typedef meta::ptr_t<int>  _ZN4meta5ptr_tIiEE;
        typedef meta::box_t<int>  _ZN4meta5box_tIiEE;
        typedef float _ZN4meta6elem_tIdEE;
        typedef meta::ptr_t<double>  _ZN4meta5ptr_tIdEE;
        typedef meta::box_t<double>  _ZN4meta5box_tIdEE;
        static void __device_stub__Z1kIiEvPN4meta4elemIT_E4typeES4_PS2_NS0_3boxIS2_EE(_ZN4meta6elem_tIiEE *, _ZN4meta6elem_tIiEE, _ZN4meta5ptr_tIiEE, _ZN4meta5box_tIiEE&);
        static void __device_stub__Z1kIdEvPN4meta4elemIT_E4typeES4_PS2_NS0_3boxIS2_EE(_ZN4meta6elem_tIdEE *, _ZN4meta6elem_tIdEE, _ZN4meta5ptr_tIdEE, _ZN4meta5box_tIdEE&);
        static void __device_stub__Z1kIiEvPN4meta4elemIT_E4typeES4_PS2_NS0_3boxIS2_EE(_ZN4meta6elem_tIiEE *__par0, _ZN4meta6elem_tIiEE __par1, _ZN4meta5ptr_tIiEE __par2, _ZN4meta5box_tIiEE&__par3){__cudaLaunchPrologue(4);__cudaSetupArgSimple(__par0, 0UL);__cudaSetupArgSimple(__par1, 8UL);__cudaSetupArgSimple(__par2, 16UL);__cudaSetupArg(__par3, 24UL);__cudaLaunch(((char *)((void ( *)(_ZN4meta6elem_tIiEE *, _ZN4meta6elem_tIiEE, _ZN4meta5ptr_tIiEE, _ZN4meta5box_tIiEE))k<int> )), 0U);}
        template<> __specialization_static void __wrapper__device_stub_k<int>( _ZN4meta6elem_tIiEE *&__cuda_0,_ZN4meta6elem_tIiEE &__cuda_1,_ZN4meta5ptr_tIiEE &__cuda_2,_ZN4meta5box_tIiEE &__cuda_3){__device_stub__Z1kIiEvPN4meta4elemIT_E4typeES4_PS2_NS0_3boxIS2_EE( (_ZN4meta6elem_tIiEE *&)__cuda_0,(_ZN4meta6elem_tIiEE &)__cuda_1,(_ZN4meta5ptr_tIiEE &)__cuda_2,(_ZN4meta5box_tIiEE &)__cuda_3);}
        static void __device_stub__Z1kIdEvPN4meta4elemIT_E4typeES4_PS2_NS0_3boxIS2_EE(_ZN4meta6elem_tIdEE *__par0, _ZN4meta6elem_tIdEE __par1, _ZN4meta5ptr_tIdEE __par2, _ZN4meta5box_tIdEE&__par3){__cudaLaunchPrologue(4);__cudaSetupArgSimple(__par0, 0UL);__cudaSetupArgSimple(__par1, 8UL);__cudaSetupArgSimple(__par2, 16UL);__cudaSetupArg(__par3, 24UL);__cudaLaunch(((char *)((void ( *)(_ZN4meta6elem_tIdEE *, _ZN4meta6elem_tIdEE, _ZN4meta5ptr_tIdEE, _ZN4meta5box_tIdEE))k<double> )), 0U);}
        template<> __specialization_static void __wrapper__device_stub_k<double>( _ZN4meta6elem_tIdEE *&__cuda_0,_ZN4meta6elem_tIdEE &__cuda_1,_ZN4meta5ptr_tIdEE &__cuda_2,_ZN4meta5box_tIdEE &__cuda_3){__device_stub__Z1kIdEvPN4meta4elemIT_E4typeES4_PS2_NS0_3boxIS2_EE( (_ZN4meta6elem_tIdEE *&)__cuda_0,(_ZN4meta6elem_tIdEE &)__cuda_1,(_ZN4meta5ptr_tIdEE &)__cuda_2,(_ZN4meta5box_tIdEE &)__cuda_3);}
    "#]].assert_eq(&lines);
}
