"""The analyzer's version, in a module that imports nothing: the engine, the
report and the apps read it here, not from the ``analyzer`` package, whose
``__init__`` imports the whole Python API (``api.py``)."""
__version__ = "0.2.0"
