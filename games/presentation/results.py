"""How a finished game came out, on the table: the line that says it and, in a team game, each
team with its players and whether it lost. The engine says who lost (``durak.Game.outcome``);
the sentences are ``games.words``'."""

import durak

from .. import words


def result_line(engine: durak.Game | None, me: int | None, names: dict[int, str]) -> str:
    """ "The game is over: anna is the fool." ("" while the game runs)."""
    outcome = engine.outcome() if engine is not None else None
    if engine is None or outcome is None:
        return ""
    return words.outcome_sentence(outcome, me=me, names=names, teams=bool(engine.teams))


def team_results(engine: durak.Game | None, names: dict[int, str]) -> list[tuple[str, str, bool]]:
    """(team, its players, lost) for each team of a finished team game, else none."""
    outcome = engine.outcome() if engine is not None else None
    if engine is None or outcome is None or not engine.teams:
        return []
    return [
        (
            words.TEAM_WORDS[index](),
            words.join_names([words.player_name(p, names) for p in team]),
            outcome.losing_team == index,
        )
        for index, team in enumerate(engine.teams)
    ]
