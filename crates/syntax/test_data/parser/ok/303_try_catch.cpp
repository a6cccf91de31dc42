struct E { int code; };
struct A { int a; A(int v) try : a(v) { } catch (...) { throw; } };
void f() {
  try { throw E{1}; }
  catch (const E& e) { (void)e.code; }
  catch (E*) { }
  catch (...) { throw; }
}
int g() try { return 1; } catch (...) { return 0; }
