"""Why a request for an analysis, or a read of one, is refused."""

from __future__ import annotations

from app.kernel.errors import ServiceError


class TooManyAnalyses(ServiceError):
    """Over a bound of the queue (ANALYSIS_PER_ADDRESS, ANALYSIS_PER_DAY): the
    answer's Retry-After says when to ask again."""

    status, code = 429, "too_many_analyses"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail, retry_after=retry_after)


class NoAnalysis(ServiceError):
    status, code = 404, "no_analysis"
