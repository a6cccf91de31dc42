class C : public { };
struct D { public int x; };
int ok;
