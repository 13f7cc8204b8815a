//! Baton's differential tester: random plans run under Baton (in-process) and CPython 3.11,
//! compared on stdout, exit status and the final exception line; mismatches are reduced to
//! small reproducers.
//!
//! - [`gen`]: the plan generator (a pure function of seed and index);
//! - [`oracle`]: a persistent CPython worker that runs plans one after another, each in a
//!   fresh namespace;
//! - [`baton`]: compile and run a plan in-process under limits;
//! - [`outcome`]: what a run produced, and the comparison that classifies a difference;
//! - [`reduce`]: shrinks a mismatching plan while it keeps mismatching the same way;
//! - [`driver`]: the loop over many plans on several threads, and the report;
//! - [`corpus`]: CPython's own table of regular expressions through `re`, under both;
//! - [`mutate`]: the mutation fuzzer: real programs with a slip in them, checked for crashes and
//!   for programs CPython refuses that Baton runs.

pub mod baton;
pub mod corpus;
pub mod driver;
pub mod gen;
pub mod mutate;
pub mod oracle;
pub mod outcome;
pub mod reduce;
pub mod rng;
