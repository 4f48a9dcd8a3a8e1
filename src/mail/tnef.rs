//! Owns TNEF ([MS-OXTNEF]), the `winmail.dat` (`application/ms-tnef`)
//! attachment in which Outlook sends a message's rich body and its
//! attachments: read into the bodies and attached files that hold text.
//!
//! A TNEF stream is a signature, a key, and attributes (a level byte, a
//! 32-bit id whose high half is its type, a length, the data and a
//! checksum; 2.1.3). urlx reads:
//!
//! - `attBody` (0x0002800C): the plain-text body;
//! - `attMAPIProps` (0x00069003) of the message: `PR_BODY` (0x1000),
//!   `PR_BODY_HTML` (0x1013), `PR_RTF_COMPRESSED` (0x1009, see
//!   [`super::rtf`]), and `PR_INTERNET_CPID` (0x3FDE) for the HTML's
//!   code page;
//! - each attachment from `attAttachRendData` (0x00069002) on: its data
//!   (`attAttachData`, 0x0006800F, or `PR_ATTACH_DATA_BIN`, 0x3701), its
//!   name (`attAttachTitle`, 0x00018010, or `PR_ATTACH_LONG_FILENAME`,
//!   0x3707) and MIME type (`PR_ATTACH_MIME_TAG`, 0x370E).
//!
//! MAPI properties (2.1.3.4): a count, then each property's type and id
//! (a named property, id 0x8000 and up, adds a GUID and a number or a
//! UTF-16 name), a value count for multi-valued types, and values: fixed
//! sizes padded to 4 bytes, or a count of values each with its length
//! and padded data (strings, binary, objects).
//!
//! Strings of 8-bit code pages are read in the code page of
//! `attOemCodepage` (0x00069007), Windows-1252 without one. Damage (a
//! length past the end, a bad checksum) ends the reading with what was
//! read before it and says so.

use encoding_rs::{Encoding, UTF_8, UTF_16LE, WINDOWS_1252};

/// 2.1.3.1: `TNEFSignature`, little-endian.
pub(crate) const SIGNATURE: [u8; 4] = [0x78, 0x9F, 0x3E, 0x22];

const ATT_BODY: u32 = 0x0002_800C;
const ATT_MAPI_PROPS: u32 = 0x0006_9003;
const ATT_ATTACH_REND_DATA: u32 = 0x0006_9002;
const ATT_ATTACH_DATA: u32 = 0x0006_800F;
const ATT_ATTACH_TITLE: u32 = 0x0001_8010;
const ATT_ATTACHMENT: u32 = 0x0006_9005;
const ATT_OEM_CODEPAGE: u32 = 0x0006_9007;

const PR_BODY: u16 = 0x1000;
const PR_RTF_COMPRESSED: u16 = 0x1009;
const PR_BODY_HTML: u16 = 0x1013;
const PR_INTERNET_CPID: u16 = 0x3FDE;
const PR_ATTACH_DATA_BIN: u16 = 0x3701;
const PR_ATTACH_FILENAME: u16 = 0x3704;
const PR_ATTACH_LONG_FILENAME: u16 = 0x3707;
const PR_ATTACH_MIME_TAG: u16 = 0x370E;

const PT_STRING8: u16 = 0x001E;
const PT_UNICODE: u16 = 0x001F;
const PT_BINARY: u16 = 0x0102;
const PT_OBJECT: u16 = 0x000D;
const MV_FLAG: u16 = 0x1000;

