//! The `urlx._urlx` extension module: urlx's extractor, resolver and
//! normaliser for Python, each hit given as the JSON object that
//! `urlx --json` prints.
//!
//! This layer only translates: options into an [`urlx::ExtractorBuilder`]
//! and [`urlx::PrintOptions`], hits into JSON Lines through the library's
//! own [`urlx::Printer`] (so a hit has the same fields, with the same
//! values, as on the command line), I/O errors into Python exceptions.
//! Turning the JSON into `Hit` objects is the Python package's part
//! (`python/urlx/__init__.py`). Scanning runs with the GIL released.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

use urlx::decompress::Decompress;
use urlx::print::{OutputFormat, PrintOptions, Printer};
use urlx::{Extractor, Hit, Input, InputFormat, InputInfo, Sink, Source};

/// JSON Lines bytes a stream of hits is handed over in: big enough that
/// the hand-over costs little, small enough that memory stays bounded.
const CHUNK: usize = 64 << 10;

/// Chunks in flight between the scanning thread and the iterator.
const IN_FLIGHT: usize = 4;

/// What to find and how: the keyword arguments `find` and `scan_file`
/// share, checked once, when the Python package builds this.
#[pyclass(module = "urlx._urlx", frozen)]
struct Options {
    builder: urlx::ExtractorBuilder,
    print: PrintOptions,
    threads: usize,
    /// `None`: files by their names, data never.
    decompress: Option<bool>,
}

#[pymethods]
impl Options {
    #[new]
    #[pyo3(signature = (
        *, base, format, abbreviated, emails, domains, refang, schemes,
        sources, invalid, attachments, decompress, binary, max_url_len,
        threads
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        base: Option<&str>,
        format: &str,
        abbreviated: bool,
        emails: bool,
        domains: bool,
        refang: bool,
        schemes: Option<Vec<String>>,
        sources: Option<Vec<String>>,
        invalid: bool,
        attachments: bool,
        decompress: Option<bool>,
        binary: bool,
        max_url_len: usize,
        threads: usize,
    ) -> PyResult<Options> {
        let format = InputFormat::ALL
            .iter()
            .find(|(_, name, _)| *name == format)
            .map(|(f, _, _)| *f)
            .ok_or_else(|| {
                let names: Vec<&str> =
                    InputFormat::ALL.iter().map(|(_, n, _)| *n).collect();
                PyValueError::new_err(format!(
                    "unknown format {format:?}: expected one of {}",
                    names.join(", ")
                ))
            })?;
        if max_url_len == 0 || max_url_len > urlx::MAX_URL_LEN_LIMIT {
            return Err(PyValueError::new_err(format!(
                "max_url_len must be between 1 and {}",
                urlx::MAX_URL_LEN_LIMIT
            )));
        }
        let sources = sources
            .map(|list| {
                list.iter().map(|s| source(s)).collect::<PyResult<Vec<_>>>()
            })
            .transpose()?;
        let mut b = Extractor::builder();
        b.base(base)
            .format(format)
            .abbreviated(abbreviated)
            .emails(emails)
            .domains(domains)
            .refang(refang)
            .attachments(attachments)
            .binary(binary)
            .max_url_len(max_url_len)
            .line_numbers(true)
            .single_thread(threads == 1);
        if let Some(s) = schemes {
            b.schemes(s);
        }
        // A bad base is reported now rather than at the first scan.
        b.build().map_err(|e| PyValueError::new_err(e.to_string()))?;
        let print = PrintOptions {
            format: OutputFormat::Json,
            invalid,
            sources,
            ..PrintOptions::default()
        };
        Ok(Options { builder: b, print, threads, decompress })
    }
}

impl Options {
    /// The extractor for data (`is_file` false) or for a file.
    fn extractor(&self, is_file: bool) -> PyResult<Extractor> {
        let mut b = self.builder.clone();
        b.decompress(match self.decompress {
            Some(true) => Decompress::Sniff,
            Some(false) => Decompress::Never,
            None if is_file => Decompress::ByName,
            None => Decompress::Never,
        });
        b.build().map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

/// A `sources` name, as `--source` takes it.
fn source(name: &str) -> PyResult<Source> {
    Ok(match name {
        "header" => Source::Header,
        "text" => Source::Text,
        "html-attr" => Source::HtmlAttr,
        "html-text" => Source::HtmlText,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown source {name:?}: expected header, text, \
                 html-attr or html-text"
            )));
        }
    })
}

/// A writer whose bytes the sink that owns the printer can take.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What the scanning side hands over.
enum Msg {
    /// JSON Lines, one object per hit, each line ending in `\n`.
    Hits(Vec<u8>),
    /// A note for the caller (an input skipped as binary, a problem
    /// met decoding a message): given to Python as a warning.
    Note(String),
    /// The input could not be opened or read.
    Error(io::Error),
}

