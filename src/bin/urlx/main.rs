//! The `urlx` binary: parses arguments, opens inputs, picks a printer,
//! runs the library's extractor, and maps the outcome to the exit status
//! (0 found, 1 none, 2 error; a closed stdout ends quietly).

mod args;
mod input;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use urlx::print::{
    MESSAGE_CHARS, OutputFormat, PrintOptions, Printer, escape_for_terminal,
    excerpt, excerpt_to,
};
use urlx::stages::TriggerSearch;
use urlx::{Extractor, Hit, InputInfo, Sink};

/// The allocator on Linux: jemalloc. Hits, URLs and the pieces of
/// messages are allocated on the scanning threads and many are freed on
/// another (the one that merges and prints), which glibc's allocator
/// serves slowly; the library itself uses whatever allocator its program
/// chose.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
#[global_allocator]
static ALLOC: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

use crate::args::{Args, ColorArg, Generate, ResolveArgs, ScopeArg};
use urlx::print::UniqueScope;

/// A line on stderr. A failed write there is ignored (as ripgrep does):
/// there is nowhere left to report it, and `eprintln!` would panic.
macro_rules! note {
    ($($arg:tt)*) => {{
        let _ = writeln!(io::stderr(), $($arg)*);
    }};
}

fn main() -> ExitCode {
    let argv: Vec<_> = std::env::args_os().collect();
    let result = if argv.get(1).is_some_and(|a| a == "resolve") {
        ResolveArgs::try_parse_from(
            std::iter::once("urlx resolve".into())
                .chain(argv[2..].iter().cloned()),
        )
        .map(run_resolve)
    } else {
        Args::try_parse_from(argv).map(run)
    };
    let result = match result {
        Ok(result) => result,
        Err(e) => return clap_exit(&e),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => report(&e),
    }
}

/// The status for a failed run, after its message: none for a closed
/// stdout (as ripgrep: `urlx big.txt | head -1` ends quietly, with 0).
fn report(e: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(e) {
        return ExitCode::SUCCESS;
    }
    // Every line escaped: a message may hold pieces of input.
    for line in format!("{e:#}").lines() {
        note!("urlx: {}", escape_for_terminal(line));
    }
    ExitCode::from(2)
}

/// What clap stopped on: `--help` and `--version` are written to stdout,
/// checked like any output; a usage error goes to stderr, escaped (it
/// repeats the argument), with status 2.
fn clap_exit(e: &clap::Error) -> ExitCode {
    let text = e.render().to_string();
    if e.use_stderr() {
        for line in text.lines() {
            note!("{}", escape_for_terminal(line));
        }
        return ExitCode::from(2);
    }
    let mut out = Stdout(io::stdout().lock());
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => report(&e.into()),
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Standard output, whose write errors say that they are about it (kind
/// kept, so a broken pipe is still recognized).
struct Stdout<W>(W);

impl<W: Write> Stdout<W> {
    fn name(e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("cannot write to stdout: {e}"))
    }
}

impl<W: Write> Write for Stdout<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(Self::name)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(Self::name)
    }
}

/// The CLI's sink: the library printer, plus messages on stderr for
/// inputs that failed or were binary.
struct CliSink<W: Write> {
    printer: Printer<W>,
    explicit: std::rc::Rc<std::cell::RefCell<Vec<bool>>>,
    failed: bool,
    /// Print the notes on decoding messages (--mail-notes).
    notes: bool,
    /// Print the messages about inputs (not -s).
    messages: bool,
    /// Hits that are not valid URLs (for --stats).
    invalid: u64,
}

impl<W: Write> Sink for CliSink<W> {
    fn hit(&mut self, input: &InputInfo, hit: &Hit) -> io::Result<bool> {
        self.invalid += u64::from(hit.usable().is_none());
        self.printer.hit(input, hit)
    }

    fn end(&mut self, input: &InputInfo, hits: u64) -> io::Result<()> {
        self.printer.end(input, hits)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.printer.flush()
    }

    fn warning(
        &mut self,
        input: &InputInfo,
        message: u64,
        text: &str,
    ) -> io::Result<()> {
        if !self.notes {
            return Ok(());
        }
        note!(
            "urlx: {}: message {message}: {}",
            escape_for_terminal(&input.name),
            escape_for_terminal(text)
        );
        Ok(())
    }

    fn error(
        &mut self,
        input: &InputInfo,
        error: &io::Error,
    ) -> io::Result<()> {
        self.failed = true;
        self.printer.error(input, error)?;
        if !self.messages {
            return Ok(());
        }
        note!(
            "urlx: {}: {}",
            escape_for_terminal(&input.name),
            excerpt_to(&error.to_string(), MESSAGE_CHARS)
        );
        Ok(())
    }

