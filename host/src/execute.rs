//! One instance from start to end: [`execute`] instantiates the module in a prepared store,
//! calls its entry point (`baton_main`, or `baton_branch_main` for a branch) and reads what it
//! produced ([`RunReport`]: the outcome, the result, the heap's figures); [`with_place`] adds
//! where a limit stopped the plan's own code.

use wasmtime::Store;

use crate::instantiate::Instantiation;

use crate::engine;
use crate::error::{classify, HostError};
use crate::guest_memory::read_str;
use crate::imports::{BRANCH_EXPORT, MAIN_EXPORT, MEMORY_EXPORT};
use crate::limit_kind::LimitKind;
use crate::limits::Limits;
use crate::state::HostState;

/// How a run that was not stopped by an error ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunOutcome {
    /// `baton_main` returned 0.
    Success,
    /// The plan raised an uncaught Python exception.
    Exception {
        /// The exception's class name (`JSONDecodeError` for `json.decoder.JSONDecodeError`).
        class: String,
        /// Its message (`str(e)`; may span lines; empty when it has none).
        message: String,
        /// The text the runtime built, exactly as returned: the frames, then
        /// `module.Class: message\n`; after the tracebacks of its cause or context, as CPython
        /// prints a chain.
        traceback: String,
    },
}

/// What the runtime writes between the tracebacks of an exception chain (runtime/wat/core.strings,
/// `traceback_cause` and `traceback_context`), as CPython does.
const CHAIN_SEPARATORS: [&str; 2] = [
    "\nThe above exception was the direct cause of the following exception:\n\n",
    "\nDuring handling of the above exception, another exception occurred:\n\n",
];

impl RunOutcome {
    /// The outcome of a plan that raised, from the traceback the runtime built (read once,
    /// here): the exception line is the first after the header and the indented frame lines,
    /// so a message that spans lines, even one with a line like a frame's, is read whole. In
    /// a chain (the tracebacks of the exception's cause or context first), the exception is
    /// the last traceback's.
    pub fn exception(traceback: String) -> RunOutcome {
        let last = CHAIN_SEPARATORS
            .iter()
            .filter_map(|separator| traceback.rfind(separator).map(|at| at + separator.len()))
            .max()
            .unwrap_or(0);
        let all: Vec<&str> = traceback[last..].lines().collect();
        let mut lines = all.iter().copied().peekable();
        if lines.peek() == Some(&"Traceback (most recent call last):") {
            lines.next();
            // Frames, their source lines and folded repeats (`  [Previous line repeated N
            // more times]`) are indented; a class name is not.
            while lines.peek().is_some_and(|line| line.starts_with(' ')) {
                lines.next();
            }
        } else {
            // Not the runtime's format (a hand-made module's text): its last line.
            lines = all[all.len().saturating_sub(1)..]
                .iter()
                .copied()
                .peekable();
        }
        let first = lines.next().unwrap_or_default();
        let (qualified, first_message) = first.split_once(": ").unwrap_or((first, ""));
        let class = qualified.rsplit('.').next().unwrap_or(qualified).to_owned();
        let mut message = first_message.to_owned();
        for line in lines {
            message.push('\n');
            message.push_str(line);
        }
        RunOutcome::Exception {
            class,
            message,
            traceback,
        }
    }
}

/// What a finished run produced besides its outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    pub outcome: RunOutcome,
    /// The JSON text of what the plan's `main` returned, when it has one and it returned.
    pub result: Option<String>,
    /// What the runtime's memory manager did (zero for a module without its exports).
    pub heap: HeapFigures,
}

/// The memory manager's figures, read from the module's exports when the run ends
/// (docs/abi.md, "The heap").
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct HeapFigures {
    /// The most heap memory in use at once, in bytes (whole 64 KiB chunks).
    pub peak_bytes: u64,
    /// Collections run.
    pub collections: u64,
    /// Time spent collecting, in seconds.
    pub collect_seconds: f64,
}

