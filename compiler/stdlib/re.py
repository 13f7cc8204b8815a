"""re for plans: CPython 3.11's regular expressions over str, written in the plan language.

A pattern is parsed as CPython's sre_parse parses it (the same syntax, the same errors at the
same positions), compiled to a small program and run by a backtracking machine with an explicit
stack, so a match tries alternatives in CPython's order and gives its groups. Every step costs
fuel like any loop of the plan: a catastrophic pattern ends at the CPU limit.

Patterns and matches are records (`_baton.record`) whose methods are closures. Not supported,
refused with re.error saying so: bytes patterns, the LOCALE flag, `\\N{...}` escapes. Flags are
plain ints (`re.I | re.M` works; they print as numbers).
"""

from _baton import type_name, runtime_type, record, exc_attr

error = runtime_type("error")
Pattern = runtime_type("re.Pattern")
Match = runtime_type("re.Match")

NOFLAG = 0
TEMPLATE = T = 1
IGNORECASE = I = 2
LOCALE = L = 4
MULTILINE = M = 8
DOTALL = S = 16
UNICODE = U = 32
VERBOSE = X = 64
DEBUG = 128
ASCII = A = 256

_FLAG_NAMES = [
    (TEMPLATE, "re.TEMPLATE"), (IGNORECASE, "re.IGNORECASE"), (LOCALE, "re.LOCALE"),
    (MULTILINE, "re.MULTILINE"), (DOTALL, "re.DOTALL"), (VERBOSE, "re.VERBOSE"),
    (DEBUG, "re.DEBUG"), (ASCII, "re.ASCII"),
]
_INLINE_FLAGS = {"i": IGNORECASE, "L": LOCALE, "m": MULTILINE, "s": DOTALL, "x": VERBOSE,
                 "a": ASCII, "u": UNICODE, "t": TEMPLATE}
# The flags that say how characters are read (at most one of them), CPython's TYPE_FLAGS.
_TYPE_FLAGS = ASCII | LOCALE | UNICODE
_SPECIAL = ".\\[{()*+?^$|"
_REPEAT_CHARS = "*+?{"
_DIGITS = "0123456789"
_OCTDIGITS = "01234567"
_HEXDIGITS = "0123456789abcdefABCDEF"
_ASCIILETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_WHITESPACE = " \t\n\r\v\f"
_MAXREPEAT = 4294967295
# Pattern methods' default `endpos`, CPython's sys.maxsize.
_MAXSIZE = 9223372036854775807
_MAXGROUPS = 1073741823
# A counted repeat is compiled as that many copies of its body: beyond this many instructions a
# pattern is refused rather than made to take unbounded memory.
_MAX_PROGRAM = 200000
_CHAR_ESCAPES = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92}

# Opcodes of the compiled program (each instruction is a tuple, its opcode first).
_CHAR = 0        # (op, code point): that character
_CHARI = 1       # (op, lowered code point): that character, either case
_ANY = 2         # any character but a newline
_ANYALL = 3      # any character (DOTALL)
_SET = 4         # (op, negated, items, ignorecase, ascii, table): a character class; `table`
                 # holds the answer for each ASCII code point
_SPLIT = 5       # (op, first, second): try `first`, on failure `second`
_JMP = 6         # (op, target)
_SAVE = 7        # (op, slot): the position into a group's start or end slot
_AT = 8          # (op, kind, ascii): an anchor (kinds below)
_BACKREF = 9     # (op, group, ignorecase)
_ASSERT = 10     # (op, behind, negated, program, width): lookahead or lookbehind
_ATOMIC = 11     # (op, program): an atomic group (also possessive repeats)
_MATCH = 12      # the end of the program
_MARK = 13       # (op, register): the position into a loop's register
_LOOP = 14       # (op, register, body, exit): again unless the body matched empty
_GROUPEXISTS = 15  # (op, group, else): a conditional (?(group)yes|no)
_FAIL = 16       # never matches
_STAR = 17       # (op, single-character instruction, min, max): a greedy repeat of one
                 # character, matched as far as it goes and given back one at a time
_PAST_END = 18   # fails where the position is past the end, as a lazy repeat of one character
                 # does in CPython (its MIN_REPEAT_ONE, like REPEAT_ONE, needs `min` characters
                 # before the end): only a match() from a pos past its endpos gets there

# Anchors.
_AT_BEGINNING = 0       # \A, and ^ without MULTILINE
_AT_BEGINNING_LINE = 1  # ^ with MULTILINE
_AT_END = 2             # $ without MULTILINE: the end, or before a newline at the end
_AT_END_LINE = 3        # $ with MULTILINE
_AT_END_STRING = 4      # \Z
_AT_BOUNDARY = 5        # \b
_AT_NON_BOUNDARY = 6    # \B

_cache = {}


# ---- errors --------------------------------------------------------------------------------

def _error(msg, pattern, pos):
    """re.error as CPython makes it: the message, then where in the pattern (and the line and
    column when the pattern has several lines); with the attributes msg, pattern, pos, lineno
    and colno (all but msg None when no position is known)."""
    if pos is None:
        e = error(msg)
        pattern = None
        lineno = None
        colno = None
    else:
        lineno = pattern.count("\n", 0, pos) + 1
        colno = pos - pattern.rfind("\n", 0, pos)
        text = msg + " at position " + str(pos)
        if "\n" in pattern:
            text = text + " (line " + str(lineno) + ", column " + str(colno) + ")"
        e = error(text)
    exc_attr(e, "msg", msg)
    exc_attr(e, "pattern", pattern)
    exc_attr(e, "pos", pos)
    exc_attr(e, "lineno", lineno)
    exc_attr(e, "colno", colno)
    return e


# ---- the parser ----------------------------------------------------------------------------
# The parser works on the pattern with an index; `st` holds its state:
# [pattern, position, flags, group count + 1, group names, open groups, lookbehind group limit,
#  conditionals' group numbers with their positions, where a lone final backslash is or -1].
# Nodes are tuples:
#   ("lit", code point, flags)   ("any", flags)   ("set", negated, items, flags)
#   ("at", kind, flags)          ("seq", [nodes])  ("alt", [nodes])
#   ("group", index or None, node)
#   ("rep", node, min, max (-1: no limit), greedy, possessive)
#   ("ref", group, flags)   ("assert", behind, negated, node)   ("atomic", node)
#   ("cond", group, yes, no)
# A set's items: ("range", lo, hi) or ("cat", one of "dDsSwW").

def _peek(st):
    p = st[0]
    i = st[1]
    if i < len(p):
        return p[i]
    return ""


def _get(st):
    p = st[0]
    i = st[1]
    if i < len(p):
        _move(st, i + 1)
        return p[i]
    return ""


def _match_char(st, c):
    if _peek(st) == c:
        _move(st, st[1] + 1)
        return True
    return False


def _move(st, i):
    """Moves to `i`. CPython's tokenizer reads one token ahead, so a lone backslash at the end
    of the pattern is an error as soon as the parser reaches it, before any error later on."""
    st[1] = i
    if i == st[8]:
        raise _error("bad escape (end of pattern)", st[0], i)


