struct P { int x, y; };
int lit() { return ((struct P){ .x = 1, .y = 2 }).y + (int[]){1, 2, 3}[1]; }
