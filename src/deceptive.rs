//! Deceptive links: an HTML anchor whose visible text shows a URL or a
//! host name of another site than the one its `href` goes to
//! (`<a href="http://evil.example/">https://bank.example.com</a>`), the
//! phishing mail's oldest trick, and its variant through a redirector
//! (the text's site wrapped in a redirector to another one).

use crate::data::psl::{has_public_suffix, registrable_domain};
use crate::validate::Uri;
use crate::validate::schemes::Finding;

/// The `deceptive-link` warning for an anchor showing `text` whose link
/// is `target`, when the text shows a site (see [`shown_host`]) that is
/// not the target's, nor the target's through the redirectors
/// [`crate::unwrap`] knows. Sites are compared by registrable domain
/// (`www.bank.example` and `login.bank.example` are one site); hosts
/// without one (IP addresses) as written, ignoring case.
pub(crate) fn check(text: &str, target: &Uri) -> Option<Finding> {
    let shown = shown_host(text)?;
    let host = target.host().filter(|h| !h.is_empty())?;
    if registrable_domain(host)
        .is_some_and(|d| OPAQUE_REWRITERS.contains(&d.as_str()))
    {
        return None;
    }
    let unwrapped = crate::unwrap::unwrap(target.as_str());
    let (goes_to, through) = match unwrapped.as_deref().map(Uri::parse) {
        Some(inner) => match inner.host() {
            Some(h) if !h.is_empty() => (h.to_string(), Some(host)),
            _ => (host.to_string(), None),
        },
        None => (host.to_string(), None),
    };
    if same_site(&shown, &goes_to) {
        return None;
    }
    let via = match through {
        Some(r) => format!(" (through the redirector {r})"),
        None => String::new(),
    };
    Some(Finding::warning(
        "deceptive-link",
        format!(
            "the link's text shows {shown} but the link goes to \
             {goes_to}{via}"
        ),
    ))
}

/// Mail gateways that rewrite every link of a message into a token the
/// target cannot be read from (Mimecast): their links are not judged.
const OPAQUE_REWRITERS: &[&str] = &["mimecast.com", "mimecastprotect.com"];

/// File name extensions that are also country-code top-level domains: a
/// text such as `setup.py` or `README.md` names a file, not a site (with
/// a scheme or `www.` it is read as a host all the same).
const FILE_LIKE: &[&str] = &[
    "ai", "cc", "cs", "gz", "md", "mk", "ml", "mov", "pl", "pm", "ps", "py",
    "rb", "rs", "sh", "so", "zip",
];

/// The host an anchor's text shows, when the whole text (brackets,
/// quotes and final punctuation aside) is one URL with an authority
/// (`https://bank.example.com/login`) or a host name with a public
/// suffix, possibly with a path (`www.bank.example.com/login`).
fn shown_host(text: &str) -> Option<String> {
    let t = text
        .trim()
        .trim_start_matches(['<', '(', '[', '"', '\''])
        .trim_end_matches(['>', ')', ']', '"', '\'', '.', ',', ';', '!']);
    if t.is_empty() || t.contains(char::is_whitespace) {
        return None;
    }
    let bare = !t.contains("://");
    let rest = match t.find("://") {
        Some(i)
            if i > 0 && t[..i].chars().all(|c| c.is_ascii_alphabetic()) =>
        {
            &t[i + 3..]
        }
        Some(_) => return None,
        // An e-mail address shows a mailbox, not a site.
        None if t.contains('@') => return None,
        None => t,
    };
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority.rsplit('@').next()?;
    let host = match host_port.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
        _ => host_port,
    };
    let host = host.trim_end_matches('.');
    if host.is_empty() || (!has_public_suffix(host) && !is_ipv4(host)) {
        return None;
    }
    let last =
        host.rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
    if bare
        && !host.to_ascii_lowercase().starts_with("www.")
        && FILE_LIKE.contains(&last.as_str())
    {
        return None;
    }
    Some(host.to_ascii_lowercase())
}

fn is_ipv4(h: &str) -> bool {
    h.split('.').count() == 4 && h.split('.').all(|p| p.parse::<u8>().is_ok())
}

/// Whether two hosts are one site: the same registrable domain, or the
/// same IPv4 address. A target host that is neither a DNS name with a
/// public suffix nor an IPv4 address (a malformed `href`) is not judged:
/// taken as the same site.
fn same_site(shown: &str, target: &str) -> bool {
    let target = target.trim_end_matches('.');
    match (registrable_domain(shown), registrable_domain(target)) {
        (Some(x), Some(y)) => x == y,
        (_, None) if !is_ipv4(target) => true,
        _ => shown.eq_ignore_ascii_case(target),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warn(text: &str, href: &str) -> Option<String> {
        check(text, &Uri::parse(href)).map(|f| f.message)
    }

    #[test]
    fn text_showing_another_site_is_deceptive() {
        assert_eq!(
            warn(
                "https://bank.example.com/login",
                "http://evil.example.net/x"
            )
            .as_deref(),
            Some(
                "the link's text shows bank.example.com but the link goes \
                 to evil.example.net"
            )
        );
        assert!(
            warn("www.paypal.com", "http://paypa1.example.org/").is_some()
        );
        assert!(warn("<http://10.0.0.1/>", "http://10.0.0.2/").is_some());
    }

    #[test]
    fn text_showing_the_same_site_is_not() {
        assert_eq!(
            warn("https://bank.example.com", "https://www.bank.example.com/x"),
            None
        );
        assert_eq!(
            warn("bank.example.com.", "https://login.bank.example.com/"),
            None
        );
        assert_eq!(warn("Click here", "http://evil.example.net/"), None);
        assert_eq!(
            warn("Read more at bank.example.com", "http://evil.example.net/"),
            None
        );
        assert_eq!(warn("readme.txt", "http://evil.example.net/"), None);
        // File names whose extension is a country's domain.
        assert_eq!(warn("zcu111_clk_mgr.py", "https://github.com/x/y"), None);
        assert_eq!(warn("README.md", "https://github.com/x/y"), None);
        assert!(warn("www.setup.py", "https://github.com/x/y").is_some());
        // Links a gateway rewrote into a token: not judged.
        assert_eq!(
            warn(
                "172.17.0.2",
                "https://url.za.m.mimecastprotect.com/s/Al-NC9"
            ),
            None
        );
        // A malformed href's host is not judged.
        assert_eq!(
            warn("www.ilse.nl", "http://www.ilse.nl\u{a0}Search.NL"),
            None
        );
        assert_eq!(
            warn("mailto:a@bank.example.com", "http://evil.example.net/"),
            None
        );
    }

    #[test]
    fn redirectors_are_seen_through() {
        // A Microsoft Safe Links wrapper of the site the text shows.
        let safe = "https://nam02.safelinks.protection.outlook.com/?url=\
                    https%3A%2F%2Fwww.bank.example.com%2F&data=x";
        assert_eq!(warn("https://www.bank.example.com/", safe), None);
        // The same wrapper around another site.
        let other = "https://nam02.safelinks.protection.outlook.com/?url=\
                     http%3A%2F%2Fevil.example.net%2F&data=x";
        assert_eq!(
            warn("https://www.bank.example.com/", other).as_deref(),
            Some(
                "the link's text shows www.bank.example.com but the link \
                 goes to evil.example.net (through the redirector \
                 nam02.safelinks.protection.outlook.com)"
            )
        );
    }
}
