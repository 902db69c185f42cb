"""Statistics of runs: confidence intervals (``intervals``), exactly mergeable
chunked accumulators (``aggregate``), the per-seat outcome tables every game's
report shows (``outcomes``) and each game's balance statistics, which the game
names in its ``GameInfo.stats`` (a game's aggregator by its name:
``analyzer.games.new_stats``). It imports no game, no registry, no engine."""
