//! Delimiting in context, as a table of named cases grouped by rule:
//! each input and the URLs urlx must print for it (usable hits, as
//! written or percent-encoded where RFC 3986 requires it). The spec
//! examples come first, each naming its source.

use std::collections::HashSet;

use urlx::{Context, Extractor, Hit};

/// (name, input, expected URLs)
type Case = (&'static str, &'static str, &'static [&'static str]);

const SPEC: &[Case] = &[
    (
        // draft-fielding-url-syntax-05, Appendix E.
        "url_syntax_05_appendix_e",
        "Yes, Jim, I found it under \"http://www.w3.org/pub/WWW/\",\n\
         but you can probably pick it up from <ftp://ds.internic.\n\
         net/rfc/>.  Note the warning in <http://ds.internic.net/\n\
         instructions/overview.html#WARNING>.",
        &[
            "http://www.w3.org/pub/WWW/",
            "ftp://ds.internic.net/rfc/",
            "http://ds.internic.net/instructions/overview.html#WARNING",
        ],
    ),
    (
        // RFC 3986 Appendix C (the final form of 2396bis Appendix E,
        // whose flattened copy lost the bracketed text), indented as in
        // the RFC.
        "rfc3986_appendix_c",
        "      Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",\n      \
         but you can probably pick it up from <ftp://foo.example.\n      \
         com/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/\n      \
         ietf/uri/historical.html#WARNING>.\n",
        &[
            "http://www.w3.org/Addressing/",
            "ftp://foo.example.com/rfc/",
            "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
        ],
    ),
    (
        // RFC 1738 appendix (English, corpora/text/rfc1738.txt l. 1222):
        // <URL:...> broken inside the host and after `;`.
        "rfc1738_appendix_en",
        "      Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\n      \
         type=d> but you can probably pick it up from <URL:ftp://ds.in\n      \
         ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.\n      \
         net/instructions/overview.html#WARNING>.\n",
        &[
            "ftp://info.cern.ch/pub/www/doc;type=d",
            "ftp://ds.internic.net/rfc",
            "http://ds.internic.net/instructions/overview.html#WARNING",
        ],
    ),
    (
        // RFC 1738 appendix, Chinese translation (spec/rfc1738-zh.txt).
        "rfc1738_appendix_zh",
        "是的,Jim,我发现它在<URL:ftp://info.cern.ch/pub/www/doc;type=d>上,但是你可\n\
         能能够从<URL:ftp://ds.internic.net/rfc>那儿获得它。请注意\n\
         <URL:http://ds.internic.net/instructions/overview.html#WARNING>上的警告。",
        &[
            "ftp://info.cern.ch/pub/www/doc;type=d",
            "ftp://ds.internic.net/rfc",
            "http://ds.internic.net/instructions/overview.html#WARNING",
        ],
    ),
    (
        // RFC 1738 reference [2]: a <URL:...> wrapped before a `/`.
        "rfc1738_reference_wrapped",
        "       University of Minnesota, July 1993.\n       \
         <URL:ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol\n       \
         /Gopher+/Gopher+.txt>\n",
        &[
            "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
        ],
    ),
    (
        // rfc1738-zh.txt section 3.1: `< ` then a line break, then URL:.
        "rfc1738_zh_userinfo_examples",
        "例如:<URL:ftp://@host.com/>的用户名为空并且没有密码,< \n\
         URL:ftp://host.com/>没有用户名,而<URL:ftp://foo:@host.com/>的用户名是“foo”",
        &["ftp://@host.com/", "ftp://host.com/", "ftp://foo:@host.com/"],
    ),
    (
        // rfc1738-zh.txt line 59: a URL right after CJK text and before
        // an ideographic full stop.
        "rfc1738_zh_url_prefix_in_cjk",
        "在URL:http://www.acl.lanl.gov/URI/archive/uri-archive.index.html。",
        &["http://www.acl.lanl.gov/URI/archive/uri-archive.index.html"],
    ),
    (
        // rfc1738-zh.txt section 3.6.
        "rfc1738_news_star",
        "(例如:<URL:news:*>),那么",
        &["news:*"],
    ),
    (
        // draft-ietf-dnsind-iana-dns-00 (corpora/text): hyphen break.
        "iana_dns_hyphen_break_in_angle",
        "   IANA DNS OpCode assignments are shown at <ftp://ftp.isi.edu/in-\n   \
         notes/iana/assignments/dns-parameters>.\n",
        &["ftp://ftp.isi.edu/in-notes/iana/assignments/dns-parameters"],
    ),
];

