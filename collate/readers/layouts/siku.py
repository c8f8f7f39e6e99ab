"""四庫全書 print of 五禮通考 (seed 000, Kanripo KR1d0087): layers by indentation and small print.

Each body line is a printed line (pages come from the container: blank lines in seed 000,
``<pb:…>`` in a Kanripo file). The tables of ``SIKU_WLTK`` are the whole layout; the code
(:class:`~collate.readers.indented.IndentedReader`) only applies them:

1. The first ``header`` lines are headings (collection, 卷 title, author, 嘉礼三十八, 射礼)
   and go to the metadata. A line matching a ``headings`` pattern (``右投壶``, the closing
   ``五礼通考卷一百六十五``) is a heading too. A line of indentation only is an empty
   printed line: layout, but it counts as a line of its page.
2. Otherwise the indentation (in U+3000) picks the block: none — 經; one (some small-print
   lines are set two or three) — a later commentator (large print, or small print when the
   line opens with ``(``); four (eight columns) to eight — a note (蕙田案, and 方觀承's
   觀承案). A block goes on over lines and page breaks until a line of another kind, or an
   attribution (``蕙田案``, ``方氏悫曰``, ``陈氏礼书``, a source such as ``通典``) at a line
   start, opens the next.
3. A 經 paragraph may open with the run-in title of the work it quotes (``礼记投壶``,
   ``少仪``, ``春秋昭公十二年左氏传``, ``易豫卦象上傳``, ``書費誓``, ``國語魯語``,
   ``大戴禮朝事篇``): the title is a heading span and every 經, 注 and 疏 span after it
   carries the title as its ``work``. Every quotation starts a new line flush left, like
   the line before it: a line opening with a title that names its book starts a new
   passage even where the previous line was 經 too; a bare chapter title (``少仪``) counts
   only after something else.
4. ``(…)`` is small double-column print, ``/`` its column break (the e-text already gives
   the right column first). A run of small print goes on across lines and pages while a
   piece closes its line and the next piece opens the next line in a block of the same kind.
   After 經 a run opens with the ``注`` marker (鄭注) and switches to 疏 at its first
   ``疏`` (with the space before it); where the 注 is left out it opens with ``疏`` itself.
   A commentator's small-print run is COMMENTARY, its
   attribution first; a new attribution at a line start inside the run opens the next
   commentator. Small print inside a large-print passage or a note is that block's own.
5. Parentheses, ``/``, spaces, line ends, indentation and blank lines are layout. An
   unclosed ``(`` ends at its line end (or at the next ``(``) and a stray ``)`` is layout:
   both are ``unbalanced`` diagnostics and the reading goes on. Placeholders (? □ ■ 〓)
   and PUA code points are diagnostics; ○ and 囗 of the drum notation (``鼓○囗○…``) are text.

How to add a layout of the same kind (another printing, another 卷 with other headers):
write a new :class:`~collate.readers.layoutspec.IndentLayout` — copy ``SIKU_WLTK`` and
change the rows that differ (indents, header keys, title and attribution patterns,
markers) — make ``READER = IndentedReader(NEW_SPEC)`` in a new module (the reader is in
:mod:`collate.readers.indented`), and add its name
and module to ``LAYOUTS`` in :mod:`collate.readers`. Nothing in the reading code names a
work, a commentator or a marker.
"""

from __future__ import annotations

from collate.model import Layer
from collate.model.numerals import NUMERAL

# The reader that applies such a table, re-exported: a new layout of this kind copies this module.
from collate.readers.indented import IndentedReader
from collate.readers.layoutspec import Block, IndentLayout, Marker
from collate.readers.titles import OFFICES, chapters, print_forms, simplified, yili_forms

