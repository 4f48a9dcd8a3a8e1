//! Mail and news: recognising the format of an input (mbox, a single
//! RFC 5322 message or news article, plain text), and turning one
//! message into hits with their provenance: MIME parts decoded (`mime`),
//! HTML attributes and text (`html`), each piece scanned by the same
//! delimit, validate and resolve stages as plain text, with positions
//! mapped back to the original file.
//!
//! In a `text/html` part, a URL attribute's value is one hit (context
//! `href`); every attribute value is also scanned as text for URLs with
//! a scheme, which gives the URLs of `value=`, `title=`, `style=`,
//! event handlers, ... (a URL found where a URL attribute's value starts
//! is that value, reported once); all these are source `html-attr`. The
//! visible text and the contents of `<script>` and `<style>` are scanned
//! as text, source `html-text`. Comments are not scanned.
//!
//! # Example
//!
//! ```
//! use urlx::{Extractor, InputFormat};
//!
//! let message = b"From: a@example.com\r\nSubject: hi\r\n\
//!     Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n\
//!     See http://example.com/a=\r\nb for more.\r\n";
//! let extractor = Extractor::builder()
//!     .format(InputFormat::Auto)
//!     .line_numbers(true)
//!     .build()
//!     .unwrap();
//! let hits = extractor.find(message);
//! // The soft line break is undone: the URL as the reader sees it.
//! assert_eq!(hits[0].absolute(), Some("http://example.com/ab"));
//! assert_eq!(hits[0].line(), 6);
//! let from = hits[0].provenance().unwrap();
//! assert_eq!((from.message, from.part.as_str()), (1, ""));
//! ```

mod charset;
pub mod html;
pub(crate) mod mbox;
pub mod mime;
mod offsets;
pub(crate) mod outlook;
mod rtf;
pub(crate) mod tnef;
pub(crate) mod warc;

use std::cell::{Cell, OnceCell};
use std::collections::HashMap;
use std::sync::Arc;

use crate::finder::Finder;
use crate::hit::{Context, Hit, Provenance, Source};

use self::mbox::Message;

pub use crate::format::{InputFormat, detect};

/// Whether header field `name` gives abbreviated URIs, bare domain
/// names or e-mail addresses of `kind` (URLs with a scheme come from
/// every field but `Content-Class`).
///
/// - A msg-id (RFC 5322 3.6.4; `Content-ID`, RFC 2045 7) has the form of
///   an address but names a message or a part: none from `Message-ID`,
///   `In-Reply-To`, `References` and their kin.
/// - Trace and authentication fields (`Received`, RFC 5322 3.6.7;
///   `Authentication-Results`, RFC 8601; `DKIM-Signature`, RFC 6376;
///   `ARC-*`, RFC 8617; `Received-SPF`, RFC 7208; `List-Id`, RFC 2919)
///   name relays, signers and lists: e-mail addresses only (`for
///   <joe@example.com>`).
/// - Bare domain names come only from fields whose value is text a
///   person wrote (`Subject`, `Comments`, `Keywords`, RFC 5322 3.6.5;
///   `Content-Description`, RFC 2045 8; `Organization`, RFC 5536 3.2.8;
///   and Microsoft's `Thread-Topic`): everywhere else a field's syntax
///   gives host names (`X-Mailer`, `X-Originating-IP`, ...) that
///   nobody wrote as links.
/// - Every other field gives `www.` and `ftp.` forms and addresses
///   (`From`, `To`, `Cc`, `Reply-To`, `X-URL`, ...).
fn header_gives(name: &str, kind: crate::abbrev::Kind) -> bool {
    use crate::abbrev::Kind;
    let is =
        |names: &[&str]| names.iter().any(|n| n.eq_ignore_ascii_case(name));
    const MSG_ID: &[&str] = &[
        "Message-ID",
        "In-Reply-To",
        "References",
        "Resent-Message-ID",
        "Content-ID",
        "Original-Message-ID",
        "Supersedes",
        "X-Message-ID",
    ];
    const TRACE: &[&str] = &[
        "Received",
        "X-Received",
        "Authentication-Results",
        "ARC-Authentication-Results",
        "ARC-Message-Signature",
        "ARC-Seal",
        "DKIM-Signature",
        "DomainKey-Signature",
        "Received-SPF",
        "List-Id",
    ];
    const TEXT: &[&str] = &[
        "Subject",
        "Comments",
        "Keywords",
        "Content-Description",
        "Organization",
        "Thread-Topic",
    ];
    if is(MSG_ID) {
        return false;
    }
    match kind {
        Kind::Email => true,
        Kind::Www | Kind::Ftp => !is(TRACE),
        Kind::Domain => is(TEXT),
    }
}

