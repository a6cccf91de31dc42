// nvcc-flags:
enum E { A };
enum E { B };
