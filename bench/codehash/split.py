# split.py — codehash.sh's helper: for each line `FILE ISA LEVEL MAP CODE` of the
# index file, cut CODE (a module's bytes, `circ compile -o`) into functions by the
# `@name: offset O, N bytes` lines of MAP and print one line per function:
#   FILE ISA LEVEL FUNCTION SIZE SHA256-PREFIX
# (MAP "-": the file did not compile, printed as FUNCTION "-", SIZE "error").
import hashlib
import re
import sys

for entry in open(sys.argv[1]):
    name, isa, level, map_path, code_path = entry.split()
    if map_path == "-":
        print(f"{name} {isa} {level} - error -")
        continue
    code = open(code_path, "rb").read()
    for line in open(map_path):
        m = re.match(r"@(\S+): offset (\d+), (\d+) bytes", line)
        if not m:
            continue
        off, size = int(m.group(2)), int(m.group(3))
        digest = hashlib.sha256(code[off:off + size]).hexdigest()[:16]
        print(f"{name} {isa} {level} {m.group(1)} {size} {digest}")