impl HeapFigures {
    fn read(instance: wasmtime::Instance, store: &mut Store<HostState>) -> HeapFigures {
        let mut number = |name: &str| match instance
            .get_global(&mut *store, name)
            .map(|global| global.get(&mut *store))
        {
            Some(wasmtime::Val::I32(value)) => u64::from(value as u32),
            Some(wasmtime::Val::I64(value)) => value as u64,
            _ => 0,
        };
        HeapFigures {
            peak_bytes: number("baton_heap_peak"),
            collections: number("baton_gc_collections"),
            collect_seconds: number("baton_gc_nanos") as f64 / 1e9,
        }
    }
}

/// Where an instance starts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Entry {
    /// `baton_main`: the module body.
    Main,
    /// `baton_branch_main(len, index)`: a branch, with its task (`len` bytes) waiting as the
    /// reply.
    Branch { len: i32, index: i32 },
}

/// Instantiates the module and calls its entry point.
pub(crate) async fn execute(
    instantiation: &Instantiation<HostState>,
    limits: &Limits,
    store: &mut Store<HostState>,
    entry: Entry,
) -> Result<RunReport, HostError> {
    let instance = instantiation
        .instantiate(&mut *store)
        .await
        .map_err(|error| classify(error, limits, store.data().growth_refused()))?;
    store.data_mut().instance = Some(instance);
    if let Some(memory) = instance.get_memory(&mut *store, MEMORY_EXPORT) {
        advise_huge_pages(memory.data_ptr(&*store));
    }
    let status = match entry {
        Entry::Main => {
            let main = instance
                .get_typed_func::<(), i32>(&mut *store, MAIN_EXPORT)
                .map_err(|error| {
                    HostError::Engine(format!("cannot find {MAIN_EXPORT}: {error:#}"))
                })?;
            main.call_async(&mut *store, ()).await
        }
        Entry::Branch { len, index } => {
            let main = instance
                .get_typed_func::<(i32, i32), i32>(&mut *store, BRANCH_EXPORT)
                .map_err(|error| {
                    HostError::Engine(format!("cannot find {BRANCH_EXPORT}: {error:#}"))
                })?;
            main.call_async(&mut *store, (len, index)).await
        }
    }
    .map_err(|error| classify(error, limits, store.data().growth_refused()))?;
    let result = store.data_mut().result.take();
    let heap = HeapFigures::read(instance, store);
    if status == 0 {
        return Ok(RunReport {
            outcome: RunOutcome::Success,
            result,
            heap,
        });
    }
    let memory = instance
        .get_memory(&mut *store, MEMORY_EXPORT)
        .ok_or_else(|| HostError::Engine(format!("the module exports no `{MEMORY_EXPORT}`")))?;
    let traceback = read_str(memory.data(&*store), status)
        .map_err(|message| HostError::BadTraceback { message })?;
    Ok(RunReport {
        outcome: RunOutcome::exception(traceback),
        result,
        heap,
    })
}

/// A limit that stopped the plan's own code, with where it stopped: "... at line 7 (in
/// `poll`)", read from the frame stack the runtime keeps (exported as `baton_frames` and
/// `baton_depth`, intact after a trap). Run-wide limits, and modules without the exports, are
/// left as they are.
pub(crate) fn with_place(error: HostError, store: &mut Store<HostState>) -> HostError {
    let HostError::Limit { limit, message } = error else {
        return error;
    };
    let own = matches!(
        limit,
        LimitKind::Cpu | LimitKind::WallClock | LimitKind::Memory | LimitKind::Stack
    );
    let place = if own { stopped_at(store) } else { None };
    HostError::Limit {
        limit,
        message: match place {
            Some(place) => format!("{message} at {place}"),
            None => message,
        },
    }
}