/// What a TNEF stream holds that may have URLs.
#[derive(Debug, Default)]
pub(crate) struct Tnef {
    /// The plain-text body.
    pub body: Option<String>,
    /// The HTML body, as bytes, and the code page given for it.
    pub html: Option<(Vec<u8>, Option<&'static Encoding>)>,
    /// The compressed RTF body, as stored.
    pub rtf: Option<Vec<u8>>,
    /// The attached files.
    pub attachments: Vec<Attachment>,
    /// What could not be read.
    pub problems: Vec<String>,
}

/// A file attached inside TNEF.
#[derive(Debug, Default)]
pub(crate) struct Attachment {
    pub name: Option<String>,
    pub mime: Option<String>,
    pub data: Vec<u8>,
}

impl Attachment {
    /// Whether the file is text (by its MIME type or, without one, its
    /// name), and whether HTML.
    pub(crate) fn kind(&self) -> Option<bool> {
        if let Some(m) = &self.mime {
            let m = m.to_ascii_lowercase();
            if m == "text/html" || m == "application/xhtml+xml" {
                return Some(true);
            }
            if m.starts_with("text/") {
                return Some(false);
            }
        }
        let name =
            self.name.as_deref().unwrap_or_default().to_ascii_lowercase();
        let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
        match ext {
            "htm" | "html" | "xhtml" => Some(true),
            "txt" | "text" | "csv" | "log" | "eml" | "ics" | "vcf" | "md" => {
                Some(false)
            }
            _ => None,
        }
    }
}

/// A little-endian reader over a slice.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.data.get(self.pos..self.pos.checked_add(n)?)?;
        self.pos += n;
        Some(s)
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn at_end(&self) -> bool {
        self.pos >= self.data.len()
    }
}

