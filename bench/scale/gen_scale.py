#!/usr/bin/env python3
"""gen_scale.py — writes the large Circuit IR inputs of the scale benchmark.

  gen_scale.py chain N    one function, N ORDINARY_BLOCKs in one state chain
  gen_scale.py funcs N    N functions, each called by the next (run line on the last)
  gen_scale.py switch N   one SWITCH_BRANCH with N SWITCH_CASEs joined by one MERGE
  gen_scale.py diamonds N N IF diamonds in sequence (2N+1 blocks, for LIR)
  gen_scale.py args N     a function of N i64 arguments returning their sum
"""
import sys


def chain(n, out):
    out.write("func @main(i32) -> i32 {\n  %x = ARG i32 0\n  %one = CONSTANT i32 1\n")
    prev = "entry"
    for i in range(n):
        out.write(f"  %b{i} = ORDINARY_BLOCK [{prev}]\n")
        prev = f"%b{i}"
    out.write(f"  %r = ADD i32 (%x, %one)\n  RETURN [{prev}] {{entry}} (%r)\n}}\n")
    out.write("; run: @main(41) == 42\n")


def funcs(n, out):
    out.write("func @f0(i32) -> i32 {\n  %x = ARG i32 0\n  RETURN [entry] {entry} (%x)\n}\n")
    for i in range(1, n):
        out.write(f"func @f{i}(i32) -> i32 {{\n  %x = ARG i32 0\n  %s = SYMBOL @f{i - 1}\n"
                  f"  %r = CALL i32 {{entry}} (%s, %x)\n  RETURN [entry] {{%r}} (%r)\n}}\n")
    out.write(f"; run: @f{min(n - 1, 50)}(7) == 7\n")


def switch(n, out):
    out.write("func @main(i32) -> i32 {\n  %x = ARG i32 0\n  %sw = SWITCH_BRANCH [entry] (%x)\n")
    for i in range(n):
        out.write(f"  %c{i} = SWITCH_CASE {i} [%sw]\n  %k{i} = CONSTANT i32 {i * 3}\n")
    out.write("  %d = DEFAULT_CASE [%sw]\n  %kd = CONSTANT i32 -1\n")
    cases = ", ".join(f"%c{i}" for i in range(n))
    vals = ", ".join(f"%k{i}" for i in range(n))
    out.write(f"  %m = MERGE [{cases}, %d]\n  %r = VALUE_SELECTOR i32 [%m] ({vals}, %kd)\n")
    out.write("  RETURN [%m] {entry} (%r)\n}\n")
    out.write(f"; run: @main(0) == 0\n; run: @main({n - 1}) == {(n - 1) * 3}\n; run: @main({n}) == -1\n")


def diamonds(n, out):
    out.write("func @main(i32) -> i32 {\n  %x0 = ARG i32 0\n  %one = CONSTANT i32 1\n  %zero = CONSTANT i32 0\n")
    prev = "entry"
    for i in range(n):
        out.write(f"  %c{i} = ICMP slt (%x{i}, %zero)\n  %i{i} = IF_BRANCH [{prev}] (%c{i})\n"
                  f"  %t{i} = IF_TRUE [%i{i}]\n  %f{i} = IF_FALSE [%i{i}]\n  %m{i} = MERGE [%t{i}, %f{i}]\n"
                  f"  %a{i} = ADD i32 (%x{i}, %one)\n  %x{i + 1} = VALUE_SELECTOR i32 [%m{i}] (%x{i}, %a{i})\n")
        prev = f"%m{i}"
    out.write(f"  RETURN [{prev}] {{entry}} (%x{n})\n}}\n; run: @main(5) == {5 + n}\n")


def args(n, out):
    types = ", ".join(["i64"] * n)
    out.write(f"func @sum({types}) -> i64 {{\n")
    for i in range(n):
        out.write(f"  %a{i} = ARG i64 {i}\n")
    acc = "%a0"
    for i in range(1, n):
        out.write(f"  %s{i} = ADD i64 ({acc}, %a{i})\n")
        acc = f"%s{i}"
    out.write(f"  RETURN [entry] {{entry}} ({acc})\n}}\n")
    out.write(f"; run: @sum({', '.join(str(i) for i in range(n))}) == {n * (n - 1) // 2}\n")


KINDS = {"chain": chain, "funcs": funcs, "switch": switch, "diamonds": diamonds, "args": args}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in KINDS:
        sys.exit(__doc__)
    KINDS[sys.argv[1]](int(sys.argv[2]), sys.stdout)
