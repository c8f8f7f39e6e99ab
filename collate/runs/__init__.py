"""A run kept in its output folder: the manifest of its set, the set written whole, the run saved and loaded.

``manifest`` records what a run read and wrote (with their SHA-256), ``outputs`` writes a run's
files as one set (a killed run leaves the old set or the new one), ``saved`` keeps the run itself so
that every command after ``collate run`` loads it instead of collating again.
"""