def _token(st):
    """The token at the position as CPython's tokenizer reads it (a backslash with the next
    character), for messages."""
    c = _peek(st)
    if c == "\\":
        return st[0][st[1]:st[1] + 2]
    return c


def _parse(pattern, flags):
    """The pattern's tree, its number of groups and its group names, or re.error."""
    # A lone backslash at the end (an odd run of them) is an error when reached.
    lone = -1
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\":
            if i + 1 == len(pattern):
                lone = i
            i += 2
        else:
            i += 1
    if lone == 0:
        raise _error("bad escape (end of pattern)", pattern, 0)
    st = [pattern, 0, flags, 1, {}, [], None, {}, lone]
    node = _parse_alt(st, 0, True)
    if st[1] < len(pattern):
        if pattern[st[1]] == ")":
            raise _error("unbalanced parenthesis", pattern, st[1])
        raise _error("internal error in regular expression parser", pattern, st[1])
    # A conditional may name a group defined after it; it must exist by the end.
    for group in st[7]:
        if group >= st[3]:
            raise _error("invalid group reference " + str(group), pattern, st[7][group])
    return node, st[3] - 1, st[4], st[2]


def _parse_alt(st, nested, top):
    """Alternatives separated by `|`, up to a `)` or the end."""
    branches = [_parse_seq(st, nested + 1, top)]
    while _match_char(st, "|"):
        branches.append(_parse_seq(st, nested + 1, False))
    if len(branches) == 1:
        return branches[0]
    return ("alt", branches)


def _parse_seq(st, nested, top):
    pattern = st[0]
    items = []
    while True:
        this = _peek(st)
        if this == "" or this == "|" or this == ")":
            break
        start = st[1]
        _move(st, start + 1)
        flags = st[2]
        if flags & VERBOSE:
            if this in _WHITESPACE:
                continue
            if this == "#":
                while True:
                    c = _get(st)
                    if c == "" or c == "\n":
                        break
                continue
        if this == "\\":
            items.append(_escape(st, start))
        elif this not in _SPECIAL:
            items.append(("lit", ord(this), flags))
        elif this == "[":
            items.append(_parse_class(st, start))
        elif this in _REPEAT_CHARS:
            if this == "?":
                lo, hi = 0, 1
            elif this == "*":
                lo, hi = 0, -1
            elif this == "+":
                lo, hi = 1, -1
            else:
                if _peek(st) == "}":
                    items.append(("lit", ord(this), flags))
                    continue
                lo_text = ""
                hi_text = ""
                while _peek(st) != "" and _peek(st) in _DIGITS:
                    lo_text += _get(st)
                if _match_char(st, ","):
                    while _peek(st) != "" and _peek(st) in _DIGITS:
                        hi_text += _get(st)
                else:
                    hi_text = lo_text
                if not _match_char(st, "}"):
                    items.append(("lit", ord(this), flags))
                    _move(st, start + 1)
                    continue
                lo = 0
                hi = -1
                if lo_text:
                    lo = int(lo_text)
                    if lo >= _MAXREPEAT:
                        raise OverflowError("the repetition number is too large")
                if hi_text:
                    hi = int(hi_text)
                    if hi >= _MAXREPEAT:
                        raise OverflowError("the repetition number is too large")
                    if hi < lo:
                        raise _error("min repeat greater than max repeat", pattern, start + 1)
            if not items or items[-1][0] == "at":
                raise _error("nothing to repeat", pattern, start)
            item = items[-1]
            if item[0] == "rep":
                raise _error("multiple repeat", pattern, start)
            greedy = True
            possessive = False
            if _match_char(st, "?"):
                greedy = False
            elif _match_char(st, "+"):
                possessive = True
            items[-1] = ("rep", item, lo, hi, greedy, possessive)
        elif this == ".":
            items.append(("any", flags))
        elif this == "(":
            node = _parse_group(st, start, nested, top and not items)
            if node is not None:
                items.append(node)
        elif this == "^":
            if flags & MULTILINE:
                items.append(("at", _AT_BEGINNING_LINE, flags))
            else:
                items.append(("at", _AT_BEGINNING, flags))
        elif this == "$":
            if flags & MULTILINE:
                items.append(("at", _AT_END_LINE, flags))
            else:
                items.append(("at", _AT_END, flags))
        else:
            raise _error("internal error in regular expression parser", pattern, start)
    if len(items) == 1:
        return items[0]
    return ("seq", items)


def _parse_group(st, start, nested, at_start):
    """What follows a `(`: a group of some kind, or None for a comment or global flags."""
    pattern = st[0]
    capture = True
    name = None
    if _match_char(st, "?"):
        c = _get(st)
        if c == "":
            raise _error("unexpected end of pattern", pattern, st[1])
        if c == "P":
            if _match_char(st, "<"):
                name = _group_name(st, ">")
            elif _match_char(st, "="):
                ref_at = st[1]
                ref = _group_name(st, ")")
                if ref not in st[4]:
                    raise _error("unknown group name " + repr(ref), pattern, ref_at)
                group = st[4][ref]
                if group in st[5]:
                    raise _error("cannot refer to an open group", pattern, ref_at)
                _check_lookbehind_group(st, group, ref_at)
                return ("ref", group, st[2])
            else:
                c2 = _token(st)
                if c2 == "":
                    raise _error("unexpected end of pattern", pattern, st[1])
                raise _error("unknown extension ?P" + c2, pattern, st[1] - 2)
        elif c == ":":
            capture = False
        elif c == "#":
            while True:
                c2 = _get(st)
                if c2 == "":
                    raise _error("missing ), unterminated comment", pattern, start)
                if c2 == ")":
                    return None
        elif c == "=" or c == "!" or c == "<":
            behind = False
            if c == "<":
                c = _token(st)
                if c == "":
                    raise _error("unexpected end of pattern", pattern, st[1])
                if c != "=" and c != "!":
                    raise _error("unknown extension ?<" + c, pattern, st[1] - 2)
                _get(st)
                behind = True
                saved = st[6]
                if saved is None:
                    st[6] = st[3]
            node = _parse_alt(st, nested + 1, False)
            if behind and saved is None:
                st[6] = None
            if not _match_char(st, ")"):
                raise _error("missing ), unterminated subpattern", pattern, start)
            return ("assert", behind, c == "!", node)
        elif c == "(":
            ref_at = st[1]
            cond = ""
            while True:
                c2 = _get(st)
                if c2 == "":
                    raise _error("missing ), unterminated name", pattern, ref_at)
                if c2 == ")":
                    break
                cond += c2
            if cond == "":
                raise _error("missing group name", pattern, ref_at)
            if cond.isidentifier():
                if cond not in st[4]:
                    raise _error("unknown group name " + repr(cond), pattern, ref_at)
                group = st[4][cond]
            else:
                if not cond.isdecimal() or not cond.isascii():
                    raise _error("bad character in group name " + repr(cond), pattern, ref_at)
                group = int(cond)
                if group == 0:
                    raise _error("bad group number", pattern, ref_at)
                if group >= _MAXGROUPS:
                    raise _error("invalid group reference " + str(group), pattern, ref_at)
                if group not in st[7]:
                    st[7][group] = ref_at
            _check_lookbehind_group(st, group, ref_at)
            yes = _parse_seq(st, nested + 1, False)
            no = None
            if _match_char(st, "|"):
                no = _parse_seq(st, nested + 1, False)
                if _peek(st) == "|":
                    raise _error("conditional backref with more than two branches", pattern, st[1])
            if not _match_char(st, ")"):
                raise _error("missing ), unterminated subpattern", pattern, start)
            return ("cond", group, yes, no)
        elif c == ">":
            node = _parse_alt(st, nested + 1, False)
            if not _match_char(st, ")"):
                raise _error("missing ), unterminated subpattern", pattern, start)
            return ("atomic", node)
        elif c in _INLINE_FLAGS or c == "-":
            _move(st, st[1] - 1)
            return _parse_flags(st, start, nested, at_start)
        else:
            if c == "\\":
                c = "\\" + _peek(st)
            raise _error("unknown extension ?" + c, pattern, st[1] - 2)
    group = None
    if capture:
        group = st[3]
        if group >= _MAXGROUPS:
            raise _error("too many groups", pattern, None)
        st[3] = group + 1
        if name is not None:
            if name in st[4]:
                raise _error("redefinition of group name " + repr(name) + " as group " + str(group)
                             + "; was group " + str(st[4][name]), pattern, start + 4)
            st[4][name] = group
        st[5].append(group)
    node = _parse_alt(st, nested + 1, False)
    if not _match_char(st, ")"):
        raise _error("missing ), unterminated subpattern", pattern, start)
    if capture:
        st[5].remove(group)
    return ("group", group, node)


