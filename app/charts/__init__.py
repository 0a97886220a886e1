"""SVG charts written as plain strings: no plotting library, no script, and text
escaped, so a chart can go straight into a page under its strict content security
policy or into a file that diffs cleanly in git.

- scale.py: the one tick routine, an axis from a nice step, for every chart here;
- page.py: charts drawn into a page, scaled to its column (the admin's figures,
  and a line over time for what changes match by match);
- report.py: charts saved as files beside a report (the bots' balance report).
"""

from __future__ import annotations

from .scale import Axis, axis, nice

__all__ = ["Axis", "axis", "nice"]
