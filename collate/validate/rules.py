"""The apparatus rules RELAX NG cannot see.

``tei_all.rng`` embeds Schematron rules (XPath 2) that lxml's RELAX NG ignores; the ones
that matter for a critical apparatus are checked here in Python, with the same wording
where TEI has one: the lemma comes first in an ``<app>``, at most one ``<lem>`` per
``<app>``/``<rdgGrp>``, ``<witDetail>`` has ``@wit``, ``<variantEncoding>`` is consistent,
every ``@wit`` points at a ``<witness>`` of the ``<listWit>``, every local pointer
resolves, and no reading is given for a witness where it is not extant.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from collate.validate.problems import NS, TEI_NS, Problem, Severity, is_tei, local_name, problem_at

# Attributes holding local pointers (``#id``) that must resolve inside the document.
POINTER_ATTRIBUTES = (
    "wit",
    "edRef",
    "target",
    "corresp",
    "resp",
    "source",
    "ana",
    "ref",
    "exclude",
    "prev",
    "next",
    "sameAs",
    "copyOf",
    "synch",
    "select",
    "spanTo",
    "hand",
    "decls",
)
_MILESTONES = ("witStart", "witEnd", "lacunaStart", "lacunaEnd")
_WITNESSED = ("lem", "rdg", "witDetail", "wit", *_MILESTONES)


def rule_problems(tree: Any) -> tuple[list[Problem], int]:
    """The apparatus rules (see the module docstring): the problems, and how many checks ran."""
    root = tree.getroot() if hasattr(tree, "getroot") else tree
    problems: list[Problem] = []
    checks = 0
    for check in (_variant_encoding, _lemma_first, _wit_detail, _pointers, _extents, _positive):
        found, ran = check(root)
        problems.extend(found)
        checks += ran
    return problems, checks


def _variant_encoding(root: Any) -> tuple[list[Problem], int]:
    apps = root.xpath("//tei:app", namespaces=NS)
    declared = root.xpath("//tei:teiHeader//tei:variantEncoding", namespaces=NS)
    out = []
    if apps and not declared:
        out.append(
            problem_at(
                apps[0], "the document has <app> but its header declares no <variantEncoding>", "variant-encoding"
            )
        )
    for ve in declared:
        method, location = ve.get("method"), ve.get("location")
        if method == "parallel-segmentation" and location == "external":
            out.append(
                problem_at(
                    ve,
                    'The @location value "external" is inconsistent with the parallel-segmentation method',
                    "variant-encoding",
                )
            )
        if location == "external" and any(a.get("from") is None and a.get("loc") is None for a in apps):
            out.append(problem_at(ve, "an external apparatus needs @from or @loc on each <app>", "variant-encoding"))
    return out, 1 + len(declared)


def _lemma_first(root: Any) -> tuple[list[Problem], int]:
    out = []
    groups = root.xpath("//tei:app | //tei:rdgGrp", namespaces=NS)
    for group in groups:
        children = [c for c in group if isinstance(c.tag, str)]
        lemmas = [c for c in children if is_tei(c, "lem")]
        if len(lemmas) > 1:
            out.append(
                problem_at(lemmas[1], f"Only one <lem> element may appear within a <{local_name(group)}>", "one-lem")
            )
        if lemmas and children[0] is not lemmas[0]:
            out.append(problem_at(lemmas[0], f"<lem> must come first in <{local_name(group)}>", "lem-first"))
    return out, len(groups)


def _wit_detail(root: Any) -> tuple[list[Problem], int]:
    details = root.xpath("//tei:witDetail", namespaces=NS)
    out = [problem_at(d, "<witDetail> must have @wit", "witdetail-wit") for d in details if not d.get("wit")]
    out.extend(
        problem_at(
            d,
            "<witDetail> has no @target: viewers cannot tell which reading it describes",
            "witdetail-target",
            Severity.WARNING,
        )
        for d in details
        if d.get("wit") and not d.get("target")
    )
    return out, len(details)


def _local_pointers(value: str) -> Iterator[str]:
    for token in value.split():
        if token.startswith("#"):
            yield token[1:]


def _pointers(root: Any) -> tuple[list[Problem], int]:
    witnesses = set(root.xpath("//tei:listWit//tei:witness/@xml:id | //tei:listWit/@xml:id", namespaces=NS))
    ids = set(root.xpath("//@xml:id"))
    out = []
    checks = 0
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for attr in POINTER_ATTRIBUTES:
            value = element.get(attr)
            if not value:
                continue
            checks += 1
            if attr == "wit" and is_tei(element, *_WITNESSED):
                for token in value.split():
                    if not token.startswith("#") or token[1:] not in witnesses:
                        out.append(
                            problem_at(element, f"@wit {token!r} does not point at a <witness> of the listWit", "wit")
                        )
                continue
            for target in _local_pointers(value):
                if target not in ids:
                    out.append(
                        problem_at(element, f"@{attr} points at #{target}, which is not in the document", "pointer")
                    )
    return out, checks


def _scope(element: Any) -> Any:
    """The layer a reading belongs to: the nearest ancestor with ``@ana`` (else the document)."""
    for ancestor in element.iterancestors():
        if ancestor.get("ana") and not is_tei(ancestor, "lem", "rdg", "rdgGrp"):
            return ancestor.get("ana")
    return ""


def _extents(root: Any) -> tuple[list[Problem], int]:
    """No reading for a witness after its ``witEnd``/``lacunaStart`` (until it resumes), in one layer.

    Text a witness does not contain is not an omission: an empty ``<rdg>`` there is wrong.
    """
    stopped: dict[tuple[str, str], Any] = {}
    out = []
    checks = 0
    for element in root.iter(*(f"{{{TEI_NS}}}{n}" for n in ("lem", "rdg", *_MILESTONES))):
        scope = _scope(element)
        wits = [w for w in (element.get("wit") or "").split() if w.startswith("#")]
        name = local_name(element)
        if name in _MILESTONES:
            for w in wits:
                if name in ("witEnd", "lacunaStart"):
                    stopped[(scope, w)] = element
                else:
                    stopped.pop((scope, w), None)
            continue
        own = {
            w
            for m in element.iter(*(f"{{{TEI_NS}}}{n}" for n in ("witStart", "lacunaEnd")))
            for w in (m.get("wit") or "").split()
        }
        for w in wits:
            checks += 1
            if (scope, w) in stopped and w not in own:
                end = stopped[(scope, w)]
                out.append(
                    problem_at(
                        element,
                        f"reading for {w}, which is not extant here (it stopped at line {end.sourceline})",
                        "not-extant",
                    )
                )
    return out, checks


def _positive(root: Any) -> tuple[list[Problem], int]:
    """Every ``lem``/``rdg`` names its witnesses (the Versioning Machine drops readings without)."""
    readings = root.xpath("//tei:app//tei:lem | //tei:app//tei:rdg", namespaces=NS)
    out = [
        problem_at(
            r, f"<{local_name(r)}> has no @wit: a positive apparatus lists every witness", "positive", Severity.WARNING
        )
        for r in readings
        if not r.get("wit")
    ]
    return out, len(readings)