def _parse_flags(st, start, nested, at_start):
    """`(?aiLmsux)` (global, only at the start) or `(?aiLmsux-imsx:...)` (scoped), as CPython's
    `_parse_flags`: the same checks in the same order, each error at its position."""
    pattern = st[0]
    add = 0
    remove = 0
    c = _get(st)
    if c != "-":
        while True:
            flag = _INLINE_FLAGS[c]
            if c == "L":
                raise _error("bad inline flags: cannot use 'L' flag with a str pattern", pattern,
                             st[1])
            add |= flag
            if flag & _TYPE_FLAGS and add & _TYPE_FLAGS != flag:
                raise _error("bad inline flags: flags 'a', 'u' and 'L' are incompatible", pattern,
                             st[1])
            c = _get(st)
            if c == "":
                raise _error("missing -, : or )", pattern, st[1])
            if c in ")-:":
                break
            if c not in _INLINE_FLAGS:
                raise _error("unknown flag" if c.isalpha() else "missing -, : or )", pattern,
                             st[1] - 1)
    if c == ")":
        if not at_start:
            raise _error("global flags not at the start of the expression", pattern, start)
        st[2] |= add
        return None
    if add & TEMPLATE:
        raise _error("bad inline flags: cannot turn on global flag", pattern, st[1] - 1)
    if c == "-":
        c = _get(st)
        if c == "":
            raise _error("missing flag", pattern, st[1])
        if c not in _INLINE_FLAGS:
            raise _error("unknown flag" if c.isalpha() else "missing flag", pattern, st[1] - 1)
        while True:
            flag = _INLINE_FLAGS[c]
            if flag & _TYPE_FLAGS:
                raise _error("bad inline flags: cannot turn off flags 'a', 'u' and 'L'", pattern,
                             st[1])
            remove |= flag
            c = _get(st)
            if c == "":
                raise _error("missing :", pattern, st[1])
            if c == ":":
                break
            if c not in _INLINE_FLAGS:
                raise _error("unknown flag" if c.isalpha() else "missing :", pattern, st[1] - 1)
    if remove & TEMPLATE:
        raise _error("bad inline flags: cannot turn off global flag", pattern, st[1] - 1)
    if add & remove:
        raise _error("bad inline flags: flag turned on and off", pattern, st[1] - 1)
    saved = st[2]
    st[2] = (saved | add) & ~remove
    node = _parse_alt(st, nested + 1, False)
    st[2] = saved
    if not _match_char(st, ")"):
        raise _error("missing ), unterminated subpattern", pattern, start)
    return ("group", None, node)


def _group_name(st, terminator):
    pattern = st[0]
    at = st[1]
    name = ""
    while True:
        c = _get(st)
        if c == "":
            raise _error("missing " + terminator + ", unterminated name", pattern, at)
        if c == terminator:
            break
        name += c
    if name == "":
        raise _error("missing group name", pattern, at)
    if not name.isidentifier():
        raise _error("bad character in group name " + repr(name), pattern, at)
    return name


def _check_lookbehind_group(st, group, at):
    if st[6] is not None and group >= st[6]:
        raise _error("cannot refer to group defined in the same lookbehind subpattern",
                     st[0], None)


def _hex_escape(st, start, kind, count):
    pattern = st[0]
    digits = ""
    while len(digits) < count and _peek(st) != "" and _peek(st) in _HEXDIGITS:
        digits += _get(st)
    if len(digits) != count:
        raise _error("incomplete escape \\" + kind + digits, pattern, start)
    c = int(digits, 16)
    if c > 0x10FFFF:
        raise _error("bad escape \\" + kind + digits, pattern, start)
    return c


def _named_escape(st, start):
    """`\\N{NAME}`: CPython's error when the brace is missing, else Baton's (no names table)."""
    if _peek(st) != "{":
        raise _error("missing {", st[0], start + 2)
    raise _error("\\N{...} escapes are not supported by Baton's re", st[0], start)


def _escape(st, start):
    """A backslash escape outside a class (the backslash is consumed)."""
    pattern = st[0]
    flags = st[2]
    c = _get(st)
    if c == "":
        raise _error("bad escape (end of pattern)", pattern, start)
    if c in "dDsSwW":
        return ("set", False, [("cat", c)], flags)
    if c == "A":
        return ("at", _AT_BEGINNING, flags)
    if c == "Z":
        return ("at", _AT_END_STRING, flags)
    if c == "b":
        return ("at", _AT_BOUNDARY, flags)
    if c == "B":
        return ("at", _AT_NON_BOUNDARY, flags)
    if c in _CHAR_ESCAPES and c != "b":
        return ("lit", _CHAR_ESCAPES[c], flags)
    if c == "x":
        return ("lit", _hex_escape(st, start, "x", 2), flags)
    if c == "u":
        return ("lit", _hex_escape(st, start, "u", 4), flags)
    if c == "U":
        return ("lit", _hex_escape(st, start, "U", 8), flags)
    if c == "N":
        _named_escape(st, start)
    if c == "0":
        digits = ""
        while len(digits) < 2 and _peek(st) != "" and _peek(st) in _OCTDIGITS:
            digits += _get(st)
        return ("lit", int("0" + digits, 8), flags)
    if c in _DIGITS:
        text = c
        if _peek(st) != "" and _peek(st) in _DIGITS:
            text += _get(st)
            if text[0] in _OCTDIGITS and text[1] in _OCTDIGITS and _peek(st) != "" \
                    and _peek(st) in _OCTDIGITS:
                text += _get(st)
                value = int(text, 8)
                if value > 255:
                    raise _error("octal escape value \\" + text + " outside of range 0-0o377",
                                 pattern, start)
                return ("lit", value, flags)
        group = int(text)
        if group < st[3]:
            if group in st[5]:
                raise _error("cannot refer to an open group", pattern, start)
            _check_lookbehind_group(st, group, start)
            return ("ref", group, flags)
        raise _error("invalid group reference " + str(group), pattern, start + 1)
    if c in _ASCIILETTERS:
        raise _error("bad escape \\" + c, pattern, start)
    return ("lit", ord(c), flags)