/// Limits for one message.
#[derive(Clone, Debug)]
pub(crate) struct MailConfig {
    /// Longest message parsed as MIME; the rest is scanned as text.
    pub max_message: usize,
    /// Scan non-text parts too.
    pub attachments: bool,
    /// Give `a href` hits their anchor's text (and so `deceptive-link`).
    pub anchor_texts: bool,
    /// Give hits their line and column (counting a message's line
    /// breaks up to each hit); otherwise both are 0.
    pub line_numbers: bool,
}

impl Default for MailConfig {
    fn default() -> Self {
        MailConfig {
            max_message: 16 << 20,
            attachments: false,
            anchor_texts: true,
            line_numbers: false,
        }
    }
}

/// Line and column of byte `p` of a message's bytes in its input.
///
/// Hits come mostly in the order of their offsets: the line breaks are
/// counted from the last position asked for to the next one (each byte
/// read once however many hits a line holds), and the message is
/// indexed whole only when a position comes before the last.
struct Lines<'m> {
    msg: &'m Message,
    /// The last position asked for, the line breaks before it and the
    /// last of them.
    cursor: Cell<(usize, usize, Option<usize>)>,
    /// The offsets of all line breaks, once a position went backwards.
    newlines: OnceCell<Vec<usize>>,
}

impl<'m> Lines<'m> {
    fn new(msg: &'m Message) -> Lines<'m> {
        Lines {
            msg,
            cursor: Cell::new((0, 0, None)),
            newlines: OnceCell::new(),
        }
    }

    fn position(&self, p: usize) -> (u64, u64) {
        let raw = &self.msg.raw;
        let end = p.min(raw.len());
        let (at, count, last) = self.cursor.get();
        let (before, last) = if end >= at {
            let new = &raw[at..end];
            let count = count + bytecount::count(new, b'\n');
            let last = memchr::memrchr(b'\n', new).map(|k| at + k).or(last);
            self.cursor.set((end, count, last));
            (count, last)
        } else {
            let all = self
                .newlines
                .get_or_init(|| memchr::memchr_iter(b'\n', raw).collect());
            let before = all.partition_point(|&k| k < end);
            (before, before.checked_sub(1).map(|i| all[i]))
        };
        let line = self.msg.line + before as u64 + 1;
        let line_start = match last {
            None => self.msg.offset,
            Some(k) => self.msg.input_offset(k) + 1,
        };
        (line, self.msg.input_offset(p) - line_start + 1)
    }
}

/// Every hit in one message, in the order of their positions, appended
/// to `out`; and the problems met decoding it.
pub(crate) fn message_hits(
    ex: &Finder,
    cfg: &MailConfig,
    msg: &Message,
    out: &mut Vec<Hit>,
) -> Vec<String> {
    SCRATCH.with(|cell| {
        // A message's hits are not found while another's are: the
        // thread's buffers are free (new ones otherwise).
        let mut borrowed = cell.try_borrow_mut().ok();
        let mut own = None;
        let scratch = match borrowed.as_deref_mut() {
            Some(scratch) => scratch,
            None => own.insert(Scratch::default()),
        };
        let Scratch { urls, hits, fields } = scratch;
        urls.clear();
        hits.clear();
        let warnings = collect_hits(ex, cfg, msg, urls, hits, fields);
        fields.clear();
        if !hits.is_empty() {
            // Copied at their sizes: one allocation each. Buffers larger
            // than the scratch keeps are given away instead: a copy
            // would hold a message's hits twice at once.
            let urls = Arc::new(if urls.len() > SCRATCH_BYTES {
                let mut given = std::mem::take(urls);
                given.shrink_to_fit();
                given
            } else {
                urls.as_str().to_string()
            });
            for hit in hits.iter_mut() {
                hit.url.attach(&urls);
            }
            if out.is_empty() && hits.len() > SCRATCH_HITS {
                std::mem::swap(out, hits);
                out.shrink_to_fit();
            } else {
                out.append(hits);
            }
        }
        // A message with very many hits (or very long field names)
        // leaves no large buffers (nor its URLs, copied out above).
        urls.clear();
        urls.shrink_to(SCRATCH_BYTES);
        fields.keys.shrink_to(SCRATCH_BYTES);
        hits.shrink_to(SCRATCH_HITS);
        warnings
    })
}

/// The buffers one thread finds a message's hits in: the URLs of the
/// hits (which a message's hits share), the hits and the provenances the
/// message's header fields share. Kept from message to message, cleared
/// and not freed, so that they grow a few times a thread, not a few
/// times a message; the URLs and hits are copied out at their size, or
/// given away when larger than what is kept (the hits when the list
/// they go to is empty, as it is for a message scanned alone).
#[derive(Default)]
struct Scratch {
    urls: String,
    hits: Vec<Hit>,
    fields: SharedFields,
}

/// The provenances shared by the hits of the fields of one name in one
/// header, each listed with its key (part, name and decoding), the keys
/// written one after another into one buffer.
#[derive(Default)]
struct SharedFields {
    keys: String,
    list: Vec<(std::ops::Range<usize>, Arc<Provenance>)>,
}

impl SharedFields {
    fn clear(&mut self) {
        self.keys.clear();
        self.list.clear();
    }
}

/// The most bytes of URLs (and of field keys) and the most hits
/// [`Scratch`] keeps room for.
const SCRATCH_BYTES: usize = 64 << 10;
const SCRATCH_HITS: usize = 1024;

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> =
        std::cell::RefCell::new(Scratch::default());
}

