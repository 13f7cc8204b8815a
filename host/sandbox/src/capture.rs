//! Reading a command's output stream with a cap.
//!
//! The stream is read to its end whatever the cap: a writer blocked on a full pipe would hang
//! the command, so bytes past the cap are read and dropped, never stored.

use tokio::io::{AsyncRead, AsyncReadExt};

/// The line appended to a stream that hit its cap.
pub fn truncation_marker(cap: usize) -> String {
    format!("\n[baton: output truncated after {cap} bytes]\n")
}

/// Reads `reader` to its end, keeping at most `cap` bytes. Returns the bytes kept (with the
/// marker appended when something was dropped) and whether anything was dropped.
pub async fn read_capped<R: AsyncRead + Unpin>(reader: R, cap: usize) -> (Vec<u8>, bool) {
    read_capped_until(reader, cap, None).await
}

/// Like [`read_capped`], but stops at `deadline` with what was read so far.
pub async fn read_capped_until<R: AsyncRead + Unpin>(
    mut reader: R,
    cap: usize,
    deadline: Option<tokio::time::Instant>,
) -> (Vec<u8>, bool) {
    let mut kept = Vec::with_capacity(cap.min(64 * 1024));
    let mut buf = vec![0u8; 64 * 1024];
    let mut truncated = false;
    loop {
        let read = match deadline {
            Some(deadline) => {
                match tokio::time::timeout_at(deadline, reader.read(&mut buf)).await {
                    Ok(read) => read,
                    Err(_) => break,
                }
            }
            None => reader.read(&mut buf).await,
        };
        let n = match read {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let room = cap - kept.len();
        if n > room {
            truncated = true;
        }
        kept.extend_from_slice(&buf[..n.min(room)]);
    }
    if truncated {
        kept.extend_from_slice(truncation_marker(cap).as_bytes());
    }
    (kept, truncated)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn under_cap_is_kept_whole() {
        let (out, truncated) = run(read_capped(&b"hello"[..], 5));
        assert_eq!(out, b"hello");
        assert!(!truncated);
    }

    #[test]
    fn over_cap_is_cut_with_marker() {
        let data = vec![b'y'; 300_000];
        let (out, truncated) = run(read_capped(&data[..], 1000));
        assert!(truncated);
        let marker = truncation_marker(1000);
        assert_eq!(out.len(), 1000 + marker.len());
        assert!(out.ends_with(marker.as_bytes()));
        assert!(out[..1000].iter().all(|&b| b == b'y'));
    }

    #[test]
    fn zero_cap_keeps_only_marker() {
        let (out, truncated) = run(read_capped(&b"x"[..], 0));
        assert!(truncated);
        assert_eq!(out, truncation_marker(0).as_bytes());
    }
}
