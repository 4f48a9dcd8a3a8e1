//! The `urlx._urlx` extension module: urlx's extractor, resolver and
//! normaliser for Python, each hit a `Hit` with the fields that `urlx
//! --json` prints.
//!
//! This layer only translates: options into an [`urlx::ExtractorBuilder`]
//! and [`urlx::PrintOptions`], I/O errors into Python exceptions, and
//! hits into `Hit` objects that hold the library's hit and give its
//! fields from the hit itself or, for those that take computing, from
//! the library's own [`urlx::print::hit_fields`] (so a hit has the same
//! fields, with the same values, as on the command line). Scanning runs
//! with the GIL released; the `Hit` objects are made with it.

use std::collections::HashMap;
use std::io;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};

use urlx::decompress::Decompress;
use urlx::print::{
    FIELD_NAMES, FieldValue, OutputFormat, PrintOptions, hit_fields,
};
use urlx::{Extractor, Hit, Input, InputFormat, InputInfo, Sink, Source};

/// Hits a stream hands over at a time: enough that the hand-over costs
/// little, few enough that memory stays bounded.
const CHUNK: usize = 512;

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
        *, base, format, abbreviated, emails, domains, refang, encoded,
        schemes, sources, invalid, attachments, decompress, binary, max_url_len,
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
        encoded: bool,
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
            .encoded(encoded)
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
        // 1: on the calling thread (`single_thread`); 0: rayon's global
        // pool; more: a pool of that many, shared by the calls asking
        // for it.
        if self.threads > 1 {
            b.thread_pool(pool(self.threads)?);
        }
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

/// The dict of `hit`'s fields, as `--json` prints them.
fn fields_dict<'py>(
    py: Python<'py>,
    file: &str,
    hit: &Hit,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let input = InputInfo { index: 0, name: file.to_string() };
    let mut result = Ok(());
    hit_fields(&input, hit, |key, value| {
        if result.is_err() {
            return;
        }
        let key = PyString::intern(py, key);
        result = match value {
            FieldValue::Str(v) => d.set_item(key, v),
            FieldValue::Int(v) => d.set_item(key, v),
            FieldValue::Bool(v) => d.set_item(key, v),
            FieldValue::Strs(v) => d.set_item(key, v),
            FieldValue::Warnings(v) => {
                let list = PyList::empty(py);
                let mut r = Ok(());
                for (code, message) in v {
                    let item = PyDict::new(py);
                    r = r
                        .and_then(|_| item.set_item("code", code))
                        .and_then(|_| item.set_item("message", message))
                        .and_then(|_| list.append(item));
                }
                r.and_then(|_| d.set_item(key, list))
            }
            _ => Ok(()),
        };
    });
    result.map(|_| d)
}

/// One URL found, with the fields of `urlx --json` (see the package's
/// documentation). The fields are computed the first time one is read.
#[pyclass(module = "urlx", name = "Hit", frozen)]
struct PyHit {
    file: Arc<str>,
    hit: Hit,
    fields: OnceLock<Py<PyDict>>,
}

impl PyHit {
    /// A field the hit holds, as `hit_fields` gives it; `None` for one
    /// that takes computing.
    fn held(&self, py: Python<'_>, name: &str) -> PyResult<Option<Py<PyAny>>> {
        let h = &self.hit;
        let p = h.provenance();
        let r = p.and_then(|p| p.record.as_deref());
        fn obj<'py, T: IntoPyObject<'py>>(
            py: Python<'py>,
            v: T,
        ) -> PyResult<Option<Py<PyAny>>> {
            v.into_py_any(py).map(Some)
        }
        match name {
            "url" => obj(py, h.url()),
            "resolved" => obj(py, h.resolved()),
            "valid" => obj(py, h.is_valid()),
            "repaired" => obj(py, h.repaired()),
            "errors" => obj(
                py,
                h.errors().iter().map(ToString::to_string).collect::<Vec<_>>(),
            ),
            "file" => obj(py, &*self.file),
            "line" => obj(py, h.line()),
            "column" => obj(py, h.column()),
            "start" => obj(py, h.start()),
            "end" => obj(py, h.end()),
            "context" => obj(py, h.context().as_str()),
            "hyphen_break" => obj(py, h.hyphen_break()),
            "alternative" => obj(py, h.alternative()),
            "abbreviated" => obj(py, h.abbreviated()),
            "refanged" => obj(py, h.refanged()),
            "encoded" => obj(py, h.encoded()),
            "message" => obj(py, p.map(|p| p.message)),
            "message_id" => obj(py, p.and_then(|p| p.message_id.as_deref())),
            "part" => obj(py, p.map(|p| p.part.as_str())),
            "header" => obj(py, p.and_then(|p| p.header.as_deref())),
            "attribute" => obj(py, p.and_then(|p| p.attribute.as_deref())),
            "anchor_text" => obj(py, p.and_then(|p| p.anchor_text.as_deref())),
            "source" => obj(py, p.map(|p| p.source.as_str())),
            "decoded" => obj(py, p.map(|p| p.decoded.as_str())),
            "record_offset" => obj(py, r.map(|r| r.offset)),
            "record_id" => obj(py, r.and_then(|r| r.id.as_deref())),
            "record_type" => obj(py, r.and_then(|r| r.kind.as_deref())),
            "target_uri" => obj(py, r.and_then(|r| r.target.as_deref())),
            "content_type" => {
                obj(py, r.and_then(|r| r.content_type.as_deref()))
            }
            _ => Ok(None),
        }
    }

    fn fields<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyDict>> {
        if self.fields.get().is_none() {
            let d = fields_dict(py, &self.file, &self.hit)?.unbind();
            let _ = self.fields.set(d);
        }
        match self.fields.get() {
            Some(d) => Ok(d.bind(py)),
            None => Err(PyValueError::new_err("fields not available")),
        }
    }
}

