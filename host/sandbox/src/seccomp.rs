//! The seccomp filters installed just before `exec bash`.
//!
//! Denied calls fail with `EPERM` rather than killing the process, so a program probing for a
//! feature (a socket family, io_uring) degrades the way it would on a locked-down host. Two
//! filters are stacked because seccompiler gives one filter a single match action:
//! - the deny list (EPERM), compiled by seccompiler, which also kills any other syscall ABI (on
//!   x86_64 that stops the i386 `int 0x80` entry from skipping the list);
//! - a small hand-written prelude that rejects x32 syscall numbers (the same arch value with bit
//!   30 set, which a number-based deny list would not recognise) and answers `clone3` and
//!   `openat2` with `ENOSYS`: their flags (and `openat2`'s mode) sit behind a pointer the filter
//!   cannot read, and ENOSYS makes libc fall back to `clone` and `openat`, whose arguments the
//!   deny list does inspect.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// `open_tree_attr` (Linux 6.15) has the same number on every architecture and is not in every
/// libc release yet.
const SYS_OPEN_TREE_ATTR: i64 = 467;

/// `fchmodat2` (Linux 6.6) has the same number on every architecture and is not in every libc
/// release yet.
const SYS_FCHMODAT2: i64 = 452;

/// Syscalls denied outright.
fn denied_syscalls() -> Vec<i64> {
    let mut list = vec![
        // Debugging and reading other processes' memory.
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_pidfd_getfd,
        libc::SYS_kcmp,
        // Changing the filesystem view or namespaces.
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_move_mount,
        libc::SYS_open_tree,
        SYS_OPEN_TREE_ATTR,
        libc::SYS_mount_setattr,
        libc::SYS_name_to_handle_at,
        libc::SYS_open_by_handle_at,
        // Kernel keyrings are not namespaced.
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        // Large kernel attack surface, not needed to run programs.
        libc::SYS_bpf,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_acct,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_reboot,
        libc::SYS_syslog,
        libc::SYS_quotactl,
        libc::SYS_vhangup,
    ];
    #[cfg(target_arch = "x86_64")]
    list.extend([libc::SYS_iopl, libc::SYS_ioperm, libc::SYS_uselib]);
    list
}

/// Namespace-creating `clone` flags: `unshare` is denied, so `clone` must not do the same.
const CLONE_NAMESPACE_FLAGS: [u64; 8] = [
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWCGROUP as u64,
    0x80, // CLONE_NEWTIME, missing from some libc releases
];

