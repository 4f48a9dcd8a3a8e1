//! MIME decoding of one RFC 5322 message into UTF-8 pieces to scan.
//!
//! [`parse_message`] takes the raw bytes of one message (an mbox
//! separator line already removed; CRLF or LF line ends) and returns the
//! text the URL scanner should look at, as [`Piece`]s: one per header
//! field (but `Content-Class`, whose value is a class name; with
//! [`MimeOptions::skip_fields_without_scheme`], only the fields whose
//! value may hold a `scheme:`), and one per text part of the body
//! (`text/plain` and other `text/*` as [`PieceKind::Text`], `text/html` as
//! [`PieceKind::Html`]). Each piece has its transfer encoding
//! (quoted-printable, base64) undone, its charset converted to UTF-8,
//! `format=flowed` lines unwrapped, and an [`OffsetMap`] from offsets in
//! its text back to byte offsets in the raw message. The preamble and
//! the epilogue of a multipart, which RFC 2046 5.1.1 has MIME agents
//! ignore, are text people read (a mailing list's footer after the close
//! delimiter): each is a [`PieceKind::Text`] piece too.
//!
//! Every part also gets the base URI in effect for it
//! (draft-fielding-url-syntax-05 section 5.1): its own `Content-Base`,
//! else its `Content-Location` (resolved against the enclosing base when
//! relative), else the base of the enclosing multipart or message.
//!
//! Bad input never panics and never stops the walk: what can be decoded
//! is decoded, the rest is taken as it is, and [`Parsed::warnings`] says
//! what went wrong. Work is linear in the input times the nesting depth,
//! which is bounded by [`MimeOptions::max_depth`].

mod flowed;
mod http;
mod multipart;
mod params;
mod transfer;
mod walker;
mod words;
mod yenc;

pub use super::offsets::OffsetMap;
pub use walker::{
    Decoded, MimeOptions, Parsed, Piece, PieceKind, parse_message,
};
pub(crate) use walker::{PieceRef, walk_message};

#[cfg(test)]
mod tests {
    use super::flowed::*;
    use super::params::*;
    use super::transfer::*;
    use super::walker::*;
    use super::words::*;
    use super::*;
    use crate::mail::charset::to_utf8;
    use memchr::memmem;

    fn parse(raw: &[u8]) -> Parsed {
        parse_message(raw, &MimeOptions::default())
    }

    fn bodies(p: &Parsed) -> Vec<&Piece> {
        p.pieces
            .iter()
            .filter(|x| !matches!(x.source, PieceKind::Header(_)))
            .collect()
    }

    fn paths(p: &Parsed) -> Vec<String> {
        bodies(p).iter().map(|x| x.part.clone()).collect()
    }

    fn pos(raw: &[u8], needle: &str) -> usize {
        memmem::find(raw, needle.as_bytes()).expect(needle)
    }

    const NESTED: &str = "From: a@example.com\r\n\
        Content-Type: multipart/mixed; boundary=\"outer\"\r\n\
        Content-Base: http://base.example/dir/page\r\n\
        \r\n\
        preamble http://preamble.example/\r\n\
        --outer\r\n\
        Content-Type: text/plain\r\n\
        \r\n\
        one http://one.example/\r\n\
        --outer  \r\n\
        Content-Type: multipart/alternative; boundary=inner\r\n\
        Content-Location: sub/\r\n\
        \r\n\
        --inner\r\n\
        \r\n\
        two-one\r\n\
        --inner\r\n\
        Content-Type: text/html; charset=utf-8\r\n\
        Content-Location: http://other.example/x/y.html\r\n\
        \r\n\
        <a href=\"z\">two-two</a>\r\n\
        --inner--\r\n\
        --outer\r\n\
        Content-Type: image/png\r\n\
        Content-Transfer-Encoding: base64\r\n\
        \r\n\
        aGVsbG8gaHR0cDovL2ltZy5leGFtcGxlLw==\r\n\
        --outer--\r\n\
        epilogue http://epilogue.example/\r\n";

