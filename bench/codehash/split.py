# split.py — codehash.sh's helper: cut a module's code bytes into functions by the
# `@name: offset O, N bytes` lines of `circ compile` and print one line each:
#   FILE ISA LEVEL FUNCTION SIZE SHA256-PREFIX
import hashlib
import re
import sys

name, isa, level, map_path, code_path = sys.argv[1:6]
code = open(code_path, "rb").read()
for line in open(map_path):
    m = re.match(r"@(\S+): offset (\d+), (\d+) bytes", line)
    if not m:
        continue
    off, size = int(m.group(2)), int(m.group(3))
    digest = hashlib.sha256(code[off:off + size]).hexdigest()[:16]
    print(f"{name} {isa} {level} {m.group(1)} {size} {digest}")
