//! What the guide says that no other table holds: the builtins' signatures, the statements,
//! and the idioms. Each is tested against the tables it describes (see `guide::tests`): a
//! builtin without a signature here, or a signature for a builtin the checker refuses, fails.

use crate::diagnostic::Code;

/// Every supported builtin function with its signature as plans may call it.
pub const BUILTIN_SIGNATURES: &[&str] = &[
    "abs(x)",
    "all(iterable)",
    "any(iterable)",
    "bin(n)",
    "bool(x=False)",
    "callable(x)",
    "chr(i)",
    "dict(mapping_or_pairs=(), **items)",
    "divmod(a, b)",
    "enumerate(iterable, start=0)",
    "filter(function, iterable)",
    "float(x=0.0)",
    "frozenset(iterable=())",
    "hash(value)",
    "hex(n)",
    "int(x=0, base=10)",
    "isinstance(value, type_or_tuple)",
    "iter(iterable)",
    "len(x)",
    "list(iterable=())",
    "map(function, *iterables)",
    "max(iterable, *, key=None, default=...) or max(a, b, *more, key=None)",
    "min(iterable, *, key=None, default=...) or min(a, b, *more, key=None)",
    "next(iterator, default=...)",
    "oct(n)",
    "ord(c)",
    "pow(base, exp, mod=None)",
    "print(*values, sep=' ', end='\\n', flush=False)",
    "range(stop) or range(start, stop, step=1)",
    "repr(x)",
    "reversed(sequence)",
    "round(x, ndigits=None)",
    "set(iterable=())",
    "slice(stop) or slice(start, stop, step=None)",
    "sorted(iterable, *, key=None, reverse=False)",
    "str(x='')",
    "sum(iterable, start=0)",
    "tuple(iterable=())",
    "zip(*iterables, strict=False)",
];

/// The statements and expressions plans may use.
pub const SUPPORTED_SYNTAX: &[&str] = &[
    "def (positional, default, keyword-only, *args and **kwargs parameters), lambda, closures, nonlocal, recursion",
    "if/elif/else, for/else, while/else, break, continue, pass, return",
    "try/except/else/finally, raise, raise ... from ..., assert",
    "assignment: tuple unpacking, starred targets, augmented (+= ...), subscripts and slices, del",
    "import and from ... import of the allowed modules",
    "literals: int (arbitrary size), float, str, f-strings with format specs, list, tuple, dict, set, None, True, False",
    "comprehensions (list, dict, set) and generator expressions passed to a function",
    "operators: arithmetic, comparison chains, and/or/not, in, is, conditional expressions, the walrus :=",
    "annotations (def f(x: list[str]) -> dict:) are evaluated when CPython evaluates them (when the def runs; at module level) and not kept",
];

/// What the checker refuses, by its diagnostic code, with the way to write it instead.
pub const REFUSED_SYNTAX: &[(Code, &str, &str)] = &[
    (
        Code::ClassDefinition,
        "class",
        "use dicts and tuples for records, functions for behaviour",
    ),
    (
        Code::AsyncSyntax,
        "async def, await, async for, async with",
        "run work concurrently with parallel([...]) or branch([...])",
    ),
    (
        Code::Generator,
        "yield, yield from (generators)",
        "build a list and return it",
    ),
    (
        Code::WithStatement,
        "with",
        "call functions directly; read files with bash(\"cat FILE\")",
    ),
    (
        Code::Decorator,
        "decorators",
        "apply the wrapper after the definition: f = wrapper(f)",
    ),
    (Code::MatchStatement, "match", "use an if/elif chain"),
    (Code::ExceptStar, "except*", "use a plain except clause"),
    (
        Code::UnsupportedLiteral,
        "bytes literals, complex numbers",
        "use str and float (text crosses to and from commands as str)",
    ),
    (
        Code::NewerSyntax,
        "Python 3.12 syntax (type statements, def f[T])",
        "plans are Python 3.11",
    ),
    (
        Code::ForbiddenImport,
        "import of any other module",
        "commands and files through bash(), models through llm()",
    ),
    (
        Code::DunderName,
        "dunder names (__name__, __class__, ...)",
        "plans see no interpreter internals",
    ),
    (
        Code::PrivateAttribute,
        "attributes starting with _",
        "use the public methods",
    ),
];

/// Idioms for plans that drive a shell, each a complete plan the checker accepts (a test
/// checks them), shown as they are.
pub const IDIOMS: &[(&str, &str)] = &[
    (
        "Run a command and use its result",
        "from baton import bash\n\nr = bash(\"ls -1\")\nif not r.ok:\n    raise RuntimeError(f\"ls failed ({r.returncode}): {r.stderr}\")\nfiles = r.stdout.splitlines()\nprint(len(files), \"files\")\n",
    ),
    (
        "Quote values you put into a command",
        "from baton import bash\nimport shlex\n\nname = \"notes of today.txt\"\nbash(f\"touch {shlex.quote(name)}\")\n",
    ),
    (
        "Write a file: pass the content as input, never inside the command",
        "from baton import bash, llm\n\ncode = llm(\"Write a Python function add(a, b). Reply with code only.\")\nbash(\"cat > add.py\", input=code)\n",
    ),
    (
        "Parse command output",
        "from baton import bash\nimport json\n\nsizes = {}\nfor line in bash(\"du -sk *\").stdout.splitlines():\n    size, name = line.split(\"\\t\", 1)\n    sizes[name] = int(size)\nprint(json.dumps(sizes))\n",
    ),
    (
        "Try several fixes side by side, keep the one whose tests pass",
        "from baton import bash, llm, branch\n\ndef attempt(i):\n    def run():\n        bash(\"cat > fix.py\", input=llm(f\"Fix attempt {i}: ...\"))\n        return i\n    return run\n\nbranch([attempt(i) for i in range(4)],\n       validate=lambda _: bash(\"python3 -m pytest -q\").ok,\n       labels=[f\"attempt {i}\" for i in range(4)])\n",
    ),
    (
        "Capture a loop variable in a callable: a default argument, or a factory",
        "from baton import llm, parallel\n\nanswers = parallel([lambda i=i: llm(f\"Idea {i}\") for i in range(3)])\n",
    ),
    (
        "Define main: Baton calls main(**inputs) and keeps what it returns as the run's result",
        "from baton import bash\n\ndef main(task=\"\"):\n    r = bash(\"./test.sh\")\n    return {\"passed\": r.ok, \"task\": task}\n",
    ),
];
