//! Buffers reused from chunk to chunk: the scanned candidates and URL
//! arenas of merged chunks, and the buffers small files are read into.

use super::scanned::Scanned;

/// Buffers of chunks already merged, for the next chunks to scan into.
#[derive(Debug, Default)]
pub(super) struct Pool {
    scanned: std::sync::Mutex<Pooled<Vec<Scanned>>>,
    arenas: std::sync::Mutex<Pooled<String>>,
    /// Buffers small files were read into. They are read into spare
    /// capacity (`read_to_end`), so a buffer comes back empty. The parts
    /// of large files are read with `pread` into initialized bytes and
    /// keep their length from part to part (no zeroing): their buffers
    /// go through the feeder (`FilePart::buf`, `Feeder::recycle`).
    files: std::sync::Mutex<Pooled<Vec<u8>>>,
}

/// Buffers of one kind waiting for reuse, and their capacity in bytes.
#[derive(Debug)]
struct Pooled<T> {
    free: Vec<T>,
    bytes: usize,
}

impl<T> Default for Pooled<T> {
    fn default() -> Self {
        Pooled { free: Vec::new(), bytes: 0 }
    }
}

/// The pool keeps buffers of each kind up to [`POOL_BYTES`] in all, and
/// at least [`POOL_COUNT`] whatever their size. Two batches can be in
/// flight (three of short messages or of small files named by path),
/// each with up to 512 small files (one buffer pair each) or up to
/// eight chunks of a large input (32 where URLs are dense, see
/// `next_chunk_size`). Without reuse, each small file's
/// buffers would grow from empty, reallocating many times; the chunks
/// of dense input need a few MiB each.
const POOL_BYTES: usize = 4 << 20;

/// See [`POOL_BYTES`]: as many buffers as chunks can be in flight.
const POOL_COUNT: usize = 16;

impl<T> Pooled<T> {
    fn pop(&mut self, bytes: impl Fn(&T) -> usize) -> Option<T> {
        let t = self.free.pop()?;
        self.bytes -= bytes(&t);
        Some(t)
    }

    fn push(&mut self, t: T, bytes: usize) {
        if bytes > 0
            && (self.free.len() < POOL_COUNT
                || self.bytes + bytes <= POOL_BYTES)
        {
            self.bytes += bytes;
            self.free.push(t);
        }
    }
}

fn scanned_bytes(v: &Vec<Scanned>) -> usize {
    v.capacity() * std::mem::size_of::<Scanned>()
}

impl Pool {
    pub(super) fn take(&self) -> (Vec<Scanned>, String) {
        let scanned = self
            .scanned
            .lock()
            .ok()
            .and_then(|mut p| p.pop(scanned_bytes))
            .unwrap_or_default();
        let arena = self
            .arenas
            .lock()
            .ok()
            .and_then(|mut p| p.pop(String::capacity))
            .unwrap_or_default();
        (scanned, arena)
    }

    /// An empty buffer to read a small file into.
    pub(super) fn take_file(&self) -> Vec<u8> {
        let buf =
            self.files.lock().ok().and_then(|mut p| p.pop(Vec::capacity));
        buf.unwrap_or_default()
    }

    pub(super) fn put_file(&self, mut buf: Vec<u8>) {
        buf.clear();
        if let Ok(mut p) = self.files.lock() {
            let bytes = buf.capacity();
            p.push(buf, bytes);
        }
    }

    pub(super) fn put(
        &self,
        mut scanned: Vec<Scanned>,
        arena: Option<String>,
    ) {
        scanned.clear();
        if let Ok(mut p) = self.scanned.lock() {
            let bytes = scanned_bytes(&scanned);
            p.push(scanned, bytes);
        }
        if let Some(mut a) = arena
            && let Ok(mut p) = self.arenas.lock()
        {
            a.clear();
            let bytes = a.capacity();
            p.push(a, bytes);
        }
    }
}
