void f(int x) {
    break;
    continue;
    while (x) { break; continue; [] { break; }; }
    for (;;) { switch (x) { case 1: continue; default: break; } }
    switch (x) { case 1: break; default: continue; }
    do { if (x) break; else continue; } while (x);
    for (int i : {1, 2}) { continue; }
    struct L { void m() { break; } };
}
