//! Property tests: no input makes the MIME module panic, and every map
//! stays inside the input.

use proptest::prelude::*;
use urlx::mail::mime::{MimeOptions, parse_message};

/// Bytes biased towards MIME syntax.
fn mimeish() -> impl Strategy<Value = Vec<u8>> {
    let atoms = prop::sample::select(vec![
        &b"Content-Type: multipart/mixed; boundary=b\n"[..],
        b"Content-Type: message/rfc822\n",
        b"Content-Type: text/plain; charset=iso-2022-jp; format=flowed\n",
        b"Content-Type: text/html; charset*0*=utf-8''a; charset*1=b\n",
        b"Content-Transfer-Encoding: quoted-printable\n",
        b"Content-Transfer-Encoding: base64\n",
        b"Content-Location: ../x\n",
        b"Content-Base: http://a/b\n",
        b"Subject: =?utf-8?B?w6k=?= =?gb2312?Q?=D7=B0?=\n",
        b"\n",
        b"\r\n",
        b"--b\n",
        b"--b--\n",
        b" folded\n",
        b"> quoted \n",
        b"=3D=\n",
        b"aGVsbG8=",
        b"http://x/\xe9\xff",
        b"List-Help: <mailto:a@b>\n",
        b"Date: Mon, 1 Jan 2026 10:00:00 +0000\n",
        b"X-Url: see\n http://c.example/\n",
        b"X-Q: =?us-ascii?Q?http=3A//d.example/?=\n",
        b"Received: by h; 10:00:00\n",
        b"Content-Type: text/plain; charset=iso-2022-kr\n",
        b"Content-Type: text/html; charset=hz-gb-2312\n",
        b"Content-Type: text/plain; charset=iso-2022-cn-ext\n",
        b"Content-Type: text/plain; charset=utf-16\n",
        b"\x1b$)C\x0e>H\x0f",
        b"\x1b$*H\x1bN!!",
        b"~{VP~}~",
        b"\x1b$BF|\x1b(B",
        b"Subject: =?iso-2022-kr?B?GyQpQw4+SA8=?= x:y\n",
        // Web archive records: HTTP messages, their codings.
        b"Content-Type: application/http; msgtype=response\n",
        b"HTTP/1.1 200 OK\n",
        b"Transfer-Encoding: chunked\n",
        b"Content-Encoding: gzip\n",
        b"Content-Encoding: deflate, zstd\n",
        b"WARC-Target-URI: <http://t.example/d/>\n",
        b"Content-Type: application/json\n",
        b"1f\r\n",
        b"0\r\n\r\n",
        b"\x1f\x8b\x08\x00",
    ]);
    prop::collection::vec(
        prop_oneof![
            atoms.prop_map(|a| a.to_vec()),
            prop::collection::vec(any::<u8>(), 0..8),
        ],
        0..40,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn never_panics(
        raw in mimeish(),
        attachments in any::<bool>(),
        skip in any::<bool>(),
        web in any::<bool>(),
    ) {
        let opts = MimeOptions {
            max_depth: 4,
            max_parts: 50,
            attachments,
            skip_fields_without_scheme: skip,
            // As a web archive record: HTTP messages walked into.
            web: web.then_some(0),
        };
        let p = parse_message(&raw, &opts);
        for piece in &p.pieces {
            for k in 0..=piece.text.len() {
                prop_assert!(piece.map.raw_offset(k) <= raw.len());
            }
        }
    }

    #[test]
    fn random_bytes(raw in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = parse_message(&raw, &MimeOptions::default());
    }

    /// The preamble and the epilogue of a multipart are taken as
    /// written: each byte of their text (when valid UTF-8, which is
    /// copied, and holding no yEnc block, which these inputs never
    /// have) maps to the same byte of the message.
    #[test]
    fn preamble_and_epilogue_map_exactly(raw in mimeish()) {
        let p = parse_message(&raw, &MimeOptions::default());
        let outside = p.pieces.iter().filter(|x| {
            x.part.ends_with("preamble") || x.part.ends_with("epilogue")
        });
        for piece in outside {
            let s = piece.map.raw_offset(0);
            let e = piece.map.raw_offset(piece.text.len());
            if std::str::from_utf8(&raw[s..e]).is_ok() {
                prop_assert_eq!(&raw[s..e], piece.text.as_bytes());
            }
        }
    }

    /// Leaving out the header fields that cannot hold a scheme loses no
    /// candidate: every piece it drops delimits none.
    #[test]
    fn skipped_fields_hold_no_scheme(raw in mimeish()) {
        let all = parse_message(&raw, &MimeOptions::default());
        let opts = MimeOptions {
            skip_fields_without_scheme: true,
            ..MimeOptions::default()
        };
        let kept = parse_message(&raw, &opts);
        prop_assert!(kept.pieces.len() <= all.pieces.len());
        for piece in &all.pieces {
            let same = |k: &&urlx::mail::mime::Piece| {
                k.source == piece.source && k.text == piece.text
            };
            if !kept.pieces.iter().any(|k| same(&k)) {
                let n = urlx::stages::count_candidates(piece.text.as_bytes(), 2048);
                prop_assert_eq!(n, 0, "{:?}: {:?}", piece.source, piece.text);
            }
        }
    }
}