/// The hits of [`message_hits`], their URLs pending in `urls`.
fn collect_hits(
    ex: &Finder,
    cfg: &MailConfig,
    msg: &Message,
    urls: &mut String,
    out: &mut Vec<Hit>,
    fields: &mut SharedFields,
) -> Vec<String> {
    let lines = Lines::new(msg);
    let default_base = ex.base();
    let first = out.len();
    let place = |hit: &mut Hit, raw_start: usize, raw_end: usize| {
        hit.start = msg.input_offset(raw_start);
        hit.end = msg.input_offset(raw_end.max(raw_start));
        if cfg.line_numbers {
            (hit.line, hit.column) = lines.position(raw_start);
        }
    };
    if msg.continuation || msg.junk {
        // The tail of a message too long to parse, or bytes of a web
        // archive that are not a record: plain text.
        let warnings = vec![if msg.junk {
            "not a WARC record: scanned as plain text".to_string()
        } else {
            too_long(cfg)
        }];
        let prov = Arc::new(Provenance {
            message: msg.number,
            warnings: warnings.clone(),
            ..Provenance::default()
        });
        ex.find_in_buffer(&msg.raw, default_base, urls, out, |c, hit| {
            place(hit, c.start, c.end);
            hit.provenance = Some(prov.clone());
            true
        });
        return warnings;
    }
    let opts = mime::MimeOptions {
        attachments: cfg.attachments,
        skip_fields_without_scheme: ex.colon_triggers_only(),
        web: msg.record,
        ..mime::MimeOptions::default()
    };
    // Each piece is scanned as soon as it is decoded and then dropped:
    // a message holds one piece at a time, and its hits. The fields of
    // one name in one header share a provenance.
    // Each shared provenance is listed with its key (part, name and
    // decoding), written into one buffer: no allocation for a field
    // already met. A message has few fields with hits: the list is read
    // one by one, not hashed; past `SHARED_FIELDS` a field's hits get a
    // provenance of their own (equal, not shared).
    const SHARED_FIELDS: usize = 32;
    fields.clear();
    let SharedFields { keys, list } = fields;
    let mut each = |parsed: &mime::Parsed, piece: mime::PieceRef<'_>| {
        let base = piece.base.or(default_base);
        // The warnings are given to the hits once the walk is over.
        let new_prov = || Provenance {
            message: msg.number,
            message_id: parsed.message_id.clone(),
            part: piece.part.to_string(),
            header: None,
            attribute: None,
            anchor_text: None,
            source: Source::Text,
            decoded: piece.decoded,
            warnings: Vec::new(),
            record: parsed.record.clone(),
        };
        if !piece.html {
            let field = piece.header.as_deref();
            // Made for the piece's first hit: most pieces have none.
            let mut prov: Option<Arc<Provenance>> = None;
            let mut provenance = || match field {
                Some(name) => {
                    // A part path and a field name hold no line break.
                    let at = keys.len();
                    keys.push_str(&piece.part);
                    keys.push('\n');
                    keys.push_str(name);
                    keys.push('\n');
                    keys.push(char::from(b'0' + piece.decoded as u8));
                    let key = at..keys.len();
                    let found = list
                        .iter()
                        .find(|(k, _)| keys[k.clone()] == keys[key.clone()]);
                    match found {
                        Some((_, p)) => {
                            let p = p.clone();
                            keys.truncate(at);
                            p
                        }
                        None => {
                            let p = Arc::new(Provenance {
                                source: Source::Header,
                                header: Some(name.to_string()),
                                ..new_prov()
                            });
                            if list.len() < SHARED_FIELDS {
                                list.push((key, p.clone()));
                            } else {
                                keys.truncate(at);
                            }
                            p
                        }
                    }
                }
                None => Arc::new(new_prov()),
            };
            let text = piece.text.as_bytes();
            ex.find_in_buffer(text, base, urls, out, |c, hit| {
                if let (Some(name), Some((kind, _))) = (field, &c.abbrev)
                    && !header_gives(name, *kind)
                {
                    return false;
                }
                let (s, e) = (
                    piece.map.raw_offset(c.start),
                    piece.map.raw_offset(c.end),
                );
                place(hit, s, e);
                let p = prov.get_or_insert_with(&mut provenance);
                hit.provenance = Some(p.clone());
                true
            });
        } else {
            // HTML `<base href>` comes first (Appendix D), resolved
            // against the part's base if it is relative. The first
            // `<base>` counts for links before it too: a document
            // found to have one is read again with it (few have one).
            let mut doc_base: Option<String> = None;
            let (mark, urls_mark) = (out.len(), urls.len());
            loop {
                let html_base = doc_base.as_deref().and_then(|b| {
                    let uri = crate::validate::Uri::parse(b);
                    if uri.is_absolute() {
                        Some(b.to_string())
                    } else {
                        crate::resolve::resolve_str(base?, b).ok()
                    }
                });
                let base = html_base.as_deref().or(base);
                let mut prov = new_prov();
                // One provenance for each element and attribute, shared
                // by their hits: the first few pairs in a list, compared
                // in turn (a document has few, and hashing a key costs
                // more than comparing it with them), the others hashed.
                const LISTED: usize = 8;
                let mut listed: Vec<(String, Arc<Provenance>)> = Vec::new();
                let mut attrs: HashMap<String, Arc<Provenance>> =
                    HashMap::new();
                // The key is written into one buffer: no allocation for
                // a pair already met.
                let mut key = String::new();
                let mut attr = |element: &str, name: &str| {
                    key.clear();
                    key.push_str(element);
                    key.push(' ');
                    key.push_str(name);
                    if let Some((_, p)) =
                        listed.iter().find(|(k, _)| *k == key)
                    {
                        return p.clone();
                    }
                    if let Some(p) = attrs.get(key.as_str()) {
                        return p.clone();
                    }
                    let p = Arc::new(Provenance {
                        source: Source::HtmlAttr,
                        attribute: Some(key.clone()),
                        ..prov.clone()
                    });
                    if listed.len() < LISTED {
                        listed.push((key.clone(), p.clone()));
                    } else {
                        attrs.insert(key.clone(), p.clone());
                    }
                    p
                };
                // The `a href` hits: where each is in `out`, and where
                // its href is in the HTML (where its anchor's text is
                // found again).
                let mut a_hrefs: Vec<(usize, usize)> = Vec::new();
                // Each tag's links and attribute values as it is read.
                let mut tag =
                    |links: &[html::Link], texts: &[html::AttrText]| {
                        for link in links {
                            if link.value.is_empty() {
                                continue;
                            }
                            let Some(mut hit) = ex.build_hit_in(
                                &link.value,
                                base,
                                Context::Href,
                                urls,
                            ) else {
                                continue;
                            };
                            let s = piece.map.raw_offset(link.offset);
                            let e = piece
                                .map
                                .raw_offset(link.offset + link.value.len());
                            place(&mut hit, s, e);
                            hit.provenance =
                                Some(attr(&link.element, link.attr));
                            if link.attr == "href"
                                && link.element.eq_ignore_ascii_case("a")
                            {
                                a_hrefs.push((out.len(), link.offset));
                            }
                            out.push(hit);
                        }
                        // Every attribute value is text too, for URLs with a
                        // scheme; a URL found where a URL attribute's link
                        // starts is that link, not a second hit.
                        for value in texts {
                            let mut prov = None;
                            let text = value.text.as_bytes();
                            ex.find_in_buffer_where(
                                text,
                                base,
                                urls,
                                out,
                                |c| {
                                    let h = value.html_offset(c.start);
                                    c.abbrev.is_none()
                                        && links
                                            .binary_search_by_key(&h, |l| {
                                                l.offset
                                            })
                                            .is_err()
                                },
                                |c, hit| {
                                    let h = value.html_offset(c.start);
                                    let s = piece.map.raw_offset(h);
                                    let e = piece
                                        .map
                                        .raw_offset(value.html_offset(c.end));
                                    place(hit, s, e);
                                    let p = prov.get_or_insert_with(|| {
                                        attr(&value.element, &value.attr)
                                    });
                                    hit.provenance = Some(p.clone());
                                    true
                                },
                            );
                        }
                    };
                let doc = html::scan_html_for(
                    &piece.text,
                    &mut tag,
                    cfg.anchor_texts,
                    ex.colon_test(),
                );
                if doc_base.is_none() && doc.base.is_some() {
                    out.truncate(mark);
                    urls.truncate(urls_mark);
                    doc_base = doc.base;
                    continue;
                }
                with_anchor_texts(out, &a_hrefs, &doc.anchors);
                prov.source = Source::HtmlText;
                let prov = Arc::new(prov);
                ex.find_in_buffer(
                    doc.text.as_bytes(),
                    base,
                    urls,
                    out,
                    |c, hit| {
                        let s = piece.map.raw_offset(doc.html_offset(c.start));
                        let e = piece.map.raw_offset(doc.html_offset(c.end));
                        place(hit, s, e);
                        hit.provenance = Some(prov.clone());
                        true
                    },
                );
                // Scripts and style sheets, as written (HTML 13.2.5.3,
                // 13.2.5.4: no character references, no tags inside).
                let html = piece.text.as_bytes();
                for &(from, to) in &doc.raw_texts {
                    let Some(text) = html.get(from..to) else { continue };
                    ex.find_in_buffer(text, base, urls, out, |c, hit| {
                        let s = piece.map.raw_offset(from + c.start);
                        let e = piece.map.raw_offset(from + c.end);
                        place(hit, s, e);
                        hit.provenance = Some(prov.clone());
                        true
                    });
                }
                break;
            }
        }
    };
    let parsed = mime::walk_message(&msg.raw, &opts, &mut each);
    // "message: x" reads "message 3: x" once the number is given.
    let mut warnings: Vec<String> = parsed
        .warnings
        .into_iter()
        .map(|w| w.strip_prefix("message: ").map_or(w.clone(), str::to_string))
        .collect();
    if msg.truncated {
        warnings.push(too_long(cfg));
    }
    let hits = &mut out[first..];
    if !warnings.is_empty() {
        // Every hit of the message carries all its warnings: one new
        // provenance for each one the pieces made.
        // (The old one is kept in the map, so no address is reused.)
        type Pair = (Arc<Provenance>, Arc<Provenance>);
        let mut with: HashMap<*const Provenance, Pair> = HashMap::new();
        for hit in hits.iter_mut() {
            let Some(old) = hit.provenance.take() else { continue };
            let (_, new) =
                with.entry(Arc::as_ptr(&old)).or_insert_with(|| {
                    let warnings = warnings.clone();
                    let new = Provenance { warnings, ..(*old).clone() };
                    (old, Arc::new(new))
                });
            hit.provenance = Some(new.clone());
        }
    }
    // In the order of their positions in the input (which follow the
    // raw offsets), pieces in order where two hits start at one byte.
    hits.sort_by_key(|hit| hit.start);
    warnings
}

