"""The print layouts, one module a registered layout (a package for one that needs several).

Each module holds a ``READER`` (:class:`~collate.readers.base.LayoutReader`); the registry that
names them is :data:`collate.readers.LAYOUTS`.
"""
