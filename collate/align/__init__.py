"""Alignment: witnesses of one layer aligned token by token (CollateX behind one adapter)."""
