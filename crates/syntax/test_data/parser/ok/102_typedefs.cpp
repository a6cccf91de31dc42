typedef int myint;
typedef struct { int a; } anon_t;
typedef struct node { struct node* next; } node_t, *node_ptr;
typedef void (*fn_t)(int, char*);
typedef int arr_t[10];
typedef int (&ref_arr_t)[3];
__extension__ typedef long long ll_t;
typedef __builtin_va_list va_list_t;
myint m; anon_t an; node_t nd; node_ptr np; fn_t fp; arr_t ar; ll_t ll; va_list_t va;
