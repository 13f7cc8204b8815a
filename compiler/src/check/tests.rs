//! One or more tests per rule, plus Python's scoping rules. Each test states the plan and the
//! exact codes it must produce, so a rule that stops firing (or fires too often) fails here.

use crate::{check_source, check_source_with, Code, Limits, Severity};

/// The report of `source` without its warnings (B501 unused SDK imports, B502 late-binding
/// closures), which their own tests check: the other tests import freely and make closures in
/// loops to test scoping.
fn report_of(source: &str) -> crate::CheckReport {
    let mut report = check_source("test.py", source);
    report
        .diagnostics
        .retain(|d| !matches!(d.code, Code::UnusedImport | Code::LateBindingClosure));
    report
}

fn codes(source: &str) -> Vec<&'static str> {
    report_of(source)
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect()
}

fn assert_clean(source: &str) {
    let report = report_of(source);
    assert!(
        report.diagnostics.is_empty(),
        "expected no diagnostics for:\n{source}\n{}",
        report.render_human()
    );
}

fn assert_codes(source: &str, expected: &[&str]) {
    let report = report_of(source);
    let found: Vec<_> = report.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(found, expected, "for:\n{source}\n{}", report.render_human());
}

// ----- B0xx: syntax and limits -------------------------------------------------------------

#[test]
fn syntax_errors_are_one_diagnostic_with_a_position() {
    let report = check_source("p.py", "x = (1,\ny = 2\n");
    assert_eq!(report.codes(), [Code::SyntaxError]);
    let report = check_source("p.py", "def f(:\n    pass\n");
    assert_eq!(report.codes(), [Code::SyntaxError]);
    let json = report.render_json();
    assert!(json.contains("\"line\": 1"), "{json}");
    // An unrecognised character is marked itself, not the character after it.
    let report = check_source("p.py", "x = 1\ny = é€ + 2\n");
    assert_eq!(report.codes(), [Code::SyntaxError]);
    let at = report.file.line_column(report.diagnostics[0].span.start);
    assert_eq!((at.line, at.column), (2, 6));
}

#[test]
fn source_size_is_limited() {
    let limits = Limits {
        max_source_bytes: 10,
        ..Limits::default()
    };
    assert_eq!(
        check_source_with("p.py", "x = 1234567890\n", &limits).codes(),
        [Code::SourceTooLarge]
    );
}

