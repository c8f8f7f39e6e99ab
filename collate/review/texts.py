"""The review's words, in Chinese for a Chinese edition and in English (``--lang en``).

Every label, prompt, message and help line the review shows is here, under one key with its
two forms, so the two languages cannot drift apart key by key; the names of classes and
decisions are those the HTML edition prints (異文, 脫文, 從底本, 改從 …). A note's claims are worded
from their fields in the interface's language, as the HTML edition and the JSON word them
(:mod:`collate.model.claim_words`), so a Chinese screen never shows an English sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from collate.apparatus import ReadingClass
from collate.model import Cause, Layer
from collate.model.annotations import DecisionAction, NoteClaim
from collate.model.claim_words import chinese, english

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")

# Each class's name in the two languages (ReadingClass.chinese, .english).
CLASS_NAMES: dict[ReadingClass, tuple[str, str]] = {c: (c.chinese, c.english) for c in ReadingClass}
_CAUSES = frozenset(c.value for c in Cause)
ACTION_NAMES: dict[DecisionAction, tuple[str, str]] = {
    DecisionAction.KEEP: ("從底本", "keep the base reading"),
    DecisionAction.ADOPT: ("改從", "adopt"),
    DecisionAction.RECLASSIFY: ("改類", "reclassify"),
    DecisionAction.DOUBT: ("存疑", "存疑 doubtful"),
    DecisionAction.MERGE: ("合併", "merge"),
    DecisionAction.SPLIT: ("拆分", "split"),
}

# key: (Chinese, English); {names} are filled in by Words.__call__.
_T: dict[str, tuple[str, str]] = {
    # status line and locus
    "decided": ("已決", "decided"),
    "undecided": ("未決", "undecided"),
    "orphaned": ("失位", "orphaned"),
    "editor": ("校者", "editor"),
    "batch_mode": ("同改", "BATCH"),
    "full_mode": ("全文", "FULL"),
    "of_all": ("共{n}", "of {n}"),
    "no_loci": ("沒有要校的異文。", "No variant loci to review."),
    "col_siglum": ("校本", "siglum"),
    "col_text": ("此處文字", "text at this place"),
    "col_class": ("類", "class"),
    "col_place": ("出處", "place"),
    "same_as_base": ("同底本", "= base"),
    "base_row": ("底本", "base"),
    # The witnesses without a line of their own, after their names (「餘並同」): TLS、集說本 同底本.
    "group_agree": (" 同底本", " = base"),
    "group_silent": (" 此處無記", ": silent here"),
    "group_absent": (" 此處不存", ": not extant here"),
    "silent": ("此處無記：同底本", "silent here: reads as the base"),
    "reported": ("所記異文", "reported reading"),
    "not_extant": ("此處不存", "not extant here"),
    "glossed": ("所釋經文", "the 經 it explains"),
    "long": ("（共{n}字，e 展開）", " ({n} characters, e shows all)"),
    "lemma_base": ("已決：從底本「{lemma}」", "decided: lemma {lemma} (base)"),
    "lemma_adopted": ("已決：改從 {siglum}「{lemma}」", "decided: lemma {lemma} ({siglum})"),
    "undecided_here": ("未決", "undecided"),
    "as_class": ("「{reading}」作{cls}", "{reading} as {cls}"),
    "merged_with": ("與後一處合併", "merged with the next locus"),
    "split_at": ("於第{at}字後拆分", "split after {at} characters"),
    "same_pair": (
        "{n}處同作{pair}：按 b，下一決定通用於全部。",
        "{n} loci read {pair}: b applies the next decision to all.",
    ),
    "suggest": ("建議：{what}（{resp}：「{words}」）  y 採納", "suggested: {what} ({resp}: 「{words}」)  y accepts"),
    "suggest_keep": ("從底本", "keep the base reading"),
    "suggest_adopt": ("改從 {siglum}「{reading}」", "adopt {siglum} {reading}"),
    "ground_rejected": ("案語以其為誤", "the note calls it wrong"),
    "ground_same": ("案語謂其義同", "the note finds the sense the same"),
    "ground_preferred": ("案語以其為勝", "the note prefers it"),
    "ground_fuller": ("案語以有之為備", "the note prefers the fuller text"),
    "ground_emended": ("案語校改", "the note emends it"),
    "ground_confirmed": ("案語所記，核對相符", "the note reports it, and the text has it"),
    "what_reattach": ("接回", "re-attach"),
    "what_drop": ("刪除", "drop"),
    "what_regularize": ("規整", "regularization"),
    "pending_rule": (
        "規整（待重跑）：{siglum}「{variant}」讀作「{standard}」（{scope}）  u 撤銷",
        "regularized (pending the next run): {siglum} {variant} read as {standard} ({scope})  u undoes",
    ),
    "hidden_graphs": ("另有異體 {n} 處", "{n} graphs hidden"),
    # messages
    "saved": ("{what}：{where}，已存入 {file}", "{what}: {where} — saved to {file}"),
    "not_saved": ("未存：{error}", "NOT SAVED: {error}"),
    "cancelled": ("已取消", "cancelled"),
    "doubt_needs_why": ("未記：存疑須說明理由", "not recorded: say why it is doubtful"),
    "batch_on": ("同改：下一決定通用於{n}處", "batch: the next decision applies to {n} loci"),
    "batch_off": ("同改已關", "batch off"),
    "all_decided": ("每一處皆已決", "every locus is decided"),
    "no_page": ("第{page}頁及其後無異文", "no locus on or after page {page}"),
    "page": ("第{page}頁", "page {page}"),
    "last": ("已是最後一處", "that was the last locus"),
    "first": ("已是第一處", "this is the first locus"),
    "loci_n": ("{n}處", "{n} loci"),
    "filtered": ("篩選：{n}處", "filter: {n} loci"),
    "filter_none": ("沒有符合的異文，篩選不變", "no locus matches: the filter is as it was"),
    "filter_off": ("篩選已清除", "filter cleared"),
    "nothing_undo": ("無可撤銷", "nothing to undo"),
    "nothing_redo": ("無可重做", "nothing to redo"),
    "undone": ("已撤銷：{what}", "undone: {what}"),
    "redone": ("已重做：{what}", "redone: {what}"),
    "merged": ("已合併為 {locus}", "merged into {locus}"),
    "split_into": ("已拆分為 {loci}", "split into {loci}"),
    "now_orphaned": ("；{n}條決定失位（o 查看）", "; {n} decisions orphaned (o shows them)"),
    "no_orphans": ("沒有失位的決定", "no orphaned decisions"),
    "reattached": ("已接到 {locus}", "re-attached to {locus}"),
    "dropped": ("已刪除失位的決定", "orphaned decision dropped"),
    "cannot_reattach": ("不能接到此處：此處無「{reading}」", "cannot re-attach here: no reading {reading} here"),
    "no_suggestion": ("此處案語無建議", "the notes here suggest nothing"),
    "expanded": ("全文：長文、全段與各本", "full text: long readings, whole units and every witness"),
    "collapsed": ("略文", "short text"),
    "refused_no_next": ("其後本層無異文可合併", "no next locus in this layer to merge with"),
    "refused_units": ("兩處不在同一段，不能合併", "the two loci are in different units: not merged"),
    "refused_short": ("底本此處不足兩字，不能拆分", "the base has fewer than two characters here: not split"),
    "refused_reported": ("有所記異文（非全文），不能拆分", "a reported reading (not a full text) cannot be split"),
    "refused_no_project": (
        "未規整：沒有項目文件（collate.toml）可存規整",
        "not regularized: there is no project file (collate.toml) to keep the rule",
    ),
    "refused_no_variant_rule": (
        "未規整：項目之 [normalize] rules 未列 variant-graph，重跑亦不用規整",
        "not regularized: the project's [normalize] rules leave out variant-graph, so no run would apply it",
    ),
    "refused_pending": ("此本此處已規整，待重跑", "already regularized here for this witness, pending the next run"),
    "refused_no_reading": ("此本此處同底本，無可規整", "this witness reads as the base here: nothing to regularize"),
    "refused_reported_rule": (
        "所記異文（非全文）不能據以規整",
        "a reported reading (not a full text) cannot be regularized",
    ),
    "refused_not_one": (
        "規整以一字對一字：此處非一字之異（脫、衍或字數不同）",
        "a regularization reads one character as another: not so here (an omission, an addition, another length)",
    ),
    "refused_same": ("二字已為一讀（異體），無須規整", "the two are one reading already (orthographic)"),
    "refused_several": (
        "此處不止一字相異：先拆分（s）再規整",
        "more than one character differs: split the locus (s) first",
    ),
    "refused_placeholder": ("缺字不能規整", "a placeholder cannot be regularized"),
    "refused_never_fold": (
        "{pair} 為校者須見之異（never_fold），不規整",
        "{pair} is a pair a collator must see (never_fold): not regularized",
    ),
    "regularized": (
        "已規整：{siglum}「{variant}」讀作「{standard}」（{scope}），{n}處改為異體，存入 {file}；重跑後生效",
        "regularized: {siglum} {variant} read as {standard} ({scope}), {n} loci now orthographic, "
        "saved to {file}; the next run applies it",
    ),
    "summary": (
        "已決{decided}處，未決{undecided}處，失位之決定{orphaned}條：{path}",
        "{decided} loci decided, {undecided} undecided, {orphaned} orphaned decisions: {path}",
    ),
    # prompts and screens
    "ask_page": ("到底本第幾頁（如 3a）：", "Go to page of the base (e.g. 3a):"),
    "ask_adopt": ("{locus}改從何本？", "Adopt which reading as the lemma at {locus}?"),
    "ask_adopt_why": ("改從 {siglum}「{reading}」：理由？", "Adopt {siglum} {reading}: why?"),
    "ask_which": ("{locus}改哪一異文之類？", "Reclassify which reading at {locus}?"),
    "ask_class": ("{sigla}「{reading}」（今為{cls}）改為：", "Class of {sigla} {reading} (now {cls}):"),
    "ask_class_why": ("「{reading}」作{cls}：理由？", "{reading} as {cls}: why?"),
    "ask_doubt": ("存疑：此處何以存疑？", "存疑: why is this place doubtful?"),
    "why_optional": ("理由（Enter 略過）", "why (Enter to skip)"),
    "why_required": ("理由", "why"),
    "ask_search": ("搜尋（任一校本之字；空白清除）：", "Search for characters in any witness (empty clears):"),
    "ask_split": ("{locus}於何處拆分？", "Split {locus} where?"),
    "ask_rule": ("{locus}據何本之字規整？", "Regularize which witness's character at {locus}?"),
    "rule_title": (
        "規整：{siglum}「{variant}」讀作底本「{standard}」",
        "Regularize: read {siglum}'s {variant} as the base's {standard}",
    ),
    "rule_witnesses": ("校本：{now}", "witnesses: {now}"),
    "rule_layers": ("層：{now}", "layers: {now}"),
    "rule_all_witnesses": ("全部校本", "every witness"),
    "rule_all_layers": ("全部層", "every layer"),
    "rule_only": ("只 {name}", "{name} only"),
    "rule_folds": (
        "將有 {n} 處、{readings} 條異文改為異體（重跑後生效）",
        "{n} loci, {readings} readings become orthographic (the next run applies it)",
    ),
    "rule_help": ("1 切換校本 · 2 切換層 · Enter 存入 · Esc 取消", "1 witnesses · 2 layers · Enter save · Esc cancel"),
    "ask_filter": ("篩選", "Filter"),
    "filter_class": ("類：{now}", "class: {now}"),
    "filter_layer": ("層：{now}", "layer: {now}"),
    "filter_siglum": ("校本：{now}", "witness: {now}"),
    "filter_undecided": ("只看未決：{now}", "undecided only: {now}"),
    "filter_noted": ("只看有案語者：{now}", "with a note only: {now}"),
    "filter_graphs": ("異體之處：{now}", "loci of graphs only (異體): {now}"),
    "shown": ("顯示", "shown"),
    "hidden": ("隱藏", "hidden"),
    "graphs_shown": ("含異體", "with graphs"),
    "filter_clear": ("清除篩選", "clear the filter"),
    "any": ("全部", "any"),
    "on": ("開", "on"),
    "off": ("關", "off"),
    "search_is": ("搜「{q}」", "search {q}"),
    "choose_help": ("1–9 或 ↑↓ Enter：選 · Esc：取消", "1–9 or ↑↓ Enter: choose · Esc: cancel"),
    "prompt_help": ("Enter：確定 · Esc：取消", "Enter: done · Esc: cancel"),
    "orphans_title": ("失位的決定（{n}）：找不到原處", "Orphaned decisions ({n}): their place is gone"),
    "orphans_help": (
        "↑↓ 選 · r 接到目前此處（{locus}） · x 刪除 · Esc 關閉",
        "↑↓ choose · r re-attach to the locus on screen ({locus}) · x drop · Esc close",
    ),
    "help_title": ("collate review：按鍵", "collate review: keys"),
}

# Why an orphan fits no more (collate.decisions.orphans.Why), by its value.
_WHY: dict[str, tuple[str, str]] = {
    "no_layer": ("本層已無異文", "the layer has no variants left"),
    "recut": (
        "此處已重新分合，今為 {now}「{now_lemma}」",
        "the loci here were merged or split: the place is now {now} ({now_lemma})",
    ),
    "variant_gone": (
        "底本此處仍作「{lemma}」，但諸本已無異",
        "the base still reads {lemma} there, but no witness differs",
    ),
    "base_changed": ("底本此處已不作「{lemma}」", "the base no longer reads {lemma} there"),
    "reading_gone": (
        "有{n}處底本作「{lemma}」，皆無「{reading}」",
        "{n} loci read {lemma}, none has {reading} any more",
    ),
    "context": (
        "有{n}處相似，上下文僅{best}字相合（須{wanted}字）",
        "{n} loci read alike, sharing only {best} of the {wanted} characters of context it needs",
    ),
    "taken": ("相合之處已為更合之決定所用", "the places that fit are taken by decisions that fit them better"),
    "not_adjacent": ("所合併之兩處已不相鄰", "its two loci are no longer next to each other"),
    "cannot_split": ("此處已不能於該字拆分", "the locus can no longer be split there"),
}

# The classes the help names as an editor's choices in reclassifying (the English line names the first four).
_CHOICES = (
    ReadingClass.SUBSTANTIVE,
    ReadingClass.ORTHOGRAPHIC,
    ReadingClass.SCRIBAL_ERROR,
    ReadingClass.LOAN,
    ReadingClass.TRANSPOSITION,
    ReadingClass.PLACEHOLDER,
)
_CHOICE_NAMES = ("、".join(c.chinese for c in _CHOICES), ", ".join(c.english for c in _CHOICES[:4]))
# The help table: the keys of ReviewApp.BINDINGS in the editor's words; keep the two in step.
HELP: tuple[tuple[str, str, str], ...] = (
    ("n  j  ↓", "下一處（篩選內）", "next locus (within the filter)"),
    ("p  ↑", "上一處", "previous locus"),
    ("N", "下一未決處", "next undecided locus"),
    ("g", "到底本某頁（如 3a）", "go to a page of the base (e.g. 3a)"),
    ("k", "從底本", "keep the base reading as the lemma"),
    ("a", "改從某本（選本，再記理由）", "adopt a witness's reading (pick it, then say why)"),
    ("c", f"改類：{_CHOICE_NAMES[0]}", f"reclassify: {_CHOICE_NAMES[1]}, …"),
    ("d", "存疑（須記理由）", "mark doubtful (存疑), with a comment"),
    ("y", "採納案語之建議", "accept the decision the notes suggest"),
    ("b", "同改：下一決定通用於同作之各處", "batch: the next decision applies to all loci reading alike"),
    ("r", "規整：此本之字讀作底本之字（選校本、層）", "regularize: read the witness's character as the base's"),
    ("u", "撤銷上一決定或規整", "undo the last decision or regularization"),
    ("ctrl+r  U", "重做", "redo"),
    ("f", "篩選：類、層、校本、未決、有案語、異體", "filter: class, layer, witness, undecided, note, graphs"),
    ("/", "搜尋任一校本之字", "search for characters in any witness"),
    ("e", "展開長文、全段與各本", "show long readings, whole units and every witness"),
    ("m", "與後一處合併", "merge with the next locus"),
    ("s", "拆分此處", "split this locus"),
    ("o", "失位的決定：接回或刪除", "orphaned decisions: re-attach or drop"),
    ("?", "說明", "help"),
    ("q", "離開（每一決定皆已存）", "quit (every decision is already saved)"),
)
# The key bar, most needed first; at the end, always shown: help and quit.
KEYS: tuple[tuple[str, str, str], ...] = (
    ("k", "從底本", "keep"),
    ("a", "改從", "adopt"),
    ("d", "存疑", "doubt"),
    ("u", "撤銷", "undo"),
    ("y", "採納", "accept"),
    ("/", "搜尋", "search"),
    ("f", "篩選", "filter"),
    ("c", "改類", "class"),
    ("r", "規整", "regularize"),
    ("e", "展開", "expand"),
    ("o", "失位", "orphans"),
)
LAST_KEYS: tuple[tuple[str, str, str], ...] = (("?", "說明", "help"), ("q", "離開", "quit"))


def default_lang(title: str) -> Lang:
    """The interface's language for an edition: Chinese if its title is (has a CJK character), else English."""
    return "zh" if any("\u3400" <= c <= "\u9fff" or "\U00020000" <= c <= "\U0003134f" for c in title) else "en"


