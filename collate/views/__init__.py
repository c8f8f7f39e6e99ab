"""Terminal views: the only modules that know about rich."""