#[test]
fn ten_thousand_nested_parentheses_are_a_diagnostic_not_a_crash() {
    let source = format!("x = {}1{}\n", "(".repeat(10_000), ")".repeat(10_000));
    assert_codes(&source, &["B003"]);
    // CPython's limit is 200 nested brackets; 200 are fine.
    assert_clean(&format!("x = {}1{}\n", "(".repeat(200), ")".repeat(200)));
    assert_codes(
        &format!("x = {}1{}\n", "(".repeat(201), ")".repeat(201)),
        &["B003"],
    );
    let source = format!("x = {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    assert_codes(&source, &["B003"]);
}

#[test]
fn long_operator_chains_and_unary_towers_are_bounded() {
    assert_codes(&format!("x = 1{}\n", "+1".repeat(100_000)), &["B003"]);
    assert_codes(&format!("x = {}1\n", "-".repeat(200_000)), &["B003"]);
    assert_codes(&format!("x = a{}\n", ".b".repeat(50_000)), &["B003"]);
}

#[test]
fn indentation_depth_follows_cpython() {
    let nested = |levels: usize| {
        let mut source = String::new();
        for level in 0..levels {
            source.push_str(&format!("{}if True:\n", " ".repeat(level)));
        }
        source.push_str(&format!("{}pass\n", " ".repeat(levels)));
        source
    };
    assert_clean(&nested(99));
    assert_codes(&nested(150), &["B003"]);
}

#[test]
fn node_count_is_limited() {
    let limits = Limits {
        max_nodes: 50,
        ..Limits::default()
    };
    let source = "x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] * 10\n".repeat(5);
    assert_eq!(
        check_source_with("p.py", &source, &limits).codes(),
        [Code::TooManyNodes]
    );
}

#[test]
fn compile_time_errors_that_cpython_rejects() {
    assert_codes("return 1\n", &["B005"]);
    assert_codes("break\n", &["B005"]);
    assert_codes("def f():\n    continue\n", &["B005"]);
    assert_codes(
        "for i in range(3):\n    def f():\n        break\n",
        &["B005"],
    );
    // The parser itself rejects duplicate parameters, as CPython does.
    assert_codes("def f(a, a):\n    return a\n", &["B001"]);
    assert_codes("g = lambda x, x: x\n", &["B001"]);
    assert_clean("for i in range(3):\n    if i:\n        break\n    continue\nelse:\n    pass\n");
    assert_clean("while True:\n    try:\n        break\n    finally:\n        pass\n");
}

/// Mutation-fuzzer finding: a use between two `nonlocal x` declarations is CPython's "name 'x'
/// is used prior to nonlocal declaration" (mutant 2632 of seed 2: a duplicated line).
#[test]
fn a_use_before_a_repeated_nonlocal_declaration_is_refused() {
    assert_codes(
        "def f(x):\n    def g():\n        nonlocal x\n        x += 1\n        nonlocal x\n        return x\n    return g\n",
        &["B207"],
    );
    assert_clean(
        "def f(x):\n    def g():\n        nonlocal x\n        nonlocal x\n        x += 1\n        return x\n    return g\n",
    );
}

/// Mutation-fuzzer finding (issue 23): rustpython's grammar accepts `**` without a name and a
/// bare `*` followed only by `**kwargs`; CPython refuses both.
#[test]
fn parameter_lists_cpython_refuses() {
    for source in [
        "def f(a, **):\n    return a\n",
        "def f(*args, **):\n    pass\n",
        "g = lambda **: 1\n",
        "def f(*, **k):\n    pass\n",
        "def f(a, *, **):\n    pass\n",
        "g = lambda *: 0\n",
        "g = lambda *, **k: 0\n",
        "def f(a, *):\n    pass\n",
    ] {
        assert_codes(source, &["B001"]);
    }
    // Multiplication and unpacking inside defaults are not parameters.
    assert_clean("x = [1]\ndef f(a=2*3, *args, b=x[0]**2, c=[*x], **kw):\n    return a\n");
    assert_clean("g = lambda *a, **k: (a, k)\nh = lambda *, k=1: k\n");
}

#[test]
fn targets_and_expressions_that_cpython_refuses_to_compile() {
    for source in [
        "True = 1\n",
        "None = 1\n",
        "f() = 1\n",
        "a, *b, *c = [1, 2, 3]\n",
        "x = *[1]\n",
        "print([*a for a in [[1]]])\n",
        "print(x for x in [1], 2)\n",
        "try:\n    pass\nexcept:\n    pass\nexcept ValueError:\n    pass\n",
        "del print()\n",
        "a, b = 1, 2\na, b += 1\n",
        "print([i := 0 for i in range(3)])\n",
        "print([x for x in (y := [1])])\n",
        "for f() in []:\n    pass\n",
        "*a = [1]\n",
    ] {
        assert!(
            codes(source).contains(&"B005"),
            "{source}: {:?}",
            codes(source)
        );
    }
    assert_clean("a, *b = [1, 2, 3]\n[*b, *b]\nprint(*b, *b)\nx = {*b}\ny = (*b, 1)\n");
    assert_clean("print(sum(x for x in [1]))\nprint(sorted((x for x in [1]), reverse=True))\n");
    assert_clean("xs = [1]\ndel xs[0]\nd = {}\nd['k'] = 1\nd['k'] += 1\n");
    assert_clean("print([(y := x) for x in [1]])\nprint(y)\n");
    assert_clean("def f(a):\n    return a[*a]\n");
}

// ----- B1xx: imports -----------------------------------------------------------------------

#[test]
fn allowed_imports() {
    assert_clean(
        "import baton\nimport json\nimport json as j\nfrom baton import bash, llm, branch, parallel, log, inputs\nfrom json import loads, dumps, JSONDecodeError\nfrom baton import bash as sh\nbaton.log(j.dumps(1), sh, json, loads)\n",
    );
}

#[test]
fn forbidden_modules_in_every_spelling() {
    for source in [
        "import os\n",
        "import os.path\n",
        "import os as o\n",
        "from os import system\n",
        "from os.path import join\n",
        "import subprocess\n",
        "import sys\n",
        "import importlib\n",
        "import builtins\n",
        "import socket\n",
        "import ctypes\n",
        "import string\n",
        "import baton.secret\n",
        "def f():\n    import os\n",
        "if False:\n    import os\n",
        "def f():\n    return\n    import os\n",
        "try:\n    import os\nexcept ImportError:\n    pass\n",
    ] {
        assert!(codes(source).contains(&"B101"), "{source}");
    }
    assert_codes("import json, subprocess\n", &["B101"]);
}

#[test]
fn forbidden_import_names_the_module_and_the_allowed_ones() {
    let report = check_source("p.py", "import subprocess\n");
    let diagnostic = &report.diagnostics[0];
    assert!(diagnostic.message.contains("`subprocess`"));
    let help = diagnostic.help.as_deref().unwrap();
    assert!(
        help.contains("baton, baton.ttc, json") && help.contains("bash"),
        "{help}"
    );
}

#[test]
fn unknown_members_of_allowed_modules() {
    assert_codes("from baton import run\n", &["B102"]);
    assert_codes("from json import load\n", &["B102"]);
    assert_codes("import json\njson.load('x')\n", &["B102"]);
    assert_codes("import baton\nbaton.shell('ls')\n", &["B102"]);
    let report = check_source("p.py", "from baton import bahs\n");
    assert!(report.diagnostics[0]
        .help
        .as_deref()
        .unwrap()
        .contains("did you mean `bash`"));
    // A rebound name is no longer the module.
    assert_clean("import json\njson = {'load': 1}\nprint(json.load)\n");
}

#[test]
fn relative_and_star_imports() {
    assert_codes("from . import x\n", &["B103"]);
    assert_codes("from ..pkg import y\n", &["B103"]);
    assert_codes("from baton import *\n", &["B104"]);
    assert_codes("from json import *\n", &["B104"]);
    assert_codes("from os import *\n", &["B101", "B104"]);
}

// ----- B2xx: names and attributes -------------------------------------------------------------

#[test]
fn undefined_names_get_suggestions() {
    let report = check_source("p.py", "result = 1\nprint(reslt)\n");
    assert_eq!(report.codes(), [Code::UndefinedName]);
    assert_eq!(
        report.diagnostics[0].help.as_deref(),
        Some("did you mean `result`?")
    );
    let report = report_of("from baton import bash\nbsah('ls')\n");
    assert_eq!(
        report.diagnostics[0].help.as_deref(),
        Some("did you mean `bash`?")
    );
    let report = check_source("p.py", "llm('hi')\n");
    assert!(report.diagnostics[0]
        .help
        .as_deref()
        .unwrap()
        .contains("from baton import llm"));
    let report = check_source("p.py", "json.dumps(1)\n");
    assert!(report.diagnostics[0]
        .help
        .as_deref()
        .unwrap()
        .contains("import json"));
    let report = check_source("p.py", "os.system('ls')\n");
    assert!(report.diagnostics[0]
        .help
        .as_deref()
        .unwrap()
        .contains("bash"));
}

#[test]
fn forbidden_builtins() {
    for name in [
        "eval",
        "exec",
        "compile",
        "open",
        "input",
        "globals",
        "locals",
        "vars",
        "dir",
        "getattr",
        "setattr",
        "delattr",
        "hasattr",
        "type",
        "object",
        "super",
        "breakpoint",
        "help",
        "memoryview",
        "id",
        "exit",
        "quit",
        "classmethod",
        "staticmethod",
        "property",
    ] {
        assert_codes(&format!("x = {name}\n"), &["B202"]);
    }
    assert_codes("e = eval\ne('1')\n", &["B202"]);
    assert_codes("f = [getattr][0]\n", &["B202"]);
    assert_codes("def f(g=getattr):\n    return g\n", &["B202"]);
    assert_codes("h = (lambda: open)()\n", &["B202"]);
}

#[test]
fn function_locals_shadow_forbidden_builtins() {
    assert_clean("def f():\n    type = 'bug'\n    return type\n");
    assert_clean("def run(compile):\n    return compile(1)\n");
    assert_clean("from baton import inputs\ndef task():\n    input = inputs['task']\n    id = 3\n    return input, id\n");
    assert_clean("def f(open):\n    return open\n");
    assert_clean("xs = [dir for dir in ['a', 'b']]\n");
    // Deleting a local leaves an UnboundLocalError, never the builtin.
    assert_clean("def f():\n    eval = 1\n    del eval\n    return eval\n");
}

#[test]
fn module_bindings_do_not_hide_builtins() {
    // At module level Python falls back to the builtin whenever the binding has not run.
    assert_codes("type = 'bug'\nprint(type)\n", &["B202"]);
    assert_codes("eval = None\ndel eval\neval('1')\n", &["B202"]);
    assert_codes("if False:\n    open = None\nopen('x')\n", &["B202"]);
    assert_codes("print(type(1))\ntype = 'bug'\n", &["B202"]);
    assert_codes(
        "try:\n    pass\nexcept Exception as eval:\n    pass\neval('1')\n",
        &["B202"],
    );
    assert_codes("exec: int\nexec('x = 1')\n", &["B202"]);
    assert_codes(
        "def read():\n    return open('f')\nopen = None\n",
        &["B202"],
    );
    assert_codes("format = 1\nprint(format)\n", &["B203"]);
    // Names that are not builtins are unaffected.
    assert_clean("task = 'x'\nprint(task)\n");
}

#[test]
fn unsupported_builtins() {
    for name in [
        "bytes",
        "format",
        "issubclass",
        "complex",
        "NotImplemented",
        "Ellipsis",
        "OSError",
        "SystemExit",
    ] {
        assert_codes(&format!("x = {name}\n"), &["B203"]);
    }
}

#[test]
fn supported_builtins_are_accepted() {
    assert_clean(
        "print(len([1]), range(3), enumerate([]), zip([], []), sorted([]), reversed([]), min(1, 2), max(1, 2), sum([]), any([]), all([]), abs(-1), round(1.5), int('1'), float('1'), str(1), bool(1), list(), dict(), tuple(), set(), isinstance(1, int), repr(1), map(str, []), filter(None, []), divmod(7, 2), chr(65), ord('a'), pow(2, 3), hex(1), oct(1), bin(1))\n",
    );
    assert_clean("try:\n    pass\nexcept (KeyError, IndexError, ValueError, TypeError, ZeroDivisionError, LookupError, ArithmeticError, RuntimeError, Exception) as e:\n    raise ValueError('x') from e\n");
}

#[test]
fn dunder_identifiers_everywhere() {
    for source in [
        "__import__('os')\n",
        "x = __builtins__\n",
        "print(__name__)\n",
        "__x__ = 1\n",
        "_y__ = 1\n",
        "def __init__(self):\n    pass\n",
        "def f(__a__):\n    pass\n",
        "print(dict(__class__=1))\n",
        "from baton import bash as __b__\n",
        "import json as __j__\n",
        "g = lambda __q__: 1\n",
        "try:\n    pass\nexcept Exception as __e__:\n    pass\n",
        "xs = [__i__ for __i__ in range(3)]\n",
    ] {
        assert!(
            codes(source).contains(&"B204"),
            "{source}: {:?}",
            codes(source)
        );
    }
    assert_clean("_private = 1\n__mangled = 2\n_ = 3\nprint(_private, __mangled, _)\n");
}

#[test]
fn private_and_dunder_attributes() {
    assert_codes("x = ().__class__\n", &["B205"]);
    assert_codes("x = [1]._secret\n", &["B205"]);
    assert_codes("f = lambda: 0\ng = f.__globals__\n", &["B205"]);
    assert_codes("x = {}\nx.__dict__ = 1\n", &["B205"]);
    assert_codes(
        "x = ().__class__.__bases__[0].__subclasses__()\n",
        &["B205", "B205", "B205"],
    );
}

#[test]
fn reflective_attributes_without_underscores() {
    for attr in [
        "mro",
        "gi_frame",
        "f_back",
        "f_globals",
        "tb_frame",
        "co_code",
        "cell_contents",
        "with_traceback",
    ] {
        assert_codes(&format!("x = [1]\ny = x.{attr}\n"), &["B206"]);
    }
    assert_codes(
        "g = (x for x in [])\nf = g.gi_frame.f_back.f_globals\n",
        &["B206", "B206", "B206"],
    );
}

#[test]
fn nfkc_normalisation_applies_to_every_check() {
    // Fullwidth and mathematical letters are the builtin as far as CPython is concerned.
    assert_codes("ｅｖａｌ('1')\n", &["B202"]);
    assert_codes("𝐞𝐯𝐚𝐥('1')\n", &["B202"]);
    // U+FF3F (fullwidth low line) may continue an identifier, and NFKC makes it `_`.
    assert_codes("x = ().__class＿＿\n", &["B205"]);
    assert_codes("import ｏｓ\n", &["B101"]);
    assert_codes("x = _＿builtins＿＿\n", &["B204"]);
    let report = check_source("p.py", "ｅｖａｌ('1')\n");
    assert!(report.diagnostics[0]
        .message
        .contains("which Python reads as `eval`"));
    // A normalised name also binds: `ｘ` and `x` are the same variable.
    assert_clean("ｘ = 1\nprint(x)\n");
}

#[test]
fn nonlocal_rules() {
    assert_clean(
        "def outer():\n    n = 0\n    def inc():\n        nonlocal n\n        n += 1\n        return n\n    return inc\n",
    );
    assert_codes("nonlocal x\n", &["B207"]);
    assert_codes("def f():\n    nonlocal x\n    x = 1\n", &["B207"]);
    assert_codes("x = 1\ndef f():\n    nonlocal x\n    x = 2\n", &["B207"]);
    assert_codes(
        "def o():\n    x = 1\n    def f(x):\n        nonlocal x\n",
        &["B207"],
    );
    assert_codes(
        "def o():\n    x = 1\n    def f():\n        print(x)\n        nonlocal x\n",
        &["B207"],
    );
}

#[test]
fn scoping_follows_python() {
    // Names defined later at module level are visible inside functions.
    assert_clean("def f():\n    return helper()\ndef helper():\n    return 1\n");
    // Comprehension variables do not leak.
    assert_codes("xs = [i for i in range(3)]\nprint(i)\n", &["B201"]);
    // The first iterable is evaluated outside the comprehension.
    assert_codes("xs = [y for y in y]\n", &["B201"]);
    // A walrus in a comprehension binds in the enclosing scope.
    assert_clean("xs = [last := i for i in range(3)]\nprint(last)\n");
    // Lambda parameters and closures; late binding is a runtime matter.
    assert_clean("fs = [lambda: i for i in range(3)]\nadd = lambda a, *rest, k=1, **kw: a + k\n");
    // Parameters, keyword-only, *args, **kwargs.
    assert_clean("def f(a, /, b, *args, c, d=1, **kwargs):\n    return a, b, args, c, d, kwargs\n");
    // except-as names, for targets, tuple and starred unpacking.
    assert_clean("first, *rest = [1, 2, 3]\nfor k, v in {}.items():\n    pass\ntry:\n    pass\nexcept Exception as err:\n    print(err)\n");
    // Annotations are checked like any expression.
    assert_clean(
        "def f(x: list[str], y: dict[str, int] | None = None) -> bool:\n    return True\n",
    );
    assert_codes("def f(x: List[str]):\n    pass\n", &["B201"]);
    // Names used only in a function that never binds them must exist somewhere.
    assert_codes("def f():\n    return missing\n", &["B201"]);
}

// ----- B3xx: syntax outside the plan language -------------------------------------------------

#[test]
fn unsupported_syntax() {
    assert_codes("class A:\n    pass\n", &["B301"]);
    assert_codes("async def f():\n    pass\n", &["B302"]);
    assert_codes(
        "async def f():\n    await g()\nasync def g():\n    pass\n",
        &["B302", "B302", "B302"],
    );
    assert_codes(
        "async def f():\n    async for x in y():\n        pass\ndef y():\n    return []\n",
        &["B302", "B302"],
    );
    assert_codes("def f():\n    yield 1\n", &["B303"]);
    assert_codes("def f():\n    yield from []\n", &["B303"]);
    assert_codes("x = 1\ndef f():\n    global x\n", &[]);
    assert_codes("def f(x):\n    global x\n", &["B208"]);
    assert_codes("def f():\n    print(x)\n    global x\n", &["B208"]);
    // A function's global is the module's name: defined for the module body too.
    assert_codes("def f():\n    global y\n    y = 1\nf()\nprint(y)\n", &[]);
    assert_codes("with x() as y:\n    pass\ndef x():\n    pass\n", &["B305"]);
    assert_codes(
        "def d(f):\n    return f\n@d\ndef g():\n    pass\n",
        &["B306"],
    );
    assert_codes("match 1:\n    case 1:\n        pass\n", &["B307"]);
    assert_codes("try:\n    pass\nexcept* ValueError:\n    pass\n", &["B308"]);
    assert_codes("x = b'abc'\n", &["B309"]);
    assert_codes("x = 1j\n", &["B309"]);
    assert_codes("x = ...\ndef f():\n    ...\n", &[]);
    assert_codes("type X = int\n", &["B310"]);
    assert_codes("def f[T](x):\n    return x\n", &["B310"]);
}

#[test]
fn all_problems_are_reported_at_once() {
    let report = check_source(
        "p.py",
        "import os\nclass A:\n    x = eval\nprint(y.__class__)\n",
    );
    assert_eq!(
        report.codes(),
        [
            Code::ForbiddenImport,
            Code::ClassDefinition,
            Code::ForbiddenBuiltin,
            Code::UndefinedName,
            Code::PrivateAttribute
        ]
    );
}

// ----- B4xx: format strings -------------------------------------------------------------------

#[test]
fn format_strings_with_attribute_or_index_fields() {
    assert_codes("x = '{0.__class__}'.format(1)\n", &["B401"]);
    assert_codes("x = '{x[0]}'.format(x=[1])\n", &["B401"]);
    assert_codes("x = '{0.real}'.format_map({})\n", &["B401"]);
    assert_codes("x = str.format('{0.__class__}', 1)\n", &["B401"]);
    assert_codes("x = '{0:{1.__class__}}'.format(1, 2)\n", &["B401"]);
    assert_codes("f = '{0.imag}'.format\n", &["B401"]);
    assert_codes("x = f'{{0.__class__}}'.format(1)\n", &["B401"]);
    assert_codes("x = 1\ny = f'{x} {{0[0]}}'.format([1])\n", &["B401"]);
    assert_clean(
        "x = '{} {0} {name!r:>10} {v:{w}.{p}f} {{0.x}}'.format(1, name=2, v=3.0, w=4, p=1)\n",
    );
    assert_clean("w = 3\nx = f'{w:>{w}} {w!r}'\n");
}

#[test]
fn fstrings_are_checked_like_code() {
    assert_codes("x = f'{().__class__}'\n", &["B205"]);
    assert_codes("x = f'{eval(\"1\")}'\n", &["B202"]);
    assert_codes("x = f'{missing}'\n", &["B201"]);
    assert_codes("x = f'{3!a}'\n", &["B203"]);
    assert_clean("x = f'{3!r} {3!s}'\n");
}

// ----- robustness ----------------------------------------------------------------------------

#[test]
fn odd_inputs_do_not_panic() {
    for source in [
        "",
        "\n",
        "\u{0}",
        "\r\n\r\n",
        "\t\tx",
        "'''",
        "x = '\\N{",
        "é = 1\n",
        "\u{feff}x = 1\n",
        "if 1:\n\tpass\n        pass\n",
    ] {
        let report = check_source("p.py", source);
        let _ = report.render_human();
        let _ = report.render_json();
    }
}

#[test]
fn function_size_is_limited() {
    let limits = Limits {
        max_function_nodes: 40,
        ..Limits::default()
    };
    // Each `f(n)` statement is four nodes (the statement, the call, two names).
    let body = "    f(n)\n".repeat(12);
    let big_def = format!("def f(n):\n    return n\ndef g(n):\n{body}");
    assert_eq!(
        check_source_with("p.py", &big_def, &limits).codes(),
        [Code::FunctionTooLarge]
    );
    // A nested def counts on its own, not toward the function around it.
    let nested = format!(
        "def g(n):\n    def h(n):\n{}    return h\n",
        "        n + 1\n".repeat(5)
    );
    assert!(check_source_with("p.py", &nested, &limits)
        .codes()
        .is_empty());
    // Top-level statements are measured one at a time (the compiler splits long module
    // bodies), so many small ones pass and one large one does not.
    let many = "x = 1\n".repeat(100);
    assert!(check_source_with("p.py", &many, &limits).codes().is_empty());
    let one = format!("if True:\n{}", "    x = 1\n".repeat(30));
    assert_eq!(
        check_source_with("p.py", &one, &limits).codes(),
        [Code::FunctionTooLarge]
    );
}

// ----- B5xx: warnings -------------------------------------------------------------------------

#[test]
fn unused_sdk_imports_are_warnings() {
    let report = check_source("p.py", "from baton import bash, llm as ask\nbash('ls')\n");
    assert!(report.is_accepted(), "a warning does not reject");
    assert_eq!(report.codes(), [Code::UnusedImport]);
    let warning = &report.diagnostics[0];
    assert_eq!(warning.severity, Severity::Warning);
    assert_eq!(
        warning.message,
        "`ask` is imported from baton but never used"
    );
    // Read anywhere, even only inside a function or a lambda, the import is used.
    for used in [
        "from baton import llm\ndef f():\n    return llm('x')\n",
        "from baton import llm\nf = lambda: llm('x')\n",
        "from baton import inputs\nprint([k for k in inputs])\n",
    ] {
        assert!(check_source("p.py", used).diagnostics.is_empty(), "{used}");
    }
    // A function-level import is the function's own business (and not reported).
    let local = "def f():\n    from baton import llm\n    return 1\n";
    assert!(check_source("p.py", local).diagnostics.is_empty());
    // Assigning the name is not reading it.
    let stored = "from baton import llm\nllm = 1\n";
    assert_eq!(check_source("p.py", stored).codes(), [Code::UnusedImport]);
}

#[test]
fn dotted_imports_are_refused_as_the_compiler_would() {
    assert_codes("import baton.ttc as t\n", &["B105"]);
    assert_codes("import baton.ttc\n", &["B105"]);
    assert_codes("from baton.ttc import tournament\n", &[]);
}

// ----- B6xx: calls of the SDK and the plan library --------------------------------------------

fn messages(source: &str) -> Vec<String> {
    report_of(source)
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code.as_str(), d.message))
        .collect()
}

