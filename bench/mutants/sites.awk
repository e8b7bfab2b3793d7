# sites.awk — every mutation site of the C files given, one per line:
#   FILE <TAB> LINE <TAB> COL <TAB> KIND <TAB> FROM <TAB> TO
# (COL is 1-based; replacing FROM at COL of LINE by TO gives the mutant).  Kinds:
#   rel    < <=, > >=, == !=          arith  + -, += -=, << >>, <<= >>=
#   logic  && ||                      not    a `!` deleted
#   const  an integer literal +1 / -1 ret    return true <-> return false
# Skipped (see README.md): comments, preprocessor lines, lines with a string literal
# (diagnostics, names, messages) and lines calling assert, diag_* or *error*/fail.
# POSIX awk (runs under mawk, Debian's default): no gensub, no strtonum.

function is_ident(c) { return c ~ /[A-Za-z0-9_]/ }

# the line with comments and char literals blanked out (same length), tracking
# block comments across lines in the global `in_comment`
function clean(s,    out, i, c, n) {
    out = ""; n = length(s)
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1)
        if (in_comment) {
            if (c == "*" && substr(s, i + 1, 1) == "/") { in_comment = 0; out = out "  "; i++ }
            else out = out " "
        } else if (c == "/" && substr(s, i + 1, 1) == "*") { in_comment = 1; out = out "  "; i++ }
        else if (c == "/" && substr(s, i + 1, 1) == "/") { while (i <= n) { out = out " "; i++ } }
        else if (c == "'") {
            out = out " "; i++
            while (i <= n && substr(s, i, 1) != "'") {
                if (substr(s, i, 1) == "\\") { out = out " "; i++ }
                out = out " "; i++
            }
            out = out " "
        } else out = out c
    }
    return out
}

function emit(col, kind, from, to) {
    printf "%s\t%d\t%d\t%s\t%s\t%s\n", FILENAME, FNR, col, kind, from, to
}

# whether a + or - at column i of s is binary: after an operand, not after a keyword
function binary_at(s, i,    j, w) {
    for (i--; i >= 1 && substr(s, i, 1) ~ /[ \t]/; i--) ;
    if (i < 1 || substr(s, i, 1) !~ /[A-Za-z0-9_)\]]/) return 0
    for (j = i; j >= 1 && is_ident(substr(s, j, 1)); j--) ;
    w = substr(s, j + 1, i - j)
    return w != "return" && w != "case" && w != "sizeof"
}

# an integer literal at column i (TOK is the whole [A-Za-z0-9_.] run)
function literal(tok, i,    digits, suffix, v) {
    if (tok ~ /^[0-9]+[uUlL]*$/) {
        digits = tok; sub(/[uUlL]+$/, "", digits); suffix = substr(tok, length(digits) + 1)
        if (digits ~ /^0[0-9]/) return                      # octal: leave alone
        if (length(digits) > 15) { emit(i, "const", tok, "(" tok " + 1)"); return }
        v = digits + 0
        emit(i, "const", tok, (v + 1) suffix)
        if (v > 0) emit(i, "const", tok, (v - 1) suffix)
    } else if (tok ~ /^0[xX][0-9a-fA-F]+[uUlL]*$/) {
        emit(i, "const", tok, "(" tok " + 1)")
        emit(i, "const", tok, "(" tok " - 1)")
    }
}

# the operator swaps, longest first: OP -> TO of KIND (TO "-": not mutated, only skipped)
BEGIN {
    nops = split("<<= >>= << >> <= >= == != && || += -= -> ++ -- < > !", ops, " ")
    split(">>= <<= >> << < > != == || && -= += - - - <= >= ", tos, " ")
    split("arith arith arith arith rel rel rel rel logic logic arith arith - - - rel rel not", kinds, " ")
}

function operator(s, i,    k, op, c) {
    for (k = 1; k <= nops; k++) {
        op = ops[k]
        if (substr(s, i, length(op)) != op) continue
        if (kinds[k] != "-") emit(i, kinds[k], op, op == "!" ? "" : tos[k])
        return length(op)
    }
    c = substr(s, i, 1)
    if ((c == "+" || c == "-") && binary_at(s, i)) emit(i, "arith", c, c == "+" ? "-" : "+")
    return 1
}

function scan(s,    i, n, c, j) {
    n = length(s)
    for (i = 1; i <= n; ) {
        c = substr(s, i, 1)
        if (is_ident(c) || (c == "." && substr(s, i + 1, 1) ~ /[0-9]/)) {
            for (j = i; j <= n && substr(s, j, 1) ~ /[A-Za-z0-9_.]/; j++) ;
            if (c ~ /[0-9]/) literal(substr(s, i, j - i), i)
            i = j
        } else if (c ~ /[-+<>=!&|]/) i += operator(s, i)
        else i++
    }
}

function returns(s,    rest, off, p, w) {
    rest = s; off = 0
    while ((p = index(rest, "return ")) > 0) {
        w = substr(rest, p + 7)
        if (w ~ /^true[ \t]*;/) emit(off + p + 7, "ret", "true", "false")
        else if (w ~ /^false[ \t]*;/) emit(off + p + 7, "ret", "false", "true")
        off += p + 6; rest = substr(rest, p + 7)
    }
}

FNR == 1 { in_comment = 0 }
{
    s = clean($0)
    if (s ~ /^[ \t]*$/ || s ~ /^[ \t]*#/ || index($0, "\"") > 0) next
    if (s ~ /assert|diag_|error|fail|abort\(/) next
    # keep the scan off `return true;`: it is its own kind
    returns(s)
    scan(s)
}
