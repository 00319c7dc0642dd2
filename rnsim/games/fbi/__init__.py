"""FBI, a card game for 3-5 players, behind rnsim's game boundary (``game:GAME``)."""
