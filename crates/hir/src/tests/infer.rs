//! Inference: snippets → what each body requires (mangled), and the calls left unresolved.

use expect_test::expect;

use super::calls as check;

#[test]
fn free_functions_and_overloads() {
    check(
        "void f(int); void f(double); void f(const char*); long g(long, int = 0);\n\
         namespace n { struct A {}; void h(A); int v; }\n\
         void user() { f(1); f(2.0); f(\"s\"); f('c'); g(1); n::A a; h(a); n::v = 2; }",
        "user",
        expect![[r#"
            _Z1fi
            _Z1fd
            _Z1fPKc
            _Z1gli
            _ZN1n1hENS_1AE
            _ZN1n1vE
        "#]],
    );
}

#[test]
fn members_ctors_dtors_operators() {
    check(
        "struct S { S(); S(int); S(const S&); S(S&&); ~S(); int m(int) const; static int sm(); S& operator+=(const S&); int x; };\n\
         S operator+(const S&, const S&); bool operator==(const S&, const S&);\n\
         S make();\n\
         void user() { S a; S b(1); S c = a; S d = make(); a.m(2); S::sm(); a += b; (void)(a == b); S e = a + b; S* p = new S(3); delete p; }",
        "user",
        expect![[r#"
            _ZN1SC1Ev
            _ZN1SC1Ei
            _ZN1SC1ERKS_
            _Z4makev
            _ZN1SD1Ev
            _ZNK1S1mEi
            _ZN1S2smEv
            _ZN1SpLERKS_
            _ZeqRK1SS1_
            _ZplRK1SS1_
        "#]],
    );
}

#[test]
fn function_templates() {
    check(
        "template<class T> T id(T x) { return x; }\n\
         template<class T> void fwd(T&& x);\n\
         template<class T, int N> int size(T (&)[N]);\n\
         template<class... Ts> void many(Ts... xs);\n\
         template<class T> struct V { void push(const T&); T* data(); };\n\
         void user() { id(1); id<long>(2); int i = 0; fwd(i); fwd(3); int arr[4]; size(arr); many(1, 2.0, 'c'); V<int> v; v.push(1); v.data(); }",
        "user",
        expect![[r#"
            _Z2idIiET_S0_
            _Z2idIlET_S0_
            _Z3fwdIRiEvOT_
            _Z3fwdIiEvOT_
            _Z4sizeIiLi4EEiRAT0__T_
            _Z4manyIJidcEEvDpT_
            _ZN1VIiE4pushERKi
            _ZN1VIiE4dataEv
        "#]],
    );
}

#[test]
fn deduction_through_templates() {
    check(
        "template<class R, class P = int> struct dur { };\n\
         template<class C, class D = typename C::duration> struct tp { tp(); explicit tp(const D&); };\n\
         struct clk { typedef dur<long> duration; };\n\
         template<class ToD, class C, class D> tp<C, ToD> cast(const tp<C, D>& t);\n\
         template<class T> struct B { }; template<class T> struct Dv : B<T> { };\n\
         template<class T> void base(const B<T>&);\n\
         void user() { tp<clk, dur<long, char>> x; cast<dur<long>>(x); cast<dur<long>>(tp<clk, dur<long,char>>(dur<long,char>()));\n\
           Dv<int> d; base(d); }",
        "user",
        expect![[r#"
            _ZN2tpI3clk3durIlcEEC1Ev
            _Z4castI3durIliE3clkS0_IlcEE2tpIT0_T_ERKS4_IS5_T1_E
            _ZN2tpI3clk3durIlcEEC1ERKS2_
            _Z4baseIiEvRK1BIT_E
        "#]],
    );
}

#[test]
fn classes_ops_like() {
    check(
        "typedef unsigned long size_t;\n\
         template<class T> class DeviceArray { public: explicit DeviceArray(size_t n) : n_(n) { } ~DeviceArray() { } T* p_ = nullptr; size_t n_ = 0; };\n\
         class Job { public: virtual ~Job() = default; virtual void run() = 0; };\n\
         class PowerJob final : public Job { public: PowerJob(int n, int e) : in_(n), out_(n), exponent_(e) {} void run() override {} private: DeviceArray<float> in_, out_; int exponent_; };\n\
         int main() { Job* j = new PowerJob(500, 8); DeviceArray<int> a(3); return 0; }",
        "main",
        expect![[r#"
            _ZN8PowerJobC1Eii
            _ZN11DeviceArrayIiEC1Em
            _ZN11DeviceArrayIiED1Ev
        "#]],
    );
}

#[test]
fn detection_idiom() {
    check(
        "template<class T> struct has_ptr { typedef char yes; typedef int no;\n\
           template<class S> static yes test(typename S::pointer*);\n\
           template<class S> static no test(...);\n\
           static const bool value = sizeof(test<T>(0)) == sizeof(yes); };\n\
         struct A { typedef int* pointer; }; struct B {};\n\
         template<bool> struct pick { void f(); };\n\
         void user() { pick<has_ptr<A>::value> a; a.f(); pick<has_ptr<B>::value> b; b.f(); }",
        "user",
        expect![[r#"
            _ZN4pickILb1EE1fEv
            _ZN4pickILb0EE1fEv
        "#]],
    );
}

#[test]
fn block_scope_aliases_and_using_declarations() {
    // Local aliases and typedefs type later locals; a block-scope
    // using-declaration makes `sel` visible; an unqualified redeclaration
    // that defines a declared template is its definition.
    check(
        "namespace a { struct S { void m(); }; template<class T> struct tr { using type = S; }; int sel(S); }\n\
         template<class T> void g(T x);\n\
         template<class T> void g(T x) { using a::sel; using U = typename a::tr<T>::type; typedef typename a::tr<T>::type V; U u; V v; u.m(); v.m(); sel(u); }\n\
         void user() { g(1); }",
        "user",
        expect![[r#"
            _Z1gIiEvT_
        "#]],
    );
    let (db, tu) = super::db_with(
        "namespace a { struct S { void m(); }; template<class T> struct tr { using type = S; }; int sel(S); }\n\
         template<class T> void g(T x);\n\
         template<class T> void g(T y) { using a::sel; using U = typename a::tr<T>::type; typedef typename a::tr<T>::type V; U u; V v; u.m(); v.m(); sel(u); }\n\
         void user() { g(1); }",
    );
    let names: Vec<String> = crate::symbols::entities(&db, tu).into_iter().filter_map(|(_, n)| n.ok()).collect();
    for want in ["_Z1gIiEvT_", "_ZN1a1S1mEv", "_ZN1a3selENS_1SE"] {
        assert!(names.iter().any(|n| n == want), "{want} missing from {names:?}");
    }
}

#[test]
fn explicit_arguments_braced_lists_and_array_parameters() {
    // A parameter with no template parameter left to deduce takes no part
    // in deduction; a braced list is a non-deduced context; an array
    // parameter is a pointer (a null pointer constant converts to it).
    check(
        "struct B { int v; }; template<class T> struct Box { T v; };\n\
         template<class T, int N> void f(const T x, Box<T> b, int arr[4], int (*fp)(int));\n\
         template<class T> void g(T x, B b);\n\
         template<class... Ts> void h(Ts... ts);\n\
         void user() { f<int, 3>(1, {}, 0, 0); g(1, {}); h<int, B>(1, {}); }",
        "user",
        expect![[r#"
            _Z1fIiLi3EEvT_3BoxIS0_EPiPFiiE
            _Z1gIiEvT_1B
            _Z1hIJi1BEEvDpT_
        "#]],
    );
}

#[test]
fn deduction_from_array_and_function_parameters() {
    // `T x[]` and `T x[N]` are `T *x`, `R f(A)` is `R (*f)(A)` before
    // deduction ([dcl.fct]/5): an array argument decays to match, and the
    // bound of an array parameter is no deduced context.
    check(
        "template<class T> T *h(T x[], int n);\n\
         template<class T, int N = 2> void b(T x[N]);\n\
         template<class R, class A> R call(R f(A), A a);\n\
         int twice(int);\n\
         void user() { float a[3]; h(a, 3); b(a); call(twice, 1); }",
        "user",
        expect![[r#"
            _Z1hIfEPT_S1_i
            _Z1bIfLi2EEvPT_
            _Z5twicei
            _Z4callIiiET_PFS0_T0_ES1_
        "#]],
    );
}

#[test]
fn runtime_template_overloads() {
    // The CUDA runtime's template overloads beside its C functions (as
    // cuda_runtime.h declares them): a reference to `const T` binds an
    // array lvalue directly (`T = float[289]`, exact) where the C function
    // converts it to `const void*`; `T*` from `void*` is an identity where
    // `const void*` adds a qualification: the templates win (g++'s names).
    check(
        "enum cudaError { cudaSuccess }; typedef enum cudaError cudaError_t; typedef unsigned long size_t;\n\
         enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1 };\n\
         struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1); };\n\
         typedef struct CUstream_st *cudaStream_t;\n\
         extern \"C\" cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);\n\
         extern \"C\" cudaError_t cudaMalloc(void **devPtr, size_t size);\n\
         extern \"C\" cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream);\n\
         template<class T> static cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);\n\
         template<class T> static cudaError_t cudaMalloc(T **devPtr, size_t size);\n\
         template<class T> static cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0);\n\
         static float c_filter[289];\n\
         void k();\n\
         void user() { float *p; cudaMemcpyToSymbol(c_filter, p, 4); cudaMalloc(&p, 4); void *args[] = {&p};\n\
           cudaLaunchCooperativeKernel(reinterpret_cast<void *>(k), dim3(2), dim3(256), args, 0, nullptr); }",
        "user",
        expect![[r#"
            _ZL8c_filter
            _Z18cudaMemcpyToSymbolIA289_fE9cudaErrorRKT_PKvmm14cudaMemcpyKind
            _Z10cudaMallocIfE9cudaErrorPPT_m
            _Z1kv
            _ZN4dim3C1Ejjj
            _Z27cudaLaunchCooperativeKernelIvE9cudaErrorPT_4dim3S3_PPvmP11CUstream_st
        "#]],
    );
}

#[test]
fn nearer_base_picks_the_system_overload() {
    // thrust's dispatch: a generic fallback made visible by a block-scope
    // using-declaration and the system's overload found by ADL both bind
    // the policy by reference to a base; the nearer base wins.
    check(
        "namespace th {\n\
           template<class D> struct policy_base {};\n\
           template<class D> struct policy : policy_base<D> {};\n\
           namespace generic { template<class DP, class It> It each(th::policy<DP>&, It first); }\n\
           namespace sys { template<class D> struct policy : th::policy<D> {}; struct tag : policy<tag> {};\n\
             template<class D, class It> It each(policy<D>&, It first); }\n\
           template<class DP> DP& derived(policy_base<DP>& p);\n\
         }\n\
         void user(th::sys::tag& t, int* p) { using th::generic::each; each(th::derived(t), p); }",
        "user",
        expect![[r#"
            _ZN2th7derivedINS_3sys3tagEEERT_RNS_11policy_baseIS3_EE
            _ZN2th3sys4eachINS0_3tagEPiEET0_RNS0_6policyIT_EES4_
        "#]],
    );
}

#[test]
fn block_scope_constants_as_template_arguments() {
    // A local usable in constant expressions (constexpr, or const integral
    // with a constant initializer) names a value in a template argument.
    check(
        "template<int N> void run(float*) {}\n\
         template<int A, int B> int pick() { return A + B; }\n\
         enum class E { a = 3 };\n\
         template<E e> void tag() {}\n\
         void user(float* p) {\n\
           constexpr int BLOCK = 256;\n\
           const int twice = BLOCK * 2;\n\
           run<BLOCK>(p);\n\
           pick<twice, BLOCK / 4>();\n\
           constexpr E which = E::a;\n\
           tag<which>();\n\
           { constexpr int BLOCK = 8; run<BLOCK>(p); }\n\
           int runtime = 5; (void)runtime;\n\
         }",
        "user",
        expect![[r#"
            _Z3runILi256EEvPf
            _Z4pickILi512ELi64EEiv
            _Z3tagIL1E3EEvv
            _Z3runILi8EEvPf
        "#]],
    );
}

#[test]
fn kernel_launch_deduces_through_qualification() {
    check(
        "template<class T> struct Buf { T* p; T* get() const { return p; } };\n\
         template<class T> __attribute__((global)) void k(int n, const int* r, const T* v, T* y) {}\n\
         void user() {\n\
           using T = double;\n\
           Buf<int> rp; Buf<T> vals, y;\n\
           k<<<1, 2>>>(3, rp.get(), vals.get(), y.get());\n\
           k(3, rp.get(), vals.get(), y.get());\n\
           double* d = 0; const int* ci = 0; k(3, ci, d, d); k(3, rp.p, d, d);\n\
         }",
        "user",
        expect![[r#"
            _ZNK3BufIiE3getEv
            _ZNK3BufIdE3getEv
            _Z1kIdEviPKiPKT_PS2_
        "#]],
    );
}

#[test]
fn braced_lists_as_initializer_lists() {
    // A range-for over a braced list iterates a std::initializer_list<E>;
    // list-initialization prefers an initializer-list constructor.
    check(
        "namespace std { typedef unsigned long size_t;\n\
           template<class E> class initializer_list { const E* b; size_t n;\n\
             public: constexpr initializer_list() : b(0), n(0) {}\n\
             constexpr size_t size() const { return n; }\n\
             constexpr const E* begin() const { return b; }\n\
             constexpr const E* end() const { return begin() + size(); } };\n\
           template<class T> struct alloc { alloc(); };\n\
           template<class T, class A = alloc<T>> struct vec {\n\
             vec(size_t n, const T& v, const A& a = A());\n\
             vec(initializer_list<T> l, const A& a = A());\n\
             ~vec(); }; }\n\
         void use(double*);\n\
         void user(double* a, double* b) {\n\
           for (double* p : {a, b}) use(p);\n\
           std::vec<int> v{1, 2, 3};\n\
           std::vec<double> w = {1.0, 2};\n\
           std::vec<int> n(3, 4);\n\
         }",
        "user",
        expect![[r#"
            _ZNKSt16initializer_listIPdE5beginEv
            _ZNKSt16initializer_listIPdE3endEv
            _Z3usePd
            _ZNSt3vecIiSt5allocIiEEC1ESt16initializer_listIiERKS1_
            _ZNSt3vecIdSt5allocIdEEC1ESt16initializer_listIdERKS1_
            _ZNSt3vecIiSt5allocIiEEC1EmRKiRKS1_
            _ZNSt3vecIiSt5allocIiEED1Ev
            _ZNSt3vecIdSt5allocIdEED1Ev
        "#]],
    );
}

#[test]
fn dependent_value_arguments_in_signatures_are_mangled_as_written() {
    // `enable_if<__and_<…>::value>::type` keeps its expression (`X sr … E`)
    // and the omitted default (`v`); `!__is_scalar<T>::__value` is `nt sr`.
    check(
        "namespace std {\n\
           template<bool B, class T = void> struct enable_if {};\n\
           template<class T> struct enable_if<true, T> { typedef T type; };\n\
           template<class...> struct __and_ { static constexpr bool value = true; };\n\
           template<class T> struct __not_ { static constexpr bool value = true; };\n\
           template<class T> struct is_move_constructible { static constexpr bool value = true; };\n\
           template<class T> struct __is_scalar { enum { __value = 0 }; };\n\
           template<class T> struct __is_tuple_like { static constexpr bool value = false; };\n\
           template<class T> inline typename enable_if<__and_<__not_<__is_tuple_like<T>>, is_move_constructible<T>>::value>::type\n\
             swap(T& a, T& b) { T t = a; a = b; b = t; }\n\
           template<class T, int N> typename enable_if<(N > 2) && !__is_scalar<T>::__value, int>::type big(T*) { return N; }\n\
         }\n\
         struct P { int x; };\n\
         void user(double* a, double* b, P* p) { std::swap(a, b); std::big<P, 3>(p); }",
        "user",
        expect![[r#"
            _ZSt4swapIPdENSt9enable_ifIXsrSt6__and_IJSt6__not_ISt15__is_tuple_likeIT_EESt21is_move_constructibleIS5_EEE5valueEvE4typeERS5_SD_
            _ZSt3bigI1PLi3EENSt9enable_ifIXaagtT0_Li2EntsrSt11__is_scalarIT_E7__valueEiE4typeEPS3_
        "#]],
    );
}

#[test]
fn value_dependent_arguments_through_alias_templates() {
    // `_Require<C...>` = `__enable_if_t<__and_<C...>::value>`: the alias's
    // value parameter is mangled as the expression written for it.
    check(
        "namespace std {\n\
           template<bool, class T = void> struct enable_if {};\n\
           template<class T> struct enable_if<true, T> { typedef T type; };\n\
           template<bool C, class T = void> using __enable_if_t = typename enable_if<C, T>::type;\n\
           template<class...> struct __and_;\n\
           template<class A, class B> struct __and_<A, B> { static constexpr bool value = A::value && B::value; };\n\
           template<class T> struct is_a { static constexpr bool value = true; };\n\
           template<class T> struct is_b { static constexpr bool value = true; };\n\
           template<class... C> using _Require = __enable_if_t<__and_<C...>::value>;\n\
           template<class T, class = _Require<is_a<T>, is_b<T>>> void f(T) {}\n\
           template<class T> _Require<is_a<T>, is_b<T>> g(T*) {}\n\
         }\n\
         void user(int i) { std::f(i); std::g(&i); }",
        "user",
        expect![[r#"
            _ZSt1fIivEvT_
            _ZSt1gIiENSt9enable_ifIXsrSt6__and_IJSt4is_aIT_ESt4is_bIS3_EEE5valueEvE4typeEPS3_
        "#]],
    );
}

/// A new-expression calls the allocation function its arguments select
/// (the placement form too, declared twice as the CUDA headers do), a
/// delete-expression the sized deallocation function first.
#[test]
fn new_and_delete_expressions_call_their_operators() {
    check(
        "namespace std { typedef unsigned long size_t; }\n\
         void* operator new(std::size_t);\n\
         void operator delete(void*, std::size_t) noexcept;\n\
         inline void* operator new(std::size_t, void* p) noexcept { return p; }\n\
         extern __attribute__((host)) __attribute__((device)) void* operator new(std::size_t, void*) throw();\n\
         struct S { int a; S(int x) : a(x) {} };\n\
         void user(S* p) { ::new((void*)p) S(1); S* q = new S(2); delete q; }",
        "user",
        expect![[r#"
            _ZnwmPv
            _ZN1SC1Ei
            _Znwm
            _ZdlPvm
        "#]],
    );
}

/// The `std::initializer_list` objects a body makes from braced lists (a
/// range-for, an initializer-list constructor, a parameter): their
/// constructor from array and length, which EDG calls and g++ does not
/// (`init_list_ctors`, not `required`).
#[test]
fn braced_lists_make_initializer_lists() {
    let (db, tu) = super::db_with(
        "namespace std { typedef unsigned long size_t;\n\
           template<class E> class initializer_list { const E* _M_array; size_t _M_len;\n\
             constexpr initializer_list(const E* a, size_t l) : _M_array(a), _M_len(l) {}\n\
           public: constexpr initializer_list() noexcept : _M_array(0), _M_len(0) {}\n\
             constexpr size_t size() const noexcept { return _M_len; }\n\
             constexpr const E* begin() const noexcept { return _M_array; }\n\
             constexpr const E* end() const noexcept { return begin() + size(); } }; }\n\
         struct V { V(std::initializer_list<double> l); };\n\
         int sum(std::initializer_list<long> l);\n\
         int user() { int s = 0; for (int n : {1, 2, 3}) s += n; V v{1.0, 2.0}; return s + sum({1L, 2L}); }",
    );
    let f = super::body::fn_named(&db, tu, "user").expect("function");
    let r = crate::infer::infer(&db, crate::infer::InferOwner::Fn(f));
    let names: Vec<String> = r
        .init_list_ctors
        .iter()
        .map(|e| crate::symbols::mangled_name(&db, *e).unwrap_or_else(|x| x.to_string()))
        .collect();
    assert_eq!(
        names,
        ["_ZNSt16initializer_listIiEC1EPKim", "_ZNSt16initializer_listIdEC1EPKdm", "_ZNSt16initializer_listIlEC1EPKlm"]
    );
    assert!(!r.required.iter().any(|e| r.init_list_ctors.contains(e)));
}

/// A fold expression in an instance has the type of its operator applied
/// across the pack's elements as the expansion nests them (a right fold from
/// the last, a left fold from the first), so a deduced return type that is
/// a fold picks the overload g++ picks; an empty `&&` fold is `bool`.
#[test]
fn fold_expressions_type_their_expansion() {
    check(
        "template <class... Ts> constexpr auto rsum(Ts... xs) { return (xs + ... + 0); }\n\
         template <class... Ts> constexpr auto lsum(Ts... xs) { return (0 + ... + xs); }\n\
         template <class... Ts> constexpr auto all(Ts... xs) { return (xs && ...); }\n\
         void pick(int); void pick(long); void pick(double); void pick(bool);\n\
         void user() { pick(rsum(1, 2L)); pick(lsum(1, 2.0)); pick(rsum(1)); pick(all()); pick(all(1, 2)); }",
        "user",
        expect![[r#"
            _Z4rsumIJilEEDaDpT_
            _Z4pickl
            _Z4lsumIJidEEDaDpT_
            _Z4pickd
            _Z4rsumIJiEEDaDpT_
            _Z4picki
            _Z3allIJEEDaDpT_
            _Z4pickb
            _Z3allIJiiEEDaDpT_
        "#]],
    );
}

/// An alias template whose argument is another alias of the parameters
/// (`rv_t<rc_t<T>>`, libcu++'s `remove_cv_t` as `remove_volatile_t<
/// remove_const_t<T>>`) is mangled as written in a signature: the inner
/// alias stays `typename rc<T>::type`, not `rc`'s primary's `T` (names
/// checked with g++).
#[test]
fn alias_of_an_alias_in_a_signature_is_spelled_as_written() {
    check(
        "namespace n {\n\
         template <class T> struct rc { typedef T type; };\n\
         template <class T> struct rv { typedef T type; };\n\
         template <class T> using rc_t = typename rc<T>::type;\n\
         template <class T> using rv_t = typename rv<T>::type;\n\
         template <class T> using rcv_t = rv_t<rc_t<T>>;\n\
         template <class T> auto f(T* p) -> rcv_t<T> { return *p; }\n\
         template <class T> auto h(T* p) -> rv_t<rc_t<T>> { return *p; }\n\
         }\n\
         int user(const int* p) { return n::f(p) + n::h(p); }",
        "user",
        expect![[r#"
            _ZN1n1fIKiEENS_2rvINS_2rcIT_E4typeEE4typeEPS4_
            _ZN1n1hIKiEENS_2rvINS_2rcIT_E4typeEE4typeEPS4_
        "#]],
    );
}

/// A braced list initializes a temporary: binding it to `K&&` beats
/// `const K&` ([over.ics.rank]/3.3 with /3.2.3; g++ calls `_ZN1MixEO1K`
/// and `_Z1fO1K`), as `unordered_map::operator[]` on `grid[{3, 4}]` needs.
#[test]
fn braced_list_arguments_prefer_rvalue_references() {
    check(
        "struct K { int a, b; K(int x, int y) : a(x), b(y) {} };\n\
         struct M { int& operator[](const K& k); int& operator[](K&& k); };\n\
         void f(const K&); void f(K&&);\n\
         void user() { M m; m[{3, 4}] = 1; f({1, 2}); }\n",
        "user",
        expect![[r#"
            _ZN1MixEO1K
            _Z1fO1K
        "#]],
    );
}