#[test]
fn sdk_calls_are_checked_against_their_signatures() {
    assert_eq!(
        messages("from baton import bash\nbash([\"ls\"])\n"),
        ["B603 bash() argument 'command' must be str, not list"]
    );
    assert_eq!(
        messages("from baton import bash\nbash(\"x\", cwd=\"/tmp\")\n"),
        ["B601 bash() got an unexpected keyword argument 'cwd'"]
    );
    assert_eq!(
        messages("import baton\nbaton.bash(\"x\", \"y\")\n"),
        ["B602 bash() takes 1 positional argument but 2 were given"]
    );
    assert_eq!(
        messages("from baton import bash as sh\nsh()\n"),
        ["B602 bash() missing 1 required positional argument: 'command'"]
    );
    assert_eq!(
        messages("from baton import bash\nbash(\"x\", timeout=\"5\", input=3)\n"),
        [
            "B603 bash() argument 'timeout' must be int or float, not str",
            "B603 bash() argument 'input' must be str or None, not int"
        ]
    );
    assert_eq!(
        messages("from baton import llm\nllm(\"q\", temperature=1, max_tokens=2.5, stop=\"x\")\n"),
        [
            "B603 llm() argument 'max_tokens' must be int or None, not float",
            "B603 llm() argument 'stop' must be list, tuple or None, not str"
        ]
    );
    assert_eq!(
        messages("from baton import branch\nbranch([lambda: 1], n=\"auto\", reduce=\"best\", labels=\"ab\", budget=1)\n"),
        ["B603 branch() argument 'labels' must be list, tuple or None, not str"]
    );
    assert_eq!(
        messages("from baton.ttc import tournament\ntournament([1, 2], votes=3)\n"),
        ["B602 tournament() missing 1 required keyword-only argument: 'question'"]
    );
    assert_eq!(
        messages("from baton import log\nlog(1, 2, 3, sep=\"-\")\n"),
        ["B601 log() got an unexpected keyword argument 'sep'"]
    );
}