/// The sink: the library's JSON printer, its output cut into chunks and
/// sent on, with errors and notes.
struct Collect {
    printer: Printer<Shared>,
    out: Shared,
    send: Box<dyn FnMut(Msg) -> bool>,
}

impl Collect {
    fn new(print: PrintOptions, send: Box<dyn FnMut(Msg) -> bool>) -> Self {
        let out = Shared::default();
        Collect { printer: Printer::new(out.clone(), print), out, send }
    }

    /// Send what was printed; `false` when nobody listens any more.
    fn hand_over(&mut self) -> bool {
        let bytes = std::mem::take(&mut *self.out.0.borrow_mut());
        bytes.is_empty() || (self.send)(Msg::Hits(bytes))
    }
}

/// The error that stops a search whose results nobody reads.
fn gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the iterator was dropped")
}

impl Sink for Collect {
    fn hit(&mut self, input: &InputInfo, hit: &Hit) -> io::Result<bool> {
        let go_on = self.printer.hit(input, hit)?;
        if self.out.0.borrow().len() >= CHUNK && !self.hand_over() {
            return Err(gone());
        }
        Ok(go_on)
    }

    fn warning(
        &mut self,
        input: &InputInfo,
        message: u64,
        text: &str,
    ) -> io::Result<()> {
        // Hits before the note go first, so the order is the input's.
        if !self.hand_over()
            || !(self.send)(Msg::Note(format!(
                "{}: message {message}: {text}",
                input.name
            )))
        {
            return Err(gone());
        }
        Ok(())
    }

    fn error(&mut self, input: &InputInfo, e: &io::Error) -> io::Result<()> {
        let e = io::Error::new(e.kind(), format!("{}: {e}", input.name));
        if !self.hand_over() || !(self.send)(Msg::Error(e)) {
            return Err(gone());
        }
        Ok(())
    }

    fn binary(
        &mut self,
        input: &InputInfo,
        offset: u64,
        skipped: bool,
    ) -> io::Result<()> {
        let note = if skipped {
            format!(
                "{}: skipped: a NUL byte at offset {offset} makes it \
                 binary (binary=True searches it)",
                input.name
            )
        } else {
            format!(
                "{}: searched up to the NUL byte at offset {offset} \
                 (binary=True searches all of it)",
                input.name
            )
        };
        if !self.hand_over() || !(self.send)(Msg::Note(note)) {
            return Err(gone());
        }
        Ok(())
    }
}

