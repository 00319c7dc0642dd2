"""Probes: specialist players, each built to punish one habit of a player.

``rnsim exploit`` plays a strategy pair against each probe in the probe's
seat, paired against the pair's self-play on the same game indices: a probe
that moves Angela's win rate by more than a few points has found a habit the
opponent can be punished for (docs/strategies.md, "Exploitability").

A probe is registered here by name with the seat it plays; any
``module:Class`` can be run as a probe too (``rnsim exploit --probe
angela=module:Class``).
"""

from __future__ import annotations

from typing import NamedTuple


class Probe(NamedTuple):
    name: str
    seat: str  # "angela" or "jessah": the seat the probe takes over
    ref: str  # strategy reference
    habit: str  # the habit of the opponent it punishes


PROBES: tuple[Probe, ...] = (
    Probe("dodger", "angela", "rnsim_strategies.red_notice.probes.forgers:Dodger",
          "agent inspects predictably: the forger plans on the exact belief she leaves and avoids the cities "
          "a copy of the agent would inspect next"),
    Probe("dodger_mixed", "angela", "rnsim_strategies.red_notice.probes.forgers:MixedDodger",
          "the dodger, avoiding every city an agent drawing among near-equal hunts may inspect first"),
    Probe("dossier_dodger", "angela", "rnsim_strategies.red_notice.probes.forgers:DossierDodger",
          "agent trusts a model of a planning forger (search's dossier): the forger keeps the same dossier on "
          "herself and, among near-best plans, ends where it will believe her least likely"),
    Probe("safe_casher", "angela", "rnsim_strategies.red_notice.probes.forgers:SafeCasher",
          "agent waits for the forger to reveal herself next to her: the forger never cashes within the agent's "
          "reach unless it wins"),
    Probe("decoy_spender", "angela", "rnsim_strategies.red_notice.probes.forgers:DecoySpender",
          "agent reads a white radar removed without an announcement as the forger being near it: the forger "
          "spends her security at once on the radar that points the agent at most of the belief away from her"),
    Probe("pow_denier", "angela", "rnsim_strategies.red_notice.probes.forgers:PowDenier",
          "agent's movement tokens can be denied in the bidding: the forger places her POW! facing Jessah's token "
          "on a Movement half (R2), cancelling that movement, and performs both halves"),
    Probe("pow_runner", "angela", "rnsim_strategies.red_notice.probes.forgers:PowRunner",
          "the denier, running while she denies: on the card she took she spends Jessah's movement getting "
          "away from her while Jessah is within 3 steps"),
    Probe("pow_seer", "angela", "rnsim_strategies.red_notice.probes.forgers:PowSeer",
          "agent's movement can be denied where it would find the forger: the forger keeps her POW! for last and "
          "places it facing the Movement token whose inspections (a copy of the agent's hunt) would find her (R2), "
          "running on the card she took as the runner"),
    Probe("leak_reader", "jessah", "rnsim_strategies.red_notice.probes.agents:LeakReader",
          "forger's radar removals leak her continent: the agent hunts on the continent whose white radar "
          "vanished without an announcement"),
    Probe("leak_reader_near", "jessah", "rnsim_strategies.red_notice.probes.agents:LeakReaderNear",
          "the same, also hunting the belief cities nearest the last sighting first"),
    Probe("near_hunter", "jessah", "rnsim_strategies.red_notice.probes.agents:NearHunter",
          "forger stays near where she was last seen: the agent hunts the belief cities nearest the last "
          "sighting first"),
    Probe("dossier_hunter", "jessah", "rnsim_strategies.red_notice.probes.agents:DossierHunter",
          "forger's plans are predictable: the agent keeps a dossier of 200 guesses on a planning "
          "forger and hunts on it"),
    Probe("sharp_hunter", "jessah", "rnsim_strategies.red_notice.probes.agents:SharpHunter",
          "forger's plans are very predictable: the dossier hunter trusting its model of a planning forger "
          "more (colder choice, fewer off-model moves, less mass spread over the belief)"),
    Probe("ahead_hunter", "jessah", "rnsim_strategies.red_notice.probes.agents:AheadHunter",
          "forger's next movement stays within reach of where a hunt ends: the dossier hunter weighing twice "
          "as much (AHEAD 0.6) the dossier's mass it can reach after her next movement"),
    Probe("thousand_hunter", "jessah", "rnsim_strategies.red_notice.probes.agents:ThousandHunter",
          "a bigger dossier reads the forger better: the agent keeps 1,000 guesses (search's Jessah) where "
          "the expert keeps 64"),
    Probe("security_weigher", "jessah", "rnsim_strategies.red_notice.probes.agents:SecurityWeigher",
          "agent places her radars and barriers where the forger can be, not where she likely is: the agent "
          "bars the exits of the cities her dossier weighs most, barriers weighing 3 times the expert's"),
    Probe("pow_warden", "jessah", "rnsim_strategies.red_notice.probes.agents:PowWarden",
          "forger bids as if her POW! could not be denied: the agent keeps her movement tokens off halves the "
          "forger's POW! could cancel while it is likely in her hand (R2)"),
    Probe("pow_pinner", "jessah", "rnsim_strategies.red_notice.probes.agents:PowPinner",
          "forger's movement and cash can be denied in the bidding: the agent keeps her POW! for last and places "
          "it facing the forger's token on a Movement or Bank half (R2), cancelling it, and performs both halves"),
)

PROBE_NAMES = tuple(p.name for p in PROBES)


def probe(name: str) -> Probe:
    for p in PROBES:
        if p.name == name:
            return p
    raise KeyError(name)
