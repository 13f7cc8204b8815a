//! B601-B603: calls of the SDK (`bash`, `llm`, `branch`, `parallel`, `log`) and of the plan
//! library (`baton.ttc`) checked against their signatures before anything runs: keywords the
//! function does not take (B601), too many or missing arguments (B602), and literal arguments
//! of the wrong type (B603).
//!
//! Why: without it `bash(["ls"])` or `bash("make", cwd="src")` fail only when the run reaches
//! them, possibly after paid model calls; a planner gets them back as diagnostics instead.
//!
//! The signatures are read from the SDK stub (`plans/baton/__init__.py`) and the library's
//! source, the same text the plan-language guide quotes, so the check cannot drift from what
//! is documented. Only what is certain is reported: argument types are checked for literals
//! (a str, a number, a list display, a lambda, ...), never for names whose value is unknown,
//! and a call with `*args` or `**kwargs` is only checked for its keywords' names.
//!
//! ```python
//! from baton import bash
//! bash(["ls", "-l"])            # B603: bash() argument 'command' must be str, not list
//! bash("make", cwd="src")       # B601: bash() got an unexpected keyword argument 'cwd'
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use rustpython_parser::ast::{self, Constant, Ranged};

use crate::diagnostic::{Code, Span};
use crate::guide::{stub, LIBRARY, SDK_STUB};

/// The kind of a literal argument, as far as its syntax tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Str,
    Int,
    Float,
    Bool,
    None,
    List,
    Tuple,
    Dict,
    Set,
    Callable,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Str => "str",
            Kind::Int => "int",
            Kind::Float => "float",
            Kind::Bool => "bool",
            Kind::None => "None",
            Kind::List => "list",
            Kind::Tuple => "tuple",
            Kind::Dict => "dict",
            Kind::Set => "set",
            Kind::Callable => "a function",
        }
    }

    fn of(expr: &ast::Expr) -> Option<Kind> {
        use ast::Expr as E;
        Some(match expr {
            E::Constant(c) => match &c.value {
                Constant::Str(_) => Kind::Str,
                Constant::Int(_) => Kind::Int,
                Constant::Float(_) => Kind::Float,
                Constant::Bool(_) => Kind::Bool,
                Constant::None => Kind::None,
                _ => return None,
            },
            E::JoinedStr(_) => Kind::Str,
            E::List(_) | E::ListComp(_) => Kind::List,
            E::Tuple(_) => Kind::Tuple,
            E::Dict(_) | E::DictComp(_) => Kind::Dict,
            E::Set(_) | E::SetComp(_) => Kind::Set,
            E::Lambda(_) => Kind::Callable,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ParamKind {
    Positional,
    KeywordOnly,
    VarArgs,
    VarKeywords,
}

#[derive(Debug, Clone)]
struct Param {
    name: String,
    kind: ParamKind,
    required: bool,
    /// The literal kinds the annotation admits; `None`: anything (or no annotation).
    accepts: Option<Vec<Kind>>,
}

#[derive(Debug, Clone)]
struct Signature {
    params: Vec<Param>,
}

/// The signature of `module.member`, for the modules whose calls are checked.
fn signature(module: &str, member: &str) -> Option<&'static Signature> {
    static SIGNATURES: OnceLock<HashMap<(String, String), Signature>> = OnceLock::new();
    SIGNATURES
        .get_or_init(|| {
            let mut all = HashMap::new();
            for (module, source) in [("baton", SDK_STUB), ("baton.ttc", LIBRARY)] {
                let members = crate::policy::module(module).map_or(&[][..], |m| m.members);
                for member in members {
                    if let Some((text, _)) = stub::function(source, member) {
                        all.insert(
                            (module.to_string(), member.to_string()),
                            parse_signature(&text),
                        );
                    }
                }
            }
            all
        })
        .get(&(module.to_string(), member.to_string()))
}

/// Splits `text` at the commas outside brackets and quotes.
fn split_top_level(text: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, c) if c == separator && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// `name(params) -> result`, as the stub writes it.
fn parse_signature(text: &str) -> Signature {
    let open = text.find('(').map_or(0, |i| i + 1);
    let mut depth = 1;
    let mut close = text.len();
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    close = open + i;
                    break;
                }
            }
            _ => {}
        }
    }
    let mut keyword_only = false;
    let mut params = Vec::new();
    for part in split_top_level(&text[open..close], ',') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        if part == "*" {
            keyword_only = true;
            continue;
        }
        let (head, default) = match split_top_level(part, '=').as_slice() {
            [head, default, ..] => (*head, Some(*default)),
            _ => (part, None),
        };
        let (name, annotation) = match head.split_once(':') {
            Some((name, annotation)) => (name.trim(), Some(annotation.trim())),
            None => (head.trim(), None),
        };
        let (kind, name) = if let Some(name) = name.strip_prefix("**") {
            (ParamKind::VarKeywords, name)
        } else if let Some(name) = name.strip_prefix('*') {
            keyword_only = true;
            (ParamKind::VarArgs, name)
        } else if keyword_only {
            (ParamKind::KeywordOnly, name)
        } else {
            (ParamKind::Positional, name)
        };
        params.push(Param {
            name: name.to_string(),
            kind,
            required: default.is_none()
                && matches!(kind, ParamKind::Positional | ParamKind::KeywordOnly),
            accepts: annotation.and_then(accepted_kinds),
        });
    }
    Signature { params }
}