    #[test]
    fn nested_part_paths_and_bases() {
        let p = parse(NESTED.as_bytes());
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        assert_eq!(paths(&p), ["preamble", "1", "2.1", "2.2", "epilogue"]);
        let all = bodies(&p);
        let b = &all[1..4];
        assert_eq!(b[0].text, "one http://one.example/");
        assert_eq!(b[1].text, "two-one");
        assert_eq!(b[1].content_type, "text/plain");
        assert_eq!(b[2].source, PieceKind::Html);
        assert_eq!(b[0].base.as_deref(), Some("http://base.example/dir/page"));
        // Relative Content-Location resolved against the enclosing base
        // and inherited by the children.
        assert_eq!(b[1].base.as_deref(), Some("http://base.example/dir/sub/"));
        // An absolute Content-Location wins over the enclosing base.
        assert_eq!(
            b[2].base.as_deref(),
            Some("http://other.example/x/y.html")
        );
        // The image is not scanned; the preamble and the epilogue are
        // text, mapped to the raw message.
        let raw = NESTED.as_bytes();
        let (pre, epi) = (all[0], all[4]);
        assert_eq!(pre.text, "preamble http://preamble.example/");
        assert_eq!(epi.text, "epilogue http://epilogue.example/\r\n");
        for x in [pre, epi] {
            assert_eq!(x.source, PieceKind::Text);
            assert_eq!(x.decoded, Decoded::None);
            assert_eq!(x.content_type, "text/plain");
            assert_eq!(
                x.base.as_deref(),
                Some("http://base.example/dir/page")
            );
        }
        assert_eq!(pre.map.raw_offset(9), pos(raw, "http://preamble"));
        assert_eq!(epi.map.raw_offset(9), pos(raw, "http://epilogue"));
        assert_eq!(b[0].map.raw_offset(4), pos(raw, "http://one"));
        // The CRLF before a delimiter belongs to the delimiter.
        assert!(!b[2].text.ends_with('\n'));
    }

    #[test]
    fn preamble_and_epilogue_pieces() {
        let raw = b"Content-Type: multipart/mixed; boundary=o\n\n\
            This is a multi-part message in MIME format.\n\
            --o\n\
            Content-Type: multipart/alternative; boundary=i\n\n\
            \n\n--i\n\ninner\n--i--\nfoot http://inner-foot.example/\n\
            --o--\n\
            caf\xe9 http://list.example/info\n";
        let p = parse(raw);
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        // A blank preamble gives no piece.
        assert_eq!(paths(&p), ["preamble", "1.1", "1.epilogue", "epilogue"]);
        let b = bodies(&p);
        assert_eq!(b[0].text, "This is a multi-part message in MIME format.");
        assert_eq!(b[2].text, "foot http://inner-foot.example/");
        assert_eq!(b[2].map.raw_offset(5), pos(raw, "http://inner-foot"));
        // Not UTF-8: windows-1252, offsets exact after the 8-bit byte.
        assert_eq!(b[3].text, "caf\u{e9} http://list.example/info\n");
        assert_eq!(b[3].map.raw_offset(6), pos(raw, "http://list"));
        // For a caller that wants `scheme:` URLs only, text without a
        // colon after a letter is left out.
        let opts = MimeOptions {
            skip_fields_without_scheme: true,
            ..MimeOptions::default()
        };
        let p = parse_message(raw, &opts);
        assert_eq!(paths(&p), ["1.1", "1.epilogue", "epilogue"]);
        // Without a close delimiter there is no epilogue: the last part
        // runs to the end.
        let p = parse(
            b"Content-Type: multipart/mixed; boundary=q\n\n\
            --q\n\nA http://a.example/\n",
        );
        assert_eq!(paths(&p), ["1"]);
    }

    #[test]
    fn attachments_option_scans_images() {
        let opts = MimeOptions { attachments: true, ..MimeOptions::default() };
        let p = parse_message(NESTED.as_bytes(), &opts);
        assert_eq!(
            paths(&p),
            ["preamble", "1", "2.1", "2.2", "3", "epilogue"]
        );
        let img = bodies(&p)[4];
        assert_eq!(img.text, "hello http://img.example/");
        assert_eq!(img.content_type, "image/png");
        assert_eq!(img.decoded, Decoded::Base64);
        let raw = NESTED.as_bytes();
        assert_eq!(img.map.raw_offset(6), pos(raw, "aGVsbG8g"));
    }

