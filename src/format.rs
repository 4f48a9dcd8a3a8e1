//! Input formats: what an input is (plain text, an mbox, one message or
//! news article per file), how the format is recognised from an input's
//! first bytes, and the one table that says how an input of each format
//! is read ([`reading`]). A new container format is a variant here, a
//! line of detection, an entry of the table and the file of its reader.

use std::io::Read;

use crate::mail::mbox::{
    Records, babyl_records, is_from_line, mbox_records, mmdf_records,
    single_record,
};
use crate::mail::warc::warc_records;

/// Bytes at the start of an input that [`detect`] is given.
pub(crate) const HEAD: usize = 8 << 10;

/// The format of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputFormat {
    /// Decide from the first bytes of each input (see [`detect`]).
    Auto,
    /// Plain text: no mail structure.
    Text,
    /// An mbox: messages after `From ` lines (mboxo, mboxrd, mboxcl,
    /// mboxcl2; see the `mbox` module for where a message ends).
    Mbox,
    /// An MMDF mailbox: each message between two lines of four `^A`
    /// (0x01) bytes.
    Mmdf,
    /// A Babyl file (Emacs Rmail): messages ending at `^_` (0x1F).
    Babyl,
    /// One message per file, as in a Maildir (`cur/`, `new/`).
    Maildir,
    /// A single RFC 5322 message.
    Eml,
    /// A single Usenet article (RFC 5536), as in a news spool.
    News,
    /// A web archive: WARC records (ISO 28500; Common Crawl's WET and
    /// WAT files too), each decoded by its type (HTTP responses and
    /// requests, documents, extracted text, metadata).
    Warc,
    /// A TNEF file (`winmail.dat`, [MS-OXTNEF]): Outlook's rich body and
    /// attachments, read as a message's TNEF part is.
    Tnef,
    /// An Outlook message file (`.msg`, [MS-OXMSG]): an OLE compound
    /// file; other compound files (Word, Excel) give nothing.
    Msg,
}

impl InputFormat {
    /// Every format, with its name (as `--format` takes it) and what it
    /// is, in the order the command line lists them.
    pub const ALL: &'static [(InputFormat, &'static str, &'static str)] = &[
        (InputFormat::Auto, "auto", "Decide from each input's first bytes"),
        (InputFormat::Text, "text", "Plain text"),
        (InputFormat::Mbox, "mbox", "An mbox (mboxo or mboxrd)"),
        (
            InputFormat::Mmdf,
            "mmdf",
            "An MMDF mailbox (messages between lines of four ^A bytes)",
        ),
        (InputFormat::Babyl, "babyl", "A Babyl file (Emacs Rmail)"),
        (
            InputFormat::Maildir,
            "maildir",
            "One message per file (a Maildir's cur/ and new/)",
        ),
        (InputFormat::Eml, "eml", "One RFC 5322 message per file"),
        (
            InputFormat::News,
            "news",
            "One Usenet article per file (a news spool)",
        ),
        (
            InputFormat::Warc,
            "warc",
            "A web archive: WARC records (also WET and WAT files)",
        ),
        (InputFormat::Tnef, "tnef", "A TNEF file (Outlook's winmail.dat)"),
        (InputFormat::Msg, "msg", "An Outlook message file (.msg)"),
    ];

    /// The format's name, as `--format` takes it.
    pub fn name(self) -> &'static str {
        InputFormat::ALL
            .iter()
            .find(|(f, _, _)| *f == self)
            .map_or("", |&(_, name, _)| name)
    }
}

