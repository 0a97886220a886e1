"""Computer analysis of finished matches: each position searched by the
`strong` level's search to a fixed depth, each action judged by what it cost
its player, an accuracy per player (judge.py says the thresholds and the
formula), queued fairly and searched in worker processes (service.py)."""

from .answers import finished_analysis
from .errors import NoAnalysis, TooManyAnalyses
from .notes import record_notes
from .service import Analyses
from .store import Asker

__all__ = ["Analyses", "Asker", "NoAnalysis", "TooManyAnalyses", "finished_analysis", "record_notes"]
