//! The MIME module on real messages (tests/data/mime/README.md says where
//! each comes from).

use urlx::mail::mime::{
    Decoded, MimeOptions, Parsed, Piece, PieceKind, parse_message,
};

/// A sample's bytes, without a leading mbox `From ` line.
fn sample(name: &str) -> Vec<u8> {
    let path =
        format!("{}/tests/data/mime/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect(&path);
    if bytes.starts_with(b"From ") {
        let nl = bytes.iter().position(|&c| c == b'\n').unwrap();
        bytes[nl + 1..].to_vec()
    } else {
        bytes
    }
}

fn parse(raw: &[u8]) -> Parsed {
    parse_message(raw, &MimeOptions::default())
}

fn body_pieces(p: &Parsed) -> Vec<&Piece> {
    p.pieces
        .iter()
        .filter(|x| !matches!(x.source, PieceKind::Header(_)))
        .collect()
}

fn header<'a>(p: &'a Parsed, name: &str) -> Option<&'a Piece> {
    p.pieces.iter().find(|x| x.source == PieceKind::Header(name.to_string()))
}

/// Where `needle` starts in `raw`, asserting it occurs.
fn find(raw: &[u8], needle: &[u8]) -> usize {
    raw.windows(needle.len()).position(|w| w == needle).unwrap_or_else(|| {
        panic!("{:?} not in raw", String::from_utf8_lossy(needle))
    })
}

#[test]
fn qp_soft_break_inside_url_nested_parts() {
    let raw = sample("usrp-users-183.eml");
    let p = parse(&raw);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert_eq!(
        p.message_id.as_deref(),
        Some("rEpI0oNgFN3mXYdbiiSi0kvisclmWY4OyuyDj1KM@lists.ettus.com")
    );
    let parts: Vec<(&str, &PieceKind, &str)> = body_pieces(&p)
        .iter()
        .map(|x| (x.part.as_str(), &x.source, x.content_type.as_str()))
        .collect();
    // Both multiparts have a preamble (RFC 2046 5.1.1), read as text.
    assert_eq!(
        parts,
        [
            ("preamble", &PieceKind::Text, "text/plain"),
            ("1.preamble", &PieceKind::Text, "text/plain"),
            ("1.1", &PieceKind::Text, "text/plain"),
            ("1.2", &PieceKind::Html, "text/html"),
            ("2", &PieceKind::Text, "text/plain"),
        ]
    );
    for pre in &body_pieces(&p)[..2] {
        assert_eq!(pre.text, "This is a multi-part message in MIME format.\n");
        assert_eq!(pre.decoded, Decoded::None);
    }
    let url = "https://github.com/EttusResearch/fpga/blob/master/usrp3/lib/\
               rfnoc/blocks/rfnoc_block_fft/rfnoc_block_fft.v";
    for piece in &body_pieces(&p)[2..4] {
        assert_eq!(piece.decoded, Decoded::QuotedPrintable);
        let at = piece.text.find(url).expect("whole URL in decoded text");
        // The first byte maps to the raw `h`, the start of the line
        // `...I was looking here: https://github.=` in the raw message.
        let raw_at = piece.map.raw_offset(at);
        assert_eq!(&raw[raw_at..raw_at + 15], b"https://github.");
    }
    // The plain part's raw `h` is the first occurrence of that text.
    let plain = body_pieces(&p)[2];
    let at = plain.text.find(url).unwrap();
    assert_eq!(plain.map.raw_offset(at), find(&raw, b"https://github.="));
    // A byte after the soft break maps after it: `com/` follows `=\n`.
    let com = at + "https://github.".len();
    let raw_com = plain.map.raw_offset(com);
    assert_eq!(&raw[raw_com - 2..raw_com + 4], b"=\ncom/");
    // `=E2=80=9C` decodes to a quote that maps to its `=`.
    let q = plain.text.find('\u{201c}').unwrap();
    assert_eq!(&raw[plain.map.raw_offset(q)..][..9], b"=E2=80=9C");
    // Every header field is a piece (a caller after `scheme:` URLs only
    // can skip those without a colon).
    let arch = header(&p, "Archived-At").expect("Archived-At piece");
    assert!(arch.text.starts_with("<https://lists.ettus.com/"));
    assert_eq!(&raw[arch.map.raw_offset(1)..][..6], b"https:");
    assert_eq!(arch.part, "");
    assert_eq!(
        header(&p, "Subject").unwrap().text,
        "[USRP-users] Re: RFNoC FFT size > 1024"
    );
    assert!(header(&p, "To").is_some());
}

