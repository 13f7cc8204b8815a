//! The last layers, applied to the process that becomes `bash`: resource limits, Landlock,
//! dropping capabilities, no-new-privileges and seccomp.

use std::path::PathBuf;

use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, RulesetAttr, RulesetCreatedAttr, RulesetError,
    RulesetStatus, Scope, ABI,
};

use super::mounts::WORKSPACE;
use super::sys::{self, StepError, StepResult};
use crate::protocol::{LayerState, Spec};

pub fn rlimits(spec: &Spec) -> StepResult {
    // The hard CPU limit sits one second above the soft one: SIGXCPU first, SIGKILL after.
    let cpu = spec.cpu_seconds.max(1);
    sys::setrlimit(libc::RLIMIT_CPU, cpu, cpu.saturating_add(1), "RLIMIT_CPU")?;
    sys::setrlimit(
        libc::RLIMIT_FSIZE,
        spec.file_size_bytes,
        spec.file_size_bytes,
        "RLIMIT_FSIZE",
    )?;
    let files = spec.open_files.max(16);
    sys::setrlimit(libc::RLIMIT_NOFILE, files, files, "RLIMIT_NOFILE")?;
    sys::setrlimit(libc::RLIMIT_CORE, 0, 0, "RLIMIT_CORE")?;
    // Counts per real user and root ignores it; cgroups carry the real process limit.
    let procs = spec.max_processes.max(1);
    sys::setrlimit(libc::RLIMIT_NPROC, procs, procs, "RLIMIT_NPROC")
}

/// The Landlock ABI whose rights were reviewed for this ruleset; newer kernels enforce it as is.
const LANDLOCK_ABI: ABI = ABI::V6;

/// Restricts the filesystem to the visible tree, TCP to nothing, and signals and abstract unix
/// sockets to this domain. Returns the layer state; an error means Landlock exists but refused
/// the ruleset, which fails the run.
pub fn landlock(read_only: &[PathBuf]) -> Result<LayerState, RulesetError> {
    let abi = LANDLOCK_ABI;
    let dev_access = AccessFs::ReadFile
        | AccessFs::WriteFile
        | AccessFs::ReadDir
        | AccessFs::Truncate
        | AccessFs::IoctlDev;
    let status = landlock::Ruleset::default()
        .handle_access(AccessFs::from_all(abi))?
        .handle_access(AccessNet::from_all(abi))?
        .scope(Scope::from_all(abi))?
        .create()?
        .add_rules(path_beneath_rules(read_only, AccessFs::from_read(abi)))?
        .add_rules(path_beneath_rules(
            [WORKSPACE, "/tmp"],
            AccessFs::from_all(abi),
        ))?
        .add_rules(path_beneath_rules(["/dev"], dev_access))?
        .add_rules(path_beneath_rules(
            ["/proc"],
            AccessFs::ReadFile | AccessFs::ReadDir,
        ))?
        .add_rules(path_beneath_rules(["/"], AccessFs::ReadDir))?
        .restrict_self()?;
    Ok(match status.ruleset {
        RulesetStatus::FullyEnforced => {
            LayerState::Active(format!("fully enforced ({abi:?} rules)"))
        }
        RulesetStatus::PartiallyEnforced => LayerState::Active(format!(
            "partially enforced: the kernel lacks some {abi:?} rights"
        )),
        RulesetStatus::NotEnforced => {
            LayerState::Unavailable("the kernel has no Landlock (or it is disabled)".into())
        }
    })
}

/// `struct __user_cap_header_struct` / `__user_cap_data_struct`, version 3.
#[repr(C)]
struct CapHeader {
    version: u32,
    pid: i32,
}
#[repr(C)]
#[derive(Clone, Copy)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}
const LINUX_CAPABILITY_VERSION_3: u32 = 0x2008_0522;
const SECBIT_NOROOT: u64 = 1 << 0;
const SECBIT_NOROOT_LOCKED: u64 = 1 << 1;
const SECBIT_NO_SETUID_FIXUP: u64 = 1 << 2;
const SECBIT_NO_SETUID_FIXUP_LOCKED: u64 = 1 << 3;
const SECBIT_KEEP_CAPS_LOCKED: u64 = 1 << 5;
const SECBIT_NO_CAP_AMBIENT_RAISE: u64 = 1 << 6;
const SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED: u64 = 1 << 7;

/// The command runs as uid 0 of its user namespace; this takes away every capability it would
/// have there, for good: root gains nothing at exec, the bounding set is empty.
pub fn drop_capabilities() -> StepResult {
    let bits = SECBIT_NOROOT
        | SECBIT_NOROOT_LOCKED
        | SECBIT_NO_SETUID_FIXUP
        | SECBIT_NO_SETUID_FIXUP_LOCKED
        | SECBIT_KEEP_CAPS_LOCKED
        | SECBIT_NO_CAP_AMBIENT_RAISE
        | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
    sys::prctl(
        libc::PR_SET_SECUREBITS,
        bits as libc::c_ulong,
        "PR_SET_SECUREBITS",
    )?;
    for cap in 0..64 {
        // SAFETY: integer-only prctl.
        let ret = unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap as libc::c_ulong, 0, 0, 0) };
        if ret < 0 {
            // EINVAL marks the end of the capabilities this kernel knows.
            if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL) {
                break;
            }
            return Err(StepError::errno(format!("PR_CAPBSET_DROP {cap}")));
        }
    }
    // SAFETY: integer-only prctl.
    let ret = unsafe {
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong,
            0,
            0,
            0,
        )
    };
    sys::check(ret, || "PR_CAP_AMBIENT_CLEAR_ALL".into())?;
    let header = CapHeader {
        version: LINUX_CAPABILITY_VERSION_3,
        pid: 0,
    };
    let data = [CapData {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    }; 2];
    // SAFETY: header and a two-element data array as capset(2) requires for version 3.
    let ret =
        unsafe { libc::syscall(libc::SYS_capset, &header as *const CapHeader, data.as_ptr()) };
    sys::check(ret as libc::c_int, || "capset".into())
}
