//! Owns Outlook `.msg` files ([MS-OXMSG]): a message stored as an OLE
//! compound file ([MS-CFB], read with the `cfb` crate), read into the
//! same bodies and attached files as TNEF ([`super::tnef::Tnef`]), plus
//! the message's Internet header and Message-ID.
//!
//! [MS-OXMSG] 2.1: each property of a storage (the message, an
//! attachment, an embedded message) is a stream named
//! `__substg1.0_IIIITTTT` (property id `IIII`, type `TTTT`, in hex) for
//! strings and binary values; fixed-size values are 16-byte entries of
//! the `__properties_version1.0` stream, after a header of 32 bytes
//! (the message), 24 (an embedded message) or 8 (an attachment).
//! Attachments are the storages `__attach_version1.0_#XXXXXXXX`; an
//! attached message is the storage `__substg1.0_3701000D` inside one.
//!
//! Read: `PR_TRANSPORT_MESSAGE_HEADERS` (0x007D), `PR_INTERNET_MESSAGE_ID`
//! (0x1035), `PR_BODY` (0x1000), `PR_BODY_HTML` (0x1013),
//! `PR_RTF_COMPRESSED` (0x1009), the code pages `PR_INTERNET_CPID`
//! (0x3FDE, of the HTML) and `PR_MESSAGE_CODEPAGE` (0x3FFD, of 8-bit
//! strings); of attachments `PR_ATTACH_DATA_BIN` (0x3701),
//! `PR_ATTACH_LONG_FILENAME` (0x3707), `PR_ATTACH_FILENAME` (0x3704),
//! `PR_ATTACH_MIME_TAG` (0x370E). Attached messages are read the same
//! way, [`MAX_DEPTH`] deep.

use std::io::{Cursor, Read, Seek};

use encoding_rs::{Encoding, UTF_8, UTF_16LE, WINDOWS_1252};

use super::tnef::{Attachment, Tnef};