#[test]
fn epilogue_footer_piece_maps_to_raw() {
    // The Mailman footer after the close delimiter of a multipart/signed
    // message: the epilogue (RFC 2046 5.1.1), a text piece of its own.
    let raw = sample("sa-easyham-00014-epilogue.eml");
    let p = parse(&raw);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let parts: Vec<&str> =
        body_pieces(&p).iter().map(|x| x.part.as_str()).collect();
    // A blank preamble gives no piece; the signature part is
    // ASCII-armored OpenPGP (RFC 3156 5), read as text.
    assert_eq!(parts, ["1", "2", "epilogue"]);
    let epi = body_pieces(&p)[2];
    assert_eq!(epi.source, PieceKind::Text);
    assert_eq!(epi.content_type, "text/plain");
    let url = "https://listman.redhat.com/mailman/listinfo/exmh-workers";
    assert_eq!(urls_map_back(&raw, epi, url, url.as_bytes()), 1);
    assert!(epi.text.contains("Exmh-workers mailing list"));
}

#[test]
fn qp_equals_3d_and_soft_break_in_html_href() {
    let raw = sample("sa-spam1-00139.eml");
    let p = parse(&raw);
    let html = body_pieces(&p)[0];
    assert_eq!(html.source, PieceKind::Html);
    assert_eq!(html.part, "");
    let url = "http://psychicrevenue.com/cgi-bin/refer.cgi?pws01014&site=pw";
    let at = html.text.find(url).expect("decoded URL");
    let raw_at = html.map.raw_offset(at);
    assert_eq!(&raw[raw_at..raw_at + 7], b"http://");
    // `=` of the query comes from the raw `=3D`.
    let eq = at + url.find("site=").unwrap() + 4;
    assert_eq!(&raw[html.map.raw_offset(eq)..][..3], b"=3D");
    assert!(!html.text.contains("=3D"));
}

#[test]
fn content_base_and_location_iso_8859_1_header_word() {
    let raw = sample("sa-spam2-00756.eml");
    let p = parse(&raw);
    let all = body_pieces(&p);
    let parts: Vec<&str> = all.iter().map(|x| x.part.as_str()).collect();
    assert_eq!(parts, ["preamble", "1", "2", "epilogue"]);
    let b = &all[1..3];
    assert_eq!(b[0].base, None);
    assert_eq!(b[1].base.as_deref(), Some("http://www.rebackee.com/cursos2/"));
    // The list's note after the close delimiter is the epilogue.
    assert!(all[3].text.starts_with("\nTo unsubscribe: send mail to"));
    // Content-Base and Content-Location are header pieces of part 2.
    let cb = header(&p, "Content-Base").unwrap();
    assert_eq!(cb.part, "2");
    // RFC 2047 in From: `M=E9xico`, ISO-8859-1.
    assert_eq!(
        header(&p, "From").unwrap().text,
        "Quality Training de México <villahermosa@rebackee.com>"
    );
}

#[test]
fn flowed_windows_1252_is_unwrapped() {
    let raw = sample("sa-easyham-00914.eml");
    let p = parse(&raw);
    let t = body_pieces(&p)[0];
    assert_eq!(t.content_type, "text/plain");
    let joined = "Because I believe some of today\u{2019}s most profound \
                  problems with networked applications are caused by \
                  centralization.";
    assert!(t.text.contains(joined), "{}", &t.text[..300]);
    let at = t.text.find("centralization.\n").unwrap();
    assert_eq!(t.map.raw_offset(at), find(&raw, b"centralization.\n"));
    // The right single quote is one raw byte 0x92.
    let q = t.text.find('\u{2019}').unwrap();
    assert_eq!(raw[t.map.raw_offset(q)], 0x92);
}