    #[test]
    fn message_rfc822_headers_and_base() {
        let raw = b"Subject: outer\n\
            Content-Type: multipart/mixed; boundary=b\n\
            Content-Location: http://a.example/top/\n\
            \n\
            --b\n\
            Content-Type: message/rfc822\n\
            \n\
            Subject: inner: http://inner.example/\n\
            Message-ID: <inner@example>\n\
            Content-Location: deeper/\n\
            \n\
            inner body\n\
            --b--\n";
        let p = parse(raw);
        assert_eq!(p.message_id, None);
        let subj: Vec<&Piece> = p
            .pieces
            .iter()
            .filter(|x| x.source == PieceKind::Header("Subject".into()))
            .collect();
        assert_eq!(subj.len(), 2);
        assert_eq!(
            (subj[0].part.as_str(), subj[0].text.as_str()),
            ("", "outer")
        );
        let subj = &subj[1..];
        assert_eq!(subj[0].part, "1");
        assert_eq!(subj[0].text, "inner: http://inner.example/");
        assert_eq!(
            subj[0].base.as_deref(),
            Some("http://a.example/top/deeper/")
        );
        assert_eq!(subj[0].map.raw_offset(7), pos(raw, "http://inner"));
        let b = bodies(&p);
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].part, "1");
        assert_eq!(b[0].text, "inner body");
        assert_eq!(b[0].base.as_deref(), Some("http://a.example/top/deeper/"));
    }

    #[test]
    fn relative_location_without_base_is_ignored() {
        let raw = b"Content-Location: foo/bar\n\nx\n";
        assert_eq!(bodies(&parse(raw))[0].base, None);
        let raw = b"Content-Base: foo/\nContent-Location: http://l/\n\nx\n";
        let p = parse(raw);
        assert_eq!(bodies(&p)[0].base.as_deref(), Some("http://l/"));
        assert!(
            p.warnings.iter().any(|w| w.contains("relative Content-Base"))
        );
        // Folded Content-Base: whitespace removed (section 5.1.1).
        let raw = b"Content-Base: \"http://a.example/\n b/c\"\n\nx\n";
        let p = parse(raw);
        assert_eq!(
            bodies(&p)[0].base.as_deref(),
            Some("http://a.example/b/c")
        );
    }

    #[test]
    fn qp_decoding_and_map() {
        let body = b"a=3Db http://x.example/lo=\r\nng?q=3D1 =ZZ end=\n";
        let (out, map, clean) = decode_qp(body, 100);
        assert_eq!(out, b"a=b http://x.example/long?q=1 =ZZ end");
        assert!(!clean, "=ZZ is invalid");
        let text = String::from_utf8(out).unwrap();
        let u = text.find("http").unwrap();
        assert_eq!(map.raw_offset(u), 100 + 6);
        let n = text.find("ng?").unwrap();
        assert_eq!(map.raw_offset(n), 100 + pos(body, "ng?"));
        let eq = text.find("=1").unwrap();
        assert_eq!(map.raw_offset(eq), 100 + pos(body, "=3D1"));
        let zz = text.find("=ZZ").unwrap();
        assert_eq!(map.raw_offset(zz), 100 + pos(body, "=ZZ"));
        // Transport padding after a soft break, and `=` at the end.
        let (out, _, clean) = decode_qp(b"ab= \t\r\ncd=", 0);
        assert_eq!(out, b"abcd");
        assert!(clean);
        // Lowercase hex is accepted.
        assert_eq!(decode_qp(b"=c3=a9", 0).0, "é".as_bytes());
    }

    #[test]
    fn qp_guess_needs_unambiguous_evidence() {
        let qp = |s: &str| looks_quoted_printable(s.as_bytes(), None);
        // Written by an encoder: `=3D`, uppercase escapes, soft breaks.
        assert!(qp("<a href=3D\"http://x.example/?b=3D1\">x</a> a=\nb\n"));
        assert!(qp("a=3Db caf=C3=A9 soft=  \r\nbreak"));
        // A lowercase pair, `="`, `=0 `: not an encoder's.
        assert!(!qp("a=3db soft=\nbreak"));
        assert!(!qp("a=3Db soft=\n<a href=\"http://x/\">"));
        assert!(!qp("a=3Db size=0 soft=\nbreak"));
        // Both signs are needed.
        assert!(!qp("a=3Db no soft break\n"));
        assert!(!qp("see http://x.example/?ref=\nnext line\n"));
        // An escape in a URL that would decode to a byte no URL has.
        assert!(!qp("http://c.example/Click?q=DA-BBB x=3Dy soft=\nb\n"));
        // Outside a run escapes decode to anything; a run goes on
        // after a soft break.
        assert!(qp("http://c.example/Click?q=3D1 caf=E9 soft=\nb\n"));
        assert!(!qp("http://x.example/a=3D1&lo=\nng=E9 soft=\nb\n"));
        // Delimiter lines and the part headers after them are not read.
        assert!(qp("------=_Part_1\nContent-Type: text/html; a=\"b\"\n\n\
                    x=3Dy soft=\nbreak\n------=_Part_1--\n"));
    }

    #[test]
    fn base64_lenient() {
        assert_eq!(decode_base64(b"aGVs\r\nbG8=").0, b"hello");
        assert!(decode_base64(b"aGVs\r\nbG8=").1);
        let (out, clean) = decode_base64(b"aGV*sbG8");
        assert_eq!(out, b"hello");
        assert!(!clean);
        let (out, clean) = decode_base64(b"aGVsb");
        assert_eq!(out, b"hel");
        assert!(!clean);
        // Stops at padding.
        assert_eq!(decode_base64(b"YQ==YmM=").0, b"a");
        let raw = b"Content-Transfer-Encoding: base64\n\n!!aHR0cDovL3gv\n";
        let p = parse(raw);
        assert_eq!(bodies(&p)[0].text, "http://x/");
        assert_eq!(
            p.warnings,
            ["message: invalid base64 (decoded what could be)"]
        );
    }

    #[test]
    fn unknown_charset_is_lossy_utf8() {
        let raw = "Content-Type: text/plain; charset=x-foo\n\nsé http://x/\n";
        let p = parse(raw.as_bytes());
        assert_eq!(bodies(&p)[0].text, "sé http://x/\n");
        assert_eq!(
            p.warnings,
            ["message: unknown charset x-foo, read as UTF-8 lossily"]
        );
    }

    #[test]
    fn input_in_warnings_is_cut_and_escaped() {
        let long = format!("\u{202E}{}", "x".repeat(8 << 20));
        let raw = format!(
            "Content-Type: text/plain; charset={long}\n\
             Content-Transfer-Encoding: {long}\n\nhttp://x/\n"
        );
        let p = parse(raw.as_bytes());
        let cut =
            format!("%E2%80%AE{}\u{2026} (8388611 bytes)", "x".repeat(99));
        assert_eq!(
            p.warnings,
            [
                format!(
                    "message: unknown transfer encoding {cut:?}, read as is"
                ),
                format!(
                    "message: unknown charset {cut}, read as UTF-8 lossily"
                ),
            ]
        );
        // In a header's encoded word too (RFC 2047 section 2).
        let raw = format!("Subject: =?{}?q?a?=\n\nx\n", "y".repeat(500));
        let p = parse(raw.as_bytes());
        assert!(p.warnings.iter().all(|w| w.len() < 200), "{:?}", p.warnings);
    }

    #[test]
    fn encoded_words() {
        let mut w = Vec::new();
        let v = b"=?utf-8?q?a?= =?UTF-8?B?Yg==?=\t=?iso-8859-1?Q?=E9_x?= c";
        let (text, map, dec) = decode_words(v, &mut w);
        assert_eq!(text, "abé x c");
        assert_eq!(dec, Decoded::QuotedPrintable);
        assert!(w.is_empty());
        assert_eq!(map.raw_offset(1), pos(v, "=?UTF-8?B"));
        assert_eq!(map.raw_offset(2), pos(v, "=?iso"));
        assert_eq!(map.raw_offset(text.len() - 1), v.len() - 1);
        // A UTF-8 character split across two adjacent words.
        let (text, _, _) =
            decode_words(b"=?utf-8?Q?=C3?= =?utf-8?Q?=A9?=", &mut w);
        assert_eq!(text, "é");
        // Not an encoded word: kept as written.
        let (text, _, _) = decode_words(b"=?x =?utf-8?z?a?= a=?b", &mut w);
        assert_eq!(text, "=?x =?utf-8?z?a?= a=?b");
        // Whitespace between a word and plain text stays.
        let (text, _, _) = decode_words(b"=?utf-8?q?a?= b", &mut w);
        assert_eq!(text, "a b");
        // 8-bit header bytes.
        let (text, _, _) = decode_words(b"caf\xe9: x", &mut w);
        assert_eq!(text, "café: x");
        assert_eq!(w, ["8-bit bytes read as windows-1252"]);
    }

    #[test]
    fn header_unfolding_map() {
        let raw = b"List-Archive: <http://a.example/x\r\n\ty> ,\r\n <mailto:m@x>\r\nTo: b\r\n\r\n";
        let p = parse(raw);
        assert_eq!(p.pieces.len(), 3, "List-Archive, To, the body");
        let h = &p.pieces[0];
        assert_eq!(h.source, PieceKind::Header("List-Archive".into()));
        assert_eq!(h.text, "<http://a.example/x\ty> , <mailto:m@x>");
        let y = h.text.find("\ty").unwrap();
        assert_eq!(h.map.raw_offset(y), pos(raw, "\ty>"));
        let m = h.text.find("<mailto").unwrap();
        assert_eq!(h.map.raw_offset(m), pos(raw, "<mailto"));
        // The empty body is still a piece.
        assert_eq!(bodies(&p)[0].text, "");
    }

    /// The main value read alone is the main value read with the
    /// parameters, on every sequence of up to five pieces of structured
    /// field syntax (quotes, escapes, comments, `;` in each).
    #[test]
    fn main_value_alone_is_the_main_value() {
        let pieces = [
            "Text/Plain",
            ";",
            "\"",
            "\\",
            "(",
            ")",
            " ",
            "a=b",
            "\t",
            "é",
            "x;y",
            "ATTACHMENT",
            "",
        ];
        let mut values = vec![String::new()];
        for _ in 0..5 {
            let mut next = Vec::new();
            for v in &values {
                for p in pieces {
                    let v = format!("{v}{p}");
                    assert_eq!(
                        structured_main(&v),
                        parse_structured(&v).0,
                        "{v:?}"
                    );
                    next.push(v);
                }
            }
            values = next;
        }
    }

    #[test]
    fn rfc2231_parameters() {
        let (main, params) = parse_structured(
            "Text/Plain (comment); charset=\"us-ascii\"; \
             title*0*=us-ascii'en'This%20is%20; title*1*=%2A%2A; \
             title*2=\"isn't it!\"; name*=utf-8''caf%C3%A9.txt; \
             boundary=\"a\\\"b; c\"",
        );
        assert_eq!(main, "text/plain");
        assert_eq!(params.get("charset").as_deref(), Some("us-ascii"));
        assert_eq!(
            params.get("title").as_deref(),
            Some("This is **isn't it!")
        );
        assert_eq!(params.get("name").as_deref(), Some("café.txt"));
        assert_eq!(params.get("boundary").as_deref(), Some("a\"b; c"));
    }

    #[test]
    fn structured_value_with_many_separators() {
        // A real spam's Content-Type holds 7,138 `;` in one 14 KB field;
        // thousands of parameters after them are read up to a limit.
        let mut v = String::from("text/html ");
        v.push_str(&" ;".repeat(50_000));
        v.push_str("; charset=utf-8");
        for i in 0..5_000 {
            v.push_str(&format!("; p{i}=x"));
        }
        let (main, params) = parse_structured(&v);
        assert_eq!(main, "text/html");
        assert_eq!(params.get("charset").as_deref(), Some("utf-8"));
        assert_eq!(params.get("p0").as_deref(), Some("x"));
        assert_eq!(params.list.len(), 1024);
    }

    #[test]
    fn flowed_unwrapping() {
        let input = b"> quoted soft \r\n> more\r\nplain \r\n>not joined\r\n \
            From stuffed \r\nlast\r\n-- \r\nsig\r\n";
        let (out, map) = unflow(input, false);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "> quoted soft more\r\nplain \r\n>not joined\r\n\
             From stuffed last\r\n-- \r\nsig\r\n"
        );
        let m = text.find("more").unwrap();
        assert_eq!(map.raw_offset(m), pos(input, "more"));
        let f = text.find("From").unwrap();
        assert_eq!(map.raw_offset(f), pos(input, "From"));
        // DelSp=yes removes the trailing space: a URL broken there joins.
        let (out, map) = unflow(b"see http://x.example/ab \ncd ok\n", true);
        assert_eq!(out, b"see http://x.example/abcd ok\n");
        assert_eq!(map.raw_offset(23), 25);
        let raw = b"Content-Type: text/plain; format=Flowed; delsp=yes\n\n\
            a http://x/ab \ncd\n";
        let p = parse(raw);
        assert_eq!(bodies(&p)[0].text, "a http://x/abcd\n");
    }

    #[test]
    fn truncated_and_broken_multiparts() {
        // Headers only, no blank line, no final line end.
        let p = parse(b"Subject: a: b\nX-Foo: http://x/");
        assert_eq!(p.pieces.len(), 3);
        assert_eq!(p.pieces[1].text, "http://x/");
        // Missing close delimiter: the last part runs to the end.
        let p = parse(b"Content-Type: multipart/mixed; boundary=q\n\n--q\n\nA\n--q\n\nB http://b/");
        assert_eq!(paths(&p), ["1", "2"]);
        assert_eq!(bodies(&p)[1].text, "B http://b/");
        assert_eq!(
            p.warnings,
            ["message: multipart/mixed has no close delimiter"]
        );
        // A delimiter must start a line.
        let p = parse(b"Content-Type: multipart/mixed; boundary=q\n\nx --q\n");
        assert_eq!(bodies(&p)[0].text, "x --q\n");
        // A header ended by a non-field line.
        let p = parse(b"Subject: x\nnot a header\nbody\n");
        assert_eq!(bodies(&p)[0].text, "not a header\nbody\n");
        assert_eq!(p.warnings.len(), 1);
        // Empty input.
        let p = parse(b"");
        assert_eq!(bodies(&p)[0].text, "");
    }

    #[test]
    fn depth_and_part_limits() {
        let mut raw = String::new();
        for k in 0..40 {
            raw.push_str(&format!(
                "Content-Type: multipart/mixed; boundary=b{k}\n\n--b{k}\n"
            ));
        }
        raw.push_str("\ndeep http://deep/\n");
        let p = parse(raw.as_bytes());
        assert!(p.warnings.iter().any(|w| w.contains("nested too deep")));
        let deep = bodies(&p)[0];
        assert_eq!(deep.part.split('.').count(), 32);
        assert!(deep.text.contains("deep http://deep/"));
        let mut raw =
            String::from("Content-Type: multipart/mixed; boundary=b\n\n");
        for k in 0..50 {
            raw.push_str(&format!("--b\n\npart {k}\n"));
        }
        let opts = MimeOptions { max_parts: 10, ..MimeOptions::default() };
        let p = parse_message(raw.as_bytes(), &opts);
        // The message and 9 parts are walked; the other 41 parts are one
        // text piece, delimiter lines and all.
        let b = bodies(&p);
        assert_eq!(b.len(), 10);
        assert_eq!(b[8].text, "part 8");
        assert_eq!(b[9].part, "rest");
        assert!(b[9].text.starts_with("\npart 9\n--b\n"));
        assert!(b[9].text.ends_with("\npart 49\n"));
        assert_eq!(b[9].map.raw_offset(0), pos(raw.as_bytes(), "\npart 9"));
        assert!(p.warnings.iter().any(|w| w.contains("more than 10")));
        // The limit met inside a nested multipart: the rest of the inner
        // one and then the rest of the outer one are read as text.
        let mut raw = String::from(
            "Content-Type: multipart/mixed; boundary=o\n\n--o\n\
             Content-Type: multipart/mixed; boundary=i\n\n",
        );
        for k in 0..20 {
            raw.push_str(&format!("--i\n\ninner {k}\n"));
        }
        raw.push_str("--i--\n--o\n\nouter http://after/\n--o--\nfooter\n");
        let p = parse_message(raw.as_bytes(), &opts);
        let texts: Vec<(&str, &str)> = bodies(&p)
            .iter()
            .map(|b| (b.part.as_str(), b.text.as_str()))
            .collect();
        assert_eq!(texts.len(), 10, "{texts:?}");
        assert_eq!(texts[7], ("1.8", "inner 7"));
        assert_eq!(texts[8].0, "1.rest");
        assert!(texts[8].1.ends_with("inner 19\n--i--"), "{texts:?}");
        assert_eq!(texts[9].0, "rest");
        assert!(texts[9].1.contains("outer http://after/\n--o--\nfooter"));
    }

    #[test]
    fn offset_map_compose_and_compactness() {
        let body = "x".repeat(1000) + "=\n" + &"y".repeat(1000);
        let (out, map, _) = decode_qp(body.as_bytes(), 10);
        assert_eq!(out.len(), 2000);
        assert_eq!(map.anchor_count(), 2);
        assert_eq!(map.raw_offset(999), 1009);
        assert_eq!(map.raw_offset(1000), 1012);
        // Composition splits the outer run where the inner map breaks.
        let outer = OffsetMap::linear_from(995);
        let composed = outer.then(10, map.clone());
        assert_eq!(composed.raw_offset(0), 1005);
        assert_eq!(composed.raw_offset(5), 1012);
        assert_eq!(OffsetMap::default().raw_offset(7), 7);
        // UTF-16BE in quoted-printable, a soft break inside the unit of
        // `b`: each character maps to the first raw byte of its unit.
        let body = b"=00a=00=\nb=00c";
        let (out, qp, _) = decode_qp(body, 0);
        assert_eq!(out, b"\0a\0b\0c");
        let (text, cs, _) = to_utf8(&out, encoding_rs::UTF_16BE, true);
        assert_eq!(text, "abc");
        let map = cs.then(text.len(), qp.clone());
        let raws: Vec<usize> = (0..=3).map(|t| map.raw_offset(t)).collect();
        assert_eq!(raws, [0, 4, 10, body.len()]);
    }

    #[test]
    fn unchanged_text_keeps_the_inner_map() {
        // Text that is its quoted-printable bytes unchanged (UTF-8): the
        // shortcut of `then` maps every offset as the composition does.
        let pieces =
            ["ab", "=3D", "=E9", "=\n", "=\r\n", "= \n", "\n", "=", "=4"];
        let mut next = crate::testing::xorshift(0x0ff5_e7ed);
        for _ in 0..20_000 {
            let body: String = (0..next() % 24)
                .map(|_| pieces[next() as usize % pieces.len()])
                .collect();
            let (out, qp, _) =
                decode_qp(body.as_bytes(), next() as usize % 50);
            let id = OffsetMap::linear_from(0);
            for len in [out.len(), next() as usize % (out.len() + 1)] {
                let (fast, slow) =
                    (id.then(len, qp.clone()), id.composed(len, &qp));
                for t in 0..=len {
                    let (f, s) = (fast.raw_offset(t), slow.raw_offset(t));
                    assert_eq!(f, s, "{body:?} {len} {t}");
                }
            }
        }
    }

    /// Charset maps composed with quoted-printable maps (`then`) map
    /// every offset as looking the two up in turn does, on random
    /// bodies of escapes, literal bytes (ASCII trail bytes of a pair
    /// among them), soft line breaks and ISO 2022 escapes, in charsets
    /// of pairs, UTF-16, ISO-2022-JP and HZ. The end of the text (a URL
    /// at the end of its text ends there) maps one past the raw bytes of
    /// its last character: where the mid text of the last character
    /// ends, the run of its last mid byte goes on, also when the
    /// character's mid bytes came from runs of different widths (`=96{`,
    /// a Shift_JIS pair whose ASCII second byte is not escaped).
    #[test]
    fn charset_then_quoted_printable_maps_as_in_turn() {
        use crate::mail::charset::{Charset, convert};
        let pieces: [&[u8]; 17] = [
            b"ab",
            b"http://x/",
            b"=3D",
            b"=E9",
            b"=82=A0",
            b"=96{",
            b"=\n",
            b"\n",
            b"=",
            b"\xff",
            b"\xe9",
            b"\x82",
            b"=1B$B",
            b"=1B(B",
            b"=00",
            b"~{",
            b"$\"",
        ];
        let labels: [&[u8]; 12] = [
            b"shift_jis",
            b"euc-jp",
            b"iso-2022-jp",
            b"utf-16le",
            b"utf-16be",
            b"gbk",
            b"gb18030",
            b"big5",
            b"euc-kr",
            b"utf-8",
            b"windows-1252",
            b"hz-gb-2312",
        ];
        let mut next = crate::testing::xorshift(0x5e1f_0ff5_e7e4_d5ed);
        let mut split_ends = 0;
        for _ in 0..100_000 {
            let body: Vec<u8> = (0..next() % 10)
                .flat_map(|_| pieces[next() as usize % pieces.len()].to_vec())
                .collect();
            let label = labels[next() as usize % labels.len()];
            let cs = Charset::for_label(label).unwrap();
            let (mid, qp, _) = decode_qp_in(&body, 0, Some(cs));
            let conv = convert(&mid, cs, true);
            let (text, cs_map) = (&conv.text, &conv.map);
            let len = text.len();
            let map = cs_map.clone().then(len, qp.clone());
            for t in 0..len {
                let want = qp.raw_offset(cs_map.raw_offset(t));
                assert_eq!(map.raw_offset(t), want, "{body:x?} {label:?} {t}");
            }
            // Where the charset's map takes the end to the start of the
            // last character (one left incomplete), so does the
            // composition; elsewhere to where the last mid byte ends.
            let m = cs_map.raw_offset(len);
            let want = if len > 0 && m == cs_map.raw_offset(len - 1) {
                qp.raw_offset(m)
            } else {
                qp.raw_end(m)
            };
            assert_eq!(map.raw_offset(len), want, "{body:x?} {label:?} end");
            split_ends += usize::from(want != qp.raw_offset(m));
        }
        assert!(split_ends > 10, "{split_ends}");
        // The pair 本 (96 7b), its second byte ASCII, at the end of a
        // URL that ends the text: the URL's raw form ends after the `{`.
        let body = b"http://example.jp/=93=FA=96{";
        let cs = Charset::for_label(b"shift_jis").unwrap();
        let (mid, qp, _) = decode_qp_in(body, 0, Some(cs));
        let conv = convert(&mid, cs, true);
        assert_eq!(conv.text, "http://example.jp/\u{65e5}\u{672c}");
        let map = conv.map.then(conv.text.len(), qp);
        assert_eq!(map.raw_offset(conv.text.len()), body.len());
        assert_eq!(map.raw_offset(conv.text.len() - 1), body.len() - 4);
    }

    #[test]
    fn eight_bit_body_without_charset() {
        let p = parse(b"\ncaf\xe9 http://x/\n");
        assert_eq!(bodies(&p)[0].text, "café http://x/\n");
        assert_eq!(bodies(&p)[0].map.raw_offset(6), 6);
        assert_eq!(
            p.warnings,
            ["message: 8-bit text without charset, read as windows-1252"]
        );
        // Quotation marks of windows-1252; UTF-8 read as it is.
        let p = parse(b"\n\x93http://x/\x94\n");
        assert_eq!(bodies(&p)[0].text, "\u{201c}http://x/\u{201d}\n");
        let p = parse("\ncaf\u{e9} http://x/\n".as_bytes());
        assert_eq!(bodies(&p)[0].text, "caf\u{e9} http://x/\n");
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        // The same with an ASCII charset declared.
        let raw = b"Content-Type: text/plain; charset=us-ascii\n\n\xe9\n";
        assert_eq!(bodies(&parse(raw))[0].text, "\u{e9}\n");
    }
}