/// [MS-CFB] 2.2: the compound file header's signature.
pub(crate) const SIGNATURE: [u8; 8] =
    [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// Whether the first bytes of an input are those of an Outlook message:
/// a compound file whose directory, near its start as Outlook writes it,
/// names a message property stream (`__substg1.0_` in UTF-16).
pub(crate) fn is_msg_head(head: &[u8]) -> bool {
    const NAME: &[u8] = b"_\0_\0s\0u\0b\0s\0t\0g\x001\0.\x000\0_\0";
    head.starts_with(&SIGNATURE) && memchr::memmem::find(head, NAME).is_some()
}

/// Attached messages read inside one another, at most.
pub(crate) const MAX_DEPTH: usize = 8;

/// An Outlook message: its bodies and attachments, and what its header
/// says.
#[derive(Debug, Default)]
pub(crate) struct Msg {
    /// The bodies and attached files, as TNEF gives them.
    pub rich: Tnef,
    /// The Internet header the message was received with.
    pub headers: Option<String>,
    /// Its Message-ID, without angle brackets.
    pub message_id: Option<String>,
    /// Attached messages, each with its attachment's number.
    pub embedded: Vec<(usize, Msg)>,
}

/// Read an Outlook message from `data`; `None` when `data` is no
/// compound file or one without message properties (a Word or Excel
/// file), with the reason.
pub(crate) fn parse(data: &[u8]) -> Result<Msg, String> {
    let mut cf = cfb::CompoundFile::open(Cursor::new(data))
        .map_err(|e| format!("not a readable OLE compound file: {e}"))?;
    let is_msg =
        cf.read_root_storage().any(|e| e.name().starts_with("__substg1.0_"));
    if !is_msg {
        return Err("an OLE compound file that is no Outlook message".into());
    }
    Ok(read_message(&mut cf, "/", 32, 0))
}

/// The message stored in storage `dir` (`/` for the file's own),
/// whose property stream has a header of `header` bytes.
fn read_message<F: Read + Seek>(
    cf: &mut cfb::CompoundFile<F>,
    dir: &str,
    header: usize,
    depth: usize,
) -> Msg {
    let mut m = Msg::default();
    let fixed = fixed_props(cf, dir, header);
    let cp = |id: u16| {
        fixed
            .iter()
            .find(|(i, _)| *i == id)
            .and_then(|(_, v)| super::charset::codepage(i64::from(*v)))
    };
    let strings = cp(0x3FFD).unwrap_or(WINDOWS_1252);
    m.headers = string(cf, dir, 0x007D, strings);
    m.message_id = string(cf, dir, 0x1035, strings).map(|s| {
        s.trim().trim_start_matches('<').trim_end_matches('>').to_string()
    });
    if m.message_id.is_none()
        && let Some(h) = &m.headers
    {
        m.message_id = header_fields(h)
            .into_iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("message-id"))
            .map(|(_, v)| {
                v.trim_start_matches('<').trim_end_matches('>').to_string()
            });
    }
    m.rich.body = string(cf, dir, 0x1000, strings);
    m.rich.html = match binary(cf, dir, 0x1013) {
        Some(b) => Some((b, cp(0x3FDE))),
        None => string(cf, dir, 0x1013, strings)
            .map(|s| (s.into_bytes(), Some(UTF_8))),
    };
    m.rich.rtf = binary(cf, dir, 0x1009);
    let attachments: Vec<String> = cf
        .read_storage(dir)
        .map(|entries| {
            entries
                .filter(|e| {
                    e.is_storage()
                        && e.name().starts_with("__attach_version1.0_#")
                })
                .map(|e| e.path().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    for (k, a) in attachments.iter().enumerate() {
        let mut att = Attachment {
            name: string(cf, a, 0x3707, strings)
                .or_else(|| string(cf, a, 0x3704, strings)),
            mime: string(cf, a, 0x370E, strings),
            data: binary(cf, a, 0x3701).unwrap_or_default(),
        };
        let inner = format!("{a}/__substg1.0_3701000D");
        if cf.is_storage(&inner) {
            if depth + 1 < MAX_DEPTH {
                let msg = read_message(cf, &inner, 24, depth + 1);
                m.embedded.push((k, msg));
            } else {
                m.rich.problems.push(format!(
                    "attached messages nested more than {MAX_DEPTH} deep: not read"
                ));
            }
            att.data.clear();
        }
        m.rich.attachments.push(att);
    }
    m
}

/// The whole stream at `path`, if there is one.
fn stream<F: Read + Seek>(
    cf: &mut cfb::CompoundFile<F>,
    path: &str,
) -> Option<Vec<u8>> {
    let mut s = cf.open_stream(path).ok()?;
    let mut v = Vec::new();
    s.read_to_end(&mut v).ok()?;
    Some(v)
}

fn prop_path(dir: &str, id: u16, kind: u16) -> String {
    let sep = if dir.ends_with('/') { "" } else { "/" };
    format!("{dir}{sep}__substg1.0_{id:04X}{kind:04X}")
}

/// String property `id` of storage `dir`: UTF-16 (type 0x001F) or in
/// the code page `strings` (0x001E), without a terminating NUL.
fn string<F: Read + Seek>(
    cf: &mut cfb::CompoundFile<F>,
    dir: &str,
    id: u16,
    strings: &'static Encoding,
) -> Option<String> {
    let (bytes, enc) = match stream(cf, &prop_path(dir, id, 0x001F)) {
        Some(b) => (b, UTF_16LE),
        None => (stream(cf, &prop_path(dir, id, 0x001E))?, strings),
    };
    let s = enc.decode_without_bom_handling(&bytes).0;
    Some(s.trim_end_matches('\0').to_string())
}

/// Binary property `id` (type 0x0102) of storage `dir`.
fn binary<F: Read + Seek>(
    cf: &mut cfb::CompoundFile<F>,
    dir: &str,
    id: u16,
) -> Option<Vec<u8>> {
    stream(cf, &prop_path(dir, id, 0x0102))
}

/// The 32-bit fixed-size properties of storage `dir` (id, value), from
/// its property stream ([MS-OXMSG] 2.4).
fn fixed_props<F: Read + Seek>(
    cf: &mut cfb::CompoundFile<F>,
    dir: &str,
    header: usize,
) -> Vec<(u16, u32)> {
    let sep = if dir.ends_with('/') { "" } else { "/" };
    let Some(data) = stream(cf, &format!("{dir}{sep}__properties_version1.0"))
    else {
        return Vec::new();
    };
    data.get(header..)
        .unwrap_or_default()
        .chunks_exact(16)
        .filter_map(|e| {
            let tag = u32::from_le_bytes(e[..4].try_into().ok()?);
            let (id, kind) = ((tag >> 16) as u16, tag as u16);
            // PtypInteger32.
            (kind == 0x0003).then(|| {
                (
                    id,
                    u32::from_le_bytes(
                        e[8..12].try_into().unwrap_or_default(),
                    ),
                )
            })
        })
        .collect()
}

/// The fields of an Internet header (unfolded), as (name, value).
pub(crate) fn header_fields(header: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in header.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some((_, v)) = out.last_mut() {
                v.push(' ');
                v.push_str(line.trim());
            }
            continue;
        }
        if let Some((name, value)) = line.split_once(':')
            && !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_graphic())
        {
            out.push((name.to_string(), value.trim().to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/corpora/msg/strangeDate.msg"
        );
        std::fs::read(path).unwrap()
    }

    #[test]
    fn reads_the_sample() {
        let m = parse(&sample()).unwrap();
        let body = m.rich.body.unwrap();
        assert!(body.contains("http://www.online-convert.com"), "{body}");
        assert!(m.rich.rtf.is_some() || m.rich.html.is_some());
    }

    #[test]
    fn other_compound_files_and_damage() {
        assert!(parse(b"not a compound file").is_err());
        assert!(parse(&SIGNATURE).is_err());
        let data = sample();
        // Cut at every 1/200th and with bytes changed: an error or what
        // could be read, never a panic.
        for cut in (0..data.len()).step_by(data.len() / 200) {
            let _ = parse(&data[..cut]);
        }
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200 {
            let _ = parse(&crate::testing::damaged(&data, 4, &mut next));
        }
    }

    /// A compound file written here: a message with a UTF-16 body and
    /// one attachment that is a message with a body of its own, and that
    /// attaches a message in turn, `levels` deep in all.
    fn nested(levels: usize) -> Vec<u8> {
        use std::io::Write;
        let mut cf =
            cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
        let utf16 = |s: &str| -> Vec<u8> {
            s.encode_utf16().flat_map(u16::to_le_bytes).collect()
        };
        let mut dir = String::new();
        for level in 0..levels {
            let body = format!("level {level}: http://l{level}.example/\0");
            let mut st = cf
                .create_stream(format!("{dir}/__substg1.0_1000001F"))
                .unwrap();
            st.write_all(&utf16(&body)).unwrap();
            drop(st);
            if level + 1 < levels {
                let att = format!("{dir}/__attach_version1.0_#00000000");
                cf.create_storage(&att).unwrap();
                let mut name = cf
                    .create_stream(format!("{att}/__substg1.0_3707001F"))
                    .unwrap();
                name.write_all(&utf16("inner.msg")).unwrap();
                drop(name);
                dir = format!("{att}/__substg1.0_3701000D");
                cf.create_storage(&dir).unwrap();
            }
        }
        cf.flush().unwrap();
        cf.into_inner().into_inner()
    }

    #[test]
    fn attached_messages_are_read_to_a_depth() {
        let m = parse(&nested(3)).unwrap();
        assert_eq!(
            m.rich.body.as_deref(),
            Some("level 0: http://l0.example/")
        );
        let (k, inner) = &m.embedded[0];
        assert_eq!(*k, 0);
        assert_eq!(
            inner.rich.body.as_deref(),
            Some("level 1: http://l1.example/")
        );
        assert_eq!(
            inner.embedded[0].1.rich.body.as_deref(),
            Some("level 2: http://l2.example/")
        );
        // The attachment that holds a message has no data of its own.
        assert!(m.rich.attachments[0].data.is_empty());
        // Deeper than MAX_DEPTH: the rest is said, not read.
        let mut deep = parse(&nested(MAX_DEPTH + 2)).unwrap();
        let mut seen = 1;
        let mut problems = Vec::new();
        loop {
            problems.append(&mut deep.rich.problems);
            match deep.embedded.pop() {
                Some((_, next)) => {
                    deep = next;
                    seen += 1;
                }
                None => break,
            }
        }
        assert_eq!(seen, MAX_DEPTH);
        assert_eq!(problems.len(), 1, "{problems:?}");
    }

    #[test]
    fn recognised_by_the_first_bytes() {
        let data = sample();
        assert!(is_msg_head(&data[..4096]));
        // A compound file without message properties near its start.
        let mut other = data[..4096].to_vec();
        other[512..].fill(0);
        assert!(!is_msg_head(&other));
        assert!(!is_msg_head(b"\xD0\xCF"));
    }

    #[test]
    fn unfolds_header_fields() {
        let h = "Received: from a\r\n\tby b\r\nList-Unsubscribe: <http://u.example/>\r\nbad line\r\n";
        assert_eq!(
            header_fields(h),
            [
                ("Received".to_string(), "from a by b".to_string()),
                (
                    "List-Unsubscribe".to_string(),
                    "<http://u.example/>".to_string()
                ),
            ]
        );
    }
}