def _class_escape(st, start):
    """A backslash escape inside a class: a code point, or a category as ("cat", c)."""
    pattern = st[0]
    c = _get(st)
    if c == "":
        raise _error("bad escape (end of pattern)", pattern, start)
    if c in "dDsSwW":
        return ("cat", c)
    if c in _CHAR_ESCAPES:
        return _CHAR_ESCAPES[c]
    if c == "x":
        return _hex_escape(st, start, "x", 2)
    if c == "u":
        return _hex_escape(st, start, "u", 4)
    if c == "U":
        return _hex_escape(st, start, "U", 8)
    if c == "N":
        _named_escape(st, start)
    if c in _OCTDIGITS:
        text = c
        while len(text) < 3 and _peek(st) != "" and _peek(st) in _OCTDIGITS:
            text += _get(st)
        value = int(text, 8)
        if value > 255:
            raise _error("octal escape value \\" + text + " outside of range 0-0o377",
                         pattern, start)
        return value
    if c in _DIGITS:
        raise _error("bad escape \\" + c, pattern, start)
    if c in _ASCIILETTERS:
        raise _error("bad escape \\" + c, pattern, start)
    return ord(c)


def _parse_class(st, start):
    """A `[...]` class (the `[` is consumed)."""
    pattern = st[0]
    flags = st[2]
    items = []
    negated = _match_char(st, "^")
    first = True
    while True:
        at = st[1]
        c = _get(st)
        if c == "":
            raise _error("unterminated character set", pattern, start)
        if c == "]" and not first:
            break
        first = False
        if c == "\\":
            lo = _class_escape(st, at)
        else:
            lo = ord(c)
        if _peek(st) == "-":
            _move(st, st[1] + 1)
            that_at = st[1]
            c2 = _get(st)
            if c2 == "":
                raise _error("unterminated character set", pattern, start)
            if c2 == "]":
                if isinstance(lo, tuple):
                    items.append(lo)
                else:
                    items.append(("range", lo, lo))
                items.append(("range", 45, 45))
                break
            if c2 == "\\":
                hi = _class_escape(st, st[1] - 1)
            else:
                hi = ord(c2)
            if isinstance(lo, tuple) or isinstance(hi, tuple) or hi < lo:
                # Named by the two tokens (`\\x` of `\\x41`), placed as far back from where the
                # parser stands as those tokens are long, as CPython does.
                this = pattern[at:at + 2] if c == "\\" else c
                that = pattern[that_at:that_at + 2] if c2 == "\\" else c2
                raise _error("bad character range " + this + "-" + that, pattern,
                             st[1] - len(this) - 1 - len(that))
            items.append(("range", lo, hi))
        elif isinstance(lo, tuple):
            items.append(lo)
        else:
            items.append(("range", lo, lo))
    return ("set", negated, items, flags)


def _width(node):
    """The least and greatest number of characters `node` matches (-1: no limit)."""
    kind = node[0]
    if kind == "lit" or kind == "any" or kind == "set":
        return 1, 1
    if kind == "at" or kind == "assert":
        return 0, 0
    if kind == "seq":
        lo = 0
        hi = 0
        for item in node[1]:
            a, b = _width(item)
            lo += a
            if hi >= 0:
                hi = -1 if b < 0 else hi + b
        return lo, hi
    if kind == "alt":
        lo = -1
        hi = 0
        for item in node[1]:
            a, b = _width(item)
            if lo < 0 or a < lo:
                lo = a
            if hi >= 0:
                hi = -1 if b < 0 else max(hi, b)
        return lo, hi
    if kind == "group" or kind == "atomic":
        return _width(node[-1])
    if kind == "rep":
        a, b = _width(node[1])
        hi = -1
        if node[3] >= 0 and b >= 0:
            hi = b * node[3]
        return a * node[2], hi
    if kind == "cond":
        a, b = _width(node[2])
        if node[3] is None:
            c, d = 0, 0
        else:
            c, d = _width(node[3])
        hi = -1
        if b >= 0 and d >= 0:
            hi = max(b, d)
        return min(a, c), hi
    return 0, -1


# ---- the compiler --------------------------------------------------------------------------
# `prog` is a list of instructions; `state` is [group count, register count, pattern].

def _emit(prog, ins, state):
    prog.append(ins)
    if len(prog) > _MAX_PROGRAM:
        raise _error("pattern too large for Baton's re (repeat counts expand into copies)",
                     state[2], None)
    return len(prog) - 1


def _compile_node(node, prog, state):
    kind = node[0]
    if kind == "lit":
        if node[2] & IGNORECASE:
            _emit(prog, (_CHARI, _lower(node[1])), state)
        else:
            _emit(prog, (_CHAR, node[1]), state)
    elif kind == "any":
        _emit(prog, (_ANYALL,) if node[1] & DOTALL else (_ANY,), state)
    elif kind == "set":
        _emit(prog, _set_instruction(node), state)
    elif kind == "at":
        _emit(prog, (_AT, node[1], node[2] & ASCII != 0), state)
    elif kind == "seq":
        for item in node[1]:
            _compile_node(item, prog, state)
    elif kind == "alt":
        jumps = []
        branches = node[1]
        for i in range(len(branches)):
            if i < len(branches) - 1:
                split = _emit(prog, None, state)
                _compile_node(branches[i], prog, state)
                jumps.append(_emit(prog, None, state))
                prog[split] = (_SPLIT, split + 1, len(prog))
            else:
                _compile_node(branches[i], prog, state)
        for j in jumps:
            prog[j] = (_JMP, len(prog))
    elif kind == "group":
        if node[1] is None:
            _compile_node(node[2], prog, state)
        else:
            _emit(prog, (_SAVE, 2 * node[1]), state)
            _compile_node(node[2], prog, state)
            _emit(prog, (_SAVE, 2 * node[1] + 1), state)
    elif kind == "rep":
        _compile_repeat(node, prog, state)
    elif kind == "ref":
        _emit(prog, (_BACKREF, node[1], node[2] & IGNORECASE != 0), state)
    elif kind == "assert":
        sub = []
        _compile_node(node[3], sub, state)
        _emit(sub, (_MATCH,), state)
        width = 0
        if node[1]:
            # Checked once the whole pattern has parsed, as sre_compile checks it.
            width, most = _width(node[3])
            if width != most:
                raise _error("look-behind requires fixed-width pattern", state[2], None)
        _emit(prog, (_ASSERT, node[1], node[2], sub, width), state)
    elif kind == "atomic":
        sub = []
        _compile_node(node[1], sub, state)
        _emit(sub, (_MATCH,), state)
        _emit(prog, (_ATOMIC, sub), state)
    elif kind == "cond":
        test = _emit(prog, None, state)
        _compile_node(node[2], prog, state)
        if node[3] is None:
            prog[test] = (_GROUPEXISTS, node[1], len(prog))
        else:
            jump = _emit(prog, None, state)
            prog[test] = (_GROUPEXISTS, node[1], len(prog))
            _compile_node(node[3], prog, state)
            prog[jump] = (_JMP, len(prog))


