"""Running the server in production: health and readiness probes, Prometheus
metrics, JSON logs with request ids (docs/operations.md).

A wing like the API: it reads the parts below it and wraps two of them (the
gateway and the bus, meters.py) so that counting costs the tuned code nothing;
app/main.py wires it in.
"""

from .logs import REQUEST_ID
from .logs import configure as configure_logs
from .meters import MeteredBus, MeteredGateway, metered_bus
from .metrics import Metrics
from .outermost import Ops, OpsOutermost

__all__ = ["REQUEST_ID", "MeteredBus", "MeteredGateway", "Metrics", "Ops", "OpsOutermost", "configure_logs",
           "metered_bus"]
