// nvcc-flags:
class C { C(); };
C c;