/// Where the innermost plan frame was: its line (and file, when a library module's) and the
/// function's name. Everything read is bounds-checked: the memory is the plan's.
fn stopped_at(store: &mut Store<HostState>) -> Option<String> {
    let instance = store.data().instance?;
    let number = |store: &mut Store<HostState>, name: &str| match instance
        .get_global(&mut *store, name)?
        .get(&mut *store)
    {
        wasmtime::Val::I32(value) => u32::try_from(value).ok(),
        _ => None,
    };
    let frames = number(store, "baton_frames")?;
    let depth = number(store, "baton_depth")?;
    if depth == 0 {
        return None;
    }
    let memory = instance.get_memory(&mut *store, MEMORY_EXPORT)?;
    let data = memory.data(&*store);
    let slot = usize::try_from(u64::from(frames) + 8 * u64::from(depth)).ok()?;
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
    };
    let (name, line) = (word(slot)?, word(slot + 4)?);
    let function = read_str(data, name as i32).ok()?;
    let (file, line) = (line >> 24, line & 0x00ff_ffff);
    let file = if file == 0 {
        String::new()
    } else {
        " of a baton library module".to_string()
    };
    // A function's name is a Python identifier or `<module>`/`<lambda>`: nothing to escape.
    Some(format!("line {line}{file} (in `{function}`)"))
}

/// Asks Linux to back the linear memory starting at `base` with transparent huge pages where
/// it can (where THP is in `madvise` mode, the common default, nothing else does). A plan's
/// heap grows into fresh memory until its first collections (and again whenever it outgrows
/// what they freed): with 4 KiB pages, page faults were a fifth to a quarter of
/// allocation-heavy runs (`perf` of bench/parse_ls.py, before the collector). The runtime keeps
/// its memory 2 MiB ahead of the heap (runtime/wat/heap.wat, `$heap_grow_to`) so that the pages
/// it touches can be huge ones. Advice only:
/// the memory's size, limit and contents are unchanged, and a failure changes nothing.
#[cfg(target_os = "linux")]
fn advise_huge_pages(base: *mut u8) {
    // The memory's slot in the pool reserves `MAX_MEMORY_BYTES` from its base (engine.rs).
    // SAFETY: MADV_HUGEPAGE changes only the kernel's choice of page size for the range; it
    // neither maps, unmaps nor changes the contents of any page.
    unsafe {
        libc::madvise(base.cast(), engine::MAX_MEMORY_BYTES, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_base: *mut u8) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(traceback: &str) -> (String, String) {
        match RunOutcome::exception(traceback.to_owned()) {
            RunOutcome::Exception { class, message, .. } => (class, message),
            RunOutcome::Success => unreachable!(),
        }
    }

    #[test]
    fn an_exception_s_class_and_message_are_read_from_its_traceback() {
        let frames = "Traceback (most recent call last):\n  File \"p.py\", line 3, in <module>\n";
        assert_eq!(
            fields(&format!("{frames}json.decoder.JSONDecodeError: bad: x\n")),
            ("JSONDecodeError".into(), "bad: x".into())
        );
        assert_eq!(
            fields(&format!("{frames}KeyError\n")),
            ("KeyError".into(), String::new())
        );
        // A message of several lines, one like a frame's, is read whole.
        assert_eq!(
            fields(&format!("{frames}ValueError: one\n  File two\nthree\n")),
            ("ValueError".into(), "one\n  File two\nthree".into())
        );
        // Frames with their source lines and repeated frames folded, and no frames at all.
        assert_eq!(
            fields(&format!(
                "{frames}    x = int('a')\n  [Previous line repeated 996 more times]\nValueError: bad\n"
            )),
            ("ValueError".into(), "bad".into())
        );
        assert_eq!(fields("TypeError: t\n"), ("TypeError".into(), "t".into()));
        assert_eq!(
            fields("Traceback:\n  line 1\nValueError: bad 1\n"),
            ("ValueError".into(), "bad 1".into())
        );
    }

    #[test]
    fn a_chain_s_exception_is_its_last_traceback_s() {
        let frames = "Traceback (most recent call last):\n  File \"p.py\", line 3, in <module>\n";
        for separator in CHAIN_SEPARATORS {
            assert_eq!(
                fields(&format!(
                    "{frames}KeyError: 'first'\n{separator}{frames}ValueError: second\nline\n"
                )),
                ("ValueError".into(), "second\nline".into())
            );
        }
    }
}
