// nvcc-flags:
// Asserts that hold, in nested namespace definitions: the namespace a
// using-directive nominates does not hide the enclosing one's own member
// (v::detail is not u::detail); a definition `namespace a::b` opens b.
namespace u { namespace detail { constexpr int k = 1; } }
namespace v { using namespace u; namespace detail { constexpr int k = 2; } }
namespace v::detail { static_assert(k == 2, "v::detail"); }
namespace a::b { constexpr int k = 32; }
namespace a::b { static_assert(k == 32, "a::b"); }
namespace v::detail { static_assert(k == 1, "fails"); }
