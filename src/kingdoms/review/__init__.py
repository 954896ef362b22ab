"""Game review: the search bot's view of a finished game, decision by decision.

For every decision of a seat (or of every seat): the seat's estimated winning chance
before it, the move the search prefers and how much winning chance the move made
lost, with the uncertainty of both — all from that seat's view only.  See
:mod:`kingdoms.review.analysis` (one decision) and :mod:`kingdoms.review.game` (a game).
"""

from kingdoms.review.analysis import Budget, Candidate, Decision, analyse_position
from kingdoms.review.game import Review, default_workers, positions, review_game

__all__ = [
    "Budget",
    "Candidate",
    "Decision",
    "Review",
    "analyse_position",
    "default_workers",
    "positions",
    "review_game",
]
