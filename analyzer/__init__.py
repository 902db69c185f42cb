"""analyzer: a Monte Carlo strategy analyzer for race-and-bet board games."""
__version__ = "0.1.0"
