//! Command-line arguments (clap derive). The doc comments here are the
//! `--help` text; nothing here runs a search.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

/// Find URLs in mail, news, plain text and logs.
///
/// urlx prints every URL in its inputs, one per line, in input order:
/// delimited as the URL specifications recommend (angle brackets, the
/// URL: prefix, quotes, URLs broken across lines, trailing punctuation),
/// and validated against RFC 3986. With no PATH, or with -, it reads
/// standard input; directories are searched recursively, and tar and
/// zip archives member by member. Mail and news (mbox, MMDF, Babyl,
/// Maildir, .eml, news articles; .gz, .bz2, .xz, .zst too) are decoded
/// first: MIME, quoted-printable, base64, charsets, HTML. See --format.
///
/// Exit status: 0 if a URL was printed (or counted), 1 if none, 2 if an
/// error occurred (an input that could not be read, a bad option, a
/// failed write to stdout; a closed pipe ends quietly).
///
/// To resolve references instead: urlx resolve --base BASE REF...
#[derive(Parser, Debug)]
#[command(name = "urlx", version, max_term_width = 100)]
pub struct Args {
    /// Files or directories to search; - is standard input.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Print the file name with each URL (default with several inputs or
    /// a directory).
    #[arg(short = 'H', long, overrides_with = "no_filename")]
    pub with_filename: bool,

    /// Never print file names.
    #[arg(long, overrides_with = "with_filename")]
    pub no_filename: bool,

    /// Print the 1-based line number of each URL's first byte.
    #[arg(short = 'n', long)]
    pub line_number: bool,

    /// Print the 1-based byte column of each URL's first byte (and its
    /// line number).
    #[arg(long)]
    pub column: bool,

    /// Print the 0-based byte offset of each URL's first byte.
    #[arg(short = 'b', long)]
    pub byte_offset: bool,

    /// Print the number of URLs in each input instead of the URLs.
    #[arg(short = 'c', long)]
    pub count: bool,

