//! thrust's own layers (allocators, memory resources, vectors): the C++
//! rules they lean on. Expected names are g++ 12's (`nm` of the same
//! snippet compiled with `-std=c++17`).

use expect_test::expect;

use super::closure;

#[test]
fn function_addresses_as_template_arguments() {
    // `cuda_memory_resource<cudaMalloc, cudaFree, …>`: the parameter's
    // pointer-to-function type picks the C function out of the overload set
    // (a `cudaMalloc<T>` template is beside it); `&` is optional.
    closure(
        r#"
typedef unsigned long size_t;
extern "C" int cMalloc(void**, size_t);
extern "C" int cFree(void*);
template <class T> int cMalloc(T** p, size_t n) { return cMalloc((void**)p, n); }
namespace ns { int g(int) noexcept; int g(double); }
using alloc_fn = int (*)(void**, size_t);
using free_fn = int (*)(void*);
template <alloc_fn A, free_fn F> struct res {
  int allocate(void** p) { return A(p, 4); }
};
template <int (*G)(int)> struct h { int call() { return G(1); } };
int main() {
  res<cMalloc, &cFree> r;
  void* p;
  r.allocate(&p);
  h<&ns::g> q;
  return q.call();
}
"#,
        expect![[r#"
            cMalloc
            cFree
            _ZN2ns1gEi
            _ZN2ns1gEd
            main
            _ZN3resIXadL_Z7cMallocEEXadL_Z5cFreeEEE8allocateEPPv
            _ZN1hIXadL_ZN2ns1gEiEEE4callEv
        "#]],
    );
}

#[test]
fn default_arguments_on_the_declaration_of_an_out_of_line_member() {
    // thrust's `contiguous_storage(const allocator_type& = allocator_type())`
    // is defined outside its class: the default on the declaration still
    // instantiates the allocator's constructor.
    closure(
        r#"
template <class T> struct alloc { alloc() {} };
template <class T, class A> struct storage {
  typedef A allocator_type;
  explicit storage(const allocator_type& a = allocator_type());
  A m;
};
template <class T, class A> storage<T, A>::storage(const A& a) : m(a) {}
int main() { storage<int, alloc<int>> s; }
"#,
        expect![[r#"
            main
            _ZN7storageIi5allocIiEEC1ERKS1_
            _ZN5allocIiEC1Ev
        "#]],
    );
}

#[test]
fn out_of_line_members_with_attributes_and_noexcept() {
    // contiguous_storage.inl: `template <…> __host__ __device__ void
    // contiguous_storage<T, Alloc>::destroy(…) noexcept { … }` (a pragma
    // between the template head and the definition): the bodies are read.
    closure(
        r#"
template <class A> void destroy_range(A& a, int n) {}
template <class T> struct alloc { };
template <class T, class A> struct storage {
  typedef int iterator;
  void destroy(iterator first, iterator last) noexcept;
  void deallocate() noexcept;
  ~storage() { deallocate(); }
  A m;
};
template <class T, class A>
#pragma nv_exec_check_disable
__attribute__((host)) __attribute__((device))
void storage<T, A>::destroy(iterator first, iterator last) noexcept
{
  destroy_range(m, last - first);
}
template <class T, class A>
__attribute__((host)) __attribute__((device))
void storage<T, A>::deallocate() noexcept
{
  destroy(0, 1);
}
int main() { storage<int, alloc<int>> s; }
"#,
        expect![[r#"
            main
            _ZN7storageIi5allocIiEED1Ev
            _ZN7storageIi5allocIiEE10deallocateEv
            _ZN7storageIi5allocIiEE7destroyEii
            _Z13destroy_rangeI5allocIiEEvRT_i
        "#]],
    );
}

#[test]
fn dependent_members_from_dependent_bases_in_signatures() {
    // libcu++'s `make_pair`/`make_tuple` return `pair<typename
    // __unwrap_ref_decay<T>::type, …>`, whose `type` comes from a base
    // that depends on `T`: a dependent name, spelled as written, also as
    // the pattern of a pack expansion (`Dp`). Names from g++ 12's `nm`.
    closure(
        r#"
template <class T> struct unref { using type = T; };
template <class T> struct decay_ { using type = T; };
template <class T> struct unref_decay : unref<typename decay_<T>::type> {};
template <class A, class B> struct pr { pr(A, B) {} };
template <class... T> struct tup { tup(T...) {} };
template <class A, class B>
pr<typename unref_decay<A>::type, typename unref_decay<B>::type> mkpair(A&& a, B&& b) {
  return pr<typename unref_decay<A>::type, typename unref_decay<B>::type>(a, b);
}
template <class... T>
tup<typename unref_decay<T>::type...> mktup(T&&... t) {
  return tup<typename unref_decay<T>::type...>(t...);
}
int main() {
  int x = 1;
  mkpair(x, 2L);
  mktup(x, 2.0);
  return 0;
}
"#,
        expect![[r#"
            main
            _Z6mkpairIRilE2prIN11unref_decayIT_E4typeENS2_IT0_E4typeEEOS3_OS6_
            _Z5mktupIJRidEE3tupIJDpN11unref_decayIT_E4typeEEEDpOS3_
            _ZN2prIRilEC1ES0_l
            _ZN3tupIJRidEEC1ES0_d
        "#]],
    );
}

#[test]
fn member_alias_templates_as_template_template_arguments() {
    // libcu++'s type lists (zip_iterator's reference and difference types):
    // `_Fn::template __call` passed to a template template parameter, the
    // member alias read in its specialization (`quote<pr>::call<Ts...>` is
    // `pr<Ts...>`). Names from g++ 12's `nm`.
    closure(
        r#"
template <template <class...> class F> struct quote { template <class... Ts> using call = F<Ts...>; };
template <int N> struct indirect { template <template <class...> class F, class... Ts> using call = F<Ts...>; };
template <class Fn, class... Ts> using call_indirect = typename indirect<1>::template call<Fn::template call, Ts...>;
struct plain { template <class T> using call = T*; };
template <class A, class B> struct pr {};
template <class T> void use(T) {}
int main() {
  call_indirect<quote<pr>, int, long> p;
  use(p);
  call_indirect<plain, int> q = 0;
  use(q);
  return 0;
}
"#,
        expect![[r#"
            main
            _Z3useI2prIilEEvT_
            _Z3useIPiEvT_
        "#]],
    );
}

#[test]
fn pack_expansions_of_comma_expressions() {
    // libcu++'s `__all<_Pred...>` is `is_same<__all_dummy<_Pred...>,
    // __all_dummy<((void) _Pred, true)...>>`: the pattern is kept as text,
    // and still expands over the pack it names (tuple's constructor
    // constraints rest on it).
    closure(
        r#"
template <bool... B> struct dummy;
template <class A, class B> struct same { static constexpr bool value = false; };
template <class A> struct same<A, A> { static constexpr bool value = true; };
template <bool... P> using all = same<dummy<P...>, dummy<((void) P, true)...>>;
template <bool B> struct yes { static void f() {} };
template <bool B> struct no { static void f() {} };
int main() {
  yes<all<true, true>::value>::f();
  no<all<true, false>::value>::f();
  yes<all<>::value>::f();
  return 0;
}
"#,
        expect![[r#"
            main
            _ZN3yesILb1EE1fEv
            _ZN2noILb0EE1fEv
        "#]],
    );
}

#[test]
fn member_typedef_of_a_non_dependent_base_hides_a_namespace_template() {
    // thrust's `device_ptr_memory_resource<Upstream>` derives from
    // `memory_resource<device_ptr<void>>` and writes `pointer` for the base's
    // member typedef while a `thrust::pointer` template is in the namespace:
    // the base does not depend on the template's parameters, so its members
    // are found first ([temp.dep]/3). g++: `_ZN3resIiE13do_deallocateE7pointerIvEi`.
    closure(
        r#"
template <class P> struct memory_resource {
  typedef P pointer;
  virtual ~memory_resource() = default;
  virtual pointer do_allocate(int n) = 0;
  virtual void do_deallocate(pointer p, int n) = 0;
  virtual bool do_is_equal(const memory_resource& o) const noexcept { return this == &o; }
};
template <class T> struct pointer { T* p; };
template <class U> struct res final : memory_resource<pointer<void>> {
  pointer do_allocate(int n) override { return pointer(); }
  void do_deallocate(pointer p, int n) override {}
};
int main() { res<int> r; r.do_allocate(1); }
"#,
        expect![[r#"
            main
            _ZN3resIiEC1Ev
            _ZN3resIiE11do_allocateEi
            _ZN3resIiED1Ev
            _ZN15memory_resourceI7pointerIvEEC1Ev
            _ZN3resIiE13do_deallocateE7pointerIvEi
            _ZN15memory_resourceI7pointerIvEED1Ev
            _ZN15memory_resourceI7pointerIvEE11do_allocateEi
            _ZN15memory_resourceI7pointerIvEE13do_deallocateES1_i
            _ZNK15memory_resourceI7pointerIvEE11do_is_equalERKS2_
        "#]],
    );
}

#[test]
fn block_scope_using_declaration_of_a_class_template() {
    // thrust's `__unique::doit_step`: `using core::detail::AgentLauncher;`
    // then `using unique_agent = AgentLauncher<UniqueAgent<…>>;` and
    // `unique_agent::get_plan(…)`. The using-declaration names the class
    // template in the types written after it. g++ emits the four members.
    closure(
        r#"
namespace core { namespace detail {
template <class A> struct Launcher {
  typedef int State;
  static int get_plan() { return 1; }
  Launcher(int p, long n) {}
  void launch(A a) const {}
};
template <class T> struct get_plan_t { typedef int type; };
} }
template <class T> struct Agent {};
template <class T> int step(T t) {
  using core::detail::Launcher;
  using agent = Launcher<Agent<T>>;
  using State = typename agent::State;
  using core::detail::get_plan_t;
  typename get_plan_t<agent>::type plan = agent::get_plan();
  agent a(plan, 2);
  a.launch(Agent<T>());
  State s = 0;
  return s;
}
int main() { return step(1); }
"#,
        expect![[r#"
            main
            _Z4stepIiEiT_
            _ZN4core6detail8LauncherI5AgentIiEE8get_planEv
            _ZN4core6detail8LauncherI5AgentIiEEC1Eil
            _ZNK4core6detail8LauncherI5AgentIiEE6launchES3_
        "#]],
    );
}

#[test]
fn tuple_base_built_from_integer_pack_indices() {
    // libcu++'s `tuple`: `_BaseT __base_` is `__tuple_impl<__tuple_indices<
    // 0, 1>, _Tp...>`, whose indices come from `__integer_pack(_Ep - _Sp)...`
    // (an operand that is an expression) into `template <size_t...>` (an
    // unnamed value pack); `__tuple_impl`'s mem-initializer
    // `__tuple_leaf<_Indx, _Tp>(forward<_Up>(__u))...` constructs one base
    // per element.
    closure(
        r#"
typedef unsigned long size_t;
template <class T> T&& fwd(T& t) noexcept { return static_cast<T&&>(t); }
template <size_t...> struct tindices {};
template <class I, I... V> struct iseq {
  template <size_t S> using to_idx = tindices<(V + S)...>;
};
template <size_t E, size_t S>
using make_imp = typename iseq<size_t, __integer_pack(E - S)...>::template to_idx<S>;
template <size_t E, size_t S = 0> struct make_idx { using type = make_imp<E, S>; };
template <size_t E, size_t S = 0> using make_idx_t = typename make_idx<E, S>::type;
struct vtag {};
template <size_t I, class T> struct leaf {
  T v;
  template <class U> leaf(U&& u) : v(fwd<U>(u)) {}
  T& get() { return v; }
};
template <class Ix, class... T> struct impl;
template <size_t... Ix, class... T> struct impl<tindices<Ix...>, T...> : leaf<Ix, T>... {
  template <class... U> explicit impl(vtag, U&&... u) : leaf<Ix, T>(fwd<U>(u))... {}
};
template <class... T> struct tup {
  using B = impl<make_idx_t<sizeof...(T)>, T...>;
  B base;
  template <class... U> tup(U&&... u) : base(vtag{}, fwd<U>(u)...) {}
};
struct P { P() {} P(const P&) {} };
int main() { P a; int b = 1; tup<P, int> t(a, b); }
"#,
        expect![[r#"
            _ZN1PC1Ev
            _ZN1PC1ERKS_
            main
            _ZN3tupIJ1PiEEC1IJRS0_RiEEEDpOT_
            _Z3fwdIR1PEOT_RS2_
            _Z3fwdIRiEOT_RS1_
            _ZN4implI8tindicesIJLm0ELm1EEEJ1PiEEC1IJRS2_RiEEE4vtagDpOT_
            _ZN4leafILm0E1PEC1IRS0_EEOT_
            _ZN4leafILm1EiEC1IRiEEOT_
        "#]],
    );
}

#[test]
fn implicit_copy_assignment_of_an_aggregate_around_a_user_assignable_member() {
    // libcu++'s `__must_synthesize_assignment_v` asks
    // `is_copy_assignable<_TestSynthesizeAssignment<T>>`: the implicit
    // copy assignment of an aggregate is usable when its member's
    // user-declared `operator=` is, deleted when the member's is.
    closure(
        r#"
template <class T> struct TSA { T d; };
struct It { It() {} It& operator=(const It&) { return *this; } };
struct R { R() {} R& operator=(const R&) = delete; };
template <class T, bool = __is_assignable(TSA<T>&, const TSA<T>&)> struct pick { pick() {} };
template <class T> struct pick<T, false> { pick() {} void no() {} };
int main() { pick<It> a; pick<R> b; b.no(); }
"#,
        expect![[r#"
            _ZN2ItC1Ev
            _ZN2ItaSERKS_
            _ZN1RC1Ev
            _ZN1RaSERKS_
            main
            _ZN4pickI2ItLb1EEC1Ev
            _ZN4pickI1RLb0EEC1Ev
            _ZN4pickI1RLb0EE2noEv
        "#]],
    );
}

#[test]
fn implicit_assignment_of_a_class_with_converting_constructors() {
    // libcu++'s `__tuple_leaf_choose` asks `is_copy_assignable` of thrust's
    // `normal_iterator` (converting constructors, no `operator=`) and of an
    // aggregate around it: declared constructors other than copy and move
    // ones leave the implicit assignments as they are; a move constructor
    // deletes the copy assignment and suppresses the move one; a copy
    // constructor only suppresses the move one (an rvalue then copies).
    closure(
        r#"
template <int I, bool B> struct pick { static void no() {} };
template <int I> struct pick<I, true> { static void yes() {} };
template <class T> struct ptr {
  T* p;
  ptr() : p(0) {}
  template <class U> ptr(U* q) : p(q) {}
  template <class U> ptr& operator=(U* q) { p = q; return *this; }
};
template <class P> struct iter {
  P base;
  iter() = default;
  explicit iter(P q) : base(q) {}
  template <class O> iter(const iter<O>& o) : base(o.base) {}
};
struct movable {
  int n;
  movable(int a) : n(a) {}
  movable(movable&& o) : n(o.n) {}
};
struct copyable {
  int n;
  copyable(const copyable& o) : n(o.n) {}
};
template <class T> struct wrap { T v; };
int main() {
  pick<1, __is_assignable(iter<ptr<int>>&, const iter<ptr<int>>&)>::yes();
  pick<2, __is_assignable(iter<ptr<int>>&, iter<ptr<int>>&&)>::yes();
  pick<3, __is_assignable(wrap<iter<ptr<int>>>&, const wrap<iter<ptr<int>>>&)>::yes();
  pick<4, __is_assignable(movable&, const movable&)>::no();
  pick<5, __is_assignable(wrap<movable>&, wrap<movable>&&)>::no();
  pick<6, __is_assignable(copyable&, copyable&&)>::yes();
}
"#,
        expect![[r#"
            _ZN7movableC1Ei
            _ZN7movableC1EOS_
            _ZN8copyableC1ERKS_
            main
            _ZN4pickILi1ELb1EE3yesEv
            _ZN4pickILi2ELb1EE3yesEv
            _ZN4pickILi3ELb1EE3yesEv
            _ZN4pickILi4ELb0EE2noEv
            _ZN4pickILi5ELb0EE2noEv
            _ZN4pickILi6ELb1EE3yesEv
        "#]],
    );
}

#[test]
fn constructor_from_a_base_reference_is_not_a_copy_constructor() {
    // thrust's `no_throw_allocator(const BaseAllocator& = BaseAllocator())`
    // takes a reference to its base, not to itself: the implicit copy
    // constructor is still declared, and copying the allocator (a member
    // initialized from `const A&`) takes it, exactly matching.
    closure(
        r#"
template <class T> struct base_alloc {
  int* p;
  base_alloc() : p(0) {}
  base_alloc(const base_alloc& o) : p(o.p) {}
};
template <class Base> struct no_throw : Base {
  no_throw(const Base& other = Base()) : Base(other) {}
};
struct plain_base { int n; plain_base() : n(0) {} plain_base(const plain_base& o) : n(o.n) {} };
struct conv : plain_base {
  conv(const plain_base& b) : plain_base(b) {}
};
template <class A> struct storage {
  A m;
  storage(const A& a) : m(a) {}
};
int main() {
  no_throw<base_alloc<int>> a;
  storage<no_throw<base_alloc<int>>> s(a);
  conv c{plain_base()};
  conv d(c);
}
"#,
        expect![[r#"
            _ZN10plain_baseC1Ev
            _ZN10plain_baseC1ERKS_
            _ZN4convC1ERK10plain_base
            main
            _ZN8no_throwI10base_allocIiEEC1ERKS1_
            _ZN7storageI8no_throwI10base_allocIiEEEC1ERKS3_
            _ZN4convC1ERKS_
            _ZN10base_allocIiEC1Ev
            _ZN10base_allocIiEC1ERKS0_
            _ZN8no_throwI10base_allocIiEEC1ERKS2_
        "#]],
    );
}

#[test]
fn converting_constructor_guarded_by_its_own_convertibility() {
    // thrust's `AgentPlan(PtxPlan, disable_if_convertible<PtxPlan,
    // AgentPlan>::type* = nullptr)`: asking whether the argument converts to
    // the class reaches the same constructor template again; inside that
    // inner question the trait is incomplete, so the candidate drops out,
    // the trait is false, and the outer call takes the template.
    closure(
        r#"
template <class T, T v> struct integral_constant { static constexpr T value = v; };
typedef integral_constant<bool, true> true_type;
typedef integral_constant<bool, false> false_type;
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };
template <class T> T&& declval() noexcept;
template <class T> void test_convert(T);
template <class F, class T, class = void> struct is_conv_test : false_type {};
template <class F, class T> struct is_conv_test<F, T, decltype(test_convert<T>(declval<F>()))> : true_type {};
template <class F, class T> struct is_convertible : integral_constant<bool, is_conv_test<F, T>::value> {};
template <bool C, class T = void> struct disable_if : enable_if<!C, T> {};
template <class A, class B, class T = void> struct disable_if_convertible : disable_if<is_convertible<A, B>::value, T> {};
struct Pol { enum { N = 4 }; };
template <template <class> class P, class S> struct spec : P<S> {};
struct sm52 {};
struct Plan {
  int n;
  Plan() = default;
  Plan(int a) : n(a) {}
  Plan(Plan const& p) : n(p.n) {}
  template <class X> Plan(X, typename disable_if_convertible<X, Plan>::type* = nullptr) : n(X::N) {}
};
struct Agent { template <class S> struct PtxPlan : Pol {}; };
template <class A, class S> struct getter {
  static Plan get() { return Plan(spec<A::template PtxPlan, S>()); }
};
int main() { Plan p = getter<Agent, sm52>::get(); return p.n; }
"#,
        expect![[r#"
            _ZN4PlanC1Ev
            _ZN4PlanC1Ei
            _ZN4PlanC1ERKS_
            main
            _ZN6getterI5Agent4sm52E3getEv
            _ZN4PlanC1I4specIN5Agent7PtxPlanE4sm52EEET_PN22disable_if_convertibleIS6_S_vE4typeE
        "#]],
    );
}

#[test]
fn value_dependent_default_argument_in_a_signature() {
    // thrust's `try_unwrap_contiguous_iterator(It) ->
    // try_unwrap_contiguous_iterator_t<It>`: the alias names
    // `unwrap<It>` whose second argument is the default
    // `is_contiguous_iterator_v<It>`; g++ spells that default with the
    // function's parameter (`X11is_contig_vIS3_EE`).
    closure(
        r#"
template <class T> struct is_contig { static constexpr bool value = false; };
template <class T> struct is_contig<T*> { static constexpr bool value = true; };
template <class T> constexpr bool is_contig_v = is_contig<T>::value;
namespace detail {
template <class It, bool C = is_contig_v<It>> struct unwrap { using type = It; static type get(It i) { return i; } };
template <class It> struct unwrap<It, true> { using type = It; static type get(It i) { return i; } };
}
template <class It> using unwrap_t = typename detail::unwrap<It>::type;
template <class It> auto try_unwrap(It it) -> unwrap_t<It> { return detail::unwrap<It>::get(it); }
struct cit { int n; };
int main() {
  int a[2];
  try_unwrap(cit{1});
  try_unwrap(&a[0]);
}
"#,
        expect![[r#"
            main
            _Z10try_unwrapI3citEN6detail6unwrapIT_X11is_contig_vIS3_EEE4typeES3_
            _Z10try_unwrapIPiEN6detail6unwrapIT_X11is_contig_vIS3_EEE4typeES3_
            _Z11is_contig_vI3citE
            _Z11is_contig_vIPiE
            _ZN6detail6unwrapI3citLb0EE3getES1_
            _ZN6detail6unwrapIPiLb1EE3getES1_
        "#]],
    );
}

#[test]
fn nested_class_calls_a_member_template_of_the_enclosing_specialization() {
    // CUB's `policy_hub<…, AccumT, …>::Policy900::ScanPolicyT =
    // decltype(select_agent_policy<sm90_tuning<AccumT, …>>(0))`: the
    // static member template named from the nested class is a member of
    // the enclosing specialization, whose `AccumT` its return type uses.
    closure(
        r#"
template <int N, class T> struct pol { static int threads() { return N; } };
template <class T> struct tun { static constexpr int n = 128; };
template <class A> struct hub {
  template <class Tuning> static auto select(int) -> pol<Tuning::n, A>;
  struct P9 {
    using S = decltype(select<tun<A>>(0));
  };
};
template <class P> struct wrap : P { static int bt() { return P::threads(); } };
template <class H> int run() { return wrap<typename H::P9::S>::bt(); }
int main() { return run<hub<long>>(); }
"#,
        expect![[r#"
            main
            _Z3runI3hubIlEEiv
            _ZN4wrapI3polILi128ElEE2btEv
            _ZN3polILi128ElE7threadsEv
        "#]],
    );
}

#[test]
fn member_class_template_of_a_specialization_as_template_argument() {
    // thrust's `specialize_plan<Agent::template PtxPlan, SM>` with `Agent`
    // a class template specialization: the argument keeps the
    // specialization (its `T` is the outer argument of `P<S>`) and is
    // mangled inside it (`N5AgentIlE7PtxPlanE`).
    closure(
        r#"
template <template <class> class P, class S> struct spec : P<S> {};
struct sm52 { enum { ver = 520 }; };
struct Plan {
  int n;
  Plan(int a) : n(a) {}
  template <class X> Plan(X) : n(X::N) {}
};
template <class T> struct Agent {
  template <class S> struct PtxPlan { enum { N = sizeof(T) + S::ver }; };
};
template <class A, class S> struct getter {
  static Plan get() { return Plan(spec<A::template PtxPlan, S>()); }
};
int main() { return getter<Agent<long>, sm52>::get().n; }
"#,
        expect![[r#"
            _ZN4PlanC1Ei
            main
            _ZN6getterI5AgentIlE4sm52E3getEv
            _ZN4PlanC1I4specIN5AgentIlE7PtxPlanE4sm52EEET_
        "#]],
    );
}

#[test]
fn member_class_template_named_inside_its_specialization_as_template_argument() {
    // thrust's `ReduceByKeyAgent<…>`: `using ptx_plan = typename
    // specialize_plan_msvc10_war<PtxPlan>::type::type;` names its member
    // template unqualified; the argument is the template of the current
    // specialization (its `T` the outer argument of `P<S>`), so the types
    // read through it (`TempStorage&` of `impl`'s constructor, called from
    // `entry`) resolve. Names as g++ gives them (`nm`).
    closure(
        r#"
template <template <class> class P, class S> struct spec : P<S> {};
struct sm52 { enum { ver = 520 }; };
struct Plan {
  int n;
  Plan(int a) : n(a) {}
  template <class X> Plan(X) : n(X::N) {}
};
template <class T> struct Agent {
  template <class S> struct PtxPlan { enum { N = sizeof(T) + S::ver }; using storage = T; };
  using plan = spec<PtxPlan, sm52>;
  using storage = typename plan::storage;
  struct impl {
    storage& s;
    impl(storage& st, int) : s(st) { s += 1; }
  };
  static int entry(storage v) { impl(v, 0); return Plan(plan()).n; }
};
int main() { return Agent<long>::entry(1); }
"#,
        expect![[r#"
            _ZN4PlanC1Ei
            main
            _ZN5AgentIlE5entryEl
            _ZN5AgentIlE4implC1ERli
            _ZN4PlanC1I4specIN5AgentIlE7PtxPlanE4sm52EEET_
        "#]],
    );
}

#[test]
fn internal_linkage_variable_template_specializations_are_emitted() {
    // thrust's `constexpr bool is_contiguous_iterator_v` (not `inline`):
    // namespace-scope `constexpr` gives internal linkage, and g++ emits
    // every specialization it instantiates as a local constant, even one
    // only read in a constant expression; an `inline` one is not emitted.
    closure(
        r#"
template <class T> constexpr bool v = sizeof(T) > 1;
template <class T> inline constexpr bool w = sizeof(T) > 1;
template <bool B> struct pick { static int f() { return B; } };
int main() { int a[v<char> + 1]; (void)a; return pick<v<long>>::f() + pick<w<long>>::f() + v<short>; }
"#,
        expect![[r#"
            main
            _ZN4pickILb1EE1fEv
            _Z1vIsE
            _Z1vIcE
            _Z1vIlE
        "#]],
    );
}
