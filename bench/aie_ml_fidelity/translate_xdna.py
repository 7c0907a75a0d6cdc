#!/usr/bin/env python3
"""Translates a published AIE2 (AIE-ML / XDNA1) assembly kernel into a tlmcraft kernel file.

Written for the Hello-XDNA bf16 32x32x32 tensor-contraction kernel (scalable-analyses/xdna,
src/tensor_kernel_32x32x32_bf16_bf16_fp32.s; docs/platforms/aie-ml.md says how to fetch
it): the published stream is not copied into this repository, this script reads it.
Every bundle becomes one kernel-file bundle, slot by slot; what the kernel-file syntax
writes differently is rewritten by the rules below, and what the model's ISA does not
have is refused with file:line:col and the reason (exit 2).

- `a ; b ; c` slot fields become `a ;; b ;; c`; `//` comments and NOP fields (nopv, nopa,
  nopb, nops, nopx, nopm) are dropped; a bundle of NOPs only becomes `NOP`.
- Mnemonics map one to one (vlda -> VLDA, sel.nez -> SEL.NEZ, ...); register names
  (amll0, bmh3, wl4, x0, ...) are the ones the assembler accepts.
- `vmac.f d, acc, a, b, rN` (also vmul.f, vmsc.f): the mode is in the configuration
  register rN; the model has it in the mnemonic. rN must be set once, by an immediate
  move earlier in the stream, and hold 28 (bf16 4x8x4, Hello XDNA "ISA"): VMAC.BF16.
- Immediates may be arithmetic expressions (`#2*4*8 * 4 - 32`): evaluated here with
  integers (+ - * / and parentheses; a division must be exact).
- Labels: `.l_start:` becomes `l_start:` (kernel-file labels do not start with '.');
  `#.l_start` becomes the label operand `l_start`. A loop-end label names the body's
  last bundle, as the kernel file's `le` does.
- Branches have five delay slots on the hardware (Hello XDNA: RET latency 6); the model
  has none. A branch is moved into its last delay slot, which is the same program: the
  five bundles after it run, then control transfers. Refused when a delay slot holds a
  branch or a label, when the last slot's scalar field is taken, or when a bundle in
  between writes a register the branch reads.
- movxm takes the scalar and move slots together (the hardware's long-slot MOVXM_lng_cg):
  a bundle with movxm and another scalar or move op is refused.
- Directives (.globl, .type, .size, .p2align) are dropped: the model has no encodings
  (one bundle per pc step), so alignment padding does not exist.

Usage: translate_xdna.py SOURCE.s [-o OUT.aie]    (stdout without -o)
Exit 0 on success, 2 on a bad input or usage. Python 3 standard library only.
"""
import ast
import os
import re
import sys

DELAY_SLOTS = 5          # AIE2 branches: latency 6, five delay slots (Hello XDNA, "ISA")
BF16_MODE = 28           # vmac.f configuration value of the bf16 4x8x4 mode (Hello XDNA, "ISA")
NOPS = {"nop", "nopv", "nopa", "nopb", "nops", "nopx", "nopm", "nopxm"}
DROPPED_DIRECTIVES = {".globl", ".type", ".size", ".p2align", ".text", ".section", ".file"}
# Published mnemonic -> kernel-file mnemonic. vmac.f / vmul.f / vmsc.f are resolved by mode.
PLAIN = {m: m.upper() for m in (
    "vlda", "vldb", "vst", "padda", "paddb", "padds", "lda", "st", "add", "sub", "mul", "and", "or", "xor",
    "lt", "ltu", "ge", "geu", "eq", "ne", "sel.nez", "sel.eqz", "mov", "movx", "movxm", "vmov", "j", "jl",
    "jz", "jnz", "ret", "done")}
MODE_OPS = {"vmac.f": "VMAC", "vmul.f": "VMUL", "vmsc.f": "VMSC"}
MODES = {BF16_MODE: "BF16"}
BRANCHES = {"J", "JL", "JZ", "JNZ", "RET"}
WRITES_FIRST = {"ADD", "SUB", "MUL", "AND", "OR", "XOR", "LT", "LTU", "GE", "GEU", "EQ", "NE", "SEL.NEZ",
                "SEL.EQZ", "MOV", "MOVX", "MOVXM", "LDA", "VLDA", "VLDB", "VMOV"}


class TranslateError(Exception):
    def __init__(self, line, col, reason):
        Exception.__init__(self, reason)
        self.line, self.col, self.reason = line, col, reason


def strip_comment(text):
    at = text.find("//")
    return text if at < 0 else text[:at]


def label_name(name):
    return name[1:] if name.startswith(".") else name