def _set_instruction(node):
    flags = node[3]
    ins = (_SET, node[1], node[2], flags & IGNORECASE != 0, flags & ASCII != 0, None)
    table = [_in_set(c, ins) for c in range(128)]
    return (_SET, node[1], node[2], flags & IGNORECASE != 0, flags & ASCII != 0, table)


def _single(node):
    """The instruction of a node that matches exactly one character, else None."""
    kind = node[0]
    if kind == "lit":
        if node[2] & IGNORECASE:
            return (_CHARI, _lower(node[1]))
        return (_CHAR, node[1])
    if kind == "any":
        return (_ANYALL,) if node[1] & DOTALL else (_ANY,)
    if kind == "set":
        return _set_instruction(node)
    if kind == "group" and node[1] is None:
        # `(?:x)`: CPython's compiler sees through a group that captures nothing, too.
        inner = node[2]
        if inner[0] == "seq" and len(inner[1]) == 1:
            inner = inner[1][0]
        return _single(inner)
    return None


def _compile_repeat(node, prog, state):
    body = node[1]
    lo = node[2]
    hi = node[3]
    greedy = node[4]
    single = _single(body)
    if single is not None and greedy and not node[5]:
        _emit(prog, (_STAR, single, lo, hi), state)
        return
    if single is not None and not node[5]:
        _emit(prog, (_PAST_END,), state)
    if node[5]:
        sub = []
        _compile_repeat(("rep", body, lo, hi, True, False), sub, state)
        _emit(sub, (_MATCH,), state)
        _emit(prog, (_ATOMIC, sub), state)
        return
    for _ in range(lo):
        _compile_node(body, prog, state)
    if hi < 0:
        # L: split body, exit; body: mark r; <body>; loop r, L, exit
        register = state[1]
        state[1] = register + 1
        split = _emit(prog, None, state)
        _emit(prog, (_MARK, register), state)
        _compile_node(body, prog, state)
        _emit(prog, (_LOOP, register, split, len(prog) + 1), state)
        if greedy:
            prog[split] = (_SPLIT, split + 1, len(prog))
        else:
            prog[split] = (_SPLIT, len(prog), split + 1)
        return
    splits = []
    for _ in range(hi - lo):
        split = _emit(prog, None, state)
        splits.append(split)
        _compile_node(body, prog, state)
    for split in splits:
        if greedy:
            prog[split] = (_SPLIT, split + 1, len(prog))
        else:
            prog[split] = (_SPLIT, len(prog), split + 1)


# ---- characters ----------------------------------------------------------------------------

def _lower(c):
    if c < 128:
        if 65 <= c <= 90:
            return c + 32
        return c
    low = chr(c).lower()
    return ord(low[0])


def _upper(c):
    if c < 128:
        if 97 <= c <= 122:
            return c - 32
        return c
    up = chr(c).upper()
    if len(up) != 1:
        return c
    return ord(up)


def _is_word(c, ascii_only):
    if c < 128:
        return 48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122 or c == 95
    if ascii_only:
        return False
    return chr(c).isalnum()


def _in_category(c, cat, ascii_only):
    if cat == "d" or cat == "D":
        if c < 128 or ascii_only:
            found = 48 <= c <= 57
        else:
            found = chr(c).isdecimal()
        return found if cat == "d" else not found
    if cat == "w" or cat == "W":
        found = _is_word(c, ascii_only)
        return found if cat == "w" else not found
    if c < 128 or ascii_only:
        found = c == 32 or 9 <= c <= 13 or (not ascii_only and 28 <= c <= 31)
    else:
        found = chr(c).isspace()
    return found if cat == "s" else not found


def _in_items(c, items, ascii_only):
    for item in items:
        if item[0] == "range":
            if item[1] <= c <= item[2]:
                return True
        elif _in_category(c, item[1], ascii_only):
            return True
    return False


def _set_has(ins, c):
    if c < 128:
        return ins[5][c]
    return _in_set(c, ins)


def _in_set(c, ins):
    items = ins[2]
    found = _in_items(c, items, ins[4])
    if not found and ins[3]:
        low = _lower(c)
        found = _in_items(low, items, ins[4]) or _in_items(_upper(low), items, ins[4])
    return found != ins[1]


# ---- the machine ---------------------------------------------------------------------------

def _at(kind, s, pos, end, ascii_only):
    if kind == _AT_BEGINNING:
        return pos == 0
    if kind == _AT_BEGINNING_LINE:
        return pos == 0 or s[pos - 1] == 10
    if kind == _AT_END:
        return pos == end or (pos + 1 == end and s[pos] == 10)
    if kind == _AT_END_LINE:
        # (past the end, where a match() from a pos past its endpos looks, CPython reads the
        # character there too, or the string's end)
        return pos == end or (pos < len(s) and s[pos] == 10)
    if kind == _AT_END_STRING:
        return pos == end
    before = pos > 0 and _is_word(s[pos - 1], ascii_only)
    after = pos < end and _is_word(s[pos], ascii_only)
    if kind == _AT_BOUNDARY:
        return before != after and end > 0
    return before == after and end > 0


