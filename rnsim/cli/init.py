"""`rnsim init DIR`: a ready project from the example configs shipped with rnsim."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Write into a folder that is not empty (files of the same names are replaced).")
def init(folder: Path, force: bool) -> None:
    """Write a ready project into FOLDER (new or empty): the example configs
    (classic.toml, fbi.toml, large.toml, variants/), the balance gate's configs
    and baselines (ci/) and a GitHub Actions workflow that runs the gate. Every
    command below runs as is from FOLDER."""
    from rnsim.examples import write_project

    written = write_project(folder, force=force)
    click.echo(f"wrote {len(written)} files into {folder}/: {', '.join(p.as_posix() for p in written)}")
    click.echo(f"""next, from {folder}/:
  rnsim run classic.toml --games 200          # a tournament (Red Notice) into runs/classic/
  rnsim report runs/classic                   # its report again (report.md, report.html)
  rnsim run fbi.toml --games 200              # FBI at 3, 4 and 5 players
  rnsim compare variants/compare-target.toml  # two rule variants on the same games
  rnsim check --baseline ci/baseline.json     # the balance gate, as the workflow runs it""")
