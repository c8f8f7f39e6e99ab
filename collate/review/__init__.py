"""``collate review``: the variant loci reviewed in the terminal, each decision saved at once.

``session`` is a review without a screen (the collation as run, the decisions file, the editor),
``app`` the full-screen Textual app over it; the decisions themselves, their file and how they
are applied are the stage :mod:`collate.decisions`. The review never collates: it loads the
saved run.
"""
