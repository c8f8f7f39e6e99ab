"""Chinese numerals as the prints write them: the one alphabet the readers' patterns match, and
the conversions both ways.

The prints number their juan and chapters and count their characters in Chinese numerals
(卷六十二, 卷第六十九, 五禮通考卷一百六十三, 射義第四十六, 經三千二百二十三字, 凡三千五百五十四字), and so does
a 校勘記 (「A」至「B」凡十三字, 缺二頁, 一萬〇五十). The arithmetic is the ``cn2an`` library's; what it does
not do is written here, each rule with its reason:

- 〇 is the prints' zero (一百〇五) and 萬, 億 their units, where cn2an writes 零, 万, 亿: its
  output is written in the prints' characters (it reads either).
- 卅 (三十) and 卌 (四十) stand beside 廿 (二十) in older prints; cn2an reads 廿 but not these two.
- A 百, 千 or 萬 with no digit before it (此百字) is one of it, as 十 is ten; cn2an reads only
  十 so.
- Between 億 and a thousands digit, with the whole 萬 group between them empty (100,001,000),
  cn2an leaves out the zero (一亿一千): it is put back (一億〇一千), as 一億〇一萬 has it.

A numeral written digit by digit (一〇五, a year or a page as some catalogues give it) is what cn2an's
``normal`` mode reads as such. cn2an writes at most sixteen digits: no count of a book's
characters comes near.

cn2an takes a tenth of a second to import (it builds its tables on import), so it is imported by
the conversions: a reader needs the alphabet only.
"""

from __future__ import annotations

import re

# Every character of a printed numeral: digits (〇 and 零 both zero), units (万, 亿 in a simplified
# e-text), and 廿 卅 卌.
NUMERAL_CHARS = "〇零一二三四五六七八九十百千萬億万亿廿卅卌"
# A regex class of one numeral character: ``卷{NUMERAL}+``, ``第{NUMERAL}+``.
NUMERAL = f"[{NUMERAL_CHARS}]"

# The prints' characters for cn2an's (it writes the simplified units and 零).
_PRINTED = str.maketrans({"零": "〇", "万": "萬", "亿": "億"})
# What cn2an does not read, as what it does.
_TENS = str.maketrans({"卅": "三十", "卌": "四十"})
_LEADING_UNIT = re.compile("^(?=[百千萬万])")
_NUMERAL_TEXT = re.compile(f"{NUMERAL}+")


def chinese(n: int) -> str:
    """``n`` in Chinese numerals as counts are printed: 二, 十二, 二十, 一百〇五, 三百一十二, 一萬〇五十.

    一萬 (never 十千), 一萬二千, 十一萬, 一億, 一萬億; a zero inside is 〇, once. Raises ValueError
    for a negative number or one of more than sixteen digits.
    """
    import cn2an

    if n < 0:
        raise ValueError(f"not a count: {n}")
    text = str(cn2an.an2cn(n, "low"))
    if n >= 10**8 and (n // 10**4) % 10**4 == 0 and n % 10**4 >= 1000:
        text = text.replace("亿", "亿零", 1)
    return text.translate(_PRINTED)


def number(text: str) -> int:
    """The value of a Chinese numeral as a print writes it (六十二, 一百〇五, 廿一, 卅, 一〇五, 萬).

    Only the numeral: ``卷第六十九`` is read by the caller as 卷第 and ``六十九``. Raises ValueError
    for text that is not a numeral.
    """
    import cn2an

    if not _NUMERAL_TEXT.fullmatch(text):
        raise ValueError(f"not a Chinese numeral: {text!r}")
    try:
        return int(cn2an.cn2an(_LEADING_UNIT.sub("一", text.translate(_TENS)), "normal"))
    except KeyError:
        # cn2an's check of the units fails so on some numerals it means to refuse (十十一).
        raise ValueError(f"not a Chinese numeral: {text!r}") from None


__all__ = ["NUMERAL", "NUMERAL_CHARS", "chinese", "number"]