/// The format the first bytes of an input look like: a web archive
/// starts with a `WARC/1.` (or `WARC/0.`) version line; an MMDF mailbox
/// with a line of four `^A` bytes; a Babyl file with `BABYL OPTIONS:`; a
/// TNEF file with TNEF's signature (`78 9F 3E 22`); an Outlook message
/// with an OLE compound file's (`D0 CF 11 E0`...) and, in the first
/// bytes, the directory entry of a message property (a Word or Excel
/// file stays binary text); an mbox starts
/// with a `From ` line that looks like a separator (sender and date,
/// see `mbox`), not with text such as `From the README: ...`; a
/// message or news article with header fields (`Name: value`), the
/// first of which is one of the fields every message or article has
/// near its top, or an `X-` field (a mail reader's `X-Status:` or
/// `X-Keywords:` before the fields it stored) or an MH annotation
/// (`Replied:`, `Forwarded:`, `Distributed:`, which nmh's `anno` puts
/// first) followed by one of those other than `Date:` and
/// `Content-Type:` (HTTP headers too) within the header's first 64
/// lines; anything else is text.
pub fn detect(head: &[u8]) -> InputFormat {
    if crate::mail::warc::is_warc(head) {
        return InputFormat::Warc;
    }
    if head.starts_with(&crate::mail::tnef::SIGNATURE) {
        return InputFormat::Tnef;
    }
    if crate::mail::outlook::is_msg_head(head) {
        return InputFormat::Msg;
    }
    let first = head.split(|&b| b == b'\n').next().unwrap_or(&[]);
    if is_from_line(first) {
        return InputFormat::Mbox;
    }
    if first.strip_suffix(b"\r").unwrap_or(first) == b"\x01\x01\x01\x01" {
        return InputFormat::Mmdf;
    }
    if first.starts_with(b"BABYL OPTIONS:") {
        return InputFormat::Babyl;
    }
    let mut fields = 0;
    let mut news = false;
    // The first field is an `X-` field or an annotation, and none known
    // has followed it.
    let mut unsure = false;
    for line in head.split(|&b| b == b'\n').take(64) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break; // end of the header
        }
        if matches!(line[0], b' ' | b'\t') && fields > 0 {
            continue; // a folded continuation
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return InputFormat::Text;
        };
        let name = &line[..colon];
        if name.is_empty() || !name.iter().all(|&b| b.is_ascii_graphic()) {
            return InputFormat::Text;
        }
        news |= name.eq_ignore_ascii_case(b"Newsgroups");
        if is_known_field(name) {
            // Fields HTTP sends too do not settle an uncertain start: a
            // response's header dump may start with `X-Powered-By:`.
            let http = name.eq_ignore_ascii_case(b"date")
                || name.eq_ignore_ascii_case(b"content-type");
            unsure &= http;
        } else if fields == 0 {
            let x =
                name.get(..2).is_some_and(|p| p.eq_ignore_ascii_case(b"X-"));
            let annotation = [&b"replied"[..], b"forwarded", b"distributed"]
                .iter()
                .any(|a| a.eq_ignore_ascii_case(name));
            if !(x || annotation) {
                return InputFormat::Text;
            }
            unsure = true;
        }
        fields += 1;
    }
    match (fields, news) {
        (0, _) => InputFormat::Text,
        _ if unsure => InputFormat::Text,
        (_, true) => InputFormat::News,
        _ => InputFormat::Eml,
    }
}

/// Header fields a message or article may start with.
fn is_known_field(name: &[u8]) -> bool {
    const FIELDS: &[&str] = &[
        "return-path",
        "received",
        "from",
        "to",
        "cc",
        "subject",
        "date",
        "message-id",
        "delivered-to",
        "x-original-to",
        "mime-version",
        "path",
        "newsgroups",
        "reply-to",
        "sender",
        "content-type",
        "x-mailer",
        "dkim-signature",
        "arc-seal",
        "authentication-results",
        "x-received",
        "organization",
        "in-reply-to",
        "references",
        "list-id",
        "x-from-line",
        "envelope-to",
        "x-envelope-from",
        "xref",
        "article",
        "relay-version",
        "posting-version",
    ];
    FIELDS.iter().any(|f| f.as_bytes().eq_ignore_ascii_case(name))
}

/// Opens the reader of a container's records over an input, records of
/// at most the given number of bytes.
pub(crate) type OpenRecords =
    for<'a> fn(Box<dyn Read + 'a>, usize) -> Box<dyn Records + 'a>;

/// How an input is read: as text, or cut into records (messages), each
/// decoded (MIME) and scanned.
#[derive(Clone, Copy)]
pub(crate) enum Reading {
    /// Plain text, scanned as it is.
    Text,
    /// Records, read by the reader this opens.
    Records(OpenRecords),
}

/// The format an input is read in: `configured`, or, for
/// [`InputFormat::Auto`], the one its first bytes `head` look like.
pub(crate) fn decide(configured: InputFormat, head: &[u8]) -> InputFormat {
    match configured {
        InputFormat::Auto => detect(&head[..head.len().min(HEAD)]),
        f => f,
    }
}

/// How an input of `format` is read: the table from formats to readers.
pub(crate) fn reading(format: InputFormat) -> Reading {
    match format {
        InputFormat::Auto | InputFormat::Text => Reading::Text,
        InputFormat::Mbox => Reading::Records(mbox_records),
        InputFormat::Mmdf => Reading::Records(mmdf_records),
        InputFormat::Babyl => Reading::Records(babyl_records),
        InputFormat::Maildir
        | InputFormat::Eml
        | InputFormat::News
        | InputFormat::Tnef
        | InputFormat::Msg => Reading::Records(single_record),
        InputFormat::Warc => Reading::Records(warc_records),
    }
}

#[cfg(test)]
mod tests {
    use super::InputFormat::{self, *};

    /// The position of each format in [`InputFormat::ALL`]: an exhaustive
    /// match, so a new format does not compile until it is given one.
    fn position(f: InputFormat) -> usize {
        match f {
            Auto => 0,
            Text => 1,
            Mbox => 2,
            Mmdf => 3,
            Babyl => 4,
            Maildir => 5,
            Eml => 6,
            News => 7,
            Warc => 8,
            Tnef => 9,
            Msg => 10,
        }
    }

    #[test]
    fn the_table_lists_every_format_once() {
        assert_eq!(InputFormat::ALL.len(), 11, "a format missing from ALL");
        for (i, &(f, name, _)) in InputFormat::ALL.iter().enumerate() {
            assert_eq!(position(f), i, "{name}");
            assert_eq!(f.name(), name);
        }
    }
}
