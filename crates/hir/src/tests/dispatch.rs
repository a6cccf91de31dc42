//! thrust-style dispatch: system selection by overload resolution and
//! SFINAE, policies bound through bases, the names g++ gives the result.

use expect_test::expect;

use super::calls as check;
use super::closure;

#[test]
fn adl_looks_in_the_namespaces_of_base_classes() {
    // thrust's `derived_cast(policy)` inside `cuda_cub`: found in
    // `thrust::detail` through the policy's base `execution_policy_base<D>`.
    closure(
        "namespace th { namespace detail { template<class D> struct policy_base {}; template<class D> D& derived_cast(policy_base<D>& p); }\n\
           template<class D> struct execution_policy : detail::policy_base<D> {};\n\
           namespace cub { template<class D> struct execution_policy : th::execution_policy<D> {}; struct tag : execution_policy<tag> {};\n\
             void* get_stream(tag&);\n\
             template<class D> void* stream(execution_policy<D>& p) { return get_stream(derived_cast(p)); } } }\n\
         void user(th::cub::tag& t) { th::cub::stream(t); }",
        expect![[r#"
            _ZN2th3cub10get_streamERNS0_3tagE
            _Z4userRN2th3cub3tagE
            _ZN2th3cub6streamINS0_3tagEEEPvRNS0_16execution_policyIT_EE
            _ZN2th6detail12derived_castINS_3cub3tagEEERT_RNS0_11policy_baseIS4_EE
        "#]],
    );
}

#[test]
fn select_system_through_a_detection_trait() {
    // `select_system1_exists<S>::value` is `sizeof(check(select_system(tag)))`
    // in a namespace where only the catch-all overload is visible: false, so
    // `disable_if<…, S&>::type` is `S&` and the result binds the next call.
    // Names checked against g++ 12.
    check(
        "namespace th {\n\
          template<bool B, class T=void> struct disable_if { typedef T type; };\n\
          template<class T> struct disable_if<true, T> {};\n\
          template<class D> struct execution_policy {};\n\
          struct tag : execution_policy<tag> {};\n\
          namespace generic {\n\
            template<class Tag> struct select_system1_exists;\n\
            template<class S> typename disable_if<select_system1_exists<S>::value, S&>::type select_system(execution_policy<S>& s);\n\
            namespace ns {\n\
              typedef char yes; typedef char (&no)[2];\n\
              struct any_conversion { template<class T> any_conversion(const T&); };\n\
              no select_system(const any_conversion&);\n\
              template<class T> yes check(const T&);\n\
              no check(no);\n\
              template<class Tag> struct select_system1_exists { static Tag& tag; static const bool value = sizeof(check(select_system(tag))) == sizeof(yes); };\n\
            }\n\
            template<class Tag> struct select_system1_exists : ns::select_system1_exists<Tag> {};\n\
          }\n\
          template<class S, class It> void seq(execution_policy<S>& s, It a);\n\
         }\n\
         void user(th::tag& t, int* p) { using th::generic::select_system; th::seq(select_system(t), p); }",
        "user",
        expect![[r#"
            _ZN2th7generic13select_systemINS_3tagEEENS_10disable_ifIXsrNS0_21select_system1_existsIT_EE5valueERS5_E4typeERNS_16execution_policyIS5_EE
            _ZN2th3seqINS_3tagEPiEEvRNS_16execution_policyIT_EET0_
        "#]],
    );
}

#[test]
fn value_arguments_written_as_expressions_of_the_parameters() {
    // g++ 12: `X <expr> E`, `sr <type> <name>`, operators, `st`, `cv`.
    check(
        "template<bool B, class T=void> struct enable_if { typedef T type; };\n\
         namespace n { template<class T> struct is_x { static const bool value = true; }; }\n\
         template<class T> struct is_y { static const bool value = true; };\n\
         struct Y { typedef Y type; static const bool value = true; };\n\
         template<class T> typename enable_if<T::type::value, int>::type a(T);\n\
         template<class T> typename enable_if<T::value, int>::type b(T);\n\
         template<class T, int N> typename enable_if<(N > 2) || -N == sizeof(T), int>::type d(T);\n\
         template<class T> typename enable_if<n::is_x<T>::value>::type e(typename enable_if<!n::is_x<T>::value, T>::type*);\n\
         template<class T> typename enable_if<(bool)n::is_x<T>::value>::type f(T);\n\
         template<class T> typename enable_if<is_y<T>::value>::type g(T);\n\
         void u() { Y y; a(y); b(y); d<int,3>(1); e<int>(0); f(1); g(1); }",
        "u",
        expect![[r#"
            _Z1aI1YEN9enable_ifIXsrNT_4typeE5valueEiE4typeES2_
            _Z1bI1YEN9enable_ifIXsrT_5valueEiE4typeES2_
            _Z1dIiLi3EEN9enable_ifIXoogtT0_Li2EeqngT0_stT_EiE4typeES1_
            _Z1eIiEN9enable_ifIXsrN1n4is_xIT_EE5valueEvE4typeEPNS0_IXntsrS4_5valueES3_E4typeE
            _Z1fIiEN9enable_ifIXcvbsrN1n4is_xIT_EE5valueEvE4typeES3_
            _Z1gIiEN9enable_ifIXsr4is_yIT_E5valueEvE4typeES2_
        "#]],
    );
}

#[test]
fn alias_templates_with_dependent_arguments_are_expanded_as_written() {
    // `enable_if_t<cond>` and libcu++'s `_If<C, A, B>` (a member alias
    // template of `_IfImpl<C>`): the alias parameters stand for what is
    // written; a variable template in an expression is unqualified.
    // Names checked against g++ 12.
    check(
        "namespace n { template<class T> constexpr bool is_x_v = true; template<class T> struct is_x { static const bool value = true; };\n\
           template<bool B, class T=void> struct enable_if { typedef T type; };\n\
           template<bool B, class T=void> using enable_if_t = typename enable_if<B,T>::type;\n\
           template<bool> struct _IfImpl { template<class A, class B> using _Select = A; };\n\
           template<bool C, class A, class B> using _If = typename _IfImpl<C>::template _Select<A, B>;\n\
         }\n\
         template<class F1, class F2> using dist = n::_If<n::is_x_v<F2>, typename F1::difference_type, typename F2::difference_type>;\n\
         template<class T> struct fac { typedef long difference_type; };\n\
         template<class T> n::enable_if_t<n::is_x<T>::value, int> g(T);\n\
         template<class T> n::enable_if_t<n::is_x_v<T> && sizeof(T) == 4> h(T);\n\
         template<class T> n::enable_if_t<!n::is_x_v<T>, T> k(T*);\n\
         template<class A, class B> dist<fac<A>, fac<B>> d(fac<A>, fac<B>);\n\
         void u() { g(1); h(1); k((int*)0); d(fac<int>(), fac<char>()); }",
        "u",
        expect![[r#"
            _Z1gIiEN1n9enable_ifIXsrNS0_4is_xIT_EE5valueEiE4typeES3_
            _Z1hIiEN1n9enable_ifIXaa6is_x_vIT_EeqstS2_Li4EEvE4typeES2_
            _Z1kIiEN1n9enable_ifIXnt6is_x_vIT_EES2_E4typeEPS2_
            _Z1dIicEN1n7_IfImplIX6is_x_vI3facIT0_EEEE7_SelectINS2_IT_E15difference_typeENS4_15difference_typeEEES8_S4_
        "#]],
    );
}

#[test]
fn unary_address_of_calls_an_overloaded_operator() {
    // thrust's `raw_pointer_cast(&*it)`: `&` of a `reference<T>` is its
    // `operator&` (member or not); `&S::m` still forms a member pointer.
    check(
        "namespace th { template<class T> struct ptr { T* p; }; template<class T> struct ref { ptr<T> operator&() const; T* x; };\n\
           template<class T> struct ref2 { T* x; }; template<class T> ptr<T> operator&(const ref2<T>&);\n\
           template<class P> void* raw(P p); }\n\
         struct S { int m; S* operator&(); };\n\
         void user(th::ref<int>& r, th::ref2<float>& r2, S& s) { th::raw(&r); th::raw(&r2); th::raw(&s); int S::*pm = &S::m; (void)pm; }",
        "user",
        expect![[r#"
            _ZNK2th3refIiEadEv
            _ZN2th3rawINS_3ptrIiEEEEPvT_
            _ZN2thadIfEENS_3ptrIT_EERKNS_4ref2IS2_EE
            _ZN2th3rawINS_3ptrIfEEEEPvT_
            _ZN1SadEv
            _ZN2th3rawIP1SEEPvT_
        "#]],
    );
}
