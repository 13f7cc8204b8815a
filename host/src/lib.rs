//! The wasmtime embedding: engine configuration, limits, import validation, the host calls
//! (`bash`, `llm`, `branch`, `log`), the OS sandbox, workspaces, budgets and the journal (see
//! DESIGN.md, "Layout"). The host never parses Python.
//!
//! Nothing is here yet: the host issues ("Host capabilities", "Branching", "Journal") bring it.
