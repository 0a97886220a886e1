"""Swiss events: a fixed number of rounds, every present player paired each
round by the FIDE Dutch system (py4swiss), standings with Buchholz and
Sonneborn-Berger, and a TRF-16 export. The rules (record.py, dutch.py,
tiebreaks.py, trf.py) are pure; store.py and service.py keep an event in the
database and make its games through the matches' gateway."""

from .service import NewSwiss, Swisses

__all__ = ["NewSwiss", "Swisses"]
