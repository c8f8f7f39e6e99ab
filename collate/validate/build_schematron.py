"""Rebuild the shipped Schematron: ``python -m collate.validate.build_schematron ../shared/tei/tei_all.rng``.

``collate/data/tei-apparatus.sch`` is two sources put together, neither edited:

* TEI's own constraints: every Schematron pattern ``tei_all.rng`` embeds (TEI P5 compiles each
  ``constraintSpec`` of its Guidelines into the grammar, where RELAX NG validators ignore it), with its
  namespace declarations. They apply to all of TEI, so a document checked against ``tei_all.rng`` gets all
  of TEI's rules; a rule about an element the document lacks never fires.
* collate's constraints: the ``constraintSpec``\\ s of the project's ODD, ``collate/data/tei-apparatus.odd``,
  taken out as TEI's own extraction does it (each becomes a pattern named by its ``@ident``; ``xsl:key`` and
  ``sch:ns`` move to the top of the schema).

The file's header names both sources, their licences and this command. ``tests/test_validate_schematron.py``
rebuilds it and compares (where ``tei_all.rng`` is at hand).
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from lxml import etree

from collate.validate.parse import safe_parser

SCH = "http://purl.oclc.org/dsdl/schematron"
XSL = "http://www.w3.org/1999/XSL/Transform"
TEI = "http://www.tei-c.org/ns/1.0"
COMMAND = "python -m collate.validate.build_schematron ../shared/tei/tei_all.rng"
# TEI's query language: the patterns use XPath 2 (eq, lt, tokenize, <<), which XSLT 2 gives them.
QUERY_BINDING = "xslt2"


def data_file(name: str) -> Path:
    """A file of the package's data folder (where the ODD is read and the Schematron written)."""
    from importlib import resources

    return Path(str(resources.files("collate") / "data" / name))


def tei_edition(grammar: Any) -> str:
    """The TEI release a compiled grammar was generated from, as its header comment says it."""
    for node in grammar.getroot().iter(etree.Comment):
        found = re.search(r"TEI Edition: (.+?)\s*$", node.text or "", re.MULTILINE)
        if found:
            return found.group(1).rstrip(". ")
    raise ValueError("the grammar names no TEI edition in its header comment: is it a TEI schema?")


def tei_patterns(grammar: Any) -> tuple[list[Any], list[Any]]:
    """The Schematron a compiled TEI grammar embeds: its ``sch:ns`` and its patterns, in document order."""
    root = grammar.getroot()
    return list(root.iter(f"{{{SCH}}}ns")), list(root.iter(f"{{{SCH}}}pattern"))


def odd_constraints(odd: Any) -> tuple[list[Any], list[Any], list[Any]]:
    """The ODD's Schematron: its ``sch:ns``, its ``xsl:key``\\ s and one pattern per ``constraintSpec``.

    A constraint holding rules becomes a pattern whose ``@id`` is the spec's ``@ident`` (the name a
    problem is reported under); a constraint holding a whole pattern keeps it.
    """
    root = odd.getroot()
    schematron = f"{{{TEI}}}constraintSpec[@scheme='schematron']"
    namespaces = list(root.iterfind(f".//{{{TEI}}}constraintDecl[@scheme='schematron']/{{{SCH}}}ns"))
    keys: list[Any] = []
    patterns: list[Any] = []
    for spec in root.iterfind(f".//{schematron}"):
        rules = etree.Element(f"{{{SCH}}}pattern", id=spec.get("ident"))
        rules.text = "\n    "
        for constraint in spec.iterfind(f"{{{TEI}}}constraint"):
            for part in constraint:
                if not isinstance(part.tag, str):
                    continue
                if part.tag == f"{{{XSL}}}key":
                    keys.append(part)
                elif part.tag == f"{{{SCH}}}ns":
                    namespaces.append(part)
                elif part.tag == f"{{{SCH}}}pattern":
                    patterns.append(part)
                else:
                    rules.append(copy.deepcopy(part))
        if len(rules):
            patterns.append(rules)
    return namespaces, keys, patterns


def _unique_namespaces(declarations: Iterable[Any]) -> list[Any]:
    """One ``sch:ns`` a prefix; two sources that bind a prefix to different namespaces cannot be merged."""
    seen: dict[str, str] = {}
    out = []
    for ns in declarations:
        prefix, uri = ns.get("prefix"), ns.get("uri")
        if prefix in seen:
            if seen[prefix] != uri:
                raise ValueError(f"prefix {prefix!r} is bound to both {seen[prefix]} and {uri}")
            continue
        seen[prefix] = uri
        out.append(ns)
    return out


