"""What happens to a tournament, for the apps that tell its players (sent after the commit).

Each signal is sent by ``tournaments.services`` once the change is committed, with the
tournament as ``sender``'s ``tournament`` argument; receivers must not raise (``send_robust``).

- ``registration_opened(tournament)``: registration has opened (once per tournament).
- ``registration_closing(tournament)``: it closes and round 1 opens within
  ``services.CLOSING_NOTICE`` (once per tournament).
- ``round_opened(tournament, round_number, game_ids)``: a round's games have started.
- ``tournament_finished(tournament)``: the final standings are written (``Player.final_rank``);
  also sent, with ``cancelled=True``, when a tournament is cancelled.
"""

from django.dispatch import Signal

registration_opened = Signal()
registration_closing = Signal()
round_opened = Signal()
tournament_finished = Signal()
