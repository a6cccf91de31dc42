namespace a { int x; }
namespace a { int y; }
inline namespace v1 { struct S {}; }
namespace a::b { struct T {}; }
namespace a::inline c { struct U {}; }
namespace { int hidden; }
namespace std __attribute__ ((__visibility__ ("default"))) { typedef unsigned long size_t; }
namespace n2 = a::b;
n2::T t;
a::c::U u1;
a::U u2;
extern "C" { int puts(const char*); }
extern "C++" int g();
extern "C" int h(int);
