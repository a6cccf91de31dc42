//! The wrapper templates of extended lambdas (spec 30 §5): cudafe++
//! replaces a `__device__` or `__host__ __device__` lambda of host code by
//! an object of `__nv_dl_wrapper_t<Tag, Captures...>` /
//! `__nv_hdl_wrapper_t<…>` (through `__nv_hdl_create_wrapper_t`), templates
//! it defines in a preamble printed where `cuda_runtime.h` declares the
//! `__nv_lambda_preheader_injection` sentinel (only with `--extended-lambda`).
//! The host object has their instantiations, so the model needs them too.
//!
//! They are not in the `.ii`: this module holds a model of them, written
//! from the spec's description, that `top_level_items` appends to a unit
//! with the sentinel (parsed once per options: `wrapper_parse`). It is not
//! the preamble's text: the preamble has one specialization per capture count that occurs in the unit; the model is
//! variadic (`CapturedVarTypePack... in`) and keeps no capture fields (the
//! `((void)F(in), ...)` in the constructors stands for their copies). What
//! is mangled is the same: the templates' names and parameters, the member
//! functions' signatures, and `__nv_hdl_create_wrapper`'s declared return
//! type, `decltype(…::get(lam, args...))`, which is copied exactly. Checked
//! with g++: the model and the real preamble give the same symbols.
//!
//! Invariant: the items come after the unit's own (their indices are past
//! the unit tree's children, which `body::parse_lazy` relies on).

use cufront_base_db::{Options, SourceDatabase, TranslationUnit};
use cufront_syntax::names::Entry;
use cufront_syntax::{NameKind, Names, Parse};

/// Whether `text` is a unit compiled with `--extended-lambda`: it declares
/// the sentinel.
pub fn enabled(text: &str) -> bool {
    text.contains("__nv_lambda_preheader_injection")
}

/// The model's parse under `options` (one per options, not per unit: an
/// edit of the unit's text does not re-parse it). What its bodies name
/// from the unit, `std::move` and `std::forward`, is declared to the
/// parser as templates; lookup later finds the unit's.
#[salsa::tracked(returns(ref))]
pub fn wrapper_parse(db: &dyn SourceDatabase, options: Options) -> Parse {
    let opts = cufront_base_db::parse_options(db, options);
    let mut names = Names::new();
    let std = names.namespace_scope("std", false);
    for f in ["move", "forward"] {
        names.declare_entry_in(std, f, Entry::new(NameKind::Template));
    }
    let lexed = cufront_syntax::lexer::lex(MODEL, opts.lex);
    cufront_syntax::parse_lexed(MODEL, &lexed, opts, names)
}

/// The model's parse for `tu`, if it is compiled with `--extended-lambda`
/// as a host unit (the device view keeps closure types: its stub names
/// the wrappers through [`crate::infer::extended_lambda_info`]).
pub fn unit_wrapper_parse(db: &dyn SourceDatabase, tu: TranslationUnit) -> Option<&Parse> {
    let options = tu.options(db);
    (enabled(tu.text(db)) && !options.lang(db).device_view).then(|| wrapper_parse(db, options))
}