const RULES: &[Case] = &[
    // Rule 1-2: where a URL starts.
    ("bare_http", "see http://a.example/x now", &["http://a.example/x"]),
    ("scheme_case_kept", "HTTP://A.example/", &["HTTP://A.example/"]),
    ("scheme_in_word", "xhttp://a.example/", &["xhttp://a.example/"]),
    // A well-known scheme glued to the text before it starts on its own.
    ("scheme_glued_after_digit", "1http://a.example/", &["http://a.example/"]),
    (
        "scheme_glued_after_period",
        "the season.http://www.tesco.ie/Register/",
        &["http://www.tesco.ie/Register/"],
    ),
    (
        "scheme_glued_after_host",
        "lists.ettus.comhttp://lists.ettus.com/pipermail/",
        &["http://lists.ettus.com/pipermail/"],
    ),
    (
        "scheme_glued_after_word",
        "GUARANTEEDhttp://b.example/",
        &["http://b.example/"],
    ),
    (
        "scheme_glued_after_qp_escape",
        "<img src=3Dhttp://a.example/x.gif>",
        &["http://a.example/x.gif"],
    ),
    (
        "digits_before_registered_scheme",
        "a%22file:///etc/x%22 and 2ftp://a.example/f",
        &["file:///etc/x%22", "ftp://a.example/f"],
    ),
    (
        "percent_escape_before_scheme_without_slashes",
        "see %22mailto:joe@a.example and %2522cid:abc",
        &["mailto:joe@a.example", "cid:abc"],
    ),
    (
        "digits_glued_to_scheme_without_slashes",
        "<span id=\"gmail-m_-156105540658111525cid:70A3E5A1-EF1B\">",
        &[],
    ),
    (
        "compound_scheme_kept",
        "git+https://a.example/r.git",
        &["git+https://a.example/r.git"],
    ),
    ("registered_scheme_kept", "shttp://a.example/", &["shttp://a.example/"]),
    ("scheme_after_cjk", "在http://a.example/x。", &["http://a.example/x"]),
    ("time_is_not_url", "Note: 10:30", &[]),
    ("path_sep_is_not_url", "use std::vec; C:\\dir and c:/dir", &[]),
    ("subject_is_not_url", "Re: subject\nSubject: Re: x", &[]),
    ("unknown_opaque_scheme", "foo:bar and note:x", &[]),
    (
        "mailto",
        "write to mailto:joe@example.com.",
        &["mailto:joe@example.com"],
    ),
    ("news", "in news:comp.lang.c, see", &["news:comp.lang.c"]),
    ("urn", "urn:isbn:0451450523", &["urn:isbn:0451450523"]),
    ("tel", "call tel:+1-816-555-1212!", &["tel:+1-816-555-1212"]),
    ("opaque_then_space", "news: today and mailto: nobody", &[]),
    ("scheme_alone", "http:// and https://", &[]),
    (
        "two_urls_touching_comma",
        "http://a.example/,http://b.example/",
        &["http://a.example/,http://b.example/"],
    ),
    // Rule 3: wrappers are not part of the URL.
    ("angle", "<http://a.example/x>", &["http://a.example/x"]),
    ("angle_url_prefix", "<URL:http://a.example/x>", &["http://a.example/x"]),
    (
        "angle_url_prefix_space",
        "<URL: http://a.example/x >",
        &["http://a.example/x"],
    ),
    (
        "angle_url_prefix_lower",
        "<url:http://a.example/x>",
        &["http://a.example/x"],
    ),
    ("url_prefix_bare", "URL:http://a.example/x.", &["http://a.example/x"]),
    (
        "url_prefix_bare_space",
        "URL: http://a.example/x",
        &["http://a.example/x"],
    ),
    ("double_quotes", "\"http://a.example/x\"", &["http://a.example/x"]),
    ("single_quotes", "'http://a.example/x'", &["http://a.example/x"]),
    (
        "single_quote_inside_kept",
        "http://a.example/it's",
        &["http://a.example/it's"],
    ),
    ("typographic_quotes", "“http://a.example/x”", &["http://a.example/x"]),
    ("guillemets", "«http://a.example/x»", &["http://a.example/x"]),
    ("square_brackets", "[http://a.example/x]", &["http://a.example/x"]),
    ("braces", "{http://a.example/x}", &["http://a.example/x"]),
    ("parens", "(http://a.example/x)", &["http://a.example/x"]),
    ("parens_then_text", "(http://a.example/x)and", &["http://a.example/x"]),
    ("markdown", "[text](http://a.example/x \"t\")", &["http://a.example/x"]),
    (
        "markdown_parens",
        "[w](http://en.wikipedia.org/wiki/Foo_(bar))",
        &["http://en.wikipedia.org/wiki/Foo_(bar)"],
    ),
    (
        "href",
        "<a href=\"http://a.example/x?a=1&b=2\">x</a>",
        &["http://a.example/x?a=1&b=2"],
    ),
    ("href_single", "<a HREF='http://a.example/x'>", &["http://a.example/x"]),
    // A quoted attribute fixes the extent: what RFC 3986 does not allow
    // is percent-encoded, as browsers do.
    (
        "href_with_space_encoded",
        "<a href=\"http://a.example/search?q=a b\">x</a>",
        &["http://a.example/search?q=a%20b"],
    ),
    (
        "href_mailto_subject_space",
        "<a href=\"mailto:x@example.com?subject=Hello World\">",
        &["mailto:x@example.com?subject=Hello%20World"],
    ),
    (
        "href_built_by_script",
        "document.write('<IFRAME SRC=\"http://ad.example/x;ord=' + same + '?\">')",
        &["http://ad.example/x;ord="],
    ),
    (
        "href_trailing_period_kept",
        "<a href=\"http://a.example/x.\">",
        &["http://a.example/x."],
    ),
    (
        "url_prefix_pipe_encoded",
        "<URL: http://a.example/s?lr=lang_en|lang_sv&ie=UTF-8 >",
        &["http://a.example/s?lr=lang_en%7Clang_sv&ie=UTF-8"],
    ),
    (
        "fragment_inside_wrapper",
        "<http://a.example/x#frag>",
        &["http://a.example/x#frag"],
    ),
    ("angle_not_url", "<john@example.com> <Re: x> <news: y>", &[]),
    (
        "angle_unclosed",
        "a <http://a.example/x and more",
        &["http://a.example/x"],
    ),
    (
        "angle_blank_line",
        "<http://a.example/x\n\nnext>",
        &["http://a.example/x"],
    ),
    // Rule 4: whitespace inside angle brackets.
    (
        "angle_wrapped_indent",
        "<http://a.example/very/\n\t  long/path>",
        &["http://a.example/very/long/path"],
    ),
    (
        "angle_wrapped_crlf",
        "<http://a.example/very/\r\n  long/path>",
        &["http://a.example/very/long/path"],
    ),
    (
        "angle_leading_newline",
        "<\nhttp://a.example/x>",
        &["http://a.example/x"],
    ),
    // Rule 5: the end of a bare URL.
    ("ends_at_space", "http://a.example/x y", &["http://a.example/x"]),
    ("ends_at_tab", "http://a.example/x\ty", &["http://a.example/x"]),
    ("ends_at_lt", "http://a.example/x<y", &["http://a.example/x"]),
    // UTS #58 Include: kept, percent-encoded when printed.
    ("pipe_encoded", "http://a.example/x|y", &["http://a.example/x%7Cy"]),
    ("ends_at_backslash", "http://a.example/x\\y", &["http://a.example/x"]),
    // A byte of 0x80 or more escaped `\xHH`, as Apache and nginx log
    // request fields and as C and Python strings write it: that byte,
    // printed percent-encoded (RFC 3986 2.1, RFC 3987 3.1).
    (
        "log_escaped_bytes_in_path_and_query",
        "200 \"http://a.example/caf\\xc3\\xa9.html?q=\\xE4\" \"Mozilla/5.0\"",
        &["http://a.example/caf%C3%A9.html?q=%E4"],
    ),
    (
        "log_escaped_bytes_in_host",
        "\"http://b\\xc3\\xbcro.example/x\" -",
        &["http://b%C3%BCro.example/x"],
    ),
    (
        "log_escaped_byte_at_the_end",
        "see http://a.example/\\xe4. Then",
        &["http://a.example/%E4"],
    ),
    (
        "log_escaped_bytes_in_mailto_domain",
        "mailto:x@b\\xc3\\xbcro.example",
        &["mailto:x@b%C3%BCro.example"],
    ),
    (
        "log_escaped_byte_first_after_colon",
        "mailto:\\xc3\\xa4x@example.com",
        &["mailto:%C3%A4x@example.com"],
    ),
    (
        "hyphen_break_before_log_escaped_byte",
        "http://a.example/x-\n  \\xe4y",
        &["http://a.example/x-%E4y"],
    ),
    // Below 0x80 (a quote, a control) or not hex: the URL ends.
    (
        "log_escaped_quote_ends",
        "\"http://a.example/x\\x22y\"",
        &["http://a.example/x"],
    ),
    (
        "backslash_x_not_hex_ends",
        "http://a.example/x\\xgg",
        &["http://a.example/x"],
    ),
    (
        "backslash_x_short_ends",
        "http://a.example/x\\x8",
        &["http://a.example/x"],
    ),
    // A backslash escape right before a scheme (a JSON log line, a C or
    // Python string) is not part of the scheme: `\n` is a line break,
    // `\u003c` a `<`, `\xe4` a byte.
    (
        "json_newline_escape_before_scheme",
        "{\"msg\":\"line one\\nhttp://a.example/b\\tnext\"}",
        &["http://a.example/b"],
    ),
    (
        "c_tab_escape_before_scheme",
        "printf(\"x\\thttps://a.example/c\");",
        &["https://a.example/c"],
    ),
    (
        "return_escape_before_opaque_scheme",
        "\"x\\rmailto:bob@a.example\"",
        &["mailto:bob@a.example"],
    ),
    (
        "unicode_escape_before_scheme",
        "\"see \\u003cgopher://a.example/1x\\u003e\"",
        &["gopher://a.example/1x"],
    ),
    (
        "byte_escape_before_scheme",
        "\"\\xe4abc://a.example/x\"",
        &["abc://a.example/x"],
    ),
    // A registered scheme stays whole after a backslash (a Windows path,
    // `\f` or `\t` read as an escape would cut it).
    (
        "backslash_before_registered_schemes",
        "see \\file:///C:/x and \\ftp://ftp.a.example/ and x\\tel:+15551234",
        &["file:///C:/x", "ftp://ftp.a.example/", "tel:+15551234"],
    ),
    (
        "backslash_before_news",
        "bookmarks\\news:comp.lang.c",
        &["news:comp.lang.c"],
    ),
    // An escaped backslash: the letter after it is text.
    (
        "escaped_backslash_then_letter",
        "\"C:\\\\nhttp://a.example/x\"",
        &["nhttp://a.example/x"],
    ),
    ("caret_encoded", "http://a.example/x^y", &["http://a.example/x%5Ey"]),
    (
        "braces_paired_encoded",
        "http://a.example/{id}/x",
        &["http://a.example/%7Bid%7D/x"],
    ),
    // UTS #58 Soft: `"` inside bare text, dropped at the end.
    (
        "double_quote_inside_bare",
        "https://nap.wikipedia.org/wiki/Lista_d\"e_vvoce",
        &["https://nap.wikipedia.org/wiki/Lista_d%22e_vvoce"],
    ),
    (
        "double_quote_at_end_dropped",
        "see http://a.example/x\" she said",
        &["http://a.example/x"],
    ),
    ("ends_at_backquote", "`http://a.example/x`", &["http://a.example/x"]),
    ("ends_at_control", "http://a.example/x\x1b[0m", &["http://a.example/x"]),
    // UTS #58 Link_Term decides for non-ASCII: Soft inside, not last.
    (
        "cjk_comma_inside_kept",
        "http://a.example/x、y",
        &["http://a.example/x、y"],
    ),
    (
        "cjk_comma_at_end_dropped",
        "http://a.example/x、 y",
        &["http://a.example/x"],
    ),
    (
        "en_dash_kept",
        "https://en.wikipedia.org/wiki/Hatfield–McCoy_feud",
        &["https://en.wikipedia.org/wiki/Hatfield–McCoy_feud"],
    ),
    ("cent_sign_kept", "http://shop.example/¢/", &["http://shop.example/¢/"]),
    ("copyright_kept", "http://a.example/©x", &["http://a.example/©x"]),
    ("emoji_kept", "http://a.example/😀x", &["http://a.example/😀x"]),
    (
        "zwnj_kept",
        "https://azb.wikipedia.org/wiki/ویکی\u{200c}پدیا",
        &["https://azb.wikipedia.org/wiki/ویکی\u{200c}پدیا"],
    ),
    (
        "tibetan_shad_dropped",
        "https://bo.wikipedia.org/wiki/ཐོ།",
        &["https://bo.wikipedia.org/wiki/ཐོ"],
    ),
    (
        "fullwidth_parens_paired",
        "http://a.example/（x）",
        &["http://a.example/（x）"],
    ),
    (
        "ends_at_fullwidth_paren",
        "（http://a.example/x）",
        &["http://a.example/x"],
    ),
    ("ends_at_nbsp", "http://a.example/x\u{a0}y", &["http://a.example/x"]),
    (
        "iri_letters_kept",
        "https://de.wikipedia.org/wiki/Straße.",
        &["https://de.wikipedia.org/wiki/Straße"],
    ),
    ("iri_host", "http://例え.jp/", &["http://例え.jp/"]),
    // UTS 46 reads a fullwidth form as its ASCII character: `｜` cannot
    // be in a host name (linkify-it's asian vertical pipes); in the path
    // it is UTS #58 Include, as `|` is.
    (
        "host_ends_at_fullwidth_pipe",
        "｜http://google.com｜bar http://a.example/x｜y",
        &["http://google.com", "http://a.example/x｜y"],
    ),
    // The full stops UTS 46 maps to `.` separate a host's labels when
    // the host then ends in a public suffix; otherwise they end the URL.
    (
        "host_with_ideographic_full_stops",
        "http://ｇｏｏｇｌｅ．com/x http://普遍适用测试。我爱你/ http://a｡b.com",
        &[
            "http://ｇｏｏｇｌｅ．com/x",
            "http://普遍适用测试。我爱你/",
            "http://a｡b.com",
        ],
    ),
    (
        "ideographic_full_stop_after_host",
        "见http://example.com。下一句 http://a.example。 详见http://example.\
         com。Google 也支持 http://192.168.1.1。com",
        &[
            "http://example.com",
            "http://a.example",
            "http://example.com",
            "http://192.168.1.1",
        ],
    ),
    ("trailing_period", "http://a.example/x.", &["http://a.example/x"]),
    ("trailing_many", "http://a.example/x?!.", &["http://a.example/x"]),
    ("trailing_colon", "http://a.example/x:", &["http://a.example/x"]),
    ("trailing_ellipsis", "http://a.example/x...", &["http://a.example/x"]),
    (
        "inner_period_kept",
        "http://a.example/x.html",
        &["http://a.example/x.html"],
    ),
    (
        "query_kept",
        "http://a.example/?q=a,b;c",
        &["http://a.example/?q=a,b;c"],
    ),
    (
        "wikipedia_parens",
        "http://en.wikipedia.org/wiki/Foo_(bar)",
        &["http://en.wikipedia.org/wiki/Foo_(bar)"],
    ),
    (
        "wikipedia_in_parens",
        "(see http://en.wikipedia.org/wiki/Foo_(bar)).",
        &["http://en.wikipedia.org/wiki/Foo_(bar)"],
    ),
    ("unbalanced_paren", "see (http://a.example/x).", &["http://a.example/x"]),
    ("close_paren_in_text", "http://a.example/x) y", &["http://a.example/x"]),
    // UTS #58 Link_Bracket: a closer that pairs with nothing ends it.
    (
        "unmatched_closer_ends",
        "[URL:http://devil.example/joe_r/]==",
        &["http://devil.example/joe_r/"],
    ),
    ("closer_inside_ends", "http://a.example/x]y", &["http://a.example/x"]),
    (
        "trailing_open_paren_dropped",
        "http://c.example/(",
        &["http://c.example/"],
    ),
    (
        "footnote_marker_dropped",
        "see http://host.example/[2] and",
        &["http://host.example/"],
    ),
    (
        "footnote_marker_in_parens",
        "(http://host.example[2])",
        &["http://host.example"],
    ),
    (
        "hyphen_after_host_dropped",
        "http://host.example- and more",
        &["http://host.example"],
    ),
    // A `'` ends the host (`http://host.example's page`), but one in
    // the userinfo is RFC 3986 3.2.1's: the host follows the `@`.
    (
        "apostrophe_after_host_ends_it",
        "http://host.example's page and 'http://a.example','b@c.example'",
        &["http://host.example", "http://a.example"],
    ),
    (
        "apostrophe_in_userinfo",
        "http://bank.example'@evil.example/x and \
         https://user:!$&'()*+,;=@example.com/",
        &[
            "http://bank.example'@evil.example/x",
            "https://user:!$&'()*+,;=@example.com/",
        ],
    ),
    (
        "apostrophe_and_at_before_punctuation",
        "foo+bar://a.example'@. and http://b.example'@ and \
         http://c.example'@*[ and http://u'@[::]/x",
        &[
            "foo+bar://a.example",
            "http://b.example",
            "http://c.example",
            "http://u'@[::]/x",
        ],
    ),
    // What follows the host's own `'` does not make a host of `_`: the
    // URL ends where it ends alone (a printed URL extracts to itself).
    (
        "apostrophe_and_at_before_a_second_quote",
        "http://1.2.3.4'@_'http://a.example and http://1.2.3.4'@_",
        &["http://1.2.3.4", "http://a.example", "http://1.2.3.4"],
    ),
    (
        "markdown_emphasis_star",
        "*http://a.example/x*",
        &["http://a.example/x"],
    ),
    (
        "markdown_emphasis_underscore",
        "_http://b.example/_",
        &["http://b.example/"],
    ),
    ("markdown_emphasis_tilde", "~http://c.example/~", &["http://c.example/"]),
    ("markdown_strong", "**http://a.example/x**", &["http://a.example/x"]),
    ("star_in_url_kept", "http://a.example/*x*", &["http://a.example/*x*"]),
    (
        "mailto_before_another_url",
        "<a href=\"mailto:http://61.129.81.99/tbone/remove.html\">",
        &["http://61.129.81.99/tbone/remove.html"],
    ),
    (
        "mailto_ends_at_domain",
        "mailto:john.smith@example.com/foo/bar",
        &["mailto:john.smith@example.com"],
    ),
    (
        "mailto_two_addresses",
        "mailto:a@x.example,b@y.example now",
        &["mailto:a@x.example,b@y.example"],
    ),
    (
        "mailto_header_fields",
        "mailto:a@x.example?subject=hi/there",
        &["mailto:a@x.example?subject=hi/there"],
    ),
    ("ipv6", "http://[::1]:8080/x", &["http://[::1]:8080/x"]),
    (
        "ipv6_in_brackets",
        "[http://[2001:db8::7]/c=GB]",
        &["http://[2001:db8::7]/c=GB"],
    ),
    ("percent", "http://a.example/%7Efoo", &["http://a.example/%7Efoo"]),
    // Rule 6: hyphen line breaks.
    (
        "hyphen_break_bare",
        "see http://a.example/long-\n  path/x.html for",
        &["http://a.example/long-path/x.html"],
    ),
    (
        "hyphen_break_trailing_space",
        "http://a.example/a- \r\n b",
        &["http://a.example/a-b"],
    ),
    (
        "hyphen_at_end_of_text",
        "http://a.example/a-\n\nNext",
        &["http://a.example/a-"],
    ),
    (
        "no_break_without_hyphen",
        "http://a.example/a\nb",
        &["http://a.example/a"],
    ),
    // Quoted replies: the prefix of the line the URL starts on is not
    // part of the URL on its continuation lines.
    (
        "quoted_angle",
        "> see <http://a.example/very/\n> long/path> ok",
        &["http://a.example/very/long/path"],
    ),
    (
        "quoted_angle_deep",
        ">> see <URL:http://a.example/very/\n>>   long/path>",
        &["http://a.example/very/long/path"],
    ),
    (
        "quoted_angle_pipe",
        "| see <http://a.example/x/\n| y>",
        &["http://a.example/x/y"],
    ),
    (
        "quoted_angle_close_next_line",
        "> <http://a.example/x\n> >",
        &["http://a.example/x"],
    ),
    (
        "unquoted_close_next_line",
        "<http://a.example/x\n> and>",
        &["http://a.example/x"],
    ),
    (
        "quoted_hyphen_break",
        "> http://a.example/long-\n> path",
        &["http://a.example/long-path"],
    ),
    // Validity decides what is printed by default.
    ("invalid_port", "http://a.example:99999/", &[]),
    // `%` as data is written `%25` (RFC 3986 2.4).
    (
        "lone_percent_encoded",
        "http://a.example/%zz",
        &["http://a.example/%25zz"],
    ),
    // Host names (RFC 1123 2.1, UTS #58): no empty label, no label
    // starting or ending with `-`.
    ("host_empty_label", "http://.foo.example.com/ http://foo..x/", &[]),
    ("host_label_hyphen", "http://-foo.example-.com/x", &[]),
    ("host_root_dot_kept", "http://a.example./x", &["http://a.example./x"]),
    // Not URLs: form labels, emphasis, uuencoded data.
    ("fax_label_not_url", "Fax:755-8742 Fax:________", &[]),
    ("fax_global_number", "fax:+1-555-1234", &["fax:+1-555-1234"]),
    ("news_star_in_emphasis", "*Internet news:*", &[]),
    ("news_star_alone", "news:* lists every group", &["news:*"]),
    (
        // A line of a uuencoded file in the 20 Newsgroups sample
        // (20news-bydate-test/comp.os.ms-windows.misc/10140, line 1042).
        "uuencoded_line",
        "begin 644 x.zip\nM[MKT\"L)C[<[.D://J#(,1JC2G!A^CJ NG-P C_\\!K[W\\_R?K>UX3S[.N9]$%\nend\n",
        &[],
    ),
    ("relative_without_base", "<URL:../x.html>", &[]),
];

