#!/usr/bin/env python3
"""gen_charset_mbox.py: an mbox of text/plain messages in a legacy
charset where most characters are 8-bit bytes, with four URLs a
message: the input on which converting a charset to UTF-8 costs the
most per byte.

The words are Simplified Chinese for GBK, gb18030 and GB2312,
Traditional Chinese for Big5, Japanese for Shift_JIS, EUC-JP and ISO-2022-JP,
Korean for EUC-KR, and Russian for any other charset (windows-1251 by
default, KOI8-R, ISO-8859-5; one without Cyrillic letters is refused). Chinese and Japanese lines have no spaces between
words, as those languages are written.

Each message: a `From ` line, From, Subject and a Content-Type naming
the charset, `Content-Transfer-Encoding: 8bit` (or, with `--cte`,
`base64` or `quoted-printable`, as most CJK mail is sent), then 40
lines of ten words drawn (seeded) from a fixed list, a line with a URL
every ten.

Usage: gen_charset_mbox.py --size 8M --out /tmp/cyr.mbox
       gen_charset_mbox.py --size 8M --charset gbk --out F
       gen_charset_mbox.py --size 8M --charset big5 --cte base64 --out F
"""
import argparse
import base64
import codecs
import quopri
import random

WORDS = (
    "Привет мир это письмо содержит ссылку на сайт и много русского "
    "текста для проверки скорости"
).split()
# Per language: the words, what joins them, and the line around a URL.
LANGUAGES = {
    "ru": (WORDS, " ", "Смотрите http://example.ru/страница/%d подробнее."),
    "zh": (
        "你好 世界 这是 一封 邮件 包含 网站 链接 和 很多 中文 文字 用于 测试 速度".split(),
        "",
        "请看 http://example.cn/页面/%d 了解更多。",
    ),
    "zh-hant": (
        "你好 世界 這是 一封 郵件 包含 網站 鏈接 和 很多 中文 文字 用於 測試 速度".split(),
        "",
        "請看 http://example.tw/頁面/%d 了解更多。",
    ),
    "ja": (
        "こんにちは 世界 これは メール です サイト への リンク と 日本語 の "
        "文章 を 含み 速度 を 試験 します".split(),
        "",
        "詳しくは http://example.jp/ページ/%d をご覧ください。",
    ),
    "ko": (
        "안녕하세요 세계 이것은 사이트 링크와 많은 한국어 텍스트를 담은 속도 "
        "시험용 메일입니다".split(),
        " ",
        "자세한 내용은 http://example.kr/페이지/%d 를 보세요.",
    ),
}
# By Python's name of the codec (`codecs.lookup`), whatever the label.
CHARSET_LANGUAGE = {
    "gbk": "zh", "gb18030": "zh", "gb2312": "zh", "big5": "zh-hant",
    "shift_jis": "ja", "euc_jp": "ja", "iso2022_jp": "ja", "euc_kr": "ko",
}


def size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1:].upper() in units:
        return int(text[:-1]) * units[text[-1:].upper()]
    return int(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=size, default=8 << 20)
    ap.add_argument("--charset", default="windows-1251")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cte", default="8bit",
                    choices=["8bit", "base64", "quoted-printable"])
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    codec = codecs.lookup(args.charset).name
    words, joiner, url_line = LANGUAGES[CHARSET_LANGUAGE.get(codec, "ru")]
    try:
        (joiner.join(words) + url_line).encode(args.charset)
    except UnicodeEncodeError:
        ap.error("%s cannot write the words of its language" % args.charset)
    written, k = 0, 0
    with open(args.out, "wb") as out:
        while written < args.size:
            lines = []
            for line in range(40):
                lines.append(joiner.join(rng.choice(words) for _ in range(10)))
                if line % 10 == 0:
                    lines.append(url_line % k)
            head = (
                "From a@example.ru Mon Jan  1 00:00:00 2024\n"
                "From: a@example.ru\nSubject: test %d\n"
                "Content-Type: text/plain; charset=%s\n"
                "Content-Transfer-Encoding: %s\n\n" % (k, args.charset, args.cte)
            )
            body = "\n".join(lines).encode(args.charset) + b"\n"
            if args.cte == "base64":
                body = base64.encodebytes(body)
            elif args.cte == "quoted-printable":
                body = quopri.encodestring(body)
            msg = head.encode() + body + b"\n"
            out.write(msg)
            written += len(msg)
            k += 1


if __name__ == "__main__":
    main()
