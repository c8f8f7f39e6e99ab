"""The signs of a score, as the e-texts write them: the drum scores of 投壺 (魯鼓, 薛鼓).

A score is a run of signs: ○ a beat of the 鼓, □ one of the 鼙 (方者擊鼓 / 圜者擊鼙, as the 注 has
it; the prints differ on which is which, the collation need not decide), 半 the half. The
e-texts encode the signs variously: 〇 (U+3007) for ○; 囗 and ◍ (U+25CD, the 纂圖互註 print's
filled circle standing where the others print □, as its 音義 ``◍方鼔`` for ``□方鼓`` shows) for
□; ◛ (U+25DB) is a sign of that print alone and stays itself. Inside a run of signs, □ is a
sign, not a lost glyph, and ○ is a sign, not the 注疏 prints' segment mark.
"""

from __future__ import annotations

# Each sign and the one sign it is, whatever its encoding.
NOTATION_SIGNS = {"○": "○", "〇": "○", "□": "囗", "囗": "囗", "◍": "囗", "◛": "◛", "半": "半"}
NOTATION_CHARS = frozenset(NOTATION_SIGNS)
_CIRCLES = frozenset("○〇")
_SQUARES = frozenset("□囗◍")
NOTATION_RUN = 4  # signs in a row, circles and squares both, that make a score
_LINE_BREAK = frozenset("¶\r\n")  # a line break of the file (and the Mandoku line mark) inside a run


def in_notation(text: str, i: int) -> bool:
    """``text[i]`` stands in a score (○□○○□□○…): a run of its signs with circles and squares.

    A run may go on over a line break of the file (a score fills several printed lines). Alone,
    or among other characters, □ stays a placeholder and ○ a mark.
    """
    if text[i] not in NOTATION_CHARS:
        return False
    signs = [text[i]]
    for step in (-1, 1):
        k = i + step
        while 0 <= k < len(text) and (text[k] in NOTATION_CHARS or text[k] in _LINE_BREAK):
            if text[k] in NOTATION_CHARS:
                signs.append(text[k])
            k += step
    run = set(signs)
    return len(signs) >= NOTATION_RUN and bool(run & _CIRCLES) and bool(run & _SQUARES)