fn printed_urls(text: &str) -> Vec<String> {
    let ex = Extractor::builder().build().unwrap();
    ex.find(text.as_bytes())
        .iter()
        .filter_map(|h| h.usable().map(str::to_string))
        .collect()
}

fn hits(text: &str) -> Vec<Hit> {
    Extractor::builder()
        .line_numbers(true)
        .build()
        .unwrap()
        .find(text.as_bytes())
}

#[test]
fn case_names_are_unique() {
    let mut seen = HashSet::new();
    for (name, _, _) in SPEC.iter().chain(RULES) {
        assert!(seen.insert(name), "duplicate case name {name}");
    }
}

#[test]
fn spec_examples() {
    let mut failed = Vec::new();
    for (name, input, want) in SPEC {
        let got = printed_urls(input);
        if got != *want {
            failed.push(format!("{name}:\n  want {want:?}\n  got  {got:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn rules() {
    let mut failed = Vec::new();
    for (name, input, want) in RULES {
        let got = printed_urls(input);
        if got != *want {
            failed.push(format!("{name}:\n  want {want:?}\n  got  {got:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn contexts() {
    let cases: &[(&str, Context)] = &[
        ("x http://a.example/ y", Context::Bare),
        ("<http://a.example/>", Context::Angle),
        ("<URL:http://a.example/>", Context::UrlPrefix),
        ("URL: http://a.example/", Context::UrlPrefix),
        ("-<URL:news:a.example>", Context::UrlPrefix),
        // `URL:` after scheme bytes that cannot start a scheme is no
        // prefix: the URL after it is in angle brackets.
        ("x -URL:<news:a.example>", Context::Angle),
        ("=3DURL:<news:a.example>", Context::Angle),
        ("\"http://a.example/\"", Context::Quote),
        ("“http://a.example/”", Context::Quote),
        ("(http://a.example/)", Context::Bracket),
        ("[x](http://a.example/)", Context::Markdown),
        ("<a href=\"http://a.example/\">", Context::Href),
    ];
    for (input, want) in cases {
        let h = hits(input);
        assert_eq!(h.len(), 1, "{input}");
        assert_eq!(h[0].context(), *want, "{input}");
    }
    // Nor is such a `URL` a scheme of its own.
    for input in ["x -URL://a.example/", "=3DURL://a.example/ y"] {
        assert!(hits(input).is_empty(), "{input}");
    }
}

#[test]
fn hyphen_break_flag_and_alternative() {
    let h = hits("<ftp://ftp.isi.edu/in-\n   notes/iana/x>");
    assert_eq!(h.len(), 1);
    assert!(h[0].hyphen_break());
    assert_eq!(h[0].url(), "ftp://ftp.isi.edu/in-notes/iana/x");
    assert_eq!(h[0].alternative(), Some("ftp://ftp.isi.edu/innotes/iana/x"));
    let h = hits("http://a.example/long-\n path");
    assert!(h[0].hyphen_break());
    assert_eq!(h[0].alternative(), Some("http://a.example/longpath"));
    let h = hits("<http://a.example/a/\n b>");
    assert!(!h[0].hyphen_break());
    assert_eq!(h[0].alternative(), None);
}

/// A line that starts with `scheme://` is a URL of its own, not the
/// continuation of a hyphen break: lists of URLs, urlx's own output
/// among them, stay apart.
#[test]
fn hyphen_break_does_not_swallow_the_next_url() {
    let h = hits("http://a.example/x-\nhttp://b.example/\n");
    let urls: Vec<&str> = h.iter().map(|h| h.url()).collect();
    assert_eq!(urls, ["http://a.example/x-", "http://b.example/"]);
    assert!(!h[0].hyphen_break());
    // A continuation that merely contains "://" later still joins.
    let h = hits("http://a.example/?u=x-\n  y&v=http://z");
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].url(), "http://a.example/?u=x-y&v=http://z");
}

/// `<URL:URL:...>`: the prefix written twice is stripped as one.
#[test]
fn doubled_url_prefix() {
    let h = hits("<URL:URL:news:a.b> <URL:url:http://a.example/x>");
    let urls: Vec<&str> = h.iter().map(|h| h.url()).collect();
    assert_eq!(urls, ["news:a.b", "http://a.example/x"]);
}

/// A byte escape: the hit's URL percent-encodes it, its extent is the
/// escaped text, and a hyphen break's variant is encoded too.
#[test]
fn byte_escapes_keep_their_extent() {
    let text =
        "\"GET / HTTP/1.1\" 200 \"http://a.example/\\xC3\\xA9-\n  x\" \"-\"";
    let h = hits(text);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].url(), "http://a.example/%C3%A9-x");
    assert_eq!(h[0].alternative(), Some("http://a.example/%C3%A9x"));
    assert!(h[0].is_valid());
    let (start, end) = (h[0].start() as usize, h[0].end() as usize);
    assert_eq!(&text[start..end], "http://a.example/\\xC3\\xA9-\n  x");
}

#[test]
fn offsets_lines_columns() {
    let text = "one\n  two <http://a.example/\n x> http://b.example/";
    let h = hits(text);
    assert_eq!(h.len(), 2);
    assert_eq!((h[0].line(), h[0].column()), (2, 8));
    assert_eq!(h[0].start(), 11);
    assert_eq!(&text[11..h[0].end() as usize], "http://a.example/\n x");
    assert_eq!((h[1].line(), h[1].column()), (3, 5));
    assert_eq!(
        &text[h[1].start() as usize..h[1].end() as usize],
        "http://b.example/"
    );
}

#[test]
fn invalid_hits_have_reasons() {
    let h = hits("http:// and http://a.example:99999/ and <URL:x/y>");
    assert_eq!(h.len(), 3);
    for hit in &h {
        assert!(!hit.is_valid(), "{}", hit.url());
        assert!(!hit.errors().is_empty());
        assert_eq!(hit.resolved(), None);
    }
    assert_eq!(h[2].url(), "x/y");
}

#[test]
fn relative_reference_resolves_against_base() {
    let ex =
        Extractor::builder().base(Some("http://a/b/c/d;p?q")).build().unwrap();
    let h = ex.find(b"see <URL:../g> and <URL:g?y#s> and http://x/a/./b/../c");
    let got: Vec<_> =
        h.iter().map(|h| (h.url(), h.resolved(), h.is_valid())).collect();
    assert_eq!(
        got,
        [
            ("../g", Some("http://a/b/g"), true),
            ("g?y#s", Some("http://a/b/c/g?y#s"), true),
            ("http://x/a/./b/../c", Some("http://x/a/c"), true),
        ]
    );
}

#[test]
fn bad_base_is_an_error() {
    assert!(Extractor::builder().base(Some("../x")).build().is_err());
    assert!(Extractor::builder().base(Some("http://a b/")).build().is_err());
}

#[test]
fn max_url_len_drops_long_candidates() {
    let long =
        format!("http://a.example/{} http://b.example/", "x".repeat(100));
    let ex = Extractor::builder().max_url_len(64).build().unwrap();
    let got: Vec<_> =
        ex.find(long.as_bytes()).iter().map(|h| h.url().to_string()).collect();
    assert_eq!(got, ["http://b.example/"]);
}

#[test]
fn max_url_len_drops_long_wrapped_candidates() {
    // A wrapped URL longer than the limit is dropped whole, not cut at
    // its first line break.
    let text = format!(
        "<http://a.example/{}\n  {}> http://b.example/",
        "x".repeat(40),
        "y".repeat(40)
    );
    let ex = Extractor::builder().max_url_len(64).build().unwrap();
    let got: Vec<_> =
        ex.find(text.as_bytes()).iter().map(|h| h.url().to_string()).collect();
    assert_eq!(got, ["http://b.example/"]);
}
