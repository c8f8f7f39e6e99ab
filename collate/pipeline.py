"""The pipeline on one screen: read → normalize/tokenize → align → apparatus → (notes) → export.

Each stage is a typed function in its own module; this one composes them for a
:class:`~collate.project.Project` and reports progress through a callback (the library
never prints). It opens no file of its own: the readers read the witnesses, and the caller
loads the editor's decisions (:func:`~collate.decisions.file.load_decisions`) and hands
them in. One normalizer, built from the project, serves every stage of a run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from collate.apparatus import Collation, LayerResult, WitnessInfo, build_layer
from collate.compilation import check_work, of_works, quotes_in_pieces, same_layer, title_noted, without_title_notes
from collate.errors import InputError
from collate.model import Layer, Token
from collate.project import Project
from collate.readers import read_witness
from collate.results import ReadResult, RunResult

if TYPE_CHECKING:
    from pathlib import Path

    from collate.apparatus.habits import HabitVerdict
    from collate.compilation import Compilation
    from collate.decisions.file import Decision
    from collate.normalize import Normalizer
    from collate.notes import NotesResult
    from collate.shelf import ShelfReport

Progress = Callable[[str], None]


def read_project(project: Project, progress: Progress | None = None, *, normalizer: Normalizer) -> ReadResult:
    """Read every witness the project declares.

    Readings files are checked with ``normalizer`` (the run's): each entry's ``base`` must
    stand in its ``at`` as the collation compares characters.
    """
    if project.gaiji_table is not None:
        from collate.decode import check_regular_file

        table = project.resolve(project.gaiji_table)
        if table.exists():
            # Read only when a witness holds an entity: a FIFO named here is refused at once.
            check_regular_file(table, str(table), hint="give the path of the Kanripo gaiji table (a text file)")
    witnesses = []
    for cfg in project.witnesses:
        if progress:
            progress(f"reading {cfg.siglum}")
        witnesses.append(
            read_witness(
                project.resolve(cfg.path),
                siglum=cfg.siglum,
                label=cfg.label,
                layout=cfg.layout,
                container=cfg.container,
                encoding=cfg.encoding,
                gaiji_table=project.resolve(project.gaiji_table) if project.gaiji_table else None,
                display=cfg.display_path,
            )
        )
    if any(w.sparse for w in witnesses):
        from collate.readers.layouts.readings import check_readings

        for w in witnesses:
            if w.sparse:
                check_readings(w, normalizer)
    return ReadResult(project, tuple(witnesses))


def settle_project(read: ReadResult, normalizer: Normalizer, progress: Progress | None = None) -> ReadResult:
    """Every layer boundary a print leaves unmarked, cut where the other witnesses say it is; a
    witness's small print that is not the base's 注, its own commentary (:mod:`collate.align.commentaries`)."""
    from collate.align.commentaries import own_commentaries

    if any(w.unsettled for w in read.witnesses):
        from collate.align.boundaries import settle_boundaries

        if progress:
            progress("settling the layer boundaries the prints do not mark")
        read = replace(read, witnesses=settle_boundaries(read.witnesses, normalizer))
    if quotes_in_pieces(read.base, Layer.ZHU):
        # A compilation quotes the 注 of many passages, a few of each edition's: no measure of either.
        return read
    witnesses = own_commentaries(
        read.witnesses, read.project.base, normalizer, lambda w: quotes_in_pieces(w, Layer.ZHU)
    )
    return read if witnesses == read.witnesses else replace(read, witnesses=witnesses)


def shelve_project(
    project: Project, normalizer: Normalizer, cache: Path | None = None, progress: Progress | None = None
) -> tuple[Project, ShelfReport]:
    """The project with the edition files of its shelf that hold passages the base quotes.

    The base is read alone, its quoted articles found (:mod:`collate.align.holdings`), and each
    article looked for on the shelf (:mod:`collate.shelf`); the files holding some article join
    as witnesses. A base that quotes no titled work takes none.
    """
    from collate.init.naming import named_as_found
    from collate.normalize.tokenize import tokenize
    from collate.shelf import ShelfReport, find_sources, read_shelf, with_shelf

    alone = read_project(replace(project, witnesses=(project.witness(project.base),)), normalizer=normalizer)
    base = alone.base
    streams = {Layer(name): tokenize(base, Layer(name), normalizer) for name in project.layers}
    files, problems = read_shelf(project, [project.resolve(p) for p in project.shelf], normalizer, cache, progress)
    sources = find_sources(base, streams, files)
    # The files joined are named as `collate init` names witnesses (纂圖本, 集說本), not by file name.
    joined = named_as_found(with_shelf(project, sources), len(project.witnesses))
    added = tuple(w.siglum for w in joined.witnesses[len(project.witnesses) :])
    return joined, ShelfReport(tuple(files), added, tuple(problems), tuple(sources))


def collate_project(
    project: Project,
    progress: Progress | None = None,
    *,
    decisions: Sequence[Decision] | None = None,
    habits: Sequence[HabitVerdict] = (),
    shelf_cache: Path | None = None,
) -> RunResult:
    """Read, normalize, tokenize, align layer with layer, build the apparatus, attach the notes.

    ``decisions`` (the editor's, as the caller loaded them from ``decisions.toml``) are applied
    to the loci they concern; None applies none (the review asks for the collation without
    them) and leaves the run's ``decisions`` report None. ``habits`` are the editor's verdicts
    on the print habits the collation finds (:mod:`collate.apparatus.habits`). The normalizer is built once, from
    the project, and every stage compares with it.
    """
    from collate.apparatus.graph_notes import swapped_graphs
    from collate.apparatus.habits import apply_habits, find_habits
    from collate.limits import check_sizes, limits_of
    from collate.normalize import Normalizer, rule_counts
    from collate.notes import attach_to_loci, notes_for_project

    normalizer = Normalizer.from_project(project)
    limits = limits_of(project.sections.get("limits"), str(project.source or project.root))
    shelf = None
    if project.shelf:
        project, shelf = shelve_project(project, normalizer, shelf_cache, progress)
    read = read_project(project, progress, normalizer=normalizer)
    read = settle_project(read, normalizer, progress)
    layers = [Layer(name) for name in project.layers]
    check_sizes(read.witnesses, project.base, layers, limits)
    tokens, whole = tokenize_project(read, layers, normalizer, progress)
    compilation = None
    if not project.works:
        from collate.compilation import plan
        from collate.readers.titles import witness_book, witness_identity

        others = [w for w in read.witnesses if w is not read.base]
        identities = {w.siglum: witness_identity(w) for w in others}
        compilation = plan(read.base, tokens, layers, identities, {w.siglum: witness_book(w) for w in others})
    results = align_project(read, tokens, layers, normalizer, progress, compilation=compilation)
    collation = _collation(read, results, normalizer)
    collation = swapped_graphs(apply_habits(collation, find_habits(collation, normalizer, habits)))
    if progress:
        progress("anchoring editorial notes")
    notes = notes_for_project(read.project, read.witnesses, normalizer, whole)
    collation = attach_to_loci(collation, notes)
    counts = {s: rule_counts([t for ts in by_layer.values() for t in ts]) for s, by_layer in tokens.items()}
    coverage = compilation.coverage if compilation is not None else ()
    disagreements = compilation.disagreements if compilation is not None else ()
    sizes = {s: {layer: len(ts) for layer, ts in by_layer.items()} for s, by_layer in whole.items()}
    run = RunResult(
        read, tokens, collation, counts, notes, None, coverage, shelf, disagreements, tuple(habits), layer_sizes=sizes
    )
    return run if decisions is None else decide(run, decisions)


def decide(run: RunResult, decisions: Sequence[Decision]) -> RunResult:
    """The run with the editor's ``decisions`` applied to its loci (the stage :mod:`collate.decisions`).

    The collation they were applied to stays in ``undecided``: a run saved keeps that one, and a
    run loaded has the decisions of the day applied to it again by this same function.
    """
    from collate.decisions.apply import apply_decisions

    undecided = run.without_decisions()
    collation, report = apply_decisions(undecided.collation, decisions)
    return replace(undecided, collation=collation, decisions=report, undecided=undecided.collation)


Tokens = dict[str, dict[Layer, tuple[Token, ...]]]


def tokenize_project(
    read: ReadResult, layers: Sequence[Layer], normalizer: Normalizer, progress: Progress | None = None
) -> tuple[Tokens, Tokens]:
    """Every full witness's tokens per collated layer; and those of the layers collated whole.

    A witness's 經 of another work than the ones collated is left out (:func:`~collate.compilation.of_works`); the
    layers tokenized whole are handed on to the notes, which search the witness as read.
    """
    from collate.normalize.tokenize import tokenize

    project = read.project
    full = [w for w in read.witnesses if not w.sparse]
    # A compilation base with no work named: every work it quotes, each witness aligned with the
    # articles it holds (collate.compilation); a work named: that work's articles alone.
    works = project.works
    for work in works:
        check_work(read.base, work, normalizer, str(project.source or project.root))
    tokens: Tokens = {w.siglum: {} for w in full}
    noted = title_noted(read.base)
    whole: Tokens = {}
    for w in full:
        if progress:
            progress(f"normalizing {w.siglum}")
        own = project.witness(w.siglum).layers
        collated = of_works(w, works, normalizer)
        if w is not read.base:
            collated = without_title_notes(collated, noted)
        for layer in layers:
            if own is None or layer.value in own:
                tokens[w.siglum][layer] = tokenize(collated, layer, normalizer)
                # The notes search the witness as read: a layer with nothing left out.
                if collated is w or same_layer(w, collated, layer):
                    whole.setdefault(w.siglum, {})[layer] = tokens[w.siglum][layer]
            else:
                tokens[w.siglum][layer] = ()
    if not any(tokens[project.base][layer] for layer in layers):
        base = read.base
        raise InputError(
            "the base witness has no text in the layers collated (" + ", ".join(x.value for x in layers) + ")",
            where=base.path,
            hint=f"check its layout with `collate inspect {base.path}`, or the project's `layers`",
        )
    return tokens, whole


def align_project(
    read: ReadResult,
    tokens: Tokens,
    layers: Sequence[Layer],
    normalizer: Normalizer,
    progress: Progress | None = None,
    *,
    compilation: Compilation | None = None,
) -> list[LayerResult]:
    """Each layer aligned (CollateX behind the engine) and its apparatus built; a layer only the base has is skipped.

    With a ``compilation`` plan, each witness is aligned with the articles of the base it holds.
    """
    from collate.align.engine import align_layer
    from collate.align.glosses import gloss_gaps
    from collate.align.prints import print_facts, settle
    from collate.compilation import unread_passages

    base = read.project.base
    witnesses = read.by_siglum()
    full = [w for w in read.witnesses if not w.sparse]
    # What each print says of its own text: lost pages, words in doubt, its blocks, its glyphs.
    table = read.project.resolve(read.project.gaiji_table) if read.project.gaiji_table else None
    facts = print_facts(full, table)

    results: list[LayerResult] = []
    for layer in layers:
        streams = {w.siglum: tokens[w.siglum][layer] for w in full if tokens[w.siglum][layer]}
        has_sparse = any(r.layer is layer for w in read.witnesses if w.sparse for r in w.readings)
        if base not in streams or (len(streams) < 2 and not has_sparse):
            continue
        quoting = frozenset(
            w.siglum
            for w in full
            if w.siglum in streams and (read.project.witness(w.siglum).quotes or quotes_in_pieces(w, layer))
        )
        masks = compilation.masks.get(layer) if compilation is not None else None
        # Aligned on search keys (a simplified 于 is a traditional 於's word to place); the apparatus compares ``n``.
        aligned = align_layer(layer, streams, base, progress, quoting=quoting, masks=masks, loosen=normalizer.loosen)
        if layer is Layer.SHIWEN:
            aligned = gloss_gaps(aligned)
        alignment = settle(aligned, facts, normalizer)
        if compilation is not None:
            alignment = unread_passages(alignment, compilation.articles)
        if progress:
            progress(f"{layer.value}: building the apparatus")
        results.append(build_layer(alignment, witnesses, normalizer))
    return results


def _collation(read: ReadResult, results: list[LayerResult], normalizer: Normalizer) -> Collation:
    project = read.project
    return Collation(
        title=project.title,
        name=project.name,
        base=project.base,
        witnesses=tuple(WitnessInfo(w.siglum, w.label, w.path, w.layout, sparse=w.sparse) for w in read.witnesses),
        layers=tuple(results),
        rules=normalizer.describe(),
        diagnostics=tuple(d for r in results for d in r.diagnostics),
    )


def project_notes(project: Project, progress: Progress | None = None) -> NotesResult:
    """Read the project and run the notes stage alone, without aligning (``collate notes``)."""
    from collate.normalize import Normalizer
    from collate.notes import notes_for_project

    normalizer = Normalizer.from_project(project)
    return notes_for_project(project, read_project(project, progress, normalizer=normalizer).witnesses, normalizer)