    fn binary_compressed(
        &mut self,
        input: &InputInfo,
        offset: u64,
        format: urlx::decompress::Compression,
    ) -> io::Result<()> {
        let explicit = self.explicit.borrow();
        if self.messages && input::was_explicit(&explicit, input.index) {
            note!(
                "urlx: {}: binary file (NUL byte at offset {offset}), \
                 skipped; it starts as {} data does: use -z to decompress it",
                escape_for_terminal(&input.name),
                format.name()
            );
        }
        Ok(())
    }

    fn binary(
        &mut self,
        input: &InputInfo,
        offset: u64,
        skipped: bool,
    ) -> io::Result<()> {
        let explicit = self.explicit.borrow();
        if self.messages && input::was_explicit(&explicit, input.index) {
            let what = if skipped { "skipped" } else { "searched up to it" };
            note!(
                "urlx: {}: binary file (NUL byte at offset {offset}), {what}; \
                 use -a to search it",
                escape_for_terminal(&input.name)
            );
        }
        Ok(())
    }
}

/// --generate: a completion script or the man page, on stdout.
fn generate(kind: Generate) -> anyhow::Result<u8> {
    use clap::CommandFactory;
    use clap_complete::Shell;
    let mut cmd = Args::command();
    let mut out = io::BufWriter::new(Stdout(io::stdout().lock()));
    let shell = match kind {
        Generate::CompleteBash => Shell::Bash,
        Generate::CompleteZsh => Shell::Zsh,
        Generate::CompleteFish => Shell::Fish,
        Generate::CompletePowershell => Shell::PowerShell,
        Generate::CompleteElvish => Shell::Elvish,
        Generate::Man => {
            clap_mangen::Man::new(cmd).render(&mut out)?;
            out.flush()?;
            return Ok(0);
        }
    };
    clap_complete::generate(shell, &mut cmd, "urlx", &mut out);
    out.flush()?;
    Ok(0)
}

fn run(args: Args) -> anyhow::Result<u8> {
    if let Some(kind) = args.generate {
        return generate(kind);
    }
    if args.type_list {
        let mut out = io::BufWriter::new(Stdout(io::stdout().lock()));
        for (name, globs) in input::TYPES {
            writeln!(out, "{name}: {}", globs.join(", "))?;
        }
        out.flush()?;
        return Ok(0);
    }
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global()
            .map_err(|e| anyhow::anyhow!("cannot start {n} threads: {e}"))?;
    }
    let mut paths = args.paths.clone();
    if paths.is_empty() {
        use std::io::IsTerminal;
        if io::stdin().is_terminal() {
            note!(
                "urlx: reading standard input from the terminal (end it with \
                 Ctrl-D); name files or directories to search them"
            );
        }
        paths.push("-".into());
    }
    // A directory or an archive (by name) holds many inputs.
    let many = paths.len() > 1
        || paths.iter().any(|p| p.is_dir() || urlx::archive::named(p));
    let format = if args.quiet {
        OutputFormat::Quiet
    } else if args.files_with_matches {
        OutputFormat::FilesWithMatches
    } else if args.files_without_match {
        OutputFormat::FilesWithoutMatch
    } else if args.count_unique {
        OutputFormat::CountUnique
    } else if args.hosts {
        OutputFormat::Hosts
    } else if args.json {
        OutputFormat::Json
    } else if args.count {
        OutputFormat::Count
    } else {
        OutputFormat::Standard
    };
    let opts = PrintOptions {
        format,
        with_filename: (args.with_filename || many) && !args.no_filename,
        line_number: args.line_number || args.column,
        column: args.column,
        byte_offset: args.byte_offset,
        null: args.null,
        resolved: args.resolved,
        invalid: args.invalid,
        unique: args.unique,
        normalize: args.normalize,
        ascii: args.ascii,
        json: args.json,
        unwrap: args.unwrap,
        warnings: args.warnings,
        message_id: args.message_id,
        max_count: args.max_count,
        unique_scope: match args.unique_scope {
            ScopeArg::All => UniqueScope::All,
            ScopeArg::Input => UniqueScope::Input,
            ScopeArg::Message => UniqueScope::Message,
        },
        color: match args.color {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => {
                use std::io::IsTerminal;
                io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR")
                        .is_none_or(|v| v.is_empty())
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            }
        },
        sources: if args.no_headers {
            Some(vec![
                urlx::Source::Text,
                urlx::Source::HtmlAttr,
                urlx::Source::HtmlText,
            ])
        } else if args.source.is_empty() {
            None
        } else {
            Some(args.source.iter().map(|&s| s.into()).collect())
        },
    };
    let mut builder = Extractor::builder();
    builder
        .max_url_len(args.max_url_len)
        .base(args.base.as_deref())
        .line_numbers(opts.line_number || args.json)
        // Anchor texts: a JSON field, and the `deceptive-link` warning.
        .anchor_texts(args.json || args.warnings)
        .binary(args.text)
        .format(args.format.0)
        .decompress(if args.search_zip {
            urlx::decompress::Decompress::Sniff
        } else {
            urlx::decompress::Decompress::ByName
        })
        .line_buffered(args.line_buffered)
        .abbreviated(args.abbreviated)
        .emails(args.emails)
        .domains(args.domains)
        .refang(args.refang)
        .encoded(args.encoded);
    // For profiling (DESIGN.md, How it works): fix the trigger search.
    let search = match std::env::var("URLX_SCAN").as_deref() {
        Ok("colons") => Some(TriggerSearch::Colons),
        Ok("letters") => Some(TriggerSearch::Letters),
        Ok("pairs") => Some(TriggerSearch::Pairs),
        Ok("sieve") => Some(TriggerSearch::Sieve),
        _ => None,
    };
    builder.trigger_search(search);
    if !args.scheme.is_empty() {
        builder.schemes(&args.scheme);
        for name in urlx::data::registry::SchemeSet::new(&args.scheme).names()
        {
            if !urlx::data::registry::is_registered(name) {
                note!(
                    "urlx: note: scheme {:?} is not in the IANA registry of {}",
                    excerpt(name),
                    urlx::data::registry::REGISTRY_DATE
                );
            }
        }
    }
    let extractor = builder.build()?;
    let stdout = Stdout(io::stdout().lock());
    let out = io::BufWriter::with_capacity(64 * 1024, stdout);
    let explicit = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let mut sink = CliSink {
        printer: Printer::new(out, opts),
        explicit: explicit.clone(),
        failed: false,
        notes: args.mail_notes,
        messages: !args.no_messages,
        invalid: 0,
    };
    let flags = explicit.clone();
    let mut globs = input::type_globs(&args.types, &args.types_not)
        .map_err(|e| anyhow::anyhow!(e))?;
    globs.extend(args.glob.iter().cloned());
    let globs = match globs.is_empty() {
        true => None,
        false => Some(input::Globs::new(&globs)?),
    };
    let walk = input::WalkOptions {
        max_depth: args.max_depth,
        follow: args.follow,
        globs,
    };
    let inputs = input::walk(paths, walk).map(move |found| {
        let (input, was) = input::to_input(found);
        flags.borrow_mut().push(was);
        input
    });
    let started = std::time::Instant::now();
    let summary = extractor.search(inputs, &mut sink)?;
    let printed = match format {
        OutputFormat::FilesWithMatches | OutputFormat::FilesWithoutMatch => {
            sink.printer.names()
        }
        _ => sink.printer.printed(),
    };
    sink.printer.into_inner()?;
    if args.stats {
        print_stats(&summary, printed, sink.invalid, started.elapsed());
    }
    if sink.failed || summary.errors > 0 {
        Ok(2)
    } else if printed > 0 {
        Ok(0)
    } else {
        Ok(1)
    }
}

