"""What the publication form's header says, in the edition's language: its policy, where the witnesses' text is.

The header is the lossless document's (:mod:`.header`), said again as a Chinese edition says it:
the subtitle, the ``<normalization>`` (which differences are no entries, each rule in force, and
that each witness's own characters are in the lossless file, named by a ``<ref>``), the
``<segmentation>`` (the witnesses' text that is not collated is in that file too), the
``<interpretation>`` of the reading types, the layers' names. A witness's file and layout (the
project's, not the edition's) are left out. Element and attribute names stay as TEI has them.
"""

from __future__ import annotations

import re
from typing import Any

from collate.exporters.tei.markup import NS, XML_ID, XML_LANG, E, ncname, splice
from collate.model import Layer
from collate.normalize.rules import DESCRIPTIONS_CHINESE

_SCRIPT = (
    "諸本以正規化之形相校，各以其本字錄之。此為出版本：唯諸本有異文處出校（app）。"
    "簡繁之異（如宾與賓）及標點不出校，與底本唯簡繁之異者列於底本之下。"
)
_ORTHOGRAPHIC_KEPT = "異體字、避諱字出校，其讀 type 為 orthographic，@cause、@ana 指其規則。"
_ORTHOGRAPHIC_REGULARIZED = "依編者之意，異體字、避諱字亦不出校（異體字不出校），有之者列於底本之下。"
_EXTANT = (
    "某本唯於其所存之處出校：其書缺頁、首尾不具，或唯存案語所引異文者，不存之處不列其本"
    "（不作空讀，空讀即脫文）。一讀而數寫者併為一讀，從首本之字。他本之頁行及底本所無之文不入此本。"
    "諸本原字、簡繁及存佚之條、未校之文，並見無損轉錄本"
)
_SEGMENTATION = "一字為一單位。各層唯與同層相校；所校之層：{layers}。某本所有而未校之文（他層、他書之文、標題）見"
_INTERPRETATION = (
    "異文之類（@type）：substantive 異文；transposition 倒文；omission 脫文（空讀：其本存而無此文）；"
    "addition 多文；scribal-error 誤字（編者所改，帶 @resp）；placeholder 佔位（數字化之佔位或代字，"
    '不為異文）；orthographic 異體（避諱字 @cause="taboo"）。某本所無之文以 witStart、witEnd 標之，'
    "不作脫文。案語所引異文帶 @source。印本之層標（注、疏）為 note 之 @subtype，不入正文。"
)
_DECISIONS = (
    "編者之定奪（@resp 指 titleStmt 所列編者）：取某本之讀者，其讀為 lem，底本之讀為 rdg；lem 帶 @resp "
    '而無他改者，編者從底本；編者改其類者，其讀之 @type 為編者所定，帶 @resp；lem 之 cert="low" 為存疑；'
    '編者之語為 app 內之 note type="editorial"（subtype 為 decision 或 doubt）。'
)
_LAYERS = re.compile(r"(\S+) \((\w+)\)")


def declare(root: Any, lossless: str, orthographic: bool) -> None:
    """State in ``root``'s header, in Chinese, that it is the publication form, pointing at the ``lossless`` file."""
    header = root.find(f"{{{NS['tei']}}}teiHeader")
    for title in header.xpath(".//tei:titleStmt/tei:title[@type='sub']", namespaces=NS):
        _say(title, "校勘記（出版本）" if orthographic else "校勘記（異體字不出校本）")
    for resp in header.xpath(".//tei:titleStmt/tei:respStmt/tei:resp", namespaces=NS):
        _say(resp, "定奪校記")
    for p in header.xpath(".//tei:publicationStmt/tei:p", namespaces=NS):
        _say(p, "collate 據項目文件所生。")
    for note in header.xpath(".//tei:listWit//tei:note[@type='source']", namespaces=NS):
        splice(note, [])  # the project's file and its layout: not the edition's
    for category in header.xpath(".//tei:classDecl//tei:category", namespaces=NS):
        layer = _layer(category.get(XML_ID) or "")
        for desc in category.xpath("tei:catDesc", namespaces=NS):
            _say(desc, layer.chinese if layer is not None else desc.text or "")
    for normalization in header.xpath(".//tei:editorialDecl/tei:normalization", namespaces=NS):
        _normalization(normalization, lossless, orthographic)
    for p in header.xpath(".//tei:editorialDecl/tei:segmentation/tei:p", namespaces=NS):
        layers = "、".join(zh for zh, _ in _LAYERS.findall(p.text or "")) or "無"
        for child in list(p):
            p.remove(child)
        _say(p, _SEGMENTATION.format(layers=layers))
        p.append(E.ref(lossless, target=lossless))
        p[-1].tail = "；底本者在其處，以 @source 標之。"
    interpretation = header.xpath(".//tei:editorialDecl/tei:interpretation/tei:p", namespaces=NS)
    for k, p in enumerate(interpretation):
        _say(p, _INTERPRETATION if k == 0 else _DECISIONS)
    if not root.xpath("//*[@xml:lang='en']", namespaces=NS):
        # Nothing is in English (the people's English names are, where the notes name people).
        for language in header.xpath(".//tei:langUsage/tei:language[@ident='en']", namespaces=NS):
            splice(language, [])


def _normalization(normalization: Any, lossless: str, orthographic: bool) -> None:
    """The policy, then each rule in force as the Chinese edition states it, then those not in force."""
    first = normalization[0]
    policy = _SCRIPT + (_ORTHOGRAPHIC_KEPT if orthographic else _ORTHOGRAPHIC_REGULARIZED) + _EXTANT
    normalization.replace(first, E.p(policy, E.ref(lossless, target=lossless), "。"))
    for name, words in DESCRIPTIONS_CHINESE.items():
        for p in normalization.xpath("tei:p[@xml:id=$i]", namespaces=NS, i=f"rule.{ncname(name)}"):
            _say(p, f"{name}：{words}")
    for p in normalization.xpath("tei:p[starts-with(., 'Not in force: ')]", namespaces=NS):
        _say(p, "未用之規則：" + (p.text or "")[len("Not in force: ") :].rstrip(".").replace(", ", "、") + "。")


def _say(element: Any, text: str) -> None:
    """``element`` says ``text`` (its children and its English mark gone)."""
    for child in list(element):
        element.remove(child)
    element.text = text
    element.attrib.pop(XML_LANG, None)


def _layer(value: str) -> Layer | None:
    return next((layer for layer in Layer if layer.value == value), None)
