"""Where each witness is extant, the base included: fragments, a base that quotes in pieces, a witness that quotes."""

from __future__ import annotations

from collate.align.extents import QUOTE_GAP, WHOLE_UNIT, layer_extents
from collate.model import Layer, Token

Column = tuple[Token | None, ...]


def tok(siglum: str, index: int, unit: int = 0, char: str = "之", layer: Layer = Layer.JING) -> Token:
    return Token(siglum, layer, index, index, index + 1, char, char, unit)


def columns(rows: list[str], units: str | None = None, layer: Layer = Layer.JING) -> list[Column]:
    """Columns from one row per witness (base first): a letter is a token, ``-`` none; ``units``
    gives the base token's unit per column (a digit)."""
    out: list[Column] = []
    counters = [0] * len(rows)
    for c in range(len(rows[0])):
        col: list[Token | None] = []
        for r, row in enumerate(rows):
            if row[c] == "-":
                col.append(None)
                continue
            unit = int(units[c]) if units and r == 0 else 0
            col.append(tok("ABCD"[r], counters[r], unit, row[c], layer))
            counters[r] += 1
        out.append(tuple(col))
    return out


def test_a_witness_is_extant_from_its_first_to_its_last_token() -> None:
    cols = columns(["xxxxxxxx", "--xxxx--"])
    base, wit = layer_extents(cols, ("A", "B"), slack=2)
    assert (base.first, base.last) == (0, 7)
    assert (wit.first, wit.last) == (2, 5)
    assert not wit.covers(1) and wit.covers(2) and not wit.covers(6)


def test_the_base_is_not_extant_beyond_its_end_when_a_witness_goes_on_for_long() -> None:
    # A fragmentary base: the witness has 6 more columns after it, more than the slack of 2.
    cols = columns(["xxxx------", "xxxxyyyyyy"])
    base, _ = layer_extents(cols, ("A", "B"), slack=2)
    assert (base.first, base.last) == (0, 3)
    assert not base.covers(4)


def test_a_few_more_words_of_a_witness_at_the_end_stay_an_addition() -> None:
    cols = columns(["xxxx--", "xxxxyy"])
    base, _ = layer_extents(cols, ("A", "B"), slack=2)
    assert (base.first, base.last) == (0, 5)  # within the slack: the base is extant, the witness adds


def test_the_base_is_not_extant_before_its_start_either() -> None:
    cols = columns(["------xxxx", "yyyyyyxxxx"])
    base, _ = layer_extents(cols, ("A", "B"), slack=2)
    assert (base.first, base.last) == (6, 9)


def test_a_quoting_base_begins_and_ends_with_its_quotations() -> None:
    # A compilation quotes from the middle of a work: the few words a witness has before the first
    # quotation and after the last are the rest of the work, no addition, however few.
    cols = columns(["--xxxx-", "yyxxxxy"])
    base, _ = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"A"}))
    assert (base.first, base.last) == (2, 5)
    plain, _ = layer_extents(cols, ("A", "B"), slack=2)
    assert (plain.first, plain.last) == (0, 6)  # a base that does not quote: within the slack, additions


def test_a_quoting_base_does_not_contain_what_it_skips() -> None:
    skipped = "y" * QUOTE_GAP
    cols = columns(["xxx" + "-" * QUOTE_GAP + "xxx", "xxx" + skipped + "xxx"])
    base, wit = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"A"}))
    assert base.absent == ((3, 3 + QUOTE_GAP),)
    assert not any(base.covers(c) for c in range(3, 3 + QUOTE_GAP))
    assert wit.absent == ()


def test_a_shorter_skip_of_a_quoting_base_is_an_addition() -> None:
    short = QUOTE_GAP - 1
    cols = columns(["xxx" + "-" * short + "xxx", "xxx" + "y" * short + "xxx"])
    base, _ = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"A"}))
    assert base.absent == ()


def test_a_base_that_does_not_quote_contains_whatever_a_witness_adds() -> None:
    cols = columns(["xxx" + "-" * QUOTE_GAP + "xxx", "xxx" + "y" * QUOTE_GAP + "xxx"])
    base, _ = layer_extents(cols, ("A", "B"), slack=2)
    assert base.absent == ()  # a long addition of the witness, as in any full text


def test_a_witness_does_not_contain_a_passage_the_quoting_base_takes_from_elsewhere() -> None:
    # The base's unit 2 (QUOTE_GAP tokens) is a quotation of another passage, which the witness lacks.
    n = QUOTE_GAP
    cols = columns(["xxx" + "z" * n + "xxx", "xxx" + "-" * n + "xxx"], units="111" + "2" * n + "333")
    _, wit = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"A"}))
    assert wit.absent == ((3, 3 + n),)