/// A rayon pool of `n` threads, one per count for the whole process.
fn pool(n: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> =
        OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&n) {
        return Ok(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(
        |e| PyValueError::new_err(format!("cannot start {n} threads: {e}")),
    )?;
    let p = Arc::new(p);
    pools.insert(n, p.clone());
    Ok(p)
}

/// Run `search` with the thread count of `threads`: 1 on the calling
/// thread (the builder says so), 0 on rayon's global pool (one thread
/// per CPU), more on a pool of that many.
fn with_threads<T: Send>(
    threads: usize,
    search: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    Ok(match threads {
        0 | 1 => search(),
        n => pool(n)?.install(search),
    })
}

/// The error of a search that `Collect` did not report itself.
fn search_error(e: io::Error) -> PyErr {
    e.into()
}

/// The bytes of `data`: `bytes` and `bytearray` as they are, `str` in
/// UTF-8.
fn data_bytes(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = data.cast::<PyBytes>() {
        Ok(b.as_bytes().to_vec())
    } else if let Ok(s) = data.cast::<PyString>() {
        Ok(s.to_cow()?.as_bytes().to_vec())
    } else if let Ok(b) = data.cast::<PyByteArray>() {
        Ok(b.to_vec())
    } else {
        Err(PyTypeError::new_err(format!(
            "data must be bytes, bytearray or str, not {}",
            data.get_type().name()?
        )))
    }
}

/// `find`: every hit of `data` as JSON Lines, and the notes.
#[pyfunction]
fn find(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    name: String,
    options: &Options,
) -> PyResult<(Py<PyBytes>, Vec<String>)> {
    let o = options;
    let extractor = o.extractor(false)?;
    let bytes = data_bytes(data)?;
    let print = o.print.clone();
    let run = move || -> Result<(Vec<u8>, Vec<String>), io::Error> {
        let lines = Rc::new(RefCell::new(Vec::new()));
        let notes = Rc::new(RefCell::new(Vec::new()));
        let error = Rc::new(RefCell::new(None));
        let (l, n, e) = (lines.clone(), notes.clone(), error.clone());
        let mut sink = Collect::new(
            print,
            Box::new(move |m| {
                match m {
                    Msg::Hits(b) => l.borrow_mut().extend_from_slice(&b),
                    Msg::Note(s) => n.borrow_mut().push(s),
                    Msg::Error(x) => *e.borrow_mut() = Some(x),
                }
                true
            }),
        );
        let input = Input::new(name, move || Ok(io::Cursor::new(bytes)));
        extractor.search(std::iter::once(input), &mut sink)?;
        sink.hand_over();
        drop(sink);
        if let Some(e) = error.borrow_mut().take() {
            return Err(e);
        }
        let lines = lines.take();
        let notes = notes.take();
        Ok((lines, notes))
    };
    let threads = o.threads;
    let (lines, notes) =
        py.detach(|| with_threads(threads, run))?.map_err(search_error)?;
    Ok((PyBytes::new(py, &lines).unbind(), notes))
}

/// `scan_file`: the hits of one file, streamed as chunks of JSON Lines
/// (`bytes`) and notes (`str`) by a scanning thread.
#[pyclass(module = "urlx._urlx")]
struct Scan {
    state: Mutex<State>,
}

/// Where a [`Scan`] is.
enum State {
    /// Waiting for `__next__`.
    Ready(Receiver<Msg>),
    /// A thread waits for the next chunk.
    Busy,
    /// Ended, closed or failed.
    Done,
}

#[pymethods]
impl Scan {
    #[new]
    fn new(path: PathBuf, options: &Options) -> PyResult<Scan> {
        let o = options;
        let extractor = o.extractor(true)?;
        // A directory would be read as an error from the file system's
        // point of view: say what is wrong instead.
        if path.is_dir() {
            return Err(pyo3::exceptions::PyIsADirectoryError::new_err(
                format!(
                    "{}: is a directory (scan_file reads one file)",
                    path.display()
                ),
            ));
        }
        let pool = match o.threads {
            0 | 1 => None,
            n => Some(pool(n)?),
        };
        let (tx, rx): (SyncSender<Msg>, Receiver<Msg>) =
            sync_channel(IN_FLIGHT);
        let print = o.print.clone();
        std::thread::Builder::new()
            .name("urlx-scan".into())
            .spawn(move || {
                let search = move || {
                    let name = path.to_string_lossy().into_owned();
                    let send = tx.clone();
                    let mut sink = Collect::new(
                        print,
                        Box::new(move |m| send.send(m).is_ok()),
                    );
                    let input = Input::file(name, path);
                    match extractor.search(std::iter::once(input), &mut sink) {
                        Ok(_) => {
                            sink.hand_over();
                        }
                        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
                        Err(e) => {
                            let _ = sink.hand_over()
                                && tx.send(Msg::Error(e)).is_ok();
                        }
                    }
                };
                match pool {
                    Some(p) => p.install(search),
                    None => search(),
                }
            })
            .map_err(|e| {
                PyValueError::new_err(format!("cannot start a thread: {e}"))
            })?;
        Ok(Scan { state: Mutex::new(State::Ready(rx)) })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next chunk of JSON Lines (`bytes`) or note (`str`); raises
    /// the input's error, or `StopIteration` at the end.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        // The receiver is taken out while this thread waits with the GIL
        // released, and the lock let go: another thread calling
        // `__next__` meanwhile must not block while it holds the GIL.
        let rx = match std::mem::replace(&mut *self.state(), State::Busy) {
            State::Ready(rx) => rx,
            State::Busy => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "another thread is reading this scan",
                ));
            }
            State::Done => {
                *self.state() = State::Done;
                return Ok(None);
            }
        };
        let (rx, msg) = py.detach(move || {
            let msg = rx.recv();
            (rx, msg)
        });
        let mut state = self.state();
        // `close` while waiting leaves `Done`.
        if matches!(*state, State::Busy)
            && matches!(msg, Ok(Msg::Hits(_) | Msg::Note(_)))
        {
            *state = State::Ready(rx);
        } else {
            *state = State::Done;
        }
        drop(state);
        match msg {
            Ok(Msg::Hits(b)) => {
                Ok(Some(PyBytes::new(py, &b).into_any().unbind()))
            }
            Ok(Msg::Note(s)) => {
                Ok(Some(PyString::new(py, &s).into_any().unbind()))
            }
            Ok(Msg::Error(e)) => Err(e.into()),
            Err(_) => Ok(None),
        }
    }

    /// Stop the search: the scanning thread ends at its next hand-over.
    fn close(&self) {
        *self.state() = State::Done;
    }
}

impl Scan {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `resolve`: the reference `reference` resolved against `base` (RFC 3986
/// section 5), or `ValueError`.
#[pyfunction]
fn resolve(base: &str, reference: &str) -> PyResult<String> {
    urlx::resolve::resolve_str(base, reference)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `normalize`: the normal form of `url` (RFC 3986 6.2.2 and 6.2.3).
#[pyfunction]
fn normalize(url: &str) -> String {
    urlx::normalize::normalize(url).into_owned()
}

/// urlx's extractor for Python; use the `urlx` package, not this module.
#[pymodule]
#[pyo3(name = "_urlx")]
fn urlx_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(find, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_class::<Options>()?;
    m.add_class::<Scan>()?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