/// The totals of --stats, on stderr.
fn print_stats(
    s: &urlx::Summary,
    printed: u64,
    invalid: u64,
    took: std::time::Duration,
) {
    let n = |v: u64| {
        // Thousands separated, for reading.
        let d = v.to_string();
        let mut out = String::new();
        for (i, c) in d.chars().enumerate() {
            if i > 0 && (d.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    note!(
        "{} URLs printed ({} found, {} of them not valid)",
        n(printed),
        n(s.hits),
        n(invalid)
    );
    note!(
        "{} inputs searched, {} could not be read",
        n(s.inputs),
        n(s.errors)
    );
    note!("{} bytes searched, {} messages", n(s.bytes), n(s.messages));
    note!("{} notes on decoding messages (--mail-notes)", n(s.notes));
    note!("{:.3} seconds", took.as_secs_f64());
}

fn run_resolve(args: ResolveArgs) -> anyhow::Result<u8> {
    let base = urlx::Uri::parse(&args.base);
    if !base.is_absolute() {
        anyhow::bail!(
            "base URI {:?} is not absolute (it has no scheme)",
            excerpt(&args.base)
        );
    }
    if let Some(e) = base.errors().first() {
        anyhow::bail!("base URI {:?} is invalid: {e}", excerpt(&args.base));
    }
    let mut out = io::BufWriter::new(Stdout(io::stdout().lock()));
    let mut code = 0;
    for r in &args.refs {
        let reference = urlx::Uri::parse(r);
        // A scheme's own rule (http needs a host) does not stop
        // resolution: RFC 3986 5.4.2 resolves `http:g` to `http:g`.
        let generic = reference
            .errors()
            .into_iter()
            .find(|e| e.kind() != urlx::validate::ErrorKind::MissingHost);
        if let Some(e) = generic {
            note!("urlx: reference {:?} is invalid: {e}", excerpt(r));
            code = 2;
            continue;
        }
        let resolved = urlx::resolve::resolve(&base, &reference)?;
        writeln!(out, "{}", escape_for_terminal(&resolved))?;
    }
    out.flush()?;
    Ok(code)
}