def test_one_edge_of_a_unit_is_enough_for_a_long_passage_and_none_is_an_omission() -> None:
    n = QUOTE_GAP
    # The passage the witness lacks runs on into the unit of the next quotation (no 注 between).
    edge = columns(["xxx" + "z" * n + "xxx", "xxx" + "-" * n + "xxx"], units="111" + "2" * n + "222")
    assert layer_extents(edge, ("A", "B"), slack=2, quoting=frozenset({"A"}))[1].absent == ((3, 3 + n),)
    # Inside one unit, on neither edge: the witness omits it.
    inside = columns(["xxx" + "z" * n + "xxx", "xxx" + "-" * n + "xxx"], units="111" + "1" * n + "111")
    assert layer_extents(inside, ("A", "B"), slack=2, quoting=frozenset({"A"}))[1].absent == ()


def test_a_whole_short_unit_a_witness_lacks_under_a_quoting_base_is_absent() -> None:
    # The 注 of a passage quoted from elsewhere: a whole unit, however short.
    n = WHOLE_UNIT
    cols = columns(["xxx" + "z" * n + "xxx", "xxx" + "-" * n + "xxx"], units="111" + "2" * n + "333")
    assert layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"A"}))[1].absent == ((3, 3 + n),)
    m = n - 1
    shorter = columns(["xxx" + "z" * m + "xxx", "xxx" + "-" * m + "xxx"], units="111" + "2" * m + "333")
    assert layer_extents(shorter, ("A", "B"), slack=2, quoting=frozenset({"A"}))[1].absent == ()


def test_a_quoting_witness_does_not_contain_what_it_skips_anywhere() -> None:
    # A 集說 quoting 鄭注 by the phrase skips within a unit of the base.
    n = QUOTE_GAP
    cols = columns(["xxxxx" + "z" * n + "xxxxx", "xxxxx" + "-" * n + "xxxxx"], units="1" * (n + 10))
    _, wit = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"B"}))
    assert wit.absent == ((5, 5 + n),)


def test_the_witness_keeps_its_own_tokens_inside_a_passage_it_lacks() -> None:
    # Between the base tokens it lacks, the witness has text the base has not: those columns stay its own.
    n = QUOTE_GAP
    base = "z" * 10 + "--" + "z" * (n - 10) + "xxx"
    wit = "-" * 10 + "yy" + "-" * (n - 10) + "xxx"
    cols = columns(["xxx" + base, "xxx" + wit], units="111" + "2" * (n + 2) + "333")
    _, extent = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"A"}))
    assert extent.absent == ((3, 13), (15, 3 + n + 2))
    assert extent.covers(13) and extent.covers(14)


def test_a_quoter_is_extant_only_where_it_reads_as_the_base_densely() -> None:
    # 注曰 quotes the first sentence, skips a short gloss, rewords the next (its own words, pqrst for
    # the base's fghij), adds a remark of its own (uvw) and quotes again.
    base = "abcdeklmnfghijopqrs---xyzab"
    wit_ = "abcde----pqrstopqrsuvwxyzab"
    cols = columns([base, wit_])
    base_extent, wit = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"B"}))
    # The gloss it skips is not extant in it: no omission.
    assert not any(wit.covers(c) for c in range(5, 9))
    # Its reworded words stay its own (their columns in its extent), and the base is not extant
    # there, nor where it adds its remark: neither a substitution nor an addition.
    assert all(wit.covers(c) for c in range(9, 14))
    assert not any(base_extent.covers(c) for c in (*range(9, 14), *range(19, 22)))
    # Where it quotes, a word it changes is a reading: the base is extant there.
    assert all(base_extent.covers(c) for c in (*range(0, 5), *range(22, 27)))


def test_the_base_stays_extant_where_another_witness_has_a_reading_of_its_own() -> None:
    base = "abcdefghijklmnopqrst"
    quoter = "abcde-----klmnopqrst"[:5] + "vwxyz" + "klmnopqrst"
    other = "abcdefgQijklmnopqrst"
    cols = columns([base, quoter, other])
    base_extent, _, _ = layer_extents(cols, ("A", "B", "C"), slack=2, quoting=frozenset({"B"}))
    assert base_extent.covers(7)  # C reads Q for h there: a reading, whatever B does
    assert not base_extent.covers(5)  # B alone rewords f


def quoting_word_by_word(skips: int) -> tuple[list[Column], int]:
    """A quoter over a long passage that leaves out one word in ``skips`` places (every 12th
    word), with a one-word addition of its own at the end; and the column of that addition."""
    base, wit = "", ""
    for k in range(12):
        chunk = "abcdefghijkl"
        base += chunk
        wit += chunk[:5] + "-" + chunk[6:] if k < skips else chunk
    base += "mnop-qrst"
    wit += "mnopZqrst"
    return columns([base, wit]), len(base) - 5