#[test]
fn iso_8859_1_8bit_offsets_after_umlauts() {
    let raw = sample("sa-easyham-01199.eml");
    let p = parse(&raw);
    let t = body_pieces(&p)[0];
    assert!(t.text.contains("dafür, daß es leere Dateisysteme zurückläßt"));
    let url = "http://lists.freshrpms.net/mailman/listinfo/rpm-list";
    let at = t.text.find(url).unwrap();
    assert_eq!(t.map.raw_offset(at), find(&raw, url.as_bytes()));
    let u = t.text.find('ü').unwrap();
    assert_eq!(raw[t.map.raw_offset(u)], 0xfc);
}

#[test]
fn base64_big5_html() {
    let raw = sample("sa-big5-base64.eml");
    let p = parse(&raw);
    let h = body_pieces(&p)[0];
    assert_eq!(h.source, PieceKind::Html);
    assert_eq!(h.decoded, Decoded::Base64);
    assert!(h.text.contains(
        "src=\"http://www.geocities.com/Nashville/Rodeo/9073/main.jpg\""
    ));
    assert!(h.text.contains("<title>"));
    // Every offset maps to the first body line.
    let first = find(&raw, b"PCEtLSBzYXZlZCBmcm9t");
    assert_eq!(h.map.raw_offset(0), first);
    assert_eq!(h.map.raw_offset(h.text.len() / 2), first);
    // The 8-bit Big5 Subject is read as windows-1252, with a warning.
    assert!(
        p.warnings.iter().any(|w| w.contains("windows-1252")),
        "{:?}",
        p.warnings
    );
    let lu = header(&p, "List-Unsubscribe").unwrap();
    assert_eq!(
        lu.text,
        "<http://www.softwareliberty.org/mailman/listinfo/slat-talk>,\t\
         <mailto:slat-talk-request@softwareliberty.org?subject=unsubscribe>"
    );
    // Across the fold: `<mailto` maps to its raw position.
    let m = lu.text.find("<mailto").unwrap();
    assert_eq!(
        lu.map.raw_offset(m),
        find(
            &raw,
            b"<mailto:slat-talk-request@softwareliberty.org?subject=unsub"
        )
    );
}

#[test]
fn iso_2022_jp_text_and_subject() {
    let raw = sample("sa-spam1-00325-iso-2022-jp.eml");
    let p = parse(&raw);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let t = body_pieces(&p)[0];
    assert_eq!(t.content_type, "text/plain");
    assert!(!t.text.contains('\u{1b}'), "escape sequences decoded");
    assert!(t.text.contains("\u{6c0f}\u{540d}:Vip-mail"), "{}", t.text);
    assert!(t.text.contains("\nhttp://www.vip-jp.net/?sid=2\n"));
    // The body's first character `<` is its first byte; the next one
    // is the first byte after `ESC $ B` (the JIS X 0208 pair `;v`).
    let first = find(&raw, b"<\x1b$B;v6H");
    assert_eq!(t.map.raw_offset(0), first);
    assert_eq!(t.map.raw_offset(1), first + 4);
    // The B-encoded ISO-2022-JP subject (RFC 1468, RFC 2047).
    assert_eq!(
        header(&p, "Subject").unwrap().text,
        "未承諾広告※灼熱！出会いの広場"
    );
}

#[test]
fn mislabeled_iso_2022_jp_warns() {
    // The body is really EUC-JP bytes under an iso-2022-jp label.
    let raw = sample("sa-iso-2022-jp.eml");
    let p = parse(&raw);
    let t = body_pieces(&p)[0];
    assert!(t.text.contains("http://cvs.netlab.co.jp/cgi-bin/cvsweb/ruby/"));
    assert!(
        p.warnings.iter().any(|w| w.contains("not valid ISO-2022-JP")),
        "{:?}",
        p.warnings
    );
}

