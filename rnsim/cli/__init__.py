"""The `rnsim` command line. Each command lives with the layer it drives; this
module only wires them into one click group and turns rnsim's input errors into
clear messages with exit code 2."""

from __future__ import annotations

import sys

import click

from rnsim.errors import RnsimError


class _Group(click.Group):
    def invoke(self, ctx: click.Context):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except RnsimError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(e.exit_code)


@click.group(cls=_Group)
@click.version_option(package_name="rnsim")
def main() -> None:
    """rnsim: play board games (Red Notice, FBI, ...) by the million to measure their balance."""


from rnsim.cli.bench import bench  # noqa: E402
from rnsim.cli.drift import baseline, check, compare  # noqa: E402
from rnsim.cli.exploit import exploit  # noqa: E402
from rnsim.cli.init import init  # noqa: E402
from rnsim.cli.ladder import ladder  # noqa: E402
from rnsim.cli.levers import levers, sweep, tune  # noqa: E402
from rnsim.cli.play import play, replay  # noqa: E402
from rnsim.cli.report import report  # noqa: E402
from rnsim.cli.run import run  # noqa: E402
from rnsim.cli.verify import verify  # noqa: E402

main.add_command(init)
main.add_command(play)
main.add_command(replay)
main.add_command(run)
main.add_command(bench)
main.add_command(ladder)
main.add_command(compare)
main.add_command(baseline)
main.add_command(check)
main.add_command(report)
main.add_command(verify)
main.add_command(exploit)
main.add_command(sweep)
main.add_command(tune)
main.add_command(levers)