fn too_long(cfg: &MailConfig) -> String {
    format!(
        "message longer than {} bytes: the rest was scanned as plain text",
        cfg.max_message
    )
}

/// Give each `a href` hit the visible text of its anchor, in a
/// provenance of its own: `a_hrefs` says where each such hit is in
/// `hits` and where its href starts in the HTML, as the anchors say too
/// (in the same order: both in document order).
fn with_anchor_texts(
    hits: &mut [Hit],
    a_hrefs: &[(usize, usize)],
    anchors: &[html::Anchor],
) {
    let mut anchors = anchors.iter().peekable();
    for &(i, href) in a_hrefs {
        while anchors.next_if(|a| a.href_offset < href).is_some() {}
        let Some(a) = anchors.next_if(|a| a.href_offset == href) else {
            continue;
        };
        let Some(hit) = hits.get_mut(i) else { continue };
        let Some(p) = hit.provenance.as_ref() else { continue };
        if a.text.is_empty() {
            continue;
        }
        hit.provenance = Some(Arc::new(Provenance {
            anchor_text: Some(a.text.clone()),
            ..(**p).clone()
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_formats() {
        assert_eq!(
            detect(b"From a@b Thu Jan  1 00:00:00 1970\n"),
            InputFormat::Mbox
        );
        assert_eq!(
            detect(b"Return-Path: <a@b>\nSubject: x\n\nbody"),
            InputFormat::Eml
        );
        assert_eq!(
            detect(b"Path: a!b\nNewsgroups: comp.x\nSubject: y\n\n"),
            InputFormat::News
        );
        assert_eq!(detect(b"From: a@b\r\nTo: c@d\r\n\r\n"), InputFormat::Eml);
        assert_eq!(detect(b"Note: 10:30\nhello\n"), InputFormat::Text);
        assert_eq!(
            detect(b"2015-10-18 18:06:26,029 INFO x: y\n"),
            InputFormat::Text
        );
        assert_eq!(detect(b"hello world\n"), InputFormat::Text);
        assert_eq!(
            detect(b"From the README: http://x.example/\n"),
            InputFormat::Text
        );
        assert_eq!(detect(b""), InputFormat::Text);
    }

    /// A message with more hits, and more bytes of URLs, than a thread's
    /// scratch keeps room for gives those buffers to its hits instead of
    /// copying them (a copy would hold them twice at once); a small one
    /// leaves them to the next message.
    #[test]
    fn a_large_message_gives_its_buffers_away() {
        use std::io::Cursor;
        let finder = Finder {
            rules: crate::scan::ScanRules {
                delimit: crate::delimit::Rules {
                    max_len: 8192,
                    opaque: None,
                    refang: false,
                },
                abbrev: crate::abbrev::Opts::NONE,
                search: None,
                encoded: false,
            },
            base: None,
            schemes: None,
            refang: false,
        };
        let cfg = MailConfig::default();
        let head = "From a@b Thu Jan  1 00:00:00 1970\nSubject: s\n\n";
        let url = "http://example.com/".to_string() + &"p".repeat(80) + "\n";
        let message = |body: String| {
            let text = format!("{head}{body}");
            let mut records =
                mbox::mbox_records(Box::new(Cursor::new(text)), 16 << 20);
            records.next_message().unwrap().unwrap()
        };
        let kept = || {
            SCRATCH.with(|cell| {
                let s = cell.borrow();
                (s.urls.capacity() > 0, s.hits.capacity() > 0)
            })
        };
        for (n, given) in [(10, false), (SCRATCH_HITS + 1, true)] {
            let mut out = Vec::new();
            message_hits(&finder, &cfg, &message(url.repeat(n)), &mut out);
            assert_eq!(out.len(), n);
            assert_eq!(out[n - 1].url(), url.trim_end());
            assert_eq!(n * url.len() > SCRATCH_BYTES, given);
            assert_eq!(kept(), (!given, !given), "{n} hits");
        }
        // Into a list that holds hits already, the hits are appended (the
        // URLs are still given away): the list keeps its own.
        let mut out = Vec::new();
        let first = message("http://first.example/\n".to_string());
        message_hits(&finder, &cfg, &first, &mut out);
        let large = message(url.repeat(SCRATCH_HITS + 1));
        message_hits(&finder, &cfg, &large, &mut out);
        assert_eq!(out.len(), SCRATCH_HITS + 2);
        assert_eq!(out[0].url(), "http://first.example/");
        assert_eq!(out[SCRATCH_HITS + 1].url(), url.trim_end());
        assert_eq!(kept(), (false, true));
    }

    /// The buffers a thread keeps from message to message carry nothing
    /// over: each message's header hits have their own provenance and
    /// URLs, however many messages one thread read before.
    #[test]
    fn messages_in_turn_share_no_provenance() {
        use crate::{Extractor, InputFormat};
        let extractor =
            Extractor::builder().format(InputFormat::Mbox).build().unwrap();
        let mut mbox = Vec::new();
        for k in 1..=3 {
            mbox.extend_from_slice(
                format!(
                    "From a@b Thu Jan  1 00:00:00 1970\n\
                     List-Post: <mailto:list{k}@example.com>\n\
                     Subject: s\n\nhttp://x{k}.example/\n\n"
                )
                .as_bytes(),
            );
        }
        for _ in 0..2 {
            let hits = extractor.find(&mbox);
            let got: Vec<(u64, String, Option<String>)> = hits
                .iter()
                .map(|h| {
                    let p = h.provenance().unwrap();
                    (p.message, h.url().to_string(), p.header.clone())
                })
                .collect();
            let want: Vec<(u64, String, Option<String>)> = (1..=3u64)
                .flat_map(|k| {
                    [
                        (
                            k,
                            format!("mailto:list{k}@example.com"),
                            Some("List-Post".to_string()),
                        ),
                        (k, format!("http://x{k}.example/"), None),
                    ]
                })
                .collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn an_x_field_first_needs_a_field_of_a_message_after_it() {
        let cases: [(&[u8], InputFormat); 10] = [
            // A mail reader's status fields before the stored header
            // (SpamAssassin's public corpus, spam-2/00716).
            (
                b"X-Status: \nX-Keywords: \nX-Persona: <a>\nReturn-Path: <a@b>\nSubject: s\n\nbody",
                InputFormat::Eml,
            ),
            (
                b"X-Status: \r\nPath: a!b\r\nNewsgroups: comp.x\r\n\r\n",
                InputFormat::News,
            ),
            // nmh's annotations (SpamAssassin's test message
            // `nice/base64.txt`).
            (
                b"Replied: Fri, 22 Dec 2000 13:22:17 +0000\nReplied: a@b\nReturn-Path: a@b\n\n",
                InputFormat::Eml,
            ),
            (b"Forwarded: a\nhello\n", InputFormat::Text),
            // An HTTP response's header fields without its status line.
            (
                b"X-Powered-By: Express\nDate: Mon\nContent-Type: text/html\n\n",
                InputFormat::Text,
            ),
            (b"Forwarded: for=a\nDate: Mon\n\n", InputFormat::Text),
            // No field of a message after it, or text after it.
            (b"X-Foo: 1\nBar: 2\n\nbody", InputFormat::Text),
            (b"X-Foo: 1\n", InputFormat::Text),
            (b"X-Note: 1\nhello\nSubject: s\n", InputFormat::Text),
            // Not an `X-` field.
            (b"Xerox: 1\nSubject: s\n\n", InputFormat::Text),
        ];
        for (head, want) in cases {
            assert_eq!(
                detect(head),
                want,
                "{}",
                String::from_utf8_lossy(head)
            );
        }
    }
}