#[test]
fn gb2312_text_and_subject() {
    let raw = sample("sa-gb2312.eml");
    let p = parse(&raw);
    let t = body_pieces(&p)[0];
    assert!(t.text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
    assert!(!t.text.contains('\u{fffd}'));
    // `RE: =?GB2312?Q?...?=` decodes to RE: 装硬碟问题 (has a ':').
    let s = header(&p, "Subject").unwrap();
    assert_eq!(s.text, "RE: 装硬碟问题");
    assert_eq!(s.decoded, Decoded::QuotedPrintable);
    let at = s.text.find('装').unwrap();
    assert_eq!(&raw[s.map.raw_offset(at)..][..9], b"=?GB2312?");
}

#[test]
fn rfc2047_subject_latin1() {
    let raw = sample("sa-mime-subject.eml");
    let p = parse(&raw);
    let s = header(&p, "Subject").unwrap();
    assert_eq!(s.text, "[Demuseum] Re: Multimedia für Preussen");
    assert_eq!(s.map.raw_offset(0), find(&raw, b"[Demuseum]"));
}

#[test]
fn rfc2231_continuations_do_not_disturb() {
    let raw = sample("cpython-msg_29.eml");
    let p = parse(&raw);
    let b = body_pieces(&p);
    assert_eq!(b.len(), 1);
    assert!(b[0].text.contains("Do you like this message?"));
    assert_eq!(
        p.message_id.as_deref(),
        Some("15090.61304.110929.45684@aaa.zzz.org")
    );
}

#[test]
fn digest_children_default_to_rfc822() {
    let raw = sample("cpython-msg_30.eml");
    let p = parse(&raw);
    let b = body_pieces(&p);
    let parts: Vec<&str> = b.iter().map(|x| x.part.as_str()).collect();
    assert_eq!(parts, ["1", "2"]);
    assert!(b[0].text.contains("message 1"));
    assert!(b[1].text.contains("message 2"));
}

#[test]
fn boundary_never_found_reads_body_as_text() {
    let raw = sample("cpython-msg_31.eml");
    let p = parse(&raw);
    let b = body_pieces(&p);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].part, "");
    assert!(b[0].text.contains("message 2"));
    assert!(p.warnings.iter().any(|w| w.contains("never found")));
}

#[test]
fn multipart_without_boundary() {
    let raw = sample("cpython-msg_41.eml");
    let p = parse(&raw);
    assert!(body_pieces(&p)[0].text.contains("Blah blah blah"));
    assert!(p.warnings.iter().any(|w| w.contains("without boundary")));
}

#[test]
fn message_rfc822_part() {
    let raw = sample("cpython-msg_42.eml");
    let p = parse(&raw);
    // A preamble, part 1 text, part 2 an embedded message whose
    // multipart is empty.
    let b = body_pieces(&p);
    assert_eq!(b[0].part, "preamble");
    assert_eq!(b[0].text, "This is a MIME-encapsulated message\n");
    let b = &b[1..];
    assert_eq!(b[0].part, "1");
    assert!(b[0].text.contains("Stuff"));
    assert!(p.warnings.iter().all(|w| !w.contains("part 1")));
}

#[test]
fn malformed_report_no_panic() {
    let raw = sample("spamscope-malformed_2.eml");
    let p = parse(&raw);
    let b = body_pieces(&p);
    assert_eq!(b[0].part, "1");
    assert!(b[0].text.contains("User's mailbox quota exceeded"));
    // message/rfc822-headers: the embedded header fields are pieces of
    // part 3 (e.g. Received, with ':' in its times).
    assert!(
        p.pieces.iter().any(|x| x.part == "3"
            && x.source == PieceKind::Header("Received".into()))
    );
}

#[test]
fn mutations_never_panic() {
    let names = [
        "usrp-users-183.eml",
        "sa-spam1-00139.eml",
        "sa-spam2-00756.eml",
        "sa-easyham-00914.eml",
        "sa-big5-base64.eml",
        "sa-iso-2022-jp.eml",
        "sa-gb2312.eml",
        "cpython-msg_29.eml",
        "cpython-msg_30.eml",
        "cpython-msg_42.eml",
        "spamscope-malformed_2.eml",
    ];
    let mut next = crate::common::xorshift(0x9e37_79b9_7f4a_7c15u64);
    let specials = b"=?\r\n-:;\"<>\\* \t\x80\xff";
    for name in names {
        let orig = sample(name);
        for round in 0..150 {
            let mut m = orig.clone();
            let edits = 1 + (next() % 8) as usize;
            for _ in 0..edits {
                if m.is_empty() {
                    break;
                }
                let at = (next() % m.len() as u64) as usize;
                match next() % 4 {
                    0 => m[at] = next() as u8,
                    1 => {
                        m[at] =
                            specials[(next() % specials.len() as u64) as usize]
                    }
                    2 => {
                        m.remove(at);
                    }
                    _ => m.truncate(at),
                }
            }
            let p = parse(&m);
            for piece in &p.pieces {
                for k in [0, piece.text.len() / 2, piece.text.len()] {
                    assert!(
                        piece.map.raw_offset(k) <= m.len(),
                        "{name} round {round}"
                    );
                }
            }
        }
    }
}