def test_a_quoter_that_abridges_leaves_a_single_word_out_of_its_own_accord() -> None:
    # A 集說 leaves words out one at a time, often (君無所為辱賜於使臣 quoted 無所辱賜): a word it
    # skips is not extant in it, a word it adds its own, and neither is a reading.
    cols, added = quoting_word_by_word(skips=4)
    base, wit = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"B"}))
    assert not wit.covers(5)
    assert not base.covers(added)


def test_a_quoter_that_copies_reads_a_single_word_it_lacks_or_adds() -> None:
    # 五禮通考 quoting a 經 copies it: once in a hundred and fifty words, a word it lacks is an
    # omission and a word it adds an addition, as in any witness.
    cols, added = quoting_word_by_word(skips=1)
    base, wit = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"B"}))
    assert wit.covers(5)
    assert base.covers(added)


def test_a_quoter_writing_a_merged_form_goes_on_quoting() -> None:
    # A traditional 集說 writes 于 where the base has 於, three times in a row: on comparison keys a
    # rewording (its own words), on the aligner's symbols (one per search key) the quotation going
    # on, where each 于 is a reading of the apparatus's.
    cols = columns(["abcde於於於fghij", "abcde于于于fghij"])
    symbols = {c: c for c in "abcdefghij"} | {"於": "于", "于": "于"}
    base, _ = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"B"}), symbols=symbols)
    assert all(base.covers(c) for c in range(13))
    strict, _ = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"B"}))
    assert not any(strict.covers(c) for c in range(5, 8))


def test_another_witness_s_merged_form_is_a_reading_the_quoter_does_not_silence() -> None:
    # Where the quoter rewords, the base stays extant if another witness reads otherwise: 后 for 後
    # between traditional prints is a reading, though the aligner matched them.
    cols = columns(["abcdef後hijklmnopqrst", "abcdevwxyzklmnopqrst", "abcdef后hijklmnopqrst"])
    symbols = {c: c for c in "abcdefhijklmnopqrst"} | {"後": "后", "后": "后"}
    base, _, _ = layer_extents(cols, ("A", "B", "C"), slack=2, quoting=frozenset({"B"}), symbols=symbols)
    assert base.covers(6)  # C's 后
    assert not base.covers(5)  # B alone rewords f


def base_abridging(
    leaves: int, third: str | None = None, layer: Layer = Layer.SHU
) -> tuple[list[Column], list[int]]:
    """A quoting base (A) that leaves one word of B's out of each of ``leaves`` of twelve sentences of a
    ``layer``; the columns of the words it leaves out. ``third``: a third witness's row over the same columns."""
    base = wit = ""
    for k in range(12):
        chunk = "abcdefghijkl"
        base += chunk[:5] + ("-" if k < leaves else "") + chunk[5:]
        wit += chunk[:5] + ("Z" if k < leaves else "") + chunk[5:]
    skipped = [c for c, ch in enumerate(base) if ch == "-"]
    return columns([base, wit] if third is None else [base, wit, third], layer=layer), skipped


def test_a_base_that_abridges_as_it_quotes_leaves_words_out_of_its_own_accord() -> None:
    # 五禮通考 quoting a 疏 leaves a word out here and there (之射也 quoted 之射): the 注疏本's word is
    # no addition to the base, which does not read it there.
    cols, skipped = base_abridging(leaves=4)
    base, _ = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"A"}))
    assert not any(base.covers(c) for c in skipped)


def test_a_base_that_copies_as_it_quotes_lacks_a_word_as_any_text_does() -> None:
    # Quoting a 經, it copies: a word it lacks once in a hundred and fifty is a reading of the witness.
    cols, skipped = base_abridging(leaves=1)
    base, _ = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"A"}))
    assert all(base.covers(c) for c in skipped)
    # A base that does not quote in pieces never abridges.
    cols, skipped = base_abridging(leaves=4)
    plain, _ = layer_extents(cols, ("A", "B"), slack=2)
    assert all(plain.covers(c) for c in skipped)
    # Nor does one quoting a 經, which it quotes whole: the words of a parallel text (大戴禮's 投壺
    # against the 禮記's) that it lacks, however often, are readings.
    cols, skipped = base_abridging(leaves=4, layer=Layer.JING)
    jing, _ = layer_extents(cols, ("A", "B"), slack=2, quoting=frozenset({"A"}))
    assert all(jing.covers(c) for c in skipped)


def test_where_two_witnesses_have_different_words_the_base_left_out_they_are_readings() -> None:
    cols, skipped = base_abridging(leaves=4)
    third = "".join(("Y" if c == skipped[0] else tok.t if tok is not None else "-") for c, (_, tok) in enumerate(cols))
    cols, skipped = base_abridging(leaves=4, third=third)
    base, _, _ = layer_extents(cols, ("A", "B", "C"), slack=2, quoting=frozenset({"A"}))
    assert base.covers(skipped[0]) and not any(base.covers(c) for c in skipped[1:])