class Words:
    """The review's words in one language."""

    def __init__(self, lang: Lang = "zh") -> None:
        self.lang: Lang = lang
        self.k = LANGS.index(lang)

    def __call__(self, key: str, **names: object) -> str:
        """The text of ``key``, with ``names`` filled in."""
        return _T[key][self.k].format(**names)

    def pick(self, pair: tuple[str, str]) -> str:
        """One of a (Chinese, English) pair."""
        return pair[self.k]

    def cls(self, cls: ReadingClass) -> str:
        """A class's name (異文, substantive)."""
        return CLASS_NAMES[cls][self.k]

    def action(self, action: DecisionAction) -> str:
        """A decision's name (從底本, keep the base reading)."""
        return ACTION_NAMES[action][self.k]

    def cause(self, cause: str) -> str:
        """A reading's cause (:class:`~collate.model.Cause`): 避諱, 形近 in Chinese, ``taboo`` in English.

        A cause an editor named in words of their own (``haplography``) is shown as written.
        """
        if self.lang == "zh" and cause in _CAUSES:
            return Cause(cause).chinese
        return cause

    def layer(self, layer: Layer) -> str:
        """A layer's name: 經, or ``經 jing``."""
        return layer.chinese if self.lang == "zh" else layer.label

    def what(self, what: str) -> str:
        """What a change did (:attr:`collate.decisions.history.Change.what`): a decision's name, or 接回, 刪除."""
        if what in {a.value for a in DecisionAction}:
            return self.action(DecisionAction(what))
        return _T[f"what_{what}"][self.k] if f"what_{what}" in _T else what

    def why(self, why: str, **names: object) -> str:
        """Why an orphan fits no more (see :class:`collate.decisions.orphans.Why`)."""
        return _WHY[why][self.k].format(**names)

    def claim(self, claim: NoteClaim, show: Callable[[str], str] = str) -> str:
        """A claim in one line; ``show`` writes each reading (e.g. cut short)."""
        return chinese(claim, show) if self.lang == "zh" else english(claim, show)