    /// Print the name of each input with a URL, instead of its URLs.
    #[arg(
        short = 'l',
        long,
        conflicts_with_all = ["count", "json", "count_unique", "hosts"]
    )]
    pub files_with_matches: bool,

    /// Print the name of each input without a URL.
    #[arg(
        long,
        conflicts_with_all = [
            "count", "json", "count_unique", "hosts", "files_with_matches"
        ]
    )]
    pub files_without_match: bool,

    /// Print nothing and stop at the first URL: the exit status says
    /// whether there was one (0) or not (1).
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Print (or count) at most NUM URLs of each input: of a file or of
    /// standard input as a whole, all the messages of an mbox together.
    #[arg(short = 'm', long, value_name = "NUM")]
    pub max_count: Option<u64>,

    /// Print each distinct URL once, the first time it is found; URLs
    /// that differ only in case, escaping, dot segments or a default port
    /// count as one (RFC 3986 6.2.2, 6.2.3). Memory grows with the number
    /// of distinct URLs.
    #[arg(short = 'u', long)]
    pub unique: bool,

    /// What -u prints each URL once within: all (the whole search),
    /// input (each file), message (each mail message or news article).
    #[arg(
        long,
        value_name = "SCOPE",
        default_value = "all",
        requires = "unique"
    )]
    pub unique_scope: ScopeArg,

    /// Print the normal form of each URL (RFC 3986 6.2.2 and 6.2.3):
    /// scheme and host in lower case, escapes of unreserved characters
    /// decoded and the others in upper case, dot segments removed, the
    /// default port dropped, an empty http(s) path as "/", file://localhost/
    /// as file:///.
    #[arg(long)]
    pub normalize: bool,

    /// Print IRIs in their URI form (RFC 3987 3.1): non-ASCII characters
    /// as UTF-8 percent-escapes, an international host name in IDNA
    /// (punycode) form.
    #[arg(long)]
    pub ascii: bool,

    /// After all inputs, print each distinct URL (its normal form) with
    /// the number of times it was found, most frequent first, as
    /// "COUNT<tab>URL" (JSON objects with --json).
    #[arg(long, conflicts_with_all = ["count", "hosts", "unique"])]
    pub count_unique: bool,

    /// After all inputs, print each host with the number of URLs naming
    /// it, most frequent first, as "COUNT<tab>HOST" (JSON objects with
    /// --json); a mailto: URL names the domain of its first address.
    #[arg(long, conflicts_with_all = ["count"])]
    pub hosts: bool,

    /// Also find URLs written without a scheme (RFC 2396bis Appendix F):
    /// www.example.com/path as http://, ftp.example.org as ftp://. The
    /// host must end in a public suffix (bundled list of 2026-10-23), so
    /// node.js or 1,420.00.zip give nothing. Printed as written; the
    /// absolute URL with --resolved and in JSON ("abbreviated": "www").
    #[arg(long)]
    pub abbreviated: bool,

    /// Also find e-mail addresses written without mailto:, as mailto:
    /// URLs (same rules as --abbreviated; message IDs are not taken for
    /// addresses). The local part may hold the letters of every script
    /// (UTS #58).
    #[arg(long)]
    pub emails: bool,

    /// Also find bare domain names such as example.com/path, read as
    /// http:// (UTS #58): the host must end in a public suffix, the
    /// path, query and fragment end as UTS #58 ends them. Printed as
    /// written; the http:// URL with --resolved and in JSON
    /// ("abbreviated": "domain").
    #[arg(long)]
    pub domains: bool,

    /// Read defanged URLs (hxxp://, hxxps://, fxp://, example[.]com,
    /// http[:]//, hxxps[://], evil\.com, [/], [at]) as the URLs they
    /// stand for: printed as written,
    /// refanged with --resolved and in JSON ("refanged": true).
    #[arg(long)]
    pub refang: bool,

    /// Also find URLs written encoded: percent-encoded as a whole
    /// (http%3A%2F%2Fexample.com%2F, as in a tracker's query), in base64
    /// (aHR0cDovL...) or in hex (687474703a2f2f...). Printed decoded,
    /// beside the plain URLs; JSON "encoded" names the encoding and the
    /// warning encoded-url marks them.
    #[arg(long)]
    pub encoded: bool,

    /// Print the target of redirector links (Google /url?q=, Outlook
    /// safelinks, Proofpoint urldefense v1-v3, Barracuda linkprotect,
    /// Cisco Secure Email, AppRiver EdgePilot, Trend Micro click-time,
    /// Sophos time-of-click), unwrapped up to four levels, instead of the
    /// link; JSON always gives it in "unwrapped".
    #[arg(long)]
    pub unwrap: bool,

    /// Print only URLs with warnings, each followed by a tab and the
    /// warnings' codes: a password in the userinfo, a userinfo that looks
    /// like a host, a port other than the scheme's default (reserved-port
    /// below 1024), encoded CR, LF or NUL, a punycode, mixed-script or
    /// numeric host, advice of the scheme's own rules, a scheme missing
    /// from the IANA registry, an HTML link whose text shows another site
    /// (deceptive-link). --json shows them in "warnings" always.
    #[arg(long)]
    pub warnings: bool,

    /// Print each URL's resolved absolute form (RFC 3986 section 5: dot
    /// segments removed). Relative references (in <URL:...>, in HTML)
    /// are printed resolved against their base anyway.
    #[arg(long)]
    pub resolved: bool,

    /// Base URI for relative references (in <URL:...>; in mail, when the
    /// message gives none: <base href>, Content-Base, Content-Location).
    #[arg(long, value_name = "URI")]
    pub base: Option<String>,

    /// Also print candidates that are not URLs even percent-encoded: by
    /// default a URL is printed when it is valid (RFC 3986 and its
    /// scheme's rules) or when percent-encoding what RFC 3986 forbids in
    /// its path, query or fragment makes it valid (a space, |, [ ]). With
    /// --json, each comes with its errors.
    #[arg(long)]
    pub invalid: bool,

    /// Print only URLs with these schemes (comma-separated, any case).
    /// The list may name groups of the bundled IANA scheme registry:
    /// registered, permanent, provisional, historical. Every scheme of the
    /// list is also found without "//" in text (tag:, spotify:), which by
    /// default only mailto, news, urn, tel, fax, sip, sips, xmpp, magnet,
    /// data, geo, cid, mid and sms are. A name missing from the registry
    /// gets a note on stderr.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub scheme: Vec<String>,

    /// Only URLs from these places of a message, a comma-separated list
    /// of header, text, html-attr, html-text (URLs not from mail are
    /// text). By default all: header fields hold links too
    /// (List-Unsubscribe, List-Archive), where urlscan leaves them out.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub source: Vec<SourceArg>,

    /// Leave out the URLs of header fields: --source
    /// text,html-attr,html-text.
    #[arg(long, conflicts_with = "source")]
    pub no_headers: bool,

    /// When to colour file names and line numbers: auto (when standard
    /// output is a terminal, TERM is not "dumb" and NO_COLOR is not
    /// set), never, always.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    pub color: ColorArg,

    /// Print one JSON object per URL (JSON Lines).
    #[arg(long, conflicts_with = "count")]
    pub json: bool,

    /// Follow each file name with a NUL byte instead of ':'.
    #[arg(short = '0', long)]
    pub null: bool,

    /// Search binary files too. By default a file with a NUL byte in its
    /// first 64 KiB is skipped, and one with a NUL byte further on is
    /// searched up to it; either way a note goes to stderr for files
    /// named on the command line.
    #[arg(short = 'a', long = "text")]
    pub text: bool,

    /// Input format: auto decides per input from its first bytes (an
    /// mbox starts with a "From " line with a sender and a date, a
    /// message or news article with header fields; a tar or zip archive
    /// is opened whatever the format, each member read as a file would
    /// be); mail formats are decoded (MIME, quoted-printable, base64,
    /// charsets, HTML) and each URL's provenance is given with --json.
    #[arg(long, value_enum, default_value_t = FormatArg(urlx::InputFormat::Auto))]
    pub format: FormatArg,

    /// Decompress every input by its magic bytes (gzip, bzip2, xz,
    /// zstd), standard input included; without -z only files named
    /// *.gz, *.bz2, *.xz, *.zst are decompressed.
    #[arg(short = 'z', long)]
    pub search_zip: bool,

    /// Prefix each URL with the Message-ID of its message (mail and news
    /// input).
    #[arg(long)]
    pub message_id: bool,

    /// Print URLs as soon as the lines holding them are read from a pipe
    /// or standard input (for `tail -f | urlx`), at some cost in speed;
    /// a URL wrapped across lines can then be cut where a read ended.
    #[arg(long)]
    pub line_buffered: bool,

    /// Print on stderr, for each message, the problems met decoding it (a
    /// body without a charset read as windows-1252, a multipart without
    /// its close delimiter, a message longer than 16 MiB, ...). They are
    /// not errors: its text was read all the same. Off by default (an
    /// archive can give one a message); --stats counts them.
    #[arg(long)]
    pub mail_notes: bool,

    /// Suppress the messages about inputs that cannot be opened or read,
    /// and binary-file notes. The exit status still says 2 when an input
    /// could not be read.
    #[arg(short = 's', long)]
    pub no_messages: bool,

    /// Print totals on stderr at the end (on stderr, so that the URLs on
    /// stdout stay a clean list; ripgrep prints them on stdout): URLs
    /// printed, found and not valid, inputs searched and failed, bytes
    /// and messages searched, notes on decoding, seconds.
    #[arg(long)]
    pub stats: bool,

    /// Search only the files that match GLOB (repeatable; `!GLOB` leaves
    /// them out) inside the directories searched. A glob without `/`
    /// matches file names, one with `/` the path below the directory
    /// named; the last glob that matches decides, and with a glob that
    /// includes, a file no glob matches is left out. Paths named on the
    /// command line are always searched. Hidden files are searched, and
    /// ignore files (.gitignore) are not read.
    #[arg(short = 'g', long, value_name = "GLOB")]
    pub glob: Vec<String>,

    /// Search only files of TYPE inside the directories searched
    /// (repeatable): mail, news, html, log, text, warc (see
    /// --type-list), compressed ones too. As -g globs given before the
    /// others.
    #[arg(short = 't', long = "type", value_name = "TYPE")]
    pub types: Vec<String>,

    /// Leave out files of TYPE (repeatable).
    #[arg(short = 'T', long = "type-not", value_name = "TYPE")]
    pub types_not: Vec<String>,

    /// Print the file types of -t and their globs, and exit.
    #[arg(long)]
    pub type_list: bool,

    /// Descend at most NUM directories below each path named (0: only
    /// the paths named).
    #[arg(long, value_name = "NUM")]
    pub max_depth: Option<usize>,

    /// Follow symbolic links inside directories (links named on the
    /// command line are always followed); each directory is searched
    /// once, so a link loop ends.
    #[arg(short = 'L', long)]
    pub follow: bool,

    /// Print a shell completion script or the man page, made from these
    /// options, and exit: complete-bash, complete-zsh, complete-fish,
    /// complete-powershell, complete-elvish or man. For example
    /// `urlx --generate complete-bash > /etc/bash_completion.d/urlx`,
    /// `urlx --generate man | man -l -`.
    #[arg(long, value_name = "KIND")]
    pub generate: Option<Generate>,

    /// Number of threads (default: the number of CPUs).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,

    /// Drop candidates longer than N bytes of input (whitespace removed
    /// from wrapped URLs included); N is 8 to 16777216.
    #[arg(
        long,
        value_name = "N",
        default_value_t = urlx::DEFAULT_MAX_URL_LEN,
        value_parser = max_url_len
    )]
    pub max_url_len: usize,
}

