//! Printers: the [`Sink`]s that turn hits into output lines: one URL per
//! line (grep style), JSON Lines, or counts per input. They own output
//! formatting and the filters that decide what is printed (validity,
//! uniqueness); they never write a raw control character.

use std::io::{self, Write};

use crate::hit::Hit;
use std::collections::HashSet;

use crate::pipeline::{InputInfo, Sink};

mod json;
mod sanitize;

pub use sanitize::escape_for_terminal;

/// The shape of the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// One URL per line, optionally prefixed by file, line, column and
    /// byte offset.
    Standard,
    /// One JSON object per hit (JSON Lines).
    Json,
    /// One count per input.
    Count,
}

/// What to print and how.
#[derive(Clone, Debug)]
pub struct PrintOptions {
    /// The output shape.
    pub format: Format,
    /// Prefix each line with the input's name.
    pub with_filename: bool,
    /// Prefix each URL with its line number.
    pub line_number: bool,
    /// Prefix each URL with its column.
    pub column: bool,
    /// Prefix each URL with the byte offset of its first byte.
    pub byte_offset: bool,
    /// Follow each file name with NUL instead of `:`.
    pub null: bool,
    /// Print the resolved form instead of the URL as written.
    pub resolved: bool,
    /// Print hits that are not valid URLs too.
    pub invalid: bool,
    /// Print each URL once (the first time it is seen).
    pub unique: bool,
    /// Prefix each URL with the Message-ID of its message (`-` when it
    /// has none or is not from a message).
    pub message_id: bool,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            format: Format::Standard,
            with_filename: false,
            line_number: false,
            column: false,
            byte_offset: false,
            null: false,
            resolved: false,
            invalid: false,
            unique: false,
            message_id: false,
        }
    }
}

/// A [`Sink`] that prints to a writer.
#[derive(Debug)]
pub struct Printer<W> {
    out: W,
    opts: PrintOptions,
    /// The URLs printed so far, for `unique`.
    seen: HashSet<String>,
    printed: u64,
    count: u64,
}

impl<W: Write> Printer<W> {
    /// A printer writing to `out`.
    pub fn new(out: W, opts: PrintOptions) -> Printer<W> {
        Printer { out, opts, seen: HashSet::new(), printed: 0, count: 0 }
    }

    /// Hits printed (or counted) so far.
    pub fn printed(&self) -> u64 {
        self.printed
    }

    /// The writer back, flushed.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }

    fn wanted(&mut self, hit: &Hit) -> bool {
        if !self.opts.invalid && !hit.is_valid() {
            return false;
        }
        if self.opts.unique {
            let key = self.text(hit);
            if self.seen.contains(key) {
                return false;
            }
            self.seen.insert(key.to_string());
        }
        true
    }

    fn text<'h>(&self, hit: &'h Hit) -> &'h str {
        if self.opts.resolved {
            hit.resolved().unwrap_or(hit.url())
        } else {
            hit.url()
        }
    }

    fn name(&mut self, input: &InputInfo) -> io::Result<()> {
        self.out.write_all(escape_for_terminal(&input.name).as_bytes())?;
        self.out.write_all(if self.opts.null { b"\0" } else { b":" })
    }
}

impl<W: Write> Sink for Printer<W> {
    fn hit(&mut self, input: &InputInfo, hit: &Hit) -> io::Result<bool> {
        if !self.wanted(hit) {
            return Ok(true);
        }
        self.printed += 1;
        match self.opts.format {
            Format::Count => self.count += 1,
            Format::Json => json::write_hit(&mut self.out, input, hit)?,
            Format::Standard => {
                if self.opts.with_filename {
                    self.name(input)?;
                }
                if self.opts.line_number {
                    write!(self.out, "{}:", hit.line())?;
                }
                if self.opts.column {
                    write!(self.out, "{}:", hit.column())?;
                }
                if self.opts.byte_offset {
                    write!(self.out, "{}:", hit.start())?;
                }
                if self.opts.message_id {
                    let id = hit
                        .provenance()
                        .and_then(|p| p.message_id.as_deref())
                        .unwrap_or("-");
                    self.out.write_all(escape_for_terminal(id).as_bytes())?;
                    self.out.write_all(b" ")?;
                }
                let text = self.text(hit);
                if hit.printable {
                    self.out.write_all(text.as_bytes())?;
                } else {
                    let text = escape_for_terminal(text);
                    self.out.write_all(text.as_bytes())?;
                }
                self.out.write_all(b"\n")?;
            }
        }
        Ok(true)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    fn end(&mut self, input: &InputInfo, _hits: u64) -> io::Result<()> {
        if self.opts.format == Format::Count {
            if self.opts.with_filename {
                self.name(input)?;
            }
            writeln!(self.out, "{}", self.count)?;
        }
        self.count = 0;
        Ok(())
    }

    /// Flush what was printed, so that a message about the input (which
    /// the caller writes to stderr) comes after the hits before it.
    fn error(&mut self, _: &InputInfo, _: &io::Error) -> io::Result<()> {
        self.out.flush()
    }
}