/// The model (see the module comment).
const MODEL: &str = r#"
template <typename T> struct __nvdl_remove_ref { typedef T type; };
template <typename T> struct __nvdl_remove_ref<T&> { typedef T type; };
template <typename T> struct __nvdl_remove_ref<T&&> { typedef T type; };
template <typename T, typename... Args> struct __nvdl_remove_ref<T(&)(Args...)> { typedef T(*type)(Args...); };
template <typename T> struct __nvdl_remove_const { typedef T type; };
template <typename T> struct __nvdl_remove_const<T const> { typedef T type; };
template <typename U, U func, unsigned> struct __nv_dl_tag { };
template <typename U, U func, typename Return, unsigned> struct __nv_dl_trailing_return_tag { };
template <typename Tag, typename... CapturedVarTypePack>
struct __nv_dl_wrapper_t {
  __nv_dl_wrapper_t(Tag, CapturedVarTypePack... in) { ((void)CapturedVarTypePack(in), ...); }
  template <typename... U1> int operator()(U1...) { return 0; }
};
template <typename U, U func, typename Return, unsigned Id, typename... CapturedVarTypePack>
struct __nv_dl_wrapper_t<__nv_dl_trailing_return_tag<U, func, Return, Id>, CapturedVarTypePack...> {
  __nv_dl_wrapper_t(__nv_dl_trailing_return_tag<U, func, Return, Id>, CapturedVarTypePack... in) { ((void)CapturedVarTypePack(in), ...); }
  template <typename... U1> Return operator()(U1...) { __builtin_unreachable(); }
};
namespace {
template <typename Tag, typename OpFuncR, typename... OpFuncArgs>
struct __nv_hdl_helper {
  typedef void *(*fp_copier_t)(void *);
  typedef OpFuncR (*fp_caller_t)(void *, OpFuncArgs...);
  typedef void (*fp_deleter_t)(void *);
  typedef OpFuncR (*fp_noobject_caller_t)(OpFuncArgs...);
  static fp_copier_t fp_copier;
  static fp_deleter_t fp_deleter;
  static fp_caller_t fp_caller;
  static fp_noobject_caller_t fp_noobject_caller;
};
template <typename Tag, typename OpFuncR, typename... OpFuncArgs>
typename __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...>::fp_copier_t __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...>::fp_copier;
template <typename Tag, typename OpFuncR, typename... OpFuncArgs>
typename __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...>::fp_deleter_t __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...>::fp_deleter;
template <typename Tag, typename OpFuncR, typename... OpFuncArgs>
typename __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...>::fp_caller_t __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...>::fp_caller;
template <typename Tag, typename OpFuncR, typename... OpFuncArgs>
typename __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...>::fp_noobject_caller_t __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...>::fp_noobject_caller;
}
template <bool IsMutable, bool HasFuncPtrConv, bool NeverThrows, typename Tag, typename OpFunc, typename... CapturedVarTypePack>
struct __nv_hdl_wrapper_t { };
template <bool NeverThrows, typename Tag, typename OpFuncR, typename... OpFuncArgs, typename... CapturedVarTypePack>
struct __nv_hdl_wrapper_t<false, false, NeverThrows, Tag, OpFuncR(OpFuncArgs...), CapturedVarTypePack...> {
  typedef __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...> helper;
  void *data;
  template <typename Lambda> struct manager {
    static void *do_copy(void *buf) { auto ptr = static_cast<Lambda *>(buf); return static_cast<void *>(new Lambda(*ptr)); }
    static OpFuncR do_call(void *buf, OpFuncArgs... args) { auto ptr = static_cast<Lambda *>(buf); return (*ptr)(std::forward<OpFuncArgs>(args)...); }
    static void do_delete(void *buf) { auto ptr = static_cast<Lambda *>(buf); delete ptr; }
  };
  template <typename Lambda>
  __nv_hdl_wrapper_t(Tag, Lambda &&lam, CapturedVarTypePack... in) : data(static_cast<void *>(new Lambda(std::move(lam)))) {
    ((void)CapturedVarTypePack(in), ...);
    helper::fp_copier = &manager<Lambda>::do_copy;
    helper::fp_deleter = &manager<Lambda>::do_delete;
    helper::fp_caller = &manager<Lambda>::do_call;
  }
  OpFuncR operator()(OpFuncArgs... args) const noexcept(NeverThrows) { return helper::fp_caller(data, std::forward<OpFuncArgs>(args)...); }
  __nv_hdl_wrapper_t(const __nv_hdl_wrapper_t &in) : data(helper::fp_copier(in.data)) { }
  __nv_hdl_wrapper_t(__nv_hdl_wrapper_t &&in) : data(in.data) { in.data = 0; }
  ~__nv_hdl_wrapper_t(void) { helper::fp_deleter(data); }
  __nv_hdl_wrapper_t &operator=(const __nv_hdl_wrapper_t &in) = delete;
};
template <bool NeverThrows, typename Tag, typename OpFuncR, typename... OpFuncArgs, typename... CapturedVarTypePack>
struct __nv_hdl_wrapper_t<true, false, NeverThrows, Tag, OpFuncR(OpFuncArgs...), CapturedVarTypePack...> {
  typedef __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...> helper;
  void *data;
  template <typename Lambda> struct manager {
    static void *do_copy(void *buf) { auto ptr = static_cast<Lambda *>(buf); return static_cast<void *>(new Lambda(*ptr)); }
    static OpFuncR do_call(void *buf, OpFuncArgs... args) { auto ptr = static_cast<Lambda *>(buf); return (*ptr)(std::forward<OpFuncArgs>(args)...); }
    static void do_delete(void *buf) { auto ptr = static_cast<Lambda *>(buf); delete ptr; }
  };
  template <typename Lambda>
  __nv_hdl_wrapper_t(Tag, Lambda &&lam, CapturedVarTypePack... in) : data(static_cast<void *>(new Lambda(std::move(lam)))) {
    ((void)CapturedVarTypePack(in), ...);
    helper::fp_copier = &manager<Lambda>::do_copy;
    helper::fp_deleter = &manager<Lambda>::do_delete;
    helper::fp_caller = &manager<Lambda>::do_call;
  }
  OpFuncR operator()(OpFuncArgs... args) noexcept(NeverThrows) { return helper::fp_caller(data, std::forward<OpFuncArgs>(args)...); }
  __nv_hdl_wrapper_t(const __nv_hdl_wrapper_t &in) : data(helper::fp_copier(in.data)) { }
  __nv_hdl_wrapper_t(__nv_hdl_wrapper_t &&in) : data(in.data) { in.data = 0; }
  ~__nv_hdl_wrapper_t(void) { helper::fp_deleter(data); }
  __nv_hdl_wrapper_t &operator=(const __nv_hdl_wrapper_t &in) = delete;
};
template <bool NeverThrows, typename Tag, typename OpFuncR, typename... OpFuncArgs, typename... CapturedVarTypePack>
struct __nv_hdl_wrapper_t<false, true, NeverThrows, Tag, OpFuncR(OpFuncArgs...), CapturedVarTypePack...> {
  typedef __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...> helper;
  typedef OpFuncR(__opfunc_t)(OpFuncArgs...);
  template <typename Lambda>
  __nv_hdl_wrapper_t(Tag, Lambda &&lam, CapturedVarTypePack... in) { ((void)CapturedVarTypePack(in), ...); helper::fp_noobject_caller = lam; }
  OpFuncR operator()(OpFuncArgs... args) const noexcept(NeverThrows) { return helper::fp_noobject_caller(std::forward<OpFuncArgs>(args)...); }
  operator __opfunc_t *() const { return helper::fp_noobject_caller; }
  __nv_hdl_wrapper_t &operator=(const __nv_hdl_wrapper_t &in) = delete;
};
template <bool NeverThrows, typename Tag, typename OpFuncR, typename... OpFuncArgs, typename... CapturedVarTypePack>
struct __nv_hdl_wrapper_t<true, true, NeverThrows, Tag, OpFuncR(OpFuncArgs...), CapturedVarTypePack...> {
  typedef __nv_hdl_helper<Tag, OpFuncR, OpFuncArgs...> helper;
  typedef OpFuncR(__opfunc_t)(OpFuncArgs...);
  template <typename Lambda>
  __nv_hdl_wrapper_t(Tag, Lambda &&lam, CapturedVarTypePack... in) { ((void)CapturedVarTypePack(in), ...); helper::fp_noobject_caller = lam; }
  OpFuncR operator()(OpFuncArgs... args) noexcept(NeverThrows) { return helper::fp_noobject_caller(std::forward<OpFuncArgs>(args)...); }
  operator __opfunc_t *() const { return helper::fp_noobject_caller; }
  __nv_hdl_wrapper_t &operator=(const __nv_hdl_wrapper_t &in) = delete;
};
template <bool IsMutable, bool HasFuncPtrConv, typename... CaptureArgs>
struct __nv_hdl_helper_trait_outer {
  template <typename Tag, typename Lambda>
  struct __nv_hdl_helper_trait : public __nv_hdl_helper_trait<Tag, decltype(&Lambda::operator())> { };
  template <typename Tag, typename C, typename R, typename... OpFuncArgs>
  struct __nv_hdl_helper_trait<Tag, R (C::*)(OpFuncArgs...) const> {
    template <typename Lambda> static auto get(Lambda lam, CaptureArgs... args) -> __nv_hdl_wrapper_t<IsMutable, HasFuncPtrConv, false, Tag, R(OpFuncArgs...), CaptureArgs...>;
  };
  template <typename Tag, typename C, typename R, typename... OpFuncArgs>
  struct __nv_hdl_helper_trait<Tag, R (C::*)(OpFuncArgs...)> {
    template <typename Lambda> static auto get(Lambda lam, CaptureArgs... args) -> __nv_hdl_wrapper_t<IsMutable, HasFuncPtrConv, false, Tag, R(OpFuncArgs...), CaptureArgs...>;
  };
  template <typename Tag, typename C, typename R, typename... OpFuncArgs>
  struct __nv_hdl_helper_trait<Tag, R (C::*)(OpFuncArgs...) const noexcept> {
    template <typename Lambda> static auto get(Lambda lam, CaptureArgs... args) -> __nv_hdl_wrapper_t<IsMutable, HasFuncPtrConv, true, Tag, R(OpFuncArgs...), CaptureArgs...>;
  };
  template <typename Tag, typename C, typename R, typename... OpFuncArgs>
  struct __nv_hdl_helper_trait<Tag, R (C::*)(OpFuncArgs...) noexcept> {
    template <typename Lambda> static auto get(Lambda lam, CaptureArgs... args) -> __nv_hdl_wrapper_t<IsMutable, HasFuncPtrConv, true, Tag, R(OpFuncArgs...), CaptureArgs...>;
  };
};
template <bool IsMutable, bool HasFuncPtrConv, typename Tag, typename... CaptureArgs>
struct __nv_hdl_create_wrapper_t {
  template <typename Lambda>
  static auto __nv_hdl_create_wrapper(Lambda &&lam, CaptureArgs... args) -> decltype(__nv_hdl_helper_trait_outer<IsMutable, HasFuncPtrConv, CaptureArgs...>::template __nv_hdl_helper_trait<Tag, Lambda>::get(lam, args...)) {
    typedef decltype(__nv_hdl_helper_trait_outer<IsMutable, HasFuncPtrConv, CaptureArgs...>::template __nv_hdl_helper_trait<Tag, Lambda>::get(lam, args...)) container_type;
    return container_type(Tag{}, std::move(lam), args...);
  }
};
"#;