def _run(prog, s, start, end, need_end, forbid_empty, caps):
    """Runs `prog` on the code points `s` from `start` (characters past `end` do not exist).
    The first way through in priority order wins: its end position and slots, or None. A match
    must end at `need_end` when it is not -1, and may not be empty when `forbid_empty`."""
    stack = []
    pc = 0
    pos = start
    while True:
        ins = prog[pc]
        op = ins[0]
        ok = True
        if op == _CHAR:
            if pos < end and s[pos] == ins[1]:
                pos += 1
                pc += 1
            else:
                ok = False
        elif op == _SET:
            if pos < end and _set_has(ins, s[pos]):
                pos += 1
                pc += 1
            else:
                ok = False
        elif op == _STAR:
            one = ins[1]
            kind = one[0]
            limit = end
            if ins[3] >= 0 and pos + ins[3] < end:
                limit = pos + ins[3]
            p = pos
            if kind == _SET:
                table = one[5]
                while p < limit:
                    c = s[p]
                    if c < 128:
                        if not table[c]:
                            break
                    elif not _in_set(c, one):
                        break
                    p += 1
            elif kind == _ANY:
                while p < limit and s[p] != 10:
                    p += 1
            elif kind == _ANYALL:
                p = limit
            elif kind == _CHAR:
                while p < limit and s[p] == one[1]:
                    p += 1
            else:
                while p < limit and (s[p] == one[1] or _lower(s[p]) == one[1]):
                    p += 1
            # (past the end, where only a match() from a pos past its endpos starts, CPython's
            # REPEAT_ONE fails even with no character to match)
            if p - pos < ins[2] or pos > end:
                ok = False
            else:
                if p - pos > ins[2]:
                    # One entry stands for every shorter count: it gives back a character
                    # each time it is taken (see below).
                    stack.append((pc + 1, p - 1, caps, pos + ins[2]))
                    caps = list(caps)
                pos = p
                pc += 1
        elif op == _SPLIT:
            stack.append((ins[2], pos, list(caps), -1))
            pc = ins[1]
        elif op == _JMP:
            pc = ins[1]
        elif op == _SAVE:
            caps[ins[1]] = pos
            if ins[1] & 1:
                caps[-1] = ins[1] // 2
            pc += 1
        elif op == _ANY:
            if pos < end and s[pos] != 10:
                pos += 1
                pc += 1
            else:
                ok = False
        elif op == _ANYALL:
            if pos < end:
                pos += 1
                pc += 1
            else:
                ok = False
        elif op == _CHARI:
            if pos < end and (s[pos] == ins[1] or _lower(s[pos]) == ins[1]):
                pos += 1
                pc += 1
            else:
                ok = False
        elif op == _MARK:
            caps[-2 - ins[1]] = pos
            pc += 1
        elif op == _LOOP:
            if caps[-2 - ins[1]] == pos:
                pc = ins[3]
            else:
                pc = ins[2]
        elif op == _AT:
            if _at(ins[1], s, pos, end, ins[2]):
                pc += 1
            else:
                ok = False
        elif op == _MATCH:
            if (need_end >= 0 and pos != need_end) or (forbid_empty and pos == start):
                ok = False
            else:
                return pos, caps
        elif op == _BACKREF:
            group = ins[1]
            a = caps[2 * group]
            b = caps[2 * group + 1]
            if a < 0 or b < 0:
                ok = False
            elif pos + (b - a) > end:
                ok = False
            else:
                i = 0
                n = b - a
                while i < n:
                    x = s[a + i]
                    y = s[pos + i]
                    if x != y and (not ins[2] or _lower(x) != _lower(y)):
                        break
                    i += 1
                if i == n:
                    pos += n
                    pc += 1
                else:
                    ok = False
        elif op == _ASSERT:
            if ins[1]:
                at = pos - ins[4]
                if at < 0:
                    found = None
                else:
                    # (its characters must be before the end too: only a match() from a pos
                    # past its endpos has the end before `pos`)
                    found = _run(ins[3], s, at, min(pos, end), pos, False, list(caps))
            else:
                found = _run(ins[3], s, pos, end, -1, False, list(caps))
            if ins[2]:
                if found is None:
                    pc += 1
                else:
                    ok = False
            elif found is None:
                ok = False
            else:
                caps = found[1]
                pc += 1
        elif op == _ATOMIC:
            found = _run(ins[1], s, pos, end, -1, False, list(caps))
            if found is None:
                ok = False
            else:
                pos = found[0]
                caps = found[1]
                pc += 1
        elif op == _GROUPEXISTS:
            if caps[2 * ins[1]] >= 0 and caps[2 * ins[1] + 1] >= 0:
                pc += 1
            else:
                pc = ins[2]
        elif op == _PAST_END:
            if pos > end:
                ok = False
            else:
                pc += 1
        else:
            ok = False
        if not ok:
            if not stack:
                return None
            entry = stack.pop()
            pc = entry[0]
            pos = entry[1]
            caps = entry[2]
            if entry[3] >= 0 and pos > entry[3]:
                stack.append((pc, pos - 1, caps, entry[3]))
                caps = list(caps)


def _first(prog):
    """The single-character instruction every match starts with, or None."""
    k = 0
    while prog[k][0] == _SAVE or prog[k][0] == _PAST_END:
        k += 1
    ins = prog[k]
    if ins[0] == _CHAR or ins[0] == _CHARI or ins[0] == _SET:
        return ins
    if ins[0] == _STAR and ins[2] >= 1:
        return ins[1]
    return None


def _can_start(ins, c):
    op = ins[0]
    if op == _CHAR:
        return c == ins[1]
    if op == _SET:
        return _set_has(ins, c)
    if op == _CHARI:
        return c == ins[1] or _lower(c) == ins[1]
    if op == _ANY:
        return c != 10
    return True


def _search(compiled, s, pos, end, anchored, need_end, forbid_empty):
    """The first match at or after `pos` (only at `pos` when `anchored`): (start, end, slots)."""
    prog = compiled[0]
    slots = compiled[1]
    first = compiled[2]
    start = pos
    # (anchored, once even from past the end: CPython's match() runs its program there, and a
    # pattern that needs no character, `(?!x)`, matches)
    while start <= end or anchored:
        if first is not None and not anchored:
            # Skip to where the first character can match.
            while start < end and not _can_start(first, s[start]):
                start += 1
            if start >= end:
                return None
        found = _run(prog, s, start, end, need_end, forbid_empty and start == pos,
                     [-1] * slots)
        if found is not None:
            caps = found[1]
            caps[0] = start
            caps[1] = found[0]
            return start, found[0], caps
        if anchored:
            return None
        start += 1
    return None


# ---- patterns and matches ------------------------------------------------------------------

def _flags_repr(flags):
    names = []
    rest = flags & ~UNICODE
    for value, name in _FLAG_NAMES:
        if rest & value:
            names.append(name)
            rest &= ~value
    if rest:
        # CPython's pattern_repr formats the C int's remaining bits with "%x": unsigned.
        names.append(hex(rest & 0xFFFFFFFF))
    return "|".join(names)


def _first_repeat(node):
    """The name CPython's compiler gives the first repetition in `node`, or None."""
    kind = node[0]
    if kind == "rep":
        if node[5]:
            return "POSSESSIVE_REPEAT"
        return "MAX_REPEAT" if node[4] else "MIN_REPEAT"
    if kind == "seq" or kind == "alt":
        children = node[1]
    elif kind == "group":
        children = [node[2]]
    elif kind == "assert":
        children = [node[3]]
    elif kind == "atomic":
        children = [node[1]]
    elif kind == "cond":
        children = [node[2], node[3]]
    else:
        return None
    for child in children:
        if child is not None:
            op = _first_repeat(child)
            if op is not None:
                return op
    return None