def header(edition: str, odd_name: str) -> str:
    """The comment that opens the generated file: what it is, its sources and licences, how to rebuild it."""
    return f"""
  tei-apparatus.sch: the Schematron `collate validate` runs. Generated: do not edit by hand.
  Rebuild it with `{COMMAND}` after changing the ODD
  (or for another TEI release); the tests rebuild it and compare.

  ISO Schematron, query binding {QUERY_BINDING}. Two sources, copied unchanged:

  1. TEI's own constraints: the Schematron patterns embedded in the compiled TEI P5 grammar tei_all.rng,
     TEI Edition: {edition}.
     TEI material, (c) the TEI Consortium, dual-licensed under Creative Commons Attribution 3.0
     (http://creativecommons.org/licenses/by/3.0/) and the BSD 2-Clause licence
     (http://www.opensource.org/licenses/BSD-2-Clause); for use inside software, BSD-2 is the one that fits.

  2. collate's constraints: the constraintSpecs of collate/data/{odd_name}, the collate project's
     customisation of TEI (MIT licence); each pattern's id is its constraintSpec's ident.
"""


def build_schematron(tei_all: Path, odd: Path) -> bytes:
    """The Schematron schema of TEI's constraints (from ``tei_all``) and collate's (from ``odd``), as bytes."""
    parser = safe_parser()
    grammar = etree.parse(str(tei_all), parser)
    customisation = etree.parse(str(odd), parser)
    tei_ns, tei_rules = tei_patterns(grammar)
    if not tei_rules:
        raise ValueError(f"{tei_all} embeds no Schematron")
    odd_ns, keys, own_rules = odd_constraints(customisation)
    bindings = {d.get("queryBinding") for d in customisation.iterfind(f".//{{{TEI}}}constraintDecl")}
    if bindings - {QUERY_BINDING}:
        raise ValueError(f"{odd} declares the query binding {bindings}, not TEI's {QUERY_BINDING}")
    namespaces = _unique_namespaces([*tei_ns, *odd_ns])

    schema = etree.Element(f"{{{SCH}}}schema", nsmap={"sch": SCH, "xsl": XSL}, queryBinding=QUERY_BINDING)
    title = etree.Element(f"{{{SCH}}}title")
    title.text = "TEI P5's own Schematron and collate's apparatus constraints"
    parts: list[Any] = [title, *namespaces, *keys]
    parts += [etree.Comment(f" TEI's own constraints ({tei_all.name}, {tei_edition(grammar)}) ")]
    parts += tei_rules
    parts += [etree.Comment(f" collate's constraints ({odd.name}) ")]
    parts += own_rules
    for part in parts:
        copied = copy.deepcopy(part)
        # Each part on its own line; inside, the sources' own layout is kept (a message's spaces are its text).
        copied.tail = "\n\n  "
        schema.append(copied)
    schema.text = "\n  "
    schema[-1].tail = "\n"
    # The copies carry their sources' namespace declarations; one set at the top reads better. The prefixes
    # the XPaths use are kept: they are bound by sch:ns, but a reader looks for them here too.
    prefixes = [ns.get("prefix") for ns in namespaces]
    top = {"sch": SCH, "xsl": XSL, **{ns.get("prefix"): ns.get("uri") for ns in namespaces}}
    etree.cleanup_namespaces(schema, top_nsmap=top, keep_ns_prefixes=prefixes)
    schema.addprevious(etree.Comment(header(tei_edition(grammar), odd.name)))
    return bytes(etree.tostring(schema.getroottree(), xml_declaration=True, encoding="UTF-8")) + b"\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write ``collate/data/tei-apparatus.sch`` from the given ``tei_all.rng`` and the shipped ODD."""
    parser = argparse.ArgumentParser(prog="python -m collate.validate.build_schematron", description=__doc__)
    parser.add_argument("tei_all", type=Path, help="TEI P5's compiled tei_all.rng (its embedded Schematron is read)")
    parser.add_argument("--odd", type=Path, default=data_file("tei-apparatus.odd"), help="the customisation")
    parser.add_argument("--out", type=Path, default=data_file("tei-apparatus.sch"), help="the file to write")
    args = parser.parse_args(argv)
    try:
        data = build_schematron(args.tei_all, args.odd)
    except (OSError, etree.XMLSyntaxError, ValueError) as exc:
        print(f"build_schematron: {exc}", file=sys.stderr)
        return 1
    args.out.write_bytes(data)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