#[test]
fn sdk_checks_report_only_what_is_certain() {
    for clean in [
        // Values of unknown type, starred arguments, and a name bound again are not judged.
        "from baton import bash\ncmd = ['ls']\nbash(cmd)\n",
        "from baton import bash\nargs = ('ls',)\nbash(*args)\n",
        "from baton import bash\nopts = {'timeout': 5}\nbash('ls', **opts)\n",
        "from baton import bash\ndef f(bash):\n    return bash(1, 2, 3)\n",
        "from baton import llm\nllm([{'role': 'user', 'content': 'hi'}], model=None)\n",
        "from baton import bash\nbash(f'ls {1}', timeout=True, input=None)\n",
        "from baton import parallel\nparallel([lambda: 1], max_parallel=2, labels=('a',))\n",
        "from baton.ttc import refine\nrefine(lambda ctx: 1, n=4, k=2)\n",
    ] {
        assert_clean(clean);
    }
}

#[test]
fn late_binding_closures_are_warned_about() {
    let warned = |source: &str| -> Vec<String> {
        check_source("p.py", source)
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::LateBindingClosure)
            .map(|d| {
                assert_eq!(d.severity, Severity::Warning);
                d.message.clone()
            })
            .collect()
    };
    let message = |what: &str, var: &str| {
        format!("{what} in a loop reads the loop variable `{var}` when it runs, not when it was made: every one sees its last value")
    };
    // The example, and its fix.
    let example = "from baton import branch, llm\nbranch([lambda: llm(f\"attempt {i}\") for i in range(4)])\n";
    assert_eq!(warned(example), [message("a lambda made", "i")]);
    assert!(
        check_source("p.py", example).is_accepted(),
        "a warning does not reject"
    );
    assert!(warned("from baton import branch, llm\nbranch([lambda i=i: llm(f\"attempt {i}\") for i in range(4)])\n").is_empty());
    // In a for loop: handed to branch/parallel or stored.
    assert_eq!(
        warned("fns = []\nfor n in range(3):\n    fns.append(lambda: n * 2)\n"),
        [message("a lambda made", "n")]
    );
    assert_eq!(
        warned("from baton import parallel\nfor job in ['a', 'b']:\n    def run():\n        return job\n    parallel([run])\n"),
        [message("a function defined", "job")]
    );
    assert_eq!(
        warned("table = {}\nfor k, v in [(1, 2)]:\n    table[k] = lambda: v\n"),
        [message("a lambda made", "v")]
    );
    // Used at once: not reported.
    for clean in [
        "rows = [[2, 1]]\nfor i in range(2):\n    print(sorted(rows, key=lambda r: r[i]))\n",
        "for i in range(2):\n    print((lambda: i)())\n",
        "for i in range(2):\n    def show():\n        print(i)\n    show()\n",
        "print([(lambda: i)() for i in range(3)])\n",
        "fns = [lambda x: x * 2 for _ in range(3)]\n",
        "def make(i):\n    return lambda: i\nfns = [make(i) for i in range(3)]\n",
    ] {
        assert!(warned(clean).is_empty(), "{clean}");
    }
}