#[pymethods]
impl PyHit {
    fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        if !FIELD_NAMES.contains(&name) {
            return Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "'Hit' object has no attribute '{name}'"
            )));
        }
        // The fields the hit holds are read from it; the others (the
        // URI and normal forms, components, warnings, the redirector
        // target) are computed, all at once, when first asked for.
        if let Some(v) = self.held(py, name)? {
            return Ok(v);
        }
        Ok(match self.fields(py)?.get_item(name)? {
            Some(v) => v.unbind(),
            None => py.None(),
        })
    }

    /// The hit as the JSON object `urlx --json` prints (a new dict; the
    /// provenance keys only for hits in mail, news and web archives).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        fields_dict(py, &self.file, &self.hit)
    }

    fn __eq__(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        match other.cast::<PyHit>() {
            Ok(o) => self.fields(py)?.eq(o.get().fields(py)?),
            Err(_) => Ok(false),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Hit(url={}, valid={}, line={}, column={})",
            PyString::new(py, self.hit.url()).repr()?,
            if self.hit.is_valid() { "True" } else { "False" },
            self.hit.line(),
            self.hit.column()
        ))
    }

    fn __dir__(&self) -> Vec<&'static str> {
        let mut names: Vec<&str> = FIELD_NAMES.to_vec();
        names.push("to_dict");
        names.sort_unstable();
        names
    }
}

/// Hits with the name of their input.
type Named = Vec<(Arc<str>, Hit)>;

/// Python `Hit` objects for hits, with the GIL.
fn py_hits<'py>(py: Python<'py>, hits: Named) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for (file, hit) in hits {
        list.append(Bound::new(
            py,
            PyHit { file, hit, fields: OnceLock::new() },
        )?)?;
    }
    Ok(list)
}

/// What the scanning side hands over.
enum Msg {
    /// Hits, in order, with the name of their input.
    Hits(Named),
    /// A note for the caller (an input skipped as binary, a problem
    /// met decoding a message): given to Python as a warning.
    Note(String),
    /// The input could not be opened or read.
    Error(io::Error),
}

/// The sink: the hits the print options select, their fields collected
/// and sent on in chunks, with errors and notes.
struct Collect {
    print: PrintOptions,
    hits: Named,
    /// The name of the input of the last hit, shared by its hits.
    name: Option<Arc<str>>,
    send: Box<dyn FnMut(Msg) -> bool>,
}

impl Collect {
    fn new(print: PrintOptions, send: Box<dyn FnMut(Msg) -> bool>) -> Self {
        Collect { print, hits: Vec::new(), name: None, send }
    }

    /// Send the hits collected; `false` when nobody listens any more.
    fn hand_over(&mut self) -> bool {
        let hits = std::mem::take(&mut self.hits);
        hits.is_empty() || (self.send)(Msg::Hits(hits))
    }
}

/// The error that stops a search whose results nobody reads.
fn gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the iterator was dropped")
}

impl Sink for Collect {
    fn hit(&mut self, input: &InputInfo, hit: &Hit) -> io::Result<bool> {
        if self.print.selects(hit) {
            let name = match &self.name {
                Some(n) if **n == *input.name => n.clone(),
                _ => {
                    let n: Arc<str> = input.name.as_str().into();
                    self.name = Some(n.clone());
                    n
                }
            };
            self.hits.push((name, hit.clone()));
        }
        if self.hits.len() >= CHUNK && !self.hand_over() {
            return Err(gone());
        }
        Ok(true)
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

/// `find`: the fields of every hit of `data` (dicts), and the notes.
#[pyfunction]
fn find(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    name: String,
    options: &Options,
) -> PyResult<(Py<PyList>, Vec<String>)> {
    let o = options;
    let extractor = o.extractor(false)?;
    let bytes = data_bytes(data)?;
    let print = o.print.clone();
    let run = move || -> Result<(Named, Vec<String>), io::Error> {
        // The sink's hand-overs, kept until the search is over.
        let (tx, rx) = std::sync::mpsc::channel();
        let mut sink =
            Collect::new(print, Box::new(move |m| tx.send(m).is_ok()));
        let input = Input::new(name, move || Ok(io::Cursor::new(bytes)));
        extractor.search(std::iter::once(input), &mut sink)?;
        sink.hand_over();
        drop(sink);
        let (mut hits, mut notes) = (Vec::new(), Vec::new());
        for m in rx {
            match m {
                Msg::Hits(h) => hits.extend(h),
                Msg::Note(n) => notes.push(n),
                Msg::Error(e) => return Err(e),
            }
        }
        Ok((hits, notes))
    };
    let (hits, notes) = py.detach(run)?;
    Ok((py_hits(py, hits)?.unbind(), notes))
}

/// `scan_file`: the hits of one file, streamed as lists of `Hit` and
/// notes (`str`) by a scanning thread.
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
        let (tx, rx): (SyncSender<Msg>, Receiver<Msg>) =
            sync_channel(IN_FLIGHT);
        let print = o.print.clone();
        std::thread::Builder::new()
            .name("urlx-scan".into())
            .spawn(move || {
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
                        let _ =
                            sink.hand_over() && tx.send(Msg::Error(e)).is_ok();
                    }
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

    /// The next list of hits (dicts) or note (`str`); raises the input's
    /// error, or `StopIteration` at the end.
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
            Ok(Msg::Hits(b)) => Ok(Some(py_hits(py, b)?.into_any().unbind())),
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
    m.add_class::<PyHit>()?;
    m.add_class::<Scan>()?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
