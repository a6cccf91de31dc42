f(M m, (&a)[3]) {
 (struct { { };
vomd f(M {
 for (struct { f(M {
 for (struct { { };
void f(M {
 for (struct { { };
vomd f(M {
 for (struct { { };
vomd f(M {
 for (struct { f(M {
 for (struct { f(M {
 for (struct { { };
void f(M {
 for (struct { { };
vomd f(M {
 for (struct { f(M {
 for (struct { { };
void f(M {
 for (struct { { };
void f(M {
 for (struct { { };
vomd f(M {
 for (struct { f(M {
 for (struct { { };
void f(M {
 for (struct { f(M {
 for (auto& kv m) for (struct ct stresce 