//! Formatting: f-strings with conversions and format specs, `str.format`, `%`-formatting and
//! `json.dumps` with its options. Some specs are invalid for their type on purpose (CPython
//! raises ValueError, and Baton must raise the same).

use super::{Env, Gen, Ty};

const INT_SPECS: &[&str] = &[
    "", ">5", "<4", "^7", "05", "+", "x", "X", "o", "b", "d", ",", "_", "#x", "*^9", "-", " ",
    "08.2f", "e", "%", "=+6", "#b", "n", "06,", "#o", "+08_d", "g", ".3e",
];
const BAD_INT_SPECS: &[&str] = &["s", ".3", "c", "z", ",c", ",x", "_s", ",.2b", "_n"];
const FLOAT_SPECS: &[&str] = &[
    "", ".2f", ".3e", "g", "10.1f", "%", ".0f", "+.1f", "<8", "^12.4g", ",.2f", "E", ".1%", ".10g",
    "G", "#.0f", "010.3f", "_.1f", ".0e", "n", ".15g", "-^9.2", "z.1f", "#g", ".0%",
];
const BAD_FLOAT_SPECS: &[&str] = &["d", "x", ",d", "s", ",x", "_c", ",.1o"];
const STR_SPECS: &[&str] = &["", ">8", "<4", "^6", ".2", "*<5", "s", "10.3", "-^7", "0>4"];
const BAD_STR_SPECS: &[&str] = &["d", "=5", "+", ",", "#", ",x", "_d", "_s"];

impl Gen {
    fn spec_for(&mut self, ty: Ty) -> &'static str {
        let risky = self.risky();
        let specs = match (ty, risky) {
            (Ty::Int | Ty::Bool, false) => INT_SPECS,
            (Ty::Int | Ty::Bool, true) => BAD_INT_SPECS,
            (Ty::Float, false) => FLOAT_SPECS,
            (Ty::Float, true) => BAD_FLOAT_SPECS,
            (Ty::Str, false) => STR_SPECS,
            (Ty::Str, true) => BAD_STR_SPECS,
            _ => return "",
        };
        let &spec = self.rng.pick(specs);
        spec
    }

    fn formattable(&mut self) -> Ty {
        *self.rng.pick(&[
            Ty::Int,
            Ty::Int,
            Ty::Float,
            Ty::Float,
            Ty::Str,
            Ty::Bool,
            Ty::ListInt,
        ])
    }

    /// An f-string with 1–3 replacement fields.
    pub(super) fn fstring(&mut self, env: &Env, d: u32) -> String {
        let mut text = String::from("f'");
        let fields = self.rng.range(1, 3);
        for i in 0..fields {
            if i > 0 || self.rng.chance(50) {
                let &separator = self.rng.pick(&["", " ", "|", "x=", "-", "é"]);
                text.push_str(separator);
            }
            let ty = self.formattable();
            // Quotes inside a same-quote f-string are not allowed before Python 3.12.
            let raw = self.expr(env, ty, d);
            if raw.contains('"') || raw.contains('\\') {
                return self.literal(Ty::Str);
            }
            let value = raw.replace('\'', "\"");
            let conversion = match self.rng.below(8) {
                0 => "!r",
                1 => "!s",
                _ => "",
            };
            let spec = if conversion.is_empty() {
                self.spec_for(ty)
            } else {
                *self.rng.pick(STR_SPECS)
            };
            text.push('{');
            if value.starts_with('{') {
                // `{{` would be an escaped brace.
                text.push(' ');
            }
            text.push_str(&value);
            if self.rng.chance(8) && conversion.is_empty() && spec.is_empty() {
                text.push('=');
            }
            text.push_str(conversion);
            if !spec.is_empty() {
                text.push(':');
                text.push_str(spec);
            }
            text.push('}');
        }
        if self.rng.chance(20) {
            text.push_str("{{}}");
        }
        text.push('\'');
        text
    }

    /// `'...'.format(...)` with automatic, numbered or named fields.
    pub(super) fn format_call(&mut self, env: &Env, d: u32) -> String {
        let ty_a = self.formattable();
        let ty_b = self.formattable();
        let a = self.expr(env, ty_a, d);
        let b = self.expr(env, ty_b, d);
        let spec_a = self.spec_for(ty_a);
        let spec_b = self.spec_for(ty_b);
        let colon = |s: &str| {
            if s.is_empty() {
                String::new()
            } else {
                format!(":{s}")
            }
        };
        if self.risky() {
            return format!("'{{}} {{}}'.format({a})");
        }
        match self.rng.below(3) {
            0 => format!(
                "'{{{}}} and {{{}}}'.format({a}, {b})",
                colon(spec_a),
                colon(spec_b)
            ),
            1 => format!("'{{1{}}}/{{0}}/{{1}}'.format({a}, {b})", colon(spec_b)),
            _ => format!("'<{{n{}}}> {{}}'.format({b}, n={a})", colon(spec_a)),
        }
    }

    /// `'...' % value` / `% (values)`.
    pub(super) fn percent_format(&mut self, env: &Env, d: u32) -> String {
        let i = self.expr(env, Ty::Int, d);
        let f = self.expr(env, Ty::Float, d);
        let s = self.expr(env, Ty::Str, d);
        match self.rng.below(6) {
            0 => format!("('%d items' % {i})"),
            1 => format!("('%5.2f|%-6d|%s' % ({f}, {i}, {s}))"),
            2 => format!("('%r %x %o' % ({s}, {i}, {i}))"),
            3 => format!("('%e %g %%' % ({f}, {f}))"),
            4 => format!("('%(k)s=%(v)05d' % {{'k': {s}, 'v': {i}}})"),
            _ => format!("('%s' % ({s},))"),
        }
    }

    /// `json.dumps` of a JSON-able value with random options.
    pub(super) fn json_dumps(&mut self, env: &Env, d: u32) -> String {
        let ty = *self.rng.pick(&[
            Ty::Int,
            Ty::Float,
            Ty::Str,
            Ty::Bool,
            Ty::None,
            Ty::ListInt,
            Ty::ListStr,
            Ty::Dict,
            Ty::Tuple,
            Ty::Set,
        ]);
        let value = if self.rng.chance(30) {
            let a = self.expr(env, Ty::Dict, d);
            let b = self.expr(env, Ty::ListStr, d);
            format!("{{'d': {a}, 'l': {b}, 'n': None, 'f': 1.5}}")
        } else {
            self.expr(env, ty, d)
        };
        let mut options = Vec::new();
        if self.rng.chance(40) {
            options.push(format!("sort_keys={}", self.rng.pick(&["True", "False"])));
        }
        if self.rng.chance(40) {
            options.push(format!(
                "indent={}",
                self.rng.pick(&["2", "0", "None", "4", "'\\t'"])
            ));
        }
        if self.rng.chance(25) {
            options.push(
                self.rng
                    .pick(&["separators=(',', ':')", "separators=('; ', '= ')"])
                    .to_string(),
            );
        }
        if self.rng.chance(20) {
            options.push(format!(
                "ensure_ascii={}",
                self.rng.pick(&["True", "False"])
            ));
        }
        if options.is_empty() {
            format!("json.dumps({value})")
        } else {
            format!("json.dumps({value}, {})", options.join(", "))
        }
    }
}