# The chapters of 禮記 and 儀禮, from the shipped table of the prints' chapter headings
# (collate.readers.titles): with their print variants, in the traditional characters of the
# Kanripo 四庫 text and simplified, as the seed e-text prints them.
LIJI_CHAPTERS_TRAD = print_forms(chapters("禮記"))
LIJI_CHAPTERS = simplified(LIJI_CHAPTERS_TRAD)
YILI_CHAPTERS_TRAD = print_forms(yili_forms(chapters("儀禮")))
YILI_CHAPTERS = simplified(YILI_CHAPTERS_TRAD)
# The surviving chapters of 大戴禮記, from the same table: 大戴禮記主言, 大戴禮朝事.
DADAI_CHAPTERS_TRAD = print_forms(chapters("大戴禮記"))
DADAI_CHAPTERS = simplified(DADAI_CHAPTERS_TRAD)
# The six offices of 周禮 and the sections of 詩, which open a quotation with their book's name.
_OFFICES = "(?:" + "|".join(OFFICES) + ")"
_SHI_SECTIONS = (
    "(?:周南|召南|邶風|鄘風|衛風|王風|鄭風|齊風|魏風|唐風|秦風|陳風|檜風|曹風|豳風|小雅|大雅|周頌|魯頌|商頌"
    "|邶风|鄘风|卫风|王风|郑风|齐风|魏风|唐风|秦风|陈风|桧风|曹风|豳风|周颂|鲁颂|商颂)"
)
# The chapters of 尚書, cited as 書X (書費誓), in the print's forms and simplified.
SHU_CHAPTERS = (
    "堯典", "舜典", "大禹謨", "皋陶謨", "臯陶謨", "益稷", "禹貢", "甘誓", "五子之歌", "胤征", "湯誓",
    "仲虺之誥", "湯誥", "伊訓", "太甲上", "太甲中", "太甲下", "咸有一德", "咸有一徳", "盤庚上", "盤庚中",
    "盤庚下", "說命上", "說命中", "說命下", "高宗肜日", "髙宗肜日", "西伯戡黎", "微子", "泰誓上", "泰誓中",
    "泰誓下", "牧誓", "武成", "洪範", "旅獒", "金縢", "大誥", "微子之命", "康誥", "酒誥", "梓材", "召誥",
    "洛誥", "多士", "無逸", "君奭", "蔡仲之命", "多方", "立政", "周官", "君陳", "顧命", "康王之誥", "畢命",
    "君牙", "冏命", "囧命", "呂刑", "吕刑", "文侯之命", "費誓", "秦誓",
    "尧典", "大禹谟", "皋陶谟", "臯陶谟", "禹贡", "汤誓", "仲虺之诰", "汤诰", "伊训", "盘庚上", "盘庚中",
    "盘庚下", "说命上", "说命中", "说命下", "洪范", "大诰", "康诰", "酒诰", "召诰", "洛诰", "无逸", "君陈",
    "顾命", "康王之诰", "毕命", "费誓",
)  # fmt: skip
# The rulers of 春秋 and its three commentaries: 春秋襄公十四年左氏傳, 春秋定三年公羊傳.
_CHUNQIU_DUKES = "[隱隐桓莊庄閔闵僖文宣成襄昭定哀]公?"
# 元年: the first year of a reign.
_CHUNQIU_YEAR = f"(?:元|{NUMERAL}+)年"
_CHUNQIU_ZHUAN = "(?:左氏传|公羊传|谷梁传|穀梁传|左氏傳|公羊傳|穀梁傳|榖梁傳|榖梁传|左傳|左传)"
# The books of 國語, the parts of 易 and the chapters of 爾雅, which follow their book's name.
_GUOYU = (
    "(?:國語|国语)(?:周語|魯語|齊語|晉語|鄭語|楚語|吳語|呉語|越語|周语|鲁语|齐语|晋语|郑语|楚语|吴语|越语)[上中下]?"
)
_YI = (
    r"(?:周易|易)(?:[^\s()]{1,2}卦(?:[彖象][上下]?(?:傳|传)|文言(?:傳|传)?)?"
    r"|(?:繫辭|系辞|說卦|说卦|序卦|雜卦|杂卦)[上下]?(?:傳|传)?)"
)
_ERYA = (
    "(?:爾雅|尔雅)(?:釋詁|釋言|釋訓|釋親|釋宮|釋器|釋樂|釋天|釋地|釋丘|釋山|釋水|釋草|釋木|釋蟲|釋魚|釋鳥|釋獸|釋畜"
    "|释诂|释言|释训|释亲|释宫|释器|释乐|释天|释地|释丘|释山|释水|释草|释木|释虫|释鱼|释鸟|释兽|释畜)?"
)
# Books quoted in large print whose chapters the print names with 篇 or 章 (大戴禮朝事篇, 孝經天子章).
_NAMED_BOOKS = (
    "(?:大戴禮記|大戴禮|大戴礼记|大戴礼|孝經|孝经|孔子家語|家語|孔子家语|家语|逸周書|逸周书|禮記外傳|礼记外传"
    r"|廣雅|广雅|說文|说文|白虎通|釋名|释名)(?:[^\s()]{1,5}?[篇章])?"
)
# Works a later commentator's passage may open with instead of a name (通典壇名泰壇…).
_SOURCES = (
    "通典", "文獻通考", "文献通考", "白虎通義", "白虎通义", "五經名義", "五经名义", "山堂考索", "白虎通",
    "五經異義", "五经异义",
    "五經通義", "五经通义", "獨斷", "独断", "通志", "大唐開元禮", "大唐开元礼", "開元禮", "开元礼",
)  # fmt: skip