/// Read a TNEF stream.
pub(crate) fn parse(data: &[u8]) -> Tnef {
    let mut t = Tnef::default();
    let mut r = Reader { data, pos: 0 };
    if r.take(4) != Some(&SIGNATURE[..]) {
        t.problems.push("not TNEF (no signature)".into());
        return t;
    }
    if r.u16().is_none() {
        t.problems.push("TNEF cut short in its header".into());
        return t;
    }
    let mut codepage: &'static Encoding = WINDOWS_1252;
    let mut current: Option<Attachment> = None;
    while !r.at_end() {
        let at = r.pos;
        let (Some(level), Some(id), Some(len)) =
            (r.take(1).map(|l| l[0]), r.u32(), r.u32())
        else {
            t.problems.push(format!("TNEF cut short at byte {at}"));
            break;
        };
        let Some(value) = r.take(len as usize) else {
            t.problems.push(format!(
                "TNEF attribute {id:#010x} at byte {at} runs past the end"
            ));
            break;
        };
        let Some(sum) = r.u16() else {
            t.problems.push(format!("TNEF cut short at byte {}", r.pos));
            break;
        };
        // 2.1.3.3: the checksum is the sum of the data's bytes.
        let actual =
            value.iter().fold(0u16, |s, &b| s.wrapping_add(u16::from(b)));
        if actual != sum {
            t.problems.push(format!(
                "TNEF attribute {id:#010x} at byte {at}: bad checksum (read anyway)"
            ));
        }
        match (level, id) {
            (_, ATT_OEM_CODEPAGE) if value.len() >= 4 => {
                let cp = u32::from_le_bytes(
                    value[..4].try_into().unwrap_or_default(),
                );
                if let Some(enc) = super::charset::codepage(i64::from(cp)) {
                    codepage = enc;
                }
            }
            (1, ATT_BODY) => {
                t.body = Some(decode_8bit(value, codepage));
            }
            (1, ATT_MAPI_PROPS) => {
                let mut html_cp = None;
                for p in props(value, &mut t.problems) {
                    match (p.id, p.kind) {
                        (PR_BODY, _) if t.body.is_none() => {
                            t.body = p.string(codepage);
                        }
                        (PR_BODY_HTML, PT_UNICODE) => {
                            let s = p.string(codepage).unwrap_or_default();
                            t.html = Some((s.into_bytes(), Some(UTF_8)));
                        }
                        (PR_BODY_HTML, _) => {
                            t.html = Some((p.bytes.to_vec(), None));
                        }
                        (PR_RTF_COMPRESSED, _) => {
                            t.rtf = Some(p.bytes.to_vec())
                        }
                        (PR_INTERNET_CPID, _) if p.bytes.len() >= 4 => {
                            let cp = u32::from_le_bytes(
                                p.bytes[..4].try_into().unwrap_or_default(),
                            );
                            html_cp = super::charset::codepage(i64::from(cp));
                        }
                        _ => {}
                    }
                }
                if let Some((_, cp @ None)) = t.html.as_mut() {
                    *cp = html_cp;
                }
            }
            (2, ATT_ATTACH_REND_DATA) => {
                if let Some(a) = current.take() {
                    t.attachments.push(a);
                }
                current = Some(Attachment::default());
            }
            (2, ATT_ATTACH_DATA) => {
                current.get_or_insert_with(Attachment::default).data =
                    value.to_vec();
            }
            (2, ATT_ATTACH_TITLE) => {
                let a = current.get_or_insert_with(Attachment::default);
                if a.name.is_none() {
                    let s = decode_8bit(value, codepage);
                    a.name = Some(s.trim_end_matches('\0').to_string());
                }
            }
            (2, ATT_ATTACHMENT) => {
                let a = current.get_or_insert_with(Attachment::default);
                for p in props(value, &mut t.problems) {
                    match p.id {
                        PR_ATTACH_DATA_BIN
                            if a.data.is_empty() && p.kind == PT_BINARY =>
                        {
                            a.data = p.bytes.to_vec();
                        }
                        PR_ATTACH_LONG_FILENAME => a.name = p.string(codepage),
                        PR_ATTACH_FILENAME if a.name.is_none() => {
                            a.name = p.string(codepage);
                        }
                        PR_ATTACH_MIME_TAG => a.mime = p.string(codepage),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    if let Some(a) = current.take() {
        t.attachments.push(a);
    }
    t
}

/// One value of a MAPI property.
struct Prop<'a> {
    id: u16,
    kind: u16,
    bytes: &'a [u8],
}

impl Prop<'_> {
    /// The value as text: UTF-16 for PT_UNICODE, the code page for
    /// PT_STRING8; without the terminating NUL.
    fn string(&self, codepage: &'static Encoding) -> Option<String> {
        let s = match self.kind {
            PT_UNICODE => {
                UTF_16LE.decode_without_bom_handling(self.bytes).0.into_owned()
            }
            PT_STRING8 => decode_8bit(self.bytes, codepage),
            _ => return None,
        };
        Some(s.trim_end_matches('\0').to_string())
    }
}

fn decode_8bit(b: &[u8], enc: &'static Encoding) -> String {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    enc.decode_without_bom_handling(&b[..end]).0.into_owned()
}

/// The values of a MAPI property list (2.1.3.4), as far as it can be
/// read.
fn props<'a>(data: &'a [u8], problems: &mut Vec<String>) -> Vec<Prop<'a>> {
    let mut out = Vec::new();
    let mut r = Reader { data, pos: 0 };
    let Some(count) = r.u32() else { return out };
    for _ in 0..count {
        if read_prop(&mut r, &mut out).is_none() {
            problems.push(format!(
                "TNEF MAPI properties cut short at byte {} of {}",
                r.pos,
                data.len()
            ));
            break;
        }
    }
    out
}

/// Read one property's values into `out`.
fn read_prop<'a>(r: &mut Reader<'a>, out: &mut Vec<Prop<'a>>) -> Option<()> {
    let kind = r.u16()?;
    let id = r.u16()?;
    if id >= 0x8000 {
        // A named property: GUID, then a number or a UTF-16 name.
        r.take(16)?;
        if r.u32()? == 0 {
            r.u32()?;
        } else {
            let len = r.u32()? as usize;
            r.take(len.next_multiple_of(4))?;
        }
    }
    let multi = kind & MV_FLAG != 0;
    let base = kind & !MV_FLAG;
    let values = if multi { r.u32()? } else { 1 };
    let variable =
        matches!(base, PT_STRING8 | PT_UNICODE | PT_BINARY | PT_OBJECT);
    if variable {
        // A single value has its count too (always 1).
        let n = if multi { values } else { r.u32()? };
        for _ in 0..n {
            let len = r.u32()? as usize;
            let bytes = r.take(len)?;
            r.take(len.next_multiple_of(4) - len)?;
            out.push(Prop { id, kind: base, bytes });
        }
    } else {
        let size = match base {
            0x0002 | 0x000B => 2, // PT_I2, PT_BOOLEAN
            0x0003 | 0x0004 | 0x000A | 0x0001 | 0x0000 => 4,
            0x0005..=0x0007 | 0x0014 | 0x0040 => 8,
            0x0048 => 16, // PT_CLSID
            _ => return None,
        };
        for _ in 0..values {
            let bytes = r.take(size)?;
            out.push(Prop { id, kind: base, bytes });
        }
        // 16-bit values are padded to 4 bytes in all.
        if size == 2 && values % 2 == 1 {
            r.take(2)?;
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An attribute: level, id, data and its checksum.
    fn attr(level: u8, id: u32, data: &[u8]) -> Vec<u8> {
        let mut v = vec![level];
        v.extend_from_slice(&id.to_le_bytes());
        v.extend_from_slice(&(data.len() as u32).to_le_bytes());
        v.extend_from_slice(data);
        let sum = data.iter().fold(0u16, |s, &b| s.wrapping_add(u16::from(b)));
        v.extend_from_slice(&sum.to_le_bytes());
        v
    }

    fn stream(attrs: &[Vec<u8>]) -> Vec<u8> {
        let mut v = SIGNATURE.to_vec();
        v.extend_from_slice(&0x1234u16.to_le_bytes());
        for a in attrs {
            v.extend_from_slice(a);
        }
        v
    }

    /// A MAPI property list of binary and PT_LONG values.
    fn mapi(props: &[(u16, u16, &[u8])]) -> Vec<u8> {
        let mut v = (props.len() as u32).to_le_bytes().to_vec();
        for &(kind, id, bytes) in props {
            v.extend_from_slice(&kind.to_le_bytes());
            v.extend_from_slice(&id.to_le_bytes());
            if matches!(kind, PT_BINARY | PT_STRING8 | PT_UNICODE) {
                v.extend_from_slice(&1u32.to_le_bytes());
                v.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
                v.extend_from_slice(bytes);
                v.resize(v.len().next_multiple_of(4), 0);
            } else {
                v.extend_from_slice(bytes);
            }
        }
        v
    }

    #[test]
    fn bodies_and_attachments() {
        let props = mapi(&[
            (0x0003, 0x0E07, &9u32.to_le_bytes()),
            (PT_BINARY, PR_BODY_HTML, b"<a href=\"http://h.example/\">x</a>"),
            (0x0003, PR_INTERNET_CPID, &65001u32.to_le_bytes()),
        ]);
        let att = mapi(&[
            (PT_STRING8, PR_ATTACH_LONG_FILENAME, b"notes.txt\0"),
            (PT_STRING8, PR_ATTACH_MIME_TAG, b"text/plain\0"),
        ]);
        let data = stream(&[
            attr(1, ATT_BODY, b"see http://b.example/\0"),
            attr(1, ATT_MAPI_PROPS, &props),
            attr(2, ATT_ATTACH_REND_DATA, &[0; 14]),
            attr(2, ATT_ATTACH_TITLE, b"NOTES.TXT\0"),
            attr(2, ATT_ATTACH_DATA, b"at http://c.example/"),
            attr(2, ATT_ATTACHMENT, &att),
        ]);
        let t = parse(&data);
        assert_eq!(t.problems, Vec::<String>::new());
        assert_eq!(t.body.as_deref(), Some("see http://b.example/"));
        let (html, cp) = t.html.unwrap();
        assert_eq!(html, b"<a href=\"http://h.example/\">x</a>");
        assert_eq!(cp.map(Encoding::name), Some("UTF-8"));
        assert_eq!(t.attachments.len(), 1);
        let a = &t.attachments[0];
        assert_eq!(a.name.as_deref(), Some("notes.txt"));
        assert_eq!(a.data, b"at http://c.example/");
        assert_eq!(a.kind(), Some(false));
    }

    #[test]
    fn damage_keeps_what_came_before() {
        let mut data = stream(&[
            attr(1, ATT_BODY, b"see http://b.example/"),
            attr(
                1,
                ATT_MAPI_PROPS,
                &mapi(&[(PT_BINARY, PR_BODY_HTML, b"<p>")]),
            ),
        ]);
        // The last attribute's length now runs past the end.
        let cut = data.len() - 10;
        data.truncate(cut);
        let t = parse(&data);
        assert_eq!(t.body.as_deref(), Some("see http://b.example/"));
        assert!(t.html.is_none());
        assert_eq!(t.problems.len(), 1, "{:?}", t.problems);
        assert!(parse(b"\x78\x9f").problems[0].contains("not TNEF"));
        // A property list that claims more properties than it holds.
        let mut props = mapi(&[(PT_BINARY, PR_BODY_HTML, b"<p>")]);
        props[0] = 5;
        let t = parse(&stream(&[attr(1, ATT_MAPI_PROPS, &props)]));
        assert_eq!(t.html.map(|h| h.0), Some(b"<p>".to_vec()));
        assert!(t.problems[0].contains("MAPI properties cut short"));
    }

    #[test]
    fn damaged_samples_never_panic() {
        // The bundled samples cut at every length and with bytes changed
        // (a fixed pseudo-random sequence): whatever is read, nothing
        // panics, and the RTF and its text are bounded.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/tnef/");
        let mut next = crate::testing::xorshift(0x2545_F491_4F6C_DD1D);
        for name in ["unicode-mapi-attr-name.tnef", "long-filename.tnef"] {
            let data = std::fs::read(format!("{dir}{name}")).unwrap();
            let step = (data.len() / 300).max(1);
            for cut in (0..data.len()).step_by(step) {
                let _ = parse(&data[..cut]);
            }
            for _ in 0..300 {
                let d = crate::testing::damaged(&data, 8, &mut next);
                let t = parse(&d);
                if let Some(rtf) = t.rtf {
                    let limit = rtf.len() * 9 + 4096;
                    if let Ok(raw) = crate::mail::rtf::decompress(&rtf, limit)
                    {
                        assert!(raw.len() <= limit);
                        let _ = crate::mail::rtf::to_text(&raw);
                    }
                }
            }
        }
    }

    #[test]
    fn named_and_multi_valued_properties_are_stepped_over() {
        let mut props = 3u32.to_le_bytes().to_vec();
        // A named property (id 0x8001) with a name, PT_LONG.
        props.extend_from_slice(&0x0003u16.to_le_bytes());
        props.extend_from_slice(&0x8001u16.to_le_bytes());
        props.extend_from_slice(&[7; 16]);
        props.extend_from_slice(&1u32.to_le_bytes());
        let name: Vec<u8> =
            "Keywords\0".encode_utf16().flat_map(u16::to_le_bytes).collect();
        props.extend_from_slice(&(name.len() as u32).to_le_bytes());
        props.extend_from_slice(&name);
        props.resize(props.len().next_multiple_of(4), 0);
        props.extend_from_slice(&5u32.to_le_bytes());
        // A multi-valued PT_UNICODE: two values.
        props.extend_from_slice(&(PT_UNICODE | MV_FLAG).to_le_bytes());
        props.extend_from_slice(&0x3A54u16.to_le_bytes());
        props.extend_from_slice(&2u32.to_le_bytes());
        for s in ["a", "bc"] {
            let u: Vec<u8> =
                s.encode_utf16().flat_map(u16::to_le_bytes).collect();
            props.extend_from_slice(&(u.len() as u32).to_le_bytes());
            props.extend_from_slice(&u);
            props.resize(props.len().next_multiple_of(4), 0);
        }
        // Then a PT_UNICODE body.
        let body: Vec<u8> = "http://u.example/\0"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        props.extend_from_slice(&PT_UNICODE.to_le_bytes());
        props.extend_from_slice(&PR_BODY.to_le_bytes());
        props.extend_from_slice(&1u32.to_le_bytes());
        props.extend_from_slice(&(body.len() as u32).to_le_bytes());
        props.extend_from_slice(&body);
        let t = parse(&stream(&[attr(1, ATT_MAPI_PROPS, &props)]));
        assert_eq!(t.problems, Vec::<String>::new());
        assert_eq!(t.body.as_deref(), Some("http://u.example/"));
    }
}
