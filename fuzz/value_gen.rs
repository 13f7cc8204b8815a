//! Random plan-language values, driven by a byte stream, for fuzzing the value encoding that
//! copies values into and out of branches (runtime/wat/codec.wat, docs/abi.md "Value
//! encoding"). [`plan`] writes a plan that builds the values, sends them into a branch (captured
//! by the callable) and back (returned), and prints whether every value came back with the same
//! repr (which also covers nan, which is not equal to itself) and whether sharing survived.
//!
//! Shared (by `#[path]`) between the `branch_values` fuzz target and `tests/branching.rs`, so
//! it depends only on std. When the bytes run out every choice is 0, a scalar, so generation
//! always stops.

#![allow(dead_code)]

/// What a correct run of [`plan`]'s plan prints.
pub const EXPECTED: &str = "True True\n";

struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bytes<'_> {
    fn choose(&mut self, n: usize) -> usize {
        let byte = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        byte as usize % n
    }
}

const SCALARS: &[&str] = &[
    "0",
    "-1",
    "4611686018427387903",
    "-4611686018427387905",
    "9223372036854775807",
    "-9223372036854775807 - 1",
    "1.5",
    "-0.0",
    "1e300",
    "5e-324",
    "float('inf')",
    "-float('inf')",
    "float('nan')",
    "None",
    "True",
    "False",
    "''",
    "'a\"b\\\\c\\n'",
    "'é✓\\x00\\u2028'",
    "'ключ'",
    "shared",
    "len",
    "str.upper",
    "'abc'.split",
    "ValueError('v', 2)",
    "KeyError",
    "range(3, -9, -2)",
    "{}.keys()",
];

const KEYS: &[&str] = &[
    "0",
    "-7",
    "'k'",
    "''",
    "(1, 'x')",
    "True",
    "2.5",
    "None",
    "(None, (2,))",
    "frozenset({1, 'x'})",
];

fn value(bytes: &mut Bytes<'_>, depth: u32) -> String {
    let kind = if depth == 0 { 0 } else { bytes.choose(7) };
    if kind == 0 {
        return SCALARS[bytes.choose(SCALARS.len())].to_string();
    }
    let n = bytes.choose(4);
    let mut items = Vec::new();
    for _ in 0..n {
        items.push(value(bytes, depth - 1));
    }
    match kind {
        1 => format!("[{}]", items.join(", ")),
        2 => format!("({}{})", items.join(", "), if n == 1 { "," } else { "" }),
        3 => {
            let pairs: Vec<String> = items
                .iter()
                .map(|v| format!("{}: {v}", KEYS[bytes.choose(KEYS.len())]))
                .collect();
            format!("{{{}}}", pairs.join(", "))
        }
        4 if n > 0 => {
            let keys: Vec<&str> = (0..n).map(|_| KEYS[bytes.choose(KEYS.len())]).collect();
            format!("{{{}}}", keys.join(", "))
        }
        5 => format!("(lambda: {})", items.first().map_or("None", String::as_str)),
        6 if n > 0 => {
            let keys: Vec<&str> = (0..n).map(|_| KEYS[bytes.choose(KEYS.len())]).collect();
            format!("frozenset([{}])", keys.join(", "))
        }
        _ => "set()".to_string(),
    }
}

/// A plan that round-trips the values `data` describes through a branch.
pub fn plan(data: &[u8]) -> String {
    let mut bytes = Bytes { data, pos: 0 };
    let count = 1 + bytes.choose(40);
    let mut plan = String::from(
        "from baton import parallel\n\n\
         def same_repr(a, b):\n\
         \x20   # Functions, methods and views print addresses; compare what they show besides.\n\
         \x20   return repr(a).split(' at ')[0] == repr(b).split(' at ')[0]\n\n\
         shared = [1, 'two']\ncycle = [shared]\ncycle.append(cycle)\nvalues = [\n",
    );
    for _ in 0..count {
        plan.push_str(&format!("    {},\n", value(&mut bytes, 3)));
    }
    plan.push_str(
        "    cycle,\n]\n\
         back = parallel([lambda: values])[0]\n\
         print(len(back) == len(values) and all(same_repr(a, b) for a, b in zip(values, back)),\n\
         \x20     back[-1][1] is back[-1])\n",
    );
    plan
}