#[test]
fn undeclared_quoted_printable_is_decoded() {
    // Declared 7bit, written quoted-printable (`href=3D"..."`, `=` at
    // line ends): decoded, with a warning.
    let p = parse(&sample("sa-spam2-00248-undeclared-qp.eml"));
    let html = body_pieces(&p)
        .into_iter()
        .find(|x| matches!(x.source, PieceKind::Html))
        .expect("an HTML piece");
    assert_eq!(html.decoded, Decoded::QuotedPrintable);
    assert!(
        html.text.contains(
            "href=\"http://www.2002marketing.com/auction/index.html\""
        )
    );
    assert!(!html.text.contains("=3D"));
    assert!(
        p.warnings
            .iter()
            .any(|w| w.contains("quoted-printable though declared"))
    );
}

#[test]
fn qp_guess_keeps_urls_right_as_written() {
    // A 7bit HTML newsletter with `=3d` (lowercase) inside one of its
    // click-through links and `src=` at a line end: no encoder wrote
    // it, so it is not decoded and every link stays as written.
    let raw = sample("sa-hardham-00093-7bit-not-qp.eml");
    let p = parse(&raw);
    assert!(
        p.warnings.iter().all(|w| !w.contains("quoted-printable")),
        "{:?}",
        p.warnings
    );
    let html = body_pieces(&p)[0];
    assert_eq!(html.source, PieceKind::Html);
    assert_eq!(html.decoded, Decoded::None);
    let links = urlx::mail::html::scan_html(&html.text).links;
    let text = String::from_utf8_lossy(&raw);
    // In `href="..."`, `HREF="..."` and one `SRC="..."`.
    let written: std::collections::BTreeSet<&str> = text
        .match_indices("=\"http://clickthru.online.com/Click?q=")
        .map(|(at, _)| {
            let url = &text[at + 2..];
            &url[..url.find('"').unwrap()]
        })
        .collect();
    let found: std::collections::BTreeSet<&str> = links
        .iter()
        .map(|l| l.value.as_str())
        .filter(|v| v.starts_with("http://clickthru.online.com/Click?q="))
        .collect();
    assert_eq!(written.len(), 66);
    assert_eq!(found, written);
    // `q=3d-oi9N...` keeps its `=3d`, and maps to where it is written.
    let l = links.iter().find(|l| l.value.contains("q=3d-")).unwrap();
    let at = html.map.raw_offset(l.offset);
    assert_eq!(&raw[at..at + l.value.len()], l.value.as_bytes());
}

/// Every occurrence of `url` in `piece`'s text maps back to the raw
/// bytes `written` (the URL as the charset writes it); returns how many.
fn urls_map_back(
    raw: &[u8],
    piece: &Piece,
    url: &str,
    written: &[u8],
) -> usize {
    let mut n = 0;
    for (at, _) in piece.text.match_indices(url) {
        let s = piece.map.raw_offset(at);
        let e = piece.map.raw_offset(at + url.len());
        assert_eq!(&raw[s..e], written, "{url}");
        n += 1;
    }
    n
}

#[test]
fn iso_2022_jp_positions_exact() {
    // A real ISO-2022-JP message: each URL maps to its raw bytes.
    let raw = sample("sa-spam1-00325-iso-2022-jp.eml");
    let p = parse(&raw);
    let t = body_pieces(&p)[0];
    let url = "http://www.vip-jp.net/?sid=2";
    assert_eq!(urls_map_back(&raw, t, url, url.as_bytes()), 2);
    // After a JIS X 0208 run and `ESC ( B`, `:Vip-mail` maps to its `:`.
    let at = t.text.find(":Vip-mail").unwrap();
    assert_eq!(&raw[t.map.raw_offset(at)..][..9], b":Vip-mail");
    // 名 is the JIS X 0208 pair `L>`.
    let name = t.text.find('\u{540d}').unwrap();
    assert_eq!(&raw[t.map.raw_offset(name)..][..2], b"L>");
    // SpamAssassin nice/cjk/iso-2022-jp.2: EUC-JP bytes under the label
    // (replaced), the URL twice on line 48 of the file.
    let raw = sample("sa-iso-2022-jp.eml");
    let p = parse(&raw);
    let h = body_pieces(&p)[0];
    let url =
        "http://cvs.netlab.co.jp/cgi-bin/cvsweb/ruby/ext/socket/extconf.rb";
    assert_eq!(urls_map_back(&raw, h, url, url.as_bytes()), 2);
    let at = h.map.raw_offset(h.text.find(url).unwrap());
    assert_eq!(raw[..at].iter().filter(|&&c| c == b'\n').count() + 1, 48);
}

