"""The config a levers command plays, read and validated once at the
command's edge and handed down: `rnsim sweep`, `tune` and `levers` build every
run config they play from it, without reading the file again."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rnsim.errors import ConfigError

if TYPE_CHECKING:
    from rnsim.config import RunConfig


@dataclass(frozen=True)
class Change:
    """One rule variant: ``knobs`` on top of the config's rules (or, with
    ``never``, restricted play under the config's rules)."""

    name: str  # the variant name in the run
    label: str  # what a designer reads, e.g. "money_target 1,000,000 -> 900,000"
    knobs: Mapping[str, Any]
    kind: str = "knob"  # "knob", "base", or the game's lever kind
    subject: str = ""  # the knob or the thing the lever changes
    never: str | None = None
    decision: str | None = None


BASE = Change("base", "base rules", {}, "base")


def _toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None


@dataclass(frozen=True)
class LeverConfig:
    """A config as the levers commands play it: one rule set. A config with
    ``[[variants]]`` gives the rules of ``variant`` (default: the first, the
    reference `rnsim compare` uses), folded into ``[rules]``."""

    path: Path
    variant: str | None
    file: Mapping[str, Any]  # the TOML as written
    whole: RunConfig  # the config as written, variants and all ([sweep] set aside)
    rule_set: Mapping[str, Any]  # the TOML of the one rule set played

    @classmethod
    def read(cls, path: Path, variant: str | None = None) -> LeverConfig:
        from rnsim.config import config_from_mapping

        file = _toml(path)
        if not file.get("variants") and variant is not None:
            raise ConfigError(f"--variant: {path} has no [[variants]]; leave --variant out")
        whole = config_from_mapping({k: v for k, v in file.items() if k != "sweep"}, src=str(path),
                                    base_dir=path.parent, path=path)
        return cls(path, variant, file, whole, _one_rule_set(file, whole, path, variant))

    @property
    def game(self) -> Any:
        return self.whole.game_obj

    @property
    def sweep_table(self) -> Any:
        """The file's ``[sweep]`` table (None without one): only `rnsim sweep` reads it."""
        return self.file.get("sweep")

    def note(self) -> str | None:
        """What to tell a designer whose config has variants (None when it has none)."""
        names = [str(v.get("name")) for v in self.file.get("variants") or [] if isinstance(v, dict)]
        if not names:
            return None
        return (f"note: {self.path} has variants {', '.join(names)}: these commands vary the rules of "
                f"{self.variant or names[0]!r} (choose another with --variant)")

    def setups(self, mode: str) -> Any:
        """The setup value the levers commands play: the game's ``lever_setups``
        with mode "game" (None when the game keeps the config's), None with "config"."""
        if mode not in ("game", "config"):
            raise ConfigError(f'--setups: must be "game" or "config", got {mode!r}')
        return getattr(self.game, "lever_setups", None) if mode == "game" else None

    def base(self, **overrides: Any) -> RunConfig:
        """The run config of the one rule set the levers commands start from."""
        return self._build(self._raw(), overrides)

    def with_changes(self, changes: Sequence[Change], *, setups: Any = None,
                     strategies: Mapping[str, list[Any]] | None = None, **overrides: Any) -> RunConfig:
        """The run config playing every change (and nothing else) as a variant."""
        raw = self._raw()
        raw["variants"] = [{"name": c.name, **c.knobs} for c in changes]
        if strategies is not None:
            for seat, specs in strategies.items():
                raw.setdefault("strategies", {})[seat] = specs
        if setups is not None:
            raw.setdefault("run", {})[self.game.setup_key] = setups
        return self._build(raw, overrides)

    def _raw(self) -> dict[str, Any]:
        raw = copy.deepcopy(dict(self.rule_set))
        raw.pop("sweep", None)  # rnsim sweep's own table; the tournament does not know it
        raw.pop("band", None)  # the strength band is the report's; a lever plays the main pair only
        return raw

    def _build(self, raw: dict[str, Any], overrides: Mapping[str, Any]) -> RunConfig:
        from rnsim.config import config_from_mapping

        return config_from_mapping(raw, src=str(self.path), base_dir=self.path.parent, path=self.path, **overrides)


def _one_rule_set(file: Mapping[str, Any], whole: RunConfig, path: Path, variant: str | None) -> dict[str, Any]:
    if not file.get("variants"):
        return dict(file)
    names = [v.name for v in whole.variants]
    chosen = whole.variants[0] if variant is None else next((v for v in whole.variants if v.name == variant), None)
    if chosen is None:
        raise ConfigError(f"--variant: {path} has no variant {variant!r}; its variants: {', '.join(names)}")
    raw = {k: v for k, v in file.items() if k != "variants"}
    to_dict = getattr(chosen.rules, "to_dict", None)
    raw["rules"] = dict(to_dict()) if to_dict is not None else dict(raw.get("rules", {}))
    return raw


def lever_config(config: LeverConfig | Path, variant: str | None = None) -> LeverConfig:
    """``config`` itself, or the file at that path read once."""
    return config if isinstance(config, LeverConfig) else LeverConfig.read(config, variant)