/// urlx resolve: resolve references against a base URI (RFC 3986
/// section 5.2, strict) and print each result on its own line.
#[derive(Parser, Debug)]
#[command(name = "urlx resolve", version)]
pub struct ResolveArgs {
    /// The base URI: absolute and valid.
    #[arg(long, value_name = "URI")]
    pub base: String,

    /// References to resolve.
    #[arg(value_name = "REF", required = true)]
    pub refs: Vec<String>,
}

/// The values of --unique-scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScopeArg {
    All,
    Input,
    Message,
}

/// The values of --color.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Never,
    Always,
}

/// The values of --source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SourceArg {
    Header,
    Text,
    HtmlAttr,
    HtmlText,
}

impl From<SourceArg> for urlx::Source {
    fn from(s: SourceArg) -> urlx::Source {
        match s {
            SourceArg::Header => urlx::Source::Header,
            SourceArg::Text => urlx::Source::Text,
            SourceArg::HtmlAttr => urlx::Source::HtmlAttr,
            SourceArg::HtmlText => urlx::Source::HtmlText,
        }
    }
}

/// The values of --generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Generate {
    CompleteBash,
    CompleteZsh,
    CompleteFish,
    CompletePowershell,
    CompleteElvish,
    Man,
}

/// The values of --format: the library's table of formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatArg(pub urlx::InputFormat);

/// Every value of --format, in the table's order.
static FORMATS: [FormatArg; urlx::InputFormat::ALL.len()] = {
    let all = urlx::InputFormat::ALL;
    let mut v =
        [FormatArg(urlx::InputFormat::Auto); urlx::InputFormat::ALL.len()];
    let mut i = 0;
    while i < all.len() {
        v[i] = FormatArg(all[i].0);
        i += 1;
    }
    v
};

impl ValueEnum for FormatArg {
    fn value_variants<'a>() -> &'a [Self] {
        &FORMATS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let &(_, name, help) =
            urlx::InputFormat::ALL.iter().find(|(f, _, _)| *f == self.0)?;
        Some(clap::builder::PossibleValue::new(name).help(help))
    }
}

impl std::fmt::Display for FormatArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name())
    }
}

/// `--max-url-len`: a number from 8 to [`urlx::MAX_URL_LEN_LIMIT`].
fn max_url_len(text: &str) -> Result<usize, String> {
    let max = urlx::MAX_URL_LEN_LIMIT;
    match text.parse::<u64>() {
        Ok(n) if (8..=max as u64).contains(&n) => Ok(n as usize),
        Ok(_) | Err(_) => Err(format!("expected a number from 8 to {max}")),
    }
}