/// Why a filter could not be built.
#[derive(Debug, thiserror::Error)]
pub enum FilterError {
    /// This CPU architecture has no filter.
    #[error("no seccomp filter for architecture {0}")]
    UnsupportedArch(&'static str),
    /// seccompiler refused the rules.
    #[error("seccompiler: {0}")]
    Compile(#[from] seccompiler::Error),
    /// seccompiler refused the rules (backend).
    #[error("seccompiler: {0}")]
    Backend(#[from] seccompiler::BackendError),
}

fn target_arch() -> Result<TargetArch, FilterError> {
    TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|_| FilterError::UnsupportedArch(std::env::consts::ARCH))
}

fn rule(conditions: Vec<SeccompCondition>) -> Result<SeccompRule, FilterError> {
    Ok(SeccompRule::new(conditions)?)
}

fn cond(
    arg: u8,
    len: SeccompCmpArgLen,
    op: SeccompCmpOp,
    value: u64,
) -> Result<SeccompCondition, FilterError> {
    Ok(SeccompCondition::new(arg, len, op, value)?)
}

/// Builds the deny-list filter (EPERM on match, allow otherwise).
pub fn deny_filter() -> Result<BpfProgram, FilterError> {
    use SeccompCmpArgLen::{Dword, Qword};
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    for nr in denied_syscalls() {
        rules.insert(nr, Vec::new());
    }
    // Only local (AF_UNIX) sockets: every other family reaches a network stack.
    let not_unix = || -> Result<Vec<SeccompRule>, FilterError> {
        Ok(vec![rule(vec![cond(
            0,
            Dword,
            SeccompCmpOp::Ne,
            libc::AF_UNIX as u64,
        )?])?])
    };
    rules.insert(libc::SYS_socket, not_unix()?);
    rules.insert(libc::SYS_socketpair, not_unix()?);
    // TIOCSTI pushes bytes into a terminal's input queue; TIOCLINUX can do the same on a VT.
    rules.insert(
        libc::SYS_ioctl,
        vec![
            rule(vec![cond(1, Dword, SeccompCmpOp::Eq, libc::TIOCSTI)?])?,
            rule(vec![cond(1, Dword, SeccompCmpOp::Eq, libc::TIOCLINUX)?])?,
        ],
    );
    // No setuid or setgid file may be made: whatever the sandbox's uid maps to, such a file
    // left in a workspace (or written back) is a privilege-raising binary on the host. The
    // mode argument of every call that sets a file's mode is inspected; device nodes and
    // fifos (`mknod`) are refused outright, so no special file reaches the host either.
    let special_bits = |mode_arg: u8| -> Result<Vec<SeccompRule>, FilterError> {
        [libc::S_ISUID, libc::S_ISGID]
            .iter()
            .map(|&bit| {
                rule(vec![cond(
                    mode_arg,
                    Dword,
                    SeccompCmpOp::MaskedEq(u64::from(bit)),
                    u64::from(bit),
                )?])
            })
            .collect()
    };
    #[cfg(target_arch = "x86_64")]
    {
        rules.insert(libc::SYS_chmod, special_bits(1)?);
        rules.insert(libc::SYS_creat, special_bits(1)?);
        rules.insert(libc::SYS_open, special_bits(2)?);
        rules.insert(libc::SYS_mknod, Vec::new());
    }
    rules.insert(libc::SYS_fchmod, special_bits(1)?);
    rules.insert(libc::SYS_fchmodat, special_bits(2)?);
    rules.insert(SYS_FCHMODAT2, special_bits(2)?);
    rules.insert(libc::SYS_openat, special_bits(3)?);
    rules.insert(libc::SYS_mknodat, Vec::new());
    let clone_rules = CLONE_NAMESPACE_FLAGS
        .iter()
        .map(|&flag| rule(vec![cond(0, Qword, SeccompCmpOp::MaskedEq(flag), flag)?]))
        .collect::<Result<Vec<_>, _>>()?;
    rules.insert(libc::SYS_clone, clone_rules);

    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        target_arch()?,
    )?;
    Ok(filter.try_into()?)
}

/// Builds the prelude filter: x32 numbers get EPERM, `clone3` and `openat2` get ENOSYS.
pub fn prelude_filter() -> Result<BpfProgram, FilterError> {
    use seccompiler::sock_filter;
    // Opcodes spelled as values (clippy rejects the zero terms of the usual OR-ed form).
    const LD_W_ABS: u16 = 0x20; // BPF_LD (0x00) | BPF_W (0x00) | BPF_ABS (0x20)
    const JEQ_K: u16 = 0x15; // BPF_JMP (0x05) | BPF_JEQ (0x10) | BPF_K (0x00)
    const JGE_K: u16 = 0x35; // BPF_JMP (0x05) | BPF_JGE (0x30) | BPF_K (0x00)
    const RET_K: u16 = 0x06; // BPF_RET (0x06) | BPF_K (0x00)
    const NR_OFFSET: u32 = 0;
    const ARCH_OFFSET: u32 = 4;
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    let stmt = |code, k| sock_filter {
        code,
        jt: 0,
        jf: 0,
        k,
    };
    let jump = |code, k, jt, jf| sock_filter { code, jt, jf, k };
    let audit_arch: u32 = match target_arch()? {
        TargetArch::x86_64 => 0xC000_003E,
        TargetArch::aarch64 => 0xC000_00B7,
        TargetArch::riscv64 => 0xC000_00F3,
    };
    let errno = |e: i32| libc::SECCOMP_RET_ERRNO | (e as u32 & libc::SECCOMP_RET_DATA);
    Ok(vec![
        stmt(LD_W_ABS, ARCH_OFFSET),
        // Another ABI is the deny filter's business (it kills).
        jump(JEQ_K, audit_arch, 1, 0),
        stmt(RET_K, libc::SECCOMP_RET_ALLOW),
        stmt(LD_W_ABS, NR_OFFSET),
        jump(JGE_K, X32_SYSCALL_BIT, 0, 1),
        stmt(RET_K, errno(libc::EPERM)),
        jump(JEQ_K, libc::SYS_clone3 as u32, 0, 1),
        stmt(RET_K, errno(libc::ENOSYS)),
        jump(JEQ_K, libc::SYS_openat2 as u32, 0, 1),
        stmt(RET_K, errno(libc::ENOSYS)),
        stmt(RET_K, libc::SECCOMP_RET_ALLOW),
    ])
}

/// Both filters, in installation order.
pub fn filters() -> Result<[BpfProgram; 2], FilterError> {
    Ok([deny_filter()?, prelude_filter()?])
}

/// Installs the filters on the calling thread. `PR_SET_NO_NEW_PRIVS` must already be set.
pub fn install(filters: &[BpfProgram; 2]) -> Result<(), seccompiler::Error> {
    for filter in filters {
        seccompiler::apply_filter(filter)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_build_and_fit() {
        let [deny, prelude] = filters().unwrap();
        // BPF programs are limited to 4096 instructions.
        assert!(deny.len() < 4096 && deny.len() > denied_syscalls().len());
        assert_eq!(prelude.len(), 11);
        // Every denied syscall number appears as a comparison constant in the program.
        for nr in denied_syscalls() {
            assert!(
                deny.iter().any(|insn| insn.k == nr as u32),
                "syscall {nr} missing from the filter"
            );
        }
    }

    /// Runs `probe` in a forked child with the filters installed and returns its exit code.
    /// The filters are built before forking: the test process is multi-threaded, so the child
    /// only makes raw syscalls.
    fn in_filtered_child(probe: fn() -> i32) -> i32 {
        let filters = filters().unwrap();
        // SAFETY: the child only calls async-signal-safe functions (prctl, seccomp via
        // syscall, the probe's raw syscalls) and leaves with _exit.
        unsafe {
            let pid = libc::fork();
            assert!(pid >= 0, "fork failed");
            if pid == 0 {
                if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                    libc::_exit(200);
                }
                for f in &filters {
                    let prog = libc::sock_fprog {
                        len: f.len() as u16,
                        filter: f.as_ptr() as *mut libc::sock_filter,
                    };
                    if libc::syscall(libc::SYS_seccomp, 1, 0, &prog as *const _) != 0 {
                        libc::_exit(201);
                    }
                }
                libc::_exit(probe());
            }
            let mut status = 0;
            assert_eq!(libc::waitpid(pid, &mut status, 0), pid);
            assert!(libc::WIFEXITED(status), "child died: {status:#x}");
            libc::WEXITSTATUS(status)
        }
    }

    fn errno() -> i32 {
        std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
    }

    /// A call's return value with the errno it left, read at once: every later call may
    /// overwrite errno, so it must not be read only when the results are checked.
    fn call(ret: libc::c_long) -> (libc::c_long, i32) {
        (ret, errno())
    }

    /// Returns 0 when the call failed with `expected`, otherwise 1.
    fn failed_with((ret, err): (libc::c_long, i32), expected: i32) -> i32 {
        i32::from(!(ret == -1 && err == expected))
    }

    #[test]
    fn inet_sockets_are_denied_unix_allowed() {
        let code = in_filtered_child(|| unsafe {
            let inet = call(libc::syscall(
                libc::SYS_socket,
                libc::AF_INET,
                libc::SOCK_STREAM,
                0,
            ));
            let inet6 = call(libc::syscall(
                libc::SYS_socket,
                libc::AF_INET6,
                libc::SOCK_DGRAM,
                0,
            ));
            let netlink = call(libc::syscall(
                libc::SYS_socket,
                libc::AF_NETLINK,
                libc::SOCK_RAW,
                0,
            ));
            let pair = call(libc::syscall(
                libc::SYS_socketpair,
                libc::AF_INET,
                libc::SOCK_STREAM,
                0,
                0,
            ));
            let unix = libc::syscall(libc::SYS_socket, libc::AF_UNIX, libc::SOCK_STREAM, 0);
            failed_with(inet, libc::EPERM)
                | failed_with(inet6, libc::EPERM) << 1
                | failed_with(netlink, libc::EPERM) << 2
                | failed_with(pair, libc::EPERM) << 3
                | i32::from(unix < 0) << 4
        });
        assert_eq!(code, 0, "bitmask of failed checks");
    }

    #[test]
    fn setuid_setgid_and_special_files_cannot_be_made() {
        let code = in_filtered_child(|| unsafe {
            let fd = libc::syscall(libc::SYS_memfd_create, c"probe".as_ptr(), 0) as libc::c_int;
            let plain = libc::syscall(libc::SYS_fchmod, fd, 0o755);
            let setuid = call(libc::syscall(libc::SYS_fchmod, fd, 0o4755));
            let setgid = call(libc::syscall(libc::SYS_fchmod, fd, 0o2755));
            let at = call(libc::syscall(
                libc::SYS_fchmodat,
                libc::AT_FDCWD,
                c"/nonexistent/x".as_ptr(),
                0o4755,
            ));
            // Without the filter this would be ENOENT: the filter answers first.
            let create = call(libc::syscall(
                libc::SYS_openat,
                libc::AT_FDCWD,
                c"/nonexistent/x".as_ptr(),
                libc::O_CREAT | libc::O_WRONLY,
                0o4755,
            ));
            let fifo = call(libc::syscall(
                libc::SYS_mknodat,
                libc::AT_FDCWD,
                c"/nonexistent/fifo".as_ptr(),
                libc::S_IFIFO | 0o644,
                0,
            ));
            let openat2 = call(libc::syscall(
                libc::SYS_openat2,
                libc::AT_FDCWD,
                c"/".as_ptr(),
                0,
                0,
            ));
            i32::from(fd < 0 || plain != 0)
                | failed_with(setuid, libc::EPERM) << 1
                | failed_with(setgid, libc::EPERM) << 2
                | failed_with(at, libc::EPERM) << 3
                | failed_with(create, libc::EPERM) << 4
                | failed_with(fifo, libc::EPERM) << 5
                | failed_with(openat2, libc::ENOSYS) << 6
        });
        assert_eq!(code, 0, "bitmask of failed checks");
    }

    #[test]
    fn namespace_and_mount_calls_are_denied() {
        let code = in_filtered_child(|| unsafe {
            let unshare = call(libc::syscall(libc::SYS_unshare, libc::CLONE_NEWUSER));
            let mount = call(libc::syscall(
                libc::SYS_mount,
                c"none".as_ptr(),
                c"/".as_ptr(),
                0,
                0,
                0,
            ));
            let setns = call(libc::syscall(libc::SYS_setns, 0, 0));
            let ptrace = call(libc::syscall(
                libc::SYS_ptrace,
                libc::PTRACE_TRACEME,
                0,
                0,
                0,
            ));
            let uring = call(libc::syscall(libc::SYS_io_uring_setup, 1, 0));
            let clone3 = call(libc::syscall(libc::SYS_clone3, 0, 0));
            let clone_ns = call(libc::syscall(
                libc::SYS_clone,
                libc::CLONE_NEWNET | libc::SIGCHLD,
                0,
                0,
                0,
                0,
            ));
            let tiocsti = call(libc::syscall(
                libc::SYS_ioctl,
                0,
                libc::TIOCSTI,
                c"x".as_ptr(),
            ));
            failed_with(unshare, libc::EPERM)
                | failed_with(mount, libc::EPERM) << 1
                | failed_with(setns, libc::EPERM) << 2
                | failed_with(ptrace, libc::EPERM) << 3
                | failed_with(uring, libc::EPERM) << 4
                | failed_with(clone3, libc::ENOSYS) << 5
                | failed_with(clone_ns, libc::EPERM) << 6
                | failed_with(tiocsti, libc::EPERM) << 7
        });
        assert_eq!(code, 0, "bitmask of failed checks");
    }

    #[test]
    fn ordinary_calls_still_work() {
        let code = in_filtered_child(|| unsafe {
            let pid = libc::syscall(libc::SYS_getpid);
            // A plain fork through clone (no namespace flags) must succeed.
            let child = libc::syscall(libc::SYS_clone, libc::SIGCHLD, 0, 0, 0, 0);
            if child == 0 {
                libc::_exit(0);
            }
            let mut status = 0;
            let waited = libc::waitpid(child as i32, &mut status, 0);
            i32::from(pid <= 0) | i32::from(child <= 0 || waited != child as i32) << 1
        });
        assert_eq!(code, 0, "bitmask of failed checks");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn x32_syscall_numbers_are_denied() {
        let code = in_filtered_child(|| unsafe {
            // x32 getpid; EPERM from the prelude (or ENOSYS where x32 is compiled out would
            // mean the filter let it through).
            let ret = call(libc::syscall(0x4000_0000 | libc::SYS_getpid));
            failed_with(ret, libc::EPERM)
        });
        assert_eq!(code, 0);
    }
}