def _compile(pattern, flags):
    # CPython's order: the cache lookup (an unhashable argument is a TypeError there), a
    # compiled pattern, the pattern's type, then the flags' (tested with `&` against a
    # RegexFlag as the pattern is parsed).
    key = (pattern, flags)
    if key in _cache:
        return _cache[key]
    if isinstance(pattern, Pattern):
        if flags:
            raise ValueError("cannot process flags argument with a compiled pattern")
        return pattern
    if not isinstance(pattern, str):
        raise TypeError("first argument must be string or compiled pattern")
    if not isinstance(flags, int):
        raise TypeError(
            "unsupported operand type(s) for &: '" + type_name(flags) + "' and 'RegexFlag'"
        )
    # Global inline flags (`(?i)`) come first in the pattern, so they are in effect for all of it.
    node, groups, names, final_flags = _parse(pattern, flags)
    # The flags are checked against the pattern's type after it is parsed, as CPython's
    # `fix_flags` checks them: a malformed pattern is the error first.
    if final_flags & LOCALE:
        raise ValueError("cannot use LOCALE flag with a str pattern")
    if final_flags & ASCII and final_flags & UNICODE:
        raise ValueError("ASCII and UNICODE flags are incompatible")
    if not final_flags & ASCII:
        final_flags |= UNICODE
    # CPython 3.11's TEMPLATE flag (deprecated) compiles no repetition.
    if final_flags & TEMPLATE:
        op = _first_repeat(node)
        if op is not None:
            raise _error("internal: unsupported template operator " + op, pattern, None)
    prog = []
    state = [groups, 0, pattern]
    _compile_node(node, prog, state)
    _emit(prog, (_MATCH,), state)
    # Slots: a start and an end per group (group 0 too), then the loop registers (from the
    # end, below the last), then the last group closed.
    compiled = (prog, 2 * (groups + 1) + state[1] + 1, _first(prog))
    # CPython hands the flags to _sre.compile as a C int, last of all.
    if final_flags >= 2147483648 or final_flags < -2147483648:
        raise OverflowError("Python int too large to convert to C int")
    p = _make_pattern(pattern, final_flags, groups, names, compiled)
    if len(_cache) >= 512:
        _cache.clear()
    _cache[key] = p
    return p


def _codes(string):
    return [ord(c) for c in string]


def _check_string(string):
    if not isinstance(string, str):
        raise TypeError("expected string or bytes-like object, got '" + type_name(string) + "'")


def _bounds(string, pos, endpos):
    # CPython's order: the argument clinic converts `pos` and `endpos` to ints (None is not
    # one), then the method checks the string.
    if not isinstance(pos, int):
        raise TypeError("'" + type_name(pos) + "' object cannot be interpreted as an integer")
    if not isinstance(endpos, int):
        raise TypeError("'" + type_name(endpos) + "' object cannot be interpreted as an integer")
    _check_string(string)
    n = len(string)
    if pos < 0:
        pos = 0
    if pos > n:
        pos = n
    if endpos < 0:
        endpos = 0
    if endpos > n:
        endpos = n
    return pos, endpos


def _make_pattern(pattern_text, flags, groups, names, compiled):
    fields = {}
    me = []

    def make_match(string, s, pos, endpos, found):
        return _make_match(me[0], string, found, pos, endpos, groups, names)

    def run(string, pos, endpos, anchored, full):
        pos, endpos = _bounds(string, pos, endpos)
        if pos > endpos and not (anchored and not full):
            return None
        s = _codes(string)
        found = _search(compiled, s, pos, endpos, anchored, endpos if full else -1, False)
        if found is None:
            return None
        return make_match(string, s, pos, endpos, found)

    def each(string, pos, endpos, limit):
        """Where every match is, in order, as finditer, findall, sub and split find them (after
        an empty match the next may not be empty at the same place): `_search` results (start,
        end, group slots), with the bounds as clamped and the string's code points, which the
        Match objects made of them need. No Match object is made here: findall, split and a
        template's sub need only the slots, and a list of 100,000 Match objects (each a record
        of closures) would hold hundreds of MB at once."""
        pos, endpos = _bounds(string, pos, endpos)
        s = _codes(string)
        spans = []
        at = pos
        forbid_empty = False
        while at <= endpos and (limit <= 0 or len(spans) < limit):
            found = _search(compiled, s, at, endpos, False, -1, forbid_empty)
            if found is None:
                break
            spans.append(found)
            forbid_empty = found[1] == found[0]
            at = found[1]
        return pos, endpos, s, spans

    def match(string, pos=0, endpos=_MAXSIZE):
        return run(string, pos, endpos, True, False)

    def search(string, pos=0, endpos=_MAXSIZE):
        return run(string, pos, endpos, False, False)

    def fullmatch(string, pos=0, endpos=_MAXSIZE):
        return run(string, pos, endpos, True, True)

    def finditer(string, pos=0, endpos=_MAXSIZE):
        # A callable_iterator, as CPython's (a match is never None, the sentinel). Each Match
        # is made as it is asked for, with the bounds given (CPython's `m.pos` is finditer's
        # `pos`, not where that match was searched from).
        pos, endpos, s, spans = each(string, pos, endpos, 0)
        found = iter(spans)

        def step():
            f = next(found, None)
            if f is None:
                return None
            return make_match(string, s, pos, endpos, f)

        return iter(step, None)

    def findall(string, pos=0, endpos=_MAXSIZE):
        out = []
        for found in each(string, pos, endpos, 0)[3]:
            slots = found[2]
            if groups == 0:
                out.append(_slot_text(string, slots, 0, ""))
            elif groups == 1:
                out.append(_slot_text(string, slots, 1, ""))
            else:
                out.append(tuple([_slot_text(string, slots, i, "") for i in range(1, groups + 1)]))
        return out

    def subn(repl, string, count=0):
        if not isinstance(count, int):
            raise TypeError("'" + type_name(count) + "' object cannot be interpreted as an integer")
        # CPython's order: the replacement (compiled as a template), then the string.
        if callable(repl):
            template = None
        else:
            template = _parse_template(repl, groups, names)
        _check_string(string)
        if count < 0:
            return string, 0
        pieces = []
        last = 0
        n = 0
        pos, endpos, s, spans = each(string, 0, _MAXSIZE, count)
        for found in spans:
            pieces.append(string[last:found[0]])
            if template is None:
                r = repl(make_match(string, s, pos, endpos, found))
                if not isinstance(r, str):
                    raise TypeError("expected str instance, " + type_name(r) + " found")
                pieces.append(r)
            else:
                pieces.append(_expand(template, string, found[2]))
            last = found[1]
            n += 1
        pieces.append(string[last:])
        return "".join(pieces), n

    def sub(repl, string, count=0):
        return subn(repl, string, count)[0]

    def split(string, maxsplit=0):
        if not isinstance(maxsplit, int):
            raise TypeError("'" + type_name(maxsplit) + "' object cannot be interpreted as an integer")
        _check_string(string)
        if maxsplit < 0:
            return [string]
        out = []
        last = 0
        for found in each(string, 0, _MAXSIZE, maxsplit)[3]:
            out.append(string[last:found[0]])
            for i in range(1, groups + 1):
                out.append(_slot_text(string, found[2], i, None))
            last = found[1]
        out.append(string[last:])
        return out

    text = "re.compile(" + repr(pattern_text)[:200]
    shown = _flags_repr(flags)
    if shown:
        text += ", " + shown
    text += ")"
    fields["pattern"] = pattern_text
    fields["flags"] = flags
    fields["groups"] = groups
    fields["groupindex"] = dict(names)
    fields["match"] = match
    fields["search"] = search
    fields["fullmatch"] = fullmatch
    fields["finditer"] = finditer
    fields["findall"] = findall
    fields["sub"] = sub
    fields["subn"] = subn
    fields["split"] = split
    p = record(Pattern, fields, text)
    me.append(p)
    return p