#[test]
fn syntax_errors_are_worded_as_cpython_words_them() {
    // (source, CPython 3.11's message, its line and 1-based column)
    let cases = [
        ("print((1, 2)\n", "'(' was never closed", 1, 6),
        ("x = [1, 2\ny = 3\n", "'[' was never closed", 1, 5),
        ("x = (1,\n  [2,\n", "'[' was never closed", 2, 3),
        ("s = \"(\" + x\nprint(s\n", "'(' was never closed", 2, 6),
        ("x = 1)\n", "unmatched ')'", 1, 6),
        ("x = 5 5)\n", "unmatched ')'", 1, 8),
        (
            "f(1]\n",
            "closing parenthesis ']' does not match opening parenthesis '('",
            1,
            4,
        ),
        (
            "x = (1\n+ 2]\n",
            "closing parenthesis ']' does not match opening parenthesis '(' on line 1",
            2,
            4,
        ),
        ("if x\n    pass\n", "expected ':'", 1, 5),
        ("def f()\n    return 1\n", "expected ':'", 1, 8),
        ("if x:\n    pass\nelif y\n    pass\n", "expected ':'", 3, 7),
        ("with a as b\n    pass\n", "expected ':'", 1, 12),
        ("x = 1 # (\nif x\n  pass\n", "expected ':'", 2, 5),
        (
            "try:\nx = 1\n",
            "expected an indented block after 'try' statement on line 1",
            2,
            1,
        ),
        (
            "def f():\nreturn 1\n",
            "expected an indented block after function definition on line 1",
            2,
            1,
        ),
        (
            "class A:\npass\n",
            "expected an indented block after class definition on line 1",
            2,
            1,
        ),
        (
            "if x:\n  pass\nelse:\nprint(2)\n",
            "expected an indented block after 'else' statement on line 3",
            4,
            1,
        ),
        (
            "for i in x:\n\nprint(1)\n",
            "expected an indented block after 'for' statement on line 1",
            3,
            1,
        ),
        (
            "print(f\"{}\")\n",
            "f-string: empty expression not allowed",
            1,
            11,
        ),
    ];
    for (source, message, line, column) in cases {
        let report = check_source("p.py", source);
        let diagnostic = &report.diagnostics[0];
        assert_eq!(diagnostic.code, Code::SyntaxError, "{source:?}");
        assert_eq!(diagnostic.message, message, "{source:?}");
        let found = report.file.line_column(diagnostic.span.start);
        assert_eq!((found.line, found.column), (line, column), "{source:?}");
    }
    // Where CPython's parser speaks first, the bracket is not blamed.
    let report = check_source("p.py", "def f(:\n  pass\n");
    assert!(report.diagnostics[0].message.starts_with("invalid syntax"));
}