def _longest_first(*names: tuple[str, ...]) -> str:
    return "|".join(sorted({n for group in names for n in group}, key=len, reverse=True))


_LONGEST_FIRST = sorted({*LIJI_CHAPTERS, *LIJI_CHAPTERS_TRAD}, key=len, reverse=True)

SIKU_WLTK = IndentLayout(
    name="siku-wltk",
    description="四庫全書 五禮通考 e-text: blank-line half-folio pages, (…/…) double-column small print, "
    "indented commentators and 蕙田案 notes",
    indents=(
        (0, 0, Block.CLASSIC),
        # Some lines of a commentator's small print are set one or two columns deeper.
        (1, 3, Block.COMMENTATOR),
        # Four U+3000 are eight printed columns; some copies pad with eight.
        (4, 8, Block.NOTE),
    ),
    header=("collection", "title", "author", "section", "subsection"),
    headings=(
        (r"右[^\s()]{1,12}", 2),  # 右投壶: "the above is 投壶", closing a section
        (rf"[^\s()]{{2,12}}[卷巻]{NUMERAL}+", 0),  # the 卷 title repeated at its end
    ),
    titles=(
        "(?:礼记|禮記)(?:" + "|".join(_LONGEST_FIRST) + ")",
        "(?:仪礼|儀禮)(?:" + _longest_first(YILI_CHAPTERS, YILI_CHAPTERS_TRAD) + ")",
        # 春秋 with the year, and the commentary when one is quoted (春秋成公元年 is the 經 itself).
        "春秋" + _CHUNQIU_DUKES + _CHUNQIU_YEAR + _CHUNQIU_ZHUAN + "?",
        # In a run of 春秋 quotations the year and the commentary stand alone (閔公元年左氏傳).
        _CHUNQIU_DUKES + _CHUNQIU_YEAR + _CHUNQIU_ZHUAN,
        "(?:周礼|周禮)" + _OFFICES,
        # 大戴禮記 with a chapter the table names (大戴禮記主言); with 篇 or another, _NAMED_BOOKS below.
        "(?:大戴禮記|大戴禮|大戴礼记|大戴礼)(?:" + _longest_first(DADAI_CHAPTERS_TRAD, DADAI_CHAPTERS) + ")篇?",
        "(?:诗|詩)" + _SHI_SECTIONS,
        "(?:书|書|尚书|尚書)(?:" + _longest_first(SHU_CHAPTERS) + ")",
        _YI,
        _GUOYU,
        _ERYA,
        _NAMED_BOOKS,
        "(?:论语|論語|孟子)",
    ),
    bare_titles=(*_LONGEST_FIRST, _OFFICES),
    # 方觀承's notes (觀承案) stand beside Qin Huitian's, set the same way.
    note_attributions=("蕙田案", "又案", "觀承案", "观承案"),
    commentator_attributions=(
        r"[\u4e00-\u9fff]氏[\u4e00-\u9fff]{0,2}曰",  # 方氏悫曰, 吕氏大临曰, 应氏镛曰, 黄氏曰
        r"[\u4e00-\u9fff]氏(?:礼书|禮書)",  # 陈氏礼书, 陳氏禮書
        r"[\u4e00-\u9fff]子曰",  # 朱子曰
        r"[\u4e00-\u9fff]{2}(?:投壶义|投壺義)",  # 刘敞投壶义, 劉敞投壺義
        *sorted(_SOURCES, key=len, reverse=True),
    ),
    markers=(
        Marker("注", Layer.ZHU, opens=True),
        # 毛傳 opens the small print after a quotation of 詩 (鄭箋 follows inside it).
        Marker("傳", Layer.ZHU, opens=True),
        Marker("𫝊", Layer.ZHU, opens=True),
        Marker("传", Layer.ZHU, opens=True),
        Marker("疏", Layer.SHU, opens=False),
        # Where the 注 is left out, the small print opens with 疏 itself.
        Marker("疏", Layer.SHU, opens=True),
    ),
)

__all__ = [
    "DADAI_CHAPTERS",
    "DADAI_CHAPTERS_TRAD",
    "LIJI_CHAPTERS",
    "LIJI_CHAPTERS_TRAD",
    "READER",
    "SHU_CHAPTERS",
    "SIKU_WLTK",
    "YILI_CHAPTERS",
    "YILI_CHAPTERS_TRAD",
    "IndentedReader",
]

READER = IndentedReader(SIKU_WLTK)