def eval_int(expr, line, col):
    """Integer value of an arithmetic immediate such as `2*4*8 * 4 - 32` or `8/4`."""
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError:
        raise TranslateError(line, col, "immediate '#%s' is not an integer expression" % expr.strip())

    def value(n):
        if isinstance(n, ast.Expression):
            return value(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            v = value(n.operand)
            return -v if isinstance(n.op, ast.USub) else v
        if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            a, b = value(n.left), value(n.right)
            if isinstance(n.op, ast.Div):
                if b == 0 or a % b:
                    raise TranslateError(line, col, "immediate '#%s': %d / %d is not an exact integer division"
                                         % (expr.strip(), a, b))
                return a // b
            return a + b if isinstance(n.op, ast.Add) else a - b if isinstance(n.op, ast.Sub) else a * b
        raise TranslateError(line, col, "immediate '#%s' is not an integer expression (+ - * / only)" % expr.strip())

    return value(tree)


def split_top(text, sep):
    """Splits at `sep` outside brackets, with the column offset of each part."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c == "["
        depth -= c == "]"
        if c == sep and depth == 0:
            parts.append((text[start:i], start))
            start = i + 1
    parts.append((text[start:], start))
    return parts


def operand_text(tok, line, col):
    """One operand: immediates evaluated, label references renamed, the rest as written."""
    t = tok.strip()
    if t.startswith("#."):
        return label_name(t[1:])
    if t.startswith("#"):
        return "#%d" % eval_int(t[1:], line, col)
    if t.startswith("["):
        inner = [p.strip() for p, _ in split_top(t[1:-1], ",")]
        return "[" + ", ".join(operand_text(p, line, col) for p in inner) + "]"
    return t


class Op:
    def __init__(self, line, col, mnemonic, operands):
        self.line, self.col, self.mnemonic, self.operands = line, col, mnemonic, operands

    def text(self):
        return self.mnemonic + (" " + ", ".join(self.operands) if self.operands else "")


class Bundle:
    def __init__(self, line, ops):
        self.line, self.ops, self.labels = line, ops, []


def parse_op(field, line, col):
    m = re.match(r"\s*([A-Za-z][\w.]*)\s*(.*)$", field)
    if not m:
        raise TranslateError(line, col, "expected an operation, got '%s'" % field.strip())
    name, at = m.group(1).lower(), col + m.start(1)
    if name in NOPS:
        return None
    if name not in PLAIN and name not in MODE_OPS:
        raise TranslateError(line, at, "operation '%s' has no translation (the model's ISA, docs/isa/aie-ml.md, "
                                       "lists what it has)" % m.group(1))
    rest = m.group(2).rstrip()
    # A post-modify written after the bracket is part of the memory operand in both syntaxes.
    ops = [operand_text(p, line, col + m.start(2) + off + len(p) - len(p.lstrip()))
           for p, off in split_top(rest, ",")] if rest else []
    return Op(line, at, name, ops)


def check_long_move(ops):
    """movxm is a long-slot op (MOVXM_lng_cg: the scalar and move slots together)."""
    long_move = next((o for o in ops if o.mnemonic == "movxm"), None)
    other = next((o for o in ops if o is not long_move and (o.mnemonic.upper() in ALU_FIELD or
                                                            o.mnemonic in ("mov", "movx", "movxm"))), None)
    if long_move and other:
        raise TranslateError(other.line, other.col, "'%s' beside movxm: movxm takes the scalar and the move slot "
                             "together (MOVXM_lng_cg)" % other.mnemonic)


def read_source(path):
    """Bundles and label positions of the published stream."""
    bundles, pending_labels = [], []
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        raise TranslateError(0, 0, "cannot read: %s" % e.strerror)
    for ln, raw in enumerate(lines, 1):
        text = strip_comment(raw)
        stripped = text.strip()
        if not stripped:
            continue
        col = len(text) - len(text.lstrip()) + 1
        lab = re.match(r"([.\w]+):\s*$", stripped)
        if lab:
            pending_labels.append((label_name(lab.group(1)), ln, col))
            continue
        if stripped.startswith("."):
            directive = stripped.split()[0]
            if directive not in DROPPED_DIRECTIVES:
                raise TranslateError(ln, col, "directive '%s' has no translation" % directive)
            continue
        ops = []
        for field, off in split_top(text, ";"):
            if field.strip():
                op = parse_op(field, ln, off + 1)
                if op:
                    ops.append(op)
            else:
                raise TranslateError(ln, off + 1, "empty slot field between ';' separators")
        check_long_move(ops)
        b = Bundle(ln, ops)
        b.labels, pending_labels = pending_labels, []
        bundles.append(b)
    return bundles, pending_labels


def resolve_modes(bundles):
    """vmac.f & co.: the mode register's value from its single immediate move."""
    writes = {}
    for b in bundles:
        for op in b.ops:
            if op.mnemonic.upper() in WRITES_FIRST and op.operands:
                writes.setdefault(op.operands[0].lower(), []).append(op)
    for b in bundles:
        for op in b.ops:
            if op.mnemonic not in MODE_OPS:
                continue
            if len(op.operands) != 5:
                raise TranslateError(op.line, op.col, "%s takes d, acc, a, b, mode register; got %d operands"
                                     % (op.mnemonic, len(op.operands)))
            reg = op.operands[4].lower()
            setters = writes.get(reg, [])
            if len(setters) != 1 or setters[0].mnemonic not in ("movx", "mov", "movxm") or \
                    not setters[0].operands[1].startswith("#") or (setters[0].line, setters[0].col) > (op.line, op.col):
                raise TranslateError(op.line, op.col, "%s's mode register %s is not set once by an immediate move "
                                     "before it: the mode cannot be known" % (op.mnemonic, reg))
            mode = int(setters[0].operands[1][1:])
            if mode not in MODES:
                raise TranslateError(op.line, op.col, "%s with mode %d (%s, set on line %d): only mode %d (bf16 "
                                     "4x8x4) is in the model's ISA" % (op.mnemonic, mode, reg, setters[0].line, BF16_MODE))
            op.mnemonic = "%s.%s" % (MODE_OPS[op.mnemonic], MODES[mode])
            op.operands = op.operands[:4]


def reads_of(op):
    """Registers a branch reads: its operands except label targets."""
    return {o.lower() for o in op.operands if re.match(r"^(r|p|lr)\d*$", o.lower())}


def move_branches(bundles):
    """Each branch moves into its last delay slot (the model has no delay slots)."""
    for i, b in enumerate(bundles):
        for op in [o for o in b.ops if o.mnemonic.upper() in BRANCHES and not getattr(o, "moved_from", None)]:
            last = i + DELAY_SLOTS
            if last >= len(bundles):
                raise TranslateError(op.line, op.col, "'%s' needs %d delay-slot bundles after it, the stream has %d"
                                     % (op.mnemonic, DELAY_SLOTS, len(bundles) - 1 - i))
            reads = reads_of(op)
            for s in bundles[i + 1:last + 1]:
                if s.labels:
                    raise TranslateError(s.labels[0][1], s.labels[0][2], "label '%s' inside the delay slots of the branch on line %d: "
                                         "another entry into them cannot be translated" % (s.labels[0][0], op.line))
                for o in s.ops:
                    if o.mnemonic.upper() in BRANCHES and not getattr(o, "moved_from", None):
                        raise TranslateError(o.line, o.col, "branch in the delay slots of the branch on line %d"
                                             % op.line)
            for s in bundles[i:last]:
                for o in s.ops:
                    if o is not op and o.mnemonic.upper() in WRITES_FIRST and o.operands and \
                            o.operands[0].lower() in reads:
                        raise TranslateError(o.line, o.col, "writes %s, which the branch on line %d reads: moving the "
                                             "branch to its last delay slot would read another value"
                                             % (o.operands[0], op.line))
            target = bundles[last]
            if any(o.mnemonic.upper() in ALU_FIELD for o in target.ops):
                raise TranslateError(target.line, 1, "the scalar slot of the last delay slot of the branch on line %d "
                                     "is taken: the branch cannot move there" % op.line)
            b.ops.remove(op)
            op.moved_from = op.line
            target.ops.append(op)


# Ops that take the scalar (alu) slot: a moved branch needs it free.
ALU_FIELD = {"ADD", "SUB", "MUL", "AND", "OR", "XOR", "LT", "LTU", "GE", "GEU", "EQ", "NE", "SEL.NEZ", "SEL.EQZ",
             "J", "JL", "JZ", "JNZ", "RET", "DONE"}


def emit(bundles, trailing_labels, source):
    out = ["; translated by bench/aie_ml_fidelity/translate_xdna.py from %s" % os.path.basename(source),
           "; one bundle per published bundle; '; src N' is its line in the published file"]
    for b in bundles:
        for name, _, _ in b.labels:
            out.append("%s:" % name)
        body = " ;; ".join(o.text() for o in b.ops) if b.ops else "NOP"
        note = "".join("; %s moved here from line %d (its last delay slot)" % (o.mnemonic.upper(), o.moved_from)
                       for o in b.ops if getattr(o, "moved_from", None))
        out.append("  %s   ; src %d%s" % (body, b.line, (" " + note[1:]) if note else ""))
    for name, _, _ in trailing_labels:
        out.append("%s:" % name)
    return "\n".join(out) + "\n"


def uppercase(bundles):
    for b in bundles:
        for op in b.ops:
            if op.mnemonic in PLAIN:
                op.mnemonic = PLAIN[op.mnemonic]


def translate(path):
    bundles, trailing = read_source(path)
    resolve_modes(bundles)
    uppercase(bundles)
    move_branches(bundles)
    return emit(bundles, trailing, path)


def main(argv):
    args, out = list(argv), None
    if "-o" in args:
        at = args.index("-o")
        if at + 1 >= len(args):
            sys.stderr.write(__doc__)
            return 2
        out = args[at + 1]
        del args[at:at + 2]
    if len(args) != 1 or args[0].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    try:
        text = translate(args[0])
    except TranslateError as e:
        where = "%s:%d:%d" % (args[0], e.line, e.col) if e.line else args[0]
        sys.stderr.write("%s: error: %s\n" % (where, e.reason))
        return 2
    if out:
        open(out, "w").write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
