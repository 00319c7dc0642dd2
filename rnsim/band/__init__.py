"""The strength band: how much a run's verdict depends on the players.

A run's main cells give the verdict with one set of players (the config's
first strategy per seat, "the main pair"); its interval is sampling error
only. The band cells, played in the same run on the same rules, master seed
and game indices (so each pairs with the main cell of its setup), give the
same answer with other players: the levels of the ladder (e.g. search in
each seat against the main pair, and search against search) and the game's
built-in probes, each against the strategy it is built on (its base). The
report states the spread beside the sampling interval.

- :mod:`rnsim.band.config`: the run config's ``[band]`` table;
- :mod:`rnsim.band.plan`: the band's lineups and cells (the run's plan);
- :mod:`rnsim.band.analysis`: the band's tables from a run directory;
- :mod:`rnsim.band.words`: the headline sentence and the report section.
"""