def _make_match(pattern, string, found, pos, endpos, groups, names):
    slots = found[2]
    fields = {}
    me = []

    def index_of(g):
        # CPython's match_getindex: an int (a bool too) is a group number; anything else is
        # looked up in the names when the pattern has any (an unhashable one is the lookup's
        # TypeError), and is no group when it has none.
        if isinstance(g, int):
            if 0 <= g <= groups:
                return int(g)
            raise IndexError("no such group")
        if names and g in names:
            return names[g]
        raise IndexError("no such group")

    def one(g):
        i = index_of(g)
        a = slots[2 * i]
        b = slots[2 * i + 1]
        if a < 0 or b < 0:
            return None
        return string[a:b]

    def group(*args):
        if len(args) == 0:
            return one(0)
        if len(args) == 1:
            return one(args[0])
        return tuple([one(g) for g in args])

    def groups_(default=None):
        out = []
        for i in range(1, groups + 1):
            v = one(i)
            out.append(default if v is None else v)
        return tuple(out)

    def groupdict(default=None):
        out = {}
        for name in names:
            v = one(name)
            out[name] = default if v is None else v
        return out

    def start(g=0, /):
        i = index_of(g)
        if slots[2 * i + 1] < 0:
            return -1
        return slots[2 * i]

    def end(g=0, /):
        i = index_of(g)
        if slots[2 * i] < 0:
            return -1
        return slots[2 * i + 1]

    def span(g=0, /):
        return start(g), end(g)

    def expand(template):
        return _expand(_parse_template(template, groups, names), string, slots)

    lastindex = slots[-1]
    if lastindex <= 0:
        lastindex = None
    lastgroup = None
    if lastindex is not None:
        for name in names:
            if names[name] == lastindex:
                lastgroup = name
    fields["string"] = string
    fields["re"] = pattern
    fields["pos"] = pos
    fields["endpos"] = endpos
    fields["lastindex"] = lastindex
    fields["lastgroup"] = lastgroup
    fields["regs"] = tuple([(slots[2 * i], slots[2 * i + 1]) for i in range(groups + 1)])
    fields["group"] = group
    fields["__getitem__"] = one
    fields["groups"] = groups_
    fields["groupdict"] = groupdict
    fields["start"] = start
    fields["end"] = end
    fields["span"] = span
    fields["expand"] = expand
    text = "<re.Match object; span=(" + str(found[0]) + ", " + str(found[1]) + "), match=" \
        + repr(string[found[0]:found[1]])[:50] + ">"
    m = record(Match, fields, text)
    me.append(m)
    return m


# ---- replacement templates -----------------------------------------------------------------

def _parse_template(template, groups, names):
    """A replacement template as a list of strs (literal text) and ints (group numbers)."""
    if not isinstance(template, str):
        # CPython's template parser decodes what is not a str as bytes.
        raise TypeError("decoding to str: need a bytes-like object, " + type_name(template) + " found")
    out = []
    literal = ""
    i = 0
    n = len(template)
    while i < n:
        c = template[i]
        i += 1
        if c != "\\":
            literal += c
            continue
        if i >= n:
            raise _error("bad escape (end of pattern)", template, i - 1)
        c = template[i]
        at = i - 1
        i += 1
        if c == "g":
            if i >= n or template[i] != "<":
                raise _error("missing <", template, i)
            close = template.find(">", i + 1)
            if close < 0:
                raise _error("missing >, unterminated name", template, i + 1)
            name = template[i + 1:close]
            if name == "":
                raise _error("missing group name", template, i + 1)
            if name.isdecimal() and name.isascii():
                index = int(name)
                if index > groups:
                    raise _error("invalid group reference " + str(index), template, i + 1)
            elif name.isidentifier():
                if name not in names:
                    raise IndexError("unknown group name " + repr(name))
                index = names[name]
            else:
                raise _error("bad character in group name " + repr(name), template, i + 1)
            i = close + 1
            out.append(literal)
            literal = ""
            out.append(index)
        elif c == "0":
            digits = ""
            while len(digits) < 2 and i < n and template[i] in _OCTDIGITS:
                digits += template[i]
                i += 1
            literal += chr(int("0" + digits, 8))
        elif c in _DIGITS:
            text = c
            if i < n and template[i] in _DIGITS:
                text += template[i]
                i += 1
                if text[0] in _OCTDIGITS and text[1] in _OCTDIGITS and i < n \
                        and template[i] in _OCTDIGITS:
                    text += template[i]
                    i += 1
                    value = int(text, 8)
                    if value > 255:
                        raise _error("octal escape value \\" + text + " outside of range 0-0o377",
                                     template, at)
                    literal += chr(value)
                    continue
            index = int(text)
            if index > groups:
                raise _error("invalid group reference " + str(index), template, at + 1)
            out.append(literal)
            literal = ""
            out.append(index)
        elif c in _CHAR_ESCAPES:
            literal += chr(_CHAR_ESCAPES[c])
        elif c in _ASCIILETTERS:
            raise _error("bad escape \\" + c, template, at)
        else:
            literal += "\\" + c
    out.append(literal)
    return out


def _expand(template, string, slots):
    """A parsed template (`_parse_template`) filled in from a match's group slots."""
    pieces = []
    for part in template:
        if isinstance(part, str):
            pieces.append(part)
        else:
            pieces.append(_slot_text(string, slots, part, ""))
    return "".join(pieces)


def _slot_text(string, slots, i, default):
    """Group `i`'s text of a match whose group slots are `slots` (start and end of each group,
    -1 where it did not take part), or `default` where it did not."""
    a = slots[2 * i]
    b = slots[2 * i + 1]
    if a < 0 or b < 0:
        return default
    return string[a:b]


# ---- the module's functions ----------------------------------------------------------------

def compile(pattern, flags=0):
    """The pattern compiled: an re.Pattern with match, search, fullmatch, findall, finditer,
    sub, subn and split."""
    return _compile(pattern, flags)


def match(pattern, string, flags=0):
    return _compile(pattern, flags).match(string)


def search(pattern, string, flags=0):
    return _compile(pattern, flags).search(string)


def fullmatch(pattern, string, flags=0):
    return _compile(pattern, flags).fullmatch(string)


def findall(pattern, string, flags=0):
    return _compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return _compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return _compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return _compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return _compile(pattern, flags).split(string, maxsplit)


def escape(pattern):
    """`pattern` with every character that is special in a pattern backslash-escaped."""
    if not isinstance(pattern, str):
        raise TypeError("expected string or bytes-like object, got '" + type_name(pattern) + "'")
    out = []
    for c in pattern:
        if c in "()[]{}?*+-|^$\\.&~# \t\n\r\v\f":
            out.append("\\" + c)
        else:
            out.append(c)
    return "".join(out)


def purge():
    """Clears the cache of compiled patterns."""
    _cache.clear()
