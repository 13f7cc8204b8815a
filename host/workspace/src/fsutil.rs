//! Small capability-based filesystem helpers. Every path handled here is relative to an open
//! directory and is walked one component at a time without following symlinks, so nothing a
//! plan plants in a workspace can redirect the host elsewhere.

use std::ffi::OsStr;
use std::io::{self, Read};
use std::os::fd::AsFd;
use std::path::{Component, Path, PathBuf};

use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt};
use cap_std::fs::{Dir, File, MetadataExt, OpenOptions, OpenOptionsExt};
use rustix::fs::{Mode, OFlags, Timespec, Timestamps};

/// Permission bits that are copied and compared. setuid, setgid and sticky bits are dropped:
/// a plan must not be able to hand the user a setuid file through write-back.
pub(crate) const PERM_MASK: u32 = 0o777;

fn invalid(msg: &'static str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

/// Opens `rel` below `root`, refusing any component that is a symlink or not a plain name.
pub(crate) fn open_dir_nofollow(root: &Dir, rel: &Path) -> io::Result<Dir> {
    let mut cur = root.try_clone()?;
    for c in rel.components() {
        match c {
            Component::Normal(name) => cur = cur.open_dir_nofollow(name)?,
            _ => return Err(invalid("path component is not a plain name")),
        }
    }
    Ok(cur)
}

/// One open directory that moves through a tree in walk order: to a child by name, back up
/// through `..`. A depth-first walk then costs one open per step (linear), where opening every
/// directory from the root costs its depth (quadratic for a chain, which a plan can make), and
/// holds one descriptor whatever the depth. Climbing is checked: each ancestor's device and
/// inode are remembered, and a `..` that is not the remembered directory (the tree was moved
/// under the walk) falls back to reopening from the root one component at a time, never
/// following a symlink.
pub(crate) struct DirCursor {
    rel: PathBuf,
    dir: Dir,
    /// (device, inode) of the root and of every directory on `rel`, outermost first.
    ids: Vec<(u64, u64)>,
}

fn dir_id(dir: &Dir) -> io::Result<(u64, u64)> {
    let meta = dir.dir_metadata()?;
    Ok((meta.dev(), meta.ino()))
}

impl DirCursor {
    pub(crate) fn new(root: &Dir) -> io::Result<DirCursor> {
        let dir = root.try_clone()?;
        let ids = vec![dir_id(&dir)?];
        Ok(DirCursor {
            rel: PathBuf::new(),
            dir,
            ids,
        })
    }

    /// The directory at `target` (relative to the root), moving there from where the cursor is.
    pub(crate) fn open(&mut self, root: &Dir, target: &Path) -> io::Result<&Dir> {
        let common = common_components(&self.rel, target);
        while self.ids.len() - 1 > common {
            let up = rustix::fs::openat(
                &self.dir,
                "..",
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map(|fd| Dir::from_std_file(std::fs::File::from(fd)));
            self.ids.pop();
            self.rel.pop();
            match up {
                Ok(up) if dir_id(&up).ok() == self.ids.last().copied() => self.dir = up,
                // Moved under us: start again from the root, by name.
                _ => return self.reopen(root, target),
            }
        }
        // Only the part below the shared prefix is parsed (not the whole path each time).
        let below = target
            .as_os_str()
            .as_encoded_bytes()
            .split(|&c| c == b'/')
            .skip(common)
            .filter(|name| !name.is_empty())
            .map(|name| Path::new(<OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(name)));
        for component in below.flat_map(|name| name.components()) {
            let Component::Normal(name) = component else {
                return Err(invalid("path component is not a plain name"));
            };
            self.dir = self.dir.open_dir_nofollow(name)?;
            self.ids.push(dir_id(&self.dir)?);
            self.rel.push(name);
        }
        Ok(&self.dir)
    }

    fn reopen(&mut self, root: &Dir, target: &Path) -> io::Result<&Dir> {
        *self = DirCursor::new(root)?;
        self.open(root, target)
    }
}

/// How many leading components two relative paths (plain names joined by `/`) share, by
/// comparing bytes: the walks call this for every entry, and parsing components of a
/// 6,000-level path each time would make them quadratic again.
fn common_components(a: &Path, b: &Path) -> usize {
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let boundary = |bytes: &[u8], at: usize| at == bytes.len() || bytes[at] == b'/';
    // The shared bytes end inside a component unless both paths end or separate there.
    let end = if boundary(a, same) && boundary(b, same) {
        same
    } else {
        a[..same].iter().rposition(|&c| c == b'/').unwrap_or(0)
    };
    if end == 0 {
        return 0;
    }
    a[..end].iter().filter(|&&c| c == b'/').count() + 1
}

/// Splits a relative path into its parent directory and final name.
pub(crate) fn split(rel: &Path) -> io::Result<(&Path, &OsStr)> {
    match (rel.parent(), rel.file_name()) {
        (Some(parent), Some(name)) => Ok((parent, name)),
        _ => Err(invalid("path has no final name")),
    }
}

/// Opens a regular file for reading without following a symlink and without blocking on a
/// fifo or device that was swapped in after the directory was listed.
pub(crate) fn open_file_nofollow(dir: &Dir, name: &OsStr) -> io::Result<File> {
    let mut opts = OpenOptions::new();
    opts.read(true)
        .follow(FollowSymlinks::No)
        .custom_flags((OFlags::NONBLOCK | OFlags::NOCTTY).bits() as i32);
    let file = dir.open_with(name, &opts)?;
    if !file.metadata()?.is_file() {
        return Err(invalid("not a regular file"));
    }
    Ok(file)
}

/// Creates a new file (never reusing or following an existing entry), private until its
/// permissions are set.
pub(crate) fn create_file_new(dir: &Dir, name: &OsStr) -> io::Result<File> {
    let mut opts = OpenOptions::new();
    opts.write(true)
        .create_new(true)
        .follow(FollowSymlinks::No)
        .mode(0o600);
    dir.open_with(name, &opts)
}

/// Fills `dst` with `src`'s content: a reflink (FICLONE) where the filesystem shares extents,
/// the kernel's copy path otherwise. Returns the bytes copied and whether it was a reflink.
pub(crate) fn clone_or_copy(src: File, dst: File) -> io::Result<(std::fs::File, u64, bool)> {
    let mut src = src.into_std();
    let mut dst = dst.into_std();
    if rustix::fs::ioctl_ficlone(&dst, &src).is_ok() {
        let len = dst.metadata()?.len();
        return Ok((dst, len, true));
    }
    // std's copy uses copy_file_range/sendfile for file-to-file copies.
    let n = io::copy(&mut src, &mut dst)?;
    Ok((dst, n, false))
}

/// Sets permission bits through the open descriptor (never by path).
pub(crate) fn set_mode(fd: impl AsFd, mode: u32) -> io::Result<()> {
    rustix::fs::fchmod(fd, Mode::from_bits_truncate(mode & PERM_MASK))?;
    Ok(())
}

/// Sets a directory's permission bits. cap-std opens directories `O_PATH`, which cannot be
/// chmod'ed, so the directory is reopened by its single name, read-only and without following
/// a symlink, and changed through that descriptor.
pub(crate) fn set_dir_mode(root: &Dir, rel: &Path, mode: u32) -> io::Result<()> {
    let (parent, name) = split(rel)?;
    let parent = open_dir_nofollow(root, parent)?;
    if name == ".." || name.as_encoded_bytes().contains(&b'/') {
        return Err(invalid("not a plain name"));
    }
    let fd = rustix::fs::openat(
        &parent,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    set_mode(&fd, mode)
}

/// Sets access and modification time through the open descriptor.
pub(crate) fn set_mtime(fd: impl AsFd, (sec, nsec): (i64, i64)) -> io::Result<()> {
    let ts = Timespec {
        tv_sec: sec,
        tv_nsec: nsec,
    };
    rustix::fs::futimens(
        fd,
        &Timestamps {
            last_access: ts,
            last_modification: ts,
        },
    )?;
    Ok(())
}

/// Reads at most `limit` bytes of a regular file; a file that grew past the limit since it
/// was measured is an error rather than an unbounded read.
pub(crate) fn read_bounded(dir: &Dir, name: &OsStr, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_file_nofollow(dir, name)?;
    let mut buf = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(io::Error::other(
            "file grew past the size bound while being read",
        ));
    }
    Ok(buf)
}

/// Compares two regular files' contents without holding either in memory.
pub(crate) fn same_content(a: &Dir, a_rel: &Path, b: &Dir, b_rel: &Path) -> io::Result<bool> {
    let (ap, an) = split(a_rel)?;
    let (bp, bn) = split(b_rel)?;
    let mut fa = open_file_nofollow(&open_dir_nofollow(a, ap)?, an)?;
    let mut fb = open_file_nofollow(&open_dir_nofollow(b, bp)?, bn)?;
    let mut ba = vec![0u8; 64 * 1024];
    let mut bb = vec![0u8; 64 * 1024];
    loop {
        let na = read_full(&mut fa, &mut ba)?;
        let nb = read_full(&mut fb, &mut bb)?;
        if ba.get(..na) != bb.get(..nb) {
            return Ok(false);
        }
        if na == 0 {
            return Ok(true);
        }
    }
}

fn read_full(f: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        let Some(rest) = buf.get_mut(n..) else { break };
        match f.read(rest) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::common_components;
    use std::path::Path;

    #[test]
    fn common_components_counts_whole_names() {
        let c = |a: &str, b: &str| common_components(Path::new(a), Path::new(b));
        assert_eq!(c("", ""), 0);
        assert_eq!(c("", "a/b"), 0);
        assert_eq!(c("a/b", "a/b"), 2);
        assert_eq!(c("a/b", "a/b/c"), 2);
        assert_eq!(c("a/bc", "a/b"), 1);
        assert_eq!(c("a/b", "a/bc"), 1);
        assert_eq!(c("ab", "a"), 0);
        assert_eq!(c("x/y/z", "x/q"), 1);
    }
}