#[test]
fn iso_2022_kr_keeps_urls() {
    // SYNTHETIC (no ISO-2022-KR mail in the shared corpora): text
    // encoded with Python's iso2022_kr codec (RFC 1557: `ESC $ ) C`
    // once, SO/SI around KS X 1001 pairs).
    let raw = sample("synthetic-iso-2022-kr.eml");
    let p = parse(&raw);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let t = body_pieces(&p)[0];
    assert_eq!(
        t.text,
        "안녕하세요. 자세한 내용은 http://kr.example/news?id=1 을 보세요.\r\n\
         한국어 문서:http://kr.example/a/b.html 끝\r\n\
         \r\n\
         ASCII only line http://kr.example/plain\r\n"
    );
    for url in [
        "http://kr.example/news?id=1",
        "http://kr.example/a/b.html",
        "http://kr.example/plain",
    ] {
        assert_eq!(urls_map_back(&raw, t, url, url.as_bytes()), 1);
    }
    // A Korean character maps to its pair, after the SO.
    let at = t.map.raw_offset(t.text.find('끝').unwrap());
    assert_eq!(raw[at - 1], 0x0e);
    // The B-encoded ISO-2022-KR Subject.
    let s = header(&p, "Subject").unwrap();
    assert_eq!(s.text, "공지: http://kr.example/s");
}

#[test]
fn hz_and_iso_2022_cn_keep_urls() {
    // SYNTHETIC: HZ-GB-2312 from Python's hz codec, with a bare `~` in a
    // URL and a `~` line continuation added by hand; ISO-2022-CN built
    // by hand (RFC 1922: GB 2312 and CNS 11643 designations, SO/SI, a
    // single shift to CNS plane 2).
    let raw = sample("synthetic-hz-gb-2312.eml");
    let p = parse(&raw);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let t = body_pieces(&p)[0];
    assert_eq!(
        t.text,
        "中文网页 http://cn.example/hz?x=1 请访问\n\
         ~ tilde http://cn.example/~user/ 和~\n\
         继续\n\
         raw tilde http://cn.example/~raw/ ok\n\
         中文http://cn.example/after-gb http://cn.example/joined\n"
    );
    let url = "http://cn.example/hz?x=1";
    assert_eq!(urls_map_back(&raw, t, url, url.as_bytes()), 1);
    let url = "http://cn.example/~user/";
    assert_eq!(urls_map_back(&raw, t, url, b"http://cn.example/~~user/"), 1);
    let url = "http://cn.example/~raw/";
    assert_eq!(urls_map_back(&raw, t, url, url.as_bytes()), 1);
    let url = "http://cn.example/joined";
    assert_eq!(urls_map_back(&raw, t, url, url.as_bytes()), 1);

    let raw = sample("synthetic-iso-2022-cn.eml");
    let p = parse(&raw);
    let t = body_pieces(&p)[0];
    assert!(
        t.text.starts_with("中文网页 http://cn.example/iso?a=1 请访问\r\n")
    );
    for url in [
        "http://cn.example/iso?a=1",
        "http://cn.example/cns",
        "http://cn.example/plane1",
    ] {
        assert_eq!(urls_map_back(&raw, t, url, url.as_bytes()), 1);
    }
    // CNS 11643 has no decoder: its characters are U+FFFD, with a note.
    assert_eq!(t.text.matches('\u{fffd}').count(), 2);
    assert_eq!(
        p.warnings,
        ["message: ISO-2022-CN characters of CNS 11643 replaced"]
    );
}

