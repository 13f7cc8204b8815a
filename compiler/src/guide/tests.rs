//! The guide agrees with the checker and the runtime: each test fails when one of them changes
//! and the guide's own tables do not follow.

use super::*;
use crate::diagnostic::Code;

fn guide() -> Guide {
    Guide::new(Vec::new())
}

#[test]
fn every_supported_builtin_has_one_signature_and_no_other_does() {
    let functions: Vec<&str> = policy::SUPPORTED_BUILTINS
        .iter()
        .copied()
        .filter(|name| !baton_runtime::catalog::is_exception_class(name))
        .collect();
    let mut signed: Vec<&str> = tables::BUILTIN_SIGNATURES
        .iter()
        .map(|s| s.split('(').next().unwrap())
        .collect();
    signed.sort_unstable();
    let mut expected = functions.clone();
    expected.sort_unstable();
    assert_eq!(
        signed, expected,
        "tables::BUILTIN_SIGNATURES and policy::SUPPORTED_BUILTINS"
    );
    for forbidden in policy::FORBIDDEN_BUILTINS {
        assert!(!signed.contains(&forbidden.0));
    }
}

#[test]
fn the_sdk_the_stub_and_the_checker_agree() {
    let all = SDK_STUB
        .split_once("__all__ = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .expect("the stub has __all__");
    let exported: Vec<&str> = all
        .split(',')
        .map(|name| name.trim().trim_matches('"'))
        .filter(|name| !name.is_empty())
        .collect();
    let sdk = policy::module("baton").unwrap().members;
    let mut sorted_exported = exported.clone();
    sorted_exported.sort_unstable();
    let mut sorted_sdk = sdk.to_vec();
    sorted_sdk.sort_unstable();
    assert_eq!(
        sorted_exported, sorted_sdk,
        "the stub's __all__ and policy::BATON_SDK"
    );
    let guide = guide();
    for name in sdk {
        let documented = guide.sdk.iter().any(|call| call.name == *name)
            || guide.records.iter().any(|record| record.name == *name)
            || guide.exceptions.iter().any(|e| e.name == *name)
            || *name == "inputs";
        assert!(documented, "`{name}` is in the SDK but not in the guide");
        // And a plan may import it.
        let plan = format!("from baton import {name}\nprint({name})\n");
        let report = crate::check_source("plan.py", &plan);
        assert!(
            report.is_accepted(),
            "the checker refuses `from baton import {name}`: {:?}",
            report.diagnostics
        );
    }
}

#[test]
fn every_library_member_and_record_is_documented() {
    let guide = guide();
    let library = policy::module("baton.ttc").unwrap().members;
    assert_eq!(guide.library.len(), library.len(), "{:?}", guide.library);
    for call in &guide.library {
        assert!(!call.doc.is_empty(), "{} has no docstring", call.name);
    }
    assert_eq!(guide.records.len(), 2);
    for record in &guide.records {
        assert!(record.fields.len() > 5, "{record:?}");
    }
    assert!(guide
        .sdk
        .iter()
        .any(|call| call.signature.starts_with("bash(command: str, *, timeout")));
}

#[test]
fn methods_come_from_the_runtime_tables() {
    let guide = guide();
    for (type_name, methods) in &guide.methods {
        assert!(!methods.is_empty(), "{type_name} has no methods");
    }
    let str_methods = &guide.methods[0].1;
    assert!(str_methods.contains(&"splitlines".to_string()));
}

#[test]
fn every_idiom_passes_the_check() {
    for (title, code) in tables::IDIOMS {
        let report = crate::check_source("idiom.py", code);
        assert!(
            report.diagnostics.is_empty(),
            "the idiom {title:?} is not accepted as it is: {:?}",
            report.diagnostics
        );
    }
}

#[test]
fn refused_syntax_is_refused_with_its_code() {
    let samples: &[(Code, &str)] = &[
        (Code::ClassDefinition, "class A:\n    pass\n"),
        (Code::AsyncSyntax, "async def f():\n    pass\n"),
        (Code::Generator, "def f():\n    yield 1\n"),
        (
            Code::WithStatement,
            "def f(x):\n    with x:\n        pass\n",
        ),
        (
            Code::Decorator,
            "def d(f):\n    return f\n@d\ndef g():\n    pass\n",
        ),
        (
            Code::MatchStatement,
            "match 1:\n    case 1:\n        pass\n",
        ),
        (
            Code::ExceptStar,
            "try:\n    pass\nexcept* ValueError:\n    pass\n",
        ),
        (Code::UnsupportedLiteral, "x = b'a'\n"),
        (Code::NewerSyntax, "type X = int\n"),
        (Code::ForbiddenImport, "import os\n"),
        (Code::DunderName, "print(__name__)\n"),
        (Code::PrivateAttribute, "x = []\nx._y\n"),
    ];
    for (code, _, _) in tables::REFUSED_SYNTAX {
        let (_, plan) = samples
            .iter()
            .find(|(c, _)| c == code)
            .unwrap_or_else(|| panic!("no sample plan for {code:?}"));
        let report = crate::check_source("plan.py", plan);
        assert!(
            report.diagnostics.iter().any(|d| d.code == *code),
            "{plan:?} is not refused with {code:?}: {:?}",
            report.diagnostics
        );
    }
}

#[test]
fn the_compact_guide_fits_a_prompt() {
    let compact = guide().compact();
    let tokens = approximate_tokens(&compact);
    assert!(
        tokens < 3000,
        "the compact guide is about {tokens} tokens ({} characters)",
        compact.len()
    );
    for name in ["bash(", "llm(", "branch(", "parallel(", "log(", "labels"] {
        assert!(compact.contains(name), "the compact guide lacks {name}");
    }
}