/// The literal kinds an annotation of the stub admits; `None` for anything.
fn accepted_kinds(annotation: &str) -> Option<Vec<Kind>> {
    let annotation = annotation.trim();
    let inner = |prefix: &str| {
        annotation
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(']'))
    };
    if let Some(inner) = inner("Optional[") {
        let mut kinds = accepted_kinds(inner)?;
        kinds.push(Kind::None);
        return Some(kinds);
    }
    if let Some(inner) = inner("Union[") {
        let mut kinds = Vec::new();
        for part in split_top_level(inner, ',') {
            kinds.extend(accepted_kinds(part)?);
        }
        return Some(kinds);
    }
    if annotation.starts_with("Sequence[") || annotation == "list" {
        return Some(vec![Kind::List, Kind::Tuple]);
    }
    if annotation.starts_with("Callable[") {
        return Some(vec![Kind::Callable]);
    }
    Some(match annotation {
        "str" => vec![Kind::Str],
        "int" => vec![Kind::Int],
        "float" => vec![Kind::Int, Kind::Float],
        "bool" => vec![Kind::Bool],
        "dict" => vec![Kind::Dict],
        _ => return None,
    })
}

/// "str", "str or None", "int, str or None".
fn describe(kinds: &[Kind]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for kind in kinds {
        if !names.contains(&kind.name()) {
            names.push(kind.name());
        }
    }
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// One problem with a call, for the checker to report.
pub struct Problem {
    pub code: Code,
    pub span: Span,
    pub message: String,
    pub help: String,
}

/// The problems of a call of `module.member` (`function` is how the plan names it).
pub fn check(module: &str, member: &str, call: &ast::ExprCall) -> Vec<Problem> {
    let Some(signature) = signature(module, member) else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    let takes = || {
        let names: Vec<String> = signature
            .params
            .iter()
            .map(|p| match p.kind {
                ParamKind::VarArgs => format!("*{}", p.name),
                ParamKind::VarKeywords => format!("**{}", p.name),
                _ => p.name.clone(),
            })
            .collect();
        format!("{member}() takes {}", names.join(", "))
    };
    let starred = call.args.iter().any(|a| matches!(a, ast::Expr::Starred(_)));
    let double_starred = call.keywords.iter().any(|k| k.arg.is_none());
    let accepts_any_keyword = signature
        .params
        .iter()
        .any(|p| p.kind == ParamKind::VarKeywords);
    let positional: Vec<&Param> = signature
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::Positional)
        .collect();
    let var_args = signature
        .params
        .iter()
        .find(|p| p.kind == ParamKind::VarArgs);
    // Which parameter each argument fills.
    let mut given: Vec<(&Param, &ast::Expr)> = Vec::new();
    if !starred {
        for (index, arg) in call.args.iter().enumerate() {
            match positional.get(index) {
                Some(param) => given.push((param, arg)),
                None if var_args.is_some() => {}
                None => {
                    problems.push(Problem {
                        code: Code::SdkArguments,
                        span: arg.range().into(),
                        message: format!(
                            "{member}() takes {} positional argument{} but {} were given",
                            positional.len(),
                            if positional.len() == 1 { "" } else { "s" },
                            call.args.len()
                        ),
                        help: takes(),
                    });
                    break;
                }
            }
        }
    }
    for keyword in &call.keywords {
        let Some(name) = &keyword.arg else { continue };
        let span: Span = keyword.range().into();
        let param = signature.params.iter().find(|p| {
            p.name == name.as_str()
                && matches!(p.kind, ParamKind::Positional | ParamKind::KeywordOnly)
        });
        match param {
            Some(param) if given.iter().any(|(p, _)| p.name == param.name) => {
                problems.push(Problem {
                    code: Code::SdkArguments,
                    span,
                    message: format!("{member}() got multiple values for argument '{name}'"),
                    help: takes(),
                });
            }
            Some(param) => given.push((param, &keyword.value)),
            None if accepts_any_keyword => {}
            None => problems.push(Problem {
                code: Code::SdkUnknownKeyword,
                span,
                message: format!("{member}() got an unexpected keyword argument '{name}'"),
                help: match (member, name.as_str()) {
                    ("bash", "cwd") => "commands run in the workspace; change directory inside the command: bash(\"cd DIR && ...\")".to_string(),
                    ("bash", "env") => "set variables inside the command: bash(\"NAME=value command\")".to_string(),
                    ("bash", "shell" | "check" | "capture_output" | "text") => "bash() always runs the command with bash and captures its output; check `.ok` or `.returncode`".to_string(),
                    _ => takes(),
                },
            }),
        }
    }
    if !starred && !double_starred {
        for param in signature.params.iter().filter(|p| p.required) {
            if !given.iter().any(|(p, _)| p.name == param.name) {
                let what = if param.kind == ParamKind::KeywordOnly {
                    "keyword-only"
                } else {
                    "positional"
                };
                problems.push(Problem {
                    code: Code::SdkArguments,
                    span: call.range().into(),
                    message: format!(
                        "{member}() missing 1 required {what} argument: '{}'",
                        param.name
                    ),
                    help: takes(),
                });
            }
        }
    }
    for (param, value) in given {
        let (Some(accepts), Some(kind)) = (&param.accepts, Kind::of(value)) else {
            continue;
        };
        // bool is a subclass of int.
        let accepted =
            accepts.contains(&kind) || (kind == Kind::Bool && accepts.contains(&Kind::Int));
        if !accepted {
            problems.push(Problem {
                code: Code::SdkArgumentType,
                span: value.range().into(),
                message: format!(
                    "{member}() argument '{}' must be {}, not {}",
                    param.name,
                    describe(accepts),
                    kind.name()
                ),
                help: match (member, param.name.as_str(), kind) {
                    ("bash", "command", Kind::List | Kind::Tuple) => {
                        "bash() takes one shell command line: bash(\"ls -l\"); join and quote the words yourself".to_string()
                    }
                    _ => takes(),
                },
            });
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stub_signatures_parse() {
        let bash = signature("baton", "bash").unwrap();
        let names: Vec<&str> = bash.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["command", "timeout", "input"]);
        assert!(bash.params[0].required);
        assert_eq!(bash.params[1].kind, ParamKind::KeywordOnly);
        assert_eq!(
            bash.params[2].accepts.as_deref(),
            Some(&[Kind::Str, Kind::None][..])
        );
        let log = signature("baton", "log").unwrap();
        assert_eq!(log.params[0].kind, ParamKind::VarArgs);
        let tournament = signature("baton.ttc", "tournament").unwrap();
        let question = tournament
            .params
            .iter()
            .find(|p| p.name == "question")
            .unwrap();
        assert!(question.required && question.kind == ParamKind::KeywordOnly);
        let refine = signature("baton.ttc", "refine").unwrap();
        assert!(refine.params.iter().any(|p| p.name == "max_parallel"));
        assert_eq!(
            describe(&accepted_kinds("Optional[Union[int, str]]").unwrap()),
            "int, str or None"
        );
    }
}