#[test]
fn utf16_positions_exact() {
    // SYNTHETIC: a UTF-16 part (byte order mark, little endian) sent
    // binary, and a UTF-16BE part in quoted-printable (Python's quopri).
    let raw = sample("synthetic-utf-16.eml");
    let p = parse(&raw);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let b = body_pieces(&p);
    let utf16 = |s: &str| -> Vec<u8> {
        s.encode_utf16().flat_map(|u| u.to_le_bytes()).collect()
    };
    for url in [
        "http://u16.example/le?q=1",
        "http://u16.example/two",
        // After a character written as a surrogate pair.
        "http://u16.example/after-pair",
    ] {
        assert_eq!(urls_map_back(&raw, b[0], url, &utf16(url)), 1);
    }
    let at = b[1].text.find("http://u16.example/be").unwrap();
    let s = b[1].map.raw_offset(at);
    assert!(raw[s..].starts_with(b"=00h=00t=00t=00p"));
}

#[test]
fn content_class_header_not_scanned() {
    // SpamAssassin nice/cjk/gb2312.2: `Content-Class:
    // urn:content-classes:message`, Microsoft Exchange's class name.
    let raw = sample("sa-gb2312.eml");
    let p = parse(&raw);
    assert!(header(&p, "Content-Class").is_none());
    assert!(p.pieces.iter().all(|x| !x.text.contains("urn:content-classes")));
    // Other fields are pieces as before.
    assert!(header(&p, "Subject").is_some());
}

#[test]
fn cite_mid_not_reported() {
    // usrp-users messages from Thunderbird: `<blockquote type="cite"
    // cite="mid:...">`, as written and in quoted-printable.
    for name in ["usrp-users-114.eml", "usrp-users-191.eml"] {
        let raw = sample(name);
        let p = parse(&raw);
        let html = body_pieces(&p)
            .into_iter()
            .find(|x| x.source == PieceKind::Html)
            .expect("an HTML part");
        assert!(html.text.contains("cite=\"mid:"), "{name}");
        let links = urlx::mail::html::scan_html(&html.text).links;
        assert!(links.iter().all(|l| l.attr != "cite"), "{name}");
        assert!(links.iter().all(|l| !l.value.starts_with("mid:")));
        assert!(links.iter().any(|l| l.attr == "href"), "{name}");
    }
}

#[test]
fn yenc_block_skipped() {
    // SYNTHETIC (no yEnc post in the shared corpora): a yEnc 1.3 block
    // whose data line happens to read `http://noise.example/`, between
    // two lines with URLs.
    let mut data: Vec<u8> = b"see http://before.example/ first\r\n".to_vec();
    data.extend_from_slice(b"=ybegin line=128 size=42 name=noise.bin\r\n");
    data.extend_from_slice(b"xx http://noise.example/ www.noise.example");
    data.extend_from_slice(b" \xe9\x80\xff"); // 8-bit, as yEnc data is
    data.extend_from_slice(b"\r\n=yend size=42 crc32=00000000\r\n");
    data.extend_from_slice(b"and http://after.example/ last\r\n");
    let mut raw =
        b"Newsgroups: alt.binaries.test\r\nSubject: noise\r\n\r\n".to_vec();
    raw.extend_from_slice(&data);
    let p = parse(&raw);
    // The 8-bit data is not text: no charset warning.
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let t = body_pieces(&p)[0];
    assert_eq!(
        t.text,
        "see http://before.example/ first\r\nand http://after.example/ last\r\n"
    );
    for url in ["http://before.example/", "http://after.example/"] {
        let at = t.map.raw_offset(t.text.find(url).unwrap());
        assert_eq!(&raw[at..at + url.len()], url.as_bytes());
    }
    // A block without its `=yend` runs to the end; a `=ybegin` line
    // without the keywords is text.
    let cut = find(&raw, b"\r\n=yend") + 2;
    let p = parse(&raw[..cut]);
    assert_eq!(
        body_pieces(&p)[0].text,
        "see http://before.example/ first\r\n"
    );
    let raw = b"\n=ybegin here http://x.example/ name=a\n";
    assert!(body_pieces(&parse(raw))[0].text.contains("http://x.example/"));
}
